//! What would it take, in the page: the shown trace's counterfactuals and the
//! Golden tab's Why missed, both from the core's `explain` (contract section 9), and
//! Try, which moves the knobs to a change after pinning the settings it started from.
//!
//! Neither is computed for the first paint: the trace's explanation comes out of a
//! lazily loaded function (`deferred::compute::explain_trace`) when the trace is shown and after
//! each knob move, and the golden cases' one is computed after the paint that a knob
//! move makes, only while the Why missed panel is open.

use super::golden::GoldenState;
use super::{AppState, Shared};
use crate::hints::TraceHints;
use leptos::prelude::*;
use ragtrace_core::{Analysis, CaseSet, Change, ExplainSummary};

/// Try: pins the current settings as the baseline (when none is pinned), then applies
/// `change` on top of them, as a later `--set` would. The Batch tab then shows what
/// else the change moved, and the baseline's restore puts the knobs back.
pub(crate) fn try_change(state: AppState, change: Change) {
    if state.baseline.with_untracked(Option::is_none) {
        state.baseline.set(Some(state.settings.get_untracked()));
    }
    state.settings.update(|s| *s = change.applied_to(s));
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
        crate::deferred::compute::with_trace_hints(analysis.clone(), index, move |hints| {
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
