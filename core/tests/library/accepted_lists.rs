//! `Analysis::accepted_lists`: equal lists mean an equal golden evaluation, and only
//! `returnN`, `maxChunksPerDocument` (and per-trace options that set them) change them.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use common::fixture;
use proptest::prelude::*;
use ragtrace_core::{
    analyze, evaluate_analysis, generate_batch, generate_cases, parse_cases, parse_documents,
    Analysis, CaseSet, GoldenReport, HybridQuality, ParsedBatch, RunTrace, SettingKey,
    SettingValue, Settings,
};

fn batch(traces: usize, per_trace: usize, seed: u64) -> ParsedBatch {
    parse_documents(&[
        (
            "generated.json".to_owned(),
            generate_batch(traces, per_trace, seed),
        ),
        (
            "lookup-result.jsonl".to_owned(),
            fixture("lookup-result.jsonl"),
        ),
        (
            "hybrid-legacy-trace.json".to_owned(),
            fixture("hybrid-legacy-trace.json"),
        ),
    ])
}

fn cases(traces: usize, per_trace: usize, seed: u64) -> CaseSet {
    parse_cases("cases.json", &generate_cases(traces, per_trace, seed))
        .unwrap_or_else(|e| panic!("{e:?}"))
}

/// The report without the configuration it echoes, and without the floor sweep: the
/// sweep reads the candidates' qualities, which a `maxL2Distance` or `hybridQuality`
/// move changes without changing an accepted list.
fn evaluated(cases: &CaseSet, analysis: &Analysis) -> GoldenReport {
    let mut report = evaluate_analysis(cases, analysis).with_config(serde_json::Value::Null);
    report.floor_sweep = None;
    report
}

fn runs(analysis: &Analysis) -> Vec<RunTrace> {
    analysis
        .traces
        .iter()
        .map(RunTrace::from_analysis)
        .collect()
}

/// Whether the key decides which blocks are accepted (or the metrics' cut-off).
fn decides(key: SettingKey) -> bool {
    matches!(
        key,
        SettingKey::ReturnN | SettingKey::MaxChunksPerDocument | SettingKey::UseTraceOptions
    )
}

fn change_strategy() -> impl Strategy<Value = (SettingKey, SettingValue)> {
    let number = |key: SettingKey, values: &'static [f64]| {
        prop::sample::select(values).prop_map(move |v| (key, SettingValue::Number(v)))
    };
    let count = |key: SettingKey, values: &'static [usize]| {
        prop::sample::select(values).prop_map(move |v| (key, SettingValue::Count(v)))
    };
    const THRESHOLDS: &[f64] = &[0.0, 0.3, 0.5, 0.75, 0.9, 1.0];
    prop_oneof![
        number(SettingKey::MaxL2Distance, &[0.3, 0.8, 1.0, 1.3, 2.5]),
        count(SettingKey::ReturnN, &[1, 2, 3, 5, 9]),
        count(SettingKey::MaxChunksPerDocument, &[1, 2, 4]),
        count(SettingKey::ExcerptMaxChars, &[4, 300]),
        number(SettingKey::PreciseThreshold, THRESHOLDS),
        number(SettingKey::ReferenceThreshold, THRESHOLDS),
        prop::sample::select(&HybridQuality::ALL[..])
            .prop_map(|v| (SettingKey::HybridQuality, SettingValue::HybridQuality(v))),
        prop::bool::ANY.prop_map(|on| (SettingKey::UseTraceOptions, SettingValue::Switch(on))),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Along any sequence of changes, reanalysed or analysed afresh: the lists are the
    /// same both ways; a change of a key that decides no block leaves them equal; and
    /// equal lists give the evaluator the same runs and the same report.
    #[test]
    fn equal_accepted_lists_evaluate_alike(
        traces in 1usize..25,
        per_trace in 0usize..12,
        seed in any::<u64>(),
        changes in prop::collection::vec(change_strategy(), 1..10),
    ) {
        let batch = batch(traces, per_trace, seed);
        let cases = cases(traces, per_trace, seed);
        let mut settings = Settings::default();
        let mut previous = analyze(&batch, &settings, false).unwrap_or_else(|e| panic!("{e}"));
        // Whether a key that decides blocks changed since `previous` (an invalid step
        // leaves its change pending until a valid one).
        let mut decided_again = false;
        for (key, value) in changes {
            prop_assert!(settings.put(key, value));
            decided_again |= decides(key);
            let Ok(fresh) = analyze(&batch, &settings, false) else {
                continue;
            };
            let next = previous.reanalyze(&batch, &settings).unwrap_or_else(|e| panic!("{e}"));
            prop_assert_eq!(next.accepted_lists(), fresh.accepted_lists());
            let same = next.accepted_lists() == previous.accepted_lists();
            if !decided_again {
                prop_assert!(same, "{:?} changed the accepted lists", key);
            }
            decided_again = false;
            if same {
                prop_assert_eq!(runs(&next), runs(&previous));
                prop_assert_eq!(evaluated(&cases, &next), evaluated(&cases, &previous));
            }
            previous = next;
        }
    }
}

/// A `returnN` that cuts an accepted list changes the lists (and the report); one above
/// every trace's candidate count still changes the metrics' cut-off, so the lists too.
#[test]
fn a_return_n_move_changes_the_lists() {
    let batch = batch(30, 8, 7);
    let cases = cases(30, 8, 7);
    let before = analyze(&batch, &Settings::default(), false).unwrap_or_else(|e| panic!("{e}"));
    let cut = Settings {
        return_n: Some(1),
        ..Settings::default()
    };
    let after = before
        .reanalyze(&batch, &cut)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_ne!(after.accepted_lists(), before.accepted_lists());
    assert_ne!(evaluated(&cases, &after), evaluated(&cases, &before));
    let wide = Settings {
        return_n: Some(100),
        ..Settings::default()
    };
    let wider = Settings {
        return_n: Some(101),
        ..Settings::default()
    };
    let a = analyze(&batch, &wide, false).unwrap_or_else(|e| panic!("{e}"));
    let b = a
        .reanalyze(&batch, &wider)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_ne!(a.accepted_lists(), b.accepted_lists());
    assert_ne!(evaluated(&cases, &a), evaluated(&cases, &b));
}

/// A cap that caps nothing decides every list again but leaves it as it was: equal by
/// value, not only when shared.
#[test]
fn lists_decided_again_alike_are_equal() {
    let batch = batch(30, 8, 7);
    let capped = |cap| Settings {
        max_chunks_per_document: Some(cap),
        ..Settings::default()
    };
    let a = analyze(&batch, &capped(1000), false).unwrap_or_else(|e| panic!("{e}"));
    let b = a
        .reanalyze(&batch, &capped(1001))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(a.accepted_lists(), b.accepted_lists());
}

/// Analyses of another batch (the same text read again) never share lists.
#[test]
fn another_batch_has_other_lists() {
    let a =
        analyze(&batch(10, 5, 3), &Settings::default(), false).unwrap_or_else(|e| panic!("{e}"));
    let b =
        analyze(&batch(10, 5, 3), &Settings::default(), false).unwrap_or_else(|e| panic!("{e}"));
    assert_ne!(a.accepted_lists(), b.accepted_lists());
}
