//! What survives a reload and what a link carries.
//!
//! The URL hash holds the view: knobs, the pinned baseline, the open trace and
//! the list's filters, so a link reproduces what its sender saw. Traces never go
//! into a URL (they often hold private data); they are remembered only in this
//! browser's localStorage, with the knobs, until the user clears them.

use crate::compare_state::CompareState;
use crate::components::golden::{GoldenState, PASTED_CASES_SOURCE};
use crate::samples::Sample;
use crate::state::{
    opening_document, AppState, Document, ListControls, ModeFilter, Origin, Sort, SortKey, View,
};
use leptos::prelude::*;
use ragtrace_core::config::Key;
use ragtrace_core::{Level, Settings};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

const DOCUMENTS_KEY: &str = "ragtrace.v1.documents";
const PASTE_KEY: &str = "ragtrace.v1.paste";
const SETTINGS_KEY: &str = "ragtrace.v1.settings";
/// The Golden tab's cases file: `{"source": ..., "text": ...}`.
const CASES_KEY: &str = "ragtrace.v1.cases";

/// Browsers give a page about 5 MB of localStorage (UTF-16); larger input is not
/// remembered rather than half-remembered.
const STORE_LIMIT: usize = 2 * 1024 * 1024;
const TOO_LARGE: &str =
    "This input is too large for the browser's storage: it will not survive a reload.";

const KEYS: [Key; 9] = [
    Key::MaxL2Distance,
    Key::ReturnN,
    Key::MaxChunksPerDocument,
    Key::ExcerptMaxChars,
    Key::PreciseThreshold,
    Key::HighlyRelevantThreshold,
    Key::ReferenceThreshold,
    Key::HybridQuality,
    Key::UseTraceOptions,
];

/// The keys a [`Settings`] overrides, as `key=value` text the core's
/// [`Settings::set`] reads back.
pub fn settings_pairs(settings: &Settings) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    for key in KEYS {
        let value = match key {
            Key::MaxL2Distance => settings.max_l2_distance.map(|v| v.to_string()),
            Key::ReturnN => settings.return_n.map(|v| v.to_string()),
            Key::MaxChunksPerDocument => settings.max_chunks_per_document.map(|v| v.to_string()),
            Key::ExcerptMaxChars => settings.excerpt_max_chars.map(|v| v.to_string()),
            Key::PreciseThreshold => settings.precise_threshold.map(|v| v.to_string()),
            Key::HighlyRelevantThreshold => {
                settings.highly_relevant_threshold.map(|v| v.to_string())
            }
            Key::ReferenceThreshold => settings.reference_threshold.map(|v| v.to_string()),
            Key::HybridQuality => settings.hybrid_quality.map(|v| v.as_str().to_owned()),
            Key::UseTraceOptions => (!settings.use_trace_options).then(|| "false".to_owned()),
        };
        if let Some(value) = value {
            out.push((key.name(), value));
        }
    }
    out
}

/// Everything the hash can say; absent parts keep their defaults.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct HashState {
    pub settings: Option<Settings>,
    pub baseline: Option<Settings>,
    pub view: Option<View>,
    pub list: ListControls,
    /// The Compare tab's `cmp.` parts (key without the prefix, decoded value).
    pub compare: Vec<(String, String)>,
}

fn level_key(level: Level) -> &'static str {
    level.as_str()
}

fn mode_key(mode: ModeFilter) -> Option<&'static str> {
    match mode {
        ModeFilter::All => None,
        ModeFilter::Dense => Some("dense"),
        ModeFilter::Hybrid => Some("hybrid"),
        ModeFilter::Unknown => Some("unknown"),
    }
}

pub fn sort_key_name(key: SortKey) -> &'static str {
    match key {
        SortKey::Position => "position",
        SortKey::Name => "name",
        SortKey::Mode => "mode",
        SortKey::Recorded => "recorded",
        SortKey::Level => "level",
        SortKey::TopQuality => "topQuality",
        SortKey::Accepted => "accepted",
        SortKey::Candidates => "candidates",
    }
}

const SORT_KEYS: [SortKey; 8] = [
    SortKey::Position,
    SortKey::Name,
    SortKey::Mode,
    SortKey::Recorded,
    SortKey::Level,
    SortKey::TopQuality,
    SortKey::Accepted,
    SortKey::Candidates,
];

/// `key=value&...` for the hash (without the `#`).
pub fn encode_hash(
    settings: &Settings,
    baseline: Option<&Settings>,
    view: View,
    list: &ListControls,
) -> String {
    let mut parts: Vec<String> = settings_pairs(settings)
        .into_iter()
        .map(|(k, v)| format!("{k}={}", encode(&v)))
        .collect();
    if let Some(baseline) = baseline {
        parts.push("pin=1".to_owned());
        parts.extend(
            settings_pairs(baseline)
                .into_iter()
                .map(|(k, v)| format!("pin.{k}={}", encode(&v))),
        );
    }
    match view {
        View::Auto => {}
        View::Batch => parts.push("view=batch".to_owned()),
        View::Trace(index) => parts.push(format!("trace={}", index + 1)),
        View::Golden => parts.push("view=golden".to_owned()),
        View::Compare => parts.push("view=compare".to_owned()),
    }
    if let Some(level) = list.level {
        parts.push(format!("level={}", level_key(level)));
    }
    if let Some(mode) = mode_key(list.mode) {
        parts.push(format!("mode={mode}"));
    }
    if list.changed_only {
        parts.push("changed=1".to_owned());
    }
    if list.sort != ListControls::default().sort {
        let direction = if list.sort.descending { "desc" } else { "asc" };
        parts.push(format!("sort={}.{direction}", sort_key_name(list.sort.key)));
    }
    parts.join("&")
}

/// Reads a hash written by [`encode_hash`]; anything unreadable is ignored, so
/// a hand-edited or outdated link still opens.
pub fn decode_hash(hash: &str) -> HashState {
    let hash = hash.strip_prefix('#').unwrap_or(hash);
    let mut state = HashState::default();
    let mut settings = Settings::default();
    let mut any_setting = false;
    let mut baseline = Settings::default();
    let mut pinned = false;
    for part in hash.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = part.split_once('=').unwrap_or((part, ""));
        let value = decode(value);
        if let Some(key) = key.strip_prefix("cmp.") {
            state.compare.push((key.to_owned(), value));
            continue;
        }
        if let Some(key) = key.strip_prefix("pin.") {
            pinned |= baseline.set(key, &value).is_ok();
            continue;
        }
        match key {
            "pin" => pinned = true,
            "trace" => {
                if let Some(n) = value.parse::<usize>().ok().filter(|n| *n >= 1) {
                    state.view = Some(View::Trace(n - 1));
                }
            }
            "view" if value == "batch" => state.view = Some(View::Batch),
            "view" if value == "golden" => state.view = Some(View::Golden),
            "view" if value == "compare" => state.view = Some(View::Compare),
            "level" => state.list.level = Level::parse(&value),
            "mode" => {
                state.list.mode = match value.as_str() {
                    "dense" => ModeFilter::Dense,
                    "hybrid" => ModeFilter::Hybrid,
                    "unknown" => ModeFilter::Unknown,
                    _ => ModeFilter::All,
                }
            }
            "changed" => state.list.changed_only = value == "1",
            "sort" => {
                let (name, direction) = value.split_once('.').unwrap_or((value.as_str(), "asc"));
                if let Some(key) = SORT_KEYS.into_iter().find(|k| sort_key_name(*k) == name) {
                    state.list.sort = Sort {
                        key,
                        descending: direction == "desc",
                    };
                }
            }
            _ => any_setting |= settings.set(key, &value).is_ok(),
        }
    }
    if any_setting {
        state.settings = Some(settings);
    }
    if pinned {
        state.baseline = Some(baseline);
    }
    state
}

/// Percent-encodes everything but unreserved characters (values are numbers
/// and names, so this rarely changes anything; it keeps `&`, `=` and `#` out).
pub(crate) fn encode(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for byte in value.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b'.' | b'~') {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

fn decode(value: &str) -> String {
    let bytes = value.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Settings in the same `key=value&...` form as the hash.
fn encode_settings(settings: &Settings) -> String {
    settings_pairs(settings)
        .into_iter()
        .map(|(k, v)| format!("{k}={}", encode(&v)))
        .collect::<Vec<_>>()
        .join("&")
}

fn decode_settings(text: &str) -> Settings {
    let mut settings = Settings::default();
    for part in text.split('&').filter(|p| !p.is_empty()) {
        if let Some((key, value)) = part.split_once('=') {
            // An unreadable saved key is dropped rather than blocking the page.
            let _ = settings.set(key, &decode(value));
        }
    }
    settings
}

#[derive(Serialize, Deserialize)]
struct StoredCases {
    source: String,
    text: String,
}

#[derive(Serialize, Deserialize)]
struct StoredDocument {
    name: String,
    /// A built-in sample is remembered by name, not by its text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    sample: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    text: Option<String>,
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

pub(crate) fn current_hash() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

/// What the page starts from: saved input and knobs, then the hash over the knobs.
pub struct Restored {
    pub documents: Vec<Document>,
    pub paste: String,
    /// The Golden tab's cases file: (source name, text).
    pub cases: Option<(String, String)>,
    pub settings: Settings,
    pub hash: HashState,
    /// The Compare tab's part of the hash, applied once its state exists.
    pub compare_hash: Vec<(String, String)>,
}

pub fn restore() -> Restored {
    let store = storage();
    let get = |key: &str| store.as_ref().and_then(|s| s.get_item(key).ok().flatten());
    let mut documents = Vec::new();
    if let Some(saved) = get(DOCUMENTS_KEY) {
        let stored: Vec<StoredDocument> = serde_json::from_str(&saved).unwrap_or_default();
        for (i, doc) in stored.into_iter().enumerate() {
            let id = i as u64 + 1;
            let restored = match (doc.sample.as_deref().and_then(Sample::from_key), doc.text) {
                (Some(sample), _) => Some(Document {
                    id,
                    name: doc.name,
                    text: sample.text(),
                    origin: Origin::Sample {
                        sample,
                        opening: false,
                    },
                }),
                (None, Some(text)) => Some(Document {
                    id,
                    name: doc.name,
                    text: Arc::from(text),
                    origin: Origin::File,
                }),
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
            .map(|s| decode_settings(&s))
            .unwrap_or_default(),
    };
    Restored {
        documents,
        paste,
        cases,
        settings,
        hash,
        compare_hash: Vec::new(),
    }
}

/// Keeps the hash and localStorage in step with the state, and follows a hash
/// the user edits by hand.
pub fn keep_in_sync(state: AppState) {
    let compare = use_context::<CompareState>();
    let golden = use_context::<GoldenState>();
    // The hash: replaced, not pushed, so moving a slider does not flood the history.
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
        for part in compare.iter().flat_map(CompareState::hash_parts) {
            if !hash.is_empty() {
                hash.push('&');
            }
            hash.push_str(&part);
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
        if current_hash().trim_start_matches('#') != hash {
            // Written after the next paint: replacing the URL costs about half a
            // millisecond, which a slider drag should not spend inside its frame.
            // Writes keep their order, so the last change wins.
            request_animation_frame(move || {
                set_timeout(
                    move || {
                        if let Ok(history) = window.history() {
                            let _ = history.replace_state_with_url(
                                &wasm_bindgen::JsValue::NULL,
                                "",
                                Some(&url),
                            );
                        }
                    },
                    std::time::Duration::ZERO,
                );
            });
        }
    });
    Effect::new(move |_| {
        let text = state.settings.with(encode_settings);
        save(state, SETTINGS_KEY, Some(text));
    });
    Effect::new(move |_| {
        let stored = state.documents.with(|docs| {
            let only_opening = docs
                .iter()
                .all(|d| matches!(d.origin, Origin::Sample { opening: true, .. }));
            (!only_opening).then(|| {
                docs.iter()
                    .map(|d| match d.origin {
                        Origin::Sample { sample, .. } => StoredDocument {
                            name: d.name.clone(),
                            sample: Some(sample.key().to_owned()),
                            text: None,
                        },
                        Origin::File => StoredDocument {
                            name: d.name.clone(),
                            sample: None,
                            text: Some(d.text.to_string()),
                        },
                    })
                    .collect::<Vec<_>>()
            })
        });
        let json = stored.and_then(|docs| serde_json::to_string(&docs).ok());
        save_within_limit(state, DOCUMENTS_KEY, json);
    });
    Effect::new(move |_| {
        let paste = state.paste.get();
        save_within_limit(state, PASTE_KEY, (!paste.is_empty()).then_some(paste));
    });
    let handle = window_event_listener(leptos::ev::hashchange, move |_| {
        let mut hash = decode_hash(&current_hash());
        if let (Some(compare), Some(golden)) = (compare, golden) {
            compare.apply_hash(state, golden, &std::mem::take(&mut hash.compare));
        }
        apply_hash(state, hash);
    });
    // The listener lives as long as the page (or the test's mounted app).
    on_cleanup(move || handle.remove());
}

/// Remembers the Golden tab's cases file as the paste is remembered.
pub fn keep_cases_in_sync(state: AppState, golden: GoldenState) {
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

/// Saves `value` (or forgets the key for `None`); a value over the size limit is
/// forgotten too, with a notice, rather than filling the browser's quota.
fn save_within_limit(state: AppState, key: &str, value: Option<String>) {
    match value {
        Some(value) if value.len() > STORE_LIMIT => {
            save(state, key, None);
            state.notice.set(Some(TOO_LARGE.to_owned()));
        }
        value => save(state, key, value),
    }
}

/// Applies a decoded hash to the state (at start and when the user edits it).
pub fn apply_hash(state: AppState, hash: HashState) {
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

fn save(state: AppState, key: &str, value: Option<String>) {
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

/// Forgets saved input, cases and knobs, and returns the page to its opening state.
pub fn forget(state: AppState, golden: GoldenState) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use ragtrace_core::HybridQuality;

    #[test]
    fn the_hash_round_trips() {
        let settings = Settings {
            max_l2_distance: Some(0.6),
            return_n: Some(3),
            hybrid_quality: Some(HybridQuality::MaxRankDense),
            use_trace_options: false,
            ..Settings::default()
        };
        let baseline = Settings {
            reference_threshold: Some(0.4),
            ..Settings::default()
        };
        let list = ListControls {
            level: Some(Level::Relevant),
            mode: ModeFilter::Hybrid,
            changed_only: true,
            sort: Sort {
                key: SortKey::TopQuality,
                descending: true,
            },
        };
        let hash = encode_hash(&settings, Some(&baseline), View::Trace(4), &list);
        let back = decode_hash(&format!("#{hash}"));
        assert_eq!(back.settings, Some(settings));
        assert_eq!(back.baseline, Some(baseline));
        assert_eq!(back.view, Some(View::Trace(4)));
        assert_eq!(back.list, list);
    }

    #[test]
    fn an_unreadable_hash_opens_with_defaults() {
        let back = decode_hash("#returnN=zero&trace=0&sort=nope&%%");
        assert_eq!(back.settings, None);
        assert_eq!(back.view, None);
        assert_eq!(back.list, ListControls::default());
        assert_eq!(decode("a%20b%2"), "a b%2");
        assert_eq!(encode("a&b=c"), "a%26b%3Dc");
    }
}
