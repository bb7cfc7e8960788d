//! The Compare tab with more than two runs: the runs besides A and B, every run analysed
//! and evaluated under the knobs, the core's runs x metrics table, and its test run in
//! slices after the paint.
//!
//! Run A (the loaded batch) and run B come from [`super::compare::CompareState`]; the
//! runs added here (C, D, ...) are parsed once when added and analysed again on every
//! knob move (`reanalyze`, which redoes only the stages the move reaches). Each run's
//! golden evaluation is redone only when its accepted lists change, so the table's means
//! follow a knob at once. The randomised Tukey test and the bootstrap intervals (10,000
//! permutations and resamples) are the slow part: they start after the next paint and
//! run a few milliseconds at a time between the browser's tasks, pending until done; a
//! newer table cancels them.

use crate::browser::{after_paint, drop_after_paint, next_task};
use crate::state::golden::GoldenState;
use crate::state::{AppState, Shared, View};
use leptos::prelude::*;
use ragtrace_core::{
    analyze, check_many_batches, compare_many, evaluate_analysis, generate_many_runs,
    parse_documents, AcceptedLists, Analysis, GoldenReport, ManyRunComparison, ManyRunTable,
    ManyRunTest, ParsedBatch, SignificanceOptions, DELTA_METRICS, MOST_RUNS,
};
use std::sync::Arc;

/// A run added besides A and B: its files, parsed once.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct AddedRun {
    /// Distinguishes runs across removals (a view's key).
    pub id: u64,
    pub name: String,
    pub batch: Shared<ParsedBatch>,
}

/// One run of the comparison: its name, what the core read and its analysis under the
/// knobs.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Run {
    pub name: String,
    pub batch: Shared<ParsedBatch>,
    pub analysis: Shared<Analysis>,
}

/// What the runs x metrics table can show.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ManyTable {
    /// Fewer than three runs: the two-run view is the whole tab.
    Off,
    /// Three or more runs but no cases: nothing to rank them by.
    NoCases,
    /// The runs cannot be compared (a run with no trace, a name twice, no common case).
    Invalid(String),
    /// The table and its means and wins / ties / losses (no test yet).
    Ready(Shared<ManyRunTable>, Shared<ManyRunComparison>),
}

/// The test of the current table.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum TestState {
    /// Running, or about to (its progress is written into the page as it runs).
    Pending,
    /// The comparison with its test, of the table it tested.
    Done(Shared<ManyRunTable>, Shared<ManyRunComparison>),
}

/// What each run's report was evaluated from: its batch and accepted lists.
type Evaluated = Vec<(Shared<ParsedBatch>, AcceptedLists, Shared<GoldenReport>)>;

/// The many-run part of the Compare tab's state. Few signals and memos, each of a
/// type of its own: every such type costs code in the page's first module.
#[derive(Clone, Copy)]
pub(crate) struct ManyRuns {
    pub added: RwSignal<Vec<AddedRun>>,
    /// Every run in order (A, B when loaded, then the added ones), analysed.
    pub runs: Memo<Vec<Run>>,
    pub table: Memo<ManyTable>,
    pub test: RwSignal<TestState>,
    /// The rows picked to open as a pair, in the order picked (at most two).
    pub picked: RwSignal<Vec<usize>>,
    /// The table's order: (metric index, descending); `None` is the runs' order.
    pub sort: RwSignal<Option<(usize, bool)>>,
}

/// Size of the built-in many-run sample: five runs of the same generated queries.
pub(crate) const SAMPLE_RUNS: usize = 5;
const SAMPLE_QUERIES: usize = 200;
const SAMPLE_CANDIDATES: usize = 8;
const SAMPLE_SEED: u64 = 11;
/// The source name of the sample's cases and of its `r`th run (from 1).
pub(crate) const SAMPLE_CASES_SOURCE: &str = "sample-runs-cases.json";
pub(crate) fn sample_run_source(r: usize) -> String {
    ["sample-run-", &r.to_string(), ".json"].concat()
}

/// Steps of the test between two looks at the clock (a step is one permutation or one
/// resample: a few microseconds at 1,000 cases and 5 runs).
const STEPS_PER_LOOK: usize = 32;
/// Work per slice before the browser gets a turn.
const SLICE_MS: f64 = 6.0;

/// `name`, or `name (2)`, `name (3)`, ... : the first that is not in `taken`.
pub(crate) fn unique_name(name: &str, taken: &[&str]) -> String {
    if !taken.contains(&name) {
        return name.to_owned();
    }
    (2..)
        .map(|n| [name, " (", &n.to_string(), ")"].concat())
        .find(|candidate| !taken.contains(&candidate.as_str()))
        .unwrap_or_default()
}

impl ManyRuns {
    /// `first_two`: runs A and B (A alone without run B), named, with their batches and
    /// analyses, as the two-run comparison made them.
    pub(crate) fn new(
        state: AppState,
        golden: GoldenState,
        first_two: impl Fn() -> Vec<Run> + Send + Sync + 'static,
    ) -> Self {
        let added = RwSignal::new(Vec::<AddedRun>::new());
        let runs = Memo::new(move |previous: Option<&Vec<Run>>| {
            let mut runs = first_two();
            let settings = state.settings.get();
            let first_added = runs.len();
            added.with(|added| {
                for run in added {
                    // A knob move redoes only the stages it reaches.
                    let last = previous
                        .and_then(|p| p.get(first_added..))
                        .and_then(|p| p.iter().find(|r| r.batch == run.batch));
                    let again = match last {
                        Some(last) => last.analysis.reanalyze(&run.batch, &settings),
                        None => analyze(&run.batch, &settings, false),
                    };
                    match again {
                        Ok(analysis) => runs.push(Run {
                            name: run.name.clone(),
                            batch: run.batch.clone(),
                            analysis: Shared::new(analysis),
                        }),
                        // Invalid knobs: the last valid analysis, as the other tabs show.
                        Err(_) => runs.extend(last.cloned()),
                    }
                }
            });
            if let Some(previous) = previous {
                drop_after_paint(previous.clone());
            }
            runs
        });
        // The reports and the lists they were evaluated from: a run is evaluated again
        // only when its accepted lists change (what `golden::evaluation` does for one).
        let evaluated = StoredValue::new(Evaluated::new());
        let table = Memo::new(move |previous: Option<&ManyTable>| {
            if runs.with(|r| r.len() < 3) {
                evaluated.set_value(Vec::new());
                return ManyTable::Off;
            }
            let Some(Ok(cases)) = golden.cases().get() else {
                evaluated.set_value(Vec::new());
                return ManyTable::NoCases;
            };
            let before = evaluated.get_value();
            let now: Evaluated = runs.with(|runs| {
                runs.iter()
                    .map(|run| {
                        let lists = run.analysis.accepted_lists();
                        let kept = before
                            .iter()
                            .find(|(batch, was, _)| *batch == run.batch && *was == lists);
                        let report = match kept {
                            Some((_, _, report)) => report.clone(),
                            None => {
                                #[cfg(feature = "test-hooks")]
                                crate::counters::GOLDEN_EVALUATIONS
                                    .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                                Shared::new(evaluate_analysis(&cases, &run.analysis))
                            }
                        };
                        (run.batch.clone(), lists, report)
                    })
                    .collect()
            });
            let table = runs.with(|runs| {
                let batches: Vec<(&str, &ParsedBatch)> =
                    runs.iter().map(|r| (r.name.as_str(), &*r.batch)).collect();
                let named: Vec<(&str, &GoldenReport)> = runs
                    .iter()
                    .zip(&now)
                    .map(|(r, (_, _, report))| (r.name.as_str(), &**report))
                    .collect();
                check_many_batches(&batches).and_then(|collisions| {
                    let mut table = ManyRunTable::from_reports(&named)?;
                    table.notes.extend(collisions);
                    Ok(table)
                })
            });
            evaluated.set_value(now);
            match (table, previous) {
                // The same values (a knob that moved no accepted list): the same table,
                // so its test stays.
                (Ok(table), Some(ManyTable::Ready(before, _))) if **before == table => {
                    previous.cloned().unwrap_or(ManyTable::Off)
                }
                (Ok(table), _) => {
                    let means = Shared::new(compare_many(&table, None, 0));
                    ManyTable::Ready(Shared::new(table), means)
                }
                (Err(error), _) => ManyTable::Invalid(error.message),
            }
        });
        let test = RwSignal::new(TestState::Pending);
        let generation = StoredValue::new(0u64);
        Effect::new(move |_| {
            let current = table.with(|t| match t {
                ManyTable::Ready(table, _) => Some(table.clone()),
                _ => None,
            });
            generation.update_value(|g| *g += 1);
            let Some(table) = current else {
                return;
            };
            if state.shown_view.get() != View::Compare
                || test.with_untracked(|t| matches!(t, TestState::Done(done, _) if *done == table))
            {
                return;
            }
            let ticket = generation.get_value();
            let run = ManyRunTest::new(&table, &SignificanceOptions::default());
            if test.with_untracked(|t| *t != TestState::Pending) {
                test.set(TestState::Pending);
            }
            // Never on the frame of the input: after it is painted, in slices.
            after_paint(move || {
                leptos::task::spawn_local(run_test(table, run, ticket, generation, test))
            });
        });
        ManyRuns {
            added,
            runs,
            table,
            test,
            picked: RwSignal::new(Vec::new()),
            sort: RwSignal::new(None),
        }
    }

    /// The comparison to show: the tested one when it is of the current table, else
    /// the means alone (`false`: the test is pending).
    pub(crate) fn shown(&self) -> Option<(bool, Shared<ManyRunComparison>)> {
        self.table.with(|t| match t {
            ManyTable::Ready(table, means) => Some(self.test.with(|test| match test {
                TestState::Done(tested, c) if tested == table => (true, c.clone()),
                _ => (false, means.clone()),
            })),
            _ => None,
        })
    }

    /// Adds a run of `documents` (source name, text), named from its first file and
    /// made unique; `false` when the comparison already has the most runs it takes.
    pub(crate) fn add_run(&self, state: AppState, documents: Vec<(String, String)>) -> bool {
        let names: Vec<String> = self
            .runs
            .with_untracked(|runs| runs.iter().map(|r| r.name.clone()).collect());
        let Some(first) = documents.first().filter(|_| names.len() < MOST_RUNS) else {
            return false;
        };
        let taken: Vec<&str> = names.iter().map(String::as_str).collect();
        let name = unique_name(&first.0, &taken);
        let batch = Shared::new(parse_documents(&documents));
        let id = state.next_document_id();
        self.added
            .update(|added| added.push(AddedRun { id, name, batch }));
        self.picked.set(Vec::new());
        true
    }

    pub(crate) fn remove_run(&self, id: u64) {
        self.added.update(|added| added.retain(|r| r.id != id));
        self.picked.set(Vec::new());
    }

    /// The built-in sample: `SAMPLE_RUNS` runs' texts and their cases. Generated when
    /// asked for: the sample's text is not part of the page.
    pub(crate) fn sample(&self) -> (Vec<String>, String) {
        generate_many_runs(SAMPLE_RUNS, SAMPLE_QUERIES, SAMPLE_CANDIDATES, SAMPLE_SEED)
    }

    /// Picks or unpicks row `run`; with two picked, they open as a pair.
    pub(crate) fn toggle(&self, run: usize) {
        self.picked.update(|picked| {
            if let Some(at) = picked.iter().position(|&r| r == run) {
                picked.remove(at);
            } else {
                if picked.len() == 2 {
                    picked.remove(0);
                }
                picked.push(run);
            }
        });
    }

    /// The two runs picked, as (A, B) of the pair view; `None` unless both are loaded (a
    /// link's pick may name runs from files, which links do not carry).
    pub(crate) fn picked_pair(&self) -> Option<(usize, usize)> {
        let (a, b) = self.picked.with(|picked| match picked.as_slice() {
            &[a, b] => Some((a, b)),
            _ => None,
        })?;
        let loaded = self.runs.with(Vec::len);
        (a < loaded && b < loaded).then_some((a, b))
    }
}

/// The many-run parts of a link (`cmp.` keys): the sample runs when they are what is
/// loaded (runs from files are never in links), the table's order and the picked rows.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct ManyLink {
    pub sample_runs: bool,
    pub sort: Option<(usize, bool)>,
    pub picked: Vec<usize>,
}

impl ManyLink {
    /// Takes one `cmp.` part (key without the prefix); unreadable ones are ignored.
    pub(crate) fn read(&mut self, key: &str, value: &str) {
        match key {
            "runs" => self.sample_runs = value == "sample",
            "msort" => {
                let (name, direction) = value.split_once('.').unwrap_or((value, "desc"));
                if let Some(metric) = DELTA_METRICS.iter().position(|m| *m == name) {
                    self.sort = Some((metric, direction == "desc"));
                }
            }
            "pick" => {
                // Rows from 1, in the order picked; at most two, as the table picks.
                self.picked = value
                    .split('.')
                    .filter_map(|n| n.parse::<usize>().ok()?.checked_sub(1))
                    .take(2)
                    .collect();
            }
            _ => {}
        }
    }
}

impl ManyRuns {
    /// Whether the added runs are the built-in sample's (its runs after A and B).
    pub(crate) fn holds_sample(&self) -> bool {
        self.added.with(|added| {
            added.len() == SAMPLE_RUNS - 2
                && added
                    .iter()
                    .zip(3..)
                    .all(|(run, r)| run.name == sample_run_source(r))
        })
    }

    /// This table's parts of the page's link.
    pub(crate) fn hash_parts(&self) -> Vec<String> {
        let mut parts = Vec::new();
        if self.holds_sample() {
            parts.push("cmp.runs=sample".to_owned());
        }
        if let Some((metric, descending)) = self.sort.get() {
            let direction = if descending { ".desc" } else { ".asc" };
            if let Some(name) = DELTA_METRICS.get(metric) {
                parts.push(["cmp.msort=", name, direction].concat());
            }
        }
        self.picked.with(|picked| {
            if !picked.is_empty() {
                let rows: Vec<String> = picked.iter().map(|r| (r + 1).to_string()).collect();
                parts.push(["cmp.pick=", &rows.join(".")].concat());
            }
        });
        parts
    }

    /// Applies a link's order and picked rows (after its runs are loaded: adding a run
    /// clears the pick).
    pub(crate) fn apply_link(&self, link: &ManyLink) {
        if self.sort.get_untracked() != link.sort {
            self.sort.set(link.sort);
        }
        if self.picked.with_untracked(|p| *p != link.picked) {
            self.picked.set(link.picked.clone());
        }
    }
}

/// Runs `test` of `table` a slice at a time, yielding to the browser between slices,
/// until done or until a newer table (another `generation`) replaces it.
async fn run_test(
    table: Shared<ManyRunTable>,
    mut run: ManyRunTest,
    ticket: u64,
    generation: StoredValue<u64>,
    test: RwSignal<TestState>,
) {
    loop {
        if generation.try_get_value() != Some(ticket) {
            return;
        }
        let started = js_sys::Date::now();
        let done = loop {
            if run.advance(STEPS_PER_LOOK) {
                break true;
            }
            if js_sys::Date::now() - started > SLICE_MS {
                break false;
            }
        };
        if done {
            break;
        }
        show_progress(run.progress());
        next_task().await;
    }
    let significance = run.finish();
    let comparison = compare_many(&table, Some(&significance), 0);
    test.set(TestState::Done(table, Shared::new(comparison)));
}

/// The id of the line that shows the test's progress.
pub(crate) const PROGRESS_ID: &str = "compare-many-progress";

/// Writes the test's progress into its line directly: a signal set on every slice
/// would rebuild the table under the pointer (and swallow a click).
fn show_progress((done, all): (usize, usize)) {
    // Looked up from the body: the element's lookup is one the page already imports.
    let body = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.body());
    let line = body.and_then(|b| {
        b.query_selector(&["#", PROGRESS_ID].concat())
            .ok()
            .flatten()
    });
    if let Some(line) = line {
        let percent = (done * 100).checked_div(all).unwrap_or(0);
        line.set_text_content(Some(&["Testing: ", &percent.to_string(), "%"].concat()));
    }
}

/// The built-in runs' texts as (source name, text), run 1 first.
pub(crate) fn sample_documents(runs: Vec<String>) -> Vec<(String, Arc<str>)> {
    runs.into_iter()
        .enumerate()
        .map(|(r, text)| (sample_run_source(r + 1), Arc::from(text)))
        .collect()
}
