//! The URL hash codec: the view as `key=value&...` text and back. Pure functions,
//! so they are tested without a browser.

use crate::state::{ListControls, ModeFilter, Sort, SortKey, View};
use ragtrace_core::{Level, Settings};

/// The keys a [`Settings`] overrides, as `key=value` text the core's
/// [`Settings::set`] reads back.
fn settings_pairs(settings: &Settings) -> impl Iterator<Item = (&'static str, String)> + '_ {
    settings
        .overrides()
        .map(|(key, value)| (key.name(), value.to_string()))
}

/// Everything the hash can say; absent parts keep their defaults.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct HashState {
    pub settings: Option<Settings>,
    pub baseline: Option<Settings>,
    pub view: Option<View>,
    pub list: ListControls,
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

pub(crate) fn sort_key_name(key: SortKey) -> &'static str {
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
pub(crate) fn encode_hash(
    settings: &Settings,
    baseline: Option<&Settings>,
    view: View,
    list: &ListControls,
) -> String {
    let mut parts: Vec<String> = settings_pairs(settings)
        .map(|(k, v)| format!("{k}={}", encode(&v)))
        .collect();
    if let Some(baseline) = baseline {
        parts.push("pin=1".to_owned());
        parts.extend(settings_pairs(baseline).map(|(k, v)| format!("pin.{k}={}", encode(&v))));
    }
    match view {
        View::Auto => {}
        View::Batch => parts.push("view=batch".to_owned()),
        View::Trace(index) => parts.push(format!("trace={}", index + 1)),
        View::Golden => parts.push("view=golden".to_owned()),
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
pub(crate) fn decode_hash(hash: &str) -> HashState {
    let hash = hash.strip_prefix('#').unwrap_or(hash);
    let mut state = HashState::default();
    let mut settings = Settings::default();
    let mut any_setting = false;
    let mut baseline = Settings::default();
    let mut pinned = false;
    for part in hash.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = part.split_once('=').unwrap_or((part, ""));
        let value = decode(value);
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
fn encode(value: &str) -> String {
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
pub(super) fn encode_settings(settings: &Settings) -> String {
    settings_pairs(settings)
        .map(|(k, v)| format!("{k}={}", encode(&v)))
        .collect::<Vec<_>>()
        .join("&")
}

pub(super) fn decode_settings(text: &str) -> Settings {
    let mut settings = Settings::default();
    for part in text.split('&').filter(|p| !p.is_empty()) {
        if let Some((key, value)) = part.split_once('=') {
            // An unreadable saved key is dropped rather than blocking the page.
            let _ = settings.set(key, &decode(value));
        }
    }
    settings
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
