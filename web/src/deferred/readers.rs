//! The core's readers of traces from other stacks (OpenTelemetry spans, Phoenix's
//! span records, TREC runs), loaded lazily (see `deferred`): most documents are the
//! service's own traces, and every file goes through one reader, so the split build
//! leaves these readers out of the first load. A document read before they are in
//! tells so (`ragtrace_core::other_readers_missed`), and the page loads them and
//! reads it again, so that it is read exactly as everywhere else.

/// Loads the readers of other stacks, once; at once where the page is not split.
pub(crate) async fn load_other_readers() {
    #[cfg(ragtrace_split)]
    other_readers().await;
    #[cfg(not(ragtrace_split))]
    other_readers();
}

#[cfg_attr(
    ragtrace_split,
    leptos::wasm_split::wasm_split(other_readers, wasm_split_path = ::leptos::wasm_split)
)]
fn other_readers() {
    ragtrace_core::load_other_readers();
    // The OpenTelemetry sample is spans: its generator comes with their readers.
    crate::samples::make_spans_text();
}
