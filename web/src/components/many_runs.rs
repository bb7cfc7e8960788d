//! The Compare tab's further runs and, with three or more, the runs x metrics table:
//! each run's mean of every metric with its compact letters and bootstrap interval
//! (the core's `compare_many`), sortable by a metric; two runs picked in it open as the
//! pair below. Built as plain DOM (`dom`) with one listener per panel: a typed view per
//! row and cell would cost code in the page's first module too.

use crate::components::dom;
use crate::components::panel_files;
use crate::format::{count, number};
use crate::state::compare::many_runs::{ManyRuns, ManyTable, PROGRESS_ID, SAMPLE_RUNS};
use crate::state::compare::CompareState;
use crate::state::golden::GoldenState;
use crate::state::AppState;
use leptos::html;
use leptos::prelude::*;
use ragtrace_core::{ManyRunComparison, DELTA_METRICS, METRIC_LABELS, MOST_RUNS};
use wasm_bindgen::JsCast;
use web_sys::Element;

/// Reads picked or dropped files as one more run (all of them its files). Each file's
/// read starts now: a picker's or a drop's file list is emptied after the event.
fn read_run(compare: CompareState, state: AppState, files: web_sys::FileList) {
    let reads: Vec<(String, wasm_bindgen_futures::JsFuture)> = (0..files.length())
        .filter_map(|i| files.get(i))
        .map(|file| {
            (
                file.name(),
                wasm_bindgen_futures::JsFuture::from(file.text()),
            )
        })
        .collect();
    if reads.is_empty() {
        return;
    }
    leptos::task::spawn_local(async move {
        let mut documents = Vec::with_capacity(reads.len());
        for (name, read) in reads {
            match read.await {
                Ok(text) => documents.push((name, text.as_string().unwrap_or_default())),
                Err(error) => {
                    let error = crate::browser::describe(&error);
                    state
                        .notice
                        .set(Some([&name, " could not be read: ", &error].concat()));
                    return;
                }
            }
        }
        if !compare.many.add_run(state, documents) {
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

/// The element an event reached that matches `selector`, and its attribute `name`.
fn target_attribute(ev: &leptos::ev::MouseEvent, selector: &str, name: &str) -> Option<String> {
    let target: Element = ev.target()?.dyn_into().ok()?;
    target.closest(selector).ok()??.get_attribute(name)
}

/// The list of runs: A, B, then the added ones (with a Remove button each).
fn run_list(many: ManyRuns) -> Option<Element> {
    let list = dom::el("ol", "compare-run-list", "")?;
    dom::set(&list, "id", "compare-run-list");
    let added = many
        .added
        .with(|added| added.iter().map(|a| a.id).collect::<Vec<_>>());
    many.runs.with(|runs| {
        let first_added = runs.len().saturating_sub(added.len());
        runs.iter().enumerate().try_fold(list, |list, (r, run)| {
            let item = dom::el("li", "", "")?;
            dom::set(&item, "data-run", &r.to_string());
            let letter = char::from(b'A' + (r % 26) as u8).to_string();
            let mut facts = [" · ", &count(run.batch.traces.len(), "trace", "traces")].concat();
            if !run.batch.errors.is_empty() {
                facts.push_str(
                    &[
                        " · ",
                        &count(
                            run.batch
                                .errors
                                .len()
                                .saturating_add(ragtrace_core::omitted_total(
                                    &run.batch.errors_omitted,
                                )),
                            "part",
                            "parts",
                        ),
                        " unreadable",
                    ]
                    .concat(),
                );
            }
            let mut item = dom::add(
                dom::add(
                    dom::add(item, dom::el("strong", "", &[&letter, " "].concat())),
                    dom::el("span", "run-name", &run.name),
                ),
                dom::el("span", "hint", &facts),
            );
            if let Some(id) = r.checked_sub(first_added).and_then(|at| added.get(at)) {
                let remove = dom::el("button", "quiet remove-run", "Remove")?;
                dom::set(&remove, "type", "button");
                dom::set(&remove, "data-remove", &id.to_string());
                dom::set(&remove, "aria-label", &["Remove run ", &run.name].concat());
                item = dom::add(item, Some(remove));
            }
            Some(dom::add(list, Some(item)))
        })
    })
}

/// The runs besides A and B: add (files, drop, the sample), list, remove.
#[component]
pub(crate) fn AddedRuns() -> impl IntoView {
    let state = expect_context::<AppState>();
    let golden = expect_context::<GoldenState>();
    let compare = expect_context::<CompareState>();
    let many = compare.many;
    let file_input = NodeRef::<html::Input>::new();
    let take = move |files| read_run(compare, state, files);
    let on_files = panel_files::on_picked(take);
    let on_drop = panel_files::on_dropped(state, take);
    // One listener for the panel's buttons.
    let on_click = move |ev: leptos::ev::MouseEvent| {
        if let Some(id) = target_attribute(&ev, "[data-remove]", "data-remove") {
            if let Ok(id) = id.parse() {
                many.remove_run(id);
            }
        } else if target_attribute(&ev, "button", "id").as_deref() == Some("compare-many-sample") {
            compare.load_many_sample(state, golden);
        } else if target_attribute(&ev, "button", "id").as_deref() == Some("compare-add-run") {
            if let Some(input) = file_input.get() {
                input.click();
            }
        }
    };
    view! {
        <section class="panel compare-runs" aria-labelledby="compare-runs-title" on:click=on_click>
            <div class="panel-title-row">
                <h2 id="compare-runs-title">"More runs"</h2>
            </div>
            <div class="row">
                <button type="button" id="compare-many-sample">
                    {["Sample runs: ", &SAMPLE_RUNS.to_string(), " runs with cases"].concat()}
                </button>
                <button type="button" id="compare-add-run">"Add a run's files…"</button>
                <input
                    id="compare-run-input"
                    node_ref=file_input
                    class="visually-hidden"
                    type="file"
                    multiple
                    tabindex="-1"
                    aria-label="Run files"
                    on:change=on_files
                    // The button's click opens the picker with a click on this input:
                    // bubbling up, it would re-enter the panel's listener while it runs.
                    on:click=|ev| ev.stop_propagation()
                />
            </div>
            <div class="compare-drop compare-run-drop" id="compare-run-drop" on:drop=on_drop>
                <p class="hint">"Drop a run's files here"</p>
            </div>
            {dom::host("compare-run-list-host", move || run_list(many))}
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

/// An element with attributes.
fn with(e: Option<Element>, attributes: &[(&str, &str)]) -> Option<Element> {
    let e = e?;
    for (name, value) in attributes {
        dom::set(&e, name, value);
    }
    Some(e)
}

/// The header cell of a metric: sorts by it (the sort header's markup).
fn metric_header(m: usize, sort: Option<(usize, bool)>) -> Option<Element> {
    let (aria, mark) = match sort {
        Some((k, false)) if k == m => ("ascending", "▲"),
        Some((k, true)) if k == m => ("descending", "▼"),
        _ => ("none", ""),
    };
    let cell = with(
        dom::el("div", "tcell", ""),
        &[("role", "columnheader"), ("aria-sort", aria)],
    );
    let button = with(
        dom::el("button", "sort", METRIC_LABELS[m]),
        &[
            ("type", "button"),
            ("data-sort", DELTA_METRICS[m]),
            ("data-metric", &m.to_string()),
        ],
    )?;
    let button = dom::add(
        button,
        with(
            dom::el("span", "sort-mark", mark),
            &[("aria-hidden", "true")],
        ),
    );
    Some(dom::add(cell?, Some(button)))
}

/// The runs x metrics table of `c` (`tested`: with its letters and intervals).
fn runs_table(
    c: &ManyRunComparison,
    tested: bool,
    picked: &[usize],
    sort: Option<(usize, bool)>,
) -> Option<Element> {
    let table = with(
        dom::el("div", "vtable many-table", ""),
        &[
            ("role", "table"),
            ("aria-label", "Runs by metrics"),
            ("id", "compare-many-table"),
        ],
    )?;
    let head = with(dom::el("div", "trow head", ""), &[("role", "row")])?;
    let mut head = dom::add(
        head,
        with(dom::el("div", "tcell", "run"), &[("role", "columnheader")]),
    );
    for m in 0..DELTA_METRICS.len() {
        head = dom::add(head, metric_header(m, sort));
    }
    let mut table = dom::add(table, Some(head));
    let pending = if tested { "" } else { " pending" };
    for r in ordered(c, sort) {
        let at = picked.iter().position(|&p| p == r);
        let row = with(
            dom::el("div", if at.is_some() { "trow open" } else { "trow" }, ""),
            &[("role", "row"), ("data-run", &r.to_string())],
        )?;
        let pick = with(
            dom::el("input", "pick-run", ""),
            &[
                ("type", "checkbox"),
                ("data-run", &r.to_string()),
                ("checked", if at.is_some() { "checked" } else { "" }),
            ],
        );
        let mut label = dom::add(
            dom::add(dom::el("label", "check", "")?, pick),
            dom::el("span", "", &c.runs[r]),
        );
        if let Some(at) = at {
            label = dom::add(label, dom::el("span", "hint", ["(A)", "(B)"][at.min(1)]));
        }
        let mut row = dom::add(
            row,
            Some(dom::add(
                with(dom::el("div", "tcell run", ""), &[("role", "cell")])?,
                Some(label),
            )),
        );
        for metric in &c.metrics {
            let (letters, ci) = match (&metric.ci, tested) {
                (Some(ci), true) => (metric.letters[r].clone(), interval(ci[r])),
                _ => ("pending…".to_owned(), "pending…".to_owned()),
            };
            let cell = with(
                dom::el("div", "tcell", ""),
                &[("role", "cell"), ("data-metric", metric.metric)],
            )?;
            let cell = dom::add(
                dom::add(
                    dom::add(cell, dom::el("span", "mean", &number(metric.means[r]))),
                    dom::el("span", &["letters", pending].concat(), &letters),
                ),
                dom::el("span", &["ci", pending].concat(), &ci),
            );
            row = dom::add(row, Some(cell));
        }
        table = dom::add(table, Some(row));
    }
    Some(table)
}

/// The panel: a sentence when the runs cannot be ranked, else the table, its counts
/// and the core's notes.
fn many_panel(many: ManyRuns) -> Option<Element> {
    let section = with(
        dom::el("section", "panel compare-many", ""),
        &[
            ("id", "compare-many"),
            ("aria-labelledby", "compare-many-title"),
        ],
    )?;
    let title = dom::add(
        dom::add(
            dom::el("div", "panel-title-row", "")?,
            with(
                dom::el("h2", "", "All runs"),
                &[("id", "compare-many-title")],
            ),
        ),
        dom::el("span", "hint", "Pick two runs to compare them below"),
    );
    let section = dom::add(section, Some(title));
    let body = match many.table.with(|t| match t {
        ManyTable::Off => Err(None),
        ManyTable::NoCases => Err(with(
            dom::el("p", "hint", "Load golden cases to rank the runs."),
            &[("id", "compare-many-no-cases")],
        )),
        ManyTable::Invalid(message) => Err(with(
            dom::el("p", "finding error", message),
            &[("id", "compare-many-error"), ("role", "alert")],
        )),
        ManyTable::Ready(..) => Ok(()),
    }) {
        Err(None) => return None,
        Err(note) => return Some(dom::add(section, note)),
        Ok(()) => many.shown()?,
    };
    let (tested, c) = body;
    let answered: Vec<String> = c
        .runs
        .iter()
        .zip(&c.cases.answered)
        .map(|(name, n)| [name.as_str(), " ", &n.to_string()].concat())
        .collect();
    let counts = [
        count(c.cases.common, "case in common", "cases in common"),
        " · answered: ".to_owned(),
        answered.join(", "),
    ]
    .concat();
    let (picked, sort) = (many.picked.get(), many.sort.get());
    let notes = c.notes.iter().fold(
        with(
            dom::el("ul", "input-errors", ""),
            &[("id", "compare-many-notes")],
        )?,
        |list, note| dom::add(list, dom::el("li", "finding", note)),
    );
    // The test's progress is written into this line as it runs.
    let test_line = if tested {
        "Runs sharing a letter do not differ (Tukey HSD, p < 0.05); [95% CI]"
    } else {
        "Testing: 0%"
    };
    let section = dom::add(
        dom::add(
            section,
            with(
                dom::el("p", "hint", &counts),
                &[("id", "compare-many-counts")],
            ),
        ),
        with(dom::el("p", "hint", test_line), &[("id", PROGRESS_ID)]),
    );
    Some(dom::add(
        dom::add(section, runs_table(&c, tested, &picked, sort)),
        Some(notes),
    ))
}

#[component]
pub(crate) fn ManyRunsTable() -> impl IntoView {
    let compare = expect_context::<CompareState>();
    let many = compare.many;
    // Rebuilt when the table, its order or picks change, or the test starts or ends.
    let on_click = move |ev: leptos::ev::MouseEvent| {
        if let Some(m) = target_attribute(&ev, "button.sort", "data-metric")
            .and_then(|m| m.parse::<usize>().ok())
        {
            // First click: best first; a second reverses.
            many.sort
                .update(|s| *s = Some((m, !matches!(*s, Some((k, true)) if k == m))));
        } else if let Some(r) =
            target_attribute(&ev, "input.pick-run", "data-run").and_then(|r| r.parse().ok())
        {
            many.toggle(r);
            compare.open_pair.set(None);
        }
    };
    view! {
        <div class="compare-many-host" on:click=on_click>
            {dom::host("compare-many-panel", move || many_panel(many))}
        </div>
    }
}
