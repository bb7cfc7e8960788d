//! Text for numbers and labels the core computed. Formatting only: no arithmetic
//! on the values (rounding for display is the only change).

use ragtrace_core::CanonicalLabel;
use ragtrace_core::Level;

/// A quality or fraction: three decimals, trailing zeros dropped (`0.658`, `1`).
pub fn number(value: f64) -> String {
    if !value.is_finite() {
        return value.to_string();
    }
    let text = format!("{value:.3}");
    let text = if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.')
    } else {
        &text
    };
    if text == "-0" {
        "0".to_owned()
    } else {
        text.to_owned()
    }
}

pub fn optional_number(value: Option<f64>) -> String {
    value.map_or_else(|| "—".to_owned(), number)
}

pub fn mode(mode: Option<CanonicalLabel>) -> &'static str {
    mode.map_or("unknown", CanonicalLabel::as_str)
}

pub fn yes_no(value: bool) -> &'static str {
    if value {
        "yes"
    } else {
        "no"
    }
}

pub fn optional_bool(value: Option<bool>) -> &'static str {
    value.map_or("—", yes_no)
}

/// The five recomputable levels, best first.
pub const LEVELS: [Level; 5] = Level::ALL;

/// CSS class of a level's badge.
pub fn level_class(level: &str) -> &'static str {
    match level {
        "PRECISE" => "level level-precise",
        "HIGHLY_RELEVANT" => "level level-highly",
        "RELEVANT" => "level level-relevant",
        "LOW_RELEVANCE" => "level level-low",
        "NO_MATCH" => "level level-none",
        _ => "level level-other",
    }
}

/// `1 trace`, `2 traces`.
pub fn count(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}
