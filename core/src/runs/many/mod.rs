//! Many runs of the same queries at once (dense, hybrid, hybrid with a reranker, ...):
//! which are really better than which, without the false discoveries of many pairwise
//! tests.
//!
//! Every run is evaluated against the same golden cases; a case pairs the runs by the
//! trace it links in each (caseId, else query, as the evaluation links them). Cases
//! linked in only some runs are listed and left out; the statistics use the cases every
//! run answered. Per metric: each run's mean with a percentile bootstrap interval, wins
//! / ties / losses of every pair, the randomised Tukey HSD test ([`RandomisedTukey`])
//! and the compact letter display ([`compact_letters`]).
//!
//! The page's path: [`ManyRunTable::from_reports`] once per set of evaluations (fast),
//! [`compare_many`] without significance for the means at once, then a
//! [`ManyRunTest`] advanced a few hundred steps per frame and [`compare_many`] again
//! with its result. [`compare_many_batches`] does it all in one call (the CLI, the JS
//! API and the Python package).

mod letters;
mod render;
mod tukey;

pub use letters::compact_letters;
pub use render::{many_runs_markdown, many_runs_summary_text};
pub use tukey::RandomisedTukey;

use super::golden_delta::{SignificanceOptions, GATE_ALPHA, TIE_TOLERANCE};
use crate::golden::{CaseSet, GoldenReport, Metric, MetricValues};
use crate::stats::BootstrapMeans;
use serde::Serialize;
use std::collections::HashMap;
use tukey::Values;

/// The most runs one comparison takes (letters and the test's bit sets).
pub const MOST_RUNS: usize = 26;

/// Why runs cannot be compared: where (a JSON pointer into the runs given, e.g.
/// `/runs/2/name`) and what to do about it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ManyRunError {
    pub path: String,
    pub message: String,
}

impl std::fmt::Display for ManyRunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        crate::runs::write_at(f, &self.path, &self.message)
    }
}

impl std::error::Error for ManyRunError {}

fn error(path: impl Into<String>, message: impl Into<String>) -> ManyRunError {
    ManyRunError {
        path: path.into(),
        message: message.into(),
    }
}

/// A case some runs answered and others did not (no trace linked to it there).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct PartialCase {
    pub case_id: String,
    /// The runs that answered it, in the runs' order (empty: none did).
    pub present_in: Vec<String>,
}

/// The cases' values in every run: what the comparison and the test read.
#[derive(Debug, Clone, PartialEq)]
pub struct ManyRunTable {
    pub runs: Vec<String>,
    /// The cases every run answered, in the first run's order.
    pub case_ids: Vec<String>,
    /// Per run, the cases it answered.
    pub answered: Vec<usize>,
    /// Cases left out because not every run answered them.
    pub partial_cases: Vec<PartialCase>,
    /// What the reader should know: repeated case ids, values that are not numbers.
    pub notes: Vec<String>,
    /// `[case][run]`, the metrics in [`Metric::ALL`] order.
    values: Vec<Values>,
}

/// Checks the runs' names: at least two runs, at most [`MOST_RUNS`], each named, no name
/// twice.
pub fn check_run_names(names: &[&str]) -> Result<(), ManyRunError> {
    match names.len() {
        0 => {
            return Err(error(
                "/runs",
                "no run given: give at least two runs, each as a name and its traces",
            ))
        }
        1 => {
            return Err(error(
                "/runs",
                format!(
                    "only one run given (\"{}\"): a comparison needs at least two; add another run of the same queries",
                    names[0]
                ),
            ))
        }
        n if n > MOST_RUNS => {
            return Err(error(
                "/runs",
                format!("{n} runs given: at most {MOST_RUNS} can be compared at once; leave some out"),
            ))
        }
        _ => {}
    }
    for (j, name) in names.iter().enumerate() {
        if name.trim().is_empty() {
            return Err(error(
                format!("/runs/{j}/name"),
                format!("run {} has an empty name: give every run a name", j + 1),
            ));
        }
        if let Some(i) = names[..j].iter().position(|n| n == name) {
            return Err(error(
                format!("/runs/{j}/name"),
                format!(
                    "the name \"{name}\" is given to runs {} and {}: give each run its own name",
                    i + 1,
                    j + 1
                ),
            ));
        }
    }
    Ok(())
}

/// How many case ids the messages name.
const FIRST_FEW: usize = 5;

fn first_few<'a>(items: impl Iterator<Item = &'a str>) -> String {
    let mut names: Vec<String> = Vec::new();
    let mut more = 0usize;
    for item in items {
        if names.len() < FIRST_FEW {
            names.push(format!("\"{item}\""));
        } else {
            more += 1;
        }
    }
    if more > 0 {
        names.push(format!("and {more} more"));
    }
    names.join(", ")
}

/// One run's cases in order, as [`ManyRunTable::pair_cases`] reads them: their caseIds
/// and, parallel to them, the values of the cases a trace answered.
struct RunCases<'s, 'a> {
    case_ids: &'s [&'a str],
    values: &'s [Option<Values>],
}

impl ManyRunTable {
    /// Pairs the runs' evaluations (against the same cases) by caseId; a caseId
    /// repeated in the cases pairs in order of appearance. A case counts in a run when a
    /// trace of the run linked to it.
    pub fn from_reports(runs: &[(&str, &GoldenReport)]) -> Result<ManyRunTable, ManyRunError> {
        let names: Vec<&str> = runs.iter().map(|(name, _)| *name).collect();
        let case_ids: Vec<Vec<&str>> = runs
            .iter()
            .map(|(_, report)| report.cases.iter().map(|c| c.case_id.as_str()).collect())
            .collect();
        let values: Vec<Vec<Option<Values>>> = runs
            .iter()
            .map(|(_, report)| {
                report
                    .cases
                    .iter()
                    .map(|case| {
                        case.linked_by
                            .map(|_| Metric::ALL.map(|metric| metric.of_case(case)))
                    })
                    .collect()
            })
            .collect();
        let per_run: Vec<RunCases> = case_ids
            .iter()
            .zip(&values)
            .map(|(case_ids, values)| RunCases { case_ids, values })
            .collect();
        Self::pair_cases(&names, &per_run)
    }

    /// Pairs the runs' [`case_metrics`](crate::case_metrics) against the same `cases`
    /// (one list per run, in the cases' order): what [`ManyRunTable::from_reports`]
    /// gives for the runs' evaluations, without building them.
    pub fn from_case_metrics(
        names: &[&str],
        cases: &CaseSet,
        per_run: &[Vec<Option<MetricValues>>],
    ) -> Result<ManyRunTable, ManyRunError> {
        // One list of caseIds for every run: their lists are then the same at a glance.
        let case_ids: Vec<&str> = cases.cases.iter().map(|c| c.case_id.as_str()).collect();
        let per_run: Vec<RunCases> = per_run
            .iter()
            .map(|values| {
                let n = values.len().min(case_ids.len());
                RunCases {
                    case_ids: &case_ids[..n],
                    values: &values[..n],
                }
            })
            .collect();
        Self::pair_cases(names, &per_run)
    }

    /// Per run, its cases in order: their caseIds and values (when a trace answered).
    fn pair_cases(
        names: &[&str],
        per_run: &[RunCases<'_, '_>],
    ) -> Result<ManyRunTable, ManyRunError> {
        check_run_names(names)?;
        if per_run.len() != names.len() {
            return Err(error(
                "/runs",
                format!(
                    "{} names for {} runs: give every run a name",
                    names.len(),
                    per_run.len()
                ),
            ));
        }
        let runs = names.len();
        let mut notes = Vec::new();
        // Per case (caseId, occurrence), in first-seen order: per run, its values.
        let mut order: Vec<(&str, usize)> = Vec::new();
        // Row `i` of `order` is `rows[i * runs..][..runs]`: one allocation for all cases.
        // Runs of the same cases need none: row `i` is every run's case `i`.
        let mut rows: Vec<Option<Values>> = Vec::new();
        let mut answered = vec![0usize; runs];
        let mut repeated = Vec::new();
        // Evaluations of the same cases list the same caseIds in the same order (always,
        // from `from_case_metrics`): a case is its position, no lookup needed.
        // The same text is usually the very same string: compared by address first.
        let first_ids = per_run.first().map_or(&[][..], |run| run.case_ids);
        let same_cases = per_run.iter().all(|run| {
            std::ptr::eq(run.case_ids, first_ids)
                || (run.case_ids.len() == first_ids.len()
                    && run
                        .case_ids
                        .iter()
                        .zip(first_ids)
                        .all(|(a, b)| std::ptr::eq(*a, *b) || a == b))
        });
        let mut occurrences: crate::fast_hash::FastMap<&str, usize> = Default::default();
        if same_cases {
            occurrences.reserve(first_ids.len());
        }
        let mut key_of = |case_id| {
            let occurrence = occurrences.entry(case_id).or_insert(0);
            *occurrence += 1;
            (case_id, *occurrence - 1)
        };
        if same_cases {
            order.reserve(first_ids.len());
            for &case_id in first_ids {
                let key = key_of(case_id);
                if key.1 == 1 {
                    repeated.push(case_id);
                }
                order.push(key);
            }
            for (r, run) in per_run.iter().enumerate() {
                answered[r] = run.values.iter().filter(|v| v.is_some()).count();
            }
        } else {
            let mut at: HashMap<(&str, usize), usize> = HashMap::new();
            for (r, run) in per_run.iter().enumerate() {
                let mut seen: HashMap<&str, usize> = HashMap::new();
                for (&case_id, &values) in run.case_ids.iter().zip(run.values) {
                    let occurrence = seen.entry(case_id).or_insert(0);
                    let key = (case_id, *occurrence);
                    *occurrence += 1;
                    if key.1 == 1 && r == 0 {
                        repeated.push(case_id);
                    }
                    let row = *at.entry(key).or_insert_with(|| {
                        order.push(key);
                        rows.extend(std::iter::repeat_n(None, runs));
                        order.len() - 1
                    });
                    let slot = &mut rows[row * runs + r];
                    if values.is_some() && slot.is_none() {
                        *slot = values;
                        answered[r] += 1;
                    }
                }
            }
        }
        if !repeated.is_empty() {
            notes.push(format!(
                "{} caseId(s) appear more than once in the cases ({}); repeated ones pair in order of appearance",
                repeated.len(),
                first_few(repeated.iter().copied())
            ));
        }
        for (r, count) in answered.iter().enumerate() {
            if *count == 0 {
                return Err(error(
                    format!("/runs/{r}"),
                    format!(
                        "run \"{}\" answered none of the {} case(s): no trace of it has a case's caseId or query; check that it is a run of the same queries",
                        names[r],
                        per_run[r].case_ids.len()
                    ),
                ));
            }
        }
        let mut case_ids = Vec::new();
        let mut values = Vec::new();
        let mut partial_cases = Vec::new();
        let mut not_numbers = Vec::new();
        case_ids.reserve(order.len());
        values.reserve(order.len() * runs);
        let mut same_cases_row = Vec::with_capacity(runs);
        for (i, key) in order.iter().enumerate() {
            let slot = if same_cases {
                same_cases_row.clear();
                same_cases_row.extend(per_run.iter().map(|run| run.values[i]));
                &same_cases_row[..]
            } else {
                &rows[i * runs..][..runs]
            };
            if slot.iter().any(Option::is_none) {
                partial_cases.push(PartialCase {
                    case_id: key.0.to_owned(),
                    present_in: (0..runs)
                        .filter(|&r| slot[r].is_some())
                        .map(|r| names[r].to_owned())
                        .collect(),
                });
                continue;
            }
            if slot.iter().flatten().flatten().any(|v| !v.is_finite()) {
                not_numbers.push(key.0);
                continue;
            }
            case_ids.push(key.0.to_owned());
            values.extend(slot.iter().flatten());
        }
        if !not_numbers.is_empty() {
            notes.push(format!(
                "{} case(s) left out for a metric value that is not a finite number: {}",
                not_numbers.len(),
                first_few(not_numbers.iter().copied())
            ));
        }
        if case_ids.is_empty() {
            let per_run: Vec<String> = names
                .iter()
                .zip(&answered)
                .map(|(n, a)| format!("\"{n}\" {a}"))
                .collect();
            return Err(error(
                "/runs",
                format!(
                    "the runs have no case in common: no case was answered by every run (cases answered: {}); compare runs of the same queries, or fewer runs",
                    per_run.join(", ")
                ),
            ));
        }
        if !partial_cases.is_empty() {
            notes.push(format!(
                "{} case(s) not answered by every run are left out of the statistics: {}",
                partial_cases.len(),
                first_few(partial_cases.iter().map(|c| c.case_id.as_str()))
            ));
        }
        Ok(ManyRunTable {
            runs: names.iter().map(|n| (*n).to_owned()).collect(),
            case_ids,
            answered,
            partial_cases,
            notes,
            values,
        })
    }

    /// A table from values computed elsewhere: `values` is `[case][run]`, every run's
    /// metrics in [`Metric::ALL`] order, one row of `names.len()` per case id.
    pub fn from_values(
        names: &[&str],
        case_ids: Vec<String>,
        values: Vec<MetricValues>,
    ) -> Result<ManyRunTable, ManyRunError> {
        check_run_names(names)?;
        if case_ids.is_empty() {
            return Err(error(
                "/cases",
                "no case given: give the values of at least one case",
            ));
        }
        if values.len() != case_ids.len() * names.len() {
            return Err(error(
                "/values",
                format!(
                    "{} rows of values for {} case(s) of {} runs: give one row per case and run ({})",
                    values.len(),
                    case_ids.len(),
                    names.len(),
                    case_ids.len() * names.len()
                ),
            ));
        }
        if let Some(at) = values.iter().position(|v| v.iter().any(|x| !x.is_finite())) {
            return Err(error(
                format!("/values/{at}"),
                format!(
                    "case \"{}\" of run \"{}\" has a value that is not a finite number",
                    case_ids[at / names.len()],
                    names[at % names.len()]
                ),
            ));
        }
        Ok(ManyRunTable {
            runs: names.iter().map(|n| (*n).to_owned()).collect(),
            answered: vec![case_ids.len(); names.len()],
            case_ids,
            partial_cases: Vec::new(),
            notes: Vec::new(),
            values,
        })
    }

    /// `[case][run]`: per case, every run's metrics in [`Metric::ALL`] order.
    pub fn values(&self) -> &[MetricValues] {
        &self.values
    }
}

/// The tests of a [`ManyRunTable`], run in steps: a step is one permutation of the
/// Tukey test or one bootstrap resample (about the same work). The result does not
/// depend on how the steps were split.
#[derive(Debug, Clone)]
pub struct ManyRunTest {
    tukey: RandomisedTukey,
    bootstrap: BootstrapMeans,
    options: SignificanceOptions,
    runs: usize,
}

/// The tests' results.
#[derive(Debug, Clone, PartialEq)]
pub struct ManyRunSignificance {
    pub options: SignificanceOptions,
    /// Per metric, the `runs x runs` matrix of Tukey HSD p-values.
    pub p: Vec<Vec<Vec<f64>>>,
    /// Per metric, per run, the bootstrap interval of its mean.
    pub ci: Vec<Vec<Option<(f64, f64)>>>,
    /// Cases whose values differ between runs (the others cannot move the test).
    pub cases_that_differ: usize,
}

impl ManyRunTest {
    pub fn new(table: &ManyRunTable, options: &SignificanceOptions) -> ManyRunTest {
        let runs = table.runs.len();
        let rows: Vec<f64> = table.values.iter().flatten().copied().collect();
        ManyRunTest {
            tukey: RandomisedTukey::new(
                &table.values,
                runs,
                options.permutations,
                options.permutation_seed,
            ),
            bootstrap: BootstrapMeans::new(
                rows,
                runs * Metric::COUNT,
                options.resamples,
                options.bootstrap_seed,
            ),
            options: *options,
            runs,
        }
    }

    /// Runs up to `steps` more steps (permutations first, then resamples); true when
    /// everything is done.
    pub fn advance(&mut self, steps: usize) -> bool {
        let used = self.tukey.advance(steps);
        self.bootstrap.advance(steps - used);
        self.tukey.remaining() == 0 && self.bootstrap.remaining() == 0
    }

    /// (steps done, steps in all).
    pub fn progress(&self) -> (usize, usize) {
        let done = self.tukey.done() + self.bootstrap.done();
        (
            done,
            done + self.tukey.remaining() + self.bootstrap.remaining(),
        )
    }

    /// Runs what remains and returns the results.
    pub fn finish(mut self) -> ManyRunSignificance {
        self.advance(usize::MAX);
        let intervals = self.bootstrap.intervals(self.options.confidence);
        let width = Metric::COUNT;
        ManyRunSignificance {
            options: self.options,
            p: self.tukey.p_values(),
            ci: (0..width)
                .map(|m| (0..self.runs).map(|r| intervals[r * width + m]).collect())
                .collect(),
            cases_that_differ: self.tukey.queries_that_differ(),
        }
    }
}

/// One metric over the runs.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ManyRunMetric {
    pub metric: &'static str,
    /// Per run, over the cases every run answered.
    pub means: Vec<f64>,
    /// Per run, the percentile bootstrap interval `[low, high]` of its mean; null
    /// before the tests ran.
    pub ci: Option<Vec<[f64; 2]>>,
    /// `wins[i][j]`: cases where run i scored higher than run j.
    pub wins: Vec<Vec<usize>>,
    /// `ties[i][j]`: cases where they scored the same (within 1e-12).
    pub ties: Vec<Vec<usize>>,
    /// Null before the tests ran.
    pub tukey: Option<TukeyHsd>,
    /// Per run, its compact letters (empty before the tests ran): runs sharing a letter
    /// are not significantly different at `alpha`.
    pub letters: Vec<String>,
}

/// The randomised Tukey HSD test of one metric.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct TukeyHsd {
    /// `p[i][j]`: the p-value of runs i and j (1 on the diagonal).
    pub p: Vec<Vec<f64>>,
}

/// How many cases the comparison rests on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ManyRunCases {
    /// Answered by every run: the cases the statistics use.
    pub common: usize,
    /// Per run, the cases it answered.
    pub answered: Vec<usize>,
    /// Cases whose values differ between runs (null before the tests ran).
    pub differing: Option<usize>,
}

/// The comparison of many runs (`compare.json` of `ragtrace compare --run ...`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ManyRunComparison {
    /// The shape of this object; raised when a key changes meaning.
    pub version: u32,
    pub runs: Vec<String>,
    /// The reference run of the regression gate (the first run when none was named).
    pub baseline: String,
    /// The settings every run was analysed under; null when built from evaluations.
    pub config: Option<crate::config::Config>,
    pub cases: ManyRunCases,
    pub partial_cases: Vec<PartialCase>,
    pub notes: Vec<String>,
    /// Two runs differ significantly when their Tukey HSD p is below this.
    pub alpha: f64,
    /// The tests' settings; null before the tests ran.
    pub significance_options: Option<SignificanceOptions>,
    /// In [`Metric::ALL`] order.
    pub metrics: Vec<ManyRunMetric>,
}

/// The version written in the many-run `compare.json`.
pub const MANY_RUNS_VERSION: u32 = 1;

/// The comparison of the table's runs: means and wins / ties / losses always, the
/// intervals, p-values and letters when `significance` is given. `baseline` is an index
/// into the runs (the first when out of range).
pub fn compare_many(
    table: &ManyRunTable,
    significance: Option<&ManyRunSignificance>,
    baseline: usize,
) -> ManyRunComparison {
    let runs = table.runs.len();
    let cases = table.case_ids.len();
    let sums = tukey::sums_of(&table.values, runs);
    let metrics = Metric::ALL
        .iter()
        .map(|metric| (metric.index(), metric.key()))
        .map(|(m, metric)| {
            let means: Vec<f64> = sums.iter().map(|s| s[m] / cases as f64).collect();
            let mut wins = vec![vec![0usize; runs]; runs];
            let mut ties = vec![vec![0usize; runs]; runs];
            for row in table.values.chunks_exact(runs) {
                for i in 0..runs {
                    for j in 0..runs {
                        let delta = row[i][m] - row[j][m];
                        if delta > TIE_TOLERANCE {
                            wins[i][j] += 1;
                        } else if delta >= -TIE_TOLERANCE && i != j {
                            ties[i][j] += 1;
                        }
                    }
                }
            }
            let (ci, tukey, letters) = match significance {
                Some(s) => {
                    let p = s.p[m].clone();
                    let letters = compact_letters(&means, |i, j| p[i][j] < GATE_ALPHA);
                    let ci = s.ci[m]
                        .iter()
                        .map(|c| c.map_or([f64::NAN; 2], |(low, high)| [low, high]))
                        .collect();
                    (Some(ci), Some(TukeyHsd { p }), letters)
                }
                None => (None, None, Vec::new()),
            };
            ManyRunMetric {
                metric,
                means,
                ci,
                wins,
                ties,
                tukey,
                letters,
            }
        })
        .collect();
    let baseline = if baseline < runs { baseline } else { 0 };
    ManyRunComparison {
        version: MANY_RUNS_VERSION,
        runs: table.runs.clone(),
        baseline: table.runs.get(baseline).cloned().unwrap_or_default(),
        config: None,
        cases: ManyRunCases {
            common: cases,
            answered: table.answered.clone(),
            differing: significance.map(|s| s.cases_that_differ),
        },
        partial_cases: table.partial_cases.clone(),
        notes: table.notes.clone(),
        alpha: GATE_ALPHA,
        significance_options: significance.map(|s| s.options),
        metrics,
    }
}

/// How [`compare_many_batches`] compares.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ManyRunOptions {
    pub significance: SignificanceOptions,
    /// The reference run of the regression gate, by name (the first run when `None`).
    pub baseline: Option<String>,
}

/// Notes on traces of one run that repeat the caseId (or, without one, the query) of an
/// earlier trace of the same run: a case links to the first of them only.
fn repeated_keys_note(name: &str, batch: &crate::input::ParsedBatch) -> Option<String> {
    let mut seen: std::collections::HashSet<(bool, &str)> = std::collections::HashSet::new();
    let mut repeated: Vec<&str> = Vec::new();
    for trace in &batch.traces {
        let key = match (&trace.case_id, &trace.query) {
            (Some(id), _) => (true, id.as_ref()),
            (None, Some(q)) => (false, q.trim()),
            (None, None) => continue,
        };
        if !seen.insert(key) {
            repeated.push(key.1);
        }
    }
    (!repeated.is_empty()).then(|| {
        format!(
            "run \"{name}\": {} trace(s) repeat the caseId or query of an earlier trace of the run ({}); a case links to the first of them, the others are left out",
            repeated.len(),
            first_few(repeated.iter().copied())
        )
    })
}

/// What [`compare_many_batches`] checks of the parsed runs before analysing them: their
/// names ([`check_run_names`]) and that every run has a trace. `Ok` holds the notes on
/// traces of a run that repeat a key, for [`ManyRunTable::notes`]. The page checks its
/// runs with it, then evaluates each run as its knobs change.
pub fn check_many_batches(
    runs: &[(&str, &crate::input::ParsedBatch)],
) -> Result<Vec<String>, ManyRunError> {
    let names: Vec<&str> = runs.iter().map(|(name, _)| *name).collect();
    check_run_names(&names)?;
    for (r, (name, batch)) in runs.iter().enumerate() {
        if batch.traces.is_empty() {
            let failed =
                batch.errors.len() + crate::input_errors::omitted_total(&batch.errors_omitted);
            let unreadable = match failed {
                0 => String::new(),
                n => format!(" ({n} part(s) of it could not be read)"),
            };
            return Err(error(
                format!("/runs/{r}"),
                format!("run \"{name}\" has no trace{unreadable}: give it a file of traces, or leave it out"),
            ));
        }
    }
    Ok(runs
        .iter()
        .filter_map(|(name, batch)| repeated_keys_note(name, batch))
        .collect())
}

/// Everything the many-run `compare.json` holds for parsed runs: each analysed under
/// `settings`, evaluated against `cases`, paired by case, tested (default seeds unless
/// `options` say otherwise). The one entry point of the CLI's `compare --run`, the JS
/// API's `compareRuns` and the Python package's `compare_many`.
pub fn compare_many_batches(
    runs: &[(&str, &crate::input::ParsedBatch)],
    settings: &crate::config::Settings,
    cases: &CaseSet,
    options: &ManyRunOptions,
) -> Result<ManyRunComparison, ManyRunError> {
    let names: Vec<&str> = runs.iter().map(|(name, _)| *name).collect();
    check_run_names(&names)?;
    let baseline = match &options.baseline {
        None => 0,
        Some(b) => names.iter().position(|n| n == b).ok_or_else(|| {
            error(
                "/baseline",
                format!(
                    "the baseline \"{b}\" is not one of the runs ({}): name one of them",
                    names.join(", ")
                ),
            )
        })?,
    };
    let collisions = check_many_batches(runs)?;
    let mut reports = Vec::with_capacity(runs.len());
    let mut config = None;
    for (_, batch) in runs {
        let analysis = crate::analysis::analyze(batch, settings, false)
            .map_err(|e| error("/config", e.to_string()))?;
        config = Some(analysis.config);
        reports.push(crate::golden::evaluate_analysis(cases, &analysis));
    }
    let named: Vec<(&str, &GoldenReport)> = names.iter().copied().zip(&reports).collect();
    let mut table = ManyRunTable::from_reports(&named)?;
    table.notes.extend(collisions);
    let significance = ManyRunTest::new(&table, &options.significance).finish();
    let mut comparison = compare_many(&table, Some(&significance), baseline);
    comparison.config = config;
    Ok(comparison)
}

/// The regression gate: a message when a run is significantly worse than the baseline
/// (Tukey HSD p below alpha, lower mean) on some metric; `None` otherwise or before the
/// tests ran.
pub fn many_runs_gate(comparison: &ManyRunComparison) -> Option<String> {
    let b = comparison
        .runs
        .iter()
        .position(|r| *r == comparison.baseline)?;
    let mut worse = Vec::new();
    for metric in &comparison.metrics {
        let Some(tukey) = &metric.tukey else { continue };
        for (r, name) in comparison.runs.iter().enumerate() {
            let p = tukey.p[b][r];
            if r != b && metric.means[r] < metric.means[b] && p < comparison.alpha {
                worse.push(format!(
                    "{name} on {} (mean {:.4} against {:.4}, Tukey HSD p {:.4})",
                    metric.metric, metric.means[r], metric.means[b], p
                ));
            }
        }
    }
    (!worse.is_empty()).then(|| {
        format!(
            "{} run-metric pair(s) significantly worse than the baseline \"{}\": {}",
            worse.len(),
            comparison.baseline,
            worse.join("; ")
        )
    })
}
