//! Golden deltas between two evaluations of the same cases: run A (the baseline, or the
//! first run) and run B. Per case the level transition and the metric deltas; per metric
//! the means, wins / ties / losses, and (computed separately by [`add_significance`],
//! because it is the slow part) a sign-flip randomisation test, a paired t-test, a
//! bootstrap interval and Holm's correction across the metrics.
//!
//! The treatment of ties, cases missing from one side and non-finite values is in
//! docs/decisions.md ("Comparing two runs").

use crate::diagnostic::json_type;
use crate::golden::{GoldenLevel, GoldenReport, Metric, MetricValues};
use crate::stats::{self, TTest};
use serde::Serialize;
use serde_json::Value;
use std::collections::HashMap;

/// Two values closer than this are a tie (the metrics are ratios of small integers, so a
/// real difference is far larger).
pub(crate) const TIE_TOLERANCE: f64 = 1e-12;

/// One case of one evaluation: what the comparison reads.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct CaseScore {
    pub case_id: String,
    pub level: GoldenLevel,
    /// In [`Metric::ALL`] order.
    pub values: MetricValues,
}

/// The cases of an evaluation, in its order.
pub fn case_scores(report: &GoldenReport) -> Vec<CaseScore> {
    report
        .cases
        .iter()
        .map(|c| CaseScore {
            case_id: c.case_id.clone(),
            level: c.level,
            values: Metric::ALL.map(|m| m.of_case(c)),
        })
        .collect()
}

/// A saved report.json that is not one `ragtrace eval` writes.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct BaselineError {
    /// JSON pointer of the offending value ("" is the whole document).
    pub path: String,
    pub message: String,
}

impl std::fmt::Display for BaselineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        super::write_at(f, &self.path, &self.message)
    }
}

fn shape_error(path: String, expected: &str, found: Option<&Value>) -> BaselineError {
    let found = found.map_or("nothing".to_owned(), |v| json_type(v).to_owned());
    BaselineError {
        path,
        message: format!(
            "expected {expected} (a report.json written by `ragtrace eval`), found {found}"
        ),
    }
}

/// Reads the cases of a saved report.json (contract section 6). Every problem is
/// located by JSON pointer and says what was expected.
pub fn baseline_scores(value: &Value) -> Result<Vec<CaseScore>, BaselineError> {
    let Value::Object(root) = value else {
        return Err(shape_error(
            String::new(),
            "an object with \"summary\" and \"cases\"",
            Some(value),
        ));
    };
    if !root.get("summary").is_some_and(Value::is_object) {
        return Err(shape_error(
            "/summary".to_owned(),
            "an object",
            root.get("summary"),
        ));
    }
    let Some(Value::Array(cases)) = root.get("cases") else {
        return Err(shape_error(
            "/cases".to_owned(),
            "an array of cases",
            root.get("cases"),
        ));
    };
    cases
        .iter()
        .enumerate()
        .map(|(i, case)| {
            let at = |key: &str| format!("/cases/{i}/{key}");
            let Value::Object(fields) = case else {
                return Err(shape_error(format!("/cases/{i}"), "an object", Some(case)));
            };
            let case_id = match fields.get("caseId") {
                Some(Value::String(id)) => id.clone(),
                other => return Err(shape_error(at("caseId"), "a string", other)),
            };
            let level = match fields.get("level").and_then(Value::as_str) {
                Some("strong") => GoldenLevel::Strong,
                Some("medium") => GoldenLevel::Medium,
                Some("weak") => GoldenLevel::Weak,
                Some("miss") => GoldenLevel::Miss,
                _ => {
                    return Err(shape_error(
                        at("level"),
                        "one of \"strong\", \"medium\", \"weak\", \"miss\"",
                        fields.get("level"),
                    ))
                }
            };
            let mut values = [0.0; Metric::COUNT];
            for (slot, metric) in values.iter_mut().zip(Metric::ALL) {
                let key = metric.case_key();
                *slot = match (metric, fields.get(key)) {
                    (Metric::Hit, Some(Value::Bool(hit))) => f64::from(u8::from(*hit)),
                    (Metric::Hit, other) => return Err(shape_error(at(key), "a boolean", other)),
                    (_, Some(Value::Number(n))) => n.as_f64().unwrap_or(f64::NAN),
                    (_, None) if metric.may_be_absent() => f64::NAN,
                    (_, other) => return Err(shape_error(at(key), "a number", other)),
                };
            }
            Ok(CaseScore {
                case_id,
                level,
                values,
            })
        })
        .collect()
}

/// One value of a case in both runs.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ValuePair {
    pub a: f64,
    pub b: f64,
    /// `b - a`.
    pub delta: f64,
}

/// One case present in both evaluations.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct CaseDelta {
    pub case_id: String,
    pub level_a: GoldenLevel,
    pub level_b: GoldenLevel,
    /// The level dropped (e.g. strong -> miss).
    pub regression: bool,
    pub improvement: bool,
    /// In [`Metric::ALL`] order.
    pub metrics: [ValuePair; Metric::COUNT],
}

/// One metric over the cases both evaluations have.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct MetricSummary {
    pub metric: &'static str,
    /// Cases counted: present in both, both values finite.
    pub cases: usize,
    pub mean_a: Option<f64>,
    pub mean_b: Option<f64>,
    pub mean_difference: Option<f64>,
    /// B better than A / equal / worse, per case.
    pub wins: usize,
    pub ties: usize,
    pub losses: usize,
    /// Filled by [`add_significance`].
    pub significance: Option<Significance>,
}

/// The tests of one metric's paired differences `b - a`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Significance {
    /// Two-sided sign-flip randomisation test.
    pub permutation_p: f64,
    /// Holm-adjusted across the metrics (what `--fail-on significant` reads).
    pub permutation_p_holm: f64,
    /// `None` with fewer than two cases or no variance in the differences.
    pub t_test: Option<TTest>,
    /// Holm-adjusted t-test p (a missing p counts as 1).
    pub t_test_p_holm: f64,
    /// Percentile bootstrap interval of the mean difference.
    pub ci_low: Option<f64>,
    pub ci_high: Option<f64>,
}

/// How the significance is computed; the defaults are the documented ones.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct SignificanceOptions {
    pub permutations: usize,
    /// Written as hex text: JSON readers in JavaScript would round a 64-bit number.
    #[serde(serialize_with = "hex_seed")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub permutation_seed: u64,
    pub resamples: usize,
    #[serde(serialize_with = "hex_seed")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub bootstrap_seed: u64,
    pub confidence: f64,
}

fn hex_seed<S: serde::Serializer>(seed: &u64, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&format!("{seed:#018x}"))
}

impl Default for SignificanceOptions {
    fn default() -> Self {
        SignificanceOptions {
            permutations: stats::DEFAULT_RESAMPLES,
            permutation_seed: stats::PERMUTATION_SEED,
            resamples: stats::DEFAULT_RESAMPLES,
            bootstrap_seed: stats::BOOTSTRAP_SEED,
            confidence: 0.95,
        }
    }
}

/// The golden comparison of two evaluations.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct GoldenComparison {
    /// Cases present in both, in B's order.
    pub cases: Vec<CaseDelta>,
    /// Case ids only one evaluation has (left out of every statistic).
    pub only_in_a: Vec<String>,
    pub only_in_b: Vec<String>,
    /// `levelTransitions[i][j]`: cases at level i in A and j in B (strong, medium, weak, miss).
    pub level_transitions: [[usize; 4]; 4],
    pub regressions: usize,
    pub improvements: usize,
    /// In [`Metric::ALL`] order.
    pub metrics: Vec<MetricSummary>,
    /// Set by [`add_significance`].
    pub significance_options: Option<SignificanceOptions>,
}

/// Pairs the cases by caseId (a repeated caseId pairs in order) and computes the
/// transitions, deltas and means. Fast; the tests are [`add_significance`].
pub fn compare_golden(a: &[CaseScore], b: &[CaseScore]) -> GoldenComparison {
    let mut by_id: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, case) in a.iter().enumerate().rev() {
        by_id.entry(case.case_id.as_str()).or_default().push(i);
    }
    let mut used_a = vec![false; a.len()];
    let mut cases = Vec::new();
    let mut only_in_b = Vec::new();
    let mut level_transitions = [[0usize; 4]; 4];
    for case_b in b {
        let Some(i) = by_id.get_mut(case_b.case_id.as_str()).and_then(Vec::pop) else {
            only_in_b.push(case_b.case_id.clone());
            continue;
        };
        used_a[i] = true;
        let case_a = &a[i];
        level_transitions[case_a.level.index()][case_b.level.index()] += 1;
        let mut metrics = [ValuePair {
            a: 0.0,
            b: 0.0,
            delta: 0.0,
        }; Metric::COUNT];
        for (m, slot) in metrics.iter_mut().enumerate() {
            let (va, vb) = (case_a.values[m], case_b.values[m]);
            *slot = ValuePair {
                a: va,
                b: vb,
                delta: vb - va,
            };
        }
        cases.push(CaseDelta {
            case_id: case_b.case_id.clone(),
            level_a: case_a.level,
            level_b: case_b.level,
            regression: case_b.level.index() > case_a.level.index(),
            improvement: case_b.level.index() < case_a.level.index(),
            metrics,
        });
    }
    let only_in_a = a
        .iter()
        .zip(&used_a)
        .filter(|(_, used)| !**used)
        .map(|(c, _)| c.case_id.clone())
        .collect();
    let metrics = Metric::ALL
        .iter()
        .map(|metric| metric_summary(metric.key(), &cases, metric.index()))
        .collect();
    GoldenComparison {
        regressions: cases.iter().filter(|c| c.regression).count(),
        improvements: cases.iter().filter(|c| c.improvement).count(),
        cases,
        only_in_a,
        only_in_b,
        level_transitions,
        metrics,
        significance_options: None,
    }
}

/// The metric's finite value pairs (a pair with a NaN or infinite side is left out).
fn finite_pairs(cases: &[CaseDelta], m: usize) -> impl Iterator<Item = ValuePair> + '_ {
    cases
        .iter()
        .map(move |c| c.metrics[m])
        .filter(|v| v.a.is_finite() && v.b.is_finite())
}

fn metric_summary(name: &'static str, cases: &[CaseDelta], m: usize) -> MetricSummary {
    let (mut n, mut sum_a, mut sum_b) = (0usize, 0.0, 0.0);
    let (mut wins, mut ties, mut losses) = (0, 0, 0);
    for v in finite_pairs(cases, m) {
        n += 1;
        sum_a += v.a;
        sum_b += v.b;
        if v.delta > TIE_TOLERANCE {
            wins += 1;
        } else if v.delta < -TIE_TOLERANCE {
            losses += 1;
        } else {
            ties += 1;
        }
    }
    let mean = |sum: f64| (n > 0).then(|| sum / n as f64);
    MetricSummary {
        metric: name,
        cases: n,
        mean_a: mean(sum_a),
        mean_b: mean(sum_b),
        mean_difference: mean(sum_b - sum_a),
        wins,
        ties,
        losses,
        significance: None,
    }
}

/// Adds the tests to every metric. The random draws are shared across the metrics when
/// they cover the same cases (always, unless a value was not finite).
pub fn add_significance(comparison: &mut GoldenComparison, options: &SignificanceOptions) {
    let diffs: Vec<Vec<f64>> = (0..Metric::COUNT)
        .map(|m| {
            finite_pairs(&comparison.cases, m)
                .map(|v| v.delta)
                .collect()
        })
        .collect();
    let same_length = diffs.windows(2).all(|w| w[0].len() == w[1].len());
    let groups: Vec<Vec<usize>> = if same_length {
        vec![(0..Metric::COUNT).collect()]
    } else {
        (0..Metric::COUNT).map(|m| vec![m]).collect()
    };
    let mut permutation_p = vec![1.0; Metric::COUNT];
    let mut intervals = [None; Metric::COUNT];
    for group in groups {
        let slices: Vec<&[f64]> = group.iter().map(|&m| diffs[m].as_slice()).collect();
        let ps = stats::sign_flip_p_values(&slices, options.permutations, options.permutation_seed);
        let cis = stats::bootstrap_mean_intervals(
            &slices,
            options.resamples,
            options.confidence,
            options.bootstrap_seed,
        );
        for ((&m, p), ci) in group.iter().zip(ps).zip(cis) {
            permutation_p[m] = p;
            intervals[m] = ci;
        }
    }
    let t_tests: Vec<Option<TTest>> = diffs.iter().map(|d| stats::paired_t_test(d)).collect();
    let t_ps: Vec<f64> = t_tests.iter().map(|t| t.map_or(1.0, |t| t.p)).collect();
    let holm_permutation = stats::holm(&permutation_p);
    let holm_t = stats::holm(&t_ps);
    for (m, summary) in comparison.metrics.iter_mut().enumerate() {
        summary.significance = Some(Significance {
            permutation_p: permutation_p[m],
            permutation_p_holm: holm_permutation[m],
            t_test: t_tests[m],
            t_test_p_holm: holm_t[m],
            ci_low: intervals[m].map(|(low, _)| low),
            ci_high: intervals[m].map(|(_, high)| high),
        });
    }
    comparison.significance_options = Some(*options);
}

/// When a comparison fails a CI gate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum FailOn {
    /// A case's golden level dropped.
    Regression,
    /// A metric's mean dropped with Holm-adjusted randomisation p < 0.05.
    Significant,
    Never,
}

impl FailOn {
    pub fn parse(text: &str) -> Option<FailOn> {
        match text {
            "regression" => Some(FailOn::Regression),
            "significant" => Some(FailOn::Significant),
            "never" => Some(FailOn::Never),
            _ => None,
        }
    }
}

/// The significance level of the `significant` gate.
pub(crate) const GATE_ALPHA: f64 = 0.05;

/// Why the gate trips, or `None`. `significant` needs [`add_significance`] first.
pub fn golden_gate(comparison: &GoldenComparison, fail_on: FailOn) -> Option<String> {
    match fail_on {
        FailOn::Never => None,
        FailOn::Regression => {
            let regressed: Vec<String> = comparison
                .cases
                .iter()
                .filter(|c| c.regression)
                .map(|c| {
                    format!(
                        "{} ({} -> {})",
                        c.case_id,
                        c.level_a.as_str(),
                        c.level_b.as_str()
                    )
                })
                .collect();
            (!regressed.is_empty()).then(|| {
                format!(
                    "{} case(s) regressed: {}",
                    regressed.len(),
                    regressed.join(", ")
                )
            })
        }
        FailOn::Significant => {
            let dropped: Vec<String> = comparison
                .metrics
                .iter()
                .filter_map(|m| {
                    let s = m.significance.as_ref()?;
                    let drop = m.mean_difference? < 0.0;
                    (drop && s.permutation_p_holm < GATE_ALPHA).then(|| {
                        format!(
                            "{} (mean {:+.4}, Holm p {:.4})",
                            m.metric,
                            m.mean_difference.unwrap_or(0.0),
                            s.permutation_p_holm
                        )
                    })
                })
                .collect();
            (!dropped.is_empty()).then(|| {
                format!(
                    "metric mean(s) dropped significantly: {}",
                    dropped.join(", ")
                )
            })
        }
    }
}

/// report.json with the comparison against a baseline (`ragtrace eval --baseline`).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ReportWithComparison<'a> {
    #[serde(flatten)]
    pub report: &'a GoldenReport,
    pub comparison: &'a GoldenComparison,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn score(id: &str, level: GoldenLevel, values: MetricValues) -> CaseScore {
        CaseScore {
            case_id: id.to_owned(),
            level,
            values,
        }
    }

    #[test]
    fn identical_evaluations_tie_everywhere_with_p_1() {
        let cases: Vec<CaseScore> = (0..12)
            .map(|i| {
                score(
                    &format!("c{i}"),
                    GoldenLevel::Medium,
                    [1.0, 0.5, 0.2, 1.0 / (i + 1) as f64, 0.6, 0.4],
                )
            })
            .collect();
        let mut c = compare_golden(&cases, &cases);
        add_significance(&mut c, &SignificanceOptions::default());
        assert_eq!((c.regressions, c.improvements), (0, 0));
        assert_eq!(c.level_transitions[1][1], 12);
        for m in &c.metrics {
            assert_eq!((m.wins, m.ties, m.losses), (0, 12, 0));
            assert_eq!(m.mean_difference, Some(0.0));
            let s = m
                .significance
                .as_ref()
                .unwrap_or_else(|| panic!("computed"));
            assert_eq!((s.permutation_p, s.permutation_p_holm), (1.0, 1.0));
            assert_eq!(s.t_test, None);
            assert_eq!((s.ci_low, s.ci_high), (Some(0.0), Some(0.0)));
        }
        assert_eq!(golden_gate(&c, FailOn::Significant), None);
        assert_eq!(golden_gate(&c, FailOn::Regression), None);
    }

    #[test]
    fn cases_missing_from_one_side_are_listed_and_left_out() {
        let a = [
            score("x", GoldenLevel::Strong, [1.0, 1.0, 0.2, 1.0, 1.0, 1.0]),
            score("only-a", GoldenLevel::Strong, [1.0; Metric::COUNT]),
        ];
        let b = [
            score("only-b", GoldenLevel::Miss, [0.0; Metric::COUNT]),
            score("x", GoldenLevel::Weak, [0.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
        ];
        let c = compare_golden(&a, &b);
        assert_eq!(c.only_in_a, ["only-a"]);
        assert_eq!(c.only_in_b, ["only-b"]);
        assert_eq!(c.cases.len(), 1);
        assert!(c.cases[0].regression);
        assert_eq!(c.metrics[2].mean_difference, Some(-0.2));
        assert_eq!(
            golden_gate(&c, FailOn::Regression).as_deref(),
            Some("1 case(s) regressed: x (strong -> weak)")
        );
    }

    #[test]
    fn a_non_finite_value_leaves_its_case_out_of_that_metric_only() {
        let a = [
            score(
                "x",
                GoldenLevel::Strong,
                [1.0, f64::NAN, 0.2, 1.0, 1.0, 1.0],
            ),
            score("y", GoldenLevel::Strong, [1.0, 0.5, 0.2, 1.0, 1.0, 1.0]),
        ];
        let c = compare_golden(&a, &a);
        assert_eq!(c.metrics[1].cases, 1);
        assert_eq!(c.metrics[0].cases, 2);
    }

    #[test]
    fn baseline_cases_are_read_from_a_report() {
        let report = serde_json::json!({"summary": {}, "cases": [
            {"caseId": "c1", "level": "medium", "docHit": true, "recall": 0.5,
             "precision": 0.2, "reciprocalRank": 0.5, "ndcg": 0.4}]});
        let cases = baseline_scores(&report).unwrap_or_else(|e| panic!("{e}"));
        // A report written before MAP@k existed: MAP is left out (not a number).
        assert_eq!(cases[0].values[..5], [1.0, 0.5, 0.2, 0.5, 0.4]);
        assert!(cases[0].values[5].is_nan());
        assert_eq!(cases[0].level, GoldenLevel::Medium);
        let err = baseline_scores(&serde_json::json!({"summary": {}, "cases": [{"caseId": 3}]}));
        assert_eq!(
            err.map_err(|e| e.to_string()),
            Err("at /cases/0/caseId: expected a string (a report.json written by `ragtrace eval`), found a number".to_owned())
        );
    }
}
