//! Calibration of the relevance levels and the low-quality gate against golden
//! outcomes (issue 10; decisions in docs/decisions.md, "Calibration").
//!
//! Every linked case gives one observation: its trace's top quality (0 when no
//! block was accepted), recomputed and recorded level, mode, and the case's golden
//! outcome. From those: the level-vs-outcome table, the gate seen as a classifier
//! of misses (ROC curve, AUC, precision/recall/F1 at every candidate threshold) and
//! suggested settings with their figures.
//!
//! The gate's classifier: the *positive* class is "not found" (golden `weak` or
//! `miss`), the gate *flags* a trace when `topQuality < t`. One sort of the
//! observations by top quality, then one walk, gives every threshold: O(n log n).

use crate::golden::{self, CaseSet, GoldenLevel, GoldenReport};
use crate::label::CanonicalLabel;
use crate::{analyze, Analysis, Config, ConfigError, Level, ParsedBatch, Settings, TraceAnalysis};
use serde::Serialize;
use std::cmp::Ordering;

/// Fewer linked cases than this and the figures are called anecdotal.
pub const ANECDOTAL_BELOW: usize = 10;
/// How many unlinked cases are listed by name.
const UNLINKED_SHOWN: usize = 5;

/// The whole calibration under one configuration (`calibration.json`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Calibration {
    /// The global configuration the figures are computed under.
    pub config: Config,
    /// Cases in the cases file.
    pub cases: usize,
    /// Cases linked to a trace: the `n` of every figure over all traces.
    pub linked: usize,
    pub unlinked: Unlinked,
    /// `linked` < 10: every figure is anecdotal.
    pub anecdotal: bool,
    /// Sentences about the whole set (no link, anecdotal, per-trace settings ...).
    pub notes: Vec<String>,
    pub levels: LevelTable,
    pub gate: GateScopes,
    pub suggestions: Vec<Suggestion>,
}

/// Cases no trace answers, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Unlinked {
    pub count: usize,
    /// The first few, in cases-file order.
    pub first: Vec<UnlinkedCase>,
    /// Why they are unlinked, as a sentence; `None` when every case is linked.
    pub reason: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UnlinkedCase {
    pub case_id: String,
    pub query: Option<String>,
}

/// Golden outcomes of a group of cases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OutcomeCounts {
    pub n: usize,
    pub strong: usize,
    pub medium: usize,
    pub weak: usize,
    pub miss: usize,
}

impl OutcomeCounts {
    fn add(&mut self, outcome: GoldenLevel) {
        self.n += 1;
        match outcome {
            GoldenLevel::Strong => self.strong += 1,
            GoldenLevel::Medium => self.medium += 1,
            GoldenLevel::Weak => self.weak += 1,
            GoldenLevel::Miss => self.miss += 1,
        }
    }

    /// Counts best outcome first: strong, medium, weak, miss.
    fn by_rank(&self) -> [usize; 4] {
        [self.strong, self.medium, self.weak, self.miss]
    }

    /// strong + medium.
    pub fn found(&self) -> usize {
        self.strong + self.medium
    }
}

/// One row of the level-vs-outcome table.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LevelRow {
    pub level: Level,
    /// Cases whose trace has this recomputed level.
    pub recomputed: OutcomeCounts,
    /// Cases whose trace recorded this level.
    pub recorded: OutcomeCounts,
}

/// Recomputed and recorded levels against golden outcomes.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LevelTable {
    /// One row per level, best first.
    pub rows: Vec<LevelRow>,
    /// Cases whose trace recorded no level, or one that is not a level.
    pub recorded_unknown: OutcomeCounts,
    /// Pairs of cases where the higher recomputed level has the worse outcome
    /// (0 = the table is monotone).
    pub discordant_pairs: u64,
    /// The same over the recorded levels (unknown ones left out).
    pub recorded_discordant_pairs: u64,
}

/// The gate as a classifier over all traces and per mode.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GateScopes {
    pub all: GateCurve,
    pub dense: GateCurve,
    pub hybrid: GateCurve,
}

/// Whether a scope's curve means anything.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
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
#[serde(rename_all = "camelCase")]
pub struct RocPoint {
    /// The threshold giving this vertex; `None` for an end no threshold in [0, 1]
    /// reaches: (0, 0) when traces without an accepted block are flagged even at 0,
    /// (1, 1) when some trace has top quality 1.0.
    pub threshold: Option<f64>,
    pub false_positive_rate: f64,
    pub true_positive_rate: f64,
}

/// One setting a suggestion changes.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SettingChange {
    /// The camelCase key of contract section 2.
    pub key: &'static str,
    pub current: f64,
    pub suggested: f64,
}

/// A suggested setting with the figures that justify it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Suggestion {
    /// `youden`, `f1`, `distanceCut` or `monotoneLevels`.
    pub rule: &'static str,
    /// The scope whose cases decide it.
    pub scope: &'static str,
    /// Cases deciding it.
    pub n: usize,
    pub anecdotal: bool,
    /// What to set, all together (a valid configuration); empty when there is no
    /// suggestion (`message` says why).
    pub settings: Vec<SettingChange>,
    /// The gate now and with the suggestion (gate suggestions only).
    pub before: Option<ThresholdPoint>,
    pub after: Option<ThresholdPoint>,
    /// `distanceCut`: dense traces whose nearest accepted L2 distance exceeds this are flagged.
    pub distance_cut: Option<f64>,
    /// `monotoneLevels`: discordant pairs of the level table now and with the suggestion.
    pub discordant_pairs_before: Option<u64>,
    pub discordant_pairs_after: Option<u64>,
    pub message: String,
}

/// The current and the baseline calibration, side by side.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CalibrationComparison {
    pub current: Calibration,
    pub baseline: Calibration,
}

/// One linked case as the calibration sees it.
#[derive(Debug, Clone, Copy)]
struct Observation {
    /// Top quality; `-inf` for a trace without an accepted block, which the gate
    /// flags at every threshold (`lowQuality` is true without a top quality).
    top: f64,
    outcome: GoldenLevel,
    level: Level,
    recorded: Option<Level>,
    mode: Option<CanonicalLabel>,
    gate_inert: bool,
}

impl Observation {
    /// The gate's positive class.
    fn not_found(&self) -> bool {
        matches!(self.outcome, GoldenLevel::Weak | GoldenLevel::Miss)
    }
}

/// Evaluates the cases against the analysis, then calibrates.
pub fn calibrate(cases: &CaseSet, analysis: &Analysis) -> Calibration {
    let report = golden::evaluate_analysis(cases, analysis);
    calibrate_evaluated(cases, &report, analysis)
}

/// Which trace each case links to (an index into the analysis's traces), as the
/// golden evaluation links them, with what of that trace no setting changes (its
/// mode and recorded level). It depends on the batch and the cases only, so a shell
/// links once and calibrates on every knob move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseLinks(Vec<Option<LinkedTrace>>);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct LinkedTrace {
    index: usize,
    mode: Option<CanonicalLabel>,
    recorded: Option<Level>,
}

/// Links the cases to the traces of an analysis of the batch (any settings).
pub fn link(cases: &CaseSet, analysis: &Analysis) -> CaseLinks {
    let links = golden::link_cases_by_keys(
        &cases.cases,
        analysis
            .traces
            .iter()
            .map(|t| (t.trace.case_id.as_deref(), t.trace.query.as_deref())),
    );
    CaseLinks(
        links
            .into_iter()
            .map(|found| {
                let (index, _) = found?;
                let trace = analysis.traces.get(index)?;
                Some(LinkedTrace {
                    index,
                    mode: trace.mode(),
                    recorded: trace
                        .trace
                        .recorded_relevance_level
                        .as_deref()
                        .and_then(Level::parse_recorded),
                })
            })
            .collect(),
    )
}

/// Calibrates from a golden report already computed for this analysis (the page's
/// Golden tab has one): links and sorts, no text matching. `report.cases` must be
/// in the order of `cases.cases`, as [`golden::evaluate_analysis`] returns them.
pub fn calibrate_evaluated(
    cases: &CaseSet,
    report: &GoldenReport,
    analysis: &Analysis,
) -> Calibration {
    calibrate_linked(&link(cases, analysis), cases, report, analysis)
}

/// [`calibrate_evaluated`] with the links made once by [`link`] for this batch and
/// these cases: what is left when a knob moves is one pass and one sort, O(n log n).
pub fn calibrate_linked(
    links: &CaseLinks,
    cases: &CaseSet,
    report: &GoldenReport,
    analysis: &Analysis,
) -> Calibration {
    let mut observations = Vec::with_capacity(cases.cases.len());
    let mut unlinked = Vec::new();
    let mut own_settings = 0;
    for ((case, link), case_report) in cases.cases.iter().zip(&links.0).zip(&report.cases) {
        match link.and_then(|l| Some((l, analysis.traces.get(l.index)?))) {
            Some((linked, trace)) => {
                own_settings +=
                    usize::from(differs_in_calibrated_keys(&trace.config, &analysis.config));
                observations.push(observe(trace, &linked, case_report.level));
            }
            None => unlinked.push(UnlinkedCase {
                case_id: case.case_id.clone(),
                query: case.query.clone(),
            }),
        }
    }
    calibrate_observations(
        analysis.config,
        cases.cases.len(),
        analysis.traces.len(),
        observations,
        unlinked,
        own_settings,
    )
}

/// The same figures under `settings` and under `baseline`, for a side-by-side.
pub fn calibrate_against_baseline(
    cases: &CaseSet,
    batch: &ParsedBatch,
    settings: &Settings,
    baseline: &Settings,
) -> Result<CalibrationComparison, ConfigError> {
    let current = analyze(batch, settings, false)?;
    let pinned = analyze(batch, baseline, false)?;
    Ok(CalibrationComparison {
        current: calibrate(cases, &current),
        baseline: calibrate(cases, &pinned),
    })
}

fn observe(trace: &TraceAnalysis, linked: &LinkedTrace, outcome: GoldenLevel) -> Observation {
    Observation {
        top: trace.top_quality.unwrap_or(f64::NEG_INFINITY),
        outcome,
        level: trace.relevance_level,
        recorded: linked.recorded,
        mode: linked.mode,
        gate_inert: trace.low_quality_gate_inert,
    }
}

/// A trace whose own options change a key the calibration suggests.
fn differs_in_calibrated_keys(trace: &Config, global: &Config) -> bool {
    trace.max_l2_distance != global.max_l2_distance
        || trace.reference_threshold != global.reference_threshold
        || trace.highly_relevant_threshold != global.highly_relevant_threshold
        || trace.precise_threshold != global.precise_threshold
        || trace.hybrid_quality != global.hybrid_quality
}

fn calibrate_observations(
    config: Config,
    case_count: usize,
    trace_count: usize,
    mut observations: Vec<Observation>,
    unlinked: Vec<UnlinkedCase>,
    own_settings: usize,
) -> Calibration {
    // The one sort everything below walks.
    observations.sort_by(|a, b| a.top.total_cmp(&b.top));
    let linked = observations.len();
    let mut notes = Vec::new();
    if case_count == 0 {
        notes.push("the cases file has no case: nothing to calibrate".to_owned());
    } else if linked == 0 {
        notes.push(format!(
            "no case is linked to a trace: none of the {trace_count} traces has a case's \
             caseId, and none without a caseId has a case's query (trimmed, exact)"
        ));
    }
    if linked > 0 && linked < ANECDOTAL_BELOW {
        notes.push(format!(
            "only {linked} linked cases: every figure here is anecdotal"
        ));
    }
    if own_settings > 0 {
        notes.push(format!(
            "{own_settings} linked cases' traces run with thresholds, maxL2Distance or \
             hybridQuality from their own options; their levels and top qualities are \
             theirs, the current threshold and the suggestions are the global ones"
        ));
    }
    let reason = (!unlinked.is_empty()).then(|| {
        format!(
            "{} of {case_count} cases have no trace: no trace has their caseId, and no trace \
             without a caseId has their query (trimmed, exact); they are left out",
            unlinked.len()
        )
    });
    let unlinked = Unlinked {
        count: unlinked.len(),
        first: unlinked.into_iter().take(UNLINKED_SHOWN).collect(),
        reason,
    };

    let levels = level_table(&observations);
    let dense: Vec<Observation> = observations
        .iter()
        .filter(|o| o.mode == Some(CanonicalLabel::Dense))
        .copied()
        .collect();
    let hybrid: Vec<Observation> = observations
        .iter()
        .filter(|o| o.mode == Some(CanonicalLabel::Hybrid))
        .copied()
        .collect();
    let reference = config.reference_threshold;
    let gate = GateScopes {
        all: gate_curve("all", &observations, reference),
        dense: gate_curve("dense", &dense, reference),
        hybrid: gate_curve("hybrid", &hybrid, reference),
    };

    let suggestions = vec![
        reference_suggestion(&gate.all, &config, Criterion::Youden),
        reference_suggestion(&gate.all, &config, Criterion::F1),
        distance_suggestion(&gate.dense, &dense, &config),
        monotone_suggestion(&observations, &config, &levels),
    ];

    Calibration {
        config,
        cases: case_count,
        linked,
        unlinked,
        anecdotal: linked < ANECDOTAL_BELOW,
        notes,
        levels,
        gate,
        suggestions,
    }
}

// ---------------------------------------------------------------------------
// Level-vs-outcome table
// ---------------------------------------------------------------------------

fn level_index(level: Level) -> usize {
    Level::ALL.iter().position(|l| *l == level).unwrap_or(0)
}

fn level_table(observations: &[Observation]) -> LevelTable {
    let mut recomputed = [OutcomeCounts::default(); 5];
    let mut recorded = [OutcomeCounts::default(); 5];
    let mut recorded_unknown = OutcomeCounts::default();
    for o in observations {
        recomputed[level_index(o.level)].add(o.outcome);
        match o.recorded {
            Some(level) => recorded[level_index(level)].add(o.outcome),
            None => recorded_unknown.add(o.outcome),
        }
    }
    LevelTable {
        rows: Level::ALL
            .iter()
            .zip(recomputed.iter().zip(&recorded))
            .map(|(&level, (&recomputed, &recorded))| LevelRow {
                level,
                recomputed,
                recorded,
            })
            .collect(),
        recorded_unknown,
        discordant_pairs: discordant_pairs(&recomputed),
        recorded_discordant_pairs: discordant_pairs(&recorded),
    }
}

/// Pairs (a, b) where a's level is strictly higher and a's outcome strictly worse.
/// `rows` is best level first.
fn discordant_pairs(rows: &[OutcomeCounts; 5]) -> u64 {
    let mut total = 0u64;
    for (i, higher) in rows.iter().enumerate() {
        for lower in &rows[i + 1..] {
            let h = higher.by_rank();
            let l = lower.by_rank();
            for (worse, &count_h) in h.iter().enumerate() {
                for &count_l in &l[..worse] {
                    total += (count_h as u64) * (count_l as u64);
                }
            }
        }
    }
    total
}

// ---------------------------------------------------------------------------
// The gate as a classifier
// ---------------------------------------------------------------------------

/// Cumulative counts below each threshold of an ascending list, from observations
/// sorted by top quality: `(positives below, negatives below)` per threshold.
fn counts_below(
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
fn candidate_thresholds(sorted: &[Observation], extra: f64) -> Vec<f64> {
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

fn point(
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
enum Criterion {
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
fn best_point(
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

fn gate_curve(scope: &'static str, sorted: &[Observation], reference: f64) -> GateCurve {
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
#[serde(rename_all = "camelCase")]
pub struct HistogramBin {
    pub from: f64,
    pub to: f64,
    pub cases: FoundSplit,
}

/// A scope's cases by top quality, found and not found apart, so a reader sees
/// where a reference threshold would cut them.
#[derive(Debug, Clone, PartialEq, Serialize)]
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

// ---------------------------------------------------------------------------
// Suggestions
// ---------------------------------------------------------------------------

/// A reference threshold as a valid configuration: the levels above it rise with it.
fn reference_changes(config: &Config, threshold: f64) -> Vec<SettingChange> {
    let mut changes = vec![SettingChange {
        key: "referenceThreshold",
        current: config.reference_threshold,
        suggested: threshold,
    }];
    if threshold > config.highly_relevant_threshold {
        changes.push(SettingChange {
            key: "highlyRelevantThreshold",
            current: config.highly_relevant_threshold,
            suggested: threshold,
        });
    }
    if threshold > config.precise_threshold {
        changes.push(SettingChange {
            key: "preciseThreshold",
            current: config.precise_threshold,
            suggested: threshold,
        });
    }
    changes
}

fn no_suggestion(
    rule: &'static str,
    scope: &'static str,
    curve: &GateCurve,
    why: String,
) -> Suggestion {
    Suggestion {
        rule,
        scope,
        n: curve.n,
        anecdotal: curve.anecdotal,
        settings: Vec::new(),
        before: Some(curve.current),
        after: None,
        distance_cut: None,
        discordant_pairs_before: None,
        discordant_pairs_after: None,
        message: why,
    }
}

/// The same traces flagged (the counts decide every figure).
fn same_confusion(a: &ThresholdPoint, b: &ThresholdPoint) -> bool {
    (a.true_positives, a.false_positives) == (b.true_positives, b.false_positives)
}

fn fmt_opt(x: Option<f64>) -> String {
    x.map_or_else(|| "–".to_owned(), |x| format!("{x:.3}"))
}

fn reference_suggestion(curve: &GateCurve, config: &Config, criterion: Criterion) -> Suggestion {
    let (rule, best, name) = match criterion {
        Criterion::Youden => ("youden", curve.best_youden, "Youden's J"),
        Criterion::F1 => ("f1", curve.best_f1, "F1"),
    };
    let Some(best) = best else {
        let why = curve
            .message
            .clone()
            .unwrap_or_else(|| format!("no threshold has a defined {name}"));
        return no_suggestion(rule, curve.scope, curve, why);
    };
    let (now, then) = match criterion {
        Criterion::Youden => (curve.current.youden_j, best.youden_j),
        Criterion::F1 => (curve.current.f1, best.f1),
    };
    let same = same_confusion(&curve.current, &best);
    if same {
        let mut kept = no_suggestion(
            rule,
            curve.scope,
            curve,
            format!(
                "the current referenceThreshold {} already gives the best {name} ({}) over {} \
                 cases: keep it",
                config.reference_threshold,
                fmt_opt(now),
                curve.n
            ),
        );
        kept.after = Some(best);
        return kept;
    }
    let mut message = format!(
        "referenceThreshold {:.3} maximises {name} ({} → {}) over {} cases: flags {} of {} \
         not found and {} of {} found",
        best.threshold,
        fmt_opt(now),
        fmt_opt(then),
        curve.n,
        best.true_positives,
        curve.positives,
        best.false_positives,
        curve.negatives
    );
    if best.threshold > config.highly_relevant_threshold {
        message.push_str("; the level thresholds above it rise with it");
    }
    Suggestion {
        rule,
        scope: curve.scope,
        n: curve.n,
        anecdotal: curve.anecdotal,
        settings: reference_changes(config, best.threshold),
        before: Some(curve.current),
        after: Some(best),
        distance_cut: None,
        discordant_pairs_before: None,
        discordant_pairs_after: None,
        message,
    }
}

/// Dense quality is `1 - min(d, M) / M`, so at `M` the cut "quality < t" is the cut
/// "distance > (1 - t) M". The cut is placed halfway between the best threshold `t`
/// and the highest top quality below it (any cut between the two flags the same
/// traces, and halfway no rounding moves a trace across it); the suggestion moves
/// `M` so that this distance cut falls at the current reference threshold `r`:
/// `M' = (1 - t_mid) M / (1 - r)`.
fn distance_suggestion(curve: &GateCurve, dense: &[Observation], config: &Config) -> Suggestion {
    const RULE: &str = "distanceCut";
    let Some(best) = curve.best_youden else {
        let why = curve
            .message
            .clone()
            .unwrap_or_else(|| "no dense threshold has a defined Youden's J".to_owned());
        return no_suggestion(RULE, curve.scope, curve, why);
    };
    let m = config.max_l2_distance;
    let r = config.reference_threshold;
    let below = dense.partition_point(|o| o.top < best.threshold);
    let highest_below = below
        .checked_sub(1)
        .and_then(|i| dense.get(i))
        .map(|o| o.top)
        .filter(|top| top.is_finite())
        // Only traces without a block below the cut: halfway from 0.
        .or((below > 0 && best.threshold > 0.0).then_some(0.0));
    let why = match highest_below {
        None => Some(
            "the best dense cut flags no trace with an accepted block: no distance cut to move"
                .to_owned(),
        ),
        Some(_) if r >= 1.0 || r <= 0.0 => Some(format!(
            "referenceThreshold is {r}: a maxL2Distance cannot move a distance cut onto it"
        )),
        Some(_) => None,
    };
    let (Some(highest_below), None) = (highest_below, why.as_ref()) else {
        let mut s = no_suggestion(RULE, curve.scope, curve, why.unwrap_or_default());
        s.after = Some(best);
        return s;
    };
    let cut = (1.0 - (highest_below + best.threshold) / 2.0) * m;
    if same_confusion(&curve.current, &best) {
        let mut kept = no_suggestion(
            RULE,
            curve.scope,
            curve,
            format!(
                "the current settings already make the best dense cut (Youden's J {}): nearest \
                 accepted distance above {cut:.3} at maxL2Distance {m}; keep it",
                fmt_opt(best.youden_j)
            ),
        );
        kept.after = Some(best);
        kept.distance_cut = Some(cut);
        return kept;
    }
    let suggested = cut / (1.0 - r);
    Suggestion {
        rule: RULE,
        scope: curve.scope,
        n: curve.n,
        anecdotal: curve.anecdotal,
        settings: vec![SettingChange {
            key: "maxL2Distance",
            current: m,
            suggested,
        }],
        before: Some(curve.current),
        after: Some(best),
        distance_cut: Some(cut),
        discordant_pairs_before: None,
        discordant_pairs_after: None,
        message: format!(
            "the best dense cut (Youden's J {}) is quality below {:.3} at maxL2Distance {m}, \
             i.e. nearest accepted distance above {cut:.3} (halfway to the next top quality below); \
             maxL2Distance {suggested:.3} puts that cut at referenceThreshold {r} over {} \
             dense cases (it also rescales every dense quality, so the levels above move too)",
            fmt_opt(best.youden_j),
            best.threshold,
            curve.n
        ),
    }
}

/// The cut `c` in `[low, high]` maximising Youden's J of "top >= c predicts
/// `good`" over `sorted` (ascending); ties nearest `current`, then lower. `None`
/// when `good` or its complement is absent.
fn level_cut(
    sorted: &[Observation],
    good: impl Fn(&Observation) -> bool,
    low: f64,
    high: f64,
    current: f64,
) -> Option<f64> {
    // "Top >= c predicts good" has the same J as "top < c flags not good".
    let bad = |o: &Observation| !good(o);
    let positives = sorted.iter().filter(|o| bad(o)).count();
    let negatives = sorted.len() - positives;
    if positives == 0 || negatives == 0 {
        return None;
    }
    let thresholds: Vec<f64> = candidate_thresholds(sorted, current.clamp(low, high))
        .into_iter()
        .chain([low, high])
        .filter(|t| (low..=high).contains(t))
        .collect::<Vec<_>>();
    let mut thresholds = thresholds;
    thresholds.sort_by(f64::total_cmp);
    thresholds.dedup();
    let below = counts_below(sorted, &thresholds, bad);
    let points: Vec<ThresholdPoint> = thresholds
        .iter()
        .zip(&below)
        .map(|(&t, &b)| point(t, b, positives, negatives))
        .collect();
    best_point(&points, Criterion::Youden, current).map(|p| p.threshold)
}

fn level_of(top: f64, reference: f64, highly: f64, precise: f64, no_block: bool) -> Level {
    if no_block {
        Level::NoMatch
    } else if top >= precise {
        Level::Precise
    } else if top >= highly {
        Level::HighlyRelevant
    } else if top >= reference {
        Level::Relevant
    } else {
        Level::LowRelevance
    }
}

/// See docs/decisions.md, "Calibration": PRECISE should mean strong, so
/// `preciseThreshold` is the Youden cut of strong vs the rest among the cases the
/// gate passes; HIGHLY_RELEVANT or better should mean found, so
/// `highlyRelevantThreshold` is the Youden cut of found vs not found among them,
/// kept in `[referenceThreshold, preciseThreshold]`.
fn monotone_suggestion(sorted: &[Observation], config: &Config, table: &LevelTable) -> Suggestion {
    const RULE: &str = "monotoneLevels";
    let r = config.reference_threshold;
    let start = sorted.partition_point(|o| o.top < r);
    let passed = &sorted[start..];
    let n = passed.len();
    let base = Suggestion {
        rule: RULE,
        scope: "all",
        n,
        anecdotal: n < ANECDOTAL_BELOW,
        settings: Vec::new(),
        before: None,
        after: None,
        distance_cut: None,
        discordant_pairs_before: Some(table.discordant_pairs),
        discordant_pairs_after: None,
        message: String::new(),
    };
    let precise = level_cut(
        passed,
        |o| o.outcome == GoldenLevel::Strong,
        r,
        1.0,
        config.precise_threshold,
    );
    let Some(precise) = precise else {
        return Suggestion {
            message: format!(
                "the {n} cases at or above referenceThreshold {r} are all strong or none is: \
                 preciseThreshold cannot be judged from this set"
            ),
            ..base
        };
    };
    let highly = level_cut(
        passed,
        |o| !o.not_found(),
        r,
        precise,
        config.highly_relevant_threshold.clamp(r, precise),
    )
    .unwrap_or_else(|| config.highly_relevant_threshold.clamp(r, precise));
    // Re-binning is one pass: a NO_MATCH trace stays one (no accepted block).
    let mut rows = [OutcomeCounts::default(); 5];
    for o in sorted {
        let level = level_of(o.top, r, highly, precise, o.level == Level::NoMatch);
        rows[level_index(level)].add(o.outcome);
    }
    let after = discordant_pairs(&rows);
    Suggestion {
        settings: vec![
            SettingChange {
                key: "preciseThreshold",
                current: config.precise_threshold,
                suggested: precise,
            },
            SettingChange {
                key: "highlyRelevantThreshold",
                current: config.highly_relevant_threshold,
                suggested: highly,
            },
        ],
        discordant_pairs_after: Some(after),
        message: format!(
            "preciseThreshold {precise:.3} best separates strong from the rest and \
             highlyRelevantThreshold {highly:.3} found from not found among the {n} cases at \
             or above referenceThreshold {r}; discordant pairs in the level table {} → {after}",
            table.discordant_pairs
        ),
        ..base
    }
}

// ---------------------------------------------------------------------------
// Renderings: calibration.md and the CLI's text
// ---------------------------------------------------------------------------

/// A table both renderings draw: header, then rows of cells (cells are plain text).
struct Table {
    header: Vec<&'static str>,
    rows: Vec<Vec<String>>,
}

impl Table {
    fn markdown(&self, out: &mut String) {
        let line = |cells: Vec<String>| format!("| {} |\n", cells.join(" | "));
        out.push_str(&line(self.header.iter().map(|h| (*h).to_owned()).collect()));
        out.push_str(&line(
            self.header
                .iter()
                .enumerate()
                .map(|(i, _)| if i == 0 { "---" } else { "---:" }.to_owned())
                .collect(),
        ));
        for row in &self.rows {
            out.push_str(&line(
                row.iter().map(|c| crate::report::md_cell(c)).collect(),
            ));
        }
    }

    fn text(&self, out: &mut String) {
        let widths: Vec<usize> = (0..self.header.len())
            .map(|i| {
                self.rows
                    .iter()
                    .filter_map(|r| r.get(i))
                    .map(|c| c.chars().count())
                    .chain([self.header[i].chars().count()])
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let mut line = |cells: Vec<&str>| {
            let padded: Vec<String> = cells
                .iter()
                .zip(&widths)
                .enumerate()
                .map(|(i, (c, &w))| {
                    if i == 0 {
                        format!("{c:<w$}")
                    } else {
                        format!("{c:>w$}")
                    }
                })
                .collect();
            out.push_str("  ");
            out.push_str(padded.join("  ").trim_end());
            out.push('\n');
        };
        line(self.header.clone());
        for row in &self.rows {
            line(row.iter().map(String::as_str).collect());
        }
    }
}

fn num(x: f64) -> String {
    format!("{x:.3}")
}

fn counts_cells(c: &OutcomeCounts) -> [String; 5] {
    [c.n, c.strong, c.medium, c.weak, c.miss].map(|x| x.to_string())
}

fn level_rows(table: &LevelTable) -> Table {
    let mut rows: Vec<Vec<String>> = table
        .rows
        .iter()
        .map(|row| {
            let mut cells = vec![row.level.as_str().to_owned()];
            cells.extend(counts_cells(&row.recomputed));
            cells.extend(counts_cells(&row.recorded));
            cells
        })
        .collect();
    let mut unknown = vec!["(no recorded level)".to_owned()];
    unknown.extend(["", "", "", "", ""].map(str::to_owned));
    unknown.extend(counts_cells(&table.recorded_unknown));
    rows.push(unknown);
    Table {
        header: vec![
            "level",
            "n",
            "strong",
            "medium",
            "weak",
            "miss",
            "recorded n",
            "strong",
            "medium",
            "weak",
            "miss",
        ],
        rows,
    }
}

fn gate_rows(gate: &GateScopes) -> Table {
    let rows = [&gate.all, &gate.dense, &gate.hybrid]
        .iter()
        .map(|c| {
            let p = &c.current;
            vec![
                c.scope.to_owned(),
                c.n.to_string(),
                c.positives.to_string(),
                c.negatives.to_string(),
                c.auc.map_or_else(|| status_word(c.status).to_owned(), num),
                format!(
                    "{} (TP {}, FP {})",
                    p.flagged, p.true_positives, p.false_positives
                ),
                fmt_opt(p.precision),
                fmt_opt(p.recall),
                fmt_opt(p.f1),
                fmt_opt(p.youden_j),
                c.best_youden
                    .map_or_else(|| "–".to_owned(), |b| num(b.threshold)),
                c.best_f1
                    .map_or_else(|| "–".to_owned(), |b| num(b.threshold)),
            ]
        })
        .collect();
    Table {
        header: vec![
            "scope",
            "n",
            "not found",
            "found",
            "AUC",
            "flagged now",
            "precision",
            "recall",
            "F1",
            "J",
            "best-J cut",
            "best-F1 cut",
        ],
        rows,
    }
}

fn status_word(status: CurveStatus) -> &'static str {
    match status {
        CurveStatus::Ok => "ok",
        CurveStatus::Empty => "no cases",
        CurveStatus::OneClass => "one class",
        CurveStatus::Inert => "gate inert",
    }
}

fn suggestion_rows(suggestions: &[Suggestion]) -> Table {
    let rows = suggestions
        .iter()
        .map(|s| {
            let kept = matches!((&s.before, &s.after), (Some(b), Some(a)) if same_confusion(b, a));
            let settings = if s.settings.is_empty() {
                if kept { "keep" } else { "none" }.to_owned()
            } else {
                s.settings
                    .iter()
                    .map(|c| format!("{} {} → {}", c.key, c.current, num(c.suggested)))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let figures = match (s.before, s.after) {
                (Some(b), Some(a)) => format!(
                    "J {} → {}, F1 {} → {}",
                    fmt_opt(b.youden_j),
                    fmt_opt(a.youden_j),
                    fmt_opt(b.f1),
                    fmt_opt(a.f1)
                ),
                _ => match (s.discordant_pairs_before, s.discordant_pairs_after) {
                    (Some(b), Some(a)) => format!("discordant pairs {b} → {a}"),
                    _ => "–".to_owned(),
                },
            };
            vec![
                s.rule.to_owned(),
                s.scope.to_owned(),
                s.n.to_string(),
                settings,
                figures,
            ]
        })
        .collect();
    Table {
        header: vec!["rule", "scope", "n", "settings", "figures"],
        rows,
    }
}

fn points_table(points: &[ThresholdPoint]) -> Table {
    Table {
        header: vec![
            "threshold",
            "flagged",
            "TP",
            "FP",
            "TN",
            "FN",
            "precision",
            "recall",
            "FPR",
            "F1",
            "J",
        ],
        rows: points
            .iter()
            .map(|p| {
                vec![
                    num(p.threshold),
                    p.flagged.to_string(),
                    p.true_positives.to_string(),
                    p.false_positives.to_string(),
                    p.true_negatives.to_string(),
                    p.false_negatives.to_string(),
                    fmt_opt(p.precision),
                    fmt_opt(p.recall),
                    fmt_opt(p.false_positive_rate),
                    fmt_opt(p.f1),
                    fmt_opt(p.youden_j),
                ]
            })
            .collect(),
    }
}

/// Thresholds listed in calibration.md up to this many; calibration.json has all.
const POINTS_IN_MARKDOWN: usize = 60;

fn headline(c: &Calibration) -> String {
    format!(
        "{} cases, {} linked to a trace (the n of every figure below unless a column says \
         otherwise); maxL2Distance {}, referenceThreshold {}, highlyRelevantThreshold {}, \
         preciseThreshold {}, hybridQuality {}",
        c.cases,
        c.linked,
        c.config.max_l2_distance,
        c.config.reference_threshold,
        c.config.highly_relevant_threshold,
        c.config.precise_threshold,
        c.config.hybrid_quality.as_str()
    )
}

const GATE_LEGEND: &str = "The gate as a classifier of misses: positive = not found (golden weak \
or miss), flagged = top quality < threshold (no accepted block = top quality 0). AUC by the \
trapezoid rule; traces with equal top quality are flagged together, so a tie between found and \
not found is one diagonal segment.";

/// `calibration.md`: a GitHub-readable report of a [`Calibration`].
pub fn markdown(c: &Calibration) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    // `write!` into a String cannot fail; the results are ignored on purpose.
    let _ = writeln!(out, "# Calibration\n\n{}.\n", headline(c));
    for note in c.notes.iter().chain(&c.unlinked.reason) {
        let _ = writeln!(out, "- {}", crate::report::md_cell(note));
    }
    if !c.unlinked.first.is_empty() {
        let names: Vec<String> = c
            .unlinked
            .first
            .iter()
            .map(|u| crate::report::md_cell(&unlinked_name(u)))
            .collect();
        let _ = writeln!(out, "- first unlinked: {}", names.join(", "));
    }
    let _ = writeln!(out, "\n## Levels against golden outcomes\n");
    level_rows(&c.levels).markdown(&mut out);
    let _ = writeln!(
        out,
        "\nDiscordant pairs (higher level, worse outcome): recomputed {}, recorded {}.",
        c.levels.discordant_pairs, c.levels.recorded_discordant_pairs
    );
    let _ = writeln!(out, "\n## The low-quality gate\n\n{GATE_LEGEND}\n");
    gate_rows(&c.gate).markdown(&mut out);
    for curve in [&c.gate.all, &c.gate.dense, &c.gate.hybrid] {
        if let Some(message) = &curve.message {
            let _ = writeln!(
                out,
                "\n{}: {}",
                curve.scope,
                crate::report::md_cell(message)
            );
        }
    }
    let _ = writeln!(out, "\n## Suggestions\n");
    suggestion_rows(&c.suggestions).markdown(&mut out);
    out.push('\n');
    for s in &c.suggestions {
        let anecdotal = if s.anecdotal { " (anecdotal)" } else { "" };
        let _ = writeln!(
            out,
            "- {}{anecdotal}: {}",
            s.rule,
            crate::report::md_cell(&s.message)
        );
    }
    let points = &c.gate.all.points;
    let _ = writeln!(
        out,
        "\n## Every threshold (all traces, n = {})\n",
        c.gate.all.n
    );
    if points.len() <= POINTS_IN_MARKDOWN {
        points_table(points).markdown(&mut out);
    } else {
        let _ = writeln!(
            out,
            "{} thresholds: too many to list here; calibration.json has every one.",
            points.len()
        );
    }
    out
}

fn unlinked_name(u: &UnlinkedCase) -> String {
    match &u.query {
        Some(q) => format!("{} (\"{}\")", u.case_id, q.trim()),
        None => u.case_id.clone(),
    }
}

/// What `ragtrace calibrate` prints: the level table, the gate and the suggestions.
pub fn summary_text(c: &Calibration) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let _ = writeln!(out, "calibration: {}", headline(c));
    for note in c.notes.iter().chain(&c.unlinked.reason) {
        let _ = writeln!(out, "  note: {note}");
    }
    if !c.unlinked.first.is_empty() {
        let names: Vec<String> = c.unlinked.first.iter().map(unlinked_name).collect();
        let _ = writeln!(out, "  first unlinked: {}", names.join(", "));
    }
    let _ = writeln!(
        out,
        "levels against golden outcomes (recomputed | recorded):"
    );
    level_rows(&c.levels).text(&mut out);
    let _ = writeln!(
        out,
        "  discordant pairs: recomputed {}, recorded {}",
        c.levels.discordant_pairs, c.levels.recorded_discordant_pairs
    );
    let _ = writeln!(
        out,
        "gate (positive = not found, flagged = top quality < threshold; AUC by trapezoids, ties diagonal):"
    );
    gate_rows(&c.gate).text(&mut out);
    for curve in [&c.gate.all, &c.gate.dense, &c.gate.hybrid] {
        if let Some(message) = &curve.message {
            let _ = writeln!(out, "  {}: {message}", curve.scope);
        }
    }
    let _ = writeln!(out, "suggestions:");
    suggestion_rows(&c.suggestions).text(&mut out);
    for s in &c.suggestions {
        let anecdotal = if s.anecdotal { " (anecdotal)" } else { "" };
        let _ = writeln!(out, "  {}{anecdotal}: {}", s.rule, s.message);
    }
    out.lines()
        .map(|l| {
            l.chars()
                .map(|ch| if ch.is_control() { ' ' } else { ch })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}
