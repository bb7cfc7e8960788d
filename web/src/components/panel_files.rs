//! Files picked in a panel's file input or dropped on it, handed to the panel: a drop
//! there is the panel's (run B, one more run), not the loaded batch's, so it must not
//! reach the window's drop listener.

use crate::state::AppState;
use leptos::prelude::*;
use web_sys::FileList;

/// The input's `change` handler: the picked files, then the input emptied so that
/// picking the same file again is a change too.
pub(crate) fn on_picked(
    take: impl Fn(FileList) + Copy + 'static,
) -> impl Fn(leptos::ev::Event) + Copy {
    move |ev| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        if let Some(files) = input.files() {
            take(files);
        }
        input.set_value("");
    }
}

/// The drop zone's `drop` handler.
pub(crate) fn on_dropped(
    state: AppState,
    take: impl Fn(FileList) + Copy + 'static,
) -> impl Fn(leptos::ev::DragEvent) + Copy {
    move |ev| {
        ev.prevent_default();
        ev.stop_propagation();
        state.dragging.set(false);
        if let Some(files) = ev.data_transfer().and_then(|dt| dt.files()) {
            take(files);
        }
    }
}
