//! The file being read: a progress bar with bytes read, traces parsed and the time
//! left, and a Cancel button that keeps what was loaded before.

use crate::format::count;
use crate::state::loading::LoadProgress;
use crate::state::AppState;
use leptos::prelude::*;

#[component]
pub(crate) fn LoadProgressPanel() -> impl IntoView {
    let state = expect_context::<AppState>();
    // The panel is built when a load starts; an update of the progress only changes
    // the bar's value and the texts.
    let active = Memo::new(move |_| state.loading.with(Option::is_some));
    let read = move |f: fn(&LoadProgress) -> String| {
        move || {
            state
                .loading
                .with(|p| p.as_ref().map(f).unwrap_or_default())
        }
    };
    move || {
        active.get().then(|| {
            view! {
                <div class="panel load-progress" role="status">
                    <label for="load-bar">{read(|p| format!("Reading {}", p.file))}</label>
                    <progress
                        id="load-bar"
                        max=read(|p| p.size.max(1).to_string())
                        value=read(|p| p.bytes_read.to_string())
                    ></progress>
                    <span class="load-status">{read(status)}</span>
                    <button type="button" id="load-cancel" on:click=move |_| state.cancel_load()>
                        "Cancel"
                    </button>
                </div>
            }
        })
    }
}

/// Bytes read, traces parsed, the time left and the files after this one.
fn status(progress: &LoadProgress) -> String {
    let megabytes = |bytes: u64| format!("{:.1} MB", bytes as f64 / 1e6);
    let mut status = format!(
        "{} of {}, {} read",
        megabytes(progress.bytes_read),
        megabytes(progress.size),
        count(progress.traces, "trace", "traces")
    );
    if let Some(seconds) = progress.remaining_seconds() {
        status.push_str(&format!(", about {seconds:.0} s left"));
    }
    if progress.files_after > 0 {
        status.push_str(&format!(
            "; then {}",
            count(progress.files_after, "more file", "more files")
        ));
    }
    status
}
