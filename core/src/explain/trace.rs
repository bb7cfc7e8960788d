//! One trace's counterfactuals: each candidate's, its level's and its low-quality flag's.

use super::candidates::candidates;
use super::distance::DistanceSearch;
use super::levels::Levels;
use super::tables::Tables;
use super::{TraceExplanation, Work};
use crate::config::Settings;
use crate::input::Trace;
use crate::trace_analysis::TraceAnalysis;
use std::sync::Arc;

/// Explains `t` (analysed under `user`).
pub(crate) fn explain_trace(
    index: usize,
    t: &TraceAnalysis,
    user: &Settings,
    work: &mut Work,
) -> TraceExplanation {
    let mut tables = std::mem::take(&mut work.tables);
    let shared = Arc::clone(&t.trace);
    tables.fill(t);
    let explained = explain_with(index, t, shared, user, &tables, work);
    work.tables = tables;
    explained
}

/// Explains `t` with its tables filled; `shared` is the explanation's share of
/// `t`'s trace (what its candidates read when they are read).
pub(crate) fn explain_with(
    index: usize,
    t: &TraceAnalysis,
    shared: Arc<Trace>,
    user: &Settings,
    tables: &Tables,
    work: &mut Work,
) -> TraceExplanation {
    let candidates = candidates(t, user, shared, tables, work);
    let levels = Levels { t, tables, user };
    let hybrid = levels.hybrid_runs(work);
    let mut floored = DistanceSearch::new(t);
    let level_if = levels.level_if(&hybrid, floored.as_mut(), work);
    let low_quality_if = levels.low_quality_if(&hybrid, floored.as_mut(), work);
    let reason = level_if.is_empty().then(|| {
        if tables.accepted_count(tables.cap, tables.return_n) == 0 {
            "no candidate can be accepted (none has a valid rank): no setting changes this"
                .to_owned()
        } else {
            "no setting changes the level alone".to_owned()
        }
    });
    TraceExplanation {
        index,
        level: t.relevance_level,
        low_quality: t.low_quality,
        level_if,
        low_quality_if,
        reason,
        candidates,
    }
}
