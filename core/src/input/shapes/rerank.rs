//! The RerankTrace shape (contract section 1): its `candidates` are the candidates.

use crate::diagnostic::InputErrorCode;
use crate::input::model::{Trace, TraceKind};
use crate::input::parts::{
    base_trace, finish_candidates, finish_trace, has_list, missing_list, one_trace, Place, Sink,
};
use crate::input::visitors::{ListField, RawObject};
use std::sync::Arc;

/// A `candidates` array.
pub(super) fn recognise(o: &RawObject) -> bool {
    has_list(&o.candidates)
}

pub(super) fn read(o: RawObject, place: Place, sink: &mut dyn Sink) {
    one_trace(sink, place, |position, source| {
        rerank_trace(o, place, position, source)
    });
}

fn rerank_trace(
    mut o: RawObject,
    place: Place,
    position: usize,
    source: &Arc<str>,
) -> Result<Trace, (InputErrorCode, String)> {
    let Some((ListField::List(items), list_name)) = o.candidates.take() else {
        return Err(missing_list(&o, "candidates"));
    };
    let trace = base_trace(o, TraceKind::RerankTrace, place, position, source);
    let prefix = format!("{}/{list_name}", place.pointer);
    let mut diagnostics = Vec::new();
    let candidates = finish_candidates(items, &prefix, &trace, &mut diagnostics);
    Ok(finish_trace(trace, diagnostics, candidates))
}
