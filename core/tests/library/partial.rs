//! Partials (contract section 7, `--partial` and `merge`): any split of a batch into
//! runs of lines, analysed apart and merged in any order and grouping (through their
//! bytes or not), finishes as the batch view of the whole batch read at once.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use ragtrace_core::generate_batch_lines;
use ragtrace_core::parse_document_bytes;
use ragtrace_core::{analyze, DecodeError, MergeError, Partial, Settings};
use serde_json::Value;

/// The JSON `ragtrace analyze --summary --sweep` prints for these documents, read
/// whole (not through partials).
fn whole_view(settings: &Settings, documents: &[(&str, Vec<u8>)]) -> String {
    let batch = ragtrace_core::ParsedBatch::concat(
        documents
            .iter()
            .map(|(source, bytes)| parse_document_bytes(source, bytes)),
    );
    let analysis = analyze(&batch, settings, true).expect("valid settings");
    let mut value = serde_json::to_value(&analysis).expect("serialisable");
    if let Some(object) = value.as_object_mut() {
        object.remove("traces");
    }
    value.to_string()
}

/// The finished view as `whole_view` writes it (keys in `Value`'s order; the CLI's
/// end-to-end tests compare the printed bytes).
fn view(partial: &Partial) -> String {
    serde_json::to_value(partial.finish(true))
        .expect("serialisable")
        .to_string()
}

/// A line of a document: a generated trace, sometimes without its `requestId` (named
/// by its position then), with an odd recorded level, broken, blank or not UTF-8.
fn line(trace: &str, kind: u8) -> Vec<u8> {
    let mut value: Value = serde_json::from_str(trace).expect("generated JSON");
    match kind {
        0 | 1 => {
            if let Some(object) = value.as_object_mut() {
                object.remove("requestId");
                object.remove("request_id");
            }
        }
        2 => value["relevanceLevel"] = Value::from(" weird-level "),
        3 => return b"{\"candidates\": [".to_vec(),
        4 => return Vec::new(),
        5 => return b"{\"requestId\": \"bad \xff bytes\", \"candidates\": []}".to_vec(),
        6 => return b"[1, 2]".to_vec(),
        7 => value["options"] = serde_json::json!({ "maxL2Distance": -5 }),
        _ => {}
    }
    value.to_string().into_bytes()
}

/// Lines of one JSON Lines document: the first is always a whole trace and the
/// second is not blank, so the document reads as JSON Lines (else it is one JSON
/// document, read by its own rules).
fn document_lines(count: usize, seed: u64, kinds: &[u8]) -> Vec<Vec<u8>> {
    generate_batch_lines(count, 3, seed)
        .enumerate()
        .map(|(i, trace)| match i {
            0 => trace.into_bytes(),
            // A second line that is not blank: the whole document is JSON Lines.
            1 => line(
                &trace,
                kinds.get(i).copied().filter(|&k| k != 4).unwrap_or(9),
            ),
            _ => line(&trace, kinds.get(i).copied().unwrap_or(9)),
        })
        .collect()
}

fn joined(lines: &[Vec<u8>]) -> Vec<u8> {
    lines.join(&b"\n"[..])
}

fn settings_of(choice: u8) -> Settings {
    let mut settings = Settings::default();
    match choice {
        1 => settings
            .set("maxL2Distance", "0.5")
            .expect("a valid setting"),
        2 => settings
            .set("useTraceOptions", "false")
            .expect("a valid setting"),
        _ => {}
    }
    settings
}

/// Cuts `0..len` at the given fractions: runs of lines, in order, covering every line.
fn runs(len: usize, cuts: &[u16]) -> Vec<(usize, usize)> {
    let mut at: Vec<usize> = cuts
        .iter()
        .map(|&c| usize::from(c) * len / usize::from(u16::MAX))
        .collect();
    at.extend([0, len]);
    at.sort_unstable();
    at.dedup();
    at.windows(2).map(|w| (w[0], w[1])).collect()
}

/// Merges `parts` in groups of the given sizes (each group through its bytes when
/// `through_bytes`), then the groups' results.
fn merge_grouped(mut parts: Vec<Partial>, groups: &[usize], through_bytes: bool) -> Partial {
    let mut merged = Vec::new();
    let mut sizes = groups.iter().cycle();
    while !parts.is_empty() {
        let size = (*sizes.next().unwrap_or(&1)).clamp(1, parts.len());
        let group: Vec<Partial> = parts.drain(..size).collect();
        let one = Partial::merge(group).expect("same settings");
        merged.push(if through_bytes {
            Partial::from_bytes(&one.to_bytes()).expect("its own bytes")
        } else {
            one
        });
    }
    Partial::merge(merged).expect("same settings")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn any_split_merged_in_any_order_is_the_whole(
        kinds_a in proptest::collection::vec(0u8..12, 2..40),
        kinds_b in proptest::collection::vec(0u8..12, 2..12),
        seed in 0u64..1_000,
        cuts_a in proptest::collection::vec(any::<u16>(), 0..6),
        cuts_b in proptest::collection::vec(any::<u16>(), 0..3),
        order in any::<u64>(),
        groups in proptest::collection::vec(1usize..4, 1..4),
        settings in 0u8..3,
        through_bytes in any::<bool>(),
    ) {
        let settings = settings_of(settings);
        let a = document_lines(kinds_a.len(), seed, &kinds_a);
        let b = document_lines(kinds_b.len(), seed + 1, &kinds_b);
        // Sources in name order: the batch order of merged partials.
        let whole = whole_view(&settings, &[("a.jsonl", joined(&a)), ("b.jsonl", joined(&b))]);

        let mut parts = Vec::new();
        for (source, lines, cuts) in [("a.jsonl", &a, &cuts_a), ("b.jsonl", &b, &cuts_b)] {
            for (start, end) in runs(lines.len(), cuts) {
                let partial = Partial::from_lines(&settings, source, start + 1, &lines[start..end])
                    .expect("valid settings");
                parts.push(partial);
            }
        }
        // Any order: a permutation drawn from `order`.
        let mut state = order | 1;
        for i in (1..parts.len()).rev() {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            let j = usize::try_from(state >> 33).unwrap_or(0) % (i + 1);
            parts.swap(i, j);
        }
        let merged = merge_grouped(parts, &groups, through_bytes);
        prop_assert_eq!(view(&merged), whole);
    }
}

/// A document read whole as a partial is the whole view, in any chunking, and so is
/// a document that is one JSON object or array rather than lines.
#[test]
fn a_document_read_whole_is_its_view() {
    let settings = Settings::default();
    let kinds: Vec<u8> = (0..30).map(|i| (i % 12) as u8).collect();
    let lines = joined(&document_lines(30, 5, &kinds));
    let array = ragtrace_core::generate_batch(12, 4, 9).into_bytes();
    for (source, bytes) in [("lines.jsonl", &lines), ("one.json", &array)] {
        let whole = whole_view(&settings, &[(source, bytes.clone())]);
        let at_once = Partial::from_document(&settings, source, bytes).expect("valid settings");
        assert_eq!(view(&at_once), whole);
        let mut builder =
            ragtrace_core::PartialBuilder::document(&settings, source).expect("valid settings");
        for chunk in bytes.chunks(7) {
            builder.push_chunk(chunk);
        }
        assert_eq!(view(&builder.finish()), whole);
    }
}

/// Partials of different settings are refused, naming the setting; an empty merge too.
#[test]
fn partials_of_different_settings_do_not_merge() {
    let lines = document_lines(4, 3, &[]);
    let one = Partial::from_lines(&settings_of(0), "a", 1, &lines).expect("valid");
    let other = Partial::from_lines(&settings_of(1), "a", 5, &lines).expect("valid");
    let err = Partial::merge([one.clone(), other]).expect_err("different settings");
    assert_eq!(
        err,
        MergeError::Settings {
            key: "maxL2Distance".into(),
            one: "not set".into(),
            another: "0.5".into()
        }
    );
    assert!(err
        .to_string()
        .contains("maxL2Distance is not set in one and 0.5 in another"));
    assert_eq!(Partial::merge(Vec::new()).err(), Some(MergeError::Nothing));
    let empty = Partial::empty(&settings_of(0)).expect("valid");
    assert_eq!(
        view(&Partial::merge([empty, one.clone()]).expect("same settings")),
        view(&one)
    );
}

/// Bytes that are not a partial, of another version, cut short or altered are
/// errors that say so; a partial's own bytes read back as it.
#[test]
fn corrupt_bytes_are_errors_not_panics() {
    let lines = document_lines(20, 4, &[0, 3, 5, 7, 2, 0, 4]);
    let partial = Partial::from_lines(&settings_of(1), "a", 1, &lines).expect("valid");
    let bytes = partial.to_bytes();
    let back = Partial::from_bytes(&bytes).expect("its own bytes");
    assert_eq!(view(&back), view(&partial));
    assert_eq!(back.to_bytes(), bytes);

    assert_eq!(
        Partial::from_bytes(b"{}").err(),
        Some(DecodeError::NotAPartial)
    );
    let mut other_version = bytes.clone();
    other_version[ragtrace_core::PARTIAL_MAGIC.len()] = 9;
    let err = Partial::from_bytes(&other_version).expect_err("another version");
    assert_eq!(err, DecodeError::Version { found: 9 });
    assert!(err.to_string().contains("version 9"), "{err}");
    for cut in [17, 18, bytes.len() / 2, bytes.len() - 1] {
        assert!(matches!(
            Partial::from_bytes(&bytes[..cut]),
            Err(DecodeError::Corrupt(_))
        ));
    }
    // Counts at the edge of their type: merged, they saturate rather than overflow.
    let header = ragtrace_core::PARTIAL_MAGIC.len() + 2;
    let mut body: Value = serde_json::from_slice(&bytes[header..]).expect("a JSON body");
    fn set_traces(value: &mut Value) {
        match value {
            Value::Object(map) => {
                for (key, inner) in map.iter_mut() {
                    if key == "traces" && inner.is_u64() {
                        *inner = Value::from(u64::MAX - 1);
                    } else {
                        set_traces(inner);
                    }
                }
            }
            Value::Array(items) => items.iter_mut().for_each(set_traces),
            _ => {}
        }
    }
    set_traces(&mut body);
    let mut edge = bytes[..header].to_vec();
    edge.extend_from_slice(body.to_string().as_bytes());
    let read = Partial::from_bytes(&edge).expect("large counts are counts");
    let twice = Partial::merge([read.clone(), read]).expect("same settings");
    assert_eq!(twice.traces(), usize::MAX);
    assert_eq!(twice.finish(false).summary.all.traces, usize::MAX);
    // Every single byte changed: an error or a partial, never a panic.
    for at in (ragtrace_core::PARTIAL_MAGIC.len() + 2)..bytes.len() {
        let mut altered = bytes.clone();
        altered[at] ^= 0x15;
        if let Ok(read) = Partial::from_bytes(&altered) {
            let _ = view(&read);
            if let Ok(twice) = Partial::merge([read.clone(), read]) {
                let _ = view(&twice);
            }
        }
    }
}

/// The lines of a generated batch for golden evaluation: some traces repeated later
/// (the first must win), some without `requestId`, some given a case's `caseId`.
fn golden_lines(count: usize, seed: u64, repeats: &[(u16, u16)], ids: &[u16]) -> Vec<Vec<u8>> {
    let mut traces: Vec<Value> = generate_batch_lines(count, 3, seed)
        .map(|line| serde_json::from_str(&line).expect("generated JSON"))
        .collect();
    for &(from, to) in repeats {
        let from = usize::from(from) % count;
        let mut copy = traces[from].clone();
        if let Some(object) = copy.as_object_mut() {
            object.remove("requestId");
            object.remove("request_id");
        }
        let to = (usize::from(to) % count).max(from + 1);
        traces.insert(to.min(traces.len()), copy);
    }
    for &at in ids {
        let at = usize::from(at) % traces.len();
        traces[at]["caseId"] = Value::from(format!("gen-case-{:03}", at % 7));
    }
    traces.iter().map(|t| t.to_string().into_bytes()).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn sharded_golden_evaluation_is_the_whole(
        seed in 0u64..1_000,
        repeats in proptest::collection::vec((any::<u16>(), any::<u16>()), 0..8),
        ids in proptest::collection::vec(any::<u16>(), 0..4),
        cuts in proptest::collection::vec(any::<u16>(), 0..6),
        reverse in any::<bool>(),
        through_bytes in any::<bool>(),
    ) {
        let count = 60;
        let settings = Settings::default();
        let lines = golden_lines(count, seed, &repeats, &ids);
        let mut cases_text: Value = serde_json::from_str(
            &ragtrace_core::generate_cases(count, 3, seed),
        ).expect("generated cases");
        // Cases that link by caseId, some to traces given that id above.
        if let Some(list) = cases_text["cases"].as_array_mut() {
            for i in 0..7 {
                list.push(serde_json::json!({
                    "caseId": format!("gen-case-{i:03}"),
                    "expectedDocIds": ["doc-1"]
                }));
            }
        }
        let cases = ragtrace_core::parse_cases("cases.json", &cases_text.to_string())
            .expect("valid cases");

        let batch = parse_document_bytes("runs.jsonl", &joined(&lines));
        let analysis = analyze(&batch, &settings, false).expect("valid settings");
        let whole = serde_json::to_value(ragtrace_core::evaluate_with_floor_sweep(&cases, &analysis))
            .expect("serialisable");

        let mut parts: Vec<ragtrace_core::CaseMatches> = runs(lines.len(), &cuts)
            .into_iter()
            .map(|(start, end)| {
                ragtrace_core::CaseMatches::from_lines(&settings, &cases, "runs.jsonl", start + 1, &lines[start..end])
                    .expect("valid settings")
            })
            .map(|m| if through_bytes {
                ragtrace_core::CaseMatches::from_bytes(&m.to_bytes()).expect("its own bytes")
            } else {
                m
            })
            .collect();
        if reverse {
            parts.reverse();
        }
        let merged = ragtrace_core::CaseMatches::merge(parts).expect("same settings and cases");
        // The evaluation links cases (by query and by caseId) and lists unlinked traces.
        let linked = whole["cases"].as_array().map_or(0, |c| c.iter().filter(|c| !c["linkedBy"].is_null()).count());
        prop_assert!(linked >= 5, "{}", whole["cases"]);
        prop_assert!(whole["unlinkedTraces"].as_array().is_some_and(|u| !u.is_empty()));
        prop_assert_eq!(merged.traces(), analysis.traces.len());
        let sharded = serde_json::to_value(merged.evaluate(&cases).expect("the same cases"))
            .expect("serialisable");
        prop_assert_eq!(sharded, whole);
    }
}

/// A span file sharded by trace (docs/scale.md): its partials, merged, count the spans
/// that are not retrievals as the file read whole does. The fixture's 9 lines hold one
/// retrieval each and 28 other spans in all (tests/library/otlp.rs).
#[test]
fn partials_of_a_span_file_keep_its_skipped_spans() {
    let settings = Settings::default();
    let source = "otel/llamaindex-cosine.jsonl";
    let text = crate::common::fixture(source);
    let lines: Vec<Vec<u8>> = text
        .lines()
        .map(|l| format!("{l}\n").into_bytes())
        .collect();
    let whole = whole_view(&settings, &[(source, joined(&lines))]);
    assert!(whole.contains(r#""skippedSpans":28"#), "{whole}");
    let parts = [(0, 4), (4, 9)].map(|(start, end)| {
        Partial::from_lines(&settings, source, start + 1, &lines[start..end]).expect("valid")
    });
    let merged = Partial::merge(parts).expect("same settings");
    assert_eq!(view(&merged), whole);
    let through_bytes = Partial::from_bytes(&merged.to_bytes()).expect("its own bytes");
    assert_eq!(view(&through_bytes), whole);
}
