//! The Golden tab's Why missed panel: why each missed case was missed (no trace, an
//! expected document never retrieved, or retrieved and dropped by the settings) and
//! the changes of settings that recover cases, with what else each one changes.
//! The core's `explain_golden_cases` computes it, after the paint, while the panel is open.

use crate::components::what_if::TryButton;
use crate::format::count;
use crate::state::explain::why_missed;
use crate::state::golden::GoldenState;
use crate::state::AppState;
use leptos::prelude::*;
use ragtrace_core::{Cause, ChangeImpact, ExplainSummary};

/// Changes listed (the core sorts them by cases recovered, then by traces changed).
const LISTED_CHANGES: usize = 20;

/// What a cause means, for the causes table.
fn meaning(cause: Cause) -> &'static str {
    match cause {
        Cause::NoTrace => "no trace matched the case",
        Cause::NotRetrieved => "retrieval: no candidate has an expected document",
        Cause::Dropped => "settings: an expected document was retrieved, then dropped",
        Cause::Found => "found",
    }
}

/// Folded by default; its content (and the computation) exists only while it is open.
#[component]
pub(crate) fn WhyMissedSection() -> impl IntoView {
    let open = RwSignal::new(false);
    view! {
        <details
            class="panel why-missed"
            id="why-missed"
            on:toggle=move |ev| {
                let details: web_sys::Element = event_target(&ev);
                open.set(details.has_attribute("open"));
            }
        >
            <summary>
                <h2 id="why-missed-title">"Why missed"</h2>
            </summary>
            <Show when=move || open.get()>
                <WhyMissedBody/>
            </Show>
        </details>
    }
}

#[component]
fn WhyMissedBody() -> impl IntoView {
    let state = expect_context::<AppState>();
    let golden = expect_context::<GoldenState>();
    let summary = why_missed(state, golden);
    move || match summary.get() {
        None => view! {
            <p class="hint pending" id="why-missed-pending" role="status">
                "Working out why the cases were missed…"
            </p>
        }
        .into_any(),
        Some(summary) => view! { <WhyMissedResult summary=(*summary).clone()/> }.into_any(),
    }
}

#[component]
fn WhyMissedResult(summary: ExplainSummary) -> impl IntoView {
    let cause_count = |cause: Cause| summary.causes.get(cause.as_str()).copied().unwrap_or(0);
    let (not_retrieved, dropped, no_trace) = (
        cause_count(Cause::NotRetrieved),
        cause_count(Cause::Dropped),
        cause_count(Cause::NoTrace),
    );
    let headline = format!(
        "{} missed: {not_retrieved} a retrieval problem (not retrieved), {dropped} a settings problem (dropped), {no_trace} without a trace.",
        count(summary.misses, "case", "cases"),
    );
    let causes = Cause::ALL
        .into_iter()
        .map(|cause| {
            view! {
                <tr data-cause=cause.as_str()>
                    <th scope="row">{cause.as_str()}</th>
                    <td class="count">{cause_count(cause)}</td>
                    <td class="hint">{meaning(cause)}</td>
                </tr>
            }
        })
        .collect_view();
    let total_changes = summary.changes.len();
    let changes = summary
        .changes
        .into_iter()
        .take(LISTED_CHANGES)
        .map(|impact| view! { <ChangeRow impact=impact/> })
        .collect_view();
    view! {
        <p id="why-missed-headline">{headline}</p>
        <table class="counts" id="why-missed-causes">
            <thead>
                <tr>
                    <th scope="col">"Cause"</th>
                    <th scope="col">"Cases"</th>
                    <th scope="col">"Meaning"</th>
                </tr>
            </thead>
            <tbody>{causes}</tbody>
        </table>
        <h3>"Changes that recover cases"</h3>
        {if total_changes == 0 {
            view! { <p class="hint">"No change of settings recovers a missed case."</p> }.into_any()
        } else {
            view! {
                <div class="scroll-x" tabindex="0" role="region" aria-labelledby="why-missed-title">
                    <table class="block-table" id="why-missed-changes">
                        <thead>
                            <tr>
                                <th scope="col">"Change"</th>
                                <th scope="col">"Recovers"</th>
                                <th scope="col">"Traces changed"</th>
                                <th scope="col">"Level changes"</th>
                                <th scope="col">"Hit levels lowered"</th>
                                <th scope="col"><span class="visually-hidden">"Try"</span></th>
                            </tr>
                        </thead>
                        <tbody>{changes}</tbody>
                    </table>
                </div>
            }
            .into_any()
        }}
        {(total_changes > LISTED_CHANGES)
            .then(|| {
                view! {
                    <p class="hint">
                        {format!("The {LISTED_CHANGES} that recover the most of {total_changes} changes are listed.")}
                    </p>
                }
            })}
    }
}

#[component]
fn ChangeRow(impact: ChangeImpact) -> impl IntoView {
    let transitions = impact
        .level_transitions
        .iter()
        .map(|(transition, n)| format!("{transition} {n}"))
        .collect::<Vec<_>>()
        .join(", ");
    let recovered = impact.recovered_cases.join(", ");
    view! {
        <tr data-change=impact.set.to_string()>
            <td data-col="change"><code>{impact.set.to_string()}</code></td>
            <td data-col="recovers" class="num" title=recovered>{impact.recovers}</td>
            <td data-col="traces-changed" class="num">{impact.traces_changed}</td>
            <td data-col="level-changes">{transitions}</td>
            <td data-col="hit-level-drops" class="num">{impact.hit_level_drops}</td>
            <td><TryButton change=impact.set/></td>
        </tr>
    }
}
