//! Counts of the page's expensive steps: each step adds one where it runs, so that a
//! browser test can tell a knob re-parsed nothing or left the trace list alone
//! (`test_hooks` reads them). Compiled only with the `test-hooks` feature; the site is
//! built without it, and neither the counts nor the additions are in its wasm.

use std::sync::atomic::AtomicUsize;

/// Documents (and pasted texts) parsed whole.
pub(crate) static PARSES: AtomicUsize = AtomicUsize::new(0);
/// Analyses the analysis memo computed itself.
pub(crate) static MEMO_ANALYSES: AtomicUsize = AtomicUsize::new(0);
/// Walks of a whole analysis by the trace list.
pub(crate) static LIST_WALKS: AtomicUsize = AtomicUsize::new(0);
/// Blocks of files read by the worker.
pub(crate) static WORKER_BLOCKS: AtomicUsize = AtomicUsize::new(0);
/// Golden evaluations of the Golden tab's cases against any run.
pub(crate) static GOLDEN_EVALUATIONS: AtomicUsize = AtomicUsize::new(0);
