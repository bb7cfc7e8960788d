//! One finding as a line: severity badge, code, where, how many, message. Shared by
//! the trace's diagnostics, the batch's findings and the cases file's findings.

use crate::format::count;
use leptos::prelude::*;
use ragtrace_core::{Diagnostic, Severity};

#[component]
pub(crate) fn FindingLine(
    severity: Severity,
    code: String,
    message: String,
    /// The JSON pointer of the place in the input.
    #[prop(optional)]
    path: Option<String>,
    /// How many traces have this finding (the batch's findings).
    #[prop(optional)]
    traces: Option<usize>,
    /// The names of the first traces concerned.
    #[prop(optional)]
    examples: Option<String>,
) -> impl IntoView {
    let severity = severity.as_str();
    view! {
        <li class=format!("finding finding-{severity}")>
            <span class="badge">{severity}</span>
            " "
            <code>{code}</code>
            {path.map(|p| view! { " at " <code class="json-path">{p}</code> })}
            {traces.map(|n| view! { " · " {count(n, "trace", "traces")} })}
            ": "
            <span class="finding-message">{message}</span>
            {examples.map(|e| view! { <div class="hint">"e.g. " {e}</div> })}
        </li>
    }
}

/// A [`Diagnostic`] as a [`FindingLine`].
#[component]
pub(crate) fn DiagnosticLine(diagnostic: Diagnostic) -> impl IntoView {
    let Diagnostic {
        severity,
        code,
        message,
        path,
    } = diagnostic;
    match path {
        Some(path) => view! { <FindingLine severity code message path/> }.into_any(),
        None => view! { <FindingLine severity code message/> }.into_any(),
    }
}
