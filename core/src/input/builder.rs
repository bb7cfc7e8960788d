//! A document's traces and input errors as they are read: places and positions,
//! documents, arrays and wrappers down to trace-level objects, which `shapes` reads.

use super::model::{DocumentSummary, ParsedBatch, Trace};
use super::numbers::{original_column, JsonFailure};
use super::parts::{Place, Sink};
use super::shapes::{end_of_document, is_wrapper, read_object, read_traces_data, ShapeState};
use super::visitors::{BatchSink, Item, RawObject, Top, TopSeed};
use crate::diagnostic::{InputError, InputErrorCode};
use crate::input_errors::{keep, omitted_total, OmittedInputErrors};
use serde::de::DeserializeSeed;
use serde_json::Value;
use std::sync::Arc;

pub(super) struct Builder {
    pub(super) source: Arc<str>,
    traces: Vec<Arc<Trace>>,
    /// The traces read since the last were shared, up to [`SHARED_TOGETHER`]: each
    /// trace's struct is moved into its `Arc` with the others of its group, one
    /// allocation after the other, not each between its candidates' many small
    /// allocations. A pass over a batch (an analysis, every knob move) reads each
    /// trace's struct, and then finds the next ones close by in memory.
    pending: Vec<Trace>,
    pub(super) errors: Vec<InputError>,
    errors_omitted: OmittedInputErrors,
    /// Trace positions handed out since the last [`Builder::drain`]; positions count
    /// from there, so the drained parts concatenate into the whole document.
    pub(super) slots: usize,
    /// What earlier parts, already drained, contributed.
    drained: DocumentSummary,
    /// What the shapes keep from one object to the next.
    shapes: ShapeState,
    /// Spans skipped since the last drain.
    skipped_spans: usize,
    /// The builder before the first element of the batch being read, while one is.
    batch_start: Option<BatchStart>,
}

/// What [`Builder::forget_batch`] goes back to: the builder before a batch's first
/// element (a batch's elements are built as they are read, before the document is
/// known to be JSON, or a wrapper to be one).
struct BatchStart {
    traces: usize,
    errors: usize,
    errors_omitted: OmittedInputErrors,
    slots: usize,
    skipped_spans: usize,
    shapes: ShapeState,
}

/// How many traces' structs are shared (allocated) together; see [`Builder::pending`].
const SHARED_TOGETHER: usize = 64;

impl Builder {
    pub(super) fn new(source: &str) -> Self {
        Builder {
            source: Arc::from(source),
            traces: Vec::new(),
            pending: Vec::with_capacity(SHARED_TOGETHER),
            errors: Vec::new(),
            errors_omitted: OmittedInputErrors::new(),
            slots: 0,
            drained: DocumentSummary {
                source: source.to_owned(),
                traces: 0,
                candidates: 0,
                errors: 0,
                skipped_spans: 0,
            },
            shapes: ShapeState::default(),
            skipped_spans: 0,
            batch_start: None,
        }
    }

    pub(super) fn fail(
        &mut self,
        line: Option<usize>,
        column: Option<usize>,
        path: Option<String>,
        code: InputErrorCode,
        message: String,
        line_text: Option<&str>,
    ) {
        let error = InputError::at(&self.source, line, column, path, code, message, line_text);
        keep(&mut self.errors, &mut self.errors_omitted, error);
    }

    /// A document with nothing but white space in it.
    pub(super) fn empty_document(&mut self) {
        self.fail(
            None,
            None,
            None,
            InputErrorCode::EmptyDocument,
            "the document is empty".into(),
            None,
        );
    }

    /// A syntax error in `text`, which starts after `line_offset` lines of the document.
    pub(super) fn json_error(&mut self, failure: &JsonFailure, text: &str, line_offset: usize) {
        self.slots += 1;
        let err = &failure.error;
        let mut error = InputError::json_syntax(&self.source, text, err, line_offset);
        if !failure.shifts.is_empty() {
            // Found in the text with its long numbers marked: placed in the text as written.
            let line = err.line().saturating_sub(1);
            let column = original_column(&failure.shifts, line, err.column());
            let line_text = text.lines().nth(line).unwrap_or("");
            let chars = line_text
                .get(..column.min(line_text.len()))
                .map_or(column, |s| s.chars().count());
            error = InputError::at(
                &self.source,
                error.line,
                Some(chars.max(1)),
                None,
                error.code,
                error.message,
                Some(line_text),
            );
        }
        keep(&mut self.errors, &mut self.errors_omitted, error);
    }

    /// A document or line that cannot be read (bytes that are not UTF-8), at a 1-based
    /// line and character column; like a syntax error, it takes a trace's position.
    pub(super) fn unreadable(&mut self, line: usize, column: usize, message: String, text: &str) {
        self.slots += 1;
        self.fail(
            Some(line),
            Some(column),
            None,
            InputErrorCode::NotUtf8,
            message,
            Some(text),
        );
    }

    /// What is left of a document once read: its batch's elements were built as they
    /// were read, and are kept if it is a batch (an array, a wrapper); any other object
    /// is one trace-level object.
    pub(super) fn top(&mut self, top: Top, pointer: &str, line: Option<(usize, &str)>) {
        match top {
            Top::Array => self.keep_batch(),
            Top::Object(o) if is_wrapper(&o) => self.keep_batch(),
            Top::Object(o) => {
                // Its `traces`, if any, were no batch.
                self.forget_batch();
                let place = Place { pointer, line };
                self.object(*o, place);
            }
            Top::Other(found) => {
                self.keep_batch();
                self.slots += 1;
                self.fail(
                    line.map(|l| l.0),
                    None,
                    Some(pointer.to_owned()).filter(|p| !p.is_empty()),
                    InputErrorCode::NotATrace,
                    format!("expected a trace object, an array of traces or {{\"traces\": [...]}}, got {found}"),
                    line.map(|l| l.1),
                );
            }
        }
    }

    /// Reads an already-parsed JSON value as a whole document.
    pub(super) fn value(&mut self, value: &Value) {
        let mut batch = Batch {
            builder: self,
            pointer: "",
            line: None,
        };
        match (TopSeed { sink: &mut batch }).deserialize(value) {
            Ok(top) => self.top(top, "", None),
            // Our visitors accept every JSON value, so this is unreachable in practice.
            Err(err) => {
                self.forget_batch();
                self.fail(
                    None,
                    None,
                    None,
                    InputErrorCode::Unusable,
                    err.to_string(),
                    None,
                );
            }
        }
    }

    /// One element of a batch, at `pointer`.
    fn element(&mut self, item: Item<RawObject>, pointer: String, line: Option<(usize, &str)>) {
        if self.batch_start.is_none() {
            self.batch_start = Some(BatchStart {
                traces: self.trace_count(),
                errors: self.errors.len(),
                errors_omitted: self.errors_omitted.clone(),
                slots: self.slots,
                skipped_spans: self.skipped_spans,
                shapes: self.shapes.clone(),
            });
        }
        match item {
            Item::Object(o) => self.object(
                o,
                Place {
                    pointer: &pointer,
                    line,
                },
            ),
            Item::NotObject(found) => {
                self.slots += 1;
                self.fail(
                    line.map(|l| l.0),
                    None,
                    Some(pointer),
                    InputErrorCode::NotATrace,
                    format!("a trace must be an object, got {found}"),
                    None,
                );
            }
        }
    }

    /// Undoes the elements of the batch being read, if any.
    pub(super) fn forget_batch(&mut self) {
        let Some(start) = self.batch_start.take() else {
            return;
        };
        self.share_pending();
        self.traces.truncate(start.traces);
        self.errors.truncate(start.errors);
        self.errors_omitted = start.errors_omitted;
        self.slots = start.slots;
        self.skipped_spans = start.skipped_spans;
        self.shapes = start.shapes;
    }

    /// Keeps the elements of the batch just read.
    fn keep_batch(&mut self) {
        self.batch_start = None;
    }

    pub(super) fn object(&mut self, o: RawObject, place: Place) {
        // Taken out for the call, so that the builder itself is the sink.
        let mut shapes = std::mem::take(&mut self.shapes);
        read_object(o, place, &mut shapes, self);
        self.shapes = shapes;
    }

    /// A document that is an OTLP `TracesData` object, read from its text; `false`
    /// when it is not one, and nothing was read.
    pub(super) fn traces_data(&mut self, text: &str, place: Place) -> bool {
        let mut shapes = std::mem::take(&mut self.shapes);
        let read = read_traces_data(text, place, &mut shapes, self);
        self.shapes = shapes;
        read
    }

    fn share_pending(&mut self) {
        self.traces.extend(self.pending.drain(..).map(Arc::new));
    }

    /// Traces read since the last [`Builder::drain`].
    pub(super) fn trace_count(&self) -> usize {
        self.traces.len() + self.pending.len()
    }

    /// What the document has contributed so far, drained parts included.
    pub(super) fn summary(&self) -> DocumentSummary {
        let shared = self.traces.iter().map(|t| t.candidates.len());
        let pending = self.pending.iter().map(|t| t.candidates.len());
        DocumentSummary {
            source: self.drained.source.clone(),
            traces: self.drained.traces + self.trace_count(),
            candidates: self.drained.candidates + shared.chain(pending).sum::<usize>(),
            errors: self.drained.errors + self.errors.len() + omitted_total(&self.errors_omitted),
            skipped_spans: self.drained.skipped_spans + self.skipped_spans,
        }
    }

    /// The traces and errors read since the last drain, as a part of the document
    /// without its summary (`documents` is empty): the parts, concatenated with
    /// [`ParsedBatch::extend`], and then the last one from [`Builder::finish`], are
    /// the whole document.
    pub(super) fn drain(&mut self) -> ParsedBatch {
        self.share_pending();
        self.drained = self.summary();
        self.skipped_spans = 0;
        ParsedBatch {
            traces: std::mem::take(&mut self.traces),
            documents: Vec::new(),
            errors: std::mem::take(&mut self.errors),
            errors_omitted: std::mem::take(&mut self.errors_omitted),
            slots: std::mem::take(&mut self.slots),
        }
    }

    /// The last part, with the document's summary.
    pub(super) fn finish(mut self) -> ParsedBatch {
        let mut shapes = std::mem::take(&mut self.shapes);
        end_of_document(&mut shapes, &mut self);
        self.share_pending();
        let summary = self.summary();
        ParsedBatch {
            traces: self.traces,
            documents: vec![summary],
            errors: self.errors,
            errors_omitted: self.errors_omitted,
            slots: self.slots,
        }
    }
}

/// The sink of a document's batch: each element built by `builder` where it sits in
/// the document (under `pointer`, on JSON Lines line `line`).
pub(super) struct Batch<'b> {
    pub(super) builder: &'b mut Builder,
    pub(super) pointer: &'b str,
    pub(super) line: Option<(usize, &'b str)>,
}

impl BatchSink for Batch<'_> {
    fn element(&mut self, field: Option<&'static str>, index: usize, item: Item<RawObject>) {
        let pointer = match field {
            Some(name) => format!("{}/{name}/{index}", self.pointer),
            None => format!("{}/{index}", self.pointer),
        };
        self.builder.element(item, pointer, self.line);
    }

    fn forget_batch(&mut self) {
        self.builder.forget_batch();
    }
}

impl Sink for Builder {
    fn source(&self) -> &Arc<str> {
        &self.source
    }

    fn next_position(&mut self) -> usize {
        self.slots += 1;
        self.slots
    }

    fn trace(&mut self, trace: Trace) {
        self.pending.push(trace);
        if self.pending.len() == SHARED_TOGETHER {
            self.share_pending();
        }
    }

    fn fail(&mut self, place: Place, code: InputErrorCode, message: String) {
        Builder::fail(
            self,
            place.line.map(|l| l.0),
            None,
            Some(place.pointer.to_owned()).filter(|p| !p.is_empty()),
            code,
            message,
            place.line.map(|l| l.1),
        );
    }

    fn skipped_spans(&mut self, count: usize) {
        self.skipped_spans += count;
    }
}
