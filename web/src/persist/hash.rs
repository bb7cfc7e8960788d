//! The URL hash codec: the view as `key=value&...` text and back. Pure functions,
//! so they are tested without a browser. The text itself (percent coding, the parts,
//! the settings in it) is the core's `config::link`; this adds the page's own words.

use crate::state::{ListControls, ModeFilter, Sort, SortKey, View};
use ragtrace_core::{encode_settings, link_pairs, settings_from_pairs};
use ragtrace_core::{ConfigError, Level, Settings};

/// Everything the hash can say; absent parts keep their defaults.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct HashState {
    /// The link's settings (`None` when it has none): its valid keys only.
    pub settings: Option<Settings>,
    /// The pinned baseline's settings (`pin=1` or `pin.` keys): valid keys only.
    pub baseline: Option<Settings>,
    /// The settings the link held that were left out, with why (baseline keys
    /// named with their `pin.` prefix).
    pub ignored: Vec<ConfigError>,
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
    let mut parts: Vec<String> = Vec::new();
    let settings = encode_settings(settings);
    if !settings.is_empty() {
        parts.push(settings);
    }
    if let Some(baseline) = baseline {
        parts.push("pin=1".to_owned());
        let pinned = encode_settings(baseline);
        parts.extend(
            pinned
                .split('&')
                .filter(|p| !p.is_empty())
                .map(|p| format!("pin.{p}")),
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

/// Reads a hash written by [`encode_hash`]; anything unreadable is ignored, so a
/// hand-edited or outdated link still opens. Settings it holds that are invalid are
/// left at their defaults and listed in `ignored`.
pub(crate) fn decode_hash(hash: &str) -> HashState {
    let mut state = HashState::default();
    let mut settings: Vec<(&str, String)> = Vec::new();
    let mut baseline: Vec<(&str, String)> = Vec::new();
    let mut pinned = false;
    for (key, value) in link_pairs(hash) {
        if let Some(key) = key.strip_prefix("cmp.") {
            state.compare.push((key.to_owned(), value));
            continue;
        }
        if let Some(key) = key.strip_prefix("pin.") {
            pinned = true;
            baseline.push((key, value));
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
            // A view this page does not know (a newer link): the default view.
            "view" => {}
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
            _ => settings.push((key, value)),
        }
    }
    let read =
        |parts: &[(&str, String)]| settings_from_pairs(parts.iter().map(|(k, v)| (*k, v.as_str())));
    if !settings.is_empty() {
        let (valid, ignored) = read(&settings);
        state.settings = Some(valid);
        state.ignored.extend(ignored);
    }
    if pinned {
        let (valid, ignored) = read(&baseline);
        state.baseline = Some(valid);
        state.ignored.extend(ignored.into_iter().map(|mut error| {
            error.key = error.key.map(|key| format!("pin.{key}"));
            error
        }));
    }
    state
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
        assert_eq!(back.settings, Some(Settings::default()));
        assert_eq!(back.ignored.len(), 2, "{:?}", back.ignored);
        assert_eq!(back.view, None);
        assert_eq!(back.list, ListControls::default());
        assert_eq!(decode_hash("#trace=0&view=nope").settings, None);
    }

    #[test]
    fn invalid_settings_of_a_link_are_named_and_left_at_their_defaults() {
        let back = decode_hash("#maxL2Distance=-1&returnN=0&maxChunksPerDocument=1&pin.returnN=0");
        assert_eq!(
            back.settings,
            Some(Settings {
                max_chunks_per_document: Some(1),
                ..Settings::default()
            })
        );
        assert_eq!(back.baseline, Some(Settings::default()));
        let keys: Vec<_> = back
            .ignored
            .iter()
            .filter_map(|e| e.key.as_deref())
            .collect();
        assert_eq!(keys, ["returnN", "maxL2Distance", "pin.returnN"]);
    }
}
