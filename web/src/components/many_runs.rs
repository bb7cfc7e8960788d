//! The Compare tab's further runs and, with three or more, the runs x metrics table:
//! each run's mean of every metric with its compact letters and bootstrap interval
//! (the core's `compare_many`), sortable by a metric; two runs picked in it open as the
//! pair below.

use crate::components::sort_header::{sort_header, ColumnSort};
use crate::format::{count, number};
use crate::state::compare::many_runs::{ManyTable, SAMPLE_RUNS};
use crate::state::compare::CompareState;
use crate::state::golden::GoldenState;
use crate::state::AppState;
use leptos::html;
use leptos::prelude::*;
use ragtrace_core::{ManyRunComparison, DELTA_METRICS, MOST_RUNS};

/// Reads picked or dropped files as one more run (all of them its files).
fn read_run(compare: CompareState, state: AppState, files: web_sys::FileList) {
    let files: Vec<web_sys::File> = (0..files.length()).filter_map(|i| files.get(i)).collect();
    if files.is_empty() {
        return;
    }
    leptos::task::spawn_local(async move {
        let mut documents = Vec::with_capacity(files.len());
        for file in files {
            match crate::browser::file_text(&file).await {
                Ok(text) => documents.push((file.name(), text)),
                Err(error) => {
                    state.notice.set(Some(
                        [&file.name(), " could not be read: ", &error].concat(),
                    ));
                    return;
                }
            }
        }
        if !compare.many.add_run(documents) {
            state.notice.set(Some(
                [
                    "At most ",
                    &MOST_RUNS.to_string(),
                    " runs can be compared at once: remove one to add another.",
                ]
                .concat(),
            ));
        }
    });
}

/// The runs besides A and B: add (files, drop, the sample), list, remove.
#[component]
pub(crate) fn AddedRuns() -> impl IntoView {
    let state = expect_context::<AppState>();
    let golden = expect_context::<GoldenState>();
    let compare = expect_context::<CompareState>();
    let many = compare.many;
    let file_input = NodeRef::<html::Input>::new();
    let on_files = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        if let Some(files) = input.files() {
            read_run(compare, state, files);
        }
        input.set_value("");
    };
    let on_drop = move |ev: leptos::ev::DragEvent| {
        // Dropped here, the files are a run of their own, not part of the loaded batch.
        ev.prevent_default();
        ev.stop_propagation();
        state.dragging.set(false);
        if let Some(files) = ev.data_transfer().and_then(|dt| dt.files()) {
            read_run(compare, state, files);
        }
    };
    let runs = move || {
        many.runs.with(|runs| {
            runs.iter()
                .enumerate()
                .map(|(r, run)| {
                    let letter = char::from(b'A' + (r % 26) as u8).to_string();
                    let traces = count(run.batch.traces.len(), "trace", "traces");
                    let unread = run.batch.errors.len();
                    let unread = (unread > 0)
                        .then(|| [" · ", &count(unread, "part", "parts"), " unreadable"].concat());
                    // Runs A and B come from above; the added ones follow them.
                    let first_added = runs.len() - many.added.with(Vec::len).min(runs.len());
                    let removable = r
                        .checked_sub(first_added)
                        .and_then(|at| many.added.with(|added| added.get(at).map(|a| a.id)));
                    view! {
                        <li data-run=r>
                            <strong>{letter}</strong>
                            " "
                            <span class="run-name">{run.name.clone()}</span>
                            <span class="hint">" · " {traces} {unread}</span>
                            {removable.map(|id| view! {
                                <button
                                    type="button"
                                    class="quiet remove-run"
                                    aria-label=["Remove run ", &run.name].concat()
                                    on:click=move |_| many.remove_run(id)
                                >
                                    "Remove"
                                </button>
                            })}
                        </li>
                    }
                })
                .collect_view()
        })
    };
    view! {
        <section class="panel compare-runs" aria-labelledby="compare-runs-title">
            <div class="panel-title-row">
                <h2 id="compare-runs-title">"More runs"</h2>
            </div>
            <div class="row">
                <button type="button" id="compare-many-sample" on:click=move |_| compare.load_many_sample(state, golden)>
                    {["Sample runs: ", &SAMPLE_RUNS.to_string(), " runs with cases"].concat()}
                </button>
                <button type="button" id="compare-add-run" on:click=move |_| {
                    if let Some(input) = file_input.get() {
                        input.click();
                    }
                }>"Add a run's files…"</button>
                <input
                    id="compare-run-input"
                    node_ref=file_input
                    class="visually-hidden"
                    type="file"
                    multiple
                    tabindex="-1"
                    aria-label="Run files"
                    accept=".json,.jsonl,.ndjson,.txt,application/json,text/plain"
                    on:change=on_files
                />
            </div>
            <div class="compare-drop compare-run-drop" id="compare-run-drop" on:drop=on_drop>
                <p class="hint">"Drop a run's files here"</p>
            </div>
            <ol class="compare-run-list" id="compare-run-list">{runs}</ol>
        </section>
    }
}

/// `[low, high]` of an interval.
pub fn interval(ci: [f64; 2]) -> String {
    ["[", &number(ci[0]), ", ", &number(ci[1]), "]"].concat()
}

/// The runs in the table's order: by the chosen metric's mean (ties keep the runs'
/// order), else the runs' order.
fn ordered(means: &ManyRunComparison, sort: Option<(usize, bool)>) -> Vec<usize> {
    let mut rows: Vec<usize> = (0..means.runs.len()).collect();
    if let Some((metric, descending)) = sort {
        if let Some(m) = means.metrics.get(metric) {
            rows.sort_by(|&i, &j| {
                let order = m.means[i].total_cmp(&m.means[j]);
                if descending {
                    order.reverse()
                } else {
                    order
                }
            });
        }
    }
    rows
}

/// The column headers' names.
const METRIC_LABELS: [&str; 5] = ["hit", "recall@k", "P@k", "MRR", "nDCG@k"];

#[component]
pub(crate) fn ManyRunsTable() -> impl IntoView {
    let compare = expect_context::<CompareState>();
    let many = compare.many;
    let shown = move || match many.table.get() {
        ManyTable::Off => None,
        ManyTable::NoCases => Some(
            view! {
                <p class="hint" id="compare-many-no-cases">
                    "Load golden cases to rank the runs."
                </p>
            }
            .into_any(),
        ),
        ManyTable::Invalid(message) => Some(
            view! {
                <p class="finding error" role="alert" id="compare-many-error">{message}</p>
            }
            .into_any(),
        ),
        ManyTable::Ready(_) => Some(view! { <RunsByMetrics/> }.into_any()),
    };
    view! {
        <Show when=move || many.table.with(|t| *t != ManyTable::Off)>
            <section class="panel compare-many" id="compare-many" aria-labelledby="compare-many-title">
                <div class="panel-title-row">
                    <h2 id="compare-many-title">"All runs"</h2>
                    <span class="hint">"Pick two runs to compare them below"</span>
                </div>
                {shown}
            </section>
        </Show>
    }
}

#[component]
fn RunsByMetrics() -> impl IntoView {
    let compare = expect_context::<CompareState>();
    let many = compare.many;
    // The tested comparison when it is of the current table, else the means alone.
    let shown = Memo::new(move |_| {
        let means = many.means.get()?;
        let current = many.ready.get();
        let tested = many.tested.with(|t| {
            t.as_ref()
                .filter(|(table, _)| current.as_ref() == Some(table))
                .map(|(_, c)| c.clone())
        });
        Some((tested.is_some(), tested.unwrap_or(means)))
    });
    let headers = (0..DELTA_METRICS.len())
        .map(|m| {
            let sorted = move || {
                many.sort.with(|s| {
                    ColumnSort::of(s.is_some_and(|(k, _)| k == m), s.is_some_and(|(_, d)| d))
                })
            };
            // First click: best first; a second reverses.
            let sort = move || {
                many.sort
                    .update(|s| *s = Some((m, !matches!(*s, Some((k, true)) if k == m))))
            };
            sort_header(METRIC_LABELS[m], DELTA_METRICS[m], sorted, sort)
        })
        .collect_view();
    let rows = move || {
        let Some((done, c)) = shown.get() else {
            return Vec::new();
        };
        let picked = many.selected.get();
        ordered(&c, many.sort.get())
            .into_iter()
            .map(|r| {
                let cells = c
                    .metrics
                    .iter()
                    .map(|m| {
                        let mean = number(m.means[r]);
                        let (letters, ci) = match (&m.ci, done) {
                            (Some(ci), true) => (m.letters[r].clone(), interval(ci[r])),
                            _ => ("pending…".to_owned(), "pending…".to_owned()),
                        };
                        let class = if done { "" } else { "pending" };
                        view! {
                            <div role="cell" class="tcell" data-metric=m.metric>
                                <span class="mean">{mean}</span>
                                " "
                                <span class=["letters ", class].concat()>{letters}</span>
                                " "
                                <span class=["ci ", class].concat()>{ci}</span>
                            </div>
                        }
                    })
                    .collect_view();
                let is_picked = picked.contains(&r);
                let order = picked.iter().position(|&p| p == r).map(|at| ["A", "B"][at.min(1)]);
                view! {
                    <div role="row" class="trow" class:open=is_picked data-run=r>
                        <div role="cell" class="tcell run">
                            <label class="check">
                                <input
                                    type="checkbox"
                                    class="pick-run"
                                    data-run=r
                                    prop:checked=is_picked
                                    on:change=move |_| {
                                        many.toggle(r);
                                        compare.open_pair.set(None);
                                    }
                                />
                                {c.runs[r].clone()}
                                {order.map(|o| view! { <span class="hint">{[" (", o, ")"].concat()}</span> })}
                            </label>
                        </div>
                        {cells}
                    </div>
                }
            })
            .collect::<Vec<_>>()
    };
    let counts = move || {
        shown.with(|s| {
            s.as_ref().map(|(_, c)| {
                let answered: Vec<String> = c
                    .runs
                    .iter()
                    .zip(&c.cases.answered)
                    .map(|(name, n)| [name.as_str(), " ", &n.to_string()].concat())
                    .collect();
                [
                    count(c.cases.common, "case in common", "cases in common"),
                    " · answered: ".to_owned(),
                    answered.join(", "),
                ]
                .concat()
            })
        })
    };
    let notes = move || {
        shown.with(|s| {
            s.as_ref()
                .map(|(_, c)| c.notes.clone())
                .unwrap_or_default()
                .into_iter()
                .map(|note| view! { <li class="finding">{note}</li> })
                .collect_view()
        })
    };
    let progress = move || {
        if shown.with(|s| s.as_ref().is_some_and(|(done, _)| *done)) {
            return "Runs sharing a letter do not differ (Tukey HSD, p < 0.05); [95% CI]"
                .to_owned();
        }
        let (done, all) = many.progress.get();
        let percent = (done * 100).checked_div(all).unwrap_or(0);
        ["Testing: ", &percent.to_string(), "%"].concat()
    };
    view! {
        <p class="hint" id="compare-many-counts">{counts}</p>
        <p class="hint" id="compare-many-progress">{progress}</p>
        <div class="vtable many-table" role="table" aria-label="Runs by metrics" id="compare-many-table">
            <div role="rowgroup" class="vtable-head">
                <div role="row" class="trow head">
                    <div role="columnheader" class="tcell">"run"</div>
                    {headers}
                </div>
            </div>
            <div role="rowgroup">{rows}</div>
        </div>
        <ul class="input-errors" id="compare-many-notes">{notes}</ul>
    }
}
