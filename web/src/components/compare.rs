//! The Compare tab: run A (the loaded batch) beside run B (loaded here, or the batch's
//! hybrid traces when it is split), both under the current knobs. Every number comes
//! from `ragtrace_core::runs`; the page lays it out, filters and sorts.

use crate::compare_state::{CompareState, PairSort, RunB, PASTED_B_SOURCE};
use crate::components::compare_pair::{PairTable, PairView};
use crate::components::error_panel::InputErrorItem;
use crate::components::golden::GoldenState;
use crate::format::{count, level_class, number, optional_number, LEVELS};
use crate::state::{AppState, Shared};
use leptos::html;
use leptos::prelude::*;
use ragtrace_core::golden::GoldenLevel;
use ragtrace_core::runs::golden_delta::{GoldenComparison, METRICS};
use ragtrace_core::runs::{Distribution, GroupSummary, RunComparison};
use std::sync::Arc;

/// Reads picked or dropped files as run B.
fn read_run_b(compare: CompareState, state: AppState, files: web_sys::FileList) {
    for i in 0..files.length() {
        let Some(file) = files.get(i) else { continue };
        let name = file.name();
        let promise = file.text();
        leptos::task::spawn_local(async move {
            match wasm_bindgen_futures::JsFuture::from(promise).await {
                Ok(text) => {
                    compare.add_document(name, Arc::from(text.as_string().unwrap_or_default()))
                }
                Err(_) => state
                    .notice
                    .set(Some([&name, " could not be read as text."].concat())),
            }
        });
    }
}

/// What the tab can show: nothing yet, a message, or the comparison.
#[derive(Debug, Clone, PartialEq)]
enum Shown {
    Empty,
    NoCommonQuery(String),
    Comparison,
}

#[component]
pub fn CompareView() -> impl IntoView {
    let compare = expect_context::<CompareState>();
    // By value: a knob move keeps the panels (and the table's scroll) and updates them.
    let shown = Memo::new(move |_| {
        compare.comparison.with(|c| match c {
            None => Shown::Empty,
            Some(c) => match &c.no_common_query {
                Some(message) => Shown::NoCommonQuery(message.clone()),
                None => Shown::Comparison,
            },
        })
    });
    view! {
        <div class="compare-view">
            <RunBInput/>
            {move || match shown.get() {
                Shown::Empty => view! {
                    <p class="empty" id="compare-empty">
                        "Load run B (paste, files, drop, or the paired sample), or split the loaded batch into its dense and hybrid traces."
                    </p>
                }
                    .into_any(),
                Shown::NoCommonQuery(message) => view! {
                    <section class="panel error-panel" role="alert" id="compare-no-common">
                        <h2>"Nothing to compare"</h2>
                        <p>{message}</p>
                    </section>
                }
                    .into_any(),
                Shown::Comparison => view! { <Comparison/> }.into_any(),
            }}
        </div>
    }
}

#[component]
fn RunBInput() -> impl IntoView {
    let state = expect_context::<AppState>();
    let golden = expect_context::<GoldenState>();
    let compare = expect_context::<CompareState>();
    let file_input = NodeRef::<html::Input>::new();
    let on_files = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        if let Some(files) = input.files() {
            read_run_b(compare, state, files);
        }
        input.set_value("");
    };
    let on_drop = move |ev: leptos::ev::DragEvent| {
        // Dropped here, the files are run B, not part of the loaded batch.
        ev.prevent_default();
        ev.stop_propagation();
        state.dragging.set(false);
        if let Some(files) = ev.data_transfer().and_then(|dt| dt.files()) {
            read_run_b(compare, state, files);
        }
    };
    let b_status = move || {
        compare.parsed_b.with(|b| {
            b.as_ref().map(|b| {
                let names: Vec<&str> = b.documents.iter().map(|d| d.source.as_str()).collect();
                [
                    "Run B: ",
                    &count(b.traces.len(), "trace", "traces"),
                    " from ",
                    &names.join(", "),
                ]
                .concat()
            })
        })
    };
    let b_errors = move || {
        compare
            .parsed_b
            .with(|b| b.as_ref().map(|b| b.errors.clone()).unwrap_or_default())
    };
    let split = move || compare.run_b.with(|b| *b == RunB::Split);
    view! {
        <section class="panel compare-input" aria-labelledby="compare-input-title">
            <div class="panel-title-row">
                <h2 id="compare-input-title">"Compare two runs"</h2>
                <label class="hint">
                    "RBO p "
                    <input
                        id="compare-rbo-p"
                        type="number"
                        min="0.5"
                        max="0.99"
                        step="0.01"
                        prop:value=move || compare.rbo_p.get().to_string()
                        on:change=move |ev| {
                            if let Some(p) = event_target_value(&ev)
                                .parse::<f64>()
                                .ok()
                                .filter(|p| *p > 0.0 && *p < 1.0)
                            {
                                compare.rbo_p.set(p);
                            }
                        }
                    />
                </label>
            </div>
            <p class="hint">
                "Run A is the loaded batch. Both runs are analysed under the knobs on the left."
            </p>
            <div class="row">
                <button type="button" id="compare-sample" on:click=move |_| compare.load_sample(state, golden)>
                    "Paired sample: dense vs hybrid, with cases"
                </button>
                <button
                    type="button"
                    id="compare-split"
                    aria-pressed=move || split().to_string()
                    title="Run A: the batch's dense traces; run B: its hybrid traces"
                    on:click=move |_| {
                        compare.run_b.set(RunB::Split);
                        compare.open_pair.set(None);
                    }
                >
                    "Split the batch: dense vs hybrid"
                </button>
                <button type="button" on:click=move |_| {
                    if let Some(input) = file_input.get() {
                        input.click();
                    }
                }>"Open run B files…"</button>
                <input
                    id="compare-file-input"
                    node_ref=file_input
                    class="visually-hidden"
                    type="file"
                    multiple
                    tabindex="-1"
                    aria-label="Run B files"
                    accept=".json,.jsonl,.ndjson,.txt,application/json,text/plain"
                    on:change=on_files
                />
                <button
                    type="button"
                    class="quiet"
                    on:click=move |_| {
                        compare.run_b.set(RunB::None);
                        compare.open_pair.set(None);
                    }
                >
                    "Clear run B"
                </button>
            </div>
            <div class="compare-drop" id="compare-drop" on:drop=on_drop>
                <textarea
                    id="compare-b-input"
                    spellcheck="false"
                    autocomplete="off"
                    aria-label="Run B: paste traces, or drop files here"
                    placeholder="Paste run B here, or drop run B's files on this box"
                    on:input=move |ev| {
                        let text = event_target_value(&ev);
                        compare.open_pair.set(None);
                        compare
                            .run_b
                            .set(if text.trim().is_empty() {
                                RunB::None
                            } else {
                                RunB::Documents(vec![(PASTED_B_SOURCE.to_owned(), Arc::from(text))])
                            });
                    }
                ></textarea>
            </div>
            <p class="hint" id="compare-b-status">
                {move || if split() { Some("Run A: the batch's dense traces; run B: its hybrid traces.".to_owned()) } else { b_status() }}
            </p>
            <ul class="input-errors">
                {move || b_errors().into_iter().map(|error| view! { <InputErrorItem error=error/> }).collect_view()}
            </ul>
        </section>
    }
}

/// The group the mode-pair filter picks (all pairs when none or when it is absent).
fn selected_group(c: &RunComparison, mode_pair: Option<&str>) -> Option<GroupSummary> {
    let wanted = mode_pair.unwrap_or("all");
    c.groups
        .iter()
        .find(|g| g.group == wanted)
        .or(c.groups.first())
        .cloned()
}

#[component]
fn Comparison() -> impl IntoView {
    let compare = expect_context::<CompareState>();
    let group = Memo::new(move |_| {
        compare.comparison.with(|c| {
            let c = c.as_ref()?;
            compare
                .controls
                .with(|ctl| selected_group(c, ctl.mode_pair.as_deref()))
        })
    });
    let summary = move || {
        compare.comparison.with(|c| {
            c.as_ref().map(|c| {
                [
                    count(c.pairs.len(), "pair", "pairs"),
                    " · unpaired: ".to_owned(),
                    c.unpaired_a.len().to_string(),
                    " in A, ".to_owned(),
                    c.unpaired_b.len().to_string(),
                    " in B".to_owned(),
                ]
                .concat()
            })
        })
    };
    let warnings = Memo::new(move |_| {
        compare
            .comparison
            .with(|c| c.as_ref().map(|c| c.warnings.clone()).unwrap_or_default())
    });
    let groups = Memo::new(move |_| {
        compare.comparison.with(|c| {
            c.as_ref()
                .map(|c| {
                    c.groups
                        .iter()
                        .skip(1)
                        .map(|g| g.group.clone())
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
        })
    });
    view! {
        <section class="panel compare-summary" aria-labelledby="compare-summary-title">
            <div class="panel-title-row">
                <h2 id="compare-summary-title">"Run A → run B"</h2>
                <span class="hint" id="compare-counts">{summary}</span>
                <label>
                    "Mode pair "
                    <select
                        id="compare-mode-pair"
                        on:change=move |ev| {
                            let value = event_target_value(&ev);
                            compare.controls.update(|c| c.mode_pair = (!value.is_empty()).then_some(value));
                        }
                    >
                        <option value="">"all"</option>
                        {move || {
                            groups
                                .get()
                                .into_iter()
                                .map(|g| {
                                    let selected = compare.controls.with_untracked(|c| c.mode_pair.as_deref() == Some(&g));
                                    view! { <option value=g.clone() selected=selected>{g.clone()}</option> }
                                })
                                .collect_view()
                        }}
                    </select>
                </label>
            </div>
            {move || warnings.get().into_iter().map(|w| view! { <p class="finding finding-warning">{w}</p> }).collect_view()}
            {move || group.get().map(|g| view! { <GroupView group=g/> })}
        </section>
        <GoldenDeltas/>
        <PairTable/>
        <PairView/>
    }
}

/// The level transition matrix and the overlap / RBO distributions of one group.
#[component]
fn GroupView(group: GroupSummary) -> impl IntoView {
    let matrix = group.level_transitions;
    let head = LEVELS
        .iter()
        .map(|l| view! { <th scope="col"><span class=level_class(l.as_str())>{l.as_str()}</span></th> })
        .collect_view();
    let rows = LEVELS
        .iter()
        .zip(matrix)
        .enumerate()
        .map(|(i, (l, row))| {
            let cells = row
                .into_iter()
                .enumerate()
                .map(|(j, n)| {
                    view! { <td class="count" class:diagonal=i == j class:zero=n == 0>{n}</td> }
                })
                .collect_view();
            view! {
                <tr data-level=l.as_str()>
                    <th scope="row"><span class=level_class(l.as_str())>{l.as_str()}</span></th>
                    {cells}
                </tr>
            }
        })
        .collect_view();
    let stats = [
        ("level improved", group.level_improved),
        ("level worsened", group.level_worsened),
        ("B kept none of A's documents", group.b_kept_none),
    ];
    view! {
        <div class="grid-2">
            <div class="scroll-x">
                <table class="matrix" id="compare-matrix" data-group=group.group.clone()>
                    <caption class="visually-hidden">"Rows: level in run A. Columns: level in run B."</caption>
                    <thead><tr><th scope="col">"A ↓ / B →"</th>{head}</tr></thead>
                    <tbody>{rows}</tbody>
                </table>
                <p class="hint" id="compare-level-changes">
                    {stats
                        .into_iter()
                        .map(|(label, n)| view! { <span data-stat=label>{label} ": " <strong>{n}</strong> " · "</span> })
                        .collect_view()}
                </p>
            </div>
            <Histograms overlap=group.overlap_docs rbo=group.rbo_ext/>
        </div>
    }
}

/// A bar of `n` out of `max`, drawn in SVG (no inline style: the page's CSP).
fn bar(n: usize, max: usize) -> impl IntoView {
    let width = if max == 0 { 0.0 } else { n as f64 / max as f64 };
    view! {
        <svg class="hbar" viewBox="0 0 1 1" preserveAspectRatio="none" aria-hidden="true">
            <rect width=width.to_string() height="1"></rect>
        </svg>
    }
}

#[component]
fn Histograms(overlap: Distribution, rbo: Distribution) -> impl IntoView {
    let max = overlap
        .histogram
        .iter()
        .chain(&rbo.histogram)
        .copied()
        .max()
        .unwrap_or(0);
    let rows = (0..10)
        .map(|i| {
            let (o, r) = (overlap.histogram[i], rbo.histogram[i]);
            let range = [
                number(i as f64 / 10.0),
                "–".to_owned(),
                number((i + 1) as f64 / 10.0),
            ]
            .concat();
            view! {
                <tr data-bin=i>
                    <th scope="row">{range}</th>
                    <td class="count">{o}</td>
                    <td class="bar-cell">{bar(o, max)}</td>
                    <td class="count">{r}</td>
                    <td class="bar-cell">{bar(r, max)}</td>
                </tr>
            }
        })
        .collect_view();
    let stat = |d: &Distribution| {
        [
            "mean ",
            &optional_number(d.mean),
            ", median ",
            &optional_number(d.median),
        ]
        .concat()
    };
    view! {
        <table class="counts compare-hist" id="compare-histogram">
            <thead>
                <tr>
                    <th scope="col">"range"</th>
                    <th scope="col" colspan="2">"overlap@k"</th>
                    <th scope="col" colspan="2">"RBO"</th>
                </tr>
            </thead>
            <tbody>{rows}</tbody>
            <tfoot>
                <tr>
                    <th scope="row">"pairs"</th>
                    <td colspan="2" data-stat="overlap">{overlap.count} " · " {stat(&overlap)}</td>
                    <td colspan="2" data-stat="rbo">{rbo.count} " · " {stat(&rbo)}</td>
                </tr>
            </tfoot>
        </table>
    }
}

const GOLDEN_LEVELS: [GoldenLevel; 4] = [
    GoldenLevel::Strong,
    GoldenLevel::Medium,
    GoldenLevel::Weak,
    GoldenLevel::Miss,
];

/// Per-metric means, deltas, win-tie-loss and (once computed) the significance; the
/// per-case level transitions.
#[component]
fn GoldenDeltas() -> impl IntoView {
    let compare = expect_context::<CompareState>();
    move || {
        compare.golden.get().map(|g| {
            view! { <GoldenTables golden=g/> }
        })
    }
}

#[component]
fn GoldenTables(golden: Shared<GoldenComparison>) -> impl IntoView {
    let compare = expect_context::<CompareState>();
    let current = golden.clone();
    let tested = move || {
        compare
            .significance
            .get()
            .filter(|(source, _)| *source == current)
            .map(|(_, tested)| tested)
    };
    let rows = golden
        .metrics
        .iter()
        .enumerate()
        .map(|(m, s)| {
            let wtl = [s.wins.to_string(), s.ties.to_string(), s.losses.to_string()].join(" / ");
            let tested = tested.clone();
            let significance = move || match tested().and_then(|t| t.metrics.get(m).and_then(|s| s.significance.clone())) {
                None => view! { <td colspan="3" class="pending">"pending…"</td> }.into_any(),
                Some(t) => {
                    let ci = ["[", &optional_number(t.ci_low), ", ", &optional_number(t.ci_high), "]"].concat();
                    view! {
                        <td data-col="ci">{ci}</td>
                        <td data-col="perm-p">{number(t.permutation_p)} " (" {number(t.permutation_p_holm)} ")"</td>
                        <td data-col="t-p">
                            {optional_number(t.t_test.map(|t| t.p))} " (" {number(t.t_test_p_holm)} ")"
                        </td>
                    }
                        .into_any()
                }
            };
            view! {
                <tr data-metric=METRICS[m]>
                    <th scope="row">{METRICS[m]}</th>
                    <td data-col="cases">{s.cases}</td>
                    <td data-col="mean-a">{optional_number(s.mean_a)}</td>
                    <td data-col="mean-b">{optional_number(s.mean_b)}</td>
                    <td data-col="delta">{optional_number(s.mean_difference)}</td>
                    <td data-col="wtl">{wtl}</td>
                    {significance}
                </tr>
            }
        })
        .collect_view();
    let transitions = GOLDEN_LEVELS
        .iter()
        .zip(golden.level_transitions)
        .map(|(l, row)| {
            view! {
                <tr>
                    <th scope="row"><span class=["golden-level golden-", l.as_str()].concat()>{l.as_str()}</span></th>
                    {row.into_iter().map(|n| view! { <td class="count" class:zero=n == 0>{n}</td> }).collect_view()}
                </tr>
            }
        })
        .collect_view();
    let regressions: Vec<String> = golden
        .cases
        .iter()
        .filter(|c| c.regression)
        .map(|c| {
            [
                &c.case_id,
                " (",
                c.level_a.as_str(),
                " → ",
                c.level_b.as_str(),
                ")",
            ]
            .concat()
        })
        .collect();
    let missing = golden.only_in_a.len() + golden.only_in_b.len();
    view! {
        <section class="panel compare-golden" aria-labelledby="compare-golden-title">
            <div class="panel-title-row">
                <h2 id="compare-golden-title">"Golden cases: A → B"</h2>
                <span class="hint" id="compare-golden-counts">
                    {count(golden.cases.len(), "case in both", "cases in both")}
                    " · regressions " {golden.regressions} " · improvements " {golden.improvements}
                    {(missing > 0).then(|| [" · missing from one run: ", &missing.to_string()].concat())}
                </span>
            </div>
            <div class="scroll-x">
                <table class="counts" id="compare-metrics">
                    <thead>
                        <tr>
                            <th scope="col">"metric"</th>
                            <th scope="col">"cases"</th>
                            <th scope="col">"mean A"</th>
                            <th scope="col">"mean B"</th>
                            <th scope="col">"Δ (B − A)"</th>
                            <th scope="col">"wins / ties / losses"</th>
                            <th scope="col">"95% CI of Δ"</th>
                            <th scope="col">"permutation p (Holm)"</th>
                            <th scope="col">"paired t p (Holm)"</th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
            <div class="grid-2">
                <table class="matrix" id="compare-golden-matrix">
                    <caption class="visually-hidden">"Rows: case level in run A. Columns: in run B."</caption>
                    <thead>
                        <tr>
                            <th scope="col">"A ↓ / B →"</th>
                            {GOLDEN_LEVELS.iter().map(|l| view! { <th scope="col">{l.as_str()}</th> }).collect_view()}
                        </tr>
                    </thead>
                    <tbody>{transitions}</tbody>
                </table>
                <div id="compare-regressions">
                    <strong>"Regressed cases: "</strong>
                    {if regressions.is_empty() { "none".to_owned() } else { regressions.join(", ") }}
                </div>
            </div>
        </section>
    }
}

/// Column header that sorts the pair table; a second click reverses.
#[component]
pub fn PairSortHeader(sort: PairSort, label: &'static str) -> impl IntoView {
    let compare = expect_context::<CompareState>();
    let mark = move || {
        compare
            .controls
            .with(|c| match (c.sort == sort, c.descending) {
                (false, _) => "none",
                (true, true) => "descending",
                (true, false) => "ascending",
            })
    };
    view! {
        <div role="columnheader" class="tcell" aria-sort=mark>
            <button
                type="button"
                class="sort"
                data-sort=sort.key()
                on:click=move |_| compare.controls.update(|c| {
                    c.descending = c.sort == sort && !c.descending;
                    c.sort = sort;
                })
            >
                {label}
                <span aria-hidden="true" class="sort-mark">
                    {move || match mark() {
                        "ascending" => "▲",
                        "descending" => "▼",
                        _ => "",
                    }}
                </span>
            </button>
        </div>
    }
}
