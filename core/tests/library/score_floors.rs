//! Score floors (contract section 10.2): `minQuality` and `relativeQuality`, the
//! trace's `floor`, and the status `below_floor` in the walk of section 3.3.

use ragtrace_core::{analyze, parse_document, Settings};
use serde_json::Value;

/// A dense trace under the default `maxL2Distance` 1, so q = 1 - score. Scores are
/// dyadic so every quality is exact:
///
/// | rank | key | doc | score  | q      |
/// |------|-----|-----|--------|--------|
/// | 1    | a#1 | a   | 0.25   | 0.75   |
/// | 2    | a#2 | a   | 0.375  | 0.625  |
/// | 3    | b#1 | b   | 0.5    | 0.5    |
/// | 4    | a#1 | a   | 0.875  | 0.125  | (duplicate of rank 1)
/// | 5    | c#1 | c   | 0.625  | 0.375  |
/// | 6    | a#3 | a   | 0.3125 | 0.6875 |
/// | 7    | d#1 | d   | 0.75   | 0.25   |
/// | 8    | d#1 | d   | 0.75   | 0.25   | (duplicate of rank 7)
///
/// qMax over the valid candidates = 0.75.
const TRACE: &str = r#"{"requestId":"floors","mode":"dense","candidates":[
 {"evidenceKey":"a#1","docId":"a","originalRank":1,"score":0.25,"scoreLabel":"dense"},
 {"evidenceKey":"a#2","docId":"a","originalRank":2,"score":0.375,"scoreLabel":"dense"},
 {"evidenceKey":"b#1","docId":"b","originalRank":3,"score":0.5,"scoreLabel":"dense"},
 {"evidenceKey":"a#1","docId":"a","originalRank":4,"score":0.875,"scoreLabel":"dense"},
 {"evidenceKey":"c#1","docId":"c","originalRank":5,"score":0.625,"scoreLabel":"dense"},
 {"evidenceKey":"a#3","docId":"a","originalRank":6,"score":0.3125,"scoreLabel":"dense"},
 {"evidenceKey":"d#1","docId":"d","originalRank":7,"score":0.75,"scoreLabel":"dense"},
 {"evidenceKey":"d#1","docId":"d","originalRank":8,"score":0.75,"scoreLabel":"dense"}]}"#;

fn settings(pairs: &[(&str, &str)]) -> Settings {
    let mut settings = Settings::default();
    for (key, value) in pairs {
        settings.set(key, value).expect("a valid setting");
    }
    settings
}

fn trace_json(text: &str, settings: &Settings) -> Value {
    let batch = parse_document("t.json", text);
    let analysis = analyze(&batch, settings, false).expect("valid settings");
    serde_json::to_value(&analysis).expect("serialises")["traces"][0].clone()
}

/// Each block's status, in processing order (rank order here).
fn statuses(trace: &Value) -> Vec<String> {
    trace["blocks"]
        .as_array()
        .expect("blocks")
        .iter()
        .map(|b| b["status"].as_str().unwrap_or("").to_owned())
        .collect()
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| (*s).to_owned()).collect()
}

#[test]
fn no_floor_changes_nothing() {
    let trace = trace_json(TRACE, &Settings::default());
    assert_eq!(trace["floor"], 0.0);
    assert_eq!(
        statuses(&trace),
        strings(&[
            "accepted",
            "accepted",
            "accepted",
            "duplicate",
            "accepted",
            "doc_cap",
            "accepted",
            "duplicate"
        ])
    );
    assert_eq!(trace["stages"]["belowFloor"], 0);
}

/// minQuality 0.4: ranks 5 (0.375) and 7 (0.25) fall below; rank 6 (0.6875) is still
/// capped (a holds ranks 1 and 2); rank 8 repeats rank 7's key, which is seen though
/// rank 7 was below the floor.
#[test]
fn an_absolute_floor() {
    let trace = trace_json(TRACE, &settings(&[("minQuality", "0.4")]));
    assert_eq!(trace["floor"], 0.4);
    assert_eq!(
        statuses(&trace),
        strings(&[
            "accepted",
            "accepted",
            "accepted",
            "duplicate",
            "below_floor",
            "doc_cap",
            "below_floor",
            "duplicate"
        ])
    );
    let blocks = trace["blocks"].as_array().expect("blocks");
    assert_eq!(blocks[7]["duplicateOfRank"], 7);
    assert_eq!(
        blocks[4]["statusReason"],
        "quality 0.375 is below the score floor 0.4"
    );
    assert_eq!(trace["stages"]["belowFloor"], 2);
    assert_eq!(trace["stages"]["accepted"], 3);
    assert_eq!(trace["topQuality"], 0.75);
}

/// relativeQuality 0.5: floor = 0.5 x 0.75 = 0.375, exactly rank 5's quality, which is
/// kept (a quality equal to the floor is not below it); rank 7 (0.25) is below.
#[test]
fn a_relative_floor_and_a_quality_equal_to_it() {
    let trace = trace_json(TRACE, &settings(&[("relativeQuality", "0.5")]));
    assert_eq!(trace["floor"], 0.375);
    assert_eq!(
        statuses(&trace),
        strings(&[
            "accepted",
            "accepted",
            "accepted",
            "duplicate",
            "accepted",
            "doc_cap",
            "below_floor",
            "duplicate"
        ])
    );
}

/// minQuality 0.3 and relativeQuality 0.9: floor = max(0.3, 0.9 x 0.75 = 0.675). Rank
/// 2 (0.625) is below it and holds no place in a's cap of 2, so rank 6 (0.6875) is
/// accepted, as block 2.
#[test]
fn both_floors_take_the_larger() {
    let trace = trace_json(
        TRACE,
        &settings(&[("minQuality", "0.3"), ("relative_quality", "0.9")]),
    );
    assert_eq!(trace["floor"], 0.9 * 0.75);
    assert_eq!(
        statuses(&trace),
        strings(&[
            "accepted",
            "below_floor",
            "below_floor",
            "duplicate",
            "below_floor",
            "accepted",
            "below_floor",
            "duplicate"
        ])
    );
    let blocks = trace["blocks"].as_array().expect("blocks");
    assert_eq!(blocks[5]["acceptedRank"], 2);
}

/// Around caps: with a cap of 1 the floor comes after the duplicate and before the
/// cap (rank 2, above the floor, is capped; rank 3, below it, is below_floor); with
/// returnN 1, candidates below the floor are below_floor, not return_n.
#[test]
fn a_floor_with_duplicates_and_caps_around_it() {
    let capped = trace_json(
        TRACE,
        &settings(&[("minQuality", "0.6"), ("maxChunksPerDocument", "1")]),
    );
    assert_eq!(
        statuses(&capped),
        strings(&[
            "accepted",
            "doc_cap",
            "below_floor",
            "duplicate",
            "below_floor",
            "doc_cap",
            "below_floor",
            "duplicate"
        ])
    );
    let one = trace_json(TRACE, &settings(&[("minQuality", "0.6"), ("returnN", "1")]));
    assert_eq!(
        statuses(&one),
        strings(&[
            "accepted",
            "return_n",
            "below_floor",
            "duplicate",
            "below_floor",
            "return_n",
            "below_floor",
            "duplicate"
        ])
    );
}

/// Every candidate below the floor: no block, NO_MATCH.
#[test]
fn a_trace_all_below_the_floor_is_no_match() {
    let trace = trace_json(TRACE, &settings(&[("minQuality", "0.9")]));
    assert_eq!(trace["relevanceLevel"], "NO_MATCH");
    assert_eq!(trace["topQuality"], Value::Null);
    assert_eq!(trace["lowQuality"], true);
    assert_eq!(trace["stages"]["belowFloor"], 6);
}

/// Out of [0, 1], NaN or text: an error naming the key, from `--set`, a config file
/// and a trace's own options.
#[test]
fn bad_floors_are_errors_naming_the_key() {
    for (key, value) in [
        ("minQuality", "1.5"),
        ("minQuality", "-0.1"),
        ("relativeQuality", "NaN"),
        ("relativeQuality", "high"),
        ("min_quality", "inf"),
    ] {
        let mut user = Settings::default();
        // Text that is no finite number fails when read; a number out of [0, 1] when
        // the configuration is made of it.
        let err = match user.set(key, value) {
            Err(err) => err,
            Ok(()) => ragtrace_core::Config::from_settings(&user).expect_err("out of [0, 1]"),
        };
        let named = err.key.as_deref().unwrap_or("");
        assert!(
            named == "minQuality" || named == "relativeQuality",
            "{key}={value}: {err}"
        );
    }
    let err = Settings::from_json_text(r#"{"relativeQuality": 2}"#)
        .map(|s| ragtrace_core::Config::from_settings(&s))
        .expect("a number")
        .expect_err("out of [0, 1]");
    assert_eq!(err.key.as_deref(), Some("relativeQuality"));
    assert_eq!(err.message, "must be in [0, 1], got 2");
    let err = Settings::from_json_text(r#"{"minQuality": "0.2"}"#).expect_err("a string");
    assert_eq!(err.key.as_deref(), Some("minQuality"));
    // A trace's own options: set aside with an error naming the key.
    let own = TRACE.replacen(
        r#""mode":"dense","#,
        r#""mode":"dense","options":{"minQuality":1.2},"#,
        1,
    );
    let trace = trace_json(&own, &Settings::default());
    let diagnostics = trace["diagnostics"].as_array().expect("diagnostics");
    let invalid = diagnostics
        .iter()
        .find(|d| d["code"] == "invalid-options")
        .expect("the options are invalid");
    assert!(
        invalid["message"]
            .as_str()
            .is_some_and(|m| m.contains("minQuality: must be in [0, 1], got 1.2")),
        "{invalid}"
    );
    assert_eq!(trace["floor"], 0.0);
}

/// Floors set from a trace's own options apply as every option does.
#[test]
fn a_trace_can_carry_its_own_floor() {
    let own = TRACE.replacen(
        r#""mode":"dense","#,
        r#""mode":"dense","options":{"minQuality":0.4},"#,
        1,
    );
    let trace = trace_json(&own, &Settings::default());
    assert_eq!(trace["floor"], 0.4);
    assert_eq!(trace["stages"]["belowFloor"], 2);
}

/// Properties over generated batches (proptest runs natively only).
#[cfg(not(target_arch = "wasm32"))]
mod properties {
    use super::*;
    use proptest::prelude::*;
    use ragtrace_core::generate_batch;

    fn accepted_counts(text: &str, settings: &Settings) -> Vec<u64> {
        let batch = parse_document("g.json", text);
        let analysis = analyze(&batch, settings, false).expect("valid settings");
        analysis
            .traces
            .iter()
            .map(|t| t.stages.accepted as u64)
            .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]

        /// Floors of 0 give the very analysis the defaults give, and a higher floor (of
        /// either kind) never accepts more blocks in any trace.
        #[test]
        fn zero_floors_change_nothing_and_higher_floors_accept_no_more(
            traces in 1usize..12,
            per_trace in 0usize..12,
            seed in any::<u64>(),
            low in 0.0f64..1.0,
            raise in 0.0f64..1.0,
            relative in any::<bool>(),
        ) {
            let text = generate_batch(traces, per_trace, seed);
            let batch = parse_document("g.json", &text);
            let plain = analyze(&batch, &Settings::default(), true).expect("defaults");
            let zero = Settings {
                min_quality: Some(0.0),
                relative_quality: Some(0.0),
                ..Settings::default()
            };
            let zeroed = analyze(&batch, &zero, true).expect("valid");
            let json = |a: &ragtrace_core::Analysis| {
                let mut v = serde_json::to_value(a).expect("serialises");
                // The settings the user gave are listed; the rest is the same.
                if let Some(o) = v.as_object_mut() {
                    o.remove("settings");
                }
                v
            };
            prop_assert_eq!(json(&plain), json(&zeroed));
            let high = (low + raise * (1.0 - low)).min(1.0);
            let with = |floor: f64| if relative {
                Settings { relative_quality: Some(floor), ..Settings::default() }
            } else {
                Settings { min_quality: Some(floor), ..Settings::default() }
            };
            let lower = accepted_counts(&text, &with(low));
            let higher = accepted_counts(&text, &with(high));
            for (at_low, at_high) in lower.iter().zip(&higher) {
                prop_assert!(at_high <= at_low, "{at_high} > {at_low} at floors {high} > {low}");
            }
        }
    }
}

/// Every sample and trace fixture analysed under the defaults is the analysis under
/// the new keys set to their neutral values (`scoreKind` l2, both floors 0): the
/// same JSON, but the list of the user's settings. And under the defaults nothing is
/// below a floor, every floor is 0, and a block's distance is its dense score as
/// read, a negative one as 0.
#[test]
fn the_defaults_change_no_output_of_the_samples_and_fixtures() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let neutral = settings(&[
        ("scoreKind", "l2"),
        ("minQuality", "0"),
        ("relativeQuality", "0"),
    ]);
    let mut compared = 0;
    for dir in ["samples", "tests/fixtures"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
            panic!("{dir} is readable");
        };
        let mut paths: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        for path in paths {
            let name = path.display().to_string();
            if !(name.ends_with(".json") || name.ends_with(".jsonl")) {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("a fixture");
            let batch = parse_document(&name, &text);
            if batch.traces.is_empty() {
                continue;
            }
            let strip = |a: &ragtrace_core::Analysis| {
                let mut v = serde_json::to_value(a).expect("serialises");
                if let Some(o) = v.as_object_mut() {
                    o.remove("settings");
                }
                v
            };
            let plain = analyze(&batch, &Settings::default(), true).expect("defaults");
            let set = analyze(&batch, &neutral, true).expect("valid");
            assert_eq!(strip(&plain), strip(&set), "{name}");
            for t in &plain.traces {
                assert_eq!(t.floor, 0.0, "{name}");
                assert_eq!(t.stages.below_floor, 0, "{name}");
                for b in t.blocks() {
                    let dense = b.canonical_label == Some(ragtrace_core::CanonicalLabel::Dense)
                        && b.original_rank.is_some();
                    let expected = b
                        .score
                        .filter(|s| dense && s.is_finite())
                        .map(|s| s.max(0.0));
                    if dense || b.distance.is_none() {
                        assert_eq!(b.distance, expected, "{name}");
                    }
                }
            }
            compared += 1;
        }
    }
    assert!(compared >= 6, "only {compared} files of traces");
}

/// `TRACE`'s candidates as explain lists them under `settings`.
fn explained_candidates(settings: &Settings) -> Vec<Value> {
    let batch = parse_document("t.json", TRACE);
    let explained = ragtrace_core::explain(&batch, settings, None).expect("valid settings");
    let json = serde_json::to_value(&explained).expect("serialises");
    json["traces"][0]["candidates"]
        .as_array()
        .expect("candidates")
        .clone()
}

/// The acceptedIf of each candidate below the floor, as explain lists it.
fn accepted_if(settings: &Settings) -> Vec<(String, Value)> {
    explained_candidates(settings)
        .iter()
        .filter(|c| c["status"] == "below_floor")
        .map(|c| {
            (
                c["docId"].as_str().unwrap_or("").to_owned(),
                c["acceptedIf"].clone(),
            )
        })
        .collect()
}

/// minQuality 0.4 holds back rank 5 (c, 0.375) and rank 7 (d, 0.25): lowering
/// minQuality to each one's quality accepts it (ranks 1-3 and 5 are then 4 blocks, 7
/// the fifth). relativeQuality cannot help while minQuality is above them.
#[test]
fn explain_lists_the_floor_that_accepts_a_candidate_below_it() {
    assert_eq!(
        accepted_if(&settings(&[("minQuality", "0.4")])),
        [
            (
                "c".to_owned(),
                serde_json::json!([{"set": {"minQuality": 0.375}}])
            ),
            (
                "d".to_owned(),
                serde_json::json!([{"set": {"minQuality": 0.25}}])
            ),
        ]
    );
    // relativeQuality 0.5 (floor 0.375) holds back rank 7 only: the largest r with
    // r x 0.75 <= 0.25 accepts it, and the next f64 above r would not.
    let listed = accepted_if(&settings(&[("relativeQuality", "0.5")]));
    assert_eq!(listed.len(), 1);
    let r = listed[0].1[0]["set"]["relativeQuality"]
        .as_f64()
        .expect("a relativeQuality");
    assert!(
        r * 0.75 <= 0.25 && f64::from_bits(r.to_bits() + 1) * 0.75 > 0.25,
        "{r}"
    );
    assert!((r - 1.0 / 3.0).abs() < 1e-15, "{r}");
    // With a cap of 1 on top of minQuality 0.6, rank 3 (b, 0.5) is accepted by
    // minQuality 0.5; rank 5 (c, 0.375) by 0.375, which lets b in as well (b and c
    // are separate documents, so both fit).
    assert_eq!(
        accepted_if(&settings(&[
            ("minQuality", "0.6"),
            ("maxChunksPerDocument", "1")
        ])),
        [
            (
                "b".to_owned(),
                serde_json::json!([{"set": {"minQuality": 0.5}}])
            ),
            (
                "c".to_owned(),
                serde_json::json!([{"set": {"minQuality": 0.375}}])
            ),
            (
                "d".to_owned(),
                serde_json::json!([{"set": {"minQuality": 0.25}}])
            ),
        ]
    );
    // returnN 1 with minQuality 0.6: a lower floor lets rank 3 past the floor, but the
    // one place is rank 1's, so no floor accepts it.
    let capped = accepted_if(&settings(&[("minQuality", "0.6"), ("returnN", "1")]));
    assert!(
        capped.iter().all(|(_, a)| a == &serde_json::json!([])),
        "{capped:?}"
    );
}

/// The explanation of one case expecting `doc` in `TRACE`, explained under `settings`
/// beside a second trace (`other`: qualities 0.75 and 0.3125, no case), and the summary's
/// changes.
fn case_explained(settings: &Settings, doc: &str) -> (Value, Value) {
    let linked = TRACE.replacen(
        r#""requestId":"floors""#,
        r#""requestId":"floors","caseId":"c1""#,
        1,
    );
    let other = r#"{"requestId":"other","mode":"dense","candidates":[
     {"evidenceKey":"x#1","docId":"x","originalRank":1,"score":0.25,"scoreLabel":"dense"},
     {"evidenceKey":"y#1","docId":"y","originalRank":2,"score":0.6875,"scoreLabel":"dense"}]}"#;
    let batch = parse_document("t.json", &format!("[{linked},{other}]"));
    assert_eq!(batch.traces.len(), 2, "{:?}", batch.errors);
    let cases_text = format!(r#"[{{"caseId":"c1","expectedDocIds":["{doc}"]}}]"#);
    let cases = ragtrace_core::parse_cases("cases.json", &cases_text).expect("valid cases");
    let explained = ragtrace_core::explain(&batch, settings, Some(&cases)).expect("valid settings");
    let json = serde_json::to_value(&explained).expect("serialises");
    (json["cases"][0].clone(), json["summary"]["changes"].clone())
}

/// `below_floor` is a settings problem for a golden case: minQuality 0.4 holds back d
/// (rank 7, q 0.25); minQuality 0.25 finds it (as the candidate's `acceptedIf` above),
/// and applied to the batch it also lets y (q 0.3125) into `other`: two traces
/// changed, the case recovered, no level moved (each trace's top block stays).
#[test]
fn a_case_below_the_floor_is_found_by_the_nearest_lower_floor() {
    let (case, changes) = case_explained(&settings(&[("minQuality", "0.4")]), "d");
    assert_eq!(case["cause"], "dropped");
    assert_eq!(case["candidateStatus"], "below_floor");
    assert_eq!(case["candidateIndex"], 6);
    assert_eq!(
        case["foundIf"],
        serde_json::json!([{"set": {"minQuality": 0.25}, "hit": "strong"}])
    );
    assert_eq!(
        changes,
        serde_json::json!([{"set": {"minQuality": 0.25}, "recovers": 1,
            "recoveredCases": ["c1"], "tracesChanged": 2, "levelTransitions": {},
            "hitLevelDrops": 0}])
    );
    // relativeQuality 0.5 (floor 0.375 in both traces, whose qMax is 0.75): the largest
    // r with r x 0.75 <= 0.25, which lets y (0.3125) into `other` too.
    let (case, changes) = case_explained(&settings(&[("relativeQuality", "0.5")]), "d");
    let r = case["foundIf"][0]["set"]["relativeQuality"]
        .as_f64()
        .expect("a relativeQuality");
    assert!((r - 1.0 / 3.0).abs() < 1e-15, "{case}");
    assert_eq!(changes[0]["tracesChanged"], 2, "{changes}");
    assert_eq!(changes[0]["recovers"], 1, "{changes}");
    // returnN 1 under minQuality 0.6: a lower floor lets b past the floor, but the one
    // place is rank 1's, so no floor finds the case, and the reason says so.
    let (case, changes) =
        case_explained(&settings(&[("minQuality", "0.6"), ("returnN", "1")]), "b");
    assert_eq!(case["foundIf"], serde_json::json!([]));
    assert_eq!(case["candidateStatus"], "below_floor");
    assert!(
        case["reason"]
            .as_str()
            .is_some_and(|r| r.contains("no lower floor finds it")),
        "{case}"
    );
    assert_eq!(changes, serde_json::json!([]));
}

/// Each candidate's docId, status and `droppedIf` in `TRACE` under `settings`.
fn dropped_if(settings: &Settings) -> Vec<(String, String, Value)> {
    explained_candidates(settings)
        .iter()
        .map(|c| {
            let text = |key: &str| c[key].as_str().unwrap_or("").to_owned();
            (text("docId"), text("status"), c["droppedIf"].clone())
        })
        .collect()
}

/// A floor in use lists, for each accepted block, the nearest value of it that drops
/// the block: the next f64 above its quality (0.75, 0.625, 0.5 for ranks 1-3 under
/// minQuality 0.4), or for relativeQuality the least r with r x 0.75 above it (none
/// for the best block). A floor of 0 lists none: the defaults change no explanation.
#[test]
fn a_floor_in_use_lists_the_nearest_value_that_drops_an_accepted_block() {
    let next_up = |x: f64| f64::from_bits(x.to_bits() + 1);
    let listed = dropped_if(&settings(&[("minQuality", "0.4")]));
    let accepted: Vec<_> = listed.iter().filter(|(_, s, _)| s == "accepted").collect();
    assert_eq!(accepted.len(), 3, "{listed:?}");
    assert_eq!(
        accepted[0].2,
        serde_json::json!([{"set": {"minQuality": next_up(0.75)}}])
    );
    assert_eq!(
        accepted[1].2,
        serde_json::json!([{"set": {"returnN": 1}}, {"set": {"maxChunksPerDocument": 1}},
            {"set": {"minQuality": next_up(0.625)}}])
    );
    assert_eq!(
        accepted[2].2,
        serde_json::json!([{"set": {"returnN": 2}}, {"set": {"minQuality": next_up(0.5)}}])
    );
    let listed = dropped_if(&settings(&[("relativeQuality", "0.5")]));
    let relative: Vec<Option<f64>> = listed
        .iter()
        .filter(|(_, s, _)| s == "accepted")
        .map(|(_, _, d)| {
            d.as_array()?
                .iter()
                .find_map(|c| c["set"]["relativeQuality"].as_f64())
        })
        .collect();
    // Ranks 1, 2, 3 and 5 (q 0.75, 0.625, 0.5, 0.375); each r is the least with
    // r x 0.75 > q, so the f64 below it does not drop the block.
    assert_eq!(relative.len(), 4, "{listed:?}");
    assert_eq!(relative[0], None);
    for (r, q) in relative[1..].iter().zip([0.625, 0.5, 0.375]) {
        let r = r.expect("a relativeQuality");
        let below = f64::from_bits(r.to_bits() - 1);
        assert!(r * 0.75 > q && below * 0.75 <= q, "{r} for {q}");
    }
    let defaults = dropped_if(&Settings::default());
    assert!(
        defaults
            .iter()
            .all(|(_, _, d)| !d.to_string().contains("Quality")),
        "{defaults:?}"
    );
}

/// The `maxL2Distance` entries of a trace's `levelIf` and `lowQualityIf` under
/// `settings`.
fn distance_moves(text: &str, settings: &Settings) -> (Vec<Value>, Vec<Value>) {
    let batch = parse_document("t.json", text);
    let explained = ragtrace_core::explain(&batch, settings, None).expect("valid settings");
    let json = serde_json::to_value(&explained).expect("serialises");
    let of = |list: &str| -> Vec<Value> {
        json["traces"][0][list]
            .as_array()
            .expect("a list")
            .iter()
            .filter(|entry| entry["set"].get("maxL2Distance").is_some())
            .cloned()
            .collect()
    };
    (of("levelIf"), of("lowQualityIf"))
}

/// Rank 1 (doc a, distance 0.45) takes the one place of returnN 1 ahead of rank 2 (doc
/// b, distance 0.1). At maxL2Distance M, q = 1 - d / M: a has 0.55 and b 0.9 at M = 1,
/// so the trace is RELEVANT (0.5 <= 0.55 < 0.75).
///
/// With no floor, only a's quality moves the level: it reaches 0.75 at M = 0.45 / 0.25
/// = 1.8 (the f64 edge is 1.7999999999999996, where 1 - 0.45 / M first gives 0.75)
/// and falls below 0.5 under M = 0.45 / 0.5 = 0.9 (0.8999999999999999 gives
/// 0.4999999999999999; 0.9 gives 0.5).
///
/// Under minQuality 0.4, a falls below the floor under M = 0.45 / 0.6 = 0.75
/// (0.7499999999999999 gives 0.3999999999999999), and b, past the floor, takes the
/// place with q = 1 - 0.1 / 0.75 = 0.8667: HIGHLY_RELEVANT. That is 0.25 away, nearer
/// than 1.8, so a smaller distance is the nearest raise. Between 0.75 and 0.9 a stays
/// accepted below 0.5, so the nearest fall (and the lowQuality flip) stays at 0.9.
#[test]
fn a_smaller_distance_that_carries_a_block_below_the_floor_is_the_nearest_raise() {
    let text = r#"{"requestId":"m","mode":"dense","candidates":[
 {"evidenceKey":"a#1","docId":"a","originalRank":1,"score":0.45,"scoreLabel":"dense"},
 {"evidenceKey":"b#1","docId":"b","originalRank":2,"score":0.1,"scoreLabel":"dense"}]}"#;
    let (level_if, low_quality_if) = distance_moves(text, &settings(&[("returnN", "1")]));
    assert_eq!(
        level_if,
        [
            serde_json::json!({"set": {"maxL2Distance": 1.7999999999999996}, "level": "HIGHLY_RELEVANT"}),
            serde_json::json!({"set": {"maxL2Distance": 0.8999999999999999}, "level": "LOW_RELEVANCE"}),
        ]
    );
    let falls =
        serde_json::json!({"set": {"maxL2Distance": 0.8999999999999999}, "lowQuality": true});
    assert_eq!(low_quality_if, std::slice::from_ref(&falls));
    let floored = settings(&[("returnN", "1"), ("minQuality", "0.4")]);
    let (level_if, low_quality_if) = distance_moves(text, &floored);
    assert_eq!(
        level_if,
        [
            serde_json::json!({"set": {"maxL2Distance": 0.7499999999999999}, "level": "HIGHLY_RELEVANT"}),
            serde_json::json!({"set": {"maxL2Distance": 0.8999999999999999}, "level": "LOW_RELEVANCE"}),
        ]
    );
    assert_eq!(low_quality_if, [falls]);
}

/// Two raises as near as each other are both listed, smaller first. Rank 1 (doc a,
/// distance 0.35) holds the one place of returnN 1 ahead of rank 2 (doc b, distance
/// 0.05), under minQuality 0.1 and referenceThreshold 0.2, at maxL2Distance
/// 0.8944444444444442: a has q = 1 - 0.35 / M = 0.6087, RELEVANT (0.2 <= q < 0.75).
/// Upwards a reaches 0.75 at M = 0.35 / 0.25 = 1.4 (the f64 edge 1.3999999999999995);
/// downwards a falls below the floor under M = 0.35 / 0.9 = 0.3889 (0.38888888888888884
/// gives 0.09999999999999998, the next f64 0.10000000000000009), where b enters with
/// q = 1 - 0.05 / 0.3889 = 0.8714: HIGHLY_RELEVANT. Both are 0.5055555555555553 away
/// in f64. a falls below 0.2 under M = 0.35 / 0.8 = 0.4375 (0.43749999999999994):
/// the nearest fall, and lowQuality's flip.
#[test]
fn two_distances_as_near_that_raise_the_level_are_both_listed() {
    let text = r#"{"requestId":"m","mode":"dense","candidates":[
 {"evidenceKey":"a#1","docId":"a","originalRank":1,"score":0.35,"scoreLabel":"dense"},
 {"evidenceKey":"b#1","docId":"b","originalRank":2,"score":0.05,"scoreLabel":"dense"}]}"#;
    let floored = settings(&[
        ("returnN", "1"),
        ("minQuality", "0.1"),
        ("referenceThreshold", "0.2"),
        ("maxL2Distance", "0.8944444444444442"),
    ]);
    let (level_if, low_quality_if) = distance_moves(text, &floored);
    assert_eq!(
        level_if,
        [
            serde_json::json!({"set": {"maxL2Distance": 0.38888888888888884}, "level": "HIGHLY_RELEVANT"}),
            serde_json::json!({"set": {"maxL2Distance": 1.3999999999999995}, "level": "HIGHLY_RELEVANT"}),
            serde_json::json!({"set": {"maxL2Distance": 0.43749999999999994}, "level": "LOW_RELEVANCE"}),
        ]
    );
    assert_eq!(
        low_quality_if,
        [serde_json::json!({"set": {"maxL2Distance": 0.43749999999999994}, "lowQuality": true})]
    );
}
