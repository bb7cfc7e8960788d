//! The lazily loaded tabs (see `lazy`): the Compare tab, with the state it creates
//! on first use, and the Golden tab's views.

use crate::state::compare::CompareState;
use crate::state::golden::GoldenState;
use crate::state::AppState;
use leptos::prelude::*;

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
    // Run B may be spans or a TREC run: the tab reads its files whole, at once.
    ragtrace_core::load_other_readers();
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

/// The Batch tab's floor sweep over every trace, shown once its section is opened.
#[cfg_attr(
    ragtrace_split,
    leptos::wasm_split::wasm_split(batch_floors, wasm_split_path = ::leptos::wasm_split)
)]
pub(crate) fn batch_floors() -> AnyView {
    view! { <crate::components::floor_sweep::BatchFloorSweepPanel/> }.into_any()
}
