//! The few places the page talks to the browser directly: reading a file's bytes
//! or text, saving downloads, scheduling work after the paint, and the fatal-error
//! banner. It knows nothing of the page's state (`state::loading` drives the reads).
//! Nothing here uses the network.

use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::File;

/// Browsers give a page about 5 MB of localStorage (UTF-16); larger input is not
/// remembered rather than half-remembered.
pub(crate) const STORE_LIMIT: usize = 2 * 1024 * 1024;

#[wasm_bindgen(module = "/src/block_reader.js")]
extern "C" {
    /// Reads a file's blocks on a worker thread (or on this one where a worker
    /// cannot be had): see block_reader.js.
    type BlockReader;
    /// Reads `file` in blocks of `block_bytes`, `ahead` blocks ahead of `next`.
    #[wasm_bindgen(js_name = newBlockReader)]
    fn new_block_reader(file: &File, block_bytes: f64, ahead: u32) -> BlockReader;
    /// A Promise of the next block's ArrayBuffer, or of `undefined` after the last.
    #[wasm_bindgen(method)]
    fn next(this: &BlockReader) -> js_sys::Promise;
    #[wasm_bindgen(method)]
    fn close(this: &BlockReader);
}

#[cfg(feature = "test-hooks")]
#[wasm_bindgen(module = "/src/block_reader.js")]
extern "C" {
    /// Blocks the worker has read so far.
    #[wasm_bindgen(method, js_name = blocksFromWorker)]
    fn blocks_from_worker(this: &BlockReader) -> u32;
}

/// A file's blocks, read a few ahead of the parse by block_reader.js; its worker
/// ends when this is dropped, however the load ends.
pub(crate) struct FileBlocks(BlockReader);

impl FileBlocks {
    /// Starts reading `file` in blocks of `block_bytes`, `ahead` blocks ahead of `next`.
    pub(crate) fn read(file: &File, block_bytes: u64, ahead: u32) -> Self {
        FileBlocks(new_block_reader(file, block_bytes as f64, ahead))
    }

    /// The next block's ArrayBuffer, or `undefined` after the last.
    pub(crate) fn next(&self) -> JsFuture {
        JsFuture::from(self.0.next())
    }
}

impl Drop for FileBlocks {
    fn drop(&mut self) {
        #[cfg(feature = "test-hooks")]
        crate::counters::WORKER_BLOCKS.fetch_add(
            self.0.blocks_from_worker() as usize,
            std::sync::atomic::Ordering::Relaxed,
        );
        self.0.close();
    }
}

/// Resolves in a task of its own, as a message on a fresh channel: a chain of
/// `setTimeout(0)` would be held back 4 ms a step after the fifth.
pub(crate) async fn next_task() {
    let channel = web_sys::MessageChannel::new().ok();
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let posted = channel.as_ref().is_some_and(|channel| {
            channel.port1().set_onmessage(Some(resolve.unchecked_ref()));
            channel.port2().post_message(&JsValue::UNDEFINED).is_ok()
        });
        if !posted {
            let _ = resolve.call0(&JsValue::UNDEFINED);
        }
    });
    let _ = JsFuture::from(promise).await;
    // Kept alive until its message has arrived.
    drop(channel);
}

/// A small file's whole text (a cases file, run B), or why it could not be read.
pub(crate) async fn file_text(file: &File) -> Result<String, String> {
    match JsFuture::from(file.text()).await {
        Ok(text) => Ok(text.as_string().unwrap_or_default()),
        Err(error) => Err(describe(&error)),
    }
}

/// A JavaScript error as the sentence it carries.
pub(crate) fn describe(error: &JsValue) -> String {
    error
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| error.as_string())
        .unwrap_or_else(|| "unknown error".to_owned())
}

/// Offers `content` as a file download (Blob + object URL: nothing leaves the machine).
pub fn download(file_name: &str, mime: &str, content: &str) -> Result<(), String> {
    let fail = |e: JsValue| describe(&e);
    let window = web_sys::window().ok_or("no window")?;
    let document = window.document().ok_or("no document")?;
    let parts = js_sys::Array::of1(&JsValue::from_str(content));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).map_err(fail)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(fail)?;
    let anchor: web_sys::HtmlAnchorElement = document
        .create_element("a")
        .map_err(fail)?
        .dyn_into()
        .map_err(|_| "not an anchor".to_owned())?;
    anchor.set_href(&url);
    anchor.set_download(file_name);
    anchor.click();
    // Revoked a moment later: some browsers start the download asynchronously.
    leptos::prelude::set_timeout(
        move || {
            let _ = web_sys::Url::revoke_object_url(&url);
        },
        std::time::Duration::from_secs(10),
    );
    Ok(())
}

/// How long work after the paint may wait for the browser to be idle: while a slider
/// is dragged, frames can follow each other without an idle moment.
const IDLE_DEADLINE_MS: u32 = 250;

/// Runs `f` after the next painted frame, when the browser is idle: work whose result
/// the frame does not show (the URL, the significance tests, freeing what a knob move
/// replaced) waits until the user has seen the frame, and an input that arrives
/// meanwhile (the next step of a drag) is handled first. Within `IDLE_DEADLINE_MS`
/// in any case; where `requestIdleCallback` is missing (Safari), in a task of its own.
pub(crate) fn after_paint(f: impl FnOnce() + 'static) {
    // One copy of the scheduling for every caller: only the boxing is generic.
    after_paint_boxed(Box::new(f));
}

fn after_paint_boxed(f: Box<dyn FnOnce()>) {
    leptos::prelude::request_animation_frame(move || when_idle(f));
}

/// Work handed to whichever of the idle callback and its fallback runs.
type Pending = std::rc::Rc<std::cell::Cell<Option<Box<dyn FnOnce()>>>>;

fn when_idle(f: Box<dyn FnOnce()>) {
    let pending: Pending = std::rc::Rc::new(std::cell::Cell::new(Some(f)));
    let take_and_run = |pending: Pending| {
        move || {
            if let Some(f) = pending.take() {
                f();
            }
        }
    };
    let window = web_sys::window().filter(|w| {
        js_sys::Reflect::has(w, &JsValue::from_str("requestIdleCallback")).unwrap_or(false)
    });
    if let Some(window) = window {
        let options = web_sys::IdleRequestOptions::new();
        options.set_timeout(IDLE_DEADLINE_MS);
        let callback = wasm_bindgen::closure::Closure::once_into_js(take_and_run(
            std::rc::Rc::clone(&pending),
        ));
        if window
            .request_idle_callback_with_options(callback.unchecked_ref(), &options)
            .is_ok()
        {
            return;
        }
    }
    leptos::prelude::set_timeout(take_and_run(pending), std::time::Duration::ZERO);
}

/// Frees `value` after the next painted frame instead of now: dropping an analysis of
/// a large batch takes milliseconds that a knob move should not spend before its frame.
pub(crate) fn drop_after_paint<T: 'static>(value: T) {
    after_paint(move || drop(value));
}

/// Panics show a visible banner (and still reach the console), never a dead page.
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        show_fatal_banner(&format!(
            "ragtrace hit an internal error and may have stopped responding; reload the page. ({info})"
        ));
    }));
}

/// Inserts a `.fatal-banner` at the top of the page, without the framework
/// (which may be what failed).
pub fn show_fatal_banner(message: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Ok(banner) = document.create_element("div") else {
        return;
    };
    banner.set_class_name("fatal-banner");
    let _ = banner.set_attribute("role", "alert");
    banner.set_text_content(Some(message));
    if let Some(body) = document.body() {
        let _ = body.prepend_with_node_1(&banner);
    }
}
