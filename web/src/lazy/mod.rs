//! The parts of the page a visitor may never use, loaded the first time they are.
//!
//! The site build (`scripts/build-site.sh`, `--cfg ragtrace_split`) splits the
//! page's wasm at the functions below: everything only they reach (the Compare
//! tab with the run comparison and its statistics, the Golden tab's views with
//! the calibration, the analysis written as JSON for its download) goes into
//! separate modules that the browser fetches when first needed, so the first
//! paint downloads only the inspector. Other builds (tests, `trunk serve`) keep
//! one module and call them directly.
//!
//! The split points come in two kinds, so that the page's state can reach the
//! computations without reaching the views above it:
//! - `views` (here): the tabs (Compare, Golden) and the Batch tab's floor sweep. The
//!   page's shell owns what must outlive a tab (the Compare tab's state, its part of
//!   the URL); the tab creates its state on first use under the shell's owner and
//!   keeps it there. Only the shell (`lib.rs`, `persist`) calls them.
//! - `deferred` (a folder of its own, below the state): results the state asks for
//!   (one trace's hints, the analysis as JSON) and the core's readers of
//!   OpenTelemetry spans, Phoenix records and TREC runs, loaded when a document first
//!   needs them (the document is read again); they import no view and no state.
//!
//! One more split point is the reading of files itself (`state::loading`, the core's
//! streamed reader and the block reader), fetched with the first file picked or dropped.

pub(crate) mod views;

/// Shows a lazily loaded tab: awaited where the build splits the page, called
/// directly where it does not.
macro_rules! lazy_view {
    ($call:expr) => {{
        #[cfg(ragtrace_split)]
        let view = leptos::prelude::Suspend::new(async move { $call.await }).into_any();
        #[cfg(not(ragtrace_split))]
        let view = $call;
        view
    }};
}
pub(crate) use lazy_view;
