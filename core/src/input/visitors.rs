//! The serde visitors of the one typed pass, and the key tables they match field
//! names against (both spellings): candidates, trace-level objects, whole documents.

use super::scalar::{
    next_kept, take_bool, take_id, take_integer, take_number, take_str, take_str_list, Diags,
    Scalar, ScalarSeed, StrListSeed,
};
use crate::diagnostic::Diagnostic;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::fmt;
use std::sync::Arc;

/// A map key matched against a table of known names (both spellings).
pub(super) enum KeyOf<K> {
    Known(K, &'static str),
    Other(String),
}

pub(super) struct KeySeed<K>(fn(&str) -> Option<(K, &'static str)>);

impl<'de, K> DeserializeSeed<'de> for KeySeed<K> {
    type Value = KeyOf<K>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<KeyOf<K>, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de, K> Visitor<'de> for KeySeed<K> {
    type Value = KeyOf<K>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a field name")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<KeyOf<K>, E> {
        Ok(match (self.0)(v) {
            Some((key, spelled)) => KeyOf::Known(key, spelled),
            None => KeyOf::Other(v.to_owned()),
        })
    }
}

// Candidates.

#[derive(Clone, Copy)]
pub(super) enum CandKey {
    EvidenceKey,
    DocId,
    ChunkIndex,
    Breadcrumb,
    Title,
    SourceType,
    /// `excerpt` (0), `content` (1), `text` (2): the lowest wins.
    Excerpt(u8),
    OriginalRank,
    Score,
    ScoreLabel,
    RawScore,
    DenseDistance,
    BaseScore,
    FinalScore,
    BoostReasons,
    HitReasons,
}

/// Every candidate field the reader knows, in both spellings.
const CANDIDATE_KEYS: &[(&str, CandKey)] = {
    use CandKey::*;
    &[
        ("evidenceKey", EvidenceKey),
        ("evidence_key", EvidenceKey),
        ("docId", DocId),
        ("doc_id", DocId),
        ("chunkIndex", ChunkIndex),
        ("chunk_index", ChunkIndex),
        ("breadcrumb", Breadcrumb),
        ("title", Title),
        ("sourceType", SourceType),
        ("source_type", SourceType),
        ("excerpt", Excerpt(0)),
        ("content", Excerpt(1)),
        ("text", Excerpt(2)),
        ("originalRank", OriginalRank),
        ("original_rank", OriginalRank),
        ("score", Score),
        ("scoreLabel", ScoreLabel),
        ("score_label", ScoreLabel),
        ("rawScore", RawScore),
        ("raw_score", RawScore),
        ("denseDistance", DenseDistance),
        ("dense_distance", DenseDistance),
        ("baseScore", BaseScore),
        ("base_score", BaseScore),
        ("finalScore", FinalScore),
        ("final_score", FinalScore),
        ("boostReasons", BoostReasons),
        ("boost_reasons", BoostReasons),
        ("hitReasons", HitReasons),
        ("hit_reasons", HitReasons),
    ]
};

pub(super) fn candidate_key(name: &str) -> Option<(CandKey, &'static str)> {
    known_key(CANDIDATE_KEYS, name)
}

/// The entry of `table` spelled `name`. The length and the first byte rule out
/// almost every entry before any bytes are compared: comparing the name with each
/// spelling in turn took a seventh of a JSON Lines parse.
fn known_key<K: Copy>(table: &[(&'static str, K)], name: &str) -> Option<(K, &'static str)> {
    let first = name.as_bytes().first();
    table
        .iter()
        .find(|(known, _)| {
            known.len() == name.len() && known.as_bytes().first() == first && *known == name
        })
        .map(|&(known, key)| (key, known))
}

pub(super) enum RawRank {
    Absent,
    Int(u64),
    Invalid(Arc<str>),
}

#[derive(Default)]
pub(super) struct RawCandidate {
    pub(super) evidence_key: Option<Arc<str>>,
    pub(super) doc_id: Option<Arc<str>>,
    pub(super) chunk_index: Option<i64>,
    pub(super) breadcrumb: Option<Arc<str>>,
    pub(super) title: Option<Arc<str>>,
    pub(super) source_type: Option<Arc<str>>,
    pub(super) excerpt: Option<(u8, Arc<str>)>,
    pub(super) rank: Option<RawRank>,
    pub(super) score: Option<f64>,
    pub(super) score_label: Option<Arc<str>>,
    pub(super) raw_score: Option<f64>,
    pub(super) dense_distance: Option<f64>,
    pub(super) base_score: Option<f64>,
    pub(super) final_score: Option<f64>,
    pub(super) boost_reasons: Option<Arc<[String]>>,
    pub(super) hit_reasons: Option<Arc<[String]>>,
    pub(super) extra: Map<String, Value>,
    pub(super) diags: Diags,
}

pub(super) enum Item<T> {
    Object(T),
    NotObject(&'static str),
}

#[derive(Clone, Copy)]
pub(super) struct CandidateVisitor;

impl<'de> DeserializeSeed<'de> for CandidateVisitor {
    type Value = Item<RawCandidate>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

pub(super) fn rank_of(value: Scalar) -> RawRank {
    match value {
        Scalar::Null => RawRank::Absent,
        Scalar::U64(v) if v >= 1 => RawRank::Int(v),
        Scalar::I64(v) if v >= 1 => RawRank::Int(v as u64),
        Scalar::U64(v) => RawRank::Invalid(Arc::from(v.to_string())),
        Scalar::I64(v) => RawRank::Invalid(Arc::from(v.to_string())),
        Scalar::F64(v) => RawRank::Invalid(Arc::from(format!("{v:?}"))),
        Scalar::OutOfRange(literal) => RawRank::Invalid(literal),
        Scalar::Str(s) => RawRank::Invalid(Arc::from(format!("{s:?}"))),
        Scalar::Bool(b) => RawRank::Invalid(Arc::from(b.to_string())),
        Scalar::Array => RawRank::Invalid(Arc::from("[...]")),
        Scalar::Object => RawRank::Invalid(Arc::from("{...}")),
    }
}

impl<'de> Visitor<'de> for CandidateVisitor {
    type Value = Item<RawCandidate>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a candidate object")
    }
    other_values!(Item::NotObject);
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Item::NotObject("array"))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut c = RawCandidate::default();
        while let Some(key) = map.next_key_seed(KeySeed(candidate_key))? {
            let (key, name) = match key {
                KeyOf::Known(key, name) => (key, name),
                KeyOf::Other(name) => {
                    let (value, cut) = next_kept(&mut map)?;
                    if cut {
                        c.diags.cut_deep(&name);
                    }
                    c.extra.insert(name, value);
                    continue;
                }
            };
            let d = &mut c.diags;
            match key {
                CandKey::BoostReasons => {
                    c.boost_reasons = take_str_list(map.next_value_seed(StrListSeed)?, name, d)
                }
                CandKey::HitReasons => {
                    c.hit_reasons = take_str_list(map.next_value_seed(StrListSeed)?, name, d)
                }
                _ => {
                    let value = map.next_value_seed(ScalarSeed)?;
                    match key {
                        CandKey::EvidenceKey => c.evidence_key = take_id(value, name, d),
                        CandKey::DocId => c.doc_id = take_id(value, name, d),
                        CandKey::ChunkIndex => c.chunk_index = take_integer(value, name, d),
                        CandKey::Breadcrumb => c.breadcrumb = take_str(value, name, d),
                        CandKey::Title => c.title = take_str(value, name, d),
                        CandKey::SourceType => c.source_type = take_str(value, name, d),
                        CandKey::Excerpt(priority) => {
                            if let Some(text) = take_str(value, name, d) {
                                if c.excerpt.as_ref().is_none_or(|(p, _)| *p >= priority) {
                                    c.excerpt = Some((priority, text));
                                }
                            }
                        }
                        CandKey::OriginalRank => {
                            let rank = rank_of(value);
                            if let RawRank::Invalid(text) = &rank {
                                d.0.push(Diagnostic::error(
                                    "invalid-rank",
                                    format!(
                                        "{name} is {text}, not an integer >= 1: the candidate is invalid"
                                    ),
                                    format!("/{name}"),
                                ));
                            }
                            c.rank = Some(rank);
                        }
                        CandKey::Score => c.score = take_number(value, name, d),
                        CandKey::ScoreLabel => c.score_label = take_str(value, name, d),
                        CandKey::RawScore => c.raw_score = take_number(value, name, d),
                        CandKey::DenseDistance => c.dense_distance = take_number(value, name, d),
                        CandKey::BaseScore => c.base_score = take_number(value, name, d),
                        CandKey::FinalScore => c.final_score = take_number(value, name, d),
                        CandKey::BoostReasons | CandKey::HitReasons => {}
                    }
                }
            }
        }
        Ok(Item::Object(c))
    }
}

/// A `candidates` / `evidence` field.
pub(super) enum ListField<T> {
    Absent,
    Wrong(&'static str),
    List(Vec<Item<T>>),
}

/// An array field whose elements are read by `element` (candidates, or traces in a
/// wrapper); `null` is absent and any other JSON type is reported by name.
#[derive(Clone, Copy)]
pub(super) struct ListSeed<S> {
    pub(super) element: S,
    pub(super) expecting: &'static str,
}

pub(super) const CANDIDATE_LIST: ListSeed<CandidateVisitor> = ListSeed {
    element: CandidateVisitor,
    expecting: "an array of candidates",
};

impl<'de, T, S> DeserializeSeed<'de> for ListSeed<S>
where
    S: DeserializeSeed<'de, Value = Item<T>> + Copy,
{
    type Value = ListField<T>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, T, S> Visitor<'de> for ListSeed<S>
where
    S: DeserializeSeed<'de, Value = Item<T>> + Copy,
{
    type Value = ListField<T>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.expecting)
    }
    other_values!(|t| if t == "null" {
        ListField::Absent
    } else {
        ListField::Wrong(t)
    });
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        // Bounded: a size hint comes from the input and must not reserve unbounded memory.
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(8).min(4096));
        while let Some(item) = seq.next_element_seed(self.element)? {
            items.push(item);
        }
        Ok(ListField::List(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(ListField::Wrong("object"))
    }
}

// Trace-level objects (a RerankTrace, a LookupResult or a `{"traces": [...]}` wrapper).

#[derive(Clone, Copy)]
pub(super) enum TraceKey {
    Kind,
    RequestId,
    CaseId,
    Query,
    Mode,
    CategoryFilter,
    Options,
    Candidates,
    Evidence,
    Trace,
    Traces,
    RelevanceLevel,
    TopSimilarity,
    LowQuality,
}

pub(super) fn trace_key(name: &str) -> Option<(TraceKey, &'static str)> {
    use TraceKey::*;
    Some(match name {
        "kind" => (Kind, "kind"),
        "requestId" => (RequestId, "requestId"),
        "request_id" => (RequestId, "request_id"),
        "caseId" => (CaseId, "caseId"),
        "case_id" => (CaseId, "case_id"),
        "query" => (Query, "query"),
        "mode" => (Mode, "mode"),
        "categoryFilter" => (CategoryFilter, "categoryFilter"),
        "category_filter" => (CategoryFilter, "category_filter"),
        "options" => (Options, "options"),
        "candidates" => (Candidates, "candidates"),
        "evidence" => (Evidence, "evidence"),
        "trace" => (Trace, "trace"),
        "traces" => (Traces, "traces"),
        "relevanceLevel" => (RelevanceLevel, "relevanceLevel"),
        "relevance_level" => (RelevanceLevel, "relevance_level"),
        "topSimilarity" => (TopSimilarity, "topSimilarity"),
        "top_similarity" => (TopSimilarity, "top_similarity"),
        "lowQuality" => (LowQuality, "lowQuality"),
        "low_quality" => (LowQuality, "low_quality"),
        _ => return None,
    })
}

#[derive(Default)]
pub(super) struct RawObject {
    pub(super) kind: Option<Arc<str>>,
    pub(super) request_id: Option<Arc<str>>,
    pub(super) case_id: Option<Arc<str>>,
    pub(super) query: Option<Arc<str>>,
    pub(super) mode: Option<Arc<str>>,
    pub(super) category_filter: Option<Arc<str>>,
    pub(super) options: Option<(Value, &'static str)>,
    pub(super) candidates: Option<(ListField<RawCandidate>, &'static str)>,
    pub(super) evidence: Option<(ListField<RawCandidate>, &'static str)>,
    /// An embedded trace (`None` inside a nested object, where `trace` is just an unknown field).
    pub(super) trace: Option<(Item<Box<RawObject>>, &'static str)>,
    /// A wrapper's `traces` (only on the document's own object), its elements already
    /// handed to the [`BatchSink`].
    pub(super) traces: Option<(BatchField, &'static str)>,
    pub(super) relevance_level: Option<Arc<str>>,
    pub(super) top_similarity: Option<f64>,
    pub(super) low_quality: Option<bool>,
    pub(super) extra: Map<String, Value>,
    pub(super) diags: Diags,
}

/// A trace-level object inside a batch or an embedded trace, where `trace` / `traces`
/// are ordinary unknown fields.
#[derive(Clone, Copy)]
pub(super) struct ObjectSeed;

impl<'de> DeserializeSeed<'de> for ObjectSeed {
    type Value = Item<RawObject>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ObjectSeed {
    type Value = Item<RawObject>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a trace object")
    }
    other_values!(Item::NotObject);
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Item::NotObject("array"))
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        object_fields(map, None).map(Item::Object)
    }
}

/// The fields of a trace-level object. `document`: the sink of the document's own
/// object, which alone reads `trace` (an embedded trace) and `traces` (a wrapper's
/// batch, handed to the sink element by element); without it both are unknown fields.
fn object_fields<'de, A: MapAccess<'de>>(
    mut map: A,
    mut document: Option<&mut dyn BatchSink>,
) -> Result<RawObject, A::Error> {
    let mut o = RawObject::default();
    while let Some(key) = map.next_key_seed(KeySeed(trace_key))? {
        let (key, name) = match key {
            KeyOf::Known(TraceKey::Trace | TraceKey::Traces, name) if document.is_none() => {
                let (value, cut) = next_kept(&mut map)?;
                if cut {
                    o.diags.cut_deep(name);
                }
                o.extra.insert(name.to_owned(), value);
                continue;
            }
            KeyOf::Known(key, name) => (key, name),
            KeyOf::Other(name) => {
                let (value, cut) = next_kept(&mut map)?;
                if cut {
                    o.diags.cut_deep(&name);
                }
                o.extra.insert(name, value);
                continue;
            }
        };
        let d = &mut o.diags;
        match key {
            TraceKey::Options => {
                let (value, cut) = next_kept(&mut map)?;
                if cut {
                    d.cut_deep(name);
                }
                o.options = Some((value, name));
            }
            TraceKey::Candidates => {
                o.candidates = Some((map.next_value_seed(CANDIDATE_LIST)?, name))
            }
            TraceKey::Evidence => o.evidence = Some((map.next_value_seed(CANDIDATE_LIST)?, name)),
            TraceKey::Trace => {
                let item = match map.next_value_seed(ObjectSeed)? {
                    Item::Object(inner) => Item::Object(Box::new(inner)),
                    Item::NotObject(t) => Item::NotObject(t),
                };
                o.trace = Some((item, name));
            }
            TraceKey::Traces => {
                let Some(sink) = document.as_deref_mut() else {
                    continue;
                };
                // A repeated field: the last one counts, as for every field, so the
                // elements of an earlier one are undone.
                if o.traces.is_some() {
                    sink.forget_batch();
                }
                let field = map.next_value_seed(BatchSeed {
                    sink,
                    field: Some(name),
                })?;
                o.traces = Some((field, name));
            }
            _ => {
                let value = map.next_value_seed(ScalarSeed)?;
                match key {
                    TraceKey::Kind => o.kind = take_str(value, name, d),
                    TraceKey::RequestId => o.request_id = take_id(value, name, d),
                    TraceKey::CaseId => o.case_id = take_id(value, name, d),
                    TraceKey::Query => o.query = take_str(value, name, d),
                    TraceKey::Mode => o.mode = take_str(value, name, d),
                    TraceKey::CategoryFilter => o.category_filter = take_str(value, name, d),
                    TraceKey::RelevanceLevel => o.relevance_level = take_str(value, name, d),
                    TraceKey::TopSimilarity => o.top_similarity = take_number(value, name, d),
                    TraceKey::LowQuality => o.low_quality = take_bool(value, name, d),
                    _ => {}
                }
            }
        }
    }
    Ok(o)
}

// Batches: a document that is an array of traces, or a wrapper's `traces`.

/// Where the elements of a batch go as they are read: each is made a trace or an
/// input error, and dropped, before the next is read, so a batch of millions of
/// elements never holds them all at once (held, they took ~384 bytes each).
pub(super) trait BatchSink {
    /// Element `index` of the batch; `field` names the wrapper's field holding it,
    /// `None` when the document itself is the array.
    fn element(&mut self, field: Option<&'static str>, index: usize, item: Item<RawObject>);
    /// Undoes every element handed over since the batch began: what looked like a
    /// wrapper's batch can turn out not to be one (or not to be JSON).
    fn forget_batch(&mut self);
}

/// A wrapper's `traces` field: an array, its elements handed to the [`BatchSink`], or
/// any other JSON value (`null` included), which makes no wrapper.
pub(super) enum BatchField {
    NotArray,
    Read,
}

/// Reads a batch array, handing each element to `sink` as it is read.
struct BatchSeed<'s> {
    sink: &'s mut dyn BatchSink,
    field: Option<&'static str>,
}

impl<'de> DeserializeSeed<'de> for BatchSeed<'_> {
    type Value = BatchField;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for BatchSeed<'_> {
    type Value = BatchField;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an array of traces")
    }
    other_values!(|_| BatchField::NotArray);
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut index = 0;
        while let Some(item) = seq.next_element_seed(ObjectSeed)? {
            self.sink.element(self.field, index, item);
            index += 1;
        }
        Ok(BatchField::Read)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(BatchField::NotArray)
    }
}

/// A whole document (or one JSON Lines line).
pub(super) enum Top {
    Object(Box<RawObject>),
    /// An array of traces, its elements handed to the [`BatchSink`].
    Array,
    Other(&'static str),
}

/// A whole document, whose batch (the document as an array, or a wrapper's
/// `traces`) goes to `sink` element by element.
pub(super) struct TopSeed<'s> {
    pub(super) sink: &'s mut dyn BatchSink,
}

impl<'de> DeserializeSeed<'de> for TopSeed<'_> {
    type Value = Top;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Top, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for TopSeed<'_> {
    type Value = Top;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a trace object or an array of traces")
    }
    other_values!(Top::Other);
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Top, A::Error> {
        BatchSeed {
            sink: self.sink,
            field: None,
        }
        .visit_seq(seq)?;
        Ok(Top::Array)
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Top, A::Error> {
        object_fields(map, Some(self.sink)).map(|o| Top::Object(Box::new(o)))
    }
}
