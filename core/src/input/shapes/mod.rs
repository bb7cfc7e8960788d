//! The shapes of a trace-level object (contract section 1), recognised and dispatched
//! here and nowhere else. Each shape is one module with a `recognise` (does an object
//! without an explicit `kind` have this shape?) and a `read` (the object to traces,
//! handed to a [`Sink`]), and one row of [`SHAPES`]. A shape whose fields the typed
//! pass does not know (a span export, say) finds them among the object's unknown
//! fields, `RawObject::extra`, so it needs no change to the visitors.

mod lookup;
mod otlp;
mod phoenix;
mod rerank;

use super::parts::{missing_list, Place, Sink};
use super::visitors::{BatchField, ListField, RawObject};
use crate::diagnostic::Diagnostic;

/// One shape: the `kind` that names it explicitly (if any), how it is recognised, how
/// it is read.
struct Shape {
    kind: Option<&'static str>,
    recognise: fn(&RawObject) -> bool,
    read: fn(RawObject, Place, &mut ShapeState, &mut dyn Sink),
}

/// Every shape, in the order they are tried on an object without an explicit `kind`.
const SHAPES: &[Shape] = &[
    Shape {
        kind: Some("RerankTrace"),
        recognise: rerank::recognise,
        read: |o, place, _, sink| rerank::read(o, place, sink),
    },
    Shape {
        kind: Some("LookupResult"),
        recognise: lookup::recognise,
        read: |o, place, _, sink| lookup::read(o, place, sink),
    },
    Shape {
        kind: None,
        recognise: otlp::recognise,
        read: |o, place, state, sink| {
            state.spans_seen = true;
            if let Some(readers) = other_readers() {
                (readers.otlp)(o, place, &mut state.retrievals, sink)
            }
        },
    },
    Shape {
        kind: None,
        recognise: phoenix::recognise,
        read: |o, place, state, sink| {
            state.spans_seen = true;
            if let Some(readers) = other_readers() {
                (readers.phoenix)(o, place, &mut state.phoenix, sink)
            }
        },
    },
];

/// The readers of OpenTelemetry spans and Phoenix's span records. They are reached
/// through this table only, so that the page's split build (`--cfg ragtrace_split`)
/// can leave them out of the module it starts with and load them with the first
/// document that needs them (`super::other_readers`, which loads TREC runs' reader
/// with them); every other build has them from the start.
#[derive(Clone, Copy)]
pub(in crate::input) struct SpanReaders {
    otlp: fn(RawObject, Place, &mut otlp::Retrievals, &mut dyn Sink),
    otlp_text: fn(&str, Place, &mut otlp::Retrievals, &mut dyn Sink) -> bool,
    phoenix: fn(RawObject, Place, &mut otlp::Retrievals, &mut dyn Sink),
    end: fn(&mut ShapeState, &mut dyn Sink),
}

const SPAN_READERS: SpanReaders = SpanReaders {
    otlp: otlp::read,
    otlp_text: otlp::read_text,
    phoenix: phoenix::read,
    end: |state, sink| {
        state.retrievals.end(sink);
        state.phoenix.end(&mut phoenix::ColumnPaths(sink));
    },
};

/// The span readers: always there, but in the page's split build, where they are
/// there once [`load_span_readers`] ran; until then, a document that needs them is
/// read without them and [`take_missed`] says so, for the page to load them and read
/// it again.
#[cfg(not(ragtrace_split))]
#[inline]
fn other_readers() -> Option<SpanReaders> {
    Some(SPAN_READERS)
}

#[cfg(ragtrace_split)]
static LOADED: std::sync::OnceLock<SpanReaders> = std::sync::OnceLock::new();
#[cfg(ragtrace_split)]
static MISSED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

#[cfg(ragtrace_split)]
fn other_readers() -> Option<SpanReaders> {
    let readers = LOADED.get().copied();
    if readers.is_none() {
        mark_missed();
    }
    readers
}

/// Makes the span readers available to every reader from now on (split build only).
pub(in crate::input) fn load_span_readers() {
    #[cfg(ragtrace_split)]
    LOADED.get_or_init(|| SPAN_READERS);
}

/// Notes that a document needed a reader that was not loaded yet.
#[cfg_attr(not(ragtrace_split), allow(dead_code))]
pub(in crate::input) fn mark_missed() {
    #[cfg(ragtrace_split)]
    MISSED.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// Whether a document read since the last call needed a reader not loaded yet.
pub(in crate::input) fn take_missed() -> bool {
    #[cfg(ragtrace_split)]
    return MISSED.swap(false, std::sync::atomic::Ordering::Relaxed);
    #[cfg(not(ragtrace_split))]
    false
}

/// What shapes keep from one object to the next within a document.
#[derive(Default, Clone)]
pub(super) struct ShapeState {
    /// OTLP retrieval spans waiting for their parent or child (bounded).
    retrievals: otlp::Retrievals,
    /// The same for Phoenix's span records (bounded).
    phoenix: otlp::Retrievals,
    /// Whether a span or span record was met, so that the end of the document has
    /// waiting spans to settle.
    spans_seen: bool,
}

/// `{"traces": [...]}`: a `traces` array, no explicit kind, nothing that makes it a trace.
pub(super) fn is_wrapper(o: &RawObject) -> bool {
    o.kind.is_none()
        && matches!(o.traces, Some((BatchField::Read, _)))
        && !SHAPES.iter().any(|shape| (shape.recognise)(o))
        && o.candidates.is_none()
        && o.evidence.is_none()
        && o.trace.is_none()
}

/// Reads one trace-level object as the shape its `kind` names, else as the first shape
/// that recognises it.
pub(super) fn read_object(
    mut o: RawObject,
    place: Place,
    state: &mut ShapeState,
    sink: &mut dyn Sink,
) {
    let explicit = match o.kind.as_deref().map(str::trim) {
        Some(kind) => {
            let named = SHAPES.iter().find(|shape| shape.kind == Some(kind));
            if named.is_none() {
                let names: Vec<&str> = SHAPES.iter().filter_map(|shape| shape.kind).collect();
                o.diags.0.push(Diagnostic::warning(
                    "unknown-kind",
                    format!(
                        "kind {kind:?} is neither {}; recognised by shape",
                        names.join(" nor ")
                    ),
                    "/kind",
                ));
            }
            named
        }
        None => None,
    };
    match explicit.or_else(|| SHAPES.iter().find(|shape| (shape.recognise)(&o))) {
        Some(shape) => (shape.read)(o, place, state, sink),
        None => {
            let wanted = match o.evidence {
                Some((ListField::Wrong(_), _)) => "evidence",
                _ => "candidates",
            };
            let (code, message) = missing_list(&o, wanted);
            sink.next_position();
            sink.fail(place, code, message);
        }
    }
}

/// A document (or JSON Lines line) that starts as an OTLP `TracesData` object does,
/// read by the span reader from its text, without the JSON tree every other object's
/// unknown fields are kept as; `false` when it is no such object (it has other fields,
/// or is not JSON), and nothing was read: it is then read as every document is.
pub(super) fn read_traces_data(
    text: &str,
    place: Place,
    state: &mut ShapeState,
    sink: &mut dyn Sink,
) -> bool {
    let starts_as_traces_data = text
        .trim_start()
        .strip_prefix('{')
        .is_some_and(|rest| rest.trim_start().starts_with("\"resourceSpans\""));
    if !starts_as_traces_data {
        return false;
    }
    let Some(readers) = other_readers() else {
        return false;
    };
    let read = (readers.otlp_text)(text, place, &mut state.retrievals, sink);
    state.spans_seen |= read;
    read
}

/// The end of a document: what the shapes still hold becomes traces.
pub(super) fn end_of_document(state: &mut ShapeState, sink: &mut dyn Sink) {
    if state.spans_seen {
        if let Some(readers) = other_readers() {
            (readers.end)(state, sink);
        }
    }
}
