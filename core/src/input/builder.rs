//! A document's traces and input errors as they are read: places and positions,
//! documents, arrays and wrappers down to trace-level objects, which `shapes` reads.

use super::model::{DocumentSummary, ParsedBatch, Trace};
use super::numbers::{original_column, JsonFailure};
use super::parts::{Place, Sink};
use super::shapes::{end_of_document, is_wrapper, read_object, ShapeState};
use super::visitors::{Item, ListField, RawObject, Top};
use crate::diagnostic::InputError;
use crate::input_errors::{keep, omitted_total, OmittedInputErrors};
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
        }
    }

    pub(super) fn fail(
        &mut self,
        line: Option<usize>,
        column: Option<usize>,
        path: Option<String>,
        message: String,
        line_text: Option<&str>,
    ) {
        let error = InputError::at(&self.source, line, column, path, message, line_text);
        keep(&mut self.errors, &mut self.errors_omitted, error);
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
        self.fail(Some(line), Some(column), None, message, Some(text));
    }

    pub(super) fn top(&mut self, top: Top, pointer: &str, line: Option<(usize, &str)>) {
        match top {
            Top::Array(items) => self.items(items, pointer, line),
            Top::Object(o) if is_wrapper(&o) => {
                let Some((ListField::List(items), name)) = o.traces else {
                    return;
                };
                let prefix = format!("{pointer}/{name}");
                self.items(items, &prefix, line);
            }
            Top::Object(o) => {
                let place = Place { pointer, line };
                self.object(*o, place);
            }
            Top::Other(found) => {
                self.slots += 1;
                self.fail(
                    line.map(|l| l.0),
                    None,
                    Some(pointer.to_owned()).filter(|p| !p.is_empty()),
                    format!("expected a trace object, an array of traces or {{\"traces\": [...]}}, got {found}"),
                    line.map(|l| l.1),
                );
            }
        }
    }

    pub(super) fn items(
        &mut self,
        items: Vec<Item<RawObject>>,
        prefix: &str,
        line: Option<(usize, &str)>,
    ) {
        for (index, item) in items.into_iter().enumerate() {
            let pointer = format!("{prefix}/{index}");
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
                        format!("a trace must be an object, got {found}"),
                        None,
                    );
                }
            }
        }
    }

    pub(super) fn object(&mut self, o: RawObject, place: Place) {
        // Taken out for the call, so that the builder itself is the sink.
        let mut shapes = std::mem::take(&mut self.shapes);
        read_object(o, place, &mut shapes, self);
        self.shapes = shapes;
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

    fn fail(&mut self, place: Place, message: String) {
        Builder::fail(
            self,
            place.line.map(|l| l.0),
            None,
            Some(place.pointer.to_owned()).filter(|p| !p.is_empty()),
            message,
            place.line.map(|l| l.1),
        );
    }

    fn skipped_spans(&mut self, count: usize) {
        self.skipped_spans += count;
    }
}
