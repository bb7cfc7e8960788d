//! What would it take, in the page: the shown trace's counterfactuals and the
//! Golden tab's Why missed, both from the core's `explain` (contract section 9), and
//! Try, which moves the knobs to a change after pinning the settings it started from.
//!
//! Neither is computed for the first paint: the trace's explanation comes out of a
//! lazily loaded function (`lazy::explain_trace`) when the trace is shown and after
//! each knob move, and the golden cases' one is computed after the paint that a knob
//! move makes, only while the Why missed panel is open.

use super::golden::GoldenState;
use super::{AppState, Shared};
use leptos::prelude::*;
use ragtrace_core::{Analysis, CaseSet, Change, Config, ExplainSummary};
use ragtrace_core::{SettingKey, SettingValue, TraceExplanation};

/// Try: pins the current settings as the baseline (when none is pinned), then applies
/// `change` on top of them, as a later `--set` would. The Batch tab then shows what
/// else the change moved, and the baseline's restore puts the knobs back.
pub(crate) fn try_change(state: AppState, change: Change) {
    if state.baseline.with_untracked(Option::is_none) {
        state.baseline.set(Some(state.settings.get_untracked()));
    }
    state.settings.update(|s| *s = change.applied_to(s));
}

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
pub(crate) fn condition(change: &Change, now: &Config) -> String {
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

/// The hints of the trace at `index` under the current analysis and knobs, computed
/// while the calling view lives (the trace view), after each knob move; `None` until
/// they arrive and while the ones that arrived are of an older analysis.
pub(crate) fn trace_hints(state: AppState, index: usize) -> Signal<Option<Shared<TraceHints>>> {
    let made = RwSignal::new(None::<(Shared<Analysis>, Shared<TraceHints>)>);
    Effect::new(move |_| {
        // `computed` is a new analysis after every knob move; invalid knobs explain nothing.
        let Some(analysis) = state
            .computed
            .get()
            .ok()
            .filter(|analysis| index < analysis.traces.len())
        else {
            return;
        };
        crate::lazy::with_trace_hints(analysis.clone(), index, move |hints| {
            if let Some(hints) = hints {
                made.try_set(Some((analysis, hints)));
            }
        });
    });
    Signal::derive(move || {
        let (made_of, hints) = made.get()?;
        state
            .analysis
            .with(|now| now.as_ref() == Some(&made_of))
            .then_some(hints)
    })
}

/// The golden cases explained: causes counted and the changes that recover cases.
pub(crate) type CasesExplained = Shared<ExplainSummary>;

/// The Why missed panel's summary, recomputed after the paint of every change of the
/// cases, the analysis or the knobs, while the caller (the open panel) lives: at
/// 10,000 cases it takes longer than a frame, so a knob move never waits for it.
/// `None` ("pending") while the one computed is of older input.
pub(crate) fn why_missed(state: AppState, golden: GoldenState) -> Signal<Option<CasesExplained>> {
    let input = Memo::new(move |_| -> Option<(Shared<CaseSet>, Shared<Analysis>)> {
        let Some(Ok(cases)) = golden.cases().get() else {
            return None;
        };
        Some((cases, state.computed.get().ok()?))
    });
    let made = RwSignal::new(None::<(Shared<CaseSet>, Shared<Analysis>, CasesExplained)>);
    Effect::new(move |_| {
        let Some((cases, analysis)) = input.get() else {
            return;
        };
        crate::browser::after_paint(move || {
            // A newer input has replaced this one meanwhile: it has its own turn.
            if input.with_untracked(|now| now.as_ref() != Some(&(cases.clone(), analysis.clone())))
            {
                return;
            }
            let explained = explain_cases(&cases, &analysis);
            if let Some(summary) = explained {
                made.set(Some((cases, analysis, summary)));
            }
        });
    });
    Signal::derive(move || {
        let now = input.get()?;
        made.with(|made| {
            made.as_ref()
                .filter(|(cases, analysis, _)| (cases, analysis) == (&now.0, &now.1))
                .map(|(_, _, summary)| summary.clone())
        })
    })
}

/// The cases explained under the settings the analysis was made under.
fn explain_cases(cases: &CaseSet, analysis: &Analysis) -> Option<CasesExplained> {
    ragtrace_core::explain_golden_cases(analysis, &analysis.settings, cases)
        .ok()
        .map(|(_, summary)| Shared::new(summary))
}
