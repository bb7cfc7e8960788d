//! Helpers for driving the real `App` in a browser as a user would.
#![allow(dead_code)]

use leptos::prelude::*;
use ragtrace_web::App;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

pub fn window() -> web_sys::Window {
    web_sys::window().expect("a browser window")
}

/// Mounts an `App` over whatever the page remembers (localStorage, hash): a reload.
pub fn mount_again() -> (web_sys::HtmlElement, Box<dyn std::any::Any>) {
    let root: web_sys::HtmlElement = document().create_element("div").unwrap().unchecked_into();
    document().body().unwrap().append_child(&root).unwrap();
    let handle = leptos::mount::mount_to(root.clone(), App);
    (root, Box::new(handle))
}

pub fn stored(key: &str) -> Option<String> {
    window()
        .local_storage()
        .unwrap()
        .unwrap()
        .get_item(key)
        .unwrap()
}

/// Forgets what earlier tests left (saved input, hash), then mounts a fresh `App`.
pub fn mount_fresh() -> (web_sys::HtmlElement, Box<dyn std::any::Any>) {
    if let Ok(Some(storage)) = window().local_storage() {
        let _ = storage.clear();
    }
    let location = window().location();
    let path = location.pathname().unwrap_or_default();
    let _ = window()
        .history()
        .unwrap()
        .replace_state_with_url(&JsValue::NULL, "", Some(&path));
    let root: web_sys::HtmlElement = document().create_element("div").unwrap().unchecked_into();
    document().body().unwrap().append_child(&root).unwrap();
    let handle = leptos::mount::mount_to(root.clone(), App);
    (root, Box::new(handle))
}

pub async fn sleep(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        window()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms)
            .unwrap();
    });
    JsFuture::from(promise).await.unwrap();
}

/// Lets scheduled effects run and the DOM update.
pub async fn settle() {
    for _ in 0..4 {
        sleep(0).await;
    }
}

pub async fn next_frame() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        window().request_animation_frame(&resolve).unwrap();
    });
    JsFuture::from(promise).await.unwrap();
}

pub fn find(root: &web_sys::Element, selector: &str) -> web_sys::Element {
    root.query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("no element matches {selector}"))
}

pub fn find_all(root: &web_sys::Element, selector: &str) -> Vec<web_sys::Element> {
    let list = root.query_selector_all(selector).unwrap();
    (0..list.length())
        .filter_map(|i| list.item(i))
        .map(|n| n.unchecked_into())
        .collect()
}

pub fn text(root: &web_sys::Element, selector: &str) -> String {
    find(root, selector).text_content().unwrap_or_default()
}

pub fn fire(target: &web_sys::Element, kind: &str) {
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    let event = web_sys::Event::new_with_event_init_dict(kind, &init).unwrap();
    target.dispatch_event(&event).unwrap();
}

/// Types (pastes) `value` into the textarea as a user would.
pub fn paste(root: &web_sys::Element, value: &str) {
    let area: web_sys::HtmlTextAreaElement = find(root, "#trace-input").unchecked_into();
    area.set_value(value);
    fire(&area, "input");
}

/// Moves a slider (or types into an input) and fires the event the page listens to.
pub fn set_input(root: &web_sys::Element, selector: &str, value: &str, event: &str) {
    let input: web_sys::HtmlInputElement = find(root, selector).unchecked_into();
    input.set_value(value);
    fire(&input, event);
}

pub fn click(root: &web_sys::Element, selector: &str) {
    let el: web_sys::HtmlElement = find(root, selector).unchecked_into();
    el.click();
}

/// The recomputed count of `level` over all traces, as the distribution table shows it.
pub fn shown_level_count(root: &web_sys::Element, level: &str) -> usize {
    text(
        root,
        &format!("#distribution-table tr[data-level=\"{level}\"] td[data-scope=\"all\"][data-kind=\"recomputed\"]"),
    )
    .trim()
    .parse()
    .unwrap()
}
