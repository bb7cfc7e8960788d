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
/// (as the URL spells it), `sorted` how the table is sorted now, and `sort` orders
/// the table by this column (or reverses it).
pub(crate) fn sort_header(
    label: &'static str,
    key: &'static str,
    sorted: impl Fn() -> ColumnSort + Copy + Send + Sync + 'static,
    sort: impl Fn() + Send + Sync + 'static,
) -> impl IntoView {
    view! {
        <div role="columnheader" class="tcell" aria-sort=move || sorted().aria_sort()>
            <button type="button" class="sort" data-sort=key on:click=move |_| sort()>
                {label}
                <span aria-hidden="true" class="sort-mark">
                    {move || sorted().mark()}
                </span>
            </button>
        </div>
    }
}
