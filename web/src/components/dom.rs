//! Plain DOM for read-only panels that are rebuilt whole when their data changes.
//!
//! Leptos's typed views compile into code per view shape; a panel that is only ever
//! rebuilt from new numbers (the Compare tab's tables and drawing) costs far less wasm
//! as a few calls here. Text is always set as text, never parsed as HTML.

use leptos::html;
use leptos::prelude::*;
use web_sys::Element;

const SVG: &str = "http://www.w3.org/2000/svg";

/// An element with a class (none when `class` is empty) and text (none when empty).
pub(crate) fn el(tag: &str, class: &str, text: &str) -> Option<Element> {
    let e = document().create_element(tag).ok()?;
    set(&e, "class", class);
    if !text.is_empty() {
        e.set_text_content(Some(text));
    }
    Some(e)
}

/// An SVG element with its attributes.
pub(crate) fn svg(tag: &str, attributes: &[(&str, &str)]) -> Option<Element> {
    let e = document().create_element_ns(Some(SVG), tag).ok()?;
    for (name, value) in attributes {
        set(&e, name, value);
    }
    Some(e)
}

/// Sets an attribute unless `value` is empty.
pub(crate) fn set(e: &Element, name: &str, value: &str) {
    if !value.is_empty() {
        let _ = e.set_attribute(name, value);
    }
}

/// Appends `child` to `parent` and hands `parent` back.
pub(crate) fn add(parent: Element, child: Option<Element>) -> Element {
    if let Some(child) = child {
        let _ = parent.append_child(&child);
    }
    parent
}

/// A table cell: its text, the class of the span holding it, its column name.
pub(crate) type Cell = (String, &'static str, &'static str);

/// A table: a head row, then rows keyed by `data-key` whose first cell heads the row.
pub(crate) fn table(
    id: &str,
    class: &str,
    head: &[&str],
    rows: Vec<(String, Vec<Cell>)>,
) -> Option<Element> {
    let table = el("table", class, "")?;
    set(&table, "id", id);
    let mut head_row = el("tr", "", "")?;
    for h in head {
        head_row = add(head_row, el("th", "", h));
    }
    let table = add(table, Some(add(el("thead", "", "")?, Some(head_row))));
    let mut body = el("tbody", "", "")?;
    for (key, cells) in rows {
        let mut tr = el("tr", "", "")?;
        set(&tr, "data-key", &key);
        for (i, (text, class, col)) in cells.into_iter().enumerate() {
            let td = el(if i == 0 { "th" } else { "td" }, "", "")?;
            set(&td, "data-col", col);
            tr = add(tr, Some(add(td, el("span", class, &text))));
        }
        body = add(body, Some(tr));
    }
    // Focusable, so a keyboard can scroll it when it is wider than the page.
    let scroller = el("div", "scroll-x", "")?;
    set(&scroller, "tabindex", "0");
    Some(add(scroller, Some(add(table, Some(body)))))
}

/// A container whose content `build` makes (as plain DOM) and remakes whenever what
/// it reads changes.
pub(crate) fn host(
    class: &'static str,
    build: impl Fn() -> Option<Element> + 'static,
) -> impl IntoView {
    let node = NodeRef::<html::Div>::new();
    Effect::new(move |_| {
        let content = build();
        if let Some(node) = node.get() {
            node.set_text_content(None);
            if let Some(content) = content {
                let _ = node.append_child(&content);
            }
        }
    });
    view! { <div class=class node_ref=node></div> }
}
