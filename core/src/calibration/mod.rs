//! Calibration of the relevance levels and the low-quality gate against golden
//! outcomes (decisions in docs/decisions.md, "Calibration").
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

use crate::analysis::{analyze, Analysis};
use crate::config::{Config, ConfigError, Settings};
use crate::golden::{self, CaseSet, FloorSweep, GoldenLevel, GoldenReport};
use crate::input::ParsedBatch;
use crate::label::CanonicalLabel;
use crate::outcome::Level;
use crate::trace_analysis::TraceAnalysis;
use serde::Serialize;

mod gate;
mod levels;
mod render;
mod suggest;

pub use gate::{
    top_quality_histogram, CurveStatus, FoundSplit, GateCurve, GateScopes, HistogramBin, RocPoint,
    ThresholdPoint, TopQualityHistogram,
};
pub use levels::{LevelRow, LevelTable, OutcomeCounts};
pub use render::{calibration_markdown, calibration_summary_text};
pub use suggest::{SettingChange, Suggestion};

use gate::{gate_curve, Criterion};
use levels::level_table;
use suggest::{distance_suggestion, monotone_suggestion, reference_suggestion};

/// Fewer linked cases than this and the figures are called anecdotal.
pub(crate) const ANECDOTAL_BELOW: usize = 10;
/// How many unlinked cases are listed by name.
const UNLINKED_SHOWN: usize = 5;

/// The whole calibration under one configuration (`calibration.json`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
    /// Recall, blocks and `NO_MATCH` traces against each score floor (contract section
    /// 10.2), over the cases and their linked traces: in calibration.json
    /// ([`calibrate_with_floor_sweep`]), absent from the page's calibration on a knob move.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "FloorSweep"))]
    pub floor_sweep: Option<FloorSweep>,
}

/// Cases no trace answers, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Unlinked {
    pub count: usize,
    /// The first few, in cases-file order.
    pub first: Vec<UnlinkedCase>,
    /// Why they are unlinked, as a sentence; `None` when every case is linked.
    pub reason: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct UnlinkedCase {
    pub case_id: String,
    pub query: Option<String>,
}

/// The current and the baseline calibration, side by side.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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

/// [`calibrate`] with its floor sweep (contract section 10.2): calibration.json as the
/// CLI, the JS API and Python write it.
pub fn calibrate_with_floor_sweep(cases: &CaseSet, analysis: &Analysis) -> Calibration {
    let report = golden::evaluate_with_floor_sweep(cases, analysis);
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
pub fn calibration_links(cases: &CaseSet, analysis: &Analysis) -> CaseLinks {
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
    calibrate_linked(&calibration_links(cases, analysis), cases, report, analysis)
}

/// [`calibrate_evaluated`] with the links made once by [`calibration_links`] for this batch and
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
    // The report's own sweep when it has one (it was made from this analysis).
    let floor_sweep = report.floor_sweep.clone();
    calibrate_observations(
        analysis.config,
        cases.cases.len(),
        analysis.traces.len(),
        observations,
        unlinked,
        own_settings,
        floor_sweep,
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
    floor_sweep: Option<FloorSweep>,
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
        floor_sweep,
    }
}
