//! OTLP's `TracesData` in its JSON mapping, as much of it as ragtrace reads: the span
//! tree (`tree`), attribute values (`any_value`) and the lenient reading both rest on
//! (`lenient`). It reads from the text in one pass, or from a parsed JSON value alike,
//! and never fails on a value of an unexpected type: what a reader makes of the spans
//! (traces, diagnostics) is the core's `input::shapes::otlp`.
//!
//! A crate of its own so that it can be compiled for speed where the rest is compiled
//! for size: the page's profile is opt-level `z`, and the JSON reading of a span file
//! is most of its load (docs/performance.md). Its generic reading is instantiated here,
//! by the non-generic functions below, so it is compiled at this crate's level.

mod any_value;
mod lenient;
mod tree;

pub use any_value::{kvlist_to_json, AnyValue, Chars, KeyValue};
pub use lenient::Listed;
pub use tree::{traces_data, Level, ResourceSpans, ScopeSpans, Span, SpanFields};

use serde::Deserialize;
use serde_json::Value;

/// `resourceSpans` already parsed as JSON.
pub fn resource_spans_of_value(
    value: &Value,
) -> Result<Listed<ResourceSpans<'_>>, serde_json::Error> {
    Listed::deserialize(value)
}

/// A JSON text held in an attribute (a `metadata` object, a documents array).
pub fn json_of_text(text: &str) -> Result<Value, serde_json::Error> {
    serde_json::from_str(text)
}
