//! The loaded documents, what each held, and a way to remove one.

use crate::format::count;
use crate::state::{AppState, Origin, PASTE_SOURCE};
use leptos::prelude::*;
use ragtrace_core::DocumentSummary;

/// One row: a loaded document (or the pasted text) and what the core read from it.
#[derive(Clone, PartialEq)]
struct Row {
    /// `None` for the pasted text.
    id: Option<u64>,
    name: String,
    note: Option<&'static str>,
    summary: Option<DocumentSummary>,
}

#[component]
pub(crate) fn FileList() -> impl IntoView {
    let state = expect_context::<AppState>();
    let rows = Memo::new(move |_| {
        let mut rows: Vec<Row> = state.documents.with(|docs| {
            docs.iter()
                .map(|d| Row {
                    id: Some(d.id),
                    name: d.name.clone(),
                    note: match d.origin {
                        Origin::Sample { opening: true, .. } => {
                            Some("opening sample, replaced by your own input")
                        }
                        Origin::Sample { .. } => Some("sample"),
                        Origin::File => None,
                    },
                    summary: d.batch.documents.first().cloned(),
                })
                .collect()
        });
        if state.paste.with(|p| !p.trim().is_empty()) {
            rows.push(Row {
                id: None,
                name: PASTE_SOURCE.to_owned(),
                note: None,
                summary: state
                    .paste_batch
                    .with(|b| b.as_ref().and_then(|b| b.documents.first().cloned())),
            });
        }
        rows
    });
    view! {
        <section class="panel file-list" aria-labelledby="files-title">
            <h2 id="files-title">"Loaded"</h2>
            <Show
                when=move || rows.with(|r| !r.is_empty())
                fallback=|| view! { <p class="hint">"Nothing loaded."</p> }
            >
                <ul>
                    {move || {
                        rows.get()
                            .into_iter()
                            .map(|row| view! { <FileRow row=row/> })
                            .collect_view()
                    }}
                </ul>
            </Show>
        </section>
    }
}

#[component]
fn FileRow(row: Row) -> impl IntoView {
    let state = expect_context::<AppState>();
    let held = row.summary.as_ref().map(|s| {
        let mut text = format!(
            "{}, {}",
            count(s.traces, "trace", "traces"),
            count(s.candidates, "candidate", "candidates")
        );
        if s.errors > 0 {
            text.push_str(&format!(", {}", count(s.errors, "error", "errors")));
        }
        text
    });
    let has_errors = row.summary.as_ref().is_some_and(|s| s.errors > 0);
    let id = row.id;
    let remove_label = format!("Remove {}", row.name);
    view! {
        <li class="file-row" class:has-errors=has_errors>
            <div class="file-name">
                <span>{row.name.clone()}</span>
                {row.note.map(|note| view! { <span class="badge">{note}</span> })}
            </div>
            <div class="file-held">{held}</div>
            <button
                type="button"
                class="quiet"
                aria-label=remove_label
                on:click=move |_| match id {
                    Some(id) => state.remove_document(id),
                    None => state.set_paste(String::new()),
                }
            >
                "Remove"
            </button>
        </li>
    }
}
