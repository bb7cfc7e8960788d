//! The recorded -> recomputed transition matrix, for all traces or one mode.

use crate::format::{level_class, LEVELS};
use crate::state::AppState;
use leptos::prelude::*;
use ragtrace_core::SCOPES;
use ragtrace_core::{Level, ModeSummary};
use std::sync::Arc;

#[component]
pub(crate) fn Transitions() -> impl IntoView {
    let state = expect_context::<AppState>();
    let scope = RwSignal::new(0usize);
    let counts = Memo::new(move |_| {
        state.analysis.with(|a| {
            a.as_ref()
                .and_then(|a| a.summary.scopes().into_iter().nth(scope.get()))
                .map(|(_, counts)| counts.clone())
        })
    });
    // The recorded levels that head the rows; `None` without an analysis. Knobs do
    // not change what was recorded, so moving one only updates the cells' numbers.
    let rows = Memo::new(move |_| counts.with(|c| c.as_ref().map(ModeSummary::transition_keys)));

    view! {
        <section class="panel transitions" aria-labelledby="transitions-title">
            <div class="panel-title-row">
                <h2 id="transitions-title">"Recorded → recomputed"</h2>
                <div class="segments" role="group" aria-label="Mode">
                    {SCOPES
                        .into_iter()
                        .enumerate()
                        .map(|(i, name)| {
                            view! {
                                <button
                                    type="button"
                                    class="segment-button"
                                    aria-pressed=move || (scope.get() == i).to_string()
                                    on:click=move |_| scope.set(i)
                                >
                                    {name}
                                </button>
                            }
                        })
                        .collect_view()}
                </div>
            </div>
            {move || match rows.get() {
                None => view! { <p class="hint">"No traces."</p> }.into_any(),
                Some(rows) if rows.is_empty() => {
                    view! {
                        <p class="hint">"No trace in this scope recorded a relevance level."</p>
                    }
                        .into_any()
                }
                Some(rows) => {
                    view! {
                        <div class="scroll-x" tabindex="0">
                            <table class="matrix" id="transition-matrix">
                                <caption class="visually-hidden">
                                    "Rows: level the service recorded. Columns: level recomputed here."
                                </caption>
                                <thead>
                                    <tr>
                                        <th scope="col">"recorded ↓ / recomputed →"</th>
                                        {LEVELS
                                            .iter()
                                            .map(|l| {
                                                view! {
                                                    <th scope="col">
                                                        <span class=level_class(l.as_str())>{l.as_str()}</span>
                                                    </th>
                                                }
                                            })
                                            .collect_view()}
                                    </tr>
                                </thead>
                                <tbody>
                                    {rows
                                        .into_iter()
                                        .map(|recorded| transition_row(counts, recorded))
                                        .collect::<Vec<_>>()}
                                </tbody>
                            </table>
                        </div>
                    }
                        .into_any()
                }
            }}
        </section>
    }
}

/// One recorded level's row of the matrix: the rows (what was recorded) stay while
/// a knob moves, each cell follows the counts.
fn transition_row(counts: Memo<Option<ModeSummary>>, recorded: String) -> impl IntoView + use<> {
    let key: Arc<str> = Arc::from(recorded.as_str());
    let cells = Level::ALL
        .into_iter()
        .map(|to| {
            let key = Arc::clone(&key);
            let n = move || counts.with(|c| c.as_ref().map_or(0, |c| c.transition(&key, to)));
            let same = recorded == to.as_str();
            let zero = n.clone();
            view! { <td class="num" class:diagonal=same class:zero=move || { zero() == 0 }>{n}</td> }
        })
        .collect_view();
    view! {
        <tr>
            <th scope="row">
                <span class=level_class(&recorded)>{recorded.clone()}</span>
            </th>
            {cells}
        </tr>
    }
}
