//! Calibration: a hand-computed 6-case set and property tests.
#![cfg(not(target_arch = "wasm32"))]

use crate::common::fixture;
use proptest::prelude::*;
use ragtrace_core::{analyze, parse_documents, Level, ParsedBatch, Settings};
use ragtrace_core::{calibrate, Calibration, CurveStatus, RocPoint};
use ragtrace_core::{parse_cases, CaseSet};

const EPS: f64 = 1e-12;

fn close(actual: f64, expected: f64) {
    assert!(
        (actual - expected).abs() < EPS,
        "expected {expected}, got {actual}"
    );
}

fn batch_of(text: &str) -> ParsedBatch {
    parse_documents(&[("traces.json".to_owned(), text.to_owned())])
}

fn cases_of(text: &str) -> CaseSet {
    parse_cases("cases.json", text).unwrap()
}

fn settings(pairs: &[(&str, f64)]) -> Settings {
    let mut settings = Settings::default();
    for (key, value) in pairs {
        settings.set(key, &value.to_string()).unwrap();
    }
    settings
}

fn run(batch: &ParsedBatch, cases: &CaseSet, pairs: &[(&str, f64)]) -> Calibration {
    calibrate(cases, &analyze(batch, &settings(pairs), false).unwrap())
}

/// The 6-case fixture (tests/fixtures/calibration/{traces,cases}.json): dense traces
/// with one candidate each at L2 distance d, so at maxL2Distance 1 the top quality
/// is 1 - d; trace F has no candidate (top quality 0, NO_MATCH), which the gate
/// flags at every threshold, 0 included (lowQuality is true without a top quality),
/// so it sorts below every top quality.
///
/// ```text
/// case  d     top   outcome   class
/// A     0.1   0.9   strong    found      (negative)
/// B     0.2   0.8   strong    found      (negative)
/// C     0.4   0.6   miss      not found  (positive)
/// D     0.4   0.6   strong    found      (negative)
/// E     0.6   0.4   miss      not found  (positive)
/// F     -     0.0   miss      not found  (positive)
/// ```
///
/// P = 3, N = 3. With referenceThreshold 0.3 the candidate thresholds are
/// 0, 0.3 (current), 0.4, 0.6, 0.8, 0.9, 1; flagged = top < t:
///
/// ```text
/// t     flagged   TP FP  TPR  FPR  J     F1 = 2TP/(2TP+FP+FN)
/// 0     F          1  0  1/3  0    1/3   2/4 = 0.5
/// 0.3   F          1  0  1/3  0    1/3   0.5
/// 0.4   F          1  0  1/3  0    1/3   0.5
/// 0.6   F E        2  0  2/3  0    2/3   4/5 = 0.8
/// 0.8   F E C D    3  1  1    1/3  2/3   6/7
/// 0.9   + B        3  2  1    2/3  1/3   6/8
/// 1     + A        3  3  1    1    0     6/9
/// ```
///
/// ROC vertices (one per distinct flagged set, from the flag-nothing end):
/// (0,0) (0,1/3) (0,2/3) (1/3,1) (2/3,1) (1,1). C and D tie at 0.6, so (0,2/3) -> (1/3,1) is one diagonal
/// segment. Trapezoids: 1/3 (2/3 + 1)/2 + 1/3 + 1/3 = 5/18 + 12/18 = 17/18, which
/// is also the Mann-Whitney count (8.5 of 9 pairs ordered, the tie counting 1/2)
/// and what sklearn.metrics.roc_auc_score([0,0,1,0,1,1], [-0.9,-0.8,-0.6,-0.6,
/// -0.4,1]) prints (score = -top, F above every other): 0.9444444444444444; sklearn's roc_curve gives the same
/// vertices (with drop_intermediate=False).
///
/// Youden's J is 2/3 at 0.6 and at 0.8 (exactly): the tie goes to the one nearest
/// the current 0.3, so the cut is 0.6. F1 is best at 0.8 (6/7).
///
/// Distance: the top quality below 0.6 is 0.4, halfway is 0.5, so the cut is
/// distance > (1 - 0.5) * 1 = 0.5, and maxL2Distance 0.5 / (1 - 0.3) = 5/7 puts it
/// at the reference threshold 0.3.
#[test]
fn six_cases_by_hand() {
    let batch = batch_of(&fixture("calibration/traces.json"));
    let cases = cases_of(&fixture("calibration/cases.json"));
    let c = run(&batch, &cases, &[("referenceThreshold", 0.3)]);
    assert_eq!((c.cases, c.linked, c.unlinked.count), (6, 6, 0));
    assert!(c.anecdotal);

    let all = &c.gate.all;
    assert_eq!(all.status, CurveStatus::Ok);
    assert_eq!((all.n, all.positives, all.negatives), (6, 3, 3));
    let thresholds: Vec<f64> = all.points.iter().map(|p| p.threshold).collect();
    assert_eq!(thresholds, [0.0, 0.3, 0.4, 0.6, 0.8, 0.9, 1.0]);
    let tp_fp: Vec<(usize, usize)> = all
        .points
        .iter()
        .map(|p| (p.true_positives, p.false_positives))
        .collect();
    assert_eq!(
        tp_fp,
        [(1, 0), (1, 0), (1, 0), (2, 0), (3, 1), (3, 2), (3, 3)]
    );
    let f1: Vec<Option<f64>> = all.points.iter().map(|p| p.f1).collect();
    let expected_f1 = [0.5, 0.5, 0.5, 0.8, 6.0 / 7.0, 0.75, 6.0 / 9.0];
    for (got, want) in f1.iter().zip(expected_f1) {
        close(got.unwrap(), want);
    }
    assert_eq!(
        all.points[0].precision,
        Some(1.0),
        "F is flagged even at t = 0"
    );

    let roc: Vec<(f64, f64)> = all
        .roc
        .iter()
        .map(|p: &RocPoint| (p.false_positive_rate, p.true_positive_rate))
        .collect();
    let third = 1.0 / 3.0;
    let expected = [
        (0.0, 0.0),
        (0.0, third),
        (0.0, 2.0 * third),
        (third, 1.0),
        (2.0 * third, 1.0),
        (1.0, 1.0),
    ];
    assert_eq!(roc.len(), expected.len());
    for ((fpr, tpr), (efpr, etpr)) in roc.iter().zip(expected) {
        close(*fpr, efpr);
        close(*tpr, etpr);
    }
    // F is flagged even at 0: the (0, 0) end has no threshold. No trace has top
    // quality 1, so t = 1 flags all: the (1, 1) end has one.
    assert_eq!(all.roc[0].threshold, None);
    assert!(all.roc[1..].iter().all(|p| p.threshold.is_some()));
    close(all.auc.unwrap(), 17.0 / 18.0);
    close(all.auc.unwrap(), 0.944_444_444_444_444_4); // sklearn roc_auc_score

    let youden = all.best_youden.unwrap();
    assert_eq!(youden.threshold, 0.6);
    close(youden.youden_j.unwrap(), 2.0 / 3.0);
    assert_eq!(all.best_f1.unwrap().threshold, 0.8);
    assert_eq!(all.current.threshold, 0.3);
    assert_eq!(all.current.flagged, 1);

    // Every trace is dense; no hybrid case.
    assert_eq!(c.gate.dense.auc, all.auc);
    assert_eq!(c.gate.hybrid.status, CurveStatus::Empty);

    let by_rule = |rule: &str| c.suggestions.iter().find(|s| s.rule == rule).unwrap();
    let youden_s = by_rule("youden");
    assert_eq!(youden_s.settings.len(), 1);
    assert_eq!(youden_s.settings[0].key, "referenceThreshold");
    assert_eq!(youden_s.settings[0].suggested, 0.6);
    // The F1 cut (0.8) is above highlyRelevantThreshold 0.75, which rises with it.
    let f1_s = by_rule("f1");
    let keys: Vec<&str> = f1_s.settings.iter().map(|s| s.key).collect();
    assert_eq!(keys, ["referenceThreshold", "highlyRelevantThreshold"]);
    let distance = by_rule("distanceCut");
    close(distance.distance_cut.unwrap(), 0.5);
    close(distance.settings[0].suggested, 0.5 / 0.7);

    // Levels at thresholds 0.9 / 0.75 / 0.3: A PRECISE, B HIGHLY_RELEVANT,
    // C D E RELEVANT, F NO_MATCH.
    let row = |level: Level| {
        c.levels
            .rows
            .iter()
            .find(|r| r.level == level)
            .unwrap()
            .recomputed
    };
    assert_eq!((row(Level::Precise).n, row(Level::Precise).strong), (1, 1));
    let relevant = row(Level::Relevant);
    assert_eq!((relevant.n, relevant.strong, relevant.miss), (3, 1, 2));
    assert_eq!(row(Level::NoMatch).miss, 1);
    assert_eq!(c.levels.recorded_unknown.n, 6);
    // Higher levels never have worse outcomes here.
    assert_eq!(c.levels.discordant_pairs, 0);

    // Monotone levels, among A B C D E (top >= 0.3): "top >= p predicts strong"
    // has J 0, 0, 1/2, 2/3, 1/3, 0 at p = 0.3, 0.4, 0.6, 0.8, 0.9, 1, so p = 0.8;
    // "top >= h predicts found" on [0.3, 0.8] has J 2/3 at 0.75 (the current
    // value, same split) and at 0.8: the tie goes to the current 0.75.
    let monotone = by_rule("monotoneLevels");
    let suggested: Vec<(&str, f64)> = monotone
        .settings
        .iter()
        .map(|s| (s.key, s.suggested))
        .collect();
    assert_eq!(
        suggested,
        [("preciseThreshold", 0.8), ("highlyRelevantThreshold", 0.75)]
    );
    assert_eq!(monotone.n, 5);
    assert_eq!(
        (
            monotone.discordant_pairs_before,
            monotone.discordant_pairs_after
        ),
        (Some(0), Some(0))
    );

    // Markdown lists every threshold for so few; JSON is camelCase.
    let md = ragtrace_core::calibration_markdown(&c);
    assert!(md.contains("| 0.600 | 2 | 2 | 0 | 3 | 1 |"), "{md}");
    let json = serde_json::to_value(&c).unwrap();
    assert_eq!(json["gate"]["all"]["bestYouden"]["threshold"], 0.6);
    assert_eq!(json["gate"]["hybrid"]["status"], "empty");
}

/// The golden fixture: PRECISE holds a weak case, RELEVANT a strong and a medium
/// one, so 2 pairs have the higher level with the worse outcome.
#[test]
fn discordant_pairs_count_higher_levels_with_worse_outcomes() {
    let docs: Vec<(String, String)> = [
        "dense-trace.json",
        "golden-runs.json",
        "hybrid-legacy-trace.json",
        "lookup-result.jsonl",
    ]
    .iter()
    .map(|name| ((*name).to_owned(), fixture(name)))
    .collect();
    let batch = parse_documents(&docs);
    let cases = cases_of(&fixture("golden-cases.json"));
    let c = run(&batch, &cases, &[]);
    let precise = c.levels.rows[0].recomputed;
    assert_eq!((precise.n, precise.weak), (1, 1));
    assert_eq!(c.levels.discordant_pairs, 2);
}

/// The 6-case table above in 10 bars: F has no block (a miss); E at 0.4 (miss);
/// C (miss) and D (strong) at 0.6; B at 0.8; A at 0.9. The bar edges are bar
/// starts: 0.6 falls in [0.6, 0.7), and top quality 1 would fall in the last bar.
#[test]
fn histogram_of_the_six_cases_by_hand() {
    use ragtrace_core::{top_quality_histogram, FoundSplit};
    let batch = batch_of(&fixture("calibration/traces.json"));
    let cases = cases_of(&fixture("calibration/cases.json"));
    let c = run(&batch, &cases, &[("referenceThreshold", 0.3)]);
    let h = top_quality_histogram(&c.gate.all, 10);
    let split = |found, not_found| FoundSplit { found, not_found };
    assert_eq!(h.no_block, split(0, 1));
    let bars: Vec<(usize, usize)> = h
        .bins
        .iter()
        .map(|b| (b.cases.found, b.cases.not_found))
        .collect();
    assert_eq!(
        bars,
        [
            (0, 0),
            (0, 0),
            (0, 0),
            (0, 0),
            (0, 1),
            (0, 0),
            (1, 1),
            (0, 0),
            (1, 0),
            (1, 0)
        ]
    );
    assert_eq!(h.tallest, split(1, 1));
    assert_eq!((h.bins[0].from, h.bins[9].to), (0.0, 1.0));
    close(h.bins[6].from, 0.6);

    // Every case in exactly one bar, at any bar count.
    for bins in [1, 3, 7, 20] {
        let h = top_quality_histogram(&c.gate.all, bins);
        let found: usize = h.bins.iter().map(|b| b.cases.found).sum();
        let not_found: usize = h.bins.iter().map(|b| b.cases.not_found).sum();
        assert_eq!((found, not_found + h.no_block.not_found), (3, 3));
    }
}

#[test]
fn baseline_side_by_side_is_two_calibrations() {
    let batch = batch_of(&fixture("calibration/traces.json"));
    let cases = cases_of(&fixture("calibration/cases.json"));
    let both = ragtrace_core::calibrate_against_baseline(
        &cases,
        &batch,
        &settings(&[("referenceThreshold", 0.3)]),
        &Settings::default(),
    )
    .unwrap();
    assert_eq!(
        both.current,
        run(&batch, &cases, &[("referenceThreshold", 0.3)])
    );
    assert_eq!(both.baseline, run(&batch, &cases, &[]));
    assert_eq!(both.baseline.gate.all.current.threshold, 0.5);
    // The curve does not depend on the reference threshold; the current point does.
    assert_eq!(both.current.gate.all.auc, both.baseline.gate.all.auc);
    assert_eq!(both.baseline.gate.all.current.true_positives, 2);
}

#[test]
fn no_link_says_why_and_names_the_first_cases() {
    let batch = batch_of(&fixture("calibration/traces.json"));
    let cases = cases_of(r#"[{"caseId": "x1", "query": "nobody asked"}, {"caseId": "x2"}]"#);
    let c = run(&batch, &cases, &[]);
    assert_eq!((c.linked, c.unlinked.count), (0, 2));
    assert_eq!(c.unlinked.first[0].case_id, "x1");
    assert!(c.notes[0].starts_with("no case is linked"), "{:?}", c.notes);
    assert_eq!(c.gate.all.status, CurveStatus::Empty);
    assert!(c.suggestions.iter().all(|s| s.settings.is_empty()));
}

#[test]
fn one_class_has_no_curve_and_a_sentence() {
    let batch = batch_of(&fixture("calibration/traces.json"));
    let cases = cases_of(r#"[{"caseId": "cal-a", "expectedDocIds": ["doc-a"]}]"#);
    let c = run(&batch, &cases, &[]);
    assert_eq!(c.gate.all.status, CurveStatus::OneClass);
    assert!(c.gate.all.roc.is_empty() && c.gate.all.auc.is_none());
    let message = c.gate.all.message.as_deref().unwrap_or("");
    assert!(message.contains("cannot be judged"), "{message}");
}

#[test]
fn hybrid_rank_quality_is_inert() {
    let traces = r#"{"traces": [
          {"requestId": "h1", "caseId": "h1", "mode": "hybrid", "candidates": [
            {"evidenceKey": "k1", "docId": "d1", "originalRank": 1, "score": 0.02, "scoreLabel": "hybrid"}]},
          {"requestId": "h2", "caseId": "h2", "mode": "hybrid", "candidates": [
            {"evidenceKey": "k2", "docId": "d2", "originalRank": 1, "score": 0.01, "scoreLabel": "hybrid"}]}
        ]}"#;
    let cases = cases_of(
        r#"[{"caseId": "h1", "expectedDocIds": ["d1"]}, {"caseId": "h2", "expectedDocIds": ["nope"]}]"#,
    );
    let c = run(&batch_of(traces), &cases, &[]);
    assert_eq!(c.gate.hybrid.status, CurveStatus::Inert);
    assert_eq!(c.gate.hybrid.gate_inert_traces, 2);
    assert!(c.gate.hybrid.roc.is_empty());
}

// -----------------------------------------------------------------------
// Properties over generated sets
// -----------------------------------------------------------------------

/// One generated case: its dense trace's distance (tenths, for ties; `None` = no
/// candidate) and whether the case expects the retrieved document.
fn generated(items: &[(Option<u8>, bool)]) -> (String, String) {
    let mut traces = Vec::new();
    let mut cases = Vec::new();
    for (i, (distance, found)) in items.iter().enumerate() {
        let candidates = match distance {
            Some(d) => format!(
                r#"[{{"evidenceKey": "k{i}", "docId": "d{i}", "originalRank": 1, "score": {}, "scoreLabel": "dense"}}]"#,
                f64::from(*d) / 10.0
            ),
            None => "[]".to_owned(),
        };
        traces.push(format!(
                r#"{{"requestId": "t{i}", "caseId": "c{i}", "mode": "dense", "candidates": {candidates}}}"#
            ));
        let expected = if *found {
            format!("d{i}")
        } else {
            "elsewhere".to_owned()
        };
        cases.push(format!(
            r#"{{"caseId": "c{i}", "expectedDocIds": ["{expected}"]}}"#
        ));
    }
    (
        format!(r#"{{"traces": [{}]}}"#, traces.join(",")),
        format!("[{}]", cases.join(",")),
    )
}

/// Youden's J of the gate as the pipeline applies it (`lowQuality`) under `pairs`.
fn pipeline_j(batch: &ParsedBatch, cases: &CaseSet, pairs: &[(&str, f64)]) -> f64 {
    let analysis = analyze(batch, &settings(pairs), false).unwrap();
    let report = ragtrace_core::evaluate_analysis(cases, &analysis);
    let (mut tp, mut fp, mut p, mut n) = (0.0, 0.0, 0.0, 0.0);
    for (trace, case) in analysis.traces.iter().zip(&report.cases) {
        let not_found = matches!(
            case.level,
            ragtrace_core::GoldenLevel::Weak | ragtrace_core::GoldenLevel::Miss
        );
        if not_found {
            p += 1.0;
            tp += f64::from(u8::from(trace.low_quality));
        } else {
            n += 1.0;
            fp += f64::from(u8::from(trace.low_quality));
        }
    }
    tp / p - fp / n
}

/// Mann-Whitney: P(top of a not-found case < top of a found case), ties 1/2.
fn brute_force_auc(c_items: &[(f64, bool)]) -> f64 {
    let (mut ordered, mut pairs) = (0.0, 0.0);
    for (top_p, _) in c_items.iter().filter(|(_, found)| !found) {
        for (top_n, _) in c_items.iter().filter(|(_, found)| *found) {
            pairs += 1.0;
            ordered += match top_p.total_cmp(top_n) {
                std::cmp::Ordering::Less => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Greater => 0.0,
            };
        }
    }
    ordered / pairs
}

fn items_strategy() -> impl Strategy<Value = Vec<(Option<u8>, bool)>> {
    prop::collection::vec(
        (prop::option::weighted(0.9, 0u8..=12), any::<bool>()),
        1..40,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn auc_is_in_unit_interval_and_flips_with_the_labels(
        items in items_strategy(),
        reference in 1u8..8,
    ) {
        let reference = f64::from(reference) / 10.0;
        let pairs = [("referenceThreshold", reference)];
        // A trace without a candidate can never be found, so relabelling it could
        // not flip it: give every trace a candidate (distance >= 1 is quality 0).
        let items: Vec<(Option<u8>, bool)> =
            items.iter().map(|(d, found)| (Some(d.unwrap_or(11)), *found)).collect();
        let flipped_items: Vec<(Option<u8>, bool)> =
            items.iter().map(|(d, found)| (*d, !found)).collect();
        let (traces, cases) = generated(&items);
        let batch = batch_of(&traces);
        let c = run(&batch, &cases_of(&cases), &pairs);
        let (_, flipped_cases) = generated(&flipped_items);
        let flipped = run(&batch, &cases_of(&flipped_cases), &pairs);
        let all = &c.gate.all;
        prop_assert_eq!(all.n, items.len());
        match all.auc {
            Some(auc) => {
                prop_assert!((0.0..=1.0).contains(&auc), "{}", auc);
                let flipped_auc = flipped.gate.all.auc.unwrap_or(f64::NAN);
                prop_assert!((flipped_auc - (1.0 - auc)).abs() < EPS, "{} vs {}", auc, flipped_auc);
                let tops: Vec<(f64, bool)> = items
                    .iter()
                    // No candidate: below every top quality (flagged at every threshold).
                    .map(|(d, found)| (d.map_or(-1.0, |d| (1.0 - f64::from(d) / 10.0).max(0.0)), *found))
                    .collect();
                prop_assert!((auc - brute_force_auc(&tops)).abs() < EPS);
                let roc = &all.roc;
                prop_assert_eq!((roc[0].false_positive_rate, roc[0].true_positive_rate), (0.0, 0.0));
                let last = roc[roc.len() - 1];
                prop_assert_eq!((last.false_positive_rate, last.true_positive_rate), (1.0, 1.0));
            }
            None => prop_assert!(all.status != CurveStatus::Ok),
        }
    }

    /// Each bar holds exactly the cases whose top quality lies in it, counted
    /// directly from the generated distances.
    #[test]
    fn histogram_bars_count_the_cases_in_them(
        items in items_strategy(),
        bins in 1usize..25,
    ) {
        use ragtrace_core::top_quality_histogram;
        let (traces, cases) = generated(&items);
        let c = run(&batch_of(&traces), &cases_of(&cases), &[]);
        let h = top_quality_histogram(&c.gate.all, bins);
        prop_assert_eq!(h.bins.len(), bins);
        let tops: Vec<(Option<f64>, bool)> = items
            .iter()
            .map(|(d, found)| (d.map(|d| (1.0 - f64::from(d) / 10.0).max(0.0)), *found))
            .collect();
        let in_bar = |top: Option<f64>, from: f64, to: f64, last: bool| {
            top.is_some_and(|t| t >= from && (t < to || (last && t <= to)))
        };
        for (k, bar) in h.bins.iter().enumerate() {
            let last = k + 1 == bins;
            let found = tops.iter().filter(|(t, f)| *f && in_bar(*t, bar.from, bar.to, last)).count();
            let not_found = tops.iter().filter(|(t, f)| !*f && in_bar(*t, bar.from, bar.to, last)).count();
            prop_assert_eq!((bar.cases.found, bar.cases.not_found), (found, not_found), "bar {}", k);
            prop_assert!(h.tallest.found >= found && h.tallest.not_found >= not_found);
        }
        let no_block = tops.iter().filter(|(t, _)| t.is_none()).count();
        prop_assert_eq!(h.no_block.found + h.no_block.not_found, no_block);
    }

    #[test]
    fn applying_a_suggestion_reproduces_its_j(
        items in items_strategy(),
        reference in 1u8..8,
    ) {
        let reference = f64::from(reference) / 10.0;
        let pairs = [("referenceThreshold", reference)];
        let (traces, cases) = generated(&items);
        let batch = batch_of(&traces);
        let cases = cases_of(&cases);
        let c = run(&batch, &cases, &pairs);
        for rule in ["youden", "distanceCut"] {
            let Some(s) = c.suggestions.iter().find(|s| s.rule == rule) else {
                continue;
            };
            let (Some(after), false) = (s.after, s.settings.is_empty()) else {
                continue;
            };
            let mut applied: Vec<(&str, f64)> = pairs.to_vec();
            applied.extend(s.settings.iter().map(|change| (change.key, change.suggested)));
            let j = pipeline_j(&batch, &cases, &applied);
            let reported = after.youden_j.unwrap_or(f64::NAN);
            prop_assert!((j - reported).abs() < EPS, "{}: pipeline {} reported {}", rule, j, reported);
        }
        // The level thresholds applied give the level table the suggestion reported.
        if let Some(s) = c.suggestions.iter().find(|s| s.rule == "monotoneLevels") {
            if let Some(after) = s.discordant_pairs_after {
                let mut applied: Vec<(&str, f64)> = pairs.to_vec();
                applied.extend(s.settings.iter().map(|change| (change.key, change.suggested)));
                let again = run(&batch, &cases, &applied);
                prop_assert_eq!(again.levels.discordant_pairs, after);
            }
        }
    }
}
