//! This browser's localStorage: what is kept under which key, and writing it
//! within the browser's quota.

use crate::state::AppState;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

pub(super) const DOCUMENTS_KEY: &str = "ragtrace.v1.documents";
pub(super) const PASTE_KEY: &str = "ragtrace.v1.paste";
pub(super) const SETTINGS_KEY: &str = "ragtrace.v1.settings";
/// The Golden tab's cases file: `{"source": ..., "text": ...}`.
pub(super) const CASES_KEY: &str = "ragtrace.v1.cases";

pub(super) const TOO_LARGE: &str =
    "This input is too large for the browser's storage: it will not survive a reload.";

#[derive(Serialize, Deserialize)]
pub(super) struct StoredCases {
    pub(super) source: String,
    pub(super) text: String,
}

#[derive(Serialize, Deserialize)]
pub(super) struct StoredDocument {
    pub(super) name: String,
    /// A built-in sample is remembered by name, not by its text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) sample: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) text: Option<String>,
}

pub(super) fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// Saves `value` (or forgets the key for `None`); a value over the size limit is
/// forgotten too, with a notice, rather than filling the browser's quota.
pub(super) fn save_within_limit(state: AppState, key: &str, value: Option<String>) {
    match value {
        Some(value) if value.len() > crate::browser::STORE_LIMIT => {
            save(state, key, None);
            state.notice.set(Some(TOO_LARGE.to_owned()));
        }
        value => save(state, key, value),
    }
}

pub(super) fn save(state: AppState, key: &str, value: Option<String>) {
    let Some(store) = storage() else {
        return;
    };
    let result = match value {
        Some(value) => store.set_item(key, &value),
        None => store.remove_item(key),
    };
    if result.is_err() {
        // Usually the quota: the page keeps working, it just cannot remember this input.
        let _ = store.remove_item(key);
        state.notice.set(Some(TOO_LARGE.to_owned()));
    }
}
