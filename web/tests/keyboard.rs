//! Keyboard and assistive-technology use of the real `App`: the views as a
//! WAI-ARIA tablist, the trace list moved through with the arrow keys, the live
//! region that announces the analysis, and a label on every input. Key events
//! are dispatched as the page receives them; what the browser does natively with
//! trusted keys (Enter on a button, arrows and Page Up/Down on a range input) is
//! checked with real key presses by scripts/audit-site.sh.
#![cfg(target_arch = "wasm32")]

mod common;

use common::*;
use leptos::prelude::document;
use ragtrace_core::parse_documents;
use ragtrace_core::{analyze, Settings};
use ragtrace_web::samples::Sample;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// Dispatches a keydown of `key` on `target`; true when the page handled it
/// (called `preventDefault`, so the browser does not also scroll).
fn press(target: &web_sys::Element, key: &str) -> bool {
    let init = web_sys::KeyboardEventInit::new();
    init.set_key(key);
    init.set_bubbles(true);
    init.set_cancelable(true);
    let event =
        web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    !target.dispatch_event(&event).unwrap()
}

fn focused() -> Option<web_sys::Element> {
    document().active_element()
}

fn focused_id() -> String {
    focused().map(|el| el.id()).unwrap_or_default()
}

fn focus(root: &web_sys::Element, selector: &str) {
    let el: web_sys::HtmlElement = find(root, selector).unchecked_into();
    el.focus().unwrap();
}

fn selected_tabs(root: &web_sys::Element) -> Vec<String> {
    find_all(
        root,
        "[role=\"tablist\"] [role=\"tab\"][aria-selected=\"true\"]",
    )
    .iter()
    .map(|t| t.id())
    .collect()
}

/// The 0-based place in the shown list of the row holding the focus.
fn focused_row() -> Option<usize> {
    let row = focused()?.closest(".trow").ok()??;
    let index: usize = row.get_attribute("aria-rowindex")?.parse().ok()?;
    index.checked_sub(2)
}

#[wasm_bindgen_test]
async fn the_views_are_a_tablist_moved_by_arrows_home_and_end() {
    let (root, _app) = mount_fresh();
    settle().await;
    let tabs: Vec<String> = find_all(&root, "[role=\"tablist\"] [role=\"tab\"]")
        .iter()
        .map(|t| t.id())
        .collect();
    assert_eq!(&tabs[..3], ["tab-batch", "tab-trace", "tab-golden"]);
    let last = tabs.last().unwrap().clone();
    // One tab stop: the selected tab.
    assert_eq!(selected_tabs(&root), ["tab-batch"]);
    for tab in find_all(&root, "[role=\"tab\"]") {
        let selected = tab.get_attribute("aria-selected").as_deref() == Some("true");
        let stop = if selected { "0" } else { "-1" };
        assert_eq!(
            tab.get_attribute("tabindex").as_deref(),
            Some(stop),
            "{}",
            tab.id()
        );
        assert_eq!(
            tab.get_attribute("aria-controls").as_deref(),
            Some("view-panel")
        );
    }
    let panel = find(&root, "#view-panel");
    assert_eq!(panel.get_attribute("role").as_deref(), Some("tabpanel"));

    focus(&root, "#tab-batch");
    let list = find(&root, "[role=\"tablist\"]");
    // (key, the tab that is focused and selected afterwards)
    let steps = [
        ("ArrowRight", "tab-trace"),
        ("ArrowRight", "tab-golden"),
        ("ArrowLeft", "tab-trace"),
        ("Home", "tab-batch"),
        ("ArrowLeft", last.as_str()),
        ("ArrowRight", "tab-batch"),
        ("End", last.as_str()),
    ];
    for (key, want) in steps {
        let target = focused().unwrap();
        assert!(press(&target, key), "{key} was not handled");
        settle().await;
        assert_eq!(focused_id(), want, "focus after {key}");
        assert_eq!(selected_tabs(&root), [want], "selection after {key}");
        assert_eq!(
            panel.get_attribute("aria-labelledby").as_deref(),
            Some(want)
        );
    }
    // Selecting the trace tab shows the trace view.
    focus(&root, "#tab-batch");
    press(&list, "ArrowRight");
    settle().await;
    assert!(root.query_selector("#trace-title").unwrap().is_some());
    // Other keys are left to the browser (Tab moves on, Enter and Space click).
    let target = focused().unwrap();
    assert!(!press(&target, "Tab"));
    assert!(!press(&target, "a"));
}

#[wasm_bindgen_test]
async fn the_trace_list_is_one_tab_stop_moved_through_with_arrows() {
    let (root, _app) = mount_fresh();
    settle().await;
    let traces = analyze(
        &parse_documents(&[(
            "generated-500.json".to_owned(),
            Sample::Generated.text().to_string(),
        )]),
        &Settings::default(),
        false,
    )
    .unwrap()
    .traces
    .len();
    let viewport = find(&root, ".vtable-viewport");
    // What style.css gives it (the test page has no stylesheet): a fixed height that scrolls.
    viewport
        .set_attribute("style", "height: 480px; overflow-y: auto")
        .unwrap();
    assert_eq!(viewport.get_attribute("tabindex").as_deref(), Some("0"));
    // The rows' buttons are reached with the arrows, not one Tab each.
    for button in find_all(&root, ".vtable-window .trow button") {
        assert_eq!(button.get_attribute("tabindex").as_deref(), Some("-1"));
    }
    focus(&root, ".vtable-viewport");
    assert!(press(&viewport, "ArrowDown"));
    assert_eq!(focused_row(), Some(0));
    assert_eq!(
        focused().unwrap().tag_name(),
        "BUTTON",
        "Enter opens a focused button"
    );
    press(&viewport, "ArrowDown");
    press(&viewport, "ArrowDown");
    assert_eq!(focused_row(), Some(2));
    press(&viewport, "ArrowUp");
    assert_eq!(focused_row(), Some(1));

    // End: the last row is far outside the rendered window; it is scrolled to,
    // rendered and focused.
    press(&viewport, "End");
    next_frame().await;
    settle().await;
    next_frame().await;
    assert_eq!(focused_row(), Some(traces - 1));
    assert!(viewport.scroll_top() > 0);
    press(&viewport, "ArrowDown");
    assert_eq!(focused_row(), Some(traces - 1), "stays on the last row");
    press(&viewport, "Home");
    next_frame().await;
    settle().await;
    next_frame().await;
    assert_eq!(focused_row(), Some(0));
    assert_eq!(viewport.scroll_top(), 0);
    press(&viewport, "ArrowUp");
    assert_eq!(focused_row(), Some(0), "stays on the first row");
    // Past the bottom of the view the list scrolls and its window of rendered rows
    // is rebuilt; the focus stays on the row it moved to.
    for row in 1..=40 {
        press(&viewport, "ArrowDown");
        next_frame().await;
        settle().await;
        next_frame().await;
        assert_eq!(focused_row(), Some(row));
    }
    assert!(viewport.scroll_top() > 0);

    // The arrows follow the list as shown: sorted by position descending, the
    // first row is the last trace.
    // The list opens sorted by position ascending: one click reverses it.
    click(&root, "button.sort[data-sort=\"position\"]");
    settle().await;
    focus(&root, ".vtable-viewport");
    press(&viewport, "Home");
    next_frame().await;
    settle().await;
    next_frame().await;
    let row = focused().unwrap().closest(".trow").unwrap().unwrap();
    let index: usize = row.get_attribute("data-index").unwrap().parse().unwrap();
    assert_eq!(index, traces - 1);
    // Enter on the focused button clicks it: the trace opens.
    let button: web_sys::HtmlElement = focused().unwrap().unchecked_into();
    button.click();
    settle().await;
    assert_eq!(selected_tabs(&root), ["tab-trace"]);
}

#[wasm_bindgen_test]
async fn a_live_region_announces_the_summary_after_a_knob_change() {
    let (root, _app) = mount_fresh();
    settle().await;
    let status = find(&root, "#analysis-status");
    assert_eq!(status.get_attribute("aria-live").as_deref(), Some("polite"));
    let before = status.text_content().unwrap_or_default();

    set_input(&root, "#knob-maxL2Distance", "0.6", "input");
    settle().await;
    let after = status.text_content().unwrap_or_default();
    assert_ne!(before, after);
    let settings = Settings {
        max_l2_distance: Some(0.6),
        ..Settings::default()
    };
    let docs = [(
        "generated-500.json".to_owned(),
        Sample::Generated.text().to_string(),
    )];
    let want = analyze(&parse_documents(&docs), &settings, false).unwrap();
    let all = &want.summary.all;
    assert!(
        after.starts_with(&format!("{} traces analysed: ", all.traces)),
        "{after}"
    );
    for (level, n) in &all.levels {
        assert!(
            after.contains(&format!("{} {n}", level.as_str())),
            "{after}"
        );
    }
    assert!(
        after.ends_with(&format!(
            "; {} differ from the recorded level.",
            all.level_differs
        )),
        "{after}"
    );
}

/// The accessible name a screen reader would read for a form control: its
/// aria-label, aria-labelledby, a `<label for>` or a wrapping `<label>`.
fn has_label(root: &web_sys::Element, control: &web_sys::Element) -> bool {
    let named = |attr: &str| {
        control
            .get_attribute(attr)
            .is_some_and(|v| !v.trim().is_empty())
    };
    if named("aria-label") || named("aria-labelledby") {
        return true;
    }
    let by_for = !control.id().is_empty()
        && root
            .query_selector(&format!("label[for=\"{}\"]", control.id()))
            .unwrap()
            .is_some_and(|l| !l.text_content().unwrap_or_default().trim().is_empty());
    let wrapped = control
        .closest("label")
        .unwrap()
        .is_some_and(|l| !l.text_content().unwrap_or_default().trim().is_empty());
    by_for || wrapped
}

#[wasm_bindgen_test]
async fn every_input_has_a_label_on_every_tab() {
    let (root, _app) = mount_fresh();
    settle().await;
    let mut checked = 0;
    for tab in ["#tab-batch", "#tab-trace", "#tab-golden", "#tab-compare"] {
        if root.query_selector(tab).unwrap().is_none() {
            continue;
        }
        click(&root, tab);
        settle().await;
        for control in find_all(&root, "input, select, textarea") {
            assert!(
                has_label(&root, &control),
                "no label: {}",
                control.outer_html()
            );
            checked += 1;
        }
    }
    assert!(checked > 20, "only {checked} controls");
}
