//! Settings as `key=value&...` text: what a shared link's hash and the page's saved
//! knobs hold. Percent coding, splitting, and reading the settings leniently, so a
//! hand-edited or outdated link still opens with everything in it that is valid.

use super::{Config, ConfigError, Settings};

/// Percent-encodes everything but unreserved characters (values are numbers and
/// names, so this rarely changes anything; it keeps `&`, `=` and `#` out).
pub fn encode_component(value: &str) -> String {
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

/// Reverses [`encode_component`]. A `%` not followed by two hex digits stays as it
/// is, and bytes that do not form UTF-8 become U+FFFD (a link is text a person may
/// have edited; nothing in it is worth refusing the page for).
pub fn decode_component(value: &str) -> String {
    let bytes = value.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&byte) = bytes.get(i) {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()))
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (byte, hex) {
            (b'%', Some(decoded)) => {
                out.push(decoded);
                i += 3;
            }
            _ => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The `key=value` parts of `text` (a leading `#` or `?` is skipped), keys as
/// written and values decoded; a part without `=` has an empty value.
pub fn link_pairs(text: &str) -> impl Iterator<Item = (&str, String)> {
    let text = text
        .strip_prefix('#')
        .or_else(|| text.strip_prefix('?'))
        .unwrap_or(text);
    text.split('&').filter(|p| !p.is_empty()).map(|part| {
        let (key, value) = part.split_once('=').unwrap_or((part, ""));
        (key, decode_component(value))
    })
}

/// `key=value&...` for the keys `settings` overrides, in [`super::SettingKey::ALL`] order;
/// [`settings_from_pairs`] reads it back.
pub fn encode_settings(settings: &Settings) -> String {
    settings
        .overrides()
        .map(|(key, value)| format!("{}={}", key.name(), encode_component(&value.to_string())))
        .collect::<Vec<_>>()
        .join("&")
}

/// Settings from `key=value` pairs, keeping every key that is valid: an unknown key,
/// a value that does not read as its kind, a value out of its bounds, and a threshold
/// out of order with the ones kept before it (in [`super::SettingKey::ALL`] order) are left
/// at their defaults and returned with why. The settings returned are always valid
/// ([`Config::from_settings`] accepts them).
pub fn settings_from_pairs<'a>(
    pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> (Settings, Vec<ConfigError>) {
    let mut read = Settings::default();
    let mut ignored = Vec::new();
    for (key, value) in pairs {
        if let Err(error) = read.set(key, value) {
            ignored.push(error);
        }
    }
    let mut kept = Settings::default();
    for (key, value) in read.overrides() {
        let mut trial = kept.clone();
        trial.put(key, value);
        match Config::from_settings(&trial) {
            Ok(_) => kept = trial,
            Err(error) if error.key.as_deref() == Some(key.name()) => ignored.push(error),
            Err(error) => ignored.push(ConfigError {
                key: Some(key.name().to_owned()),
                message: format!("{value} conflicts with {error}"),
            }),
        }
    }
    (kept, ignored)
}

/// [`settings_from_pairs`] over the parts of `text` (see [`link_pairs`]).
pub fn settings_from_text(text: &str) -> (Settings, Vec<ConfigError>) {
    let parts: Vec<(&str, String)> = link_pairs(text).collect();
    settings_from_pairs(parts.iter().map(|(key, value)| (*key, value.as_str())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::HybridQuality;

    #[test]
    fn the_valid_part_of_a_link_is_kept_and_the_rest_named() {
        let (settings, ignored) =
            settings_from_text("#maxL2Distance=-1&returnN=0&maxChunksPerDocument=1");
        assert_eq!(
            settings,
            Settings {
                max_chunks_per_document: Some(1),
                ..Settings::default()
            }
        );
        let named: Vec<String> = ignored.iter().map(ToString::to_string).collect();
        assert_eq!(
            named,
            [
                "returnN: must be an integer >= 1, got 0",
                "maxL2Distance: must be > 0 and finite, got -1"
            ]
        );
        let (settings, ignored) = settings_from_text("referenceThreshold=0.8&nope=1");
        assert_eq!(settings, Settings::default());
        let named: Vec<String> = ignored.iter().map(ToString::to_string).collect();
        assert_eq!(
            named,
            [
                "nope: unknown configuration key",
                "referenceThreshold: 0.8 conflicts with highlyRelevantThreshold: must be >= referenceThreshold (0.75 < 0.8)"
            ]
        );
    }

    #[test]
    fn settings_round_trip_through_their_text() {
        let settings = Settings {
            max_l2_distance: Some(0.6),
            return_n: Some(3),
            reference_threshold: Some(0.25),
            hybrid_quality: Some(HybridQuality::MaxRankDense),
            use_trace_options: false,
            ..Settings::default()
        };
        let text = encode_settings(&settings);
        assert_eq!(
            text,
            "maxL2Distance=0.6&returnN=3&referenceThreshold=0.25&hybridQuality=maxRankDense&useTraceOptions=false"
        );
        assert_eq!(settings_from_text(&text), (settings, Vec::new()));
    }

    #[test]
    fn percent_coding() {
        assert_eq!(decode_component("a%20b%2"), "a b%2");
        assert_eq!(decode_component("%+1%zz%4"), "%+1%zz%4");
        assert_eq!(decode_component("%FF"), "\u{fffd}");
        assert_eq!(encode_component("a&b=c"), "a%26b%3Dc");
        assert_eq!(decode_component(&encode_component("ü &=#%")), "ü &=#%");
    }
}
