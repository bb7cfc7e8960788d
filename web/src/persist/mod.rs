//! What survives a reload and what a link carries.
//!
//! The URL hash holds the view: knobs, the pinned baseline, the open trace and
//! the list's filters, so a link reproduces what its sender saw. Traces never go
//! into a URL (they often hold private data); they are remembered only in this
//! browser's localStorage, with the knobs, until the user clears them.

//!
//! `hash`: the pure codec of the URL hash. `storage`: what localStorage keeps and
//! how it is written. `sync`: restoring at start and keeping both in step.

mod hash;
mod storage;
mod sync;

pub(crate) use hash::sort_key_name;
pub(crate) use sync::{apply_hash, forget, keep_cases_in_sync, keep_in_sync, restore};
