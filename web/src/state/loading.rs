//! A file being read in slices: what the progress bar shows, and how a load is cancelled.

use super::AppState;
use leptos::prelude::*;
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};

/// Bytes read and parsed per slice, the unit a task's budget is counted in. Half a MB
/// of JSON Lines parses in 3-12 ms in this page at the site's opt-level
/// (docs/performance.md): well inside the 50 ms a task may take, even on a busy
/// machine (1 MB slices measured 115 ms at worst).
pub const SLICE_BYTES: usize = 1 << 19;

/// The largest file the page reads. Loaded, a JSON Lines file takes 1.78 times its
/// size in wasm memory, the first analysis included (429 MB measured by
/// `bash scripts/bench.sh browser`); a wasm32 page can address 4 GiB, and a knob
/// builds a second analysis beside the first. 1.5 GB takes 2.7 GB and leaves the
/// rest for that; the command line streams larger files natively.
pub const LARGEST_FILE: u64 = 1_500_000_000;

static SLICE: AtomicUsize = AtomicUsize::new(SLICE_BYTES);

/// How long one task of a load parses before it yields to the browser: slices are
/// parsed one after another while the next one, taking as long as the last, still
/// ends within this. Yielding after every slice instead spent a fifth of a large
/// load between tasks (0.7 of 3.4 s for 429 MB: a slice parses in 3 ms on a fast
/// machine); this leaves room under the 50 ms a task may take for a slice that runs
/// long on a busy machine.
pub const TASK_BUDGET_MS: u32 = 25;

static TASK_BUDGET: AtomicU32 = AtomicU32::new(TASK_BUDGET_MS);

/// The slice size of the loads that start after this call (tests use a few bytes,
/// so that lines are split at every offset).
#[doc(hidden)]
pub fn set_slice_bytes(bytes: usize) {
    SLICE.store(bytes.max(1), Ordering::Relaxed);
}

pub(crate) fn slice_bytes() -> usize {
    SLICE.load(Ordering::Relaxed)
}

/// The task budget of the loads that start after this call (tests set 0, so that
/// every slice has a task of its own and a load of a small file can be watched and
/// cancelled while it runs).
#[doc(hidden)]
pub fn set_task_budget_ms(ms: u32) {
    TASK_BUDGET.store(ms, Ordering::Relaxed);
}

pub(crate) fn task_budget_ms() -> f64 {
    f64::from(TASK_BUDGET.load(Ordering::Relaxed))
}

/// Where the current load is.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadProgress {
    /// The file being read.
    pub file: String,
    /// Files of the same pick or drop still waiting after this one.
    pub files_after: usize,
    pub size: u64,
    pub bytes_read: u64,
    pub traces: usize,
    /// When this file's reading started (`Date.now()`, ms).
    pub started_ms: f64,
    pub now_ms: f64,
}

impl LoadProgress {
    /// The time left at the speed so far; `None` until a first slice is in.
    pub fn remaining_seconds(&self) -> Option<f64> {
        let elapsed = self.now_ms - self.started_ms;
        (self.bytes_read > 0 && elapsed > 0.0).then(|| {
            let left = self.size.saturating_sub(self.bytes_read) as f64;
            left / self.bytes_read as f64 * elapsed / 1000.0
        })
    }
}

/// The message for a file too large for this page, before any of it is read.
pub(crate) fn too_large(name: &str, size: u64) -> String {
    format!(
        "{name} is {:.0} MB, more than this page can hold ({:.0} MB): analyse it with \
         `ragtrace analyze {name}`, which streams files of any size.",
        size as f64 / 1e6,
        LARGEST_FILE as f64 / 1e6
    )
}

impl AppState {
    /// Starts a load: any load still running is cancelled. Returns its ticket.
    pub(crate) fn begin_load(&self) -> u64 {
        let ticket = self.load_ticket.get_value() + 1;
        self.load_ticket.set_value(ticket);
        ticket
    }

    /// False once the load with this ticket was cancelled or replaced.
    pub(crate) fn load_is_current(&self, ticket: u64) -> bool {
        self.load_ticket.get_value() == ticket
    }

    /// Stops the current load; the documents loaded before it stay as they were.
    pub fn cancel_load(&self) {
        self.begin_load();
        self.loading.set(None);
    }
}
