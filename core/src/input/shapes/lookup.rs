//! The LookupResult shapes (contract section 1): an embedded trace, analysed with the
//! recorded evidence beside it, or only the capped evidence list.

use crate::diagnostic::{Diagnostic, InputErrorCode};
use crate::input::model::{Trace, TraceKind};
use crate::input::parts::{
    base_trace, finish_candidates, finish_trace, has_list, missing_list, one_trace, prefix_diags,
    Place, Sink,
};
use crate::input::visitors::{Item, ListField, RawCandidate, RawObject};
use std::sync::Arc;

/// An `evidence` array, or an embedded trace object.
pub(super) fn recognise(o: &RawObject) -> bool {
    has_list(&o.evidence) || matches!(o.trace, Some((Item::Object(_), _)))
}

pub(super) fn read(o: RawObject, place: Place, sink: &mut dyn Sink) {
    one_trace(sink, place, |position, source| {
        lookup_result(o, place, position, source)
    });
}

/// A LookupResult: analyse the embedded trace when there is one, else the evidence.
fn lookup_result(
    mut o: RawObject,
    place: Place,
    position: usize,
    source: &Arc<str>,
) -> Result<Trace, (InputErrorCode, String)> {
    if let Some((_, name)) = o.candidates.take() {
        o.diags.0.push(Diagnostic::warning(
            "candidates-ignored",
            format!(
                "a LookupResult's {name} are ignored: its evidence (or embedded trace) is analysed"
            ),
            format!("/{name}"),
        ));
    }
    let evidence = o.evidence.take();
    let embedded = match o.trace.take() {
        Some((Item::Object(inner), name)) => match inner.candidates {
            Some((ListField::List(_), _)) => Some((inner, name)),
            _ => {
                o.diags.0.push(Diagnostic::error(
                    "embedded-trace-unusable",
                    format!(
                        "the embedded trace has no candidates array; the evidence is analysed instead ({})",
                        missing_list(&inner, "candidates").1
                    ),
                    format!("/{name}"),
                ));
                None
            }
        },
        Some((Item::NotObject(found), name)) => {
            o.diags.wrong_type(name, "an object", found);
            None
        }
        None => None,
    };
    match embedded {
        Some((inner, name)) => embedded_trace(o, *inner, name, evidence, place, position, source),
        None => evidence_only(o, evidence, place, position, source),
    }
}

/// The embedded trace's candidates are analysed; the outer object lends its recorded
/// outcome where the inner has none, its `query` as `lookupQuery`, its unknown fields,
/// and its `evidence` as the recorded evidence to compare with.
fn embedded_trace(
    mut o: RawObject,
    mut inner: RawObject,
    name: &str,
    evidence: Option<(ListField<RawCandidate>, &'static str)>,
    place: Place,
    position: usize,
    source: &Arc<str>,
) -> Result<Trace, (InputErrorCode, String)> {
    let outer_prefix = place.pointer;
    let inner_pointer = format!("{outer_prefix}/{name}");
    let Some((ListField::List(items), list_name)) = inner.candidates.take() else {
        return Err(missing_list(&inner, "candidates"));
    };
    inner.relevance_level = inner.relevance_level.or(o.relevance_level.take());
    inner.low_quality = inner.low_quality.or(o.low_quality.take());
    let mut diagnostics = Vec::new();
    prefix_diags(std::mem::take(&mut o.diags), outer_prefix, &mut diagnostics);
    let inner_place = Place {
        pointer: &inner_pointer,
        line: place.line,
    };
    let mut trace = base_trace(
        inner,
        TraceKind::LookupResult,
        inner_place,
        position,
        source,
    );
    trace.pointer = outer_prefix.to_owned();
    trace.lookup_query = o.query.take();
    for (key, value) in std::mem::take(&mut o.extra) {
        trace.extra.entry(key).or_insert(value);
    }
    let prefix = format!("{inner_pointer}/{list_name}");
    let candidates = finish_candidates(items, &prefix, &trace, &mut diagnostics);
    trace.recorded_evidence = Some(match evidence {
        Some((ListField::List(items), ev_name)) => {
            let ev_prefix = format!("{outer_prefix}/{ev_name}");
            finish_candidates(items, &ev_prefix, &trace, &mut diagnostics)
                .into_iter()
                .map(|c| c.evidence_key)
                .collect()
        }
        _ => Vec::new(),
    });
    Ok(finish_trace(trace, diagnostics, candidates))
}

/// No usable embedded trace: the evidence list is analysed, and `n` is only its length.
fn evidence_only(
    mut o: RawObject,
    evidence: Option<(ListField<RawCandidate>, &'static str)>,
    place: Place,
    position: usize,
    source: &Arc<str>,
) -> Result<Trace, (InputErrorCode, String)> {
    let outer_prefix = place.pointer;
    let Some((ListField::List(items), list_name)) = evidence else {
        o.evidence = evidence;
        return Err(missing_list(&o, "evidence"));
    };
    let mut trace = base_trace(o, TraceKind::LookupResult, place, position, source);
    let prefix = format!("{outer_prefix}/{list_name}");
    let mut diagnostics = Vec::new();
    let candidates = finish_candidates(items, &prefix, &trace, &mut diagnostics);
    trace.n_approximated = true;
    diagnostics.push(Diagnostic::warning(
        "n-approximated",
        format!(
            "n approximated from capped evidence list: a LookupResult without an embedded trace has only its {} evidence items, not the service's full candidate batch",
            candidates.len()
        ),
        format!("{outer_prefix}/{list_name}"),
    ));
    Ok(finish_trace(trace, diagnostics, candidates))
}
