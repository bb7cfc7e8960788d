//! Findings that matter across the batch, grouped by the core (one entry per code).

use crate::format::count;
use crate::state::AppState;
use leptos::prelude::*;
use ragtrace_core::diagnostic::Severity;

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
                                let severity = match w.severity {
                                    Severity::Error => "error",
                                    Severity::Warning => "warning",
                                    Severity::Info => "info",
                                };
                                let examples = w.examples.join(", ");
                                view! {
                                    <li class=format!("finding finding-{severity}")>
                                        <span class="badge">{severity}</span>
                                        " "
                                        <code>{w.code.clone()}</code>
                                        " · "
                                        {count(w.traces, "trace", "traces")}
                                        ": "
                                        <span class="finding-message">{w.message.clone()}</span>
                                        <div class="hint">"e.g. " {examples}</div>
                                    </li>
                                }
                            })
                            .collect_view()
                    }}
                </ul>
            </section>
        </Show>
    }
}
