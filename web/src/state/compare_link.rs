//! What the shell keeps for the Compare tab, which is lazily loaded
//! (`lazy::views::compare_tab`): its part of the URL, and its state once created.

use crate::state::compare::CompareState;
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
    /// The tab's state, once it was first shown.
    pub(crate) state: StoredValue<Option<CompareState>>,
    /// The shell's owner, under which the tab creates its state.
    pub(crate) owner: StoredValue<Option<Owner>>,
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
        .map(|(key, value)| ["cmp.", key, "=", &ragtrace_core::encode_component(value)].concat())
        .collect()
}
