//! The trace list: filter, sort, open a trace. Virtualised (`virtual_rows`: only
//! the rows in view exist in the DOM, in a scroll container of fixed row height),
//! so it stays smooth with 100,000 traces.

use crate::components::sort_header::{self, ColumnSort};
use crate::components::virtual_rows::{row_window_view, RowWindow, ROW_HEIGHT};
use crate::format::{self, level_class, LEVELS};
use crate::state::{AppState, ListControls, ModeFilter, Shared, Sort, SortKey, View};
use leptos::prelude::*;
use ragtrace_core::same_batch;
use ragtrace_core::{Analysis, Level, TraceAnalysis};
use std::cmp::Ordering;
use wasm_bindgen::JsCast;

fn compare(a: &TraceAnalysis, b: &TraceAnalysis, key: SortKey) -> Ordering {
    match key {
        SortKey::Position => a.trace.position.cmp(&b.trace.position),
        SortKey::Name => a.name().cmp(&b.name()),
        SortKey::Mode => format::mode(a.mode()).cmp(format::mode(b.mode())),
        SortKey::Recorded => {
            let level = |t: &TraceAnalysis| {
                t.trace
                    .recorded_relevance_level
                    .as_deref()
                    .map(Level::parse)
            };
            level(a).cmp(&level(b)).then_with(|| {
                a.trace
                    .recorded_relevance_level
                    .cmp(&b.trace.recorded_relevance_level)
            })
        }
        SortKey::Level => a.relevance_level.cmp(&b.relevance_level),
        SortKey::TopQuality => match (a.top_quality, b.top_quality) {
            (Some(x), Some(y)) => x.total_cmp(&y),
            (x, y) => x.is_some().cmp(&y.is_some()),
        },
        SortKey::Accepted => a.stages.accepted.cmp(&b.stages.accepted),
        SortKey::Candidates => a.stages.candidates.cmp(&b.stages.candidates),
    }
}

/// Indices into `analysis.traces` that pass the filters, in the chosen order.
pub fn visible_rows(
    analysis: &Analysis,
    baseline: Option<&Analysis>,
    controls: &ListControls,
) -> Vec<usize> {
    let changed = |i: usize, t: &TraceAnalysis| match baseline {
        Some(b) => b
            .traces
            .get(i)
            .is_some_and(|bt| bt.relevance_level != t.relevance_level),
        None => t.level_differs,
    };
    #[cfg(feature = "test-hooks")]
    crate::counters::LIST_WALKS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut rows: Vec<usize> = analysis
        .traces
        .iter()
        .enumerate()
        .filter(|(i, t)| {
            controls.level.is_none_or(|l| t.relevance_level == l)
                // Without a mode filter the trace itself is not read (in a large
                // batch each read is a cache miss).
                && (controls.mode == ModeFilter::All || controls.mode.accepts(t.mode()))
                && (!controls.changed_only || changed(*i, t))
        })
        .map(|(i, _)| i)
        .collect();
    if controls.sort.key != SortKey::Position || controls.sort.descending {
        let traces = &analysis.traces;
        // Stable: ties stay in batch order, whichever direction.
        rows.sort_by(|&a, &b| {
            let ord = compare(&traces[a], &traces[b], controls.sort.key);
            if controls.sort.descending {
                ord.reverse()
            } else {
                ord
            }
        });
    }
    rows
}

fn csv_cell(text: &str) -> String {
    // A leading =, +, - or @ would be run as a formula by spreadsheet programs.
    let guarded = if text.starts_with(['=', '+', '-', '@']) {
        format!("'{text}")
    } else {
        text.to_owned()
    };
    if guarded.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", guarded.replace('"', "\"\""))
    } else {
        guarded
    }
}

/// The trace list as CSV: one row per trace in batch order, values as the core computed them.
pub fn csv(analysis: &Analysis) -> String {
    let mut out = String::from(
        "position,name,source,mode,query,lookupQuery,categoryFilter,recordedRelevanceLevel,relevanceLevel,levelDiffers,topQuality,recordedLowQuality,lowQuality,retryUnfiltered,candidates,invalid,duplicates,docCapped,returnNCut,accepted\n",
    );
    for t in &analysis.traces {
        let cells = [
            t.trace.position.to_string(),
            csv_cell(&t.name()),
            csv_cell(&t.trace.source),
            format::mode(t.mode()).to_owned(),
            csv_cell(t.trace.query.as_deref().unwrap_or("")),
            csv_cell(t.trace.lookup_query.as_deref().unwrap_or("")),
            csv_cell(t.trace.category_filter.as_deref().unwrap_or("")),
            csv_cell(t.trace.recorded_relevance_level.as_deref().unwrap_or("")),
            t.relevance_level.as_str().to_owned(),
            t.level_differs.to_string(),
            t.top_quality.map(|q| q.to_string()).unwrap_or_default(),
            t.trace
                .recorded_low_quality
                .map(|b| b.to_string())
                .unwrap_or_default(),
            t.low_quality.to_string(),
            t.retry_unfiltered.to_string(),
            t.stages.candidates.to_string(),
            t.stages.invalid.to_string(),
            t.stages.duplicates.to_string(),
            t.stages.doc_capped.to_string(),
            t.stages.return_n_cut.to_string(),
            t.stages.accepted.to_string(),
        ];
        out.push_str(&cells.join(","));
        out.push('\n');
    }
    out
}

#[component]
pub fn TraceList() -> impl IntoView {
    let state = expect_context::<AppState>();
    let baseline = Memo::new(move |_| state.baseline_analysis.get().and_then(Result::ok));
    // Compared by content: a knob change that leaves the filtered, ordered list as
    // it was (the usual case) then leaves the rows' structure alone, and only the
    // cells that show computed values update their text.
    //
    // With controls that read nothing the settings compute (the default: batch order,
    // no level filter), the rows follow the batch and the controls alone: a knob move
    // does not walk the list at all.
    let rows = Memo::new(move |previous: Option<&Shared<Vec<usize>>>| {
        let reads_computed = state.list.with(ListControls::reads_computed);
        let analysis = if reads_computed {
            state.analysis.get()
        } else {
            state.analysis_batch.track();
            state.analysis.get_untracked()
        };
        let Some(analysis) = analysis else {
            return Shared::new(Vec::new());
        };
        // A baseline of another batch pairs unrelated traces: it is left out.
        let baseline = baseline.get().filter(|b| same_batch(b, &analysis));
        let rows = state
            .list
            .with(|controls| visible_rows(&analysis, baseline.as_deref(), controls));
        match previous {
            Some(previous) if **previous == rows => previous.clone(),
            _ => Shared::new(rows),
        }
    });
    let total = move || {
        state
            .analysis
            .with(|a| a.as_ref().map_or(0, |a| a.traces.len()))
    };

    view! {
        <section class="panel trace-list" aria-labelledby="trace-list-title">
            <div class="panel-title-row">
                <h2 id="trace-list-title">"Traces"</h2>
                <span class="hint" id="trace-list-count">
                    {move || format!("{} of {}", rows.with(|r| r.len()), total())}
                </span>
            </div>
            <ListFilters/>
            <p class="visually-hidden" id="trace-list-keys">
                "Up and down arrows move between traces, Home and End to the first and last, Enter opens one."
            </p>
            <VirtualTable rows=rows baseline=baseline/>
        </section>
    }
}

#[component]
fn ListFilters() -> impl IntoView {
    let state = expect_context::<AppState>();
    let set = move |f: &dyn Fn(&mut ListControls)| state.list.update(|c| f(c));
    view! {
        <div class="filters">
            <label>
                "Level "
                <select
                    id="filter-level"
                    on:change=move |ev| {
                        let level = Level::parse(&event_target_value(&ev));
                        set(&|c| c.level = level);
                    }
                >
                    <option value="" selected=move || state.list.with(|c| c.level.is_none())>
                        "all"
                    </option>
                    {LEVELS
                        .iter()
                        .map(|&l| {
                            view! {
                                <option
                                    value=l.as_str()
                                    selected=move || state.list.with(|c| c.level == Some(l))
                                >
                                    {l.as_str()}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
            </label>
            <label>
                "Mode "
                <select
                    id="filter-mode"
                    on:change=move |ev| {
                        let mode = match event_target_value(&ev).as_str() {
                            "dense" => ModeFilter::Dense,
                            "hybrid" => ModeFilter::Hybrid,
                            "unknown" => ModeFilter::Unknown,
                            _ => ModeFilter::All,
                        };
                        set(&|c| c.mode = mode);
                    }
                >
                    {[
                        ("", "all", ModeFilter::All),
                        ("dense", "dense", ModeFilter::Dense),
                        ("hybrid", "hybrid", ModeFilter::Hybrid),
                        ("unknown", "unknown", ModeFilter::Unknown),
                    ]
                        .into_iter()
                        .map(|(value, text, mode)| {
                            view! {
                                <option value=value selected=move || state.list.with(|c| c.mode == mode)>
                                    {text}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
            </label>
            <label class="check">
                <input
                    id="filter-changed"
                    type="checkbox"
                    prop:checked=move || state.list.with(|c| c.changed_only)
                    on:change=move |ev| {
                        let on = event_target_checked(&ev);
                        set(&|c| c.changed_only = on);
                    }
                />
                {move || {
                    if state.baseline.with(Option::is_some) {
                        "changed only (vs baseline)"
                    } else {
                        "changed only (vs recorded)"
                    }
                }}
            </label>
        </div>
    }
}

/// The header of a column the list can be sorted by; a second click reverses.
fn sort_header(state: AppState, key: SortKey, label: &'static str) -> impl IntoView {
    let sorted = move || {
        state
            .list
            .with(|c| ColumnSort::of(c.sort.key == key, c.sort.descending))
    };
    let sort = move || {
        state.list.update(|c| {
            c.sort = Sort {
                key,
                descending: c.sort.key == key && !c.sort.descending,
            };
        })
    };
    sort_header::sort_header(label, crate::persist::sort_key_name(key), sorted, sort)
}

#[component]
fn VirtualTable(
    rows: Memo<Shared<Vec<usize>>>,
    baseline: Memo<Option<Shared<Analysis>>>,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    let window = RowWindow::new(rows);
    let viewport = NodeRef::<leptos::html::Div>::new();
    // The aria-rowindex of the row that holds (or is to get) the focus, if any.
    let focus_row_index = StoredValue::new(None::<usize>);
    let pinned = move || baseline.with(Option::is_some);

    view! {
        <div
            class="vtable"
            class:with-baseline=pinned
            role="table"
            aria-label="Traces"
            aria-rowcount=move || (rows.with(|r| r.len()) + 1).to_string()
        >
            <div role="rowgroup" class="vtable-head">
                <div role="row" class="trow head" aria-rowindex="1">
                    {sort_header(state, SortKey::Position, "#")}
                    {sort_header(state, SortKey::Name, "trace")}
                    {sort_header(state, SortKey::Mode, "mode")}
                    {sort_header(state, SortKey::Recorded, "recorded")}
                    {sort_header(state, SortKey::Level, "recomputed")}
                    {sort_header(state, SortKey::TopQuality, "top quality")}
                    {sort_header(state, SortKey::Accepted, "accepted")}
                    {sort_header(state, SortKey::Candidates, "candidates")}
                    <div role="columnheader" class="tcell">"gates"</div>
                    <Show when=pinned>
                        <div role="columnheader" class="tcell">"baseline"</div>
                    </Show>
                </div>
            </div>
            <div
                class="vtable-viewport"
                role="rowgroup"
                tabindex="0"
                aria-label="Trace rows, scrollable"
                aria-describedby="trace-list-keys"
                node_ref=viewport
                on:keydown=move |ev| {
                    let len = rows.with_untracked(|r| r.len());
                    move_between_rows(ev, len, window, focus_row_index)
                }
                on:focusin=move |ev| {
                    focus_row_index.try_set_value(row_index_of(&event_target(&ev)));
                }
                on:scroll=move |ev| window.scrolled_to(&event_target(&ev))
            >
                {row_window_view(window, move || {
                            let (first, last) = window.range();
                            keep_row_focus(viewport, focus_row_index);
                            // The rows' structure follows the batch, the window, the list
                            // and the baseline; the analysis itself only updates cells. Read,
                            // not only tracked, so the lazy memo is brought up to date.
                            state.analysed_batch.with(|_| ());
                            let baseline = baseline.get();
                            let rows = rows.get();
                            state.analysis.with_untracked(|analysis| {
                                let (Some(analysis), Some(slice)) =
                                    (analysis, rows.get(first..last))
                                else {
                                    return Vec::new();
                                };
                                slice
                                    .iter()
                                    .enumerate()
                                    .filter_map(|(offset, &index)| {
                                        let t = analysis.traces.get(index)?;
                                        let base = baseline.as_ref().and_then(|b| b.traces.get(index));
                                        Some(trace_row(state, t, index, first + offset, base))
                                    })
                                    .collect::<Vec<_>>()
                            })
                        })}
            </div>
        </div>
    }
}

/// Arrow keys, Home and End in the list's scroll container move the focus between
/// rows (their buttons, which Enter opens); the list is one tab stop. A row outside
/// the rendered window is scrolled to first and focused once it is rendered.
fn move_between_rows(
    ev: leptos::ev::KeyboardEvent,
    len: usize,
    window: RowWindow,
    focus_row_index: StoredValue<Option<usize>>,
) {
    let Some(viewport) = ev
        .current_target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
    else {
        return;
    };
    let key = ev.key();
    if len == 0 || !matches!(key.as_str(), "ArrowDown" | "ArrowUp" | "Home" | "End") {
        return;
    }
    let focused = focus_row_index
        .get_value()
        .and_then(|index| index.checked_sub(2));
    let first_in_view = (viewport.scroll_top() / ROW_HEIGHT) as usize;
    let target = match (key.as_str(), focused) {
        ("Home", _) => 0,
        ("End", _) => len - 1,
        ("ArrowDown", Some(row)) => row + 1,
        ("ArrowUp", Some(row)) => row.saturating_sub(1),
        _ => first_in_view,
    }
    .min(len - 1);
    ev.prevent_default();
    let top = target as i32 * ROW_HEIGHT;
    let height = viewport.client_height();
    if top < viewport.scroll_top() {
        viewport.set_scroll_top(top);
    } else if top + ROW_HEIGHT > viewport.scroll_top() + height {
        viewport.set_scroll_top(top + ROW_HEIGHT - height);
    }
    // Claimed before the rows are rebuilt for the new scroll position.
    focus_row_index.set_value(Some(target + 2));
    window.scrolled_to(&viewport);
    focus_row(&viewport, target + 2);
}

/// A row's place in the shown list, as its aria-rowindex (2 = the first row).
fn row_index_of(el: &web_sys::Element) -> Option<usize> {
    let row = el.closest(".vtable-window .trow").ok()??;
    row.get_attribute("aria-rowindex")?.parse().ok()
}

/// Focuses the button of the row at `row_index` if it is rendered, without
/// scrolling (the callers have scrolled as needed).
fn focus_row(viewport: &web_sys::Element, row_index: usize) -> bool {
    let selector = format!(".trow[aria-rowindex=\"{row_index}\"] button");
    let Some(button) = viewport
        .query_selector(&selector)
        .ok()
        .flatten()
        .and_then(|b| b.dyn_into::<web_sys::HtmlElement>().ok())
    else {
        return false;
    };
    focus_in_place(&button);
    true
}

fn focus_in_place(el: &web_sys::HtmlElement) {
    let options = web_sys::FocusOptions::new();
    options.set_prevent_scroll(true);
    let _ = el.focus_with_options(&options);
}

/// The window's rows are rebuilt (or reused for other traces) whenever it moves,
/// which would drop the focus or leave it on another trace: once they are, the
/// row that claims the focus gets it back (the list itself, if that row has left
/// the window), unless the focus has gone elsewhere.
fn keep_row_focus(
    viewport: NodeRef<leptos::html::Div>,
    focus_row_index: StoredValue<Option<usize>>,
) {
    if focus_row_index.get_value().is_none() {
        return;
    }
    request_animation_frame(move || {
        // The list may be gone by now (another view opened).
        let (Some(Some(viewport)), Some(Some(row_index))) = (
            viewport.try_get_untracked(),
            focus_row_index.try_get_value(),
        ) else {
            return;
        };
        let active = document().active_element();
        if active.as_ref().and_then(row_index_of) == Some(row_index) {
            return;
        }
        let in_list = active.as_ref().is_none_or(|el| {
            viewport.contains(Some(el.as_ref()))
                || document().body().is_some_and(|body| *body == *el)
        });
        if in_list && !focus_row(&viewport, row_index) {
            focus_in_place(&viewport);
        }
    });
}

/// What a row shows of the current analysis: all a knob move can change in it.
#[derive(Debug, Clone, PartialEq, Default)]
struct RowValues {
    level: &'static str,
    differs: bool,
    top_quality: String,
    accepted: usize,
    gates: &'static str,
}

impl RowValues {
    fn of(t: &TraceAnalysis) -> RowValues {
        let gates = match (t.low_quality, t.retry_unfiltered) {
            (true, true) => "lowQuality retry",
            (true, false) => "lowQuality",
            (false, true) => "retry",
            (false, false) => "",
        };
        RowValues {
            level: t.relevance_level.as_str(),
            differs: t.level_differs,
            top_quality: format::optional_number(t.top_quality),
            accepted: t.stages.accepted,
            gates,
        }
    }
}

/// One row. `t` gives what knob changes leave alone (position, name, mode, the
/// recorded level, the candidate count); the recomputed values are read from the
/// current analysis by the row's memo, so a knob change updates text and classes in
/// place instead of rebuilding the row, and only in the rows whose values it changed.
fn trace_row(
    state: AppState,
    t: &TraceAnalysis,
    index: usize,
    row: usize,
    baseline: Option<&TraceAnalysis>,
) -> AnyView {
    // The current analysis is the one `t` came from or a recomputation of the same
    // batch (same traces, same order), so `index` stays valid; a new batch rebuilds the rows.
    // One subscriber of the analysis per row, not one per cell: a source's subscribers
    // are removed one at a time by shifting the rest, so hundreds of cells re-subscribing
    // on each knob move cost time that grew with their square.
    let values = Memo::new(move |_| {
        state.analysis.with(|a| {
            a.as_ref()
                .and_then(|a| a.traces.get(index))
                .map(RowValues::of)
                .unwrap_or_default()
        })
    });
    let level = move || values.with(|v| v.level);
    let differs = move || values.with(|v| v.differs);
    let recorded = t
        .trace
        .recorded_relevance_level
        .as_deref()
        .map(str::to_owned);
    let open = move |_| state.view.set(View::Trace(index));
    let gates = move || values.with(|v| v.gates);
    let base_cell = baseline.map(|b| {
        let then = b.relevance_level.as_str();
        view! {
            <div role="cell" class="tcell" class:changed=move || then != level()>
                <span class=level_class(then)>{then}</span>
            </div>
        }
    });
    view! {
        <div
            role="row"
            class="trow"
            class:differs=differs
            aria-rowindex=(row + 2).to_string()
            data-index=index.to_string()
            on:click=open
        >
            <div role="cell" class="tcell num">{t.trace.position}</div>
            <div role="cell" class="tcell name">
                <button type="button" class="link" tabindex="-1" title=t.trace.query.as_deref().unwrap_or("").to_owned()>
                    {t.name().into_owned()}
                </button>
            </div>
            <div role="cell" class="tcell">{format::mode(t.mode())}</div>
            <div role="cell" class="tcell">
                {recorded.map(|r| view! { <span class=level_class(&r)>{r.clone()}</span> })}
            </div>
            <div role="cell" class="tcell" data-col="level">
                <span class=move || level_class(level())>{level}</span>
                {move || differs().then(|| view! { <span class="flag" title="differs from recorded">"≠"</span> })}
            </div>
            <div role="cell" class="tcell num">
                {move || values.with(|v| v.top_quality.clone())}
            </div>
            <div role="cell" class="tcell num">{move || values.with(|v| v.accepted.to_string())}</div>
            <div role="cell" class="tcell num">{t.stages.candidates}</div>
            <div role="cell" class="tcell gates">{gates}</div>
            {base_cell}
        </div>
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ragtrace_core::parse_documents;
    use ragtrace_core::{analyze, Settings};

    fn sample() -> Analysis {
        let docs = [
            (
                "dense.json".to_owned(),
                crate::SAMPLE_DENSE_TRACE.to_owned(),
            ),
            (
                "lookup.jsonl".to_owned(),
                crate::SAMPLE_LOOKUP_RESULTS.to_owned(),
            ),
        ];
        analyze(&parse_documents(&docs), &Settings::default(), false).unwrap()
    }

    #[test]
    fn csv_has_one_row_per_trace_and_quotes_text() {
        let analysis = sample();
        let csv = csv(&analysis);
        assert_eq!(csv.lines().count(), analysis.traces.len() + 1);
        assert!(csv.contains(",<script>alert('x')</script> payroll export,"));
        assert_eq!(csv_cell("=1+1"), "'=1+1");
        assert_eq!(csv_cell("a,\"b\""), "\"a,\"\"b\"\"\"");
    }

    #[test]
    fn filters_and_sorts() {
        let analysis = sample();
        let all = visible_rows(&analysis, None, &ListControls::default());
        assert_eq!(all, (0..analysis.traces.len()).collect::<Vec<_>>());
        let mut controls = ListControls {
            sort: Sort {
                key: SortKey::Position,
                descending: true,
            },
            ..ListControls::default()
        };
        let reversed = visible_rows(&analysis, None, &controls);
        assert_eq!(reversed.first(), all.last());
        controls.mode = ModeFilter::Hybrid;
        for i in visible_rows(&analysis, None, &controls) {
            assert_eq!(
                analysis.traces[i].mode(),
                Some(ragtrace_core::CanonicalLabel::Hybrid)
            );
        }
    }
}
