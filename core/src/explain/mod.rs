//! What would it take: for every candidate, level and golden case, the least change of
//! settings that flips it (contract section 9).
//!
//! Every answer is searched, not assumed: the integer settings (`returnN`,
//! `maxChunksPerDocument`) through the pipeline's own decisions under every cap
//! ([`tables`]), the continuous ones (`maxL2Distance`, the thresholds) from the
//! formulas and then to the exact `f64` edge ([`boundary`]), `hybridQuality` by trying
//! each value. A change of a continuous setting, of `hybridQuality`, and every fix of
//! a golden case is then confirmed by running the pipeline under it
//! ([`crate::Analysis::reanalyze`]'s per-trace step); one that does not give what the
//! formula said is not reported.

mod batch;
mod boundary;
mod candidates;
mod case;
mod change;
mod levels;
mod parallel;
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

/// A change and the level the trace then has.
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LevelIf {
    pub set: Change,
    pub level: Level,
}

/// A change and the `lowQuality` the trace then has.
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LowQualityIf {
    pub set: Change,
    pub low_quality: bool,
}

/// A change, alone.
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SetIf {
    pub set: Change,
}

/// One golden case: why it was or was not found, and what finds it.
#[derive(Debug, Clone, Serialize)]
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
#[serde(rename_all = "camelCase")]
pub struct FoundIf {
    pub set: Change,
    pub hit: GoldenLevel,
}

/// The batch: causes counted, and what each change among the cases' fixes does.
#[derive(Debug, Clone, Default, Serialize)]
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
/// applied on top of them). Natively, a large batch is shared among the cores this
/// process may use.
pub fn explain_analysis(
    analysis: &Analysis,
    settings: &Settings,
    cases: Option<&CaseSet>,
) -> Result<Explanation, ConfigError> {
    explain_analysis_on(analysis, settings, cases, usize::MAX)
}

/// [`explain_analysis`] on at most `threads` threads (at least one): the explanation
/// is the same on any number.
pub fn explain_analysis_on(
    analysis: &Analysis,
    settings: &Settings,
    cases: Option<&CaseSet>,
    threads: usize,
) -> Result<Explanation, ConfigError> {
    let config = Config::from_settings(settings)?;
    let mut traces = Vec::with_capacity(analysis.traces.len());
    let (cases, summary) = explain_batch(
        analysis,
        settings,
        &config,
        cases,
        Some(&mut traces),
        threads,
    );
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
        usize::MAX,
    ))
}

/// The cases and the summary, and each trace's explanation into `traces` when asked:
/// one pass over the traces fills each trace's tables once for both. On at most
/// `most_threads` threads.
fn explain_batch(
    analysis: &Analysis,
    settings: &Settings,
    config: &Config,
    cases: Option<&CaseSet>,
    traces: Option<&mut Vec<TraceExplanation>>,
    most_threads: usize,
) -> (Vec<CaseExplanation>, ExplainSummary) {
    let threads = Threads {
        traces: parallel::threads_for(analysis.traces.len(), 1_000).min(most_threads),
        cases: parallel::threads_for(cases.map_or(0, |c| c.cases.len()), 250).min(most_threads),
    };
    explain_batch_on(analysis, settings, config, cases, traces, threads)
}

/// How many threads share the traces and the cases. A run is worth a thread of its own
/// from about a thousand traces or a few hundred cases (a trace takes a few
/// microseconds, a case about ten, a thread tens to start).
#[derive(Debug, Clone, Copy)]
struct Threads {
    traces: usize,
    cases: usize,
}

/// [`explain_batch`] over runs of traces and of cases.
fn explain_batch_on(
    analysis: &Analysis,
    settings: &Settings,
    config: &Config,
    cases: Option<&CaseSet>,
    mut traces: Option<&mut Vec<TraceExplanation>>,
    threads: Threads,
) -> (Vec<CaseExplanation>, ExplainSummary) {
    let mut work = Work::default();
    let explained_cases = cases.map(|cases| {
        case::explain_cases(
            &cases.cases,
            &analysis.traces,
            settings,
            config,
            threads.cases,
            &mut work,
        )
    });
    let summariser = explained_cases
        .as_deref()
        .map(|explained| batch::Summariser::new(explained, analysis.traces.len(), settings));
    let mut tally = summariser.as_ref().map(batch::Summariser::tally);
    if summariser.is_some() || traces.is_some() {
        let all = &analysis.traces;
        let want_traces = traces.is_some();
        let runs = parallel::in_runs(all.len(), threads.traces, &mut work, |run, work| {
            let mut done = Run {
                traces: Vec::with_capacity(if want_traces { run.len() } else { 0 }),
                tally: summariser.as_ref().map(batch::Summariser::tally),
            };
            let mut tables = std::mem::take(&mut work.tables);
            for index in run {
                let Some(t) = all.get(index) else { continue };
                // The explanation's share of the trace is taken before the tables are
                // written: a locked increment waits until every pending write has
                // landed.
                let shared = want_traces.then(|| Arc::clone(&t.trace));
                tables.fill(t);
                if let (Some(summariser), Some(tally)) = (&summariser, &mut done.tally) {
                    summariser.add_trace(tally, index, t, &tables, &mut work.hits);
                }
                if let Some(shared) = shared {
                    done.traces.push(trace::explain_with(
                        index, t, shared, settings, &tables, work,
                    ));
                }
            }
            work.tables = tables;
            done
        });
        for done in runs {
            if let Some(traces) = traces.as_deref_mut() {
                traces.extend(done.traces);
            }
            if let (Some(tally), Some(done)) = (&mut tally, done.tally) {
                tally.add(done);
            }
        }
    }
    let summary = match (summariser, tally) {
        (Some(summariser), Some(tally)) => summariser.finish(tally, analysis.traces.len()),
        _ => batch::summarise_traces(analysis.traces.len()),
    };
    let cases = explained_cases
        .map(|explained| explained.into_iter().map(|c| c.explanation).collect())
        .unwrap_or_default();
    (cases, summary)
}

/// What one run of traces gives: their explanations (when asked) and its tally.
struct Run {
    traces: Vec<TraceExplanation>,
    tally: Option<batch::Tally>,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::golden::parse_cases;
    use crate::input::parse_document;
    use crate::sample::{generate_batch, generate_cases};

    /// Explained in runs on threads, a batch reads exactly as explained on one: every
    /// trace in its place, every case, and the summary's counts added up across runs.
    #[test]
    fn threads_explain_as_one_thread_does() {
        let text = generate_batch(230, 14, 6);
        let batch = parse_document("t", &text);
        let Ok(cases) = parse_cases("c", &generate_cases(230, 14, 6)) else {
            panic!("generated cases");
        };
        // Settings under which the cases' fixes move levels and lower hits elsewhere.
        let settings = Settings {
            return_n: Some(2),
            max_chunks_per_document: Some(3),
            ..Settings::default()
        };
        let Ok(analysis) = crate::analysis::analyze(&batch, &settings, false) else {
            panic!("valid settings");
        };
        let Ok(config) = Config::from_settings(&settings) else {
            panic!("valid settings");
        };
        let on = |threads: usize, cases: Option<&CaseSet>| {
            let mut traces = Vec::new();
            let threads = Threads {
                traces: threads,
                cases: threads,
            };
            let (cases, summary) = explain_batch_on(
                &analysis,
                &settings,
                &config,
                cases,
                Some(&mut traces),
                threads,
            );
            let explained = Explanation {
                config,
                traces,
                cases,
                summary,
            };
            serde_json::to_value(&explained).unwrap_or_else(|e| panic!("{e}"))
        };
        let one = on(1, Some(&cases));
        let Some(summary) = one.get("summary") else {
            panic!("a summary");
        };
        // One thread's summary is the pipeline's (`batch`'s tests); these runs have
        // something to add up in each of its counts.
        let changes = summary["changes"].as_array().cloned().unwrap_or_default();
        for count in ["recovers", "tracesChanged", "hitLevelDrops"] {
            assert!(
                changes.iter().any(|c| c[count] != 0),
                "some change has {count}: {summary}"
            );
        }
        assert!(changes.iter().any(|c| c["levelTransitions"]
            .as_object()
            .is_some_and(|t| !t.is_empty())));
        assert_eq!(one["traces"].as_array().map(Vec::len), Some(230));
        for threads in [2, 3, 7, 400] {
            assert_eq!(on(threads, Some(&cases)), one, "{threads} threads");
        }
        assert_eq!(on(3, None), on(1, None));
    }
}
