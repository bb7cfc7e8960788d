//! Bad input and bad settings, located: file, line, column, the line with a caret,
//! or the JSON path of a wrong type.

use crate::state::AppState;
use leptos::prelude::*;
use ragtrace_core::{omitted_total, InputError, OmittedInputErrors};

/// Under the heading when errors past the listed ones were only counted.
fn omitted_note(listed: usize, omitted: &OmittedInputErrors) -> String {
    let counts: Vec<String> = omitted
        .iter()
        .map(|(code, n)| format!("{n} {code}"))
        .collect();
    format!(
        "The first {listed} are listed; the others are counted by kind: {}.",
        counts.join(", ")
    )
}

fn location(error: &InputError) -> String {
    let mut text = error.source.clone();
    if let Some(line) = error.line {
        text.push_str(&format!(", line {line}"));
        if let Some(column) = error.column {
            text.push_str(&format!(", column {column}"));
        }
    }
    text
}

#[component]
pub(crate) fn ErrorPanel() -> impl IntoView {
    let state = expect_context::<AppState>();
    let errors = Memo::new(move |_| state.parsed.with(|p| p.errors.clone()));
    let omitted = Memo::new(move |_| state.parsed.with(|p| p.errors_omitted.clone()));
    let config_error = Memo::new(move |_| state.computed.with(|c| c.as_ref().err().cloned()));
    view! {
        {move || {
            config_error
                .get()
                .map(|error| {
                    view! {
                        <section class="panel error-panel" role="alert" aria-labelledby="config-error-title">
                            <h2 id="config-error-title">"Invalid settings"</h2>
                            <p>
                                <code>{error.key.clone().unwrap_or_else(|| "settings".to_owned())}</code>
                                ": "
                                {error.message.clone()}
                                ". Nothing was recomputed with them."
                            </p>
                        </section>
                    }
                })
        }}
        <Show when=move || errors.with(|e| !e.is_empty())>
            <section class="panel error-panel" role="alert" aria-labelledby="input-error-title">
                <h2 id="input-error-title">
                    {move || {
                        crate::format::count(
                            errors.with(Vec::len).saturating_add(omitted.with(omitted_total)),
                            "input could not be read",
                            "inputs could not be read",
                        )
                    }}
                </h2>
                <Show when=move || omitted.with(|o| !o.is_empty())>
                    <p class="input-errors-omitted">{move || omitted_note(errors.with(Vec::len), &omitted.get())}</p>
                </Show>
                <ul class="input-errors">
                    {move || errors.get().into_iter().map(|error| view! { <InputErrorItem error=error/> }).collect_view()}
                </ul>
            </section>
        </Show>
    }
}

/// One located error; the Golden tab shows cases-file errors with it too.
#[component]
pub(crate) fn InputErrorItem(error: InputError) -> impl IntoView {
    let excerpt = error.line_text.clone().map(|line| {
        let caret = error.caret.map(|offset| format!("{}^", " ".repeat(offset)));
        view! {
            <pre class="error-line">
                <code>{line}</code>
                {caret.map(|caret| view! { "\n" <span class="caret">{caret}</span> })}
            </pre>
        }
    });
    view! {
        <li class="input-error">
            <div>
                <strong class="error-location">{location(&error)}</strong>
                {error.path.clone().map(|path| view! { " at " <code class="json-path">{path}</code> })}
            </div>
            <div class="error-message">{error.message.clone()}</div>
            {excerpt}
        </li>
    }
}
