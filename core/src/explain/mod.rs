//! What would it take: for every candidate, level and golden case, the least change of
//! settings that flips it (contract section 9).
//!
//! Every answer is searched, not assumed: the integer settings (`returnN`,
//! `maxChunksPerDocument`) through the pipeline's own decisions under every cap
//! ([`tables`]), the continuous ones (`maxL2Distance`, the thresholds) from the
//! formulas and then to the exact `f64` edge ([`boundary`]; under a score floor,
//! `maxL2Distance` on both sides across the floor's breakpoints, [`distance`]),
//! `hybridQuality` by trying each value. A change of a continuous setting, of `hybridQuality`, and every fix of
//! a golden case is then confirmed by running the pipeline under it
//! ([`crate::analysis::Analysis::reanalyze`]'s per-trace step); one that does not give what the
//! formula said is not reported.

mod batch;
mod boundary;
mod candidates;
mod case;
mod change;
mod distance;
mod floors;
mod levels;
mod render;
mod set_if_list;
mod tables;
mod trace;

pub use candidates::{CandidateExplanation, CandidateList};
pub use case::Cause;
pub use change::{Change, ChangedSetting};
pub use render::{explain_markdown, explain_summary_text};
pub use set_if_list::SetIfList;

use crate::analysis::Analysis;
use crate::config::{Config, ConfigError, Settings};
use crate::golden::{CaseSet, GoldenLevel};
use crate::input::ParsedBatch;
use crate::outcome::Level;
use crate::pipeline::Status;
use crate::trace_analysis::{Scratch, TraceAnalysis};
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;

/// `explain.json`: every trace's and case's counterfactuals under one configuration.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Explanation {
    /// Defaults plus the user's settings.
    pub config: Config,
    pub traces: Vec<TraceExplanation>,
    pub cases: Vec<CaseExplanation>,
    pub summary: ExplainSummary,
}

/// One trace: its level and what moves it, and each candidate's fate and what flips it.
/// Serialises with its `requestId` (see [`TraceExplanation::request_id`]) after `index`.
#[derive(Debug, Clone)]
pub struct TraceExplanation {
    /// 0-based position of the trace in the batch.
    pub index: usize,
    pub level: Level,
    pub low_quality: bool,
    pub level_if: Vec<LevelIf>,
    pub low_quality_if: Vec<LowQualityIf>,
    /// Why `levelIf` is empty, when it is.
    pub reason: Option<String>,
    pub candidates: CandidateList,
}

impl TraceExplanation {
    /// The trace's `requestId`, read from the trace its candidates read (not copied:
    /// taking a share of each id was a cache miss and a locked instruction per trace).
    pub fn request_id(&self) -> Option<&str> {
        self.candidates.trace().request_id.as_deref()
    }
}

impl Serialize for TraceExplanation {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut s = serializer.serialize_struct("TraceExplanation", 8)?;
        s.serialize_field("index", &self.index)?;
        s.serialize_field("requestId", &self.request_id())?;
        s.serialize_field("level", &self.level)?;
        s.serialize_field("lowQuality", &self.low_quality)?;
        s.serialize_field("levelIf", &self.level_if)?;
        s.serialize_field("lowQualityIf", &self.low_quality_if)?;
        s.serialize_field("reason", &self.reason)?;
        s.serialize_field("candidates", &self.candidates)?;
        s.end()
    }
}

/// The schema of the hand-written serialisation above, key for key.
#[cfg(feature = "schema")]
#[derive(schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
struct TraceExplanationShape {
    index: usize,
    request_id: Option<String>,
    level: Level,
    low_quality: bool,
    level_if: Vec<LevelIf>,
    low_quality_if: Vec<LowQualityIf>,
    reason: Option<String>,
    candidates: CandidateList,
}

#[cfg(feature = "schema")]
impl schemars::JsonSchema for TraceExplanation {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "TraceExplanation".into()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        TraceExplanationShape::json_schema(generator)
    }
}

/// A change and the level the trace then has.
#[derive(Debug, Clone, Copy, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct LevelIf {
    pub set: Change,
    pub level: Level,
}

/// A change and the `lowQuality` the trace then has.
#[derive(Debug, Clone, Copy, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct LowQualityIf {
    pub set: Change,
    pub low_quality: bool,
}

/// A change, alone.
#[derive(Debug, Clone, Copy, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct SetIf {
    pub set: Change,
}

/// One golden case: why it was or was not found, and what finds it.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct CaseExplanation {
    pub case_id: String,
    /// 0-based position of its trace in the batch; `null` for `no-trace`.
    pub trace_index: Option<usize>,
    /// The case's hit level now (contract section 6).
    pub hit: GoldenLevel,
    pub cause: Cause,
    /// For `dropped`: the candidate (its `inputIndex`) of an expected document that the
    /// first change of `foundIf` accepts (else the first such candidate), and its status.
    pub candidate_index: Option<usize>,
    pub candidate_status: Option<Status>,
    pub found_if: Vec<FoundIf>,
    /// Why `foundIf` is empty for a `dropped` case, or what `no-trace` and
    /// `not-retrieved` mean for it.
    pub reason: Option<String>,
}

/// A change that finds a case, and the hit level it then has.
#[derive(Debug, Clone, Copy, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct FoundIf {
    pub set: Change,
    pub hit: GoldenLevel,
}

/// The batch: causes counted, and what each change among the cases' fixes does.
#[derive(Debug, Clone, Default, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ExplainSummary {
    pub traces: usize,
    pub cases: usize,
    /// Cases per cause, all four keys.
    pub causes: BTreeMap<&'static str, usize>,
    /// Cases not found now (every cause but `found`).
    pub misses: usize,
    pub changes: Vec<ChangeImpact>,
}

/// One change applied to the whole batch.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ChangeImpact {
    pub set: Change,
    /// Cases not found now that it finds.
    pub recovers: usize,
    pub recovered_cases: Vec<String>,
    /// Traces whose accepted list it changes.
    pub traces_changed: usize,
    /// `"FROM->TO"`: traces whose level it changes.
    pub level_transitions: BTreeMap<String, usize>,
    /// Cases whose hit level it lowers.
    pub hit_level_drops: usize,
}

/// Explains a batch: analyses it under `settings`, then [`explain_analysis`].
pub fn explain(
    batch: &ParsedBatch,
    settings: &Settings,
    cases: Option<&CaseSet>,
) -> Result<Explanation, ConfigError> {
    let analysis = crate::analysis::analyze(batch, settings, false)?;
    explain_analysis(&analysis, settings, cases)
}

/// Explains an analysis made under `settings` (the very settings: every change is
/// applied on top of them).
pub fn explain_analysis(
    analysis: &Analysis,
    settings: &Settings,
    cases: Option<&CaseSet>,
) -> Result<Explanation, ConfigError> {
    let config = Config::from_settings(settings)?;
    let mut traces = Vec::with_capacity(analysis.traces.len());
    let (cases, summary) = explain_batch(analysis, settings, &config, cases, Some(&mut traces));
    Ok(Explanation {
        config,
        traces,
        cases,
        summary,
    })
}

/// The golden cases' part of [`explain_analysis`] alone, without every trace's
/// explanation (what the page's Golden tab computes): the same `cases` and `summary`.
pub fn explain_golden_cases(
    analysis: &Analysis,
    settings: &Settings,
    cases: &CaseSet,
) -> Result<(Vec<CaseExplanation>, ExplainSummary), ConfigError> {
    let config = Config::from_settings(settings)?;
    Ok(explain_batch(
        analysis,
        settings,
        &config,
        Some(cases),
        None,
    ))
}

/// The cases and the summary, and each trace's explanation into `traces` when asked:
/// one pass over the traces fills each trace's tables once for both.
fn explain_batch(
    analysis: &Analysis,
    settings: &Settings,
    config: &Config,
    cases: Option<&CaseSet>,
    mut traces: Option<&mut Vec<TraceExplanation>>,
) -> (Vec<CaseExplanation>, ExplainSummary) {
    let mut work = Work::default();
    let explained_cases = cases.map(|cases| {
        case::explain_cases(&cases.cases, &analysis.traces, settings, config, &mut work)
    });
    let mut summariser = explained_cases
        .as_deref()
        .map(|explained| batch::Summariser::new(explained, analysis.traces.len(), settings));
    if summariser.is_some() || traces.is_some() {
        let mut tables = std::mem::take(&mut work.tables);
        for (index, t) in analysis.traces.iter().enumerate() {
            // The explanation's share of the trace is taken before the tables are
            // written: a locked increment waits until every pending write has landed.
            let shared = traces.is_some().then(|| Arc::clone(&t.trace));
            tables.fill(t);
            if let Some(summariser) = &mut summariser {
                summariser.add_trace(index, t, &tables, &mut work.hits, &mut work.scratch);
            }
            if let (Some(traces), Some(shared)) = (traces.as_deref_mut(), shared) {
                traces.push(trace::explain_with(
                    index, t, shared, settings, &tables, &mut work,
                ));
            }
        }
    }
    let summary = match summariser {
        Some(summariser) => summariser.finish(analysis.traces.len()),
        None => batch::summarise_traces(analysis.traces.len()),
    };
    let cases = explained_cases
        .map(|explained| explained.into_iter().map(|c| c.explanation).collect())
        .unwrap_or_default();
    (cases, summary)
}

/// One trace's explanation alone (what the page computes for the trace it shows).
/// `index` is the trace's position in the batch; `settings` those `t` was analysed under.
pub fn explain_one(index: usize, t: &TraceAnalysis, settings: &Settings) -> TraceExplanation {
    trace::explain_trace(index, t, settings, &mut Work::default())
}

/// Scratch space reused across traces.
#[derive(Debug, Default)]
pub(crate) struct Work {
    pub(crate) scratch: Scratch,
    /// Duplicates' reasons by the rank they repeat, each written once and shared by
    /// every trace's list (see `candidates::candidates`).
    pub(crate) duplicate_reasons: crate::fast_hash::FastMap<u64, Arc<str>>,
    /// One trace's tables at a time (see [`tables::Tables::fill`]).
    pub(crate) tables: tables::Tables,
    /// What a golden case's hit level reads of the accepted blocks' text.
    pub(crate) hits: crate::golden::HitScratch,
    /// The candidates' scratch for the caps (see
    /// [`tables::Tables::least_return_n_by_cap`]).
    pub(crate) caps: candidates::CapScratch,
    /// A trace's `levelIf` and `lowQualityIf` as they are found, copied out at their
    /// final length (grown in place, each list was reallocated as it grew).
    pub(crate) level_if: Vec<LevelIf>,
    pub(crate) low_quality_if: Vec<LowQualityIf>,
}
