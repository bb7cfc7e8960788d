//! Baseline comparison: pin the current knobs, keep moving them, and see what changed.

use crate::format::{level_class, LEVELS};
use crate::state::{AppState, Shared, View};
use leptos::prelude::*;
use ragtrace_core::level_changes;
use ragtrace_core::{Analysis, ConfigError};

/// The knob settings the baseline froze, as `key=value` text.
fn describe_pin(state: AppState) -> String {
    state.baseline.with(|b| {
        b.as_ref().map_or_else(String::new, |settings| {
            let pairs: Vec<String> = settings
                .overrides()
                .map(|(key, value)| format!("{}={value}", key.name()))
                .collect();
            if pairs.is_empty() {
                "defaults".to_owned()
            } else {
                pairs.join(", ")
            }
        })
    })
}

/// Pin / unpin, in the knobs panel.
#[component]
pub(crate) fn PinControls() -> impl IntoView {
    let state = expect_context::<AppState>();
    let pinned = move || state.baseline.with(Option::is_some);
    view! {
        <div class="pin-controls">
            <Show
                when=pinned
                fallback=move || {
                    view! {
                        <button
                            type="button"
                            id="pin-baseline"
                            title="Freeze the current settings; the views then compare against them"
                            on:click=move |_| state.baseline.set(Some(state.settings.get_untracked()))
                        >
                            "Pin as baseline"
                        </button>
                    }
                }
            >
                <button type="button" id="unpin-baseline" on:click=move |_| state.baseline.set(None)>
                    "Unpin baseline"
                </button>
                <button
                    type="button"
                    id="restore-baseline"
                    title="Put the knobs back to the pinned settings"
                    on:click=move |_| {
                        if let Some(pinned) = state.baseline.get_untracked() {
                            state.settings.set(pinned);
                        }
                    }
                >
                    "Back to baseline"
                </button>
                <p class="hint">"Baseline: " {move || describe_pin(state)}</p>
            </Show>
        </div>
    }
}

/// Baseline and current analyses of the same batch.
type Pair = (Shared<Analysis>, Shared<Analysis>);

/// How many changed traces are listed here; the trace list's "changed only" filter shows all.
const LISTED: usize = 50;

/// In the batch view while a baseline is pinned: distributions side by side and
/// the traces whose level changed.
#[component]
pub(crate) fn BaselineComparison() -> impl IntoView {
    let state = expect_context::<AppState>();
    let pair = Memo::new(move |_| -> Option<Result<Pair, ConfigError>> {
        let baseline = state.baseline_analysis.get()?;
        let current = state.analysis.get()?;
        Some(baseline.map(|b| (b, current)))
    });
    // `baseline_analysis` follows the batch of `analysis`; while a new batch is on its
    // way the two can briefly differ, and then nothing is compared.
    move || {
        let result = pair.get()?;
        Some(match result {
            Err(error) => view! {
                <section class="panel baseline" aria-labelledby="baseline-title">
                    <h2 id="baseline-title">"Baseline"</h2>
                    <p>"The pinned settings are invalid: " {error.to_string()}</p>
                </section>
            }
            .into_any(),
            Ok((baseline, current)) => {
                let changed = level_changes(&baseline, &current).ok()?;
                let before = baseline.summary.scopes();
                let after = current.summary.scopes();
                let total = changed.len();
                let header = before
                    .iter()
                    .map(|(scope, _)| {
                        view! {
                            <th scope="colgroup" colspan="2" class="scope">{*scope}</th>
                        }
                    })
                    .collect_view();
                let subheader = before
                    .iter()
                    .map(|_| view! { <th scope="col">"baseline"</th> <th scope="col">"current"</th> })
                    .collect_view();
                let rows = LEVELS
                    .iter()
                    .map(|level| {
                        let name = level.as_str();
                        let cells = before
                            .iter()
                            .zip(&after)
                            .map(|((_, b), (_, a))| {
                                let (then, now) = (b.recomputed(name), a.recomputed(name));
                                view! {
                                    <td class="num">{then}</td>
                                    <td class="num" class:changed=then != now>{now}</td>
                                }
                            })
                            .collect_view();
                        view! {
                            <tr data-level=name>
                                <th scope="row"><span class=level_class(name)>{name}</span></th>
                                {cells}
                            </tr>
                        }
                    })
                    .collect_view();
                let listed = changed
                    .into_iter()
                    .take(LISTED)
                    .map(|change| {
                        let index = change.index;
                        let (then, now) = (change.baseline.as_str(), change.current.as_str());
                        view! {
                            <li>
                                <button
                                    type="button"
                                    class="link"
                                    on:click=move |_| state.view.set(View::Trace(index))
                                >
                                    {change.name}
                                </button>
                                " "
                                <span class=level_class(then)>{then}</span>
                                " → "
                                <span class=level_class(now)>{now}</span>
                            </li>
                        }
                    })
                    .collect_view();
                view! {
                    <section class="panel baseline" aria-labelledby="baseline-title">
                        <h2 id="baseline-title">"Baseline vs current"</h2>
                        <p class="hint">"Baseline: " {describe_pin(state)}</p>
                        <div class="scroll-x" tabindex="0">
                            <table class="counts" id="baseline-table">
                                <thead>
                                    <tr>
                                        <th scope="col" rowspan="2">"level"</th>
                                        {header}
                                    </tr>
                                    <tr>{subheader}</tr>
                                </thead>
                                <tbody>{rows}</tbody>
                            </table>
                        </div>
                        <h3>
                            {crate::format::count(total, "trace changed level", "traces changed level")}
                        </h3>
                        <ul class="changed-traces">{listed}</ul>
                        {(total > LISTED)
                            .then(|| {
                                view! {
                                    <p class="hint">
                                        {format!("The first {LISTED} are listed; tick \"changed only\" in the trace list for all.")}
                                    </p>
                                }
                            })}
                    </section>
                }
                .into_any()
            }
        })
    }
}
