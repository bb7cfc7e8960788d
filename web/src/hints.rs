//! The core's explanation of one trace as the hints the trace view lists beside each
//! candidate and the level ("accepted with returnN >= 7"), each with the change its
//! Try button applies. Written out where the explanation is computed (the lazily
//! loaded `deferred::compute::explain_trace`), so the first load holds only the list that
//! shows them.

use ragtrace_core::{Change, Config, SettingKey, SettingValue, TraceExplanation};

/// One hint: what a change gives, as read beside a candidate or the level
/// ("accepted with returnN >= 7"), and the change, for its Try button.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Hint {
    pub text: String,
    /// The change as `returnN = 7` (its Try button's name says "Try" and this).
    pub key: String,
    pub change: Change,
}

/// The shown trace's hints, written out where they are computed (the lazily loaded
/// part), so that the first load holds only the list that shows them.
#[derive(Debug, Default)]
pub(crate) struct TraceHints {
    /// What changes the level, then what flips `lowQuality`.
    pub level: Vec<Hint>,
    /// Why nothing changes the level, when nothing does.
    pub reason: Option<String>,
    /// Per candidate (its `inputIndex`): what accepts it, or for an accepted one, drops it.
    pub candidates: Vec<(usize, Vec<Hint>)>,
}

impl TraceHints {
    /// The change of the hint a Try button names: `level:N` (the `N`th of `level`)
    /// or `INPUT:N` (the `N`th of the candidate at `inputIndex` `INPUT`).
    pub(crate) fn change_of(&self, slot: &str) -> Option<Change> {
        let (list, at) = slot.split_once(':')?;
        let at: usize = at.parse().ok()?;
        let hints = match list {
            "level" => &self.level[..],
            input => self.candidate(input.parse().ok()?),
        };
        hints.get(at).map(|hint| hint.change)
    }

    pub(crate) fn candidate(&self, input_index: usize) -> &[Hint] {
        self.candidates
            .iter()
            .find(|(index, _)| *index == input_index)
            .map_or(&[], |(_, hints)| hints)
    }
}

/// The explanation as hints; `now` is the trace's configuration (the hints read from it).
pub(crate) fn hints(explanation: &TraceExplanation, now: &Config) -> TraceHints {
    let hint = |outcome: &str, joiner: &str, change: Change| Hint {
        text: format!("{outcome}{joiner}{}", condition(&change, now)),
        key: change.to_string(),
        change,
    };
    let level = explanation
        .level_if
        .iter()
        .map(|l| hint(l.level.as_str(), " at ", l.set))
        .chain(explanation.low_quality_if.iter().map(|l| {
            let flag = if l.low_quality {
                "lowQuality yes"
            } else {
                "lowQuality no"
            };
            hint(flag, " at ", l.set)
        }))
        .collect();
    let candidates = explanation
        .candidates
        .iter()
        .map(|c| {
            let (outcome, changes) = if c.accepted_if.is_empty() {
                ("dropped", &c.dropped_if)
            } else {
                ("accepted", &c.accepted_if)
            };
            let listed = changes.iter().map(|s| hint(outcome, " with ", s.set));
            (c.index, listed.collect())
        })
        .collect();
    TraceHints {
        level,
        reason: explanation.reason.clone(),
        candidates,
    }
}

/// The change as a condition on the trace's settings `now`: a single `returnN` or
/// continuous setting reads `>=` or `<=` from the value it has now (the result holds
/// from that edge on); a cap, `hybridQuality` or a pair reads `=`.
fn condition(change: &Change, now: &Config) -> String {
    let mut settings = change.settings();
    let (Some(only), None) = (settings.next(), settings.next()) else {
        return change
            .settings()
            .map(|s| format!("{} = {}", s.key.name(), s.value))
            .collect::<Vec<_>>()
            .join(" and ");
    };
    let direction = match (only.key, only.value, now.value(only.key)) {
        (SettingKey::ReturnN, SettingValue::Count(to), Some(SettingValue::Count(from))) => {
            Some(to > from)
        }
        (_, SettingValue::Number(to), Some(SettingValue::Number(from))) => Some(to > from),
        _ => None,
    };
    let relation = match direction {
        Some(true) => ">=",
        Some(false) => "<=",
        None => "=",
    };
    format!("{} {relation} {}", only.key.name(), only.value)
}
