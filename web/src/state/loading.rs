//! Reading files into the batch: a trace file in slices through the core's
//! `DocumentReader` (what the progress bar shows, how a load is cancelled), a cases
//! file or run B whole as text.

use super::{AppState, Document, Origin, Shared};
use crate::browser::{file_text, next_task, FileBlocks};
use leptos::prelude::*;
use ragtrace_core::ParsedBatch;
use ragtrace_core::{other_readers_missed, DocumentReader};
use std::sync::Arc;
use wasm_bindgen::JsValue;
use web_sys::File;

/// Bytes read and parsed per slice, the unit a task's budget is counted in. Half a MB
/// of JSON Lines parses in 3-12 ms in this page at the site's opt-level
/// (docs/performance.md): well inside the 50 ms a task may take, even on a busy
/// machine (1 MB slices measured 115 ms at worst).
pub const SLICE_BYTES: usize = 1 << 19;

/// The largest file the page reads. Loaded, a JSON Lines file takes 1.78 times its
/// size in wasm memory, the first analysis included (429 MB measured by
/// `bash scripts/bench.sh browser`); a wasm32 page can address 4 GiB, and a knob
/// builds a second analysis beside the first. 1.5 GB takes 2.7 GB and leaves the
/// rest for that; the command line streams larger files natively.
pub const LARGEST_FILE: u64 = 1_500_000_000;

/// How long one task of a load parses before it yields to the browser: slices are
/// parsed one after another while the next one, taking as long as the last, still
/// ends within this. Yielding after every slice instead spent a fifth of a large
/// load between tasks (0.7 of 3.4 s for 429 MB: a slice parses in 3 ms on a fast
/// machine); this leaves room under the 50 ms a task may take for a slice that runs
/// long on a busy machine.
pub const TASK_BUDGET_MS: u32 = 25;

/// Slices read from the file at once. Each `Blob.slice` and `arrayBuffer` of a file
/// on disk costs about half a millisecond in Chromium whatever its size
/// (docs/performance.md), so the file is read in blocks and parsed slice by slice.
pub const SLICES_PER_READ: u64 = 8;

/// Blocks being read (by the worker of block_reader.js) while one is parsed, so the
/// next one is there when the parse reaches it.
const BLOCKS_IN_FLIGHT: u32 = 3;

// The slice size and task budget of the loads that start from now on. The site reads
// the constants; builds with the `test-hooks` feature can cut loads finer
// (`set_load_sizes`, which the browser tests call through `test_hooks`).
#[cfg(not(feature = "test-hooks"))]
fn slice_bytes() -> usize {
    SLICE_BYTES
}

#[cfg(not(feature = "test-hooks"))]
fn task_budget_ms() -> f64 {
    f64::from(TASK_BUDGET_MS)
}

#[cfg(feature = "test-hooks")]
static SLICE: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(SLICE_BYTES);
#[cfg(feature = "test-hooks")]
static TASK_BUDGET: std::sync::atomic::AtomicU32 =
    std::sync::atomic::AtomicU32::new(TASK_BUDGET_MS);

#[cfg(feature = "test-hooks")]
fn slice_bytes() -> usize {
    SLICE.load(std::sync::atomic::Ordering::Relaxed)
}

#[cfg(feature = "test-hooks")]
fn task_budget_ms() -> f64 {
    f64::from(TASK_BUDGET.load(std::sync::atomic::Ordering::Relaxed))
}

/// Sets the slice size (at least one byte) and the task budget of the loads that start
/// after this call; `None` leaves one as it is.
#[cfg(feature = "test-hooks")]
pub(crate) fn set_load_sizes(slice_bytes: Option<usize>, task_budget_ms: Option<u32>) {
    use std::sync::atomic::Ordering::Relaxed;
    if let Some(bytes) = slice_bytes {
        SLICE.store(bytes.max(1), Relaxed);
    }
    if let Some(ms) = task_budget_ms {
        TASK_BUDGET.store(ms, Relaxed);
    }
}

/// Where the current load is.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LoadProgress {
    /// The file being read.
    pub file: String,
    /// Files of the same pick or drop still waiting after this one.
    pub files_after: usize,
    pub size: u64,
    pub bytes_read: u64,
    pub traces: usize,
    /// When this file's reading started (`Date.now()`, ms).
    pub started_ms: f64,
    pub now_ms: f64,
}

impl LoadProgress {
    /// The time left at the speed so far; `None` until a first slice is in.
    pub(crate) fn remaining_seconds(&self) -> Option<f64> {
        let elapsed = self.now_ms - self.started_ms;
        (self.bytes_read > 0 && elapsed > 0.0).then(|| {
            let left = self.size.saturating_sub(self.bytes_read) as f64;
            left / self.bytes_read as f64 * elapsed / 1000.0
        })
    }
}

/// The message for a file too large for this page, before any of it is read.
fn too_large(name: &str, size: u64) -> String {
    format!(
        "{name} is {:.0} MB, more than this page can hold ({:.0} MB): analyse it with \
         `ragtrace analyze {name}`, which streams files of any size.",
        size as f64 / 1e6,
        LARGEST_FILE as f64 / 1e6
    )
}

impl AppState {
    /// Starts a load: any load still running is cancelled. Returns its ticket.
    fn begin_load(&self) -> u64 {
        let ticket = self.load_ticket.get_value() + 1;
        self.load_ticket.set_value(ticket);
        ticket
    }

    /// False once the load with this ticket was cancelled or replaced.
    pub(crate) fn load_is_current(&self, ticket: u64) -> bool {
        self.load_ticket.get_value() == ticket
    }

    /// Stops the current load; the documents loaded before it stay as they were.
    pub(crate) fn cancel_load(&self) {
        self.begin_load();
        self.loading.set(None);
    }
}

/// Reads every file (picked or dropped) in slices, one file after the other, and
/// adds each to the batch when it is read. A load already running is cancelled.
/// Where the page is split, the reading code (the core's streamed reader, the block
/// reader) is fetched with the first file: a visitor who only looks at samples or
/// pastes never needs it.
pub(crate) fn read_files(state: AppState, files: web_sys::FileList) {
    // Taken now: the list empties when the file input is cleared after this call.
    let files: Vec<File> = (0..files.length()).filter_map(|i| files.get(i)).collect();
    let ticket = state.begin_load();
    #[cfg(ragtrace_split)]
    leptos::task::spawn_local(async move { read_files_now(state, ticket, files).await });
    #[cfg(not(ragtrace_split))]
    read_files_now(state, ticket, files);
}

// A split point outside `lazy`: it is this file's own reading, which nothing else calls.
#[cfg_attr(
    ragtrace_split,
    leptos::wasm_split::wasm_split(read_files_now, wasm_split_path = ::leptos::wasm_split)
)]
fn read_files_now(state: AppState, ticket: u64, files: Vec<File>) {
    if !state.load_is_current(ticket) {
        return;
    }
    leptos::task::spawn_local(async move {
        let count = files.len();
        for (index, file) in files.into_iter().enumerate() {
            let name = file.name();
            let size = file.size() as u64;
            if size > LARGEST_FILE {
                state.notice.set(Some(too_large(&name, size)));
                continue;
            }
            let mut read = read_in_slices(state, ticket, &file, count - index - 1).await;
            if matches!(read, Err(Read::NeedsOtherReaders)) {
                // Spans or a TREC run: the file is read again with their readers.
                crate::deferred::readers::load_other_readers().await;
                read = read_in_slices(state, ticket, &file, count - index - 1).await;
            }
            match read.map_err(|read| match read {
                Read::Failed(error) => error,
                Read::NeedsOtherReaders => JsValue::from_str("its readers did not load"),
            }) {
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
                    crate::browser::describe(&error)
                ))),
            }
        }
        if state.load_is_current(ticket) {
            state.loading.set(None);
        }
    });
}

/// Why a file was not read to its end.
enum Read {
    Failed(JsValue),
    /// It needs the readers of other stacks, not loaded yet (`deferred::readers`).
    NeedsOtherReaders,
}

impl From<JsValue> for Read {
    fn from(error: JsValue) -> Self {
        Read::Failed(error)
    }
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
) -> Result<Option<Document>, Read> {
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
    // What an earlier reading left is not this file's.
    other_readers_missed();
    let mut batch = ParsedBatch::default();
    // A file small enough to be remembered across reloads keeps its text.
    let mut kept = (size <= crate::browser::STORE_LIMIT as u64).then(Vec::new);
    let blocks = FileBlocks::read(file, slice * SLICES_PER_READ, BLOCKS_IN_FLIGHT);
    let mut shown_bytes = 0;
    let budget_ms = task_budget_ms();
    let mut task_started = js_sys::Date::now();
    let mut last_slice_ms = 0.0;
    'reading: loop {
        let block = blocks.next().await?;
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
            if other_readers_missed() {
                return Err(Read::NeedsOtherReaders);
            }
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
    if other_readers_missed() {
        return Err(Read::NeedsOtherReaders);
    }
    let text = kept
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .map(Arc::from);
    Ok(Some(Document {
        id: state.next_document_id(),
        name,
        origin: Origin::File,
        batch: Shared::new(batch),
        text,
        incomplete: false,
    }))
}

/// Reads a small file (a cases file, run B) as UTF-8 text and hands it to `then`
/// with the file's name; a file that cannot be read becomes a notice.
pub(crate) fn read_text(state: AppState, file: File, then: impl FnOnce(String, String) + 'static) {
    leptos::task::spawn_local(async move {
        match file_text(&file).await {
            Ok(text) => then(file.name(), text),
            Err(error) => state
                .notice
                .set(Some(format!("{} could not be read: {error}", file.name()))),
        }
    });
}
