//! Relevance level and the low-quality gate (contract section 3.4): quality only, no hint support.

use crate::config::Config;
use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
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
pub fn normalise_level(text: &str) -> String {
    text.trim()
        .chars()
        .map(|c| match c {
            '-' | ' ' => '_',
            c => c.to_ascii_uppercase(),
        })
        .collect()
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Outcome {
    pub top_quality: Option<f64>,
    pub level: Level,
    pub low_quality: bool,
    pub retry_unfiltered: bool,
}

/// `top_quality`: the best quality among accepted blocks, `None` when none was accepted.
pub fn outcome(
    top_quality: Option<f64>,
    config: &Config,
    category_filter: Option<&str>,
) -> Outcome {
    let level = match top_quality {
        None => Level::NoMatch,
        Some(q) if q >= config.precise_threshold => Level::Precise,
        Some(q) if q >= config.highly_relevant_threshold => Level::HighlyRelevant,
        Some(q) if q >= config.reference_threshold => Level::Relevant,
        Some(_) => Level::LowRelevance,
    };
    let low_quality = top_quality.is_none_or(|q| q < config.reference_threshold);
    // A whitespace-only filter filters nothing, so retrying without it would change nothing.
    let filtered = category_filter.is_some_and(|f| !f.trim().is_empty());
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
}
