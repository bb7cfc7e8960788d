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
    ManyRunTest, ParsedBatch, SignificanceOptions, MOST_RUNS,
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
    Ready(Shared<ManyRunTable>),
}

/// The test's progress: (steps done, steps in all).
pub(crate) type Progress = (usize, usize);

/// The many-run part of the Compare tab's state.
#[derive(Clone, Copy)]
pub(crate) struct ManyRuns {
    pub added: RwSignal<Vec<AddedRun>>,
    /// Every run in order (A, B when loaded, then the added ones), analysed.
    pub runs: Memo<Vec<Run>>,
    pub table: Memo<ManyTable>,
    /// The table when it is ready, the same allocation while its values stay the same.
    pub ready: Memo<Option<Shared<ManyRunTable>>>,
    /// Means and wins / ties / losses of the current table, at once.
    pub means: Memo<Option<Shared<ManyRunComparison>>>,
    /// (the table tested, the comparison with its test), once the test finished;
    /// pending while absent or while its table is not the current one.
    pub tested: RwSignal<Option<(Shared<ManyRunTable>, Shared<ManyRunComparison>)>>,
    pub progress: RwSignal<Progress>,
    /// The rows picked to open as a pair, in the order picked (at most two).
    pub selected: RwSignal<Vec<usize>>,
    /// The table's order: (metric index, descending); `None` is the runs' order.
    pub sort: RwSignal<Option<(usize, bool)>>,
    next_id: StoredValue<u64>,
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
    pub(crate) fn new(state: AppState, golden: GoldenState, first_two: Memo<Vec<Run>>) -> Self {
        let added = RwSignal::new(Vec::<AddedRun>::new());
        let added_analyses = Memo::new(move |previous: Option<&Vec<Shared<Analysis>>>| {
            added.with(|added| {
                let settings = state.settings.get();
                let mut analysed = Vec::with_capacity(added.len());
                for (r, run) in added.iter().enumerate() {
                    // `reanalyze` analyses afresh when the previous analysis at this
                    // place is of another batch (a run was removed before it).
                    let last = previous.and_then(|p| p.get(r));
                    let again = match last {
                        Some(last) => last.reanalyze(&run.batch, &settings),
                        None => analyze(&run.batch, &settings, false),
                    };
                    match again {
                        Ok(analysis) => analysed.push(Shared::new(analysis)),
                        // Invalid knobs: keep the last valid analyses, as the other tabs do.
                        Err(_) => return previous.cloned().unwrap_or_default(),
                    }
                }
                if let Some(previous) = previous {
                    drop_after_paint(previous.clone());
                }
                analysed
            })
        });
        let runs = Memo::new(move |_| {
            let mut runs = first_two.get();
            let analyses = added_analyses.get();
            added.with(|added| {
                runs.extend(added.iter().zip(analyses).map(|(run, analysis)| Run {
                    name: run.name.clone(),
                    batch: run.batch.clone(),
                    analysis,
                }))
            });
            runs
        });
        let reports = evaluations(golden, runs);
        // Names and batches: what the table reads besides the reports (a knob move
        // changes neither).
        let inputs = Memo::new(move |_| {
            runs.with(|runs| {
                runs.iter()
                    .map(|r| (r.name.clone(), r.batch.clone()))
                    .collect::<Vec<_>>()
            })
        });
        let table = Memo::new(move |_| {
            if inputs.with(|r| r.len() < 3) {
                return ManyTable::Off;
            }
            let Some(reports) = reports.get() else {
                return ManyTable::NoCases;
            };
            inputs.with(|inputs| {
                let batches: Vec<(&str, &ParsedBatch)> = inputs
                    .iter()
                    .map(|(name, batch)| (name.as_str(), &**batch))
                    .collect();
                let named: Vec<(&str, &GoldenReport)> = inputs
                    .iter()
                    .zip(&reports)
                    .map(|((name, _), report)| (name.as_str(), &**report))
                    .collect();
                let table = check_many_batches(&batches).and_then(|collisions| {
                    let mut table = ManyRunTable::from_reports(&named)?;
                    table.notes.extend(collisions);
                    Ok(table)
                });
                match table {
                    Ok(table) => ManyTable::Ready(Shared::new(table)),
                    Err(error) => ManyTable::Invalid(error.message),
                }
            })
        });
        // A knob move that leaves every run's values as they were keeps the table (and
        // its test): compared by value, not by allocation.
        let ready = Memo::new(move |previous: Option<&Option<Shared<ManyRunTable>>>| {
            let current = table.with(|t| match t {
                ManyTable::Ready(table) => Some(table.clone()),
                _ => None,
            });
            match (previous, current) {
                (Some(Some(previous)), Some(current)) if **previous == *current => {
                    Some(previous.clone())
                }
                (_, current) => current,
            }
        });
        let means = Memo::new(move |_| {
            ready.with(|t| {
                t.as_ref()
                    .map(|table| Shared::new(compare_many(table, None, 0)))
            })
        });
        let tested = RwSignal::new(None);
        let progress = RwSignal::new((0, 0));
        let generation = StoredValue::new(0u64);
        Effect::new(move |_| {
            let current = ready.get();
            generation.update_value(|g| *g += 1);
            let Some(table) = current else {
                return;
            };
            if state.shown_view.get() != View::Compare {
                return;
            }
            if tested.with_untracked(|t: &Option<(Shared<ManyRunTable>, _)>| {
                t.as_ref().is_some_and(|(done, _)| *done == table)
            }) {
                return;
            }
            let ticket = generation.get_value();
            let test = ManyRunTest::new(&table, &SignificanceOptions::default());
            progress.set(test.progress());
            // Never on the frame of the input: after it is painted, in slices.
            after_paint(move || {
                leptos::task::spawn_local(run_test(
                    table, test, ticket, generation, tested, progress,
                ))
            });
        });
        ManyRuns {
            added,
            runs,
            table,
            ready,
            means,
            tested,
            progress,
            selected: RwSignal::new(Vec::new()),
            sort: RwSignal::new(None),
            next_id: StoredValue::new(0),
        }
    }

    /// Adds a run of `documents` (source name, text), named from its first file and
    /// made unique; `false` when the comparison already has the most runs it takes.
    pub(crate) fn add_run(&self, documents: Vec<(String, String)>) -> bool {
        let count = self.runs.with_untracked(Vec::len);
        if documents.is_empty() || count >= MOST_RUNS {
            return false;
        }
        let names: Vec<String> = self
            .runs
            .with_untracked(|runs| runs.iter().map(|r| r.name.clone()).collect());
        let taken: Vec<&str> = names.iter().map(String::as_str).collect();
        let name = unique_name(&documents[0].0, &taken);
        let batch = Shared::new(parse_documents(&documents));
        let id = self.next_id.get_value();
        self.next_id.set_value(id + 1);
        self.added
            .update(|added| added.push(AddedRun { id, name, batch }));
        self.selected.set(Vec::new());
        true
    }

    pub(crate) fn remove_run(&self, id: u64) {
        self.added.update(|added| added.retain(|r| r.id != id));
        self.selected.set(Vec::new());
    }

    /// Replaces the added runs with those of the built-in sample (runs 3 to 5; runs 1
    /// and 2 are A and B). Generated here, when asked for: the sample's text is not
    /// part of the page.
    pub(crate) fn sample(&self) -> (Vec<String>, String) {
        generate_many_runs(SAMPLE_RUNS, SAMPLE_QUERIES, SAMPLE_CANDIDATES, SAMPLE_SEED)
    }

    /// Picks or unpicks row `run`; with two picked, they open as a pair.
    pub(crate) fn toggle(&self, run: usize) {
        self.selected.update(|picked| {
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

    /// The two runs picked, as (A, B) of the pair view.
    pub(crate) fn picked_pair(&self) -> Option<(usize, usize)> {
        self.selected.with(|picked| match picked.as_slice() {
            &[a, b] => Some((a, b)),
            _ => None,
        })
    }
}

/// Each run's golden evaluation against the cases, redone for a run only when its
/// accepted lists change (what `golden::evaluation` does for one run); `None` without
/// cases or with fewer than three runs (the two-run view evaluates its own).
fn evaluations(
    golden: GoldenState,
    runs: Memo<Vec<Run>>,
) -> Memo<Option<Vec<Shared<GoldenReport>>>> {
    // Compared by value: a knob that moves no accepted list notifies nothing further.
    let accepted = Memo::new(move |_| {
        runs.with(|runs| {
            if runs.len() < 3 {
                return Vec::new();
            }
            runs.iter()
                .map(|r| r.analysis.accepted_lists())
                .collect::<Vec<AcceptedLists>>()
        })
    });
    // The lists each report was made from, to keep the reports of unchanged runs.
    let made_from = StoredValue::new(Vec::<(Shared<ParsedBatch>, AcceptedLists)>::new());
    Memo::new(
        move |previous: Option<&Option<Vec<Shared<GoldenReport>>>>| {
            let Some(Ok(cases)) = golden.cases.get() else {
                made_from.set_value(Vec::new());
                return None;
            };
            let lists = accepted.get();
            if lists.is_empty() {
                return None;
            }
            let previous = previous.cloned().flatten().unwrap_or_default();
            // The previous reports hold only for the same cases.
            let same_cases = golden
                .cases
                .with_untracked(|c| matches!(c, Some(Ok(c)) if *c == cases));
            let before = made_from.get_value();
            let reports = runs.with_untracked(|runs| {
                runs.iter()
                    .zip(lists.iter())
                    .enumerate()
                    .map(|(r, (run, lists))| {
                        let kept =
                            before
                                .get(r)
                                .zip(previous.get(r))
                                .filter(|((batch, was), _)| {
                                    same_cases && *batch == run.batch && was == lists
                                });
                        match kept {
                            Some((_, report)) => report.clone(),
                            None => {
                                #[cfg(feature = "test-hooks")]
                                crate::test_hooks::GOLDEN_EVALUATIONS
                                    .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                                Shared::new(evaluate_analysis(&cases, &run.analysis))
                            }
                        }
                    })
                    .collect::<Vec<_>>()
            });
            made_from.set_value(
                runs.with_untracked(|runs| {
                    runs.iter().map(|r| r.batch.clone()).collect::<Vec<_>>()
                })
                .into_iter()
                .zip(lists)
                .collect(),
            );
            Some(reports)
        },
    )
}

/// Runs `test` of `table` a slice at a time, yielding to the browser between slices,
/// until done or until a newer table (another `generation`) replaces it.
async fn run_test(
    table: Shared<ManyRunTable>,
    mut test: ManyRunTest,
    ticket: u64,
    generation: StoredValue<u64>,
    tested: RwSignal<Option<(Shared<ManyRunTable>, Shared<ManyRunComparison>)>>,
    progress: RwSignal<Progress>,
) {
    loop {
        if generation.try_get_value() != Some(ticket) {
            return;
        }
        let started = js_sys::Date::now();
        let done = loop {
            if test.advance(STEPS_PER_LOOK) {
                break true;
            }
            if js_sys::Date::now() - started > SLICE_MS {
                break false;
            }
        };
        progress.set(test.progress());
        if done {
            break;
        }
        next_task().await;
    }
    let significance = test.finish();
    let comparison = compare_many(&table, Some(&significance), 0);
    tested.set(Some((table, Shared::new(comparison))));
}

/// The built-in runs' texts as (source name, text), run 1 first.
pub(crate) fn sample_documents(runs: Vec<String>) -> Vec<(String, Arc<str>)> {
    runs.into_iter()
        .enumerate()
        .map(|(r, text)| (sample_run_source(r + 1), Arc::from(text)))
        .collect()
}
