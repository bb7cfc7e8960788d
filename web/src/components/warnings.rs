//! Findings that matter across the batch, grouped by the core (one entry per code).

use crate::components::finding::FindingLine;
use crate::state::AppState;
use leptos::prelude::*;

#[component]
pub(crate) fn Warnings() -> impl IntoView {
    let state = expect_context::<AppState>();
    let warnings = Memo::new(move |_| {
        state
            .analysis
            .with(|a| a.as_ref().map(|a| a.warnings.clone()).unwrap_or_default())
    });
    view! {
        <Show when=move || warnings.with(|w| !w.is_empty())>
            <section class="panel warnings" aria-labelledby="warnings-title">
                <h2 id="warnings-title">"Findings"</h2>
                <ul>
                    {move || {
                        warnings
                            .get()
                            .into_iter()
                            .map(|w| {
                                view! {
                                    <FindingLine
                                        severity=w.severity
                                        code=w.code
                                        message=w.message
                                        traces=w.traces
                                        examples=w.examples.join(", ")
                                    />
                                }
                            })
                            .collect_view()
                    }}
                </ul>
            </section>
        </Show>
    }
}
