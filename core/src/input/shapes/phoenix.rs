//! Arize Phoenix's span records (contract section 11): one row of Phoenix's span
//! dataframe (`get_spans_dataframe()`, as `to_dict("records")` or a JSON Lines export
//! of it), an object with `context.span_id` and `span_kind`. Phoenix keeps each span
//! attribute as a column `attributes.<key>` holding plain JSON (documents a list of
//! `{"document.id": ..., "document.score": ...}`, metadata an object), so a record is
//! turned into the OTLP span it was and read by the OTLP span reader: one mapping,
//! one nesting rule. Findings are located by the record's column
//! (`attributes.retrieval.documents.0.document.score`).

use super::otlp::{read_span, Retrievals, Span};
use crate::diagnostic::InputErrorCode;
use crate::input::model::Trace;
use crate::input::parts::{Place, Sink};
use crate::input::visitors::RawObject;
use serde_json::{json, Map, Value};
use std::sync::Arc;

/// The prefix of Phoenix's attribute columns.
const ATTRIBUTES: &str = "attributes.";

/// A row of Phoenix's span dataframe.
pub(in crate::input::shapes) fn recognise(o: &RawObject) -> bool {
    o.extra.contains_key("context.span_id") && o.extra.contains_key("span_kind")
}

/// The record as a span: a trace to `sink` (a retrieval through `held`), or one
/// skipped span.
pub(in crate::input::shapes) fn read(
    mut o: RawObject,
    place: Place,
    held: &mut Retrievals,
    sink: &mut dyn Sink,
) {
    let span = as_otlp_span(std::mem::take(&mut o.extra));
    let mut sink = ColumnPaths(sink);
    let read = read_span(&Span::of_value(&span), place, held, &mut sink);
    sink.skipped_spans(usize::from(!read));
}

/// The OTLP span a record was: its ids, and its non-null `attributes.*` columns as
/// OTLP attributes (a dataframe's null is a column this span does not have).
fn as_otlp_span(mut record: Map<String, Value>) -> Value {
    let mut id = |column: &str| match record.remove(column) {
        Some(Value::String(id)) if !id.is_empty() => Value::String(id),
        _ => Value::Null,
    };
    let trace_id = id("context.trace_id");
    let span_id = id("context.span_id");
    let parent_span_id = id("parent_id");
    let span_kind = record.remove("span_kind");
    let mut attributes: Vec<Value> = Vec::new();
    let mut has_kind = false;
    for (column, value) in record {
        let Some(key) = column.strip_prefix(ATTRIBUTES) else {
            continue;
        };
        if value.is_null() {
            continue;
        }
        has_kind |= key == "openinference.span.kind";
        attributes.push(json!({"key": key, "value": any_value(value)}));
    }
    // Phoenix's own column, for records whose attribute column was left out.
    if let (false, Some(kind @ Value::String(_))) = (has_kind, span_kind) {
        attributes.push(json!({"key": "openinference.span.kind", "value": any_value(kind)}));
    }
    json!({
        "traceId": trace_id,
        "spanId": span_id,
        "parentSpanId": parent_span_id,
        "attributes": attributes,
    })
}

/// A plain JSON value as the OTLP AnyValue holding it: an object is a key-value
/// list, null the empty AnyValue.
fn any_value(value: Value) -> Value {
    match value {
        Value::Null => json!({}),
        Value::String(s) => json!({ "stringValue": s }),
        Value::Bool(b) => json!({ "boolValue": b }),
        Value::Number(n) if n.is_i64() => json!({ "intValue": n }),
        Value::Number(n) => json!({ "doubleValue": n }),
        Value::Array(items) => {
            let values: Vec<Value> = items.into_iter().map(any_value).collect();
            json!({ "arrayValue": { "values": values } })
        }
        Value::Object(entries) => {
            let values: Vec<Value> = entries
                .into_iter()
                .map(|(key, value)| json!({"key": key, "value": any_value(value)}))
                .collect();
            json!({ "kvlistValue": { "values": values } })
        }
    }
}

/// The sink of a record's traces: their findings, located by the attribute's key,
/// are located by the record's column instead.
pub(in crate::input::shapes) struct ColumnPaths<'s>(pub(in crate::input::shapes) &'s mut dyn Sink);

impl Sink for ColumnPaths<'_> {
    fn source(&self) -> &Arc<str> {
        self.0.source()
    }

    fn next_position(&mut self) -> usize {
        self.0.next_position()
    }

    fn trace(&mut self, mut trace: Trace) {
        for diagnostic in &mut trace.diagnostics {
            if let Some(path) = diagnostic.path.as_mut().filter(|p| !p.starts_with('/')) {
                path.insert_str(0, ATTRIBUTES);
            }
        }
        self.0.trace(trace);
    }

    fn fail(&mut self, place: Place, code: InputErrorCode, message: String) {
        self.0.fail(place, code, message);
    }

    fn skipped_spans(&mut self, count: usize) {
        self.0.skipped_spans(count);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_becomes_the_otlp_span_it_was() {
        let record = json!({
            "span_kind": "RETRIEVER",
            "context.span_id": "b2",
            "context.trace_id": "a1",
            "parent_id": null,
            "name": "VectorIndexRetriever.retrieve",
            "attributes.input.value": "q",
            "attributes.output.mime_type": null,
            "attributes.metadata": {"caseId": "c"},
            "attributes.retrieval.documents": [{"document.id": "d#0", "document.score": 0.5}],
        });
        let Value::Object(record) = record else {
            unreachable!()
        };
        let span = as_otlp_span(record);
        assert_eq!(span["traceId"], "a1");
        assert_eq!(span["spanId"], "b2");
        assert_eq!(span["parentSpanId"], Value::Null);
        let attributes = span["attributes"].as_array().unwrap();
        let value = |key: &str| {
            attributes
                .iter()
                .find(|a| a["key"] == key)
                .map(|a| a["value"].clone())
        };
        assert_eq!(value("input.value"), Some(json!({"stringValue": "q"})));
        // A null column is an attribute the span does not have.
        assert_eq!(value("output.mime_type"), None);
        assert_eq!(
            value("metadata"),
            Some(
                json!({"kvlistValue": {"values": [{"key": "caseId", "value": {"stringValue": "c"}}]}})
            )
        );
        assert_eq!(
            value("retrieval.documents"),
            Some(
                json!({"arrayValue": {"values": [{"kvlistValue": {"values": [
                    {"key": "document.id", "value": {"stringValue": "d#0"}},
                    {"key": "document.score", "value": {"doubleValue": 0.5}},
                ]}}]}})
            )
        );
        // Taken from `span_kind` when the attribute column is absent.
        assert_eq!(
            value("openinference.span.kind"),
            Some(json!({"stringValue": "RETRIEVER"}))
        );
    }
}
