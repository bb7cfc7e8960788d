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
//! The page's shell owns what must outlive a tab (the Compare tab's state, its
//! part of the URL); the tab creates its state on first use under the shell's
//! owner and keeps it here.

use crate::state::compare::CompareState;
use crate::state::explain::{hints, TraceHints};
use crate::state::golden::GoldenState;
use crate::state::{AppState, Shared};
use leptos::prelude::*;
use ragtrace_core::{explain_one, Analysis};

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

/// What the shell keeps for the Compare tab.
#[derive(Clone, Copy)]
pub(crate) struct CompareLink {
    /// The `cmp.` parts of the URL (key without prefix, value), at start and after
    /// every hand edit of the hash: the tab applies them.
    pub from_hash: RwSignal<Vec<(String, String)>>,
    /// The tab's parts of the URL, written by the tab (until it is first opened,
    /// the ones the page was opened with).
    pub to_hash: RwSignal<Vec<String>>,
    state: StoredValue<Option<CompareState>>,
    owner: StoredValue<Option<Owner>>,
}

impl CompareLink {
    /// Called in the shell: the tab's state will live as long as the shell's owner.
    pub(crate) fn new(from_hash: Vec<(String, String)>) -> Self {
        let to_hash = hash_parts(&from_hash);
        Self {
            from_hash: RwSignal::new(from_hash),
            to_hash: RwSignal::new(to_hash),
            state: StoredValue::new(None),
            owner: StoredValue::new(Owner::current()),
        }
    }

    /// A hand-edited hash: the tab follows it (or starts from it when first opened).
    pub(crate) fn follow(&self, parts: Vec<(String, String)>) {
        if self.state.with_value(Option::is_none) {
            self.to_hash.set(hash_parts(&parts));
        }
        self.from_hash.set(parts);
    }
}

fn hash_parts(parts: &[(String, String)]) -> Vec<String> {
    parts
        .iter()
        .map(|(key, value)| ["cmp.", key, "=", &crate::persist::encode(value)].concat())
        .collect()
}

/// The Compare tab: its state is created the first time it is shown.
#[cfg_attr(
    ragtrace_split,
    leptos::wasm_split::wasm_split(compare_tab, wasm_split_path = ::leptos::wasm_split)
)]
pub(crate) fn compare_tab(link: CompareLink) -> AnyView {
    let compare = link.state.get_value().unwrap_or_else(|| {
        let (state, golden) = (
            expect_context::<AppState>(),
            expect_context::<GoldenState>(),
        );
        let create = move || {
            let compare = CompareState::new(state, golden);
            Effect::new(move |_| {
                let parts = link.from_hash.get();
                untrack(|| compare.apply_hash(state, golden, &parts));
            });
            Effect::new(move |_| link.to_hash.set(compare.hash_parts()));
            compare
        };
        let compare = match link.owner.get_value() {
            Some(owner) => owner.with(create),
            None => create(),
        };
        link.state.set_value(Some(compare));
        compare
    });
    provide_context(compare);
    view! { <crate::components::compare::CompareView/> }.into_any()
}

/// The Golden tab's views (the evaluation itself runs in the shell: the Compare
/// tab and the downloads use it too).
#[cfg_attr(
    ragtrace_split,
    leptos::wasm_split::wasm_split(golden_tab, wasm_split_path = ::leptos::wasm_split)
)]
pub(crate) fn golden_tab() -> AnyView {
    view! { <crate::components::golden::GoldenView/> }.into_any()
}

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
