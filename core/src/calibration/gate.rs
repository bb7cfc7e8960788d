//! The low-quality gate as a classifier of misses: every candidate threshold from one
//! walk over the observations sorted by top quality, the ROC curve, its area, and the
//! histogram of top qualities.

use super::{Observation, ANECDOTAL_BELOW};
use serde::Serialize;
use std::cmp::Ordering;

/// The gate as a classifier over all traces and per mode.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct GateScopes {
    pub all: GateCurve,
    pub dense: GateCurve,
    pub hybrid: GateCurve,
}

/// Whether a scope's curve means anything.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum CurveStatus {
    /// A curve, its AUC and best cuts.
    Ok,
    /// No linked case in this scope.
    Empty,
    /// Only found or only not-found cases: the threshold cannot be judged.
    OneClass,
    /// Every trace has top quality 1.0 under hybrid rank quality: the gate cannot fire.
    Inert,
}

/// The low-quality gate as a classifier of misses in one scope.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct GateCurve {
    /// `all`, `dense` or `hybrid`.
    pub scope: &'static str,
    /// Linked cases in the scope.
    pub n: usize,
    /// Not found (weak or miss): the class the gate should flag.
    pub positives: usize,
    /// Found (strong or medium).
    pub negatives: usize,
    pub status: CurveStatus,
    /// Why there is no curve, or what to keep in mind about it.
    pub message: Option<String>,
    pub anecdotal: bool,
    /// Traces of the scope whose gate is inert (hybrid rank quality, rank 1 accepted).
    pub gate_inert_traces: usize,
    /// The confusion at the current `referenceThreshold`.
    pub current: ThresholdPoint,
    /// Every candidate threshold (0, each distinct top quality, the current
    /// `referenceThreshold`, 1), ascending.
    pub points: Vec<ThresholdPoint>,
    /// The ROC curve from (0, 0) to (1, 1), FPR ascending; empty unless `status` is ok.
    pub roc: Vec<RocPoint>,
    /// Area under `roc` by the trapezoid rule; `None` unless `status` is ok.
    pub auc: Option<f64>,
    /// The point maximising Youden's J (ties: nearest the current threshold, then lower).
    pub best_youden: Option<ThresholdPoint>,
    /// The point maximising F1 (same tie rule).
    pub best_f1: Option<ThresholdPoint>,
}

/// The gate at one threshold: flagged = top quality < `threshold`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ThresholdPoint {
    pub threshold: f64,
    pub n: usize,
    pub flagged: usize,
    /// Flagged and not found.
    pub true_positives: usize,
    /// Flagged but found.
    pub false_positives: usize,
    /// Passed and found.
    pub true_negatives: usize,
    /// Passed but not found.
    pub false_negatives: usize,
    /// TP / flagged; `None` when nothing is flagged.
    pub precision: Option<f64>,
    /// TP / positives (the true-positive rate); `None` without positives.
    pub recall: Option<f64>,
    /// FP / negatives; `None` without negatives.
    pub false_positive_rate: Option<f64>,
    /// 2TP / (2TP + FP + FN); `None` when that is 0 / 0.
    pub f1: Option<f64>,
    /// recall - falsePositiveRate; `None` when either is.
    pub youden_j: Option<f64>,
}

/// One vertex of the ROC curve.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct RocPoint {
    /// The threshold giving this vertex; `None` for an end no threshold in [0, 1]
    /// reaches: (0, 0) when traces without an accepted block are flagged even at 0,
    /// (1, 1) when some trace has top quality 1.0.
    pub threshold: Option<f64>,
    pub false_positive_rate: f64,
    pub true_positive_rate: f64,
}

/// Cumulative counts below each threshold of an ascending list, from observations
/// sorted by top quality: `(positives below, negatives below)` per threshold.
pub(super) fn counts_below(
    sorted: &[Observation],
    thresholds: &[f64],
    positive: impl Fn(&Observation) -> bool,
) -> Vec<(usize, usize)> {
    let mut at = 0;
    let (mut pos, mut neg) = (0, 0);
    thresholds
        .iter()
        .map(|&t| {
            while let Some(o) = sorted.get(at).filter(|o| o.top < t) {
                if positive(o) {
                    pos += 1;
                } else {
                    neg += 1;
                }
                at += 1;
            }
            (pos, neg)
        })
        .collect()
}

/// 0, every distinct top quality, 1, and `extra`, ascending and distinct.
pub(super) fn candidate_thresholds(sorted: &[Observation], extra: f64) -> Vec<f64> {
    let mut thresholds: Vec<f64> = Vec::with_capacity(sorted.len() + 3);
    thresholds.push(0.0);
    for o in sorted.iter().filter(|o| o.top.is_finite()) {
        if thresholds.last() != Some(&o.top) {
            thresholds.push(o.top);
        }
    }
    thresholds.push(1.0);
    thresholds.push(extra);
    // Nearly sorted already: the two ends and `extra` are out of place at most.
    thresholds.sort_by(f64::total_cmp);
    thresholds.dedup();
    thresholds
}

fn ratio(numerator: usize, denominator: usize) -> Option<f64> {
    (denominator > 0).then(|| numerator as f64 / denominator as f64)
}

pub(super) fn point(
    threshold: f64,
    below: (usize, usize),
    positives: usize,
    negatives: usize,
) -> ThresholdPoint {
    let (tp, fp) = below;
    let fn_ = positives - tp;
    let tn = negatives - fp;
    let recall = ratio(tp, positives);
    let false_positive_rate = ratio(fp, negatives);
    ThresholdPoint {
        threshold,
        n: positives + negatives,
        flagged: tp + fp,
        true_positives: tp,
        false_positives: fp,
        true_negatives: tn,
        false_negatives: fn_,
        precision: ratio(tp, tp + fp),
        recall,
        false_positive_rate,
        f1: ratio(2 * tp, 2 * tp + fp + fn_),
        youden_j: recall.zip(false_positive_rate).map(|(r, f)| r - f),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Criterion {
    Youden,
    F1,
}

/// A criterion's value as an exact fraction `(numerator, denominator)`, so that equal
/// values compare equal: J = TP/P - FP/N = (TP N - FP P) / (P N), F1 = 2TP / (2TP + FP + FN).
/// `None` where the criterion is undefined.
fn exact_score(p: &ThresholdPoint, criterion: Criterion) -> Option<(i128, i128)> {
    let tp = p.true_positives as i128;
    let fp = p.false_positives as i128;
    let positives = tp + p.false_negatives as i128;
    let negatives = fp + p.true_negatives as i128;
    match criterion {
        Criterion::Youden => (positives > 0 && negatives > 0)
            .then(|| (tp * negatives - fp * positives, positives * negatives)),
        Criterion::F1 => {
            let denominator = 2 * tp + fp + p.false_negatives as i128;
            (denominator > 0).then_some((2 * tp, denominator))
        }
    }
}

/// The point maximising the criterion; ties (compared exactly, not in floating
/// point) go to the threshold nearest `current`, then to the lower one (the points
/// are ascending, so the first wins).
pub(super) fn best_point(
    points: &[ThresholdPoint],
    criterion: Criterion,
    current: f64,
) -> Option<ThresholdPoint> {
    let mut best: Option<((i128, i128), &ThresholdPoint)> = None;
    for p in points {
        let Some(s) = exact_score(p, criterion) else {
            continue;
        };
        let better = match best {
            None => true,
            // Denominators are positive: a/b > c/d  <=>  a d > c b.
            Some((b, q)) => match (s.0 * b.1).cmp(&(b.0 * s.1)) {
                Ordering::Greater => true,
                Ordering::Less => false,
                Ordering::Equal => (p.threshold - current).abs() < (q.threshold - current).abs(),
            },
        };
        if better {
            best = Some((s, p));
        }
    }
    best.map(|(_, p)| *p)
}

pub(super) fn gate_curve(scope: &'static str, sorted: &[Observation], reference: f64) -> GateCurve {
    let n = sorted.len();
    let positives = sorted.iter().filter(|o| o.not_found()).count();
    let negatives = n - positives;
    let gate_inert_traces = sorted.iter().filter(|o| o.gate_inert).count();
    let thresholds = candidate_thresholds(sorted, reference);
    let below = counts_below(sorted, &thresholds, Observation::not_found);
    let points: Vec<ThresholdPoint> = thresholds
        .iter()
        .zip(&below)
        .map(|(&t, &b)| point(t, b, positives, negatives))
        .collect();
    let current = points
        .iter()
        .find(|p| p.threshold == reference)
        .copied()
        .unwrap_or_else(|| point(reference, (0, 0), positives, negatives));
    let anecdotal = n < ANECDOTAL_BELOW;

    let (status, message) = if n == 0 {
        (
            CurveStatus::Empty,
            Some(format!("no linked case in scope {scope}")),
        )
    } else if gate_inert_traces == n {
        (
            CurveStatus::Inert,
            Some(format!(
                "all {n} traces run hybrid rank quality with their rank-1 block accepted: top \
                 quality is 1.0 and the low-quality gate cannot fire, so no curve; judge the \
                 gate with hybridQuality denseWhenPresent or maxRankDense"
            )),
        )
    } else if positives == 0 || negatives == 0 {
        let which = if positives == 0 {
            "found (strong or medium)"
        } else {
            "not found (weak or miss)"
        };
        (
            CurveStatus::OneClass,
            Some(format!(
                "all {n} cases are {which}: the threshold cannot be judged from this set"
            )),
        )
    } else {
        let inert_note = (gate_inert_traces > 0).then(|| {
            format!(
                "{gate_inert_traces} of {n} traces have an inert gate (hybrid rank quality, \
                 top quality 1.0): no threshold in [0, 1] flags them"
            )
        });
        (CurveStatus::Ok, inert_note)
    };

    let ok = status == CurveStatus::Ok;
    let (roc, auc) = if ok {
        let roc = roc_curve(&points, positives, negatives);
        let auc = trapezoid_area(&roc);
        (roc, Some(auc))
    } else {
        (Vec::new(), None)
    };
    GateCurve {
        scope,
        n,
        positives,
        negatives,
        status,
        message,
        anecdotal,
        gate_inert_traces,
        current,
        best_youden: ok
            .then(|| best_point(&points, Criterion::Youden, reference))
            .flatten(),
        best_f1: ok
            .then(|| best_point(&points, Criterion::F1, reference))
            .flatten(),
        points,
        roc,
        auc,
    }
}

/// The ROC vertices: one per distinct flagged set, then (1, 1). Traces with equal
/// top quality are flagged together, so a tie between found and not found is one
/// diagonal segment, which is what the trapezoid rule then integrates.
fn roc_curve(points: &[ThresholdPoint], positives: usize, negatives: usize) -> Vec<RocPoint> {
    let mut roc: Vec<RocPoint> = Vec::with_capacity(points.len() + 2);
    let mut last_flagged = None;
    // Traces without an accepted block are flagged even at threshold 0.
    if points.first().is_some_and(|p| p.flagged > 0) {
        last_flagged = Some(0);
        roc.push(RocPoint {
            threshold: None,
            false_positive_rate: 0.0,
            true_positive_rate: 0.0,
        });
    }
    for p in points {
        if last_flagged == Some(p.flagged) {
            continue;
        }
        last_flagged = Some(p.flagged);
        roc.push(RocPoint {
            threshold: Some(p.threshold),
            false_positive_rate: p.false_positives as f64 / negatives as f64,
            true_positive_rate: p.true_positives as f64 / positives as f64,
        });
    }
    if last_flagged != Some(positives + negatives) {
        roc.push(RocPoint {
            threshold: None,
            false_positive_rate: 1.0,
            true_positive_rate: 1.0,
        });
    }
    roc
}

fn trapezoid_area(roc: &[RocPoint]) -> f64 {
    roc.windows(2)
        .map(|w| {
            (w[1].false_positive_rate - w[0].false_positive_rate)
                * (w[0].true_positive_rate + w[1].true_positive_rate)
                / 2.0
        })
        .fold(0.0, |total, area| total + area)
}

/// Found and not-found cases among a group of traces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct FoundSplit {
    /// strong or medium: the gate should pass them.
    pub found: usize,
    /// weak or miss: the gate should flag them.
    pub not_found: usize,
}

/// One bar of [`top_quality_histogram`]: traces with `from <= top quality < to`
/// (the last bar includes 1).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct HistogramBin {
    pub from: f64,
    pub to: f64,
    pub cases: FoundSplit,
}

/// A scope's cases by top quality, found and not found apart, so a reader sees
/// where a reference threshold would cut them.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct TopQualityHistogram {
    /// Traces without an accepted block: no top quality, flagged at every threshold.
    pub no_block: FoundSplit,
    /// `bins` equal bars over [0, 1].
    pub bins: Vec<HistogramBin>,
    /// The tallest bar's found and not-found counts (the no-block bar included),
    /// for a plot's scale.
    pub tallest: FoundSplit,
}

/// The histogram of a curve's cases by top quality, read off its candidate
/// thresholds: every distinct top quality is one, so the traces flagged at the
/// first candidate at or above a bin edge are exactly those below the edge.
pub fn top_quality_histogram(curve: &GateCurve, bins: usize) -> TopQualityHistogram {
    let everyone = FoundSplit {
        found: curve.negatives,
        not_found: curve.positives,
    };
    let below = |edge: f64| {
        let at = curve.points.partition_point(|p| p.threshold < edge);
        curve.points.get(at).map_or(everyone, |p| FoundSplit {
            found: p.false_positives,
            not_found: p.true_positives,
        })
    };
    let no_block = below(0.0);
    let mut tallest = no_block;
    let mut lower = no_block;
    let bins = (0..bins)
        .map(|k| {
            let from = k as f64 / bins as f64;
            let last = k + 1 == bins;
            let to = if last {
                1.0
            } else {
                (k + 1) as f64 / bins as f64
            };
            let upper = if last { everyone } else { below(to) };
            let cases = FoundSplit {
                found: upper.found - lower.found,
                not_found: upper.not_found - lower.not_found,
            };
            tallest.found = tallest.found.max(cases.found);
            tallest.not_found = tallest.not_found.max(cases.not_found);
            lower = upper;
            HistogramBin { from, to, cases }
        })
        .collect();
    TopQualityHistogram {
        no_block,
        bins,
        tallest,
    }
}
