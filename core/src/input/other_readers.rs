//! The readers of traces from other stacks: OpenTelemetry spans and Phoenix's span
//! records (`shapes`) and TREC runs (`trec_run`). Every build has them from the start
//! but the page's split build (`--cfg ragtrace_split`), which leaves them out of the
//! module it starts with: there a document read before [`load_other_readers`] ran is
//! read without them, [`other_readers_missed`] says so, and the page loads them and
//! reads it again from its start.

use super::model::ParsedBatch;
use super::shapes;
use super::trec_run::parse_trec_run;

/// A TREC run's reader (source, text).
pub(in crate::input) type TrecRunReader = fn(&str, &str) -> ParsedBatch;

#[cfg(not(ragtrace_split))]
#[inline]
pub(in crate::input) fn trec_run_reader() -> Option<TrecRunReader> {
    Some(parse_trec_run)
}

#[cfg(ragtrace_split)]
static TREC_RUN: std::sync::OnceLock<TrecRunReader> = std::sync::OnceLock::new();

#[cfg(ragtrace_split)]
pub(in crate::input) fn trec_run_reader() -> Option<TrecRunReader> {
    let reader = TREC_RUN.get().copied();
    if reader.is_none() {
        shapes::mark_missed();
    }
    reader
}

/// Makes the readers of OpenTelemetry spans, Phoenix records and TREC runs available
/// to every reader from now on. Only the page's split build needs to call it (in the
/// module it loads when a document first needs them); elsewhere they always are.
pub fn load_other_readers() {
    shapes::load_span_readers();
    #[cfg(ragtrace_split)]
    TREC_RUN.get_or_init(|| parse_trec_run);
}

/// Whether a document read since the last call needed a reader that
/// [`load_other_readers`] had not made available yet, in which case what was read
/// of it is incomplete and it must be read again once they are. Always false but in
/// the page's split build.
pub fn other_readers_missed() -> bool {
    shapes::take_missed()
}
