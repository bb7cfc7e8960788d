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
        read: |o, place, state, sink| otlp::read(o, place, &mut state.retrievals, sink),
    },
    Shape {
        kind: None,
        recognise: phoenix::recognise,
        read: |o, place, state, sink| phoenix::read(o, place, &mut state.phoenix, sink),
    },
];

/// What shapes keep from one object to the next within a document.
#[derive(Default, Clone)]
pub(super) struct ShapeState {
    /// OTLP retrieval spans waiting for their parent or child (bounded).
    retrievals: otlp::Retrievals,
    /// The same for Phoenix's span records (bounded).
    phoenix: otlp::Retrievals,
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

/// The end of a document: what the shapes still hold becomes traces.
pub(super) fn end_of_document(state: &mut ShapeState, sink: &mut dyn Sink) {
    state.retrievals.end(sink);
    state.phoenix.end(&mut phoenix::ColumnPaths(sink));
}
