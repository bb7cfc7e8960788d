//! The batch view of the counterfactuals: causes counted, and for each change among the
//! cases' fixes, what it recovers and what it costs elsewhere.

use super::case::{evaluate, Cause, ExplainedCase};
use super::change::Change;
use super::tables::Tables;
use super::{ChangeImpact, ExplainSummary, Work};
use crate::config::{Config, Key, Settings};
use crate::golden::{GoldenCase, GoldenLevel};
use crate::outcome::outcome;
use crate::trace_analysis::{reanalyze_trace, TraceAnalysis};
use std::collections::BTreeMap;

fn causes(counted: impl Iterator<Item = Cause>) -> BTreeMap<&'static str, usize> {
    let mut causes: BTreeMap<&'static str, usize> =
        Cause::ALL.iter().map(|c| (c.as_str(), 0)).collect();
    for cause in counted {
        *causes.entry(cause.as_str()).or_default() += 1;
    }
    causes
}

/// Without cases: the trace count alone.
pub(crate) fn summarise_traces(traces: usize) -> ExplainSummary {
    ExplainSummary {
        traces,
        causes: causes(std::iter::empty()),
        ..ExplainSummary::default()
    }
}

/// Worst first, so a larger number is a lower hit level.
fn hit_rank(level: GoldenLevel) -> u8 {
    match level {
        GoldenLevel::Strong => 0,
        GoldenLevel::Medium => 1,
        GoldenLevel::Weak => 2,
        GoldenLevel::Miss => 3,
    }
}

pub(crate) fn summarise(
    cases: &[ExplainedCase],
    traces: &[TraceAnalysis],
    tables: &[Tables],
    golden_cases: &[GoldenCase],
    user: &Settings,
    global: &Config,
    work: &mut Work,
) -> ExplainSummary {
    let mut changes: Vec<Change> = Vec::new();
    for case in cases {
        for fix in &case.explanation.found_if {
            if !changes.contains(&fix.set) {
                changes.push(fix.set);
            }
        }
    }
    let mut impacts: Vec<ChangeImpact> = changes
        .into_iter()
        .filter_map(|change| {
            impact(
                change,
                cases,
                traces,
                tables,
                golden_cases,
                user,
                global,
                work,
            )
        })
        .collect();
    impacts.sort_by(|a, b| {
        b.recovers
            .cmp(&a.recovers)
            .then(a.traces_changed.cmp(&b.traces_changed))
            .then(a.hit_level_drops.cmp(&b.hit_level_drops))
    });
    ExplainSummary {
        traces: traces.len(),
        cases: cases.len(),
        causes: causes(cases.iter().map(|c| c.explanation.cause)),
        misses: cases
            .iter()
            .filter(|c| c.explanation.cause != Cause::Found)
            .count(),
        changes: impacts,
    }
}

/// `change` applied to the whole batch. The accepted lists and levels come from each
/// trace's tables (a fix of a case only sets `returnN` and `maxChunksPerDocument`); the
/// hit levels of the cases whose list changed come from the pipeline under the change.
#[allow(clippy::too_many_arguments)]
fn impact(
    change: Change,
    cases: &[ExplainedCase],
    traces: &[TraceAnalysis],
    tables: &[Tables],
    golden_cases: &[GoldenCase],
    user: &Settings,
    global: &Config,
    work: &mut Work,
) -> Option<ChangeImpact> {
    let (settings, changed_global) = change.apply(user).ok()?;
    let integer_only = change
        .settings()
        .all(|s| matches!(s.key, Key::ReturnN | Key::MaxChunksPerDocument));
    if !integer_only {
        return None;
    }
    let mut changed = vec![false; traces.len()];
    let mut traces_changed = 0;
    let mut level_transitions = BTreeMap::new();
    for ((t, table), changed) in traces.iter().zip(tables).zip(&mut changed) {
        let cap = change.count(Key::MaxChunksPerDocument).unwrap_or(table.cap);
        let return_n = change.count(Key::ReturnN).unwrap_or(table.return_n);
        if table.same_list(cap, return_n) {
            continue;
        }
        *changed = true;
        traces_changed += 1;
        let level = outcome(table.top_quality(cap, return_n), &t.config, None).level;
        if level != t.relevance_level {
            *level_transitions
                .entry(format!(
                    "{}->{}",
                    t.relevance_level.as_str(),
                    level.as_str()
                ))
                .or_insert(0) += 1;
        }
    }
    let mut recovered_cases = Vec::new();
    let mut hit_level_drops = 0;
    for (case, golden_case) in cases.iter().zip(golden_cases) {
        let Some((i, by)) = case.link else { continue };
        if !changed.get(i).copied().unwrap_or(false) {
            continue;
        }
        let (Some(t), Some(table)) = (traces.get(i), tables.get(i)) else {
            continue;
        };
        let cap = change.count(Key::MaxChunksPerDocument).unwrap_or(table.cap);
        let return_n = change.count(Key::ReturnN).unwrap_or(table.return_n);
        let found = if table.extends_current(cap, return_n) {
            // The list only grows at its end: no hit is lost, so only whether an
            // expected document comes in matters.
            case.expected
                .iter()
                .any(|&j| table.accepts(j, cap, return_n))
        } else {
            let after = reanalyze_trace(t, &settings, &changed_global, &mut work.scratch);
            let report = evaluate(golden_case, Some((&after, by)), global.return_n);
            if hit_rank(report.level) > hit_rank(case.explanation.hit) {
                hit_level_drops += 1;
            }
            report.doc_hit
        };
        if case.explanation.cause != Cause::Found && found {
            recovered_cases.push(case.explanation.case_id.clone());
        }
    }
    Some(ChangeImpact {
        set: change,
        recovers: recovered_cases.len(),
        recovered_cases,
        traces_changed,
        level_transitions,
        hit_level_drops,
    })
}
