//! Relevance level and the low-quality gate (contract section 3.4): quality only, no hint support.

use crate::config::Config;
use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Level {
    Precise,
    HighlyRelevant,
    Relevant,
    LowRelevance,
    NoMatch,
}

impl Level {
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Precise => "PRECISE",
            Level::HighlyRelevant => "HIGHLY_RELEVANT",
            Level::Relevant => "RELEVANT",
            Level::LowRelevance => "LOW_RELEVANCE",
            Level::NoMatch => "NO_MATCH",
        }
    }

    /// Reads a recorded level, forgiving case, spaces and dashes (`highly-relevant`).
    pub fn parse(text: &str) -> Option<Level> {
        match normalise_level(text).as_str() {
            "PRECISE" => Some(Level::Precise),
            "HIGHLY_RELEVANT" => Some(Level::HighlyRelevant),
            "RELEVANT" => Some(Level::Relevant),
            "LOW_RELEVANCE" => Some(Level::LowRelevance),
            "NO_MATCH" => Some(Level::NoMatch),
            _ => None,
        }
    }
}

/// The key a recorded level is counted under: trimmed, uppercase, `-`/space as `_`.
pub(crate) fn normalise_level(text: &str) -> String {
    text.trim()
        .chars()
        .map(|c| match c {
            '-' | ' ' => '_',
            c => c.to_ascii_uppercase(),
        })
        .collect()
}

/// `normalise_level(text) == expected` without allocating ([`Level::parse_recorded`] is
/// this against every level). Byte-wise is exact: the mapping only touches ASCII bytes,
/// and the bytes of a non-ASCII character are left alone by it just as the character is.
#[cfg(test)]
pub(crate) fn normalised_eq(text: &str, expected: &str) -> bool {
    trimmed_eq(trim_level(text), expected)
}

/// `text.trim()`, skipping the character decoding when both ends are visible ASCII
/// (the usual recorded level or category filter), which `trim` would leave alone anyway.
fn trim_level(text: &str) -> &str {
    match text.as_bytes() {
        [first, .., last] if first.is_ascii_graphic() && last.is_ascii_graphic() => text,
        [only] if only.is_ascii_graphic() => text,
        _ => text.trim(),
    }
}

/// [`normalised_eq`] on text already trimmed: Unicode trimming is a call that decodes
/// characters, so comparing against several levels trims once.
fn trimmed_eq(text: &str, expected: &str) -> bool {
    text.len() == expected.len()
        && text.bytes().zip(expected.bytes()).all(|(b, e)| {
            let b = match b {
                b'-' | b' ' => b'_',
                b => b.to_ascii_uppercase(),
            };
            b == e
        })
}

impl Level {
    /// Every level, best first (also `Level as usize` order, for counting arrays).
    pub const ALL: [Level; 5] = [
        Level::Precise,
        Level::HighlyRelevant,
        Level::Relevant,
        Level::LowRelevance,
        Level::NoMatch,
    ];

    /// The level's position in [`Level::ALL`] (0 = best): the row or column of a
    /// table counted by level.
    pub fn index(self) -> usize {
        self as usize
    }

    /// [`Level::parse`] without allocating.
    pub(crate) fn parse_recorded(text: &str) -> Option<Level> {
        let text = trim_level(text);
        Level::ALL
            .into_iter()
            .find(|level| trimmed_eq(text, level.as_str()))
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Outcome {
    pub top_quality: Option<f64>,
    pub level: Level,
    pub low_quality: bool,
    pub retry_unfiltered: bool,
}

/// `top_quality`: the best quality among accepted blocks, `None` when none was accepted.
pub(crate) fn outcome(
    top_quality: Option<f64>,
    config: &Config,
    category_filter: Option<&str>,
) -> Outcome {
    outcome_of(top_quality, config, filters(category_filter))
}

/// Whether a recorded category filter filters anything: a whitespace-only one filters
/// nothing, so retrying without it would change nothing.
pub(crate) fn filters(category_filter: Option<&str>) -> bool {
    category_filter.is_some_and(|f| !trim_level(f).is_empty())
}

/// [`outcome`] with the filter already read ([`filters`]).
pub(crate) fn outcome_of(top_quality: Option<f64>, config: &Config, filtered: bool) -> Outcome {
    let level = match top_quality {
        None => Level::NoMatch,
        Some(q) if q >= config.precise_threshold => Level::Precise,
        Some(q) if q >= config.highly_relevant_threshold => Level::HighlyRelevant,
        Some(q) if q >= config.reference_threshold => Level::Relevant,
        Some(_) => Level::LowRelevance,
    };
    let low_quality = top_quality.is_none_or(|q| q < config.reference_threshold);
    Outcome {
        top_quality,
        level,
        low_quality,
        retry_unfiltered: low_quality && filtered,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_by_threshold() {
        let c = Config::default();
        assert_eq!(outcome(None, &c, None).level, Level::NoMatch);
        assert!(outcome(None, &c, Some("x")).retry_unfiltered);
        assert_eq!(outcome(Some(0.9), &c, None).level, Level::Precise);
        assert_eq!(outcome(Some(0.75), &c, None).level, Level::HighlyRelevant);
        assert_eq!(outcome(Some(0.5), &c, None).level, Level::Relevant);
        let low = outcome(Some(0.49), &c, Some(" "));
        assert_eq!(low.level, Level::LowRelevance);
        assert!(low.low_quality);
        assert!(!low.retry_unfiltered);
        assert_eq!(
            Level::parse(" highly-relevant "),
            Some(Level::HighlyRelevant)
        );
    }

    #[test]
    fn normalised_eq_agrees_with_normalise_level() {
        for text in [
            " highly-relevant ",
            "no match",
            "Précise",
            "PRECISE\u{a0}",
            "\u{2003}relevant",
            "low_relevance",
            "",
            "-",
            "ıprecise",
            "PRECISE",
            "relevant\t",
            "x",
            " ",
            "\u{3000}",
        ] {
            assert_eq!(trim_level(text), text.trim(), "{text:?}");
            for level in Level::ALL {
                assert_eq!(
                    normalised_eq(text, level.as_str()),
                    normalise_level(text) == level.as_str(),
                    "{text:?} {level:?}"
                );
            }
            assert_eq!(Level::parse_recorded(text), Level::parse(text), "{text:?}");
        }
    }
}
