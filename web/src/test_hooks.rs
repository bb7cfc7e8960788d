//! What the browser tests read and set inside the page: counts of the expensive
//! steps (so that a test can tell a knob re-parsed nothing or left the trace list
//! alone) and the sizes a load is cut into. Compiled only with the `test-hooks`
//! feature, which the browser tests turn on (web/Cargo.toml); the site is built
//! without it, and these counts and settings are then not in its wasm at all.
//!
//! The hooks reach into the page through its own seams (`counters`,
//! `state::loading::set_load_sizes`); nothing in the page reads this module.

use crate::counters::{GOLDEN_EVALUATIONS, LIST_WALKS, MEMO_ANALYSES, PARSES, WORKER_BLOCKS};
use std::sync::atomic::Ordering;

/// How many documents (and pasted texts) the page has parsed since it started:
/// the tests check that typing re-parses only the pasted text.
pub fn parse_count() -> usize {
    PARSES.load(Ordering::Relaxed)
}

/// How many analyses the analysis memo has computed itself (in the task that asked
/// for them) since the page started: the tests check that a loaded file's first
/// analysis was made in pieces beforehand instead.
pub fn memo_analysis_count() -> usize {
    MEMO_ANALYSES.load(Ordering::Relaxed)
}

/// How many times the trace list has walked a whole analysis to choose its rows since
/// the page started: the tests check that a knob the rows do not depend on walks none.
pub fn list_walk_count() -> usize {
    LIST_WALKS.load(Ordering::Relaxed)
}

/// How many golden evaluations (of the Golden tab's cases against any run) the page has
/// made since it started: the tests check that a knob that changes no accepted list
/// evaluates none.
pub fn golden_evaluation_count() -> usize {
    GOLDEN_EVALUATIONS.load(Ordering::Relaxed)
}

/// Blocks of files read by the worker so far, over every load (tests check that
/// loads use it).
pub fn blocks_read_by_worker() -> usize {
    WORKER_BLOCKS.load(Ordering::Relaxed)
}

/// The slice size of the loads that start after this call (tests use a few bytes,
/// so that lines are split at every offset).
pub fn set_slice_bytes(bytes: usize) {
    crate::state::loading::set_load_sizes(Some(bytes), None);
}

/// The task budget of the loads that start after this call (tests set 0, so that
/// every slice has a task of its own and a load of a small file can be watched and
/// cancelled while it runs).
pub fn set_task_budget_ms(ms: u32) {
    crate::state::loading::set_load_sizes(None, Some(ms));
}
