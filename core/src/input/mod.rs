//! Reading traces (contract section 1): every document shape, both field spellings,
//! `null` as absent, wrong types as located diagnostics, unknown fields kept.
//!
//! Parsing is one typed pass over the text (serde visitors, no intermediate
//! `serde_json::Value` except for unknown fields), and everything that does not
//! depend on the configuration is computed here once, so that re-analysing with
//! new settings never re-parses.
//!
//! JSON pointers: a trace in a single document has the prefix `""`, in an array
//! `/3`, in a wrapper `/traces/3`; an embedded LookupResult trace adds `/trace`.
//! In JSON Lines the prefix is `/<0-based line index>` (empty lines counted), so
//! `/3/candidates/0/originalRank` is on line 4; [`Trace::line`] holds the 1-based line.
//!
//! Here: the entry points. `model`: the types every later stage reads. `scalar`: loose
//! values and the readers of one field. `visitors`: the serde visitors and key tables.
//! `builder`: documents, arrays and wrappers down to trace-level objects, and where
//! their traces and errors collect. `shapes`: each shape of a trace-level object
//! (recognised and dispatched in `shapes/mod.rs`, one module a shape). `parts`: what
//! the shapes share (the trace-level fields, the candidates). `derive`: what no
//! setting changes, computed once. `stream`: the same parse fed bytes in chunks
//! ([`DocumentReader`]).

/// Implements the non-map, non-seq visits of a visitor whose value is "not what we wanted".
macro_rules! other_values {
    ($out:expr) => {
        fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
            Ok($out("boolean"))
        }
        fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
            Ok($out("number"))
        }
        fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
            Ok($out("number"))
        }
        fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
            Ok($out("number"))
        }
        fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
            Ok($out("string"))
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok($out("null"))
        }
        fn visit_none<E>(self) -> Result<Self::Value, E> {
            Ok($out("null"))
        }
    };
}

mod builder;
mod derive;
mod model;
mod numbers;
mod other_readers;
mod parts;
mod read;
mod scalar;
mod shapes;
mod stream;
mod trec_run;
mod visitors;

use builder::{Batch, Builder};
use numbers::JsonFailure;
use serde::de::DeserializeSeed;
use serde_json::Value;
use visitors::{BatchSink, TopSeed};

pub(crate) use model::{name_hash, Hot, NameHashes};
pub use model::{Candidate, DocumentSummary, ParsedBatch, Rank, Trace, TraceKind};
pub use other_readers::{load_other_readers, other_readers_missed};
pub use read::{read_batch, read_document, ReadError, READ_CHUNK};
pub use stream::{parse_document_bytes, DocumentReader};
pub use trec_run::parse_trec_run;
pub(crate) use trec_run::{
    data_lines as trec_data_lines, looks_like_trec, MOST_ERRORS as MOST_TREC_LINE_ERRORS,
};

/// Reads several documents (source name, full text) as one batch.
pub fn parse_documents(docs: &[(String, String)]) -> ParsedBatch {
    ParsedBatch::concat(
        docs.iter()
            .map(|(source, text)| parse_document(source, text)),
    )
}

/// Reads one document of any shape of section 1.
pub fn parse_document(source: &str, text: &str) -> ParsedBatch {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if trec_run::looks_like_trec_run(text) {
        return match other_readers::trec_run_reader() {
            Some(read) => read(source, text),
            None => ParsedBatch::default(),
        };
    }
    let mut builder = Builder::new(source);
    if text.trim().is_empty() {
        builder.empty_document();
    } else if looks_like_json_lines(text) {
        parse_json_lines(&mut builder, text);
    } else {
        parse_single_document(&mut builder, text);
    }
    builder.finish()
}

/// A whole document that is not JSON Lines: one object, array or wrapper.
fn parse_single_document(builder: &mut Builder, text: &str) {
    if let Err(err) = read_top(builder, text, "", None) {
        builder.json_error(&err, text, 0);
    }
}

/// Reads one document (or JSON Lines line) at `pointer`, or keeps nothing of it when
/// it is not one JSON value: a batch's elements are built as they are read, and undone.
fn read_top(
    builder: &mut Builder,
    text: &str,
    pointer: &str,
    line: Option<(usize, &str)>,
) -> Result<(), JsonFailure> {
    if builder.traces_data(text, parts::Place { pointer, line }) {
        return Ok(());
    }
    let mut batch = Batch {
        builder,
        pointer,
        line,
    };
    let read = parse_top(text, &mut batch);
    match read {
        Ok(top) => builder.top(top, pointer, line),
        Err(failure) => {
            builder.forget_batch();
            return Err(failure);
        }
    }
    Ok(())
}

/// One JSON value and nothing after it (but whitespace), its batch handed to `sink`.
/// A text with numbers beyond a double's range is read again with them marked (see
/// `numbers`), the first reading's elements undone.
fn parse_top(text: &str, sink: &mut dyn BatchSink) -> Result<visitors::Top, JsonFailure> {
    match parse_top_once(text, sink) {
        Err(error) if numbers::is_out_of_range(&error) => {
            sink.forget_batch();
            let Some((rewritten, shifts)) = numbers::rewrite_out_of_range(text) else {
                return Err(JsonFailure {
                    error,
                    shifts: Vec::new(),
                });
            };
            parse_top_once(&rewritten, sink).map_err(|error| JsonFailure { error, shifts })
        }
        other => other.map_err(|error| JsonFailure {
            error,
            shifts: Vec::new(),
        }),
    }
}

fn parse_top_once(
    text: &str,
    sink: &mut dyn BatchSink,
) -> Result<visitors::Top, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    TopSeed { sink }
        .deserialize(&mut de)
        .and_then(|top| de.end().map(|()| top))
}

/// A sink that builds nothing: for reading a text only to find its syntax error.
struct Unbuilt;

impl BatchSink for Unbuilt {
    fn element(
        &mut self,
        _: Option<&'static str>,
        _: usize,
        _: visitors::Item<visitors::RawObject>,
    ) {
    }
    fn forget_batch(&mut self) {}
}

/// One non-blank JSON Lines line; `index` is 0-based, blank lines counted.
fn parse_json_line(builder: &mut Builder, index: usize, line: &str) {
    if let Err(err) = read_top(builder, line, &format!("/{index}"), Some((index + 1, line))) {
        builder.json_error(&err, line, index);
    }
}

/// Reads an already-parsed JSON value (the JS API passes objects).
pub fn parse_value(source: &str, value: &Value) -> ParsedBatch {
    let mut builder = Builder::new(source);
    builder.value(value);
    builder.finish()
}

/// JSON Lines when the first non-empty line is a complete `{...}` and another non-empty line follows.
/// A pretty-printed document's first line is `{` or `[` alone, so it is not mistaken for one.
/// `stream::DocumentReader` decides the same from the first bytes that allow it.
fn looks_like_json_lines(text: &str) -> bool {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    match (lines.next(), lines.next()) {
        (Some(first), Some(_)) => first.starts_with('{') && first.ends_with('}'),
        _ => false,
    }
}

fn parse_json_lines(builder: &mut Builder, text: &str) {
    for (index, line) in text.lines().enumerate() {
        if !line.trim().is_empty() {
            parse_json_line(builder, index, line);
        }
    }
}
