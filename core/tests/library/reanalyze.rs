//! `Analysis::reanalyze` against a fresh `analyze`: byte-identical JSON (and equal
//! sweep counts, which the JSON leaves out) for every kind of settings change.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use common::fixture;
use proptest::prelude::*;
use ragtrace_core::{
    analyze, generate_batch, parse_document, parse_documents, Analysis, ParsedBatch, Settings,
};
use ragtrace_core::{HybridQuality, ScoreKind, SettingKey, SettingValue};

/// Traces whose own options the user's settings can make invalid, or that the user
/// overrides key by key: per-trace options must be overlaid on every reanalysis.
const OWN_OPTIONS: &str = r#"[
 {"requestId":"own-precise","mode":"dense","relevanceLevel":"RELEVANT","options":{"preciseThreshold":0.8,"maxL2Distance":1.6},
  "candidates":[{"evidenceKey":"a#1","docId":"a","originalRank":1,"score":0.3,"scoreLabel":"dense"},
                {"evidenceKey":"a#2","docId":"a","originalRank":2,"score":0.5,"scoreLabel":"dense"},
                {"evidenceKey":"b#1","docId":"b","originalRank":3,"score":0.9,"scoreLabel":"dense"}]},
 {"requestId":"own-cap","mode":"hybrid","relevanceLevel":"PRECISE","options":{"maxChunksPerDocument":1,"returnN":2,"hybridQuality":"maxRankDense"},
  "candidates":[{"evidenceKey":"a#1","docId":"a","originalRank":2,"score":0.016,"scoreLabel":"hybrid","denseDistance":0.2},
                {"evidenceKey":"a#2","docId":"a","originalRank":1,"score":0.017,"scoreLabel":"hybrid"},
                {"evidenceKey":"c#1","docId":"c","originalRank":3,"score":0.015,"scoreLabel":"hybrid","denseDistance":0.7},
                {"evidenceKey":"c#1","docId":"c","originalRank":4,"score":0.014,"scoreLabel":"hybrid"}]},
 {"requestId":"own-bad","options":{"returnN":0},"candidates":[{"originalRank":"x","score":0.1,"scoreLabel":"dense"}]},
 {"requestId":"mixed","mode":"hybrid","candidates":[{"evidenceKey":"m#1","docId":"m","originalRank":1,"score":0.4,"scoreLabel":"dense"},
                {"evidenceKey":"m#2","docId":"m","originalRank":2,"score":0.016,"scoreLabel":"hybrid","denseDistance":0.1}]}
]"#;

fn batch(generated: &str) -> ParsedBatch {
    parse_documents(&[
        ("generated.json".to_owned(), generated.to_owned()),
        (
            "lookup-result.jsonl".to_owned(),
            fixture("lookup-result.jsonl"),
        ),
        (
            "hybrid-legacy-trace.json".to_owned(),
            fixture("hybrid-legacy-trace.json"),
        ),
        ("own-options.json".to_owned(), OWN_OPTIONS.to_owned()),
    ])
}

fn json(analysis: &Analysis) -> String {
    serde_json::to_string(analysis).unwrap_or_else(|e| panic!("serialises: {e}"))
}

/// `previous.reanalyze(batch, settings)` is `analyze(batch, settings)` to the byte; the
/// new analysis, to chain the next change from.
fn check_step(previous: &Analysis, batch: &ParsedBatch, settings: &Settings) -> Option<Analysis> {
    let with_sweep = previous.sweep.is_some();
    let full = analyze(batch, settings, with_sweep);
    let incremental = previous.reanalyze(batch, settings);
    match (full, incremental) {
        (Ok(full), Ok(incremental)) => {
            assert_eq!(json(&incremental), json(&full), "under {settings:?}");
            assert_eq!(incremental.sweep_counts, full.sweep_counts);
            Some(incremental)
        }
        (Err(full), Err(incremental)) => {
            assert_eq!(incremental.to_string(), full.to_string());
            None
        }
        (full, incremental) => panic!(
            "under {settings:?}: full {:?}, incremental {:?}",
            full.map(|_| ()),
            incremental.map(|_| ())
        ),
    }
}

/// Applies each change in turn, checking every step against the full analysis; an
/// invalid step leaves the previous analysis in place (as the page keeps it).
fn check_sequence(
    batch: &ParsedBatch,
    with_sweep: bool,
    changes: &[(SettingKey, Option<SettingValue>)],
) {
    let mut settings = Settings::default();
    let mut analysis = analyze(batch, &settings, with_sweep).unwrap_or_else(|e| panic!("{e}"));
    for &(key, value) in changes {
        match value {
            Some(value) => assert!(settings.put(key, value), "{key:?} takes {value:?}"),
            None => clear(&mut settings, key),
        }
        if let Some(next) = check_step(&analysis, batch, &settings) {
            analysis = next;
        }
    }
}

/// The key back to its default (the user no longer overrides it).
fn clear(settings: &mut Settings, key: SettingKey) {
    let defaults = Settings::default();
    match key {
        SettingKey::MaxL2Distance => settings.max_l2_distance = None,
        SettingKey::ReturnN => settings.return_n = None,
        SettingKey::MaxChunksPerDocument => settings.max_chunks_per_document = None,
        SettingKey::ExcerptMaxChars => settings.excerpt_max_chars = None,
        SettingKey::PreciseThreshold => settings.precise_threshold = None,
        SettingKey::HighlyRelevantThreshold => settings.highly_relevant_threshold = None,
        SettingKey::ReferenceThreshold => settings.reference_threshold = None,
        SettingKey::HybridQuality => settings.hybrid_quality = None,
        SettingKey::ScoreKind => settings.score_kind = None,
        SettingKey::MinQuality => settings.min_quality = None,
        SettingKey::RelativeQuality => settings.relative_quality = None,
        SettingKey::RelevantGrade => settings.relevant_grade = None,
        SettingKey::UseTraceOptions => settings.use_trace_options = defaults.use_trace_options,
    }
}

fn generated() -> ParsedBatch {
    batch(&generate_batch(60, 12, 7))
}

fn numbers(key: SettingKey, values: &[f64]) -> Vec<(SettingKey, Option<SettingValue>)> {
    values
        .iter()
        .map(|&v| (key, Some(SettingValue::Number(v))))
        .chain([(key, None)])
        .collect()
}

#[test]
fn thresholds_relevel_only() {
    let batch = generated();
    let mut changes = numbers(SettingKey::ReferenceThreshold, &[0.6, 0.3, 0.75]);
    changes.extend(numbers(
        SettingKey::HighlyRelevantThreshold,
        &[0.8, 0.5, 0.95],
    ));
    changes.extend(numbers(
        SettingKey::PreciseThreshold,
        &[0.95, 0.8, 0.75, 0.5],
    ));
    // preciseThreshold 0.8 against own-precise's own 0.8 and defaults: invalid options
    // appear and go again.
    changes.extend(numbers(SettingKey::HighlyRelevantThreshold, &[0.85, 0.7]));
    check_sequence(&batch, true, &changes);
    check_sequence(&batch, false, &changes);
}

#[test]
fn max_l2_distance_requalifies_only() {
    let batch = generated();
    let mut changes = numbers(SettingKey::MaxL2Distance, &[0.8, 1.3, 0.2, 5.0]);
    // Under each hybrid quality, where hybrid qualities read the distance or not.
    for hq in HybridQuality::ALL {
        changes.push((
            SettingKey::HybridQuality,
            Some(SettingValue::HybridQuality(hq)),
        ));
        changes.extend(numbers(SettingKey::MaxL2Distance, &[0.7, 1.6]));
    }
    check_sequence(&batch, true, &changes);
}

/// Each kind reads the distances again, under every hybrid quality, and a
/// `maxL2Distance` move after a kind reads the new kind's distances.
#[test]
fn score_kind_requalifies() {
    let batch = generated();
    let mut changes = Vec::new();
    for hq in HybridQuality::ALL {
        changes.push((
            SettingKey::HybridQuality,
            Some(SettingValue::HybridQuality(hq)),
        ));
        for kind in ScoreKind::ALL {
            changes.push((SettingKey::ScoreKind, Some(SettingValue::ScoreKind(kind))));
            changes.extend(numbers(SettingKey::MaxL2Distance, &[0.7, 1.6]));
        }
        changes.push((SettingKey::ScoreKind, None));
    }
    check_sequence(&batch, true, &changes);
}

/// A floor decides again, and above 0 so does every change that moves a quality.
#[test]
fn floors_decide_again() {
    let batch = generated();
    let mut changes = numbers(SettingKey::MinQuality, &[0.3, 0.6]);
    changes.extend(numbers(SettingKey::RelativeQuality, &[0.5, 0.9]));
    changes.push((SettingKey::RelativeQuality, Some(SettingValue::Number(0.7))));
    changes.extend(numbers(SettingKey::MaxL2Distance, &[0.6, 1.5]));
    changes.push((
        SettingKey::HybridQuality,
        Some(SettingValue::HybridQuality(HybridQuality::MaxRankDense)),
    ));
    changes.push((
        SettingKey::ScoreKind,
        Some(SettingValue::ScoreKind(ScoreKind::CosineDistance)),
    ));
    changes.push((SettingKey::MinQuality, Some(SettingValue::Number(0.4))));
    changes.push((SettingKey::ReturnN, Some(SettingValue::Count(2))));
    changes.extend(numbers(SettingKey::ReferenceThreshold, &[0.6]));
    check_sequence(&batch, true, &changes);
}

#[test]
fn return_n_and_cap_decide_again() {
    let batch = generated();
    let mut changes: Vec<_> = [1, 3, 8, 2]
        .iter()
        .map(|&n| (SettingKey::ReturnN, Some(SettingValue::Count(n))))
        .chain([(SettingKey::ReturnN, None)])
        .collect();
    changes.extend(
        [1, 3]
            .iter()
            .map(|&n| {
                (
                    SettingKey::MaxChunksPerDocument,
                    Some(SettingValue::Count(n)),
                )
            })
            .chain([(SettingKey::MaxChunksPerDocument, None)]),
    );
    check_sequence(&batch, true, &changes);
}

#[test]
fn other_keys_and_the_trace_options_switch() {
    let batch = generated();
    let changes = [
        (SettingKey::ExcerptMaxChars, Some(SettingValue::Count(5))),
        (
            SettingKey::UseTraceOptions,
            Some(SettingValue::Switch(false)),
        ),
        (SettingKey::MaxL2Distance, Some(SettingValue::Number(0.9))),
        (
            SettingKey::UseTraceOptions,
            Some(SettingValue::Switch(true)),
        ),
        (SettingKey::ExcerptMaxChars, None),
    ];
    check_sequence(&batch, true, &changes);
}

/// Another batch (even one parsed from the same text) is analysed in full.
#[test]
fn another_batch_is_analysed_in_full() {
    let text = generate_batch(20, 8, 3);
    let one = batch(&text);
    let other = parse_document("other.json", &generate_batch(25, 8, 4));
    let settings = Settings {
        return_n: Some(2),
        ..Settings::default()
    };
    let analysis = analyze(&one, &Settings::default(), true).unwrap_or_else(|e| panic!("{e}"));
    assert!(check_step(&analysis, &other, &settings).is_some());
    assert!(check_step(&analysis, &batch(&text), &settings).is_some());
}

fn change_strategy() -> impl Strategy<Value = (SettingKey, Option<SettingValue>)> {
    let number = |key: SettingKey, values: &'static [f64]| {
        prop::option::of(prop::sample::select(values))
            .prop_map(move |v| (key, v.map(SettingValue::Number)))
    };
    let count = |key: SettingKey, values: &'static [usize]| {
        prop::option::of(prop::sample::select(values))
            .prop_map(move |v| (key, v.map(SettingValue::Count)))
    };
    const THRESHOLDS: &[f64] = &[0.0, 0.3, 0.5, 0.6, 0.75, 0.8, 0.9, 0.95, 1.0];
    prop_oneof![
        number(SettingKey::MaxL2Distance, &[0.3, 0.8, 1.0, 1.3, 2.5]),
        count(SettingKey::ReturnN, &[1, 2, 3, 5, 9]),
        count(SettingKey::MaxChunksPerDocument, &[1, 2, 4]),
        count(SettingKey::ExcerptMaxChars, &[4, 300]),
        count(SettingKey::RelevantGrade, &[1, 2, 3]),
        number(SettingKey::PreciseThreshold, THRESHOLDS),
        number(SettingKey::HighlyRelevantThreshold, THRESHOLDS),
        number(SettingKey::ReferenceThreshold, THRESHOLDS),
        prop::option::of(prop::sample::select(&HybridQuality::ALL[..])).prop_map(|v| (
            SettingKey::HybridQuality,
            v.map(SettingValue::HybridQuality)
        )),
        number(SettingKey::MinQuality, &[0.0, 0.2, 0.5, 0.9]),
        number(SettingKey::RelativeQuality, &[0.0, 0.3, 0.8, 1.0]),
        prop::option::of(prop::sample::select(&ScoreKind::ALL[..]))
            .prop_map(|v| (SettingKey::ScoreKind, v.map(SettingValue::ScoreKind))),
        prop::bool::ANY
            .prop_map(|on| (SettingKey::UseTraceOptions, Some(SettingValue::Switch(on)))),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn any_sequence_of_changes_equals_a_fresh_analysis(
        traces in 1usize..30,
        per_trace in 0usize..14,
        seed in any::<u64>(),
        with_sweep in any::<bool>(),
        changes in prop::collection::vec(change_strategy(), 1..12),
    ) {
        let batch = batch(&generate_batch(traces, per_trace, seed));
        check_sequence(&batch, with_sweep, &changes);
    }
}

/// The page analyses a large batch a piece at a time between tasks, then finishes
/// it: the same analysis (to the byte, and the same sweep counts) as `analyze`, and
/// `is_of` tells the batch it was made from from any other.
#[test]
fn analysing_in_pieces_then_finishing_is_analyze() {
    let batch = batch(&generate_batch(40, 8, 7));
    let settings = Settings {
        return_n: Some(3),
        ..Settings::default()
    };
    let full = analyze(&batch, &settings, true).unwrap_or_else(|e| panic!("{e}"));
    let mut analyzer =
        ragtrace_core::BatchAnalyzer::new(&settings, true).unwrap_or_else(|e| panic!("{e}"));
    let mut traces = Vec::new();
    for piece in batch.traces.chunks(7) {
        traces.extend(piece.iter().map(|trace| analyzer.analyze_trace(trace)));
    }
    let pieces = analyzer.into_analysis(traces, &batch);
    assert_eq!(json(&pieces), json(&full));
    assert_eq!(pieces.sweep_counts, full.sweep_counts);
    assert!(pieces.is_of(&batch));
    let other = self::batch(&generate_batch(40, 8, 7));
    assert!(
        !pieces.is_of(&other),
        "same text, other traces: not the same batch"
    );
}
