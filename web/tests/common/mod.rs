//! Helpers for driving the real `App` in a browser as a user would.
#![allow(dead_code)]

use leptos::prelude::*;
use ragtrace_web::App;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

pub fn window() -> web_sys::Window {
    web_sys::window().expect("a browser window")
}

/// Gives the test page the site's stylesheet (once), so that what a benchmark measures
/// includes the style, layout and paint of the page as visitors get it.
pub fn use_site_style() {
    if document().get_element_by_id("site-style").is_some() {
        return;
    }
    let style = document().create_element("style").unwrap();
    style.set_id("site-style");
    style.set_text_content(Some(include_str!("../../style.css")));
    document().head().unwrap().append_child(&style).unwrap();
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

/// Opens the page on `hash` with nothing saved, as a shared link opens in a new browser.
pub fn open_link(hash: &str) -> (web_sys::HtmlElement, Box<dyn std::any::Any>) {
    if let Ok(Some(storage)) = window().local_storage() {
        let _ = storage.clear();
    }
    let path = window().location().pathname().unwrap_or_default();
    window()
        .history()
        .unwrap()
        .replace_state_with_url(&JsValue::NULL, "", Some(&format!("{path}{hash}")))
        .unwrap();
    mount_again()
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

/// Waits until what the page leaves for after the next paint (the link, the
/// significance tests, freeing replaced analyses) has run: a painted frame, then an
/// idle moment, where the page runs that work (`requestIdleCallback`).
pub async fn after_paint() {
    next_frame().await;
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let idle: js_sys::Function =
            js_sys::Reflect::get(&window(), &JsValue::from_str("requestIdleCallback"))
                .unwrap()
                .unchecked_into();
        idle.call1(&window(), &resolve).unwrap();
    });
    JsFuture::from(promise).await.unwrap();
    settle().await;
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

/// Types (pastes) `value` into the textarea as a user would, without waiting.
pub fn type_into_paste_box(root: &web_sys::Element, value: &str) {
    let area: web_sys::HtmlTextAreaElement = find(root, "#trace-input").unchecked_into();
    area.set_value(value);
    fire(&area, "input");
}

/// Pastes `value` and waits for the pause after which the page parses it.
pub async fn paste(root: &web_sys::Element, value: &str) {
    type_into_paste_box(root, value);
    sleep(ragtrace_web::PASTE_PAUSE.as_millis() as i32 + 20).await;
    settle().await;
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

/// Picks `files` (name, content) in the file input, as a user would.
pub fn pick_files(root: &web_sys::Element, files: &[(&str, &[u8])]) {
    let transfer = web_sys::DataTransfer::new().unwrap();
    for (name, content) in files {
        let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(*content));
        let file = web_sys::File::new_with_u8_array_sequence_and_options(
            &parts,
            name,
            &web_sys::FilePropertyBag::new(),
        )
        .unwrap();
        transfer.items().add_with_file(&file).unwrap();
    }
    let input: web_sys::HtmlInputElement = find(root, "#file-input").unchecked_into();
    input.set_files(transfer.files().as_ref());
    fire(&input, "change");
}

/// Waits (up to `seconds`) until `done` holds, checking every 10 ms.
pub async fn wait_until(seconds: u32, mut done: impl FnMut() -> bool) -> bool {
    for _ in 0..seconds * 100 {
        if done() {
            return true;
        }
        sleep(10).await;
    }
    done()
}

/// Replaces `URL.createObjectURL` and `HTMLAnchorElement.click` for the length of
/// a test, so a download is captured instead of started.
pub struct CapturedDownloads;

impl CapturedDownloads {
    pub fn start() -> Self {
        let install = js_sys::Function::new_no_args(
            r#"
            const saved = { create: URL.createObjectURL, click: HTMLAnchorElement.prototype.click };
            globalThis.__downloads = [];
            URL.createObjectURL = (blob) => {
                globalThis.__downloads.push({ blob });
                return "blob:captured-" + globalThis.__downloads.length;
            };
            HTMLAnchorElement.prototype.click = function () {
                const last = globalThis.__downloads[globalThis.__downloads.length - 1];
                last.name = this.download;
                last.href = this.href;
            };
            globalThis.__restoreDownloads = () => {
                URL.createObjectURL = saved.create;
                HTMLAnchorElement.prototype.click = saved.click;
            };
            "#,
        );
        install.call0(&wasm_bindgen::JsValue::NULL).unwrap();
        CapturedDownloads
    }

    /// (file name, MIME type, text) of the `n`th download.
    pub async fn get(&self, n: u32) -> (String, String, String) {
        let global = js_sys::global();
        let all = js_sys::Reflect::get(&global, &"__downloads".into()).unwrap();
        let entry = js_sys::Reflect::get(&all, &n.into()).unwrap();
        let name = js_sys::Reflect::get(&entry, &"name".into()).unwrap();
        let blob: web_sys::Blob = js_sys::Reflect::get(&entry, &"blob".into())
            .unwrap()
            .unchecked_into();
        let text = wasm_bindgen_futures::JsFuture::from(blob.text())
            .await
            .unwrap();
        (
            name.as_string().unwrap_or_default(),
            blob.type_(),
            text.as_string().unwrap_or_default(),
        )
    }
}

impl Drop for CapturedDownloads {
    fn drop(&mut self) {
        let restore = js_sys::Reflect::get(&js_sys::global(), &"__restoreDownloads".into())
            .unwrap()
            .unchecked_into::<js_sys::Function>();
        let _ = restore.call0(&wasm_bindgen::JsValue::NULL);
    }
}

// Timing helpers of the browser benchmarks.

pub fn now() -> f64 {
    window().performance().map_or(0.0, |p| p.now())
}

/// The floor of "input -> next painted frame": the same wait, `rounds` times, with no
/// input at all (frames come every ~16.7 ms at 60 Hz).
pub async fn idle_frames(rounds: usize) -> Vec<f64> {
    let mut idle_ms = Vec::new();
    for _ in 0..rounds {
        let t = now();
        next_frame().await;
        sleep(0).await;
        idle_ms.push(now() - t);
    }
    idle_ms
}

pub fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

pub fn summary(values: &[f64]) -> String {
    let min = values.iter().copied().fold(f64::INFINITY, f64::min);
    let max = values.iter().copied().fold(0.0, f64::max);
    format!(
        "median {:.1} ms (min {:.1}, max {:.1}, n={})",
        median(values.to_vec()),
        min,
        max,
        values.len()
    )
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

/// The display's frame interval: the median time between consecutive animation
/// frames with nothing else to do (16.7 ms at 60 Hz).
pub async fn frame_interval(rounds: usize) -> f64 {
    next_frame().await;
    let mut previous = now();
    let mut gaps = Vec::new();
    for _ in 0..rounds {
        next_frame().await;
        let t = now();
        gaps.push(t - previous);
        previous = t;
    }
    median(gaps)
}

/// Lets every queued microtask run: Leptos runs effects as microtasks, before the
/// browser's next rendering step, so this returns once the page's update is done.
pub async fn drain_microtasks() {
    for _ in 0..64 {
        let resolved = js_sys::Promise::resolve(&JsValue::NULL);
        wasm_bindgen_futures::JsFuture::from(resolved)
            .await
            .unwrap();
    }
}
