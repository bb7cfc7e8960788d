//! OTLP JSON spans (contract section 11): an object with a `resourceSpans` array, as
//! the OpenTelemetry file exporter and the Collector's `file` exporter write it (one
//! `TracesData` a line). Its spans are `resourceSpans[].scopeSpans[].spans[]`;
//! retrieval spans (OpenInference `RETRIEVER`, GenAI `gen_ai.operation.name` =
//! `retrieval`) and `RERANKER` spans are traces, every other span is skipped and
//! counted in the document's `skippedSpans`. `nesting` decides which retrieval spans
//! are one retrieval; `documents` reads a span's documents. The JSON reading of the
//! spans and their attribute values is the crate `ragtrace_otlp`.

mod documents;
mod nesting;

pub(in crate::input::shapes) use nesting::Retrievals;
pub(in crate::input::shapes) use ragtrace_otlp::Span;

use crate::diagnostic::json_type;
use documents::{items, Document, Documents};
use nesting::SpanKey;
use ragtrace_otlp::{
    json_of_text, kvlist_to_json, resource_spans_of_value, traces_data, AnyValue, KeyValue, Listed,
    ResourceSpans, SpanFields,
};

use crate::diagnostic::{Diagnostic, InputErrorCode};
use crate::input::model::{InputRank, Trace, TraceKind};
use crate::input::parts::{base_trace, finish_candidates, finish_trace, Place, Sink};
use crate::input::visitors::RawObject;
use serde_json::{Map, Value};
use std::sync::Arc;

/// OpenTelemetry SDKs' default limit of attributes a span.
const DEFAULT_ATTRIBUTE_LIMIT: usize = 128;

/// An object with a `resourceSpans` field (of any type: a wrong one is reported).
pub(in crate::input::shapes) fn recognise(o: &RawObject) -> bool {
    o.extra.contains_key("resourceSpans")
}

/// Every span of the object: traces to `sink`, retrieval spans through `held`.
pub(in crate::input::shapes) fn read(
    mut o: RawObject,
    place: Place,
    held: &mut Retrievals,
    sink: &mut dyn Sink,
) {
    let Some(resource_spans) = o.extra.remove("resourceSpans") else {
        return;
    };
    match resource_spans_of_value(&resource_spans) {
        Ok(listed) => read_resource_spans(listed, place, held, sink),
        // The span tree reads every JSON value; kept for a reader that may not.
        Err(err) => {
            sink.next_position();
            sink.fail(
                place,
                InputErrorCode::Unusable,
                format!("resourceSpans could not be read ({err}); its spans are not read"),
            );
        }
    }
}

/// A document (or a JSON Lines line) that is a `TracesData` object and nothing else,
/// read from its text without building a JSON tree of it first; `false` when it is not
/// one (or not JSON), and nothing was read.
pub(in crate::input::shapes) fn read_text(
    text: &str,
    place: Place,
    held: &mut Retrievals,
    sink: &mut dyn Sink,
) -> bool {
    match traces_data(text) {
        Some(listed) => {
            read_resource_spans(listed, place, held, sink);
            true
        }
        None => false,
    }
}

fn read_resource_spans(
    resource_spans: Listed<ResourceSpans>,
    place: Place,
    held: &mut Retrievals,
    sink: &mut dyn Sink,
) {
    let base = format!("{}/resourceSpans", place.pointer);
    let mut skipped = 0;
    let Some(resources) = listed_at(resource_spans, &base, place, sink) else {
        return;
    };
    for (r, resource) in resources.into_iter().enumerate() {
        let pointer = format!("{base}/{r}/scopeSpans");
        let Some(scopes) = listed_at(resource.below, &pointer, place, sink) else {
            continue;
        };
        for (s, scope) in scopes.into_iter().enumerate() {
            let pointer = format!("{pointer}/{s}/spans");
            let Some(spans) = listed_at(scope.below, &pointer, place, sink) else {
                continue;
            };
            for (k, span) in spans.iter().enumerate() {
                let pointer = format!("{pointer}/{k}");
                let span_place = Place {
                    pointer: &pointer,
                    line: place.line,
                };
                if !read_span(span, span_place, held, sink) {
                    skipped += 1;
                }
            }
        }
    }
    sink.skipped_spans(skipped);
}

/// A list's elements, or an input error at `pointer` when it is not an array (takes a
/// position).
fn listed_at<T>(
    listed: Listed<T>,
    pointer: &str,
    place: Place,
    sink: &mut dyn Sink,
) -> Option<Vec<T>> {
    match listed {
        Listed::Items(items) => Some(items),
        Listed::Null => None,
        Listed::Wrong(found) => {
            sink.next_position();
            let name = pointer.rsplit('/').next().unwrap_or(pointer);
            sink.fail(
                Place {
                    pointer,
                    line: place.line,
                },
                InputErrorCode::Unusable,
                format!("{name} must be an array, got {found}; its spans are not read"),
            );
            None
        }
    }
}

/// What a span is to the reader.
#[derive(Clone, Copy, PartialEq, Eq)]
enum SpanRole {
    Retrieval,
    Reranker,
    Other,
}

/// One span; `false` when it is skipped (not a retrieval or reranker span).
pub(in crate::input::shapes) fn read_span(
    span: &Span,
    place: Place,
    held: &mut Retrievals,
    sink: &mut dyn Sink,
) -> bool {
    let Span::Object(SpanFields {
        trace_id,
        span_id,
        parent_span_id,
        attributes: Some(attributes),
        dropped_attributes,
    }) = span
    else {
        return false;
    };
    let text = |name: &str| {
        attributes
            .iter()
            .find(|a| a.key.as_deref() == Some(name))
            .and_then(|a| match &a.value {
                AnyValue::Str(s) => Some(&**s),
                _ => None,
            })
    };
    let role = match (
        text("openinference.span.kind"),
        text("gen_ai.operation.name"),
    ) {
        (Some(kind), _) if kind.eq_ignore_ascii_case("RETRIEVER") => SpanRole::Retrieval,
        (Some(kind), _) if kind.eq_ignore_ascii_case("RERANKER") => SpanRole::Reranker,
        (_, Some("retrieval")) => SpanRole::Retrieval,
        _ => SpanRole::Other,
    };
    if role == SpanRole::Other {
        return false;
    }
    let trace_id = non_empty(trace_id).unwrap_or("");
    let span_id = non_empty(span_id).unwrap_or("");
    let key = SpanKey {
        key: format!("{trace_id}/{span_id}"),
        parent: non_empty(parent_span_id).map(|parent| format!("{trace_id}/{parent}")),
    };
    let dropped = *dropped_attributes;
    let request_id = (!trace_id.is_empty() || !span_id.is_empty()).then(|| key.key.clone());
    let source = sink.source().clone();
    let (trace, has_documents) = span_trace(attributes, role, request_id, dropped, place, &source);
    match role {
        SpanRole::Retrieval => held.offer(key, has_documents, trace, sink),
        _ => {
            let mut trace = trace;
            trace.position = sink.next_position();
            sink.trace(trace);
        }
    }
    true
}

fn non_empty<'s>(id: &'s Option<std::borrow::Cow<str>>) -> Option<&'s str> {
    id.as_deref().filter(|s| !s.is_empty())
}

/// The trace of a retrieval or reranker span, and whether it has documents.
fn span_trace(
    attributes: &[KeyValue],
    role: SpanRole,
    request_id: Option<String>,
    dropped: u64,
    place: Place,
    source: &Arc<str>,
) -> (Trace, bool) {
    let mut diagnostics = Vec::new();
    let mut o = RawObject::default();
    let mut query = None;
    let mut genai_query = None;
    let mut reranker_query = None;
    let mut has_metadata = false;
    let (mut listed, mut reranker_input) = match role {
        SpanRole::Reranker => (
            Documents::new("reranker.output_documents"),
            Some(Documents::new("reranker.input_documents")),
        ),
        _ => (Documents::new("retrieval.documents"), None),
    };
    let mut genai_documents = Documents::new("gen_ai.retrieval.documents");
    for attribute in attributes {
        let Some(key) = attribute.key.as_deref() else {
            continue;
        };
        let value = &attribute.value;
        match key {
            "openinference.span.kind" | "gen_ai.operation.name" => {}
            "input.value" => query = span_text(key, value, &mut diagnostics),
            "gen_ai.retrieval.query.text" => genai_query = span_text(key, value, &mut diagnostics),
            "reranker.query" => reranker_query = span_text(key, value, &mut diagnostics),
            "gen_ai.retrieval.documents" => genai_documents.add_genai(key, value, &mut diagnostics),
            "metadata" => {
                has_metadata = true;
                o.case_id = case_id(key, value, &mut diagnostics, &mut o.extra);
            }
            _ => {
                let taken = listed.add(key, value, &mut diagnostics)
                    || reranker_input
                        .as_mut()
                        .is_some_and(|input| input.add(key, value, &mut diagnostics));
                if !taken {
                    o.extra.insert(key.to_owned(), value.to_json());
                }
            }
        }
    }
    // A span written both ways is read once: OpenInference's documents first.
    let (listed, prefix) = if listed.is_empty() && !genai_documents.is_empty() {
        (genai_documents, "gen_ai.retrieval.documents")
    } else {
        let prefix = match role {
            SpanRole::Reranker => "reranker.output_documents",
            _ => "retrieval.documents",
        };
        (listed, prefix)
    };
    o.query = match role {
        SpanRole::Reranker => reranker_query.or(query),
        _ => query.or(genai_query),
    };
    o.request_id = request_id.map(Arc::from);
    let documents = listed.read(&mut diagnostics, dropped > 0);
    if dropped > 0 {
        diagnostics.push(limit_warning(
            dropped,
            o.query.is_none(),
            has_metadata,
            &documents,
            prefix,
        ));
    }
    let has_documents = !documents.is_empty();
    let mut input_ranks = Vec::new();
    if let Some(input) = reranker_input {
        let inputs = input.read(&mut diagnostics, dropped > 0);
        input_ranks = documents
            .iter()
            .map(|d| {
                let id = d.id.as_ref()?;
                let found = inputs.iter().find(|i| i.id.as_ref() == Some(id))?;
                found.index.checked_add(1)
            })
            .collect();
    }
    let mode = match role {
        SpanRole::Retrieval if documents.iter().any(|d| d.has_score) => "dense",
        _ => "hybrid",
    };
    o.mode = Some(Arc::from(mode));
    let (indices, mut candidate_items) = items(documents);
    if role == SpanRole::Reranker {
        for item in candidate_items.iter_mut() {
            if let crate::input::visitors::Item::Object(c) = item {
                // The reranker's score is shown; quality comes from the output rank.
                c.raw_score = c.score.take();
            }
        }
    }
    let trace = base_trace(o, TraceKind::RerankTrace, place, 0, source);
    let mut found = Vec::new();
    let mut candidates = finish_candidates(candidate_items, "", &trace, &mut found);
    if role == SpanRole::Reranker {
        // Set on the candidates, not the raw ones: a field there would cost every
        // native candidate while a document is read.
        for (candidate, input_rank) in candidates.iter_mut().zip(&input_ranks) {
            candidate.input_rank = InputRank::of(*input_rank);
        }
    }
    // Their paths are `/<position>/...`: named by the attribute instead.
    for mut diagnostic in found {
        diagnostic.path = diagnostic
            .path
            .map(|path| attribute_path(&path, prefix, &indices));
        diagnostics.push(diagnostic);
    }
    (finish_trace(trace, diagnostics, candidates), has_documents)
}

/// `/<position>/score` of the candidates' own findings as `<prefix>.<i>.document.score`.
fn attribute_path(path: &str, prefix: &str, indices: &[u64]) -> String {
    let rest = path.trim_start_matches('/');
    let (position, field) = rest.split_once('/').unwrap_or((rest, ""));
    let index = position
        .parse::<usize>()
        .ok()
        .and_then(|p| indices.get(p))
        .map_or_else(|| position.to_owned(), u64::to_string);
    match field {
        "" => format!("{prefix}.{index}"),
        field => format!("{prefix}.{index}.document.{}", field.replace('/', ".")),
    }
}

/// A span attribute that must be text.
fn span_text(key: &str, value: &AnyValue, diagnostics: &mut Vec<Diagnostic>) -> Option<Arc<str>> {
    match value {
        AnyValue::Str(s) => Some(s.shared()),
        AnyValue::Empty => {
            diagnostics.push(Diagnostic::warning(
                "empty-value",
                format!("{key}: an empty value; treated as absent"),
                key,
            ));
            None
        }
        other => {
            diagnostics.push(Diagnostic::error(
                "wrong-type",
                format!(
                    "{key}: expected a string, got {}; treated as absent",
                    other.type_name()
                ),
                key,
            ));
            None
        }
    }
}

/// The span's `metadata` (a JSON object as text, or a kvlist): its `caseId` or
/// `case_id`; the metadata itself is shown among the unknown attributes.
fn case_id(
    key: &str,
    value: &AnyValue,
    diagnostics: &mut Vec<Diagnostic>,
    extra: &mut Map<String, Value>,
) -> Option<Arc<str>> {
    let object = match value {
        AnyValue::Str(text) => match json_of_text(text) {
            Ok(Value::Object(object)) => object,
            Ok(other) => {
                diagnostics.push(Diagnostic::error(
                    "metadata-not-object",
                    format!(
                        "{key}: JSON {} where an object is expected; no caseId read from it",
                        json_type(&other)
                    ),
                    key,
                ));
                extra.insert(key.to_owned(), Value::String(text.to_string()));
                return None;
            }
            Err(err) => {
                diagnostics.push(Diagnostic::error(
                    "metadata-not-json",
                    format!("{key}: not JSON ({err}); no caseId read from it"),
                    key,
                ));
                extra.insert(key.to_owned(), Value::String(text.to_string()));
                return None;
            }
        },
        AnyValue::Kvlist(entries) => kvlist_to_json(entries),
        AnyValue::Empty => return None,
        other => {
            diagnostics.push(Diagnostic::error(
                "wrong-type",
                format!(
                    "{key}: expected a JSON object as text, got {}; no caseId read from it",
                    other.type_name()
                ),
                key,
            ));
            return None;
        }
    };
    let case = ["caseId", "case_id"]
        .iter()
        .find_map(|name| match object.get(*name)? {
            Value::String(s) => Some(Arc::from(s.as_str())),
            Value::Number(n) if n.is_u64() || n.is_i64() => Some(Arc::from(n.to_string())),
            _ => None,
        });
    extra.insert(key.to_owned(), Value::Object(object));
    case
}

/// What a span cut by its SDK's attribute limit is missing, as far as can be told.
fn limit_warning(
    dropped: u64,
    no_query: bool,
    has_metadata: bool,
    documents: &[Document],
    prefix: &str,
) -> Diagnostic {
    let mut missing = Vec::new();
    if no_query {
        missing.push("the query (input.value)".to_owned());
    }
    if !has_metadata {
        missing.push("the span's metadata, if it had one (so its caseId)".to_owned());
    }
    match documents.first() {
        Some(first) if first.index == 1 => {
            missing.push(format!("the document at {prefix}.0 (rank 1)"))
        }
        Some(first) if first.index > 1 => missing.push(format!(
            "the documents at {prefix}.0 to {} (ranks 1 to {})",
            first.index - 1,
            first.index
        )),
        _ => {}
    }
    if let Some(first) = documents.first() {
        let c = &first.candidate;
        let parts: Vec<&str> = [
            ("document.id", c.evidence_key.is_none()),
            ("document.content", c.excerpt.is_none()),
            ("document.score", !first.has_score),
        ]
        .iter()
        .filter(|(_, absent)| *absent)
        .map(|(name, _)| *name)
        .collect();
        if !parts.is_empty() {
            missing.push(format!("{} of {prefix}.{}", parts.join(", "), first.index));
        }
    }
    if missing.is_empty() {
        missing.push("attributes the reader cannot name".to_owned());
    }
    Diagnostic::warning(
        "attribute-limit",
        format!(
            "the span's SDK dropped {dropped} attributes at its attribute limit (OpenTelemetry's default is {DEFAULT_ATTRIBUTE_LIMIT} attributes a span; OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT raises it): missing {}; the documents that remain keep their ranks",
            missing.join(", ")
        ),
        "droppedAttributesCount",
    )
}
