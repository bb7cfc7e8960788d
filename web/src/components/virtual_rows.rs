//! The window of a virtualised table: rows of one fixed height in a scroll
//! container, of which only those in view (and a few around them) are in the DOM.
//! The trace list and the Compare tab's pair table both use it.

use crate::state::Shared;
use leptos::prelude::*;

/// Pixel height of one row; must match `--row` in style.css.
pub(crate) const ROW_HEIGHT: i32 = 30;
/// Rows that fit in the scroll container (`.vtable-viewport` is this many rows
/// high in style.css).
const VIEWPORT_ROWS: i32 = 16;
/// Extra rows rendered above and below, so fast scrolling shows no gaps.
const OVERSCAN: i32 = 6;

/// Which of a table's rows are rendered: a function of the scroll position and of
/// how many rows the table has.
#[derive(Clone, Copy)]
pub(crate) struct RowWindow {
    scroll_top: RwSignal<i32>,
    /// The table's rows (indices into what it lists). The memo itself rather than a
    /// signal derived from it: a derived signal costs the first load a closure and
    /// its arena slot.
    rows: Memo<Shared<Vec<usize>>>,
}

impl RowWindow {
    /// The window over a table of `rows`, scrolled to the top.
    pub(crate) fn new(rows: Memo<Shared<Vec<usize>>>) -> Self {
        RowWindow {
            scroll_top: RwSignal::new(0),
            rows,
        }
    }

    fn len(self) -> usize {
        self.rows.with(|r| r.len())
    }

    /// The rows to render, as `first..last` of the table's rows.
    pub(crate) fn range(self) -> (usize, usize) {
        let len = self.len() as i32;
        let first = (self.scroll_top.get() / ROW_HEIGHT - OVERSCAN).clamp(0, len);
        let last = (first + VIEWPORT_ROWS + 2 * OVERSCAN).min(len);
        (first as usize, last as usize)
    }

    /// Follows the scroll container's position (its `scroll` event, or a scroll the
    /// page made itself).
    pub(crate) fn scrolled_to(self, viewport: &web_sys::Element) {
        self.scroll_top.set(viewport.scroll_top());
    }
}

/// The inside of the scroll container: a spacer as tall as every row, and `rows`
/// (those of `window.range()`) moved down to where they are.
pub(crate) fn row_window_view(window: RowWindow, rows: impl IntoView) -> impl IntoView {
    let spacer_height = move || format!("{}px", window.len() as i32 * ROW_HEIGHT);
    let offset = move || format!("translateY({}px)", window.range().0 as i32 * ROW_HEIGHT);
    view! {
        <div class="vtable-spacer" style:height=spacer_height>
            <div class="vtable-window" style:transform=offset>
                {rows}
            </div>
        </div>
    }
}
