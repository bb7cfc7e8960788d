//! The lazily loaded computations (see `deferred`): one trace's hints and the analysis as
//! the CLI's JSON. The state calls them; they import no view.

use crate::hints::{hints, TraceHints};
use crate::shared::Shared;
use ragtrace_core::{explain_one, Analysis};

/// The hints of the trace at `index` of `analysis` (made under `settings`), handed to
/// `then`: what would flip each candidate and the trace's level. Where the page is
/// split, the explain code is fetched with the first trace shown (the first paint
/// does not need it); elsewhere at once.
pub(crate) fn with_trace_hints(
    analysis: Shared<Analysis>,
    index: usize,
    then: impl FnOnce(Option<Shared<TraceHints>>) + 'static,
) {
    #[cfg(ragtrace_split)]
    leptos::task::spawn_local(async move { then(explain_trace(analysis, index).await) });
    #[cfg(not(ragtrace_split))]
    then(explain_trace(analysis, index));
}

#[cfg_attr(
    ragtrace_split,
    leptos::wasm_split::wasm_split(explain_trace, wasm_split_path = ::leptos::wasm_split)
)]
fn explain_trace(analysis: Shared<Analysis>, index: usize) -> Option<Shared<TraceHints>> {
    let trace = analysis.traces.get(index)?;
    // Under the settings the analysis was made under, whatever the knobs say by now.
    let explanation = explain_one(index, trace, &analysis.settings);
    Some(Shared::new(hints(&explanation, &trace.config)))
}

/// The analysis as the CLI's JSON, handed to `then`: where the page is split, after
/// the module that holds the serialiser is fetched (the first JSON download), since
/// nothing else the first paint needs writes an analysis as JSON; elsewhere at once.
pub(crate) fn with_analysis_json(
    analysis: Shared<Analysis>,
    then: impl FnOnce(Result<String, String>) + 'static,
) {
    #[cfg(ragtrace_split)]
    leptos::task::spawn_local(async move { then(analysis_json(analysis).await) });
    #[cfg(not(ragtrace_split))]
    then(analysis_json(analysis));
}

#[cfg_attr(
    ragtrace_split,
    leptos::wasm_split::wasm_split(analysis_json, wasm_split_path = ::leptos::wasm_split)
)]
fn analysis_json(analysis: Shared<Analysis>) -> Result<String, String> {
    serde_json::to_string_pretty(&*analysis).map_err(|e| e.to_string())
}
