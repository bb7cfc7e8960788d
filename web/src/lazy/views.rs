//! The lazily loaded tabs (see `lazy`): the Compare tab, with the state it creates
//! on first use, and the Golden tab's views.

use crate::state::compare::CompareState;
use crate::state::compare_link::CompareLink;
use crate::state::golden::GoldenState;
use crate::state::AppState;
use leptos::prelude::*;

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
