//! Many runs at once: the randomised Tukey HSD and the bootstrap intervals against an
//! independent reference, two runs against `compare`, the chunked test against the
//! whole, invariants, and bad input.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use ragtrace_core::*;
use serde_json::Value;

fn fixture_table() -> ManyRunTable {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/fixtures/many-runs-values.json"
    );
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let json: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
    let names: Vec<String> = serde_json::from_value(json["runs"].clone()).unwrap_or_default();
    let case_ids: Vec<String> = serde_json::from_value(json["caseIds"].clone()).unwrap_or_default();
    let rows: Vec<Vec<[f64; 5]>> =
        serde_json::from_value(json["values"].clone()).unwrap_or_default();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    // The fixture holds the five metrics before MAP@k; MAP's column is 0 here (the
    // permutations and resamples are shared by the metrics, so the five are unchanged).
    let rows = rows
        .into_iter()
        .flatten()
        .map(|five| std::array::from_fn(|m| five.get(m).copied().unwrap_or(0.0)))
        .collect();
    ManyRunTable::from_values(&names, case_ids, rows).unwrap_or_else(|e| panic!("{e}"))
}

/// Five generated runs of 150 queries (one missing from the last run), analysed, and
/// their cases.
fn generated_runs() -> (Vec<Analysis>, CaseSet) {
    let (runs, cases) = generate_many_runs(5, 150, 10, 7);
    let cases = parse_cases("cases.json", &cases).unwrap_or_else(|e| panic!("{e:?}"));
    let analyses = runs
        .iter()
        .map(|text| {
            let batch = parse_document("run", text);
            analyze(&batch, &Settings::default(), false).unwrap_or_else(|e| panic!("{e}"))
        })
        .collect();
    (analyses, cases)
}

#[test]
fn the_fixture_is_the_generated_runs_table() {
    let (analyses, cases) = generated_runs();
    let reports: Vec<GoldenReport> = analyses
        .iter()
        .map(|a| evaluate_analysis(&cases, a))
        .collect();
    let names = ["r0", "r1", "r2", "r3", "r4"];
    let named: Vec<(&str, &GoldenReport)> = names.iter().copied().zip(&reports).collect();
    let table = ManyRunTable::from_reports(&named).unwrap_or_else(|e| panic!("{e}"));
    // The fast path (no evaluation built) pairs the same values.
    let metrics: Vec<Vec<Option<MetricValues>>> =
        analyses.iter().map(|a| case_metrics(&cases, a)).collect();
    let fast =
        ManyRunTable::from_case_metrics(&names, &cases, &metrics).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(fast, table);
    let fixture = fixture_table();
    assert_eq!(table.case_ids, fixture.case_ids);
    let first_five = |values: &[MetricValues]| -> Vec<[f64; 5]> {
        values
            .iter()
            .map(|v| std::array::from_fn(|m| v[m]))
            .collect()
    };
    assert_eq!(first_five(table.values()), first_five(fixture.values()));
    // m-00097 is missing from the last run: listed, left out, counted.
    assert_eq!(table.case_ids.len(), 149);
    assert_eq!(
        table.partial_cases,
        [PartialCase {
            case_id: "m-00097".to_owned(),
            present_in: vec!["r0".into(), "r1".into(), "r2".into(), "r3".into()],
        }]
    );
    assert_eq!(table.answered, [150, 150, 150, 150, 149]);
    assert!(table.notes.iter().any(|n| n.contains("\"m-00097\"")));
}

/// `tukeyP` of the reference: per metric, the pairs (0,1), (0,2), ..., (3,4).
const REFERENCE_P: [[f64; 10]; 5] = [
    [
        0.378816, 0.123459, 0.00598, 0.00012, 0.98489, 0.524035, 0.069449, 0.862921, 0.254887,
        0.862921,
    ],
    [
        0.487975, 0.156048, 0.00499, 0.00011, 0.97468, 0.373426, 0.03812, 0.778822, 0.190378,
        0.868631,
    ],
    [
        0.487975, 0.156048, 0.00499, 0.00011, 0.97468, 0.373426, 0.03812, 0.778822, 0.190378,
        0.868631,
    ],
    [
        0.925691, 0.99783, 0.01861, 0.052069, 0.98669, 0.167628, 0.324257, 0.04775, 0.116099,
        0.99694,
    ],
    [
        0.755742, 0.756182, 0.00635, 0.00158, 1.0, 0.184518, 0.080439, 0.184158, 0.080269, 0.99649,
    ],
];
/// `ci` of the reference (scipy.stats.bootstrap, percentile): per metric, per run.
const REFERENCE_CI: [[[f64; 2]; 5]; 5] = [
    [
        [0.308725, 0.463087],
        [0.409396, 0.57047],
        [0.442953, 0.604027],
        [0.503356, 0.66443],
        [0.563758, 0.718121],
    ],
    [
        [0.167785, 0.261745],
        [0.228188, 0.325503],
        [0.248322, 0.348993],
        [0.291946, 0.395973],
        [0.328859, 0.42953],
    ],
    [
        [0.067114, 0.104698],
        [0.091275, 0.130201],
        [0.099329, 0.139597],
        [0.116779, 0.157047],
        [0.131544, 0.171812],
    ],
    [
        [0.152573, 0.255928],
        [0.183669, 0.28434],
        [0.17226, 0.258389],
        [0.256823, 0.37349],
        [0.252349, 0.353244],
    ],
    [
        [0.12689, 0.203367],
        [0.160425, 0.236887],
        [0.162877, 0.234431],
        [0.217828, 0.3026],
        [0.229945, 0.310179],
    ],
];
/// `means` of the reference: per metric, per run.
const REFERENCE_MEANS: [[f64; 5]; 5] = [
    [
        0.3825503356,
        0.4899328859,
        0.5234899329,
        0.5838926174,
        0.644295302,
    ],
    [
        0.2147651007,
        0.2751677852,
        0.2986577181,
        0.3422818792,
        0.3791946309,
    ],
    [
        0.0859060403,
        0.1100671141,
        0.1194630872,
        0.1369127517,
        0.1516778523,
    ],
    [
        0.2026845638,
        0.2325503356,
        0.2140939597,
        0.3142058166,
        0.3016778523,
    ],
    [
        0.1642132805,
        0.1979187989,
        0.1978944774,
        0.2595667476,
        0.2695767259,
    ],
];

/// The fixture tested once (default options) for every test that reads it.
fn fixture_significance() -> (ManyRunTable, ManyRunSignificance) {
    static TESTED: std::sync::OnceLock<(ManyRunTable, ManyRunSignificance)> =
        std::sync::OnceLock::new();
    TESTED
        .get_or_init(|| {
            let table = fixture_table();
            let significance = ManyRunTest::new(&table, &SignificanceOptions::default()).finish();
            (table, significance)
        })
        .clone()
}

/// The reference (core/tests/reference/many_runs_reference.py, numpy's generator,
/// 100,000 permutations) and ours (SplitMix64, 10,000) estimate the same p by Monte
/// Carlo: their difference has a standard error of sqrt(p (1 - p) (1/10,000 +
/// 1/100,000)). Allowed: four standard errors, plus two steps of 1/10,001 for p near 0
/// or 1 where the binomial error vanishes.
#[test]
fn tukey_p_values_agree_with_the_numpy_reference() {
    let (table, significance) = fixture_significance();
    assert_eq!(significance.options.permutations, 10_000);
    let runs = table.runs.len();
    let mut worst: f64 = 0.0;
    for (m, expected) in REFERENCE_P.iter().enumerate() {
        let pairs = (0..runs).flat_map(|i| (i + 1..runs).map(move |j| (i, j)));
        for ((i, j), &reference) in pairs.zip(expected) {
            let p = significance.p[m][i][j];
            let standard_error = (reference * (1.0 - reference) * (1e-4 + 1e-5)).sqrt();
            let tolerance = 4.0 * standard_error + 2.0 / 10_001.0;
            assert!(
                (p - reference).abs() <= tolerance,
                "{} runs {i} and {j}: p {p} against the reference's {reference} (tolerance {tolerance})",
                DELTA_METRICS[m]
            );
            assert_eq!(p, significance.p[m][j][i]);
            worst = worst.max((p - reference).abs() / tolerance);
        }
    }
    // The check has teeth: some p-values are far from 0 and 1.
    assert!(REFERENCE_P.iter().flatten().any(|&p| p > 0.2 && p < 0.8));
    assert!(worst > 0.0);
}

/// The means are exact; the intervals are Monte Carlo estimates of the 2.5% and 97.5%
/// quantiles of the bootstrap distribution of the mean. With B resamples the standard
/// error of such a quantile is about sqrt(q (1 - q) / B) / phi(1.96) * sigma = 2.67
/// sigma / sqrt(B) (sigma: the standard error of the mean, the distribution near
/// normal), so the difference of ours (B = 10,000) and scipy's (B = 100,000) has a
/// standard error of 2.67 sigma sqrt(1.1e-4) = 0.028 sigma. Allowed: four of those plus
/// one step 1/n of the mean (the means of 0/1 values lie on that grid, and the two
/// percentiles may land on neighbouring points).
#[test]
fn bootstrap_intervals_agree_with_scipy() {
    let (table, significance) = fixture_significance();
    let comparison = compare_many(&table, Some(&significance), 0);
    let n = table.case_ids.len() as f64;
    let runs = table.runs.len();
    for (m, metric) in comparison
        .metrics
        .iter()
        .enumerate()
        .take(REFERENCE_MEANS.len())
    {
        let cis = metric.ci.as_ref().unwrap_or_else(|| panic!("tested"));
        for r in 0..runs {
            assert!(
                (metric.means[r] - REFERENCE_MEANS[m][r]).abs() < 1e-9,
                "{} run {r}",
                metric.metric
            );
            let values: Vec<f64> = table.values().chunks(runs).map(|row| row[r][m]).collect();
            let mean = values.iter().sum::<f64>() / n;
            let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
            let sigma = (variance / n).sqrt();
            let tolerance = 4.0 * 0.028 * sigma + 1.0 / n;
            for (ours, reference) in cis[r].iter().zip(REFERENCE_CI[m][r]) {
                assert!(
                    (ours - reference).abs() <= tolerance,
                    "{} run {r}: interval end {ours} against scipy's {reference} (tolerance {tolerance})",
                    metric.metric
                );
            }
        }
    }
}

/// The letters of the fixture at 0.05, by the p-values: pairs (0,3) and (0,4) differ on
/// hit, and on recall also (1,4).
#[test]
fn letters_follow_the_p_values() {
    let (table, significance) = fixture_significance();
    let comparison = compare_many(&table, Some(&significance), 0);
    for metric in &comparison.metrics {
        let p = &metric.tukey.as_ref().unwrap_or_else(|| panic!("tested")).p;
        for (i, row) in p.iter().enumerate() {
            for (j, &p) in row.iter().enumerate() {
                let share = metric.letters[i]
                    .chars()
                    .any(|c| metric.letters[j].contains(c));
                assert_eq!(share, p >= 0.05, "{} {i} {j}", metric.metric);
            }
        }
    }
    assert_eq!(comparison.metrics[0].letters, ["b", "ab", "ab", "a", "a"]);
}

#[test]
fn two_runs_give_what_compare_gives() {
    // 96 queries: none is missing from the second run.
    let (runs, cases_text) = generate_many_runs(2, 96, 10, 11);
    let cases = parse_cases("cases.json", &cases_text).unwrap_or_else(|e| panic!("{e:?}"));
    let (a, b) = (parse_document("a", &runs[0]), parse_document("b", &runs[1]));
    let settings = Settings::default();
    let report = compare_batches(&a, &b, &settings, Some(&cases), &CompareOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let golden = report.golden.unwrap_or_else(|| panic!("cases given"));
    let many = compare_many_batches(
        &[("a", &a), ("b", &b)],
        &settings,
        &cases,
        &ManyRunOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(many.cases.common, golden.cases.len());
    assert_eq!(many.partial_cases, []);
    let mut some_p_below_one = false;
    for (two, m) in golden.metrics.iter().zip(&many.metrics) {
        assert_eq!(two.metric, m.metric);
        assert_eq!(two.mean_a, Some(m.means[0]));
        assert_eq!(two.mean_b, Some(m.means[1]));
        assert_eq!(
            (two.wins, two.ties, two.losses),
            (m.wins[1][0], m.ties[1][0], m.wins[0][1])
        );
        let p = m.tukey.as_ref().unwrap_or_else(|| panic!("tested")).p[0][1];
        let s = two
            .significance
            .as_ref()
            .unwrap_or_else(|| panic!("tested"));
        // The same draws, the same statistic: the same p, exactly.
        assert_eq!(p, s.permutation_p, "{}", m.metric);
        some_p_below_one |= p < 0.9;
    }
    assert!(some_p_below_one);
}

#[test]
fn identical_runs_share_one_letter_with_p_one() {
    let table = fixture_table();
    let run0: Vec<MetricValues> = table
        .values()
        .chunks(5)
        .flat_map(|row| [row[0]; 3])
        .collect();
    let same = ManyRunTable::from_values(&["x", "y", "z"], table.case_ids.clone(), run0)
        .unwrap_or_else(|e| panic!("{e}"));
    let significance = ManyRunTest::new(&same, &SignificanceOptions::default()).finish();
    assert_eq!(significance.cases_that_differ, 0);
    let comparison = compare_many(&same, Some(&significance), 0);
    for metric in &comparison.metrics {
        let p = &metric.tukey.as_ref().unwrap_or_else(|| panic!("tested")).p;
        assert!(p.iter().flatten().all(|&p| p == 1.0));
        assert_eq!(metric.letters, ["a", "a", "a"]);
        assert_eq!(metric.wins, vec![vec![0; 3]; 3]);
    }
}

fn small_options() -> SignificanceOptions {
    SignificanceOptions {
        permutations: 300,
        resamples: 200,
        ..SignificanceOptions::default()
    }
}

/// Values on a coarse grid, so ties happen; `runs` a row.
fn table_strategy(runs: std::ops::RangeInclusive<usize>) -> impl Strategy<Value = ManyRunTable> {
    (runs, 1usize..40).prop_flat_map(|(runs, cases)| {
        prop::collection::vec(prop::array::uniform6(0u8..5), runs * cases).prop_map(move |cells| {
            let names: Vec<String> = (0..runs).map(|r| format!("run{r}")).collect();
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            let values = cells
                .iter()
                .map(|c| c.map(|x| f64::from(x) / 4.0))
                .collect();
            let ids = (0..cases).map(|c| format!("c{c}")).collect();
            ManyRunTable::from_values(&names, ids, values).unwrap_or_else(|e| panic!("{e}"))
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// However the steps are split, the result is the same.
    #[test]
    fn chunked_tests_equal_one_pass(
        table in table_strategy(2..=10),
        chunks in prop::collection::vec(1usize..200, 1..8),
    ) {
        let options = small_options();
        let whole = ManyRunTest::new(&table, &options).finish();
        let mut test = ManyRunTest::new(&table, &options);
        let mut finished = false;
        for &chunk in chunks.iter().cycle().take(100) {
            finished = test.advance(chunk);
            if finished {
                break;
            }
        }
        let (done, total) = test.progress();
        prop_assert_eq!(finished, done == total);
        prop_assert_eq!(total, 500);
        prop_assert_eq!(test.finish(), whole);
    }

    /// p is symmetric, in (0, 1], 1 on the diagonal, and never larger for a pair whose
    /// means differ more; runs that differ significantly share no letter, the others
    /// share one.
    #[test]
    fn p_values_and_letters_are_consistent(table in table_strategy(2..=9)) {
        let runs = table.runs.len();
        let significance = ManyRunTest::new(&table, &small_options()).finish();
        let comparison = compare_many(&table, Some(&significance), 0);
        for metric in &comparison.metrics {
            let p = &metric.tukey.as_ref().unwrap_or_else(|| panic!("tested")).p;
            let gap = |i: usize, j: usize| (metric.means[i] - metric.means[j]).abs();
            for i in 0..runs {
                prop_assert_eq!(p[i][i], 1.0);
                for j in 0..runs {
                    prop_assert_eq!(p[i][j], p[j][i]);
                    prop_assert!(p[i][j] > 0.0 && p[i][j] <= 1.0);
                    for k in 0..runs {
                        for l in 0..runs {
                            if gap(i, j) > gap(k, l) + 1e-9 {
                                prop_assert!(p[i][j] <= p[k][l]);
                            }
                        }
                    }
                    let share = metric.letters[i].chars().any(|c| metric.letters[j].contains(c));
                    prop_assert_eq!(share, p[i][j] >= comparison.alpha);
                    prop_assert_eq!(
                        metric.wins[i][j] + metric.ties[i][j] + metric.wins[j][i],
                        if i == j { 0 } else { table.case_ids.len() }
                    );
                }
            }
        }
    }

    /// Insert-and-absorb on any pattern of differences: two runs share a letter exactly
    /// when they do not differ.
    #[test]
    fn letters_separate_exactly_the_differing_pairs(
        runs in 2usize..12,
        bits in prop::collection::vec(any::<bool>(), 144),
        means in prop::collection::vec(0.0f64..1.0, 12),
    ) {
        let differ = |i: usize, j: usize| {
            let (i, j) = (i.min(j), i.max(j));
            i != j && bits[i * 12 + j]
        };
        let letters = compact_letters(&means[..runs], differ);
        for i in 0..runs {
            prop_assert!(!letters[i].is_empty());
            for j in 0..runs {
                let share = letters[i].chars().any(|c| letters[j].contains(c));
                prop_assert_eq!(share, !differ(i, j), "{} {}", i, j);
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Bad input
// ---------------------------------------------------------------------------

fn batch(text: &str) -> ParsedBatch {
    parse_document("run", text)
}

fn trace(case_id: &str, query: &str, docs: &[&str]) -> String {
    let candidates: Vec<String> = docs
        .iter()
        .enumerate()
        .map(|(i, d)| {
            format!(
                r#"{{"evidenceKey":"{d}#1","docId":"{d}","originalRank":{},"score":{},"scoreLabel":"dense"}}"#,
                i + 1,
                0.2 + 0.1 * i as f64
            )
        })
        .collect();
    format!(
        r#"{{"caseId":"{case_id}","query":"{query}","candidates":[{}]}}"#,
        candidates.join(",")
    )
}

fn run_of(traces: &[String]) -> ParsedBatch {
    batch(&format!("[{}]", traces.join(",")))
}

fn cases() -> CaseSet {
    parse_cases(
        "cases.json",
        r#"{"cases":[
            {"caseId":"c1","query":"one","expectedDocIds":["a"]},
            {"caseId":"c2","query":"two","expectedDocIds":["b"]},
            {"caseId":"c3","query":"three","expectedDocIds":["c"]}]}"#,
    )
    .unwrap_or_else(|e| panic!("{e:?}"))
}

fn good_run() -> ParsedBatch {
    run_of(&[
        trace("c1", "one", &["a", "x"]),
        trace("c2", "two", &["x", "b"]),
        trace("c3", "three", &["c"]),
    ])
}

fn compare(runs: &[(&str, &ParsedBatch)]) -> Result<ManyRunComparison, ManyRunError> {
    compare_many_batches(
        runs,
        &Settings::default(),
        &cases(),
        &ManyRunOptions::default(),
    )
}

fn error_of(runs: &[(&str, &ParsedBatch)]) -> ManyRunError {
    match compare(runs) {
        Ok(_) => panic!("compared"),
        Err(e) => e,
    }
}

#[test]
fn one_run_only_is_an_error_that_names_it() {
    let run = good_run();
    let e = error_of(&[("dense", &run)]);
    assert_eq!(e.path, "/runs");
    assert!(e.message.contains("only one run given (\"dense\")"), "{e}");
    assert_eq!(error_of(&[]).path, "/runs");
}

#[test]
fn a_run_named_twice_is_an_error_at_the_second() {
    let run = good_run();
    let e = error_of(&[("dense", &run), ("hybrid", &run), ("dense", &run)]);
    assert_eq!(e.path, "/runs/2/name");
    assert!(e.message.contains("given to runs 1 and 3"), "{e}");
    let e = error_of(&[("dense", &run), (" ", &run)]);
    assert_eq!(e.path, "/runs/1/name");
}

#[test]
fn an_empty_run_is_an_error_at_it() {
    let (run, empty) = (good_run(), batch("[]"));
    let e = error_of(&[("dense", &run), ("hybrid", &empty)]);
    assert_eq!(e.path, "/runs/1");
    assert!(e.message.contains("run \"hybrid\" has no trace"), "{e}");
}

#[test]
fn runs_with_no_common_case_are_an_error() {
    let first = run_of(&[trace("c1", "one", &["a"])]);
    let second = run_of(&[trace("c2", "two", &["b"])]);
    let e = error_of(&[("first", &first), ("second", &second)]);
    assert_eq!(e.path, "/runs");
    assert!(e.message.contains("no case in common"), "{e}");
    assert!(e.message.contains("\"first\" 1, \"second\" 1"), "{e}");
    // A run of other queries altogether.
    let other = run_of(&[trace("z9", "elsewhere", &["q"])]);
    let e = error_of(&[("first", &first), ("other", &other)]);
    assert_eq!(e.path, "/runs/1");
    assert!(e.message.contains("answered none of the 3 case(s)"), "{e}");
}

#[test]
fn colliding_keys_are_a_note_and_the_first_trace_counts() {
    let run = good_run();
    let repeated = run_of(&[
        trace("c1", "one", &["x"]),
        trace("c1", "one again", &["a"]),
        trace("c2", "two", &["b"]),
        trace("c3", "three", &["c"]),
    ]);
    let c = compare(&[("dense", &run), ("hybrid", &repeated)]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(c.cases.common, 3);
    assert!(
        c.notes
            .iter()
            .any(|n| n.starts_with("run \"hybrid\": 1 trace(s) repeat") && n.contains("\"c1\"")),
        "{:?}",
        c.notes
    );
    // c1 is linked to the first trace (no hit) in "hybrid".
    assert_eq!(c.metrics[0].wins[0][1], 1);
}

#[test]
fn partial_cases_are_listed_and_left_out() {
    let run = good_run();
    let fewer = run_of(&[trace("c1", "one", &["a"]), trace("c3", "three", &["c"])]);
    let c = compare(&[("full", &run), ("fewer", &fewer)]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(c.cases.common, 2);
    assert_eq!(c.cases.answered, [3, 2]);
    assert_eq!(
        c.partial_cases,
        [PartialCase {
            case_id: "c2".into(),
            present_in: vec!["full".into()],
        }]
    );
    assert_eq!(c.metrics[0].means, [1.0, 1.0]);
}

#[test]
fn an_unknown_baseline_and_too_many_runs_are_errors() {
    let run = good_run();
    let options = ManyRunOptions {
        baseline: Some("reranked".into()),
        ..ManyRunOptions::default()
    };
    let e = compare_many_batches(
        &[("dense", &run), ("hybrid", &run)],
        &Settings::default(),
        &cases(),
        &options,
    )
    .err()
    .unwrap_or_else(|| panic!("compared"));
    assert_eq!(e.path, "/baseline");
    assert!(e
        .message
        .contains("\"reranked\" is not one of the runs (dense, hybrid)"));
    let names: Vec<String> = (0..=MOST_RUNS).map(|i| format!("r{i}")).collect();
    let many: Vec<(&str, &ParsedBatch)> = names.iter().map(|n| (n.as_str(), &run)).collect();
    assert!(error_of(&many).message.contains("at most 26"));
}

#[test]
fn the_gate_trips_on_a_run_significantly_worse_than_the_baseline() {
    let (table, significance) = fixture_significance();
    // r4 is the best: against it, r0 is significantly worse on hit.
    let best = compare_many(&table, Some(&significance), 4);
    let message = many_runs_gate(&best).unwrap_or_else(|| panic!("r0 is worse"));
    assert!(message.contains("r0 on hit"), "{message}");
    assert!(!message.contains("r3 on"), "{message}");
    // r0 is the worst: nothing is worse than it.
    assert_eq!(
        many_runs_gate(&compare_many(&table, Some(&significance), 0)),
        None
    );
    // Before the tests ran there is nothing to trip on.
    assert_eq!(many_runs_gate(&compare_many(&table, None, 4)), None);
}

#[test]
fn evaluations_of_different_case_lists_pair_by_case_id() {
    let run = good_run();
    let analysis = analyze(&run, &Settings::default(), false).unwrap_or_else(|e| panic!("{e}"));
    let other_cases = parse_cases(
        "other.json",
        r#"{"cases":[
            {"caseId":"c3","query":"three","expectedDocIds":["c"]},
            {"caseId":"c1","query":"one","expectedDocIds":["x"]}]}"#,
    )
    .unwrap_or_else(|e| panic!("{e:?}"));
    let first = evaluate_analysis(&cases(), &analysis);
    let second = evaluate_analysis(&other_cases, &analysis);
    let table = ManyRunTable::from_reports(&[("first", &first), ("second", &second)])
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(table.case_ids, ["c1", "c3"]);
    assert_eq!(table.answered, [3, 2]);
    assert_eq!(
        table.partial_cases,
        [PartialCase {
            case_id: "c2".into(),
            present_in: vec!["first".into()],
        }]
    );
    // c1's trace ranks a, x: the first cases expect a (MRR 1), the others x (MRR 0.5).
    assert_eq!(table.values()[0][3], 1.0);
    assert_eq!(table.values()[1][3], 0.5);
}

/// A batch whose traces link by caseId, by query (padded with spaces) or not at all,
/// repeat caseIds, queries and docIds, and cases that repeat caseIds and expected
/// documents: every way a case finds its trace and its documents.
fn linking_batch() -> impl Strategy<Value = (Value, Value, usize, usize)> {
    let case_id = || prop::sample::select(vec!["a", "b", "c", "d"]);
    let query = || prop::sample::select(vec!["one", " one ", "two", "three\t"]);
    let doc = || prop::sample::select(vec!["d0", "d1", "d2", "d3", "d4", "d5"]);
    let case = (
        case_id(),
        prop::option::of(query()),
        prop::collection::vec(doc(), 0..4),
    )
        .prop_map(|(id, query, docs)| {
            serde_json::json!({"caseId": id, "query": query, "expectedDocIds": docs})
        });
    let trace = (
        prop::option::of(case_id()),
        prop::option::of(query()),
        prop::collection::vec((doc(), 0.0f64..1.0), 0..8),
    )
        .prop_map(|(id, query, candidates)| {
            let candidates: Vec<Value> = candidates
                .iter()
                .enumerate()
                .map(|(i, (doc, distance))| {
                    serde_json::json!({"evidenceKey": format!("{doc}#{i}"), "docId": doc,
                        "originalRank": i + 1, "score": distance, "scoreLabel": "dense"})
                })
                .collect();
            serde_json::json!({"kind": "RerankTrace", "caseId": id, "query": query,
                "mode": "dense", "candidates": candidates})
        });
    (
        prop::collection::vec(case, 0..8),
        prop::collection::vec(trace, 0..10),
        1usize..7,
        1usize..4,
    )
        .prop_map(|(cases, traces, return_n, cap)| {
            (
                serde_json::json!({"cases": cases}),
                serde_json::json!({"traces": traces}),
                return_n,
                cap,
            )
        })
}

proptest! {
    #[test]
    fn case_metrics_are_the_evaluation_s_values_bit_for_bit(
        (cases, traces, return_n, cap) in linking_batch()
    ) {
        let cases = parse_cases_value("cases.json", &cases).unwrap_or_else(|e| panic!("{e:?}"));
        let batch = parse_document("run", &traces.to_string());
        let mut settings = Settings::default();
        settings.set("returnN", &return_n.to_string()).unwrap_or_else(|e| panic!("{e}"));
        settings
            .set("maxChunksPerDocument", &cap.to_string())
            .unwrap_or_else(|e| panic!("{e}"));
        let analysis = analyze(&batch, &settings, false).unwrap_or_else(|e| panic!("{e}"));
        let report = evaluate_analysis(&cases, &analysis);
        let expected: Vec<Option<[u64; 6]>> = report
            .cases
            .iter()
            .map(|case| {
                case.linked_by.map(|_| {
                    [
                        if case.doc_hit { 1.0f64 } else { 0.0 },
                        case.recall,
                        case.precision,
                        case.reciprocal_rank,
                        case.ndcg,
                        case.average_precision,
                    ]
                    .map(f64::to_bits)
                })
            })
            .collect();
        let fast: Vec<Option<[u64; 6]>> = case_metrics(&cases, &analysis)
            .into_iter()
            .map(|values| values.map(|v| v.map(f64::to_bits)))
            .collect();
        prop_assert_eq!(fast, expected);
    }
}
