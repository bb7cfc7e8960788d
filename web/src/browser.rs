//! The few places the page talks to the browser directly: reading files,
//! saving downloads, and the fatal-error banner. Nothing here uses the network.

use crate::state::loading::{slice_bytes, task_budget_ms, too_large, LoadProgress, LARGEST_FILE};
use crate::state::{AppState, Document, Origin, Shared};
use leptos::prelude::Set;
use ragtrace_core::DocumentReader;
use ragtrace_core::ParsedBatch;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::File;

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
    #[wasm_bindgen(method, js_name = blocksFromWorker)]
    fn blocks_from_worker(this: &BlockReader) -> u32;
    #[wasm_bindgen(method)]
    fn close(this: &BlockReader);
}

static BLOCKS_FROM_WORKER: AtomicUsize = AtomicUsize::new(0);

/// Blocks of files read by the worker so far, over every load (tests check that
/// loads use it).
#[doc(hidden)]
pub fn blocks_read_by_worker() -> usize {
    BLOCKS_FROM_WORKER.load(Ordering::Relaxed)
}

/// Ends the worker when the load ends, however it ends.
struct ClosesOnDrop(BlockReader);

impl Drop for ClosesOnDrop {
    fn drop(&mut self) {
        let blocks = self.0.blocks_from_worker() as usize;
        BLOCKS_FROM_WORKER.fetch_add(blocks, Ordering::Relaxed);
        self.0.close();
    }
}

/// Reads every file (picked or dropped) in slices, one file after the other, and
/// adds each to the batch when it is read. A load already running is cancelled.
pub fn read_files(state: AppState, files: web_sys::FileList) {
    let files: Vec<File> = (0..files.length()).filter_map(|i| files.get(i)).collect();
    let ticket = state.begin_load();
    leptos::task::spawn_local(async move {
        let count = files.len();
        for (index, file) in files.into_iter().enumerate() {
            let name = file.name();
            let size = file.size() as u64;
            if size > LARGEST_FILE {
                state.notice.set(Some(too_large(&name, size)));
                continue;
            }
            match read_in_slices(state, ticket, &file, count - index - 1).await {
                Ok(Some(document)) => {
                    // The last slice's task ends with the bar full; the first
                    // analysis of the new batch is made in pieces of their own.
                    gloo_timers::future::TimeoutFuture::new(0).await;
                    state.prepare_analysis(&document, ticket).await;
                    // Its last piece ran in this task: the file joins the batch (and
                    // the views update) in a task of its own.
                    gloo_timers::future::TimeoutFuture::new(0).await;
                    if !state.load_is_current(ticket) {
                        return;
                    }
                    state.add_parsed(document)
                }
                Ok(None) => return,
                Err(error) => state.notice.set(Some(format!(
                    "{name} could not be read: {}",
                    describe(&error)
                ))),
            }
        }
        if state.load_is_current(ticket) {
            state.loading.set(None);
        }
    });
}

/// Slices read from the file at once. Each `Blob.slice` and `arrayBuffer` of a file
/// on disk costs about half a millisecond in Chromium whatever its size
/// (docs/performance.md), so the file is read in blocks and parsed slice by slice.
pub const SLICES_PER_READ: u64 = 8;

/// Blocks being read (by the worker of block_reader.js) while one is parsed, so the
/// next one is there when the parse reaches it.
const BLOCKS_IN_FLIGHT: u32 = 3;

/// Resolves in a task of its own, as a message on a fresh channel: a chain of
/// `setTimeout(0)` would be held back 4 ms a step after the fifth.
async fn next_task() {
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

/// Reads `file` block by block into the core's `DocumentReader`: bytes, never one
/// string. Slices are parsed in tasks of at most `TASK_BUDGET_MS` while the next
/// block is being read, so the page stays responsive. `None` when the load was
/// cancelled.
async fn read_in_slices(
    state: AppState,
    ticket: u64,
    file: &File,
    files_after: usize,
) -> Result<Option<Document>, JsValue> {
    let name = file.name();
    let size = file.size() as u64;
    let slice = slice_bytes() as u64;
    let mut progress = LoadProgress {
        file: name.clone(),
        files_after,
        size,
        bytes_read: 0,
        traces: 0,
        started_ms: js_sys::Date::now(),
        now_ms: js_sys::Date::now(),
    };
    state.loading.set(Some(progress.clone()));
    let mut reader = DocumentReader::new(&name);
    let mut batch = ParsedBatch::default();
    // A file small enough to be remembered across reloads keeps its text.
    let mut kept = (size <= crate::persist::STORE_LIMIT as u64).then(Vec::new);
    let blocks = ClosesOnDrop(new_block_reader(
        file,
        (slice * SLICES_PER_READ) as f64,
        BLOCKS_IN_FLIGHT,
    ));
    let mut shown_bytes = 0;
    let budget_ms = task_budget_ms();
    let mut task_started = js_sys::Date::now();
    let mut last_slice_ms = 0.0;
    'reading: loop {
        let block = JsFuture::from(blocks.0.next()).await?;
        if !state.load_is_current(ticket) {
            return Ok(None);
        }
        if block.is_undefined() {
            break;
        }
        let bytes = js_sys::Uint8Array::new(&block).to_vec();
        for part in bytes.chunks(slice as usize) {
            // Slices follow each other in one task while the next one, as long as
            // the last, ends within the task's budget; then the page gets a turn.
            if js_sys::Date::now() - task_started + last_slice_ms > budget_ms {
                next_task().await;
                if !state.load_is_current(ticket) {
                    return Ok(None);
                }
                task_started = js_sys::Date::now();
            }
            let slice_started = js_sys::Date::now();
            reader.push(part);
            batch.extend(reader.take_parsed());
            if let Some(kept) = kept.as_mut() {
                kept.extend_from_slice(part);
            }
            if reader.refusal().is_some() {
                // Not JSON at all: the rest of the file would not change that.
                break 'reading;
            }
            progress.bytes_read = reader.bytes_read();
            progress.traces = reader.traces_parsed();
            progress.now_ms = js_sys::Date::now();
            last_slice_ms = progress.now_ms - slice_started;
            // Shown at most once per hundredth of the file: every update restyles
            // and repaints the page.
            if progress.bytes_read - shown_bytes >= (size / 100).max(1) {
                shown_bytes = progress.bytes_read;
                state.loading.set(Some(progress.clone()));
            }
        }
    }
    batch.extend(reader.finish());
    let text = kept
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .map(Arc::from);
    Ok(Some(Document {
        id: state.next_document_id(),
        name,
        origin: Origin::File,
        batch: Shared::new(batch),
        text,
    }))
}

/// Reads a small file (a cases file, run B) as UTF-8 text and hands it to `then`
/// with the file's name; a file that cannot be read becomes a notice.
pub fn read_text(
    state: AppState,
    file: web_sys::File,
    then: impl FnOnce(String, String) + 'static,
) {
    leptos::task::spawn_local(async move {
        match JsFuture::from(file.text()).await {
            Ok(text) => then(file.name(), text.as_string().unwrap_or_default()),
            Err(error) => state.notice.set(Some(format!(
                "{} could not be read: {}",
                file.name(),
                describe(&error)
            ))),
        }
    });
}

fn describe(error: &JsValue) -> String {
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
