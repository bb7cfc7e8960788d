//! One trace: who asked what, the outcome recomputed beside the recorded one,
//! the stages, every block, the recorded evidence, and the trace's diagnostics.

use crate::components::block_table::BlockTable;
use crate::components::dom::host;
use crate::components::finding::DiagnosticLine;
use crate::components::waterfall::Waterfall;
use crate::components::what_if::{level_hints, on_try};
use crate::format::{self, level_class, number, optional_bool, optional_number, yes_no};
use crate::hints::TraceHints;
use crate::state::{AppState, Shared, View};
use leptos::prelude::*;
use ragtrace_core::{block_changes, Config, SettingKey};
use ragtrace_core::{EvidenceComparison, TraceAnalysis};

#[component]
pub(crate) fn TraceView(index: usize) -> impl IntoView {
    let state = expect_context::<AppState>();
    // What would flip each candidate and the level: computed while this trace is shown.
    let hints = crate::state::explain::trace_hints(state, index);
    let count = move || {
        state
            .analysis
            .with(|a| a.as_ref().map_or(0, |a| a.traces.len()))
    };
    move || {
        let Some((analysis, index)) = state.trace(index) else {
            return view! {
                <p class="empty">
                    "That trace is not in the current batch. "
                    <button type="button" class="link" on:click=move |_| state.view.set(View::Batch)>
                        "Back to the batch"
                    </button>
                </p>
            }
            .into_any();
        };
        let trace = analysis.traces[index].clone();
        let baseline = state
            .baseline_analysis
            .get()
            .and_then(Result::ok)
            .and_then(|b| b.traces.get(index).cloned());
        // Only a baseline of the very same parsed trace is compared.
        let compared =
            baseline.and_then(|b| block_changes(&b, &trace).ok().map(|changes| (b, changes)));
        let baseline_level = compared.as_ref().map(|(b, _)| b.relevance_level.as_str());
        let changes = compared.map(|(_, changes)| changes);
        let total = count();
        view! {
            <article
                class="trace-view"
                aria-labelledby="trace-title"
                on:click=move |ev| on_try(state, hints, &ev)
            >
                <div class="trace-nav">
                    <button type="button" on:click=move |_| state.view.set(View::Batch)>
                        "← Batch"
                    </button>
                    <button
                        type="button"
                        disabled=index == 0
                        on:click=move |_| state.view.set(View::Trace(index.saturating_sub(1)))
                    >
                        "Previous"
                    </button>
                    <span class="hint">{format!("trace {} of {total}", index + 1)}</span>
                    <button
                        type="button"
                        disabled={index + 1 >= total}
                        on:click=move |_| state.view.set(View::Trace(index + 1))
                    >
                        "Next"
                    </button>
                </div>
                <TraceHeader trace=trace.clone()/>
                <Outcome trace=trace.clone() baseline_level=baseline_level hints=hints/>
                <Waterfall stages=trace.stages/>
                <BlockTable trace=trace.clone() changes=changes hints=hints/>
                {trace
                    .evidence_comparison
                    .clone()
                    .map(|comparison| view! { <EvidenceCompared comparison=*comparison/> })}
                <Diagnostics trace=trace/>
            </article>
        }
        .into_any()
    }
}

#[component]
fn TraceHeader(trace: TraceAnalysis) -> impl IntoView {
    let place = match trace.trace.line {
        Some(line) => format!("{}, line {line}", trace.trace.source),
        None => trace.trace.source.to_string(),
    };
    let config = trace.config;
    let options_note = if trace.used_trace_options {
        "with the trace's own options"
    } else {
        "defaults and your settings"
    };
    view! {
        <header class="panel trace-header">
            <h2 id="trace-title">{trace.name().into_owned()}</h2>
            <dl class="facts">
                <dt>"query"</dt>
                <dd class="query">{trace.trace.query.as_deref().unwrap_or("—").to_owned()}</dd>
                {trace
                    .trace.lookup_query
                    .as_deref()
                    .map(|q| view! { <dt>"LookupResult query"</dt> <dd>{q.to_owned()}</dd> })}
                <dt>"request id"</dt>
                <dd>{trace.trace.request_id.as_deref().unwrap_or("—").to_owned()}</dd>
                <dt>"mode"</dt>
                <dd>{format::mode(trace.mode())}</dd>
                <dt>"category filter"</dt>
                <dd>{trace.trace.category_filter.as_deref().unwrap_or("—").to_owned()}</dd>
                <dt>"kind"</dt>
                <dd>{format!("{:?}", trace.trace.kind)}</dd>
                {trace.trace.case_id.as_deref().map(|c| view! { <dt>"case id"</dt> <dd>{c.to_owned()}</dd> })}
                <dt>"from"</dt>
                <dd>{place} " " <code>{trace.trace.pointer.clone()}</code></dd>
                <dt>"settings"</dt>
                <dd id="trace-settings" inner_html=settings_html(&config, options_note)></dd>
            </dl>
            {trace
                .trace.n_approximated
                .then(|| {
                    view! {
                        <p class="hint">
                            "No embedded trace: the evidence list was analysed, so the batch size n is the length of that already capped list, an approximation of the service's."
                        </p>
                    }
                })}
        </header>
    }
}

/// Every key of the trace's configuration, in the core's order (`SettingKey::ALL`), as
/// `name value` items separated by commas, then `note` in brackets. As HTML: the
/// names and values are the core's (names, numbers, `true`/`false`, mode names) and
/// the note is the page's own, so there is nothing to escape; markup built as one
/// string costs the page's first load much less than a list of views.
fn settings_html(config: &Config, note: &str) -> String {
    let mut html = String::new();
    for (name, value) in SettingKey::ALL
        .iter()
        .filter_map(|&key| Some((key.name(), config.value(key)?)))
    {
        if !html.is_empty() {
            html.push_str(", ");
        }
        html.push_str("<span data-setting=\"");
        html.push_str(name);
        html.push_str("\">");
        html.push_str(name);
        html.push(' ');
        html.push_str(&value.to_string());
        html.push_str("</span>");
    }
    html.push_str(" (");
    html.push_str(note);
    html.push(')');
    html
}

#[component]
fn Outcome(
    trace: TraceAnalysis,
    baseline_level: Option<&'static str>,
    hints: Signal<Option<Shared<TraceHints>>>,
) -> impl IntoView {
    let level = trace.relevance_level.as_str();
    let recorded = trace
        .trace
        .recorded_relevance_level
        .as_deref()
        .map(str::to_owned);
    view! {
        <section class="panel outcome" aria-labelledby="outcome-title">
            <h3 id="outcome-title">"Outcome"</h3>
            <table class="outcome-table" id="outcome-table">
                <thead>
                    <tr>
                        <th scope="col"><span class="visually-hidden">"field"</span></th>
                        <th scope="col">"recomputed"</th>
                        <th scope="col">"recorded"</th>
                        {baseline_level.map(|_| view! { <th scope="col">"baseline"</th> })}
                    </tr>
                </thead>
                <tbody>
                    <tr class:differs=trace.level_differs data-row="relevanceLevel">
                        <th scope="row">"relevanceLevel"</th>
                        <td><span class=level_class(level)>{level}</span></td>
                        <td>
                            {recorded
                                .map(|r| view! { <span class=level_class(&r)>{r.clone()}</span> })}
                            {trace.level_differs.then(|| view! { <span class="flag">" differs"</span> })}
                        </td>
                        {baseline_level
                            .map(|b| view! { <td><span class=level_class(b)>{b}</span></td> })}
                    </tr>
                    <tr data-row="topQuality">
                        <th scope="row">"top quality"</th>
                        <td class="num">{optional_number(trace.top_quality)}</td>
                        <td class="num" title="topSimilarity as recorded">
                            {optional_number(trace.trace.recorded_top_similarity)}
                        </td>
                        {baseline_level.map(|_| view! { <td></td> })}
                    </tr>
                    <tr class:differs=trace.low_quality_differs data-row="lowQuality">
                        <th scope="row">"lowQuality"</th>
                        <td>{yes_no(trace.low_quality)}</td>
                        <td>
                            {optional_bool(trace.trace.recorded_low_quality)}
                            {trace
                                .low_quality_differs
                                .then(|| view! { <span class="flag">" differs"</span> })}
                        </td>
                        {baseline_level.map(|_| view! { <td></td> })}
                    </tr>
                    <tr data-row="retryUnfiltered">
                        <th scope="row">"retryUnfiltered"</th>
                        <td>{yes_no(trace.retry_unfiltered)}</td>
                        <td>"—"</td>
                        {baseline_level.map(|_| view! { <td></td> })}
                    </tr>
                </tbody>
            </table>
            {host("level-what-if-host", move || hints.with(|h| h.as_deref().and_then(level_hints)))}
            {trace
                .low_quality_gate_inert
                .then(|| {
                    view! {
                        <p class="warning-note">
                            "Hybrid with rank quality: the best accepted block has rank 1, so top quality is 1.0 and the low-quality gate cannot fire."
                        </p>
                    }
                })}
            {trace
                .trace.legacy
                .map(|l| {
                    view! {
                        <p class="hint">
                            {format!(
                                "Legacy comparison ({} candidates with a finalScore): Kendall's tau {}, {} promoted by the removed boosts.",
                                l.compared,
                                number(l.kendall_tau),
                                l.promoted,
                            )}
                        </p>
                    }
                })}
        </section>
    }
}

#[component]
fn EvidenceCompared(comparison: EvidenceComparison) -> impl IntoView {
    let list =
        |keys: Vec<std::sync::Arc<str>>, marked: Vec<std::sync::Arc<str>>, class: &'static str| {
            keys.into_iter()
                .map(|k| {
                    let odd = marked.contains(&k);
                    view! {
                        <li class:mismatch=odd class=class>
                            <code>{k.to_string()}</code>
                        </li>
                    }
                })
                .collect_view()
        };
    let verdict = if comparison.same {
        "The recorded evidence matches the recomputed accepted blocks (same keys, same order)."
    } else {
        "The recorded evidence differs from the recomputed accepted blocks."
    };
    view! {
        <section class="panel evidence" aria-labelledby="evidence-title">
            <h3 id="evidence-title">"Recorded evidence vs recomputed"</h3>
            <p class:flag=!comparison.same>{verdict}</p>
            <div class="grid-2">
                <div>
                    <h4>"recorded evidence"</h4>
                    <ol>{list(comparison.recorded, comparison.missing, "missing")}</ol>
                </div>
                <div>
                    <h4>"recomputed accepted"</h4>
                    <ol>{list(comparison.recomputed, comparison.unexpected, "unexpected")}</ol>
                </div>
            </div>
        </section>
    }
}

#[component]
fn Diagnostics(trace: TraceAnalysis) -> impl IntoView {
    let items = trace
        .diagnostics()
        .into_iter()
        .map(|d| view! { <DiagnosticLine diagnostic=d/> })
        .collect_view();
    let empty = trace.diagnostics().is_empty();
    view! {
        <section class="panel diagnostics" aria-labelledby="diagnostics-title">
            <h3 id="diagnostics-title">"Diagnostics"</h3>
            {if empty {
                view! { <p class="hint">"None."</p> }.into_any()
            } else {
                view! { <ul>{items}</ul> }.into_any()
            }}
        </section>
    }
}
