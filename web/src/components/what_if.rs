//! What would it take: hints ("accepted with returnN >= 7"), each with a Try button
//! that applies its change (`state::explain::try_change`). The hints are written
//! where they are computed (`hints::hints`, lazily loaded); the trace view
//! lists them as plain DOM (`dom.rs`: far less of the first load than typed views)
//! and handles every Try with one click handler.

use crate::components::dom::{add, el, set};
use crate::hints::{Hint, TraceHints};
use crate::state::explain::try_change;
use crate::state::{AppState, Shared};
use leptos::prelude::*;
use ragtrace_core::Change;
use wasm_bindgen::JsCast;
use web_sys::Element;

const TRY_TITLE: &str = "Pins the current settings as the baseline first, if none is pinned";

/// Applies `change` (pinning the current settings first when nothing is pinned).
#[component]
pub(crate) fn TryButton(change: Change) -> impl IntoView {
    let state = expect_context::<AppState>();
    view! {
        <button
            type="button"
            class="quiet try-change"
            aria-label=format!("Try {change}")
            title=TRY_TITLE
            on:click=move |_| try_change(state, change)
        >
            "Try"
        </button>
    }
}

/// The hints as a list, each with a Try button naming it by `slot:N` (see
/// [`TraceHints::change_of`]); nothing when there are none.
pub(crate) fn hint_list(class: &str, slot: &str, hints: &[Hint]) -> Option<Element> {
    if hints.is_empty() {
        return None;
    }
    let mut list = el("ul", class, "")?;
    for (at, hint) in hints.iter().enumerate() {
        let item = el("li", "", "")?;
        set(&item, "data-change", &hint.key);
        let button = el("button", "quiet try-change", "Try")?;
        set(&button, "type", "button");
        set(&button, "aria-label", &format!("Try {}", hint.key));
        set(&button, "title", TRY_TITLE);
        set(&button, "data-try", &format!("{slot}:{at}"));
        let item = add(add(item, el("span", "", &hint.text)), Some(button));
        list = add(list, Some(item));
    }
    Some(list)
}

/// Under the outcome table: what changes the trace's level and its `lowQuality`.
pub(crate) fn level_hints(hints: &TraceHints) -> Option<Element> {
    let block = el("div", "level-what-if", "")?;
    set(&block, "id", "level-what-if");
    let block = add(block, el("h4", "", "What would change it"));
    let reason = hints.reason.as_deref().unwrap_or_default();
    let block = add(
        block,
        (!reason.is_empty())
            .then(|| el("p", "hint", reason))
            .flatten(),
    );
    Some(add(block, hint_list("what-if", "level", &hints.level)))
}

/// A click in the trace view: when it is on a Try button, that hint's change is applied.
pub(crate) fn on_try(
    state: AppState,
    hints: Signal<Option<Shared<TraceHints>>>,
    ev: &web_sys::MouseEvent,
) {
    let button = ev
        .target()
        .and_then(|t| t.dyn_into::<Element>().ok())
        .and_then(|t| t.closest("[data-try]").ok().flatten());
    let Some(slot) = button.and_then(|b| b.get_attribute("data-try")) else {
        return;
    };
    let change = hints.with_untracked(|h| h.as_ref().and_then(|h| h.change_of(&slot)));
    if let Some(change) = change {
        try_change(state, change);
    }
}
