//! The page's state in step with the hash and the storage: restored at start, saved
//! as it changes, and following a hash the user edits by hand.

use super::hash::{decode_hash, encode_hash, HashState};
use super::storage::{
    save, save_within_limit, storage, StoredCases, StoredDocument, CASES_KEY, DOCUMENTS_KEY,
    PASTE_KEY, SETTINGS_KEY, TOO_LARGE,
};
use crate::browser::after_paint;
use crate::samples::Sample;
use crate::state::compare_link::CompareLink;
use crate::state::golden::{GoldenState, PASTED_CASES_SOURCE};
use crate::state::{opening_document, AppState, Document, Origin, View};
use leptos::prelude::*;
use ragtrace_core::Settings;
use ragtrace_core::{encode_settings, settings_from_text};
use std::sync::Arc;

fn current_hash() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

/// What the page starts from: saved input and knobs, then the hash over the knobs.
pub(crate) struct Restored {
    pub documents: Vec<Document>,
    pub paste: String,
    /// The Golden tab's cases file: (source name, text).
    pub cases: Option<(String, String)>,
    pub settings: Settings,
    pub hash: HashState,
}

pub(crate) fn restore() -> Restored {
    let store = storage();
    let get = |key: &str| store.as_ref().and_then(|s| s.get_item(key).ok().flatten());
    let mut documents = Vec::new();
    if let Some(saved) = get(DOCUMENTS_KEY) {
        let stored: Vec<StoredDocument> = serde_json::from_str(&saved).unwrap_or_default();
        for (i, doc) in stored.into_iter().enumerate() {
            let id = i as u64 + 1;
            let restored = match (doc.sample.as_deref().and_then(Sample::from_key), doc.text) {
                (Some(sample), _) => Some(Document::parse(
                    id,
                    doc.name,
                    sample.text(),
                    Origin::Sample {
                        sample,
                        opening: false,
                    },
                )),
                (None, Some(text)) => {
                    Some(Document::parse(id, doc.name, Arc::from(text), Origin::File))
                }
                (None, None) => None,
            };
            documents.extend(restored);
        }
    }
    let paste = get(PASTE_KEY).unwrap_or_default();
    let cases = get(CASES_KEY)
        .and_then(|saved| serde_json::from_str::<StoredCases>(&saved).ok())
        .map(|c| (c.source, c.text));
    if documents.is_empty() && paste.trim().is_empty() {
        documents.push(opening_document(1));
    }
    let hash = decode_hash(&current_hash());
    let settings = match &hash.settings {
        Some(settings) => settings.clone(),
        None => get(SETTINGS_KEY)
            // A saved key that is no longer valid is dropped rather than blocking the page.
            .map(|s| settings_from_text(&s).0)
            .unwrap_or_default(),
    };
    Restored {
        documents,
        paste,
        cases,
        settings,
        hash,
    }
}

/// Keeps the hash and localStorage in step with the state, and follows a hash
/// the user edits by hand.
pub(crate) fn keep_in_sync(state: AppState) {
    let compare = use_context::<CompareLink>();
    // The hash: replaced, not pushed, so moving a slider does not flood the history.
    let pending_url = StoredValue::new(None::<String>);
    Effect::new(move |_| {
        let mut hash = state.settings.with(|settings| {
            state.baseline.with(|baseline| {
                encode_hash(
                    settings,
                    baseline.as_ref(),
                    state.view.get(),
                    &state.list.get(),
                )
            })
        });
        if let Some(compare) = compare {
            compare.to_hash.with(|parts| {
                for part in parts {
                    if !hash.is_empty() {
                        hash.push('&');
                    }
                    hash.push_str(part);
                }
            });
        }
        let Some(window) = web_sys::window() else {
            return;
        };
        let url = if hash.is_empty() {
            let location = window.location();
            let path = location.pathname().unwrap_or_default();
            let search = location.search().unwrap_or_default();
            format!("{path}{search}")
        } else {
            format!("#{hash}")
        };
        // Written after the next paint: replacing the URL costs about half a
        // millisecond (several in a headless browser), which a slider drag should not
        // spend inside its frames. While a write waits, a newer URL takes its place
        // rather than queueing a write of its own: a drag whose frames leave no idle
        // moment writes once when one comes, and the last change always wins.
        let write_after_paint = pending_url
            .try_update_value(|pending| {
                let waiting = pending.is_some();
                let changed = current_hash().trim_start_matches('#') != hash;
                if waiting || changed {
                    *pending = Some(url);
                }
                changed && !waiting
            })
            .unwrap_or(false);
        if write_after_paint {
            after_paint(move || {
                let url = pending_url.try_update_value(Option::take).flatten();
                if let (Some(url), Ok(history)) = (url, window.history()) {
                    let _ = history.replace_state_with_url(
                        &wasm_bindgen::JsValue::NULL,
                        "",
                        Some(&url),
                    );
                }
            });
        }
    });
    Effect::new(move |_| {
        let text = state.settings.with(encode_settings);
        save(state, SETTINGS_KEY, Some(text));
    });
    Effect::new(move |_| {
        let stored = state.documents.with(|docs| {
            let only_opening = docs.iter().all(Document::is_opening);
            (!only_opening).then(|| {
                docs.iter()
                    .map(|d| match d.origin {
                        Origin::Sample { sample, .. } => Some(StoredDocument {
                            name: d.name.clone(),
                            sample: Some(sample.key().to_owned()),
                            text: None,
                        }),
                        // A file too large to keep its text is not remembered at all.
                        Origin::File => d.text.as_ref().map(|text| StoredDocument {
                            name: d.name.clone(),
                            sample: None,
                            text: Some(text.to_string()),
                        }),
                    })
                    .collect::<Option<Vec<_>>>()
            })
        });
        match stored {
            Some(None) => {
                save(state, DOCUMENTS_KEY, None);
                state.notice.set(Some(TOO_LARGE.to_owned()));
            }
            stored => {
                let json = stored
                    .flatten()
                    .and_then(|docs| serde_json::to_string(&docs).ok());
                save_within_limit(state, DOCUMENTS_KEY, json);
            }
        }
    });
    Effect::new(move |_| {
        let paste = state.paste.get();
        save_within_limit(state, PASTE_KEY, (!paste.is_empty()).then_some(paste));
    });
    let handle = window_event_listener(leptos::ev::hashchange, move |_| {
        let mut hash = decode_hash(&current_hash());
        if let Some(compare) = compare {
            compare.follow(std::mem::take(&mut hash.compare));
        }
        apply_hash(state, hash);
    });
    // The listener lives as long as the page (or the test's mounted app).
    on_cleanup(move || handle.remove());
}

/// Remembers the Golden tab's cases file as the paste is remembered.
pub(crate) fn keep_cases_in_sync(state: AppState, golden: GoldenState) {
    Effect::new(move |_| {
        let stored = golden.text.with(|text| {
            (!text.trim().is_empty()).then(|| StoredCases {
                source: golden.source.get(),
                text: text.clone(),
            })
        });
        let json = stored.and_then(|cases| serde_json::to_string(&cases).ok());
        save_within_limit(state, CASES_KEY, json);
    });
}

/// Applies a decoded hash to the state (at start and when the user edits it).
pub(crate) fn apply_hash(state: AppState, hash: HashState) {
    if !hash.ignored.is_empty() {
        state.notice.set(Some(ignored_notice(&hash.ignored)));
    }
    if let Some(settings) = hash.settings {
        if state.settings.with_untracked(|s| *s != settings) {
            state.settings.set(settings);
        }
    }
    if state.baseline.with_untracked(|b| *b != hash.baseline) {
        state.baseline.set(hash.baseline);
    }
    let view = hash.view.unwrap_or(View::Auto);
    if state.view.get_untracked() != view {
        state.view.set(view);
    }
    if state.list.get_untracked() != hash.list {
        state.list.set(hash.list);
    }
}

/// Which settings of a link were left out and why, as one line.
fn ignored_notice(ignored: &[ragtrace_core::ConfigError]) -> String {
    let reasons: Vec<String> = ignored.iter().map(ToString::to_string).collect();
    let (these, apply) = if ignored.len() == 1 {
        ("this setting", "its default applies")
    } else {
        ("these settings", "their defaults apply")
    };
    format!(
        "The link's {these} could not be used, so {apply}: {}.",
        reasons.join("; ")
    )
}

/// Forgets saved input, cases and knobs, and returns the page to its opening state.
pub(crate) fn forget(state: AppState, golden: GoldenState) {
    if let Some(store) = storage() {
        for key in [DOCUMENTS_KEY, PASTE_KEY, SETTINGS_KEY, CASES_KEY] {
            let _ = store.remove_item(key);
        }
    }
    state.reset_input();
    golden.load(PASTED_CASES_SOURCE.to_owned(), String::new());
    state.settings.set(Settings::default());
    state.baseline.set(None);
    state.notice.set(Some(
        "Saved input and settings forgotten; the page is back to its opening sample.".to_owned(),
    ));
}
