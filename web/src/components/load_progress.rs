//! The file being read: a progress bar with bytes read, traces parsed and the time
//! left, and a Cancel button that keeps what was loaded before.

use crate::format::count;
use crate::state::AppState;
use leptos::prelude::*;

#[component]
pub(crate) fn LoadProgressPanel() -> impl IntoView {
    let state = expect_context::<AppState>();
    move || {
        state.loading.get().map(|progress| {
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
            view! {
                <div class="panel load-progress" role="status">
                    <label for="load-bar">{format!("Reading {}", progress.file)}</label>
                    <progress
                        id="load-bar"
                        max=progress.size.max(1).to_string()
                        value=progress.bytes_read.to_string()
                    ></progress>
                    <span class="load-status">{status}</span>
                    <button type="button" id="load-cancel" on:click=move |_| state.cancel_load()>
                        "Cancel"
                    </button>
                </div>
            }
        })
    }
}
