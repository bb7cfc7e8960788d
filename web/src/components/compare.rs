//! The Compare tab: run A (the loaded batch) beside run B (loaded here, or the batch's
//! hybrid traces when it is split), both under the current knobs. Every number comes
//! from `ragtrace_core::runs`; the page lays it out, filters and sorts.

use crate::components::compare_pair::{PairTable, PairView};
use crate::components::dom;
use crate::components::error_panel::InputErrorItem;
use crate::components::many_runs::{AddedRuns, ManyRunsTable};
use crate::components::panel_files;
use crate::format::{count, level_class, number, optional_number, LEVELS};
use crate::state::compare::{CompareState, RunB, PASTED_B_SOURCE};
use crate::state::golden::GoldenState;
use crate::state::AppState;
use leptos::html;
use leptos::prelude::*;
use ragtrace_core::{CaseDelta, GoldenComparison, DELTA_METRICS, METRIC_LABELS};
use ragtrace_core::{Distribution, GroupSummary, RunComparison};
use std::sync::Arc;
use web_sys::Element;

/// Reads picked or dropped files as run B.
fn read_run_b(compare: CompareState, state: AppState, files: web_sys::FileList) {
    for i in 0..files.length() {
        let Some(file) = files.get(i) else { continue };
        crate::state::loading::read_text(state, file, move |name, text| {
            compare.add_document(name, Arc::from(text))
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
pub(crate) fn CompareView() -> impl IntoView {
    let compare = expect_context::<CompareState>();
    // By value: a knob move keeps the panels (and the table's scroll) and updates them.
    let shown = Memo::new(move |_| {
        let ready = compare.comparison.with(Option::is_some);
        compare.pairing.with(|p| match p {
            Some(p) if p.no_common_query.is_some() => {
                Shown::NoCommonQuery(p.no_common_query.clone().unwrap_or_default())
            }
            Some(_) if ready => Shown::Comparison,
            _ => Shown::Empty,
        })
    });
    view! {
        <div class="compare-view">
            <RunBInput/>
            <AddedRuns/>
            <ManyRunsTable/>
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
    let take = move |files| read_run_b(compare, state, files);
    let on_files = panel_files::on_picked(take);
    let on_drop = panel_files::on_dropped(state, take);
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
                    on:change=on_files
                />
                <button
                    type="button"
                    class="quiet"
                    id="compare-clear-b"
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

use dom::Cell;

fn cell(text: impl Into<String>, col: &'static str) -> Cell {
    (text.into(), "", col)
}

/// `counts[i][j]` with rows and columns named by `names` (name, badge class).
fn matrix<const N: usize>(
    id: &str,
    names: [(&'static str, &'static str); N],
    counts: &[[usize; N]; N],
) -> Option<Element> {
    let mut head = vec!["A ↓ / B →"];
    head.extend(names.iter().map(|(n, _)| *n));
    let rows = names
        .iter()
        .zip(counts)
        .map(|(&(n, class), row)| {
            let mut cells = vec![(n.to_owned(), class, "")];
            cells.extend(row.iter().map(|c| cell(c.to_string(), n)));
            (n.to_owned(), cells)
        })
        .collect();
    dom::table(id, "matrix", &head, rows)
}

fn distribution_text(d: &Distribution) -> String {
    [
        &d.count.to_string(),
        " pairs · mean ",
        &optional_number(d.mean),
        " · median ",
        &optional_number(d.median),
    ]
    .concat()
}

/// A `<p>` with an id and text.
fn paragraph(id: &str, class: &str, text: &str) -> Option<Element> {
    let p = dom::el("p", class, text)?;
    dom::set(&p, "id", id);
    Some(p)
}

/// The group the mode-pair filter picks (all pairs when none, or when that mode pair is
/// absent).
fn picked_group<'c>(c: &'c RunComparison, mode_pair: Option<&str>) -> Option<&'c GroupSummary> {
    let wanted = mode_pair.unwrap_or("all");
    c.groups
        .iter()
        .find(|g| g.group == wanted)
        .or(c.groups.first())
}

/// `f` of the group the mode-pair filter picks in the current comparison.
fn read_group<T>(compare: CompareState, f: impl FnOnce(&GroupSummary) -> T) -> Option<T> {
    compare.comparison.with(|c| {
        compare
            .controls
            .with(|ctl| picked_group(c.as_ref()?, ctl.mode_pair.as_deref()).map(f))
    })
}

/// A group's level transitions and counts: what a knob that moves levels changes.
#[derive(Debug, Clone, PartialEq)]
struct GroupLevels {
    transitions: [[usize; 5]; 5],
    improved: usize,
    worsened: usize,
    b_kept_none: usize,
}

fn levels_view(g: &GroupLevels) -> Option<Element> {
    let levels = LEVELS.map(|l| (l.as_str(), level_class(l.as_str())));
    let stats = [
        "level improved: ",
        &g.improved.to_string(),
        " · level worsened: ",
        &g.worsened.to_string(),
        " · B kept none of A's documents: ",
        &g.b_kept_none.to_string(),
    ]
    .concat();
    Some(dom::add(
        dom::add(
            dom::el("div", "", "")?,
            matrix("compare-matrix", levels, &g.transitions),
        ),
        paragraph("compare-level-changes", "hint", &stats),
    ))
}

/// A group's overlap and RBO distributions: they change only with the blocks' decisions.
fn spread_view((overlap, rbo): &(Distribution, Distribution)) -> Option<Element> {
    let bins = (0..10)
        .map(|i| {
            let range = [
                number(i as f64 / 10.0),
                "–".to_owned(),
                number((i + 1) as f64 / 10.0),
            ]
            .concat();
            (
                i.to_string(),
                vec![
                    cell(range, "range"),
                    cell(overlap.histogram[i].to_string(), "overlap"),
                    cell(rbo.histogram[i].to_string(), "rbo"),
                ],
            )
        })
        .collect();
    let summary = [
        "overlap@k: ",
        &distribution_text(overlap),
        "; RBO: ",
        &distribution_text(rbo),
    ]
    .concat();
    Some(dom::add(
        dom::add(
            dom::el("div", "", "")?,
            dom::table(
                "compare-histogram",
                "counts",
                &["range", "overlap@k", "RBO"],
                bins,
            ),
        ),
        paragraph("compare-distribution", "hint", &summary),
    ))
}

#[component]
fn Comparison() -> impl IntoView {
    let compare = expect_context::<CompareState>();
    let summary = move || {
        compare.pairing.with(|p| {
            p.as_ref().map(|p| {
                [
                    count(p.links.len(), "pair", "pairs"),
                    " · unpaired: ".to_owned(),
                    p.unpaired_a.len().to_string(),
                    " in A, ".to_owned(),
                    p.unpaired_b.len().to_string(),
                    " in B".to_owned(),
                ]
                .concat()
            })
        })
    };
    // With more runs, the names of the two compared (the picked pair's, else A and B).
    let pair_title = move || {
        let (i, j) = compare.many.picked_pair().unwrap_or((0, 1));
        compare
            .many
            .runs
            .with(|runs| match (runs.len() > 2, runs.get(i), runs.get(j)) {
                (true, Some(a), Some(b)) => [a.name.as_str(), " → ", &b.name].concat(),
                _ => "Run A → run B".to_owned(),
            })
    };
    // The options change only with the runs' modes, not with knobs.
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
    let warnings = move || {
        compare
            .pairing
            .with(|p| p.as_ref().map(|p| p.warnings.join(" ")).unwrap_or_default())
    };
    // Each half of the group's panel is rebuilt only when its own numbers change: a
    // threshold or maxL2Distance moves levels, not the overlap and RBO distributions.
    let group_name = Memo::new(move |_| read_group(compare, |g| g.group.clone()));
    let group_levels = Memo::new(move |_| {
        read_group(compare, |g| GroupLevels {
            transitions: g.level_transitions,
            improved: g.level_improved,
            worsened: g.level_worsened,
            b_kept_none: g.b_kept_none,
        })
    });
    let group_spread =
        Memo::new(move |_| read_group(compare, |g| (g.overlap_docs.clone(), g.rbo_ext.clone())));
    view! {
        <section class="panel compare-summary" aria-labelledby="compare-summary-title">
            <div class="panel-title-row">
                <h2 id="compare-summary-title">{pair_title}</h2>
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
            <p class="finding">{warnings}</p>
            <div class="grid-2 compare-group" data-group=move || group_name.get()>
                {dom::host("compare-levels", move || group_levels.with(|g| levels_view(g.as_ref()?)))}
                {dom::host("compare-spread", move || group_spread.with(|g| spread_view(g.as_ref()?)))}
            </div>
        </section>
        <GoldenDeltas/>
        <PairTable/>
        <PairView/>
    }
}

const GOLDEN_LEVELS: [(&str, &str); 4] = [
    ("strong", "golden-level golden-strong"),
    ("medium", "golden-level golden-medium"),
    ("weak", "golden-level golden-weak"),
    ("miss", "golden-level golden-miss"),
];

/// Per-metric means, deltas, win-tie-loss and (once computed after the paint) the
/// significance; the per-case level transitions.
#[component]
fn GoldenDeltas() -> impl IntoView {
    let compare = expect_context::<CompareState>();
    dom::host("compare-golden-host", move || {
        let golden = compare.golden.get()?;
        let tested = compare.significance.with(|t| {
            t.as_ref()
                .filter(|(source, _)| *source == golden)
                .map(|(_, t)| t.clone())
        });
        golden_view(&golden, tested.as_deref())
    })
}

fn golden_view(golden: &GoldenComparison, tested: Option<&GoldenComparison>) -> Option<Element> {
    let head = [
        "metric",
        "cases",
        "mean A",
        "mean B",
        "Δ (B − A)",
        "wins / ties / losses",
        "95% CI of Δ",
        "permutation p (Holm)",
        "paired t p (Holm)",
    ];
    let rows = golden
        .metrics
        .iter()
        .enumerate()
        .map(|(m, s)| {
            let wtl = [s.wins.to_string(), s.ties.to_string(), s.losses.to_string()].join(" / ");
            let mut cells = vec![
                cell(METRIC_LABELS[m], ""),
                cell(s.cases.to_string(), "cases"),
                cell(optional_number(s.mean_a), "mean-a"),
                cell(optional_number(s.mean_b), "mean-b"),
                cell(optional_number(s.mean_difference), "delta"),
                cell(wtl, "wtl"),
            ];
            match tested.and_then(|t| t.metrics.get(m)?.significance.as_ref()) {
                None => cells.extend(
                    ["ci", "perm-p", "t-p"].map(|col| ("pending…".to_owned(), "pending", col)),
                ),
                Some(t) => cells.extend([
                    cell(
                        [
                            "[",
                            &optional_number(t.ci_low),
                            ", ",
                            &optional_number(t.ci_high),
                            "]",
                        ]
                        .concat(),
                        "ci",
                    ),
                    cell(
                        [
                            number(t.permutation_p),
                            " (".to_owned(),
                            number(t.permutation_p_holm),
                            ")".to_owned(),
                        ]
                        .concat(),
                        "perm-p",
                    ),
                    cell(
                        [
                            optional_number(t.t_test.map(|t| t.p)),
                            " (".to_owned(),
                            number(t.t_test_p_holm),
                            ")".to_owned(),
                        ]
                        .concat(),
                        "t-p",
                    ),
                ]),
            }
            (DELTA_METRICS[m].to_owned(), cells)
        })
        .collect();
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
    let counts = [
        count(
            golden.cases.len(),
            "case in both runs",
            "cases in both runs",
        ),
        " · regressions ".to_owned(),
        golden.regressions.to_string(),
        " · improvements ".to_owned(),
        golden.improvements.to_string(),
        " · missing from one run ".to_owned(),
        (golden.only_in_a.len() + golden.only_in_b.len()).to_string(),
    ]
    .concat();
    let regressions = [
        "Regressed cases: ",
        &if regressions.is_empty() {
            "none".to_owned()
        } else {
            regressions.join(", ")
        },
    ]
    .concat();
    let title = dom::add(
        dom::add(
            dom::el("div", "panel-title-row", "")?,
            dom::el("h2", "", "Golden cases: A → B"),
        ),
        paragraph("compare-golden-counts", "hint", &counts),
    );
    let grid = dom::add(
        dom::add(
            dom::el("div", "grid-2", "")?,
            matrix(
                "compare-golden-matrix",
                GOLDEN_LEVELS,
                &golden.level_transitions,
            ),
        ),
        paragraph("compare-regressions", "", &regressions),
    );
    let section = dom::el("section", "panel compare-golden", "")?;
    Some(dom::add(
        dom::add(
            dom::add(
                dom::add(section, Some(title)),
                dom::table("compare-metrics", "counts", &head, rows),
            ),
            Some(grid),
        ),
        case_deltas(golden),
    ))
}

/// Case rows the per-case delta table lists; the others are counted.
const LISTED_CASE_DELTAS: usize = 100;

/// The cases whose level or some metric changed from A to B, with every metric's delta
/// (graded nDCG and MAP@k included), in B's order.
fn case_deltas(golden: &GoldenComparison) -> Option<Element> {
    let changed: Vec<&CaseDelta> = golden
        .cases
        .iter()
        .filter(|c| c.level_a != c.level_b || c.metrics.iter().any(|v| v.delta != 0.0))
        .collect();
    let labels = METRIC_LABELS.map(|label| ["Δ ", label].concat());
    let mut head = vec!["case", "level A → B"];
    head.extend(labels.iter().map(String::as_str));
    let rows = changed
        .iter()
        .take(LISTED_CASE_DELTAS)
        .map(|c| {
            let mut cells = vec![
                cell(
                    [
                        c.case_id.as_str(),
                        if c.regression { " (regression)" } else { "" },
                    ]
                    .concat(),
                    "case",
                ),
                cell(
                    [c.level_a.as_str(), " → ", c.level_b.as_str()].concat(),
                    "levels",
                ),
            ];
            cells.extend(
                c.metrics
                    .iter()
                    .zip(DELTA_METRICS)
                    .map(|(v, key)| cell(number(v.delta), key)),
            );
            (c.case_id.clone(), cells)
        })
        .collect();
    let mut counted = [
        count(
            changed.len(),
            "case changed from A to B",
            "cases changed from A to B",
        ),
        if changed.len() > LISTED_CASE_DELTAS {
            [" (the first ", &LISTED_CASE_DELTAS.to_string(), " listed)"].concat()
        } else {
            String::new()
        },
    ]
    .concat();
    if changed.is_empty() {
        counted = "No case changed from A to B.".to_owned();
    }
    let out = dom::add(
        dom::el("div", "compare-case-deltas", "")?,
        paragraph("compare-case-delta-count", "hint", &counted),
    );
    if changed.is_empty() {
        return Some(out);
    }
    Some(dom::add(
        out,
        dom::table("compare-case-deltas", "counts", &head, rows),
    ))
}
