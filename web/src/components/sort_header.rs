//! A column header that sorts its table by that column; a second click reverses.
//! The trace list and the Compare tab's pair table both use it.

use leptos::prelude::*;

/// How a table is sorted, as one column sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ColumnSort {
    /// By another column.
    Other,
    Ascending,
    Descending,
}

impl ColumnSort {
    /// `sorted_here` when the table is sorted by this column.
    pub(crate) fn of(sorted_here: bool, descending: bool) -> Self {
        match (sorted_here, descending) {
            (false, _) => ColumnSort::Other,
            (true, false) => ColumnSort::Ascending,
            (true, true) => ColumnSort::Descending,
        }
    }

    fn aria_sort(self) -> &'static str {
        match self {
            ColumnSort::Other => "none",
            ColumnSort::Ascending => "ascending",
            ColumnSort::Descending => "descending",
        }
    }

    fn mark(self) -> &'static str {
        match self {
            ColumnSort::Other => "",
            ColumnSort::Ascending => "▲",
            ColumnSort::Descending => "▼",
        }
    }
}

/// The header cell of a sortable column: `key` is the column's name in `data-sort`
/// (as the URL spells it), `sort` orders the table by it (or reverses it).
#[component]
pub(crate) fn SortHeader(
    label: &'static str,
    key: &'static str,
    sorted: Signal<ColumnSort>,
    sort: Callback<()>,
) -> impl IntoView {
    view! {
        <div role="columnheader" class="tcell" aria-sort=move || sorted.get().aria_sort()>
            <button type="button" class="sort" data-sort=key on:click=move |_| sort.run(())>
                {label}
                <span aria-hidden="true" class="sort-mark">
                    {move || sorted.get().mark()}
                </span>
            </button>
        </div>
    }
}
