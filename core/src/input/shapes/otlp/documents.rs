//! A span's documents: `<prefix>.<i>.document.<field>` attributes gathered by index
//! (a huge index allocates nothing in proportion: indices are keys of a sorted map),
//! or an array of key-value lists, or the GenAI conventions' JSON array; then
//! turned into candidates with `originalRank` = i + 1, and every malformed part a
//! diagnostic whose path is the attribute's key.

use crate::diagnostic::json_type;
use crate::diagnostic::Diagnostic;
use crate::input::visitors::{Item, RawCandidate, RawRank};
use ragtrace_otlp::{json_of_text, kvlist_to_json, AnyValue, KeyValue};
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::sync::Arc;

/// The metadata keys that name a document, the first present wins (contract section 11).
const DOC_ID_KEYS: &[&str] = &[
    "docId",
    "doc_id",
    "document_id",
    "ref_doc_id",
    "source",
    "file_name",
    "file_path",
];

/// One attribute of a document: its index, its field (`content`), its attribute key,
/// and its value, borrowed from the span where it is written there (copying each chunk
/// text and key before reading it cost a tenth of an OTLP batch's time).
type Field<'v> = (u64, Cow<'v, str>, Cow<'v, str>, Cow<'v, AnyValue<'v>>);

/// The documents of one list (`retrieval.documents`, `reranker.output_documents`, ...):
/// their attributes in the order read, one list for all (a huge index allocates nothing
/// in proportion), sorted by index when read.
pub(super) struct Documents<'v> {
    prefix: &'static str,
    fields: Vec<Field<'v>>,
}

/// A document read: its index, and the candidate built from it.
pub(super) struct Document {
    pub(super) index: u64,
    pub(super) id: Option<Arc<str>>,
    pub(super) has_score: bool,
    pub(super) candidate: RawCandidate,
}

impl<'v> Documents<'v> {
    pub(super) fn new(prefix: &'static str) -> Self {
        Documents {
            prefix,
            fields: Vec::new(),
        }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.fields.is_empty()
    }

    /// Takes the attribute `key` when it is one of this list's (`<prefix>.<i>.<field>`
    /// or `<prefix>` itself as an array); `false` leaves it to the caller.
    pub(super) fn add(
        &mut self,
        key: &'v str,
        value: &'v AnyValue<'v>,
        diags: &mut Vec<Diagnostic>,
    ) -> bool {
        let Some(rest) = key.strip_prefix(self.prefix) else {
            return false;
        };
        if rest.is_empty() {
            self.add_array(key, value, diags);
            return true;
        }
        let Some(rest) = rest.strip_prefix('.') else {
            return false;
        };
        let (index, field) = rest.split_once('.').unwrap_or((rest, ""));
        let Ok(index) = index.parse::<u64>() else {
            diags.push(Diagnostic::error(
                "document-index",
                format!("{key}: the document index {index:?} is not an integer from 0 to 2^64-1; the attribute is kept as an unknown one"),
                key,
            ));
            return false;
        };
        let field = field.strip_prefix("document.").unwrap_or(field);
        self.push(index, key.into(), field.into(), Cow::Borrowed(value));
        true
    }

    fn push(
        &mut self,
        index: u64,
        key: Cow<'v, str>,
        field: Cow<'v, str>,
        value: Cow<'v, AnyValue<'v>>,
    ) {
        self.fields.push((index, field, key, value));
    }

    /// `<prefix>` as an arrayValue of kvlistValues (`{"document.id": ...}`, `{"id": ...}`
    /// or `{"document": {kvlist}}`).
    fn add_array(&mut self, key: &str, value: &'v AnyValue<'v>, diags: &mut Vec<Diagnostic>) {
        let AnyValue::Array(items) = value else {
            diags.push(Diagnostic::error(
                "wrong-type",
                format!("{key}: expected an array of key-value lists, got {}; no documents read from it", value.type_name()),
                key,
            ));
            return;
        };
        for (index, item) in items.iter().enumerate() {
            let index = index as u64;
            let path = format!("{key}.{index}");
            match item {
                AnyValue::Kvlist(entries) => self.add_entries(index, &path, entries),
                other => diags.push(Diagnostic::error(
                    "wrong-type",
                    format!(
                        "{path}: a document must be a key-value list, got {}; skipped",
                        other.type_name()
                    ),
                    path.clone(),
                )),
            }
        }
    }

    fn add_entries(&mut self, index: u64, path: &str, entries: &'v [KeyValue<'v>]) {
        for entry in entries {
            let (Some(name), value) = (entry.key.as_deref(), &entry.value) else {
                continue;
            };
            if name == "document" {
                if let AnyValue::Kvlist(inner) = value {
                    self.add_entries(index, path, inner);
                    continue;
                }
            }
            let field = name.strip_prefix("document.").unwrap_or(name);
            self.push(
                index,
                format!("{path}.document.{field}").into(),
                field.into(),
                Cow::Borrowed(value),
            );
        }
    }

    /// The GenAI conventions' `gen_ai.retrieval.documents`: a JSON array of objects
    /// `{id, score, content, metadata}` as text, or as an arrayValue of kvlists.
    pub(super) fn add_genai(
        &mut self,
        key: &str,
        value: &'v AnyValue<'v>,
        diags: &mut Vec<Diagnostic>,
    ) {
        let parsed = match value {
            AnyValue::Str(text) => match json_of_text(text) {
                Ok(Value::Array(items)) => items,
                Ok(other) => {
                    diags.push(Diagnostic::error(
                        "wrong-type",
                        format!(
                            "{key}: expected a JSON array of documents, got {}",
                            json_type(&other)
                        ),
                        key,
                    ));
                    return;
                }
                Err(err) => {
                    diags.push(Diagnostic::error(
                        "documents-not-json",
                        format!("{key}: not JSON ({err}); no documents read from it"),
                        key,
                    ));
                    return;
                }
            },
            AnyValue::Array(_) => return self.add_array(key, value, diags),
            other => {
                diags.push(Diagnostic::error(
                    "wrong-type",
                    format!(
                        "{key}: expected documents as JSON text, got {}",
                        other.type_name()
                    ),
                    key,
                ));
                return;
            }
        };
        for (index, item) in parsed.iter().enumerate() {
            let path = format!("{key}.{index}");
            let Some(object) = item.as_object() else {
                diags.push(Diagnostic::error(
                    "wrong-type",
                    format!(
                        "{path}: a document must be an object, got {}; skipped",
                        json_type(item)
                    ),
                    path.clone(),
                ));
                continue;
            };
            for (name, plain) in object {
                self.push(
                    index as u64,
                    format!("{path}.{name}").into(),
                    name.clone().into(),
                    Cow::Owned(AnyValue::of_plain(plain)),
                );
            }
        }
    }

    /// The documents in index order, with the gaps between them reported.
    /// `leading_gap_reported`: the attribute limit explains missing first documents.
    pub(super) fn read(
        mut self,
        diags: &mut Vec<Diagnostic>,
        leading_gap_reported: bool,
    ) -> Vec<Document> {
        // Stable: a document's fields keep the order they were read in (instrumentors
        // write them by index already, which this sort only checks).
        self.fields.sort_by_key(|field| field.0);
        let mut out = Vec::new();
        let mut expected = 0u64;
        let mut fields = self.fields.into_iter().peekable();
        while let Some(first) = fields.next() {
            let index = first.0;
            if index > expected && !(expected == 0 && leading_gap_reported) {
                let absent = if index - expected == 1 {
                    format!("index {expected}")
                } else {
                    format!("indices {expected} to {}", index - 1)
                };
                diags.push(Diagnostic::error(
                    "document-index-gap",
                    format!("{}: no document at {absent}; the documents after keep their ranks (index + 1)", self.prefix),
                    first.2.clone().into_owned(),
                ));
            }
            expected = index.saturating_add(1);
            let rest = std::iter::from_fn(|| fields.next_if(|field| field.0 == index));
            out.push(document(index, std::iter::once(first).chain(rest), diags));
        }
        out
    }
}

fn document<'v>(
    index: u64,
    fields: impl Iterator<Item = Field<'v>>,
    diags: &mut Vec<Diagnostic>,
) -> Document {
    let mut c = RawCandidate::default();
    let mut metadata: Option<Map<String, Value>> = None;
    let mut has_score = false;
    for (_, field, key, value) in fields {
        let any = value.as_ref();
        if matches!(any, AnyValue::Empty) {
            diags.push(Diagnostic::warning(
                "empty-value",
                format!(
                    "{key}: an empty value (no stringValue, doubleValue, ...); treated as absent"
                ),
                key,
            ));
            continue;
        }
        match field.as_ref() {
            "id" => match any {
                AnyValue::Str(s) => c.evidence_key = Some(s.shared()),
                AnyValue::Int(i) => c.evidence_key = Some(Arc::from(i.to_string())),
                other => wrong(diags, &key, "a string", other),
            },
            "content" => match any {
                AnyValue::Str(s) => c.excerpt = Some((0, s.shared())),
                other => wrong(diags, &key, "a string", other),
            },
            "score" => {
                c.score = score(&key, any, diags);
                has_score |= c.score.is_some();
            }
            "metadata" => {
                metadata = match any {
                    AnyValue::Str(text) => match json_of_text(text) {
                        Ok(Value::Object(object)) => Some(object),
                        Ok(other) => {
                            diags.push(Diagnostic::error("metadata-not-object", format!("{key}: JSON {} where an object is expected; kept as text, no docId, title or breadcrumb read from it", json_type(&other)), key.clone()));
                            c.extra
                                .insert("metadata".into(), Value::String(text.to_string()));
                            None
                        }
                        Err(err) => {
                            diags.push(Diagnostic::error("metadata-not-json", format!("{key}: not JSON ({err}); kept as text, no docId, title or breadcrumb read from it"), key.clone()));
                            c.extra
                                .insert("metadata".into(), Value::String(text.to_string()));
                            None
                        }
                    },
                    AnyValue::Kvlist(entries) => Some(kvlist_to_json(entries)),
                    other => {
                        wrong(diags, &key, "a JSON object as text", other);
                        None
                    }
                };
            }
            _ => {
                c.extra.insert(field.into_owned(), value.to_json());
            }
        }
    }
    if let Some(metadata) = metadata {
        c.doc_id = DOC_ID_KEYS
            .iter()
            .find_map(|name| match metadata.get(*name)? {
                Value::String(s) => Some(Arc::from(s.as_str())),
                Value::Number(n) if n.is_u64() || n.is_i64() => Some(Arc::from(n.to_string())),
                _ => None,
            });
        let text = |name: &str| metadata.get(name).and_then(Value::as_str).map(Arc::from);
        c.title = text("title");
        c.breadcrumb = text("breadcrumb");
        c.extra.insert("metadata".into(), Value::Object(metadata));
    }
    c.rank = Some(match index.checked_add(1) {
        Some(rank) => RawRank::Int(rank),
        None => RawRank::Invalid(Arc::from(index.to_string())),
    });
    Document {
        index,
        id: c.evidence_key.clone(),
        has_score,
        candidate: c,
    }
}

/// A document's score: a double or an integer; text (`"0.83"`) is not a number here.
fn score(key: &str, any: &AnyValue, diags: &mut Vec<Diagnostic>) -> Option<f64> {
    match any {
        &AnyValue::Double {
            value,
            written_as_text,
        } => {
            if written_as_text && !value.is_finite() {
                diags.push(Diagnostic::warning("non-finite-score", format!("{key}: {value} (written as text, as protobuf's JSON writes a non-finite double): not finite, quality 0"), key));
            }
            Some(value)
        }
        &AnyValue::Int(i) => Some(i as f64),
        AnyValue::Str(text) => {
            diags.push(Diagnostic::error(
                "score-not-number",
                format!("{key}: the score is text ({text:?}), not a number; treated as absent"),
                key,
            ));
            None
        }
        other => {
            wrong(diags, key, "a number", other);
            None
        }
    }
}

fn wrong(diags: &mut Vec<Diagnostic>, key: &str, expected: &str, found: &AnyValue) {
    let found = match found {
        AnyValue::Bad(why) => why.clone(),
        other => other.type_name().to_owned(),
    };
    diags.push(Diagnostic::error(
        "wrong-type",
        format!("{key}: expected {expected}, got {found}; treated as absent"),
        key,
    ));
}

/// The candidates of `documents`, in index order.
pub(super) fn items(documents: Vec<Document>) -> (Vec<u64>, Vec<Item<RawCandidate>>) {
    documents
        .into_iter()
        .map(|d| (d.index, Item::Object(d.candidate)))
        .unzip()
}
