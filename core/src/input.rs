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

use crate::config::{Key, Settings, ValueError};
use crate::diagnostic::{pointer_token, Diagnostic, InputError};
use crate::label::{canonical_label, is_legacy_alias, CanonicalLabel};
use crate::legacy::{legacy_positions, LegacySummary};
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::sync::Arc;

/// Which shape a trace came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum TraceKind {
    RerankTrace,
    LookupResult,
}

/// A candidate's `originalRank` after the fallbacks of section 1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rank {
    /// A JSON integer >= 1.
    Given(u64),
    /// Absent: the 1-based position in the array.
    Position(u64),
    /// Present but not a JSON integer >= 1; holds the value as written (`2.5`, `"2"`, `true`).
    Invalid(Arc<str>),
}

impl Rank {
    /// The effective rank; `None` for an invalid one.
    pub fn value(&self) -> Option<u64> {
        match self {
            Rank::Given(r) | Rank::Position(r) => Some(*r),
            Rank::Invalid(_) => None,
        }
    }
}

/// One hit, with its fields as read and the config-independent facts derived from them.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// 0-based position in the trace's `candidates` (or `evidence`) array.
    pub input_index: usize,
    /// Effective evidenceKey (section 1 fallbacks applied).
    pub evidence_key: Arc<str>,
    /// Effective docId (falls back to the evidenceKey).
    pub doc_id: Arc<str>,
    pub chunk_index: Option<i64>,
    pub breadcrumb: Option<Arc<str>>,
    pub title: Option<Arc<str>>,
    pub source_type: Option<Arc<str>>,
    /// The full, untruncated excerpt (`excerpt`, else `content`, else `text`).
    pub excerpt: Option<Arc<str>>,
    /// Length of `excerpt` in Unicode scalar values.
    pub excerpt_chars: usize,
    pub rank: Rank,
    pub score: Option<f64>,
    /// The candidate's own `scoreLabel` as written.
    pub score_label: Option<Arc<str>>,
    /// From the own label, else the trace `mode`; `None` = unknown.
    pub canonical_label: Option<CanonicalLabel>,
    /// The own `scoreLabel` is a legacy alias (`l2_distance`, `rrf_fused`, `bm25_only*`).
    pub legacy_alias: bool,
    pub raw_score: Option<f64>,
    pub dense_distance: Option<f64>,
    pub base_score: Option<f64>,
    pub final_score: Option<f64>,
    pub boost_reasons: Option<Arc<[String]>>,
    pub hit_reasons: Option<Arc<[String]>>,
    /// Unknown fields, kept to be shown; `None` when there are none.
    pub extra: Option<Arc<Map<String, Value>>>,
    /// Dense index of `doc_id` within the trace, for the per-document cap.
    pub doc_slot: usize,
    /// `originalRank` of the first candidate in sorted order with the same evidenceKey.
    pub duplicate_of_rank: Option<u64>,
    /// Section 5; `None` unless the trace has at least two candidates with a finalScore.
    pub legacy_position: Option<usize>,
    pub displacement: Option<i64>,
}

/// One retrieval request, ready to analyse under any configuration.
#[derive(Debug, Clone)]
pub struct Trace {
    pub kind: TraceKind,
    /// The document it came from (file name, `stdin`, `pasted text`).
    pub source: Arc<str>,
    /// 1-based line in a JSON Lines document.
    pub line: Option<usize>,
    /// JSON pointer of the trace object within its document (see module docs).
    pub pointer: String,
    /// 1-based position in the batch, counting traces that failed to parse.
    pub position: usize,
    pub request_id: Option<Arc<str>>,
    pub case_id: Option<Arc<str>>,
    pub query: Option<Arc<str>>,
    /// The `query` of the outer LookupResult when an embedded trace was analysed.
    pub lookup_query: Option<Arc<str>>,
    /// `mode` as written.
    pub mode: Option<Arc<str>>,
    pub category_filter: Option<Arc<str>>,
    /// The trace's own `options` (only keys that were valid).
    pub options: Settings,
    /// The first invalid value in `options` (e.g. `returnN: 0`): the trace then uses
    /// defaults plus the user's settings.
    pub options_error: Option<crate::config::ConfigError>,
    pub recorded_relevance_level: Option<Arc<str>>,
    pub recorded_top_similarity: Option<f64>,
    pub recorded_low_quality: Option<bool>,
    /// Every analysis's blocks borrow these, so a recompute copies no candidate data.
    pub candidates: Vec<Candidate>,
    /// Effective evidenceKeys of a LookupResult's `evidence` when an embedded trace was analysed.
    pub recorded_evidence: Option<Vec<Arc<str>>>,
    /// `n` is the length of a LookupResult's capped evidence list, not the service's batch size.
    pub n_approximated: bool,
    /// Findings made while reading, with absolute JSON pointers.
    pub diagnostics: Vec<Diagnostic>,
    pub extra: Map<String, Value>,
    /// Section 7: own `mode` when it canonicalises, else the label all valid candidates share.
    pub canonical_mode: Option<CanonicalLabel>,
    /// Section 3.1, keyed by trimmed lowercased label.
    pub legacy_labels: Arc<BTreeMap<String, usize>>,
    /// Candidate indices in the order of section 3.3: valid sorted, then invalid in input order.
    pub order: Vec<usize>,
    /// Number of distinct docIds.
    pub doc_count: usize,
    pub legacy: Option<LegacySummary>,
    /// What a recompute reads of each candidate, in `order`: one contiguous array of
    /// small `Copy` entries, so the per-settings loop reads neither the candidates
    /// (about 350 bytes each) nor `order` for rank, docId slot, duplicate, label and
    /// scores. Derived from `candidates` and `order` at parse time; crate-private so only
    /// this module fills it, and the analysis rebuilds it when a caller has changed
    /// `order` since (see [`hot_of`]).
    pub(crate) hot: Vec<Hot>,
}

/// The per-candidate facts a recompute needs (see [`Trace::hot`]), 48 bytes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Hot {
    /// Index into the trace's `candidates`.
    pub(crate) index: usize,
    /// Dense index of the docId within the trace.
    pub(crate) doc_slot: usize,
    /// The effective rank; 0 for an invalid one (a valid rank is >= 1).
    pub(crate) rank: u64,
    /// `score`, NaN when absent: quality treats absent and non-finite alike.
    pub(crate) score: f64,
    /// `denseDistance`, NaN when absent (likewise).
    pub(crate) dense_distance: f64,
    pub(crate) label: Option<CanonicalLabel>,
    /// Not the first candidate in order with its evidenceKey.
    pub(crate) duplicate: bool,
}

impl Hot {
    /// The entry of candidate `index` of its trace.
    pub(crate) fn of(index: usize, c: &Candidate) -> Hot {
        Hot {
            index,
            doc_slot: c.doc_slot,
            rank: c.rank.value().unwrap_or(0),
            score: c.score.unwrap_or(f64::NAN),
            dense_distance: c.dense_distance.unwrap_or(f64::NAN),
            label: c.canonical_label,
            duplicate: c.duplicate_of_rank.is_some(),
        }
    }

    /// The effective rank; `None` for an invalid one.
    pub(crate) fn rank(&self) -> Option<u64> {
        (self.rank != 0).then_some(self.rank)
    }

    /// `score` when finite (what the quality formula uses).
    pub(crate) fn score(&self) -> Option<f64> {
        Some(self.score).filter(|s| s.is_finite())
    }

    /// `denseDistance` when finite (what the quality formula uses).
    pub(crate) fn dense_distance(&self) -> Option<f64> {
        Some(self.dense_distance).filter(|d| d.is_finite())
    }
}

/// The hot entries of `candidates` in `order`; indices out of range are skipped, as the
/// walk over `order` skips them.
pub(crate) fn hot_of(candidates: &[Candidate], order: &[usize]) -> Vec<Hot> {
    order
        .iter()
        .filter_map(|&index| Some(Hot::of(index, candidates.get(index)?)))
        .collect()
}

/// What one document contributed.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DocumentSummary {
    pub source: String,
    pub traces: usize,
    pub candidates: usize,
    pub errors: usize,
}

/// Traces from one or more documents: what the analysis runs on.
#[derive(Debug, Clone, Default)]
pub struct ParsedBatch {
    /// Shared with every analysis of the batch, which reads them instead of copying.
    pub traces: Vec<Arc<Trace>>,
    pub documents: Vec<DocumentSummary>,
    /// Documents or traces that could not be read at all.
    pub errors: Vec<InputError>,
    /// Trace positions handed out so far (analysed and failed).
    pub slots: usize,
}

impl ParsedBatch {
    /// Appends another batch (the next file): its traces' positions continue this batch's.
    pub fn extend(&mut self, other: ParsedBatch) {
        let offset = self.slots;
        self.traces
            .extend(other.traces.into_iter().map(|mut trace| {
                // Freshly parsed traces are not shared yet, so this copies nothing.
                Arc::make_mut(&mut trace).position += offset;
                trace
            }));
        self.documents.extend(other.documents);
        self.errors.extend(other.errors);
        self.slots += other.slots;
    }

    /// Several batches as one, in order.
    pub fn concat(batches: impl IntoIterator<Item = ParsedBatch>) -> ParsedBatch {
        let mut all = ParsedBatch::default();
        for batch in batches {
            all.extend(batch);
        }
        all
    }

    pub fn candidate_count(&self) -> usize {
        self.traces.iter().map(|t| t.candidates.len()).sum()
    }
}

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
    let mut builder = Builder::new(source);
    if text.trim().is_empty() {
        builder.fail(None, None, None, "the document is empty".into(), None);
    } else if looks_like_json_lines(text) {
        parse_json_lines(&mut builder, text);
    } else {
        let mut de = serde_json::Deserializer::from_str(text);
        let parsed = TopSeed { nested: false }
            .deserialize(&mut de)
            .and_then(|top| de.end().map(|()| top));
        match parsed {
            Ok(top) => builder.top(top, "", None),
            Err(err) => builder.json_error(&err, text, 0),
        }
    }
    builder.finish()
}

/// Reads an already-parsed JSON value (the JS API passes objects).
pub fn parse_value(source: &str, value: &Value) -> ParsedBatch {
    let mut builder = Builder::new(source);
    match (TopSeed { nested: false }).deserialize(value) {
        Ok(top) => builder.top(top, "", None),
        // Our visitors accept every JSON value, so this is unreachable in practice.
        Err(err) => builder.fail(None, None, None, err.to_string(), None),
    }
    builder.finish()
}

/// JSON Lines when the first non-empty line is a complete `{...}` and another non-empty line follows.
/// A pretty-printed document's first line is `{` or `[` alone, so it is not mistaken for one.
fn looks_like_json_lines(text: &str) -> bool {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    match (lines.next(), lines.next()) {
        (Some(first), Some(_)) => first.starts_with('{') && first.ends_with('}'),
        _ => false,
    }
}

fn parse_json_lines(builder: &mut Builder, text: &str) {
    for (index, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let mut de = serde_json::Deserializer::from_str(line);
        let parsed = TopSeed { nested: true }
            .deserialize(&mut de)
            .and_then(|top| de.end().map(|()| top));
        match parsed {
            Ok(top) => builder.top(top, &format!("/{index}"), Some((index + 1, line))),
            Err(err) => builder.json_error(&err, line, index),
        }
    }
}

// ---------------------------------------------------------------------------
// Loose values: any JSON value, classified, so a wrong type never aborts parsing.

#[derive(Debug)]
enum Scalar {
    Null,
    Bool(bool),
    U64(u64),
    I64(i64),
    F64(f64),
    Str(Arc<str>),
    Array,
    Object,
}

impl Scalar {
    fn type_name(&self) -> &'static str {
        match self {
            Scalar::Null => "null",
            Scalar::Bool(_) => "boolean",
            Scalar::U64(_) | Scalar::I64(_) | Scalar::F64(_) => "number",
            Scalar::Str(_) => "string",
            Scalar::Array => "array",
            Scalar::Object => "object",
        }
    }
}

struct ScalarSeed;

impl<'de> DeserializeSeed<'de> for ScalarSeed {
    type Value = Scalar;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Scalar, D::Error> {
        d.deserialize_any(ScalarVisitor)
    }
}

struct ScalarVisitor;

impl<'de> Visitor<'de> for ScalarVisitor {
    type Value = Scalar;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Scalar, E> {
        Ok(Scalar::Bool(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Scalar, E> {
        Ok(Scalar::U64(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Scalar, E> {
        Ok(Scalar::I64(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Scalar, E> {
        Ok(Scalar::F64(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Scalar, E> {
        Ok(Scalar::Str(Arc::from(v)))
    }
    fn visit_unit<E>(self) -> Result<Scalar, E> {
        Ok(Scalar::Null)
    }
    fn visit_none<E>(self) -> Result<Scalar, E> {
        Ok(Scalar::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Scalar, D::Error> {
        d.deserialize_any(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Scalar, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Scalar::Array)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Scalar, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Scalar::Object)
    }
}

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

/// A map key matched against a table of known names (both spellings).
enum KeyOf<K> {
    Known(K, &'static str),
    Other(String),
}

struct KeySeed<K>(fn(&str) -> Option<(K, &'static str)>);

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

/// Collects diagnostics with paths relative to the object being read.
#[derive(Default)]
struct Diags(Vec<Diagnostic>);

impl Diags {
    fn wrong_type(&mut self, field: &str, expected: &str, found: &str) {
        self.0.push(Diagnostic::error(
            "wrong-type",
            format!("{field}: expected {expected}, got {found}; treated as absent"),
            format!("/{}", pointer_token(field)),
        ));
    }
}

fn take_str(value: Scalar, field: &str, diags: &mut Diags) -> Option<Arc<str>> {
    match value {
        Scalar::Str(s) => Some(s),
        Scalar::Null => None,
        other => {
            diags.wrong_type(field, "a string", other.type_name());
            None
        }
    }
}

/// `evidenceKey` and `docId`: a string, or an integer used as its decimal text.
fn take_id(value: Scalar, field: &str, diags: &mut Diags) -> Option<Arc<str>> {
    match value {
        Scalar::Str(s) => Some(s),
        Scalar::U64(v) => Some(Arc::from(v.to_string())),
        Scalar::I64(v) => Some(Arc::from(v.to_string())),
        Scalar::Null => None,
        other => {
            diags.wrong_type(field, "a string or an integer", other.type_name());
            None
        }
    }
}

fn take_number(value: Scalar, field: &str, diags: &mut Diags) -> Option<f64> {
    match value {
        Scalar::U64(v) => Some(v as f64),
        Scalar::I64(v) => Some(v as f64),
        Scalar::F64(v) => Some(v),
        Scalar::Null => None,
        other => {
            diags.wrong_type(field, "a number", other.type_name());
            None
        }
    }
}

fn take_integer(value: Scalar, field: &str, diags: &mut Diags) -> Option<i64> {
    match value {
        Scalar::U64(v) => match i64::try_from(v) {
            Ok(v) => Some(v),
            Err(_) => {
                diags.wrong_type(field, "an integer", "an integer out of range");
                None
            }
        },
        Scalar::I64(v) => Some(v),
        Scalar::Null => None,
        Scalar::F64(v) => {
            diags.wrong_type(field, "an integer", &format!("{v:?}"));
            None
        }
        other => {
            diags.wrong_type(field, "an integer", other.type_name());
            None
        }
    }
}

fn take_bool(value: Scalar, field: &str, diags: &mut Diags) -> Option<bool> {
    match value {
        Scalar::Bool(b) => Some(b),
        Scalar::Null => None,
        other => {
            diags.wrong_type(field, "a boolean", other.type_name());
            None
        }
    }
}

/// A list of strings; a non-string element is reported and skipped.
enum StrList {
    List(Vec<String>, Vec<(usize, &'static str)>),
    Wrong(&'static str),
    Null,
}

struct StrListSeed;

impl<'de> DeserializeSeed<'de> for StrListSeed {
    type Value = StrList;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<StrList, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for StrListSeed {
    type Value = StrList;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of strings")
    }
    other_values!(|t| if t == "null" {
        StrList::Null
    } else {
        StrList::Wrong(t)
    });
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<StrList, A::Error> {
        let mut items = Vec::new();
        let mut bad = Vec::new();
        let mut index = 0;
        while let Some(item) = seq.next_element_seed(ScalarSeed)? {
            match item {
                Scalar::Str(s) => items.push(s.to_string()),
                other => bad.push((index, other.type_name())),
            }
            index += 1;
        }
        Ok(StrList::List(items, bad))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<StrList, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(StrList::Wrong("object"))
    }
}

fn take_str_list(value: StrList, field: &str, diags: &mut Diags) -> Option<Arc<[String]>> {
    match value {
        StrList::List(items, bad) => {
            for (index, found) in bad {
                diags.0.push(Diagnostic::error(
                    "wrong-type",
                    format!("{field}[{index}]: expected a string, got {found}; skipped"),
                    format!("/{}/{index}", pointer_token(field)),
                ));
            }
            Some(Arc::from(items))
        }
        StrList::Wrong(found) => {
            diags.wrong_type(field, "a list of strings", found);
            None
        }
        StrList::Null => None,
    }
}

// ---------------------------------------------------------------------------
// Candidates.

#[derive(Clone, Copy)]
enum CandKey {
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

fn candidate_key(name: &str) -> Option<(CandKey, &'static str)> {
    use CandKey::*;
    Some(match name {
        "evidenceKey" => (EvidenceKey, "evidenceKey"),
        "evidence_key" => (EvidenceKey, "evidence_key"),
        "docId" => (DocId, "docId"),
        "doc_id" => (DocId, "doc_id"),
        "chunkIndex" => (ChunkIndex, "chunkIndex"),
        "chunk_index" => (ChunkIndex, "chunk_index"),
        "breadcrumb" => (Breadcrumb, "breadcrumb"),
        "title" => (Title, "title"),
        "sourceType" => (SourceType, "sourceType"),
        "source_type" => (SourceType, "source_type"),
        "excerpt" => (Excerpt(0), "excerpt"),
        "content" => (Excerpt(1), "content"),
        "text" => (Excerpt(2), "text"),
        "originalRank" => (OriginalRank, "originalRank"),
        "original_rank" => (OriginalRank, "original_rank"),
        "score" => (Score, "score"),
        "scoreLabel" => (ScoreLabel, "scoreLabel"),
        "score_label" => (ScoreLabel, "score_label"),
        "rawScore" => (RawScore, "rawScore"),
        "raw_score" => (RawScore, "raw_score"),
        "denseDistance" => (DenseDistance, "denseDistance"),
        "dense_distance" => (DenseDistance, "dense_distance"),
        "baseScore" => (BaseScore, "baseScore"),
        "base_score" => (BaseScore, "base_score"),
        "finalScore" => (FinalScore, "finalScore"),
        "final_score" => (FinalScore, "final_score"),
        "boostReasons" => (BoostReasons, "boostReasons"),
        "boost_reasons" => (BoostReasons, "boost_reasons"),
        "hitReasons" => (HitReasons, "hitReasons"),
        "hit_reasons" => (HitReasons, "hit_reasons"),
        _ => return None,
    })
}

enum RawRank {
    Absent,
    Int(u64),
    Invalid(Arc<str>),
}

#[derive(Default)]
struct RawCandidate {
    evidence_key: Option<Arc<str>>,
    doc_id: Option<Arc<str>>,
    chunk_index: Option<i64>,
    breadcrumb: Option<Arc<str>>,
    title: Option<Arc<str>>,
    source_type: Option<Arc<str>>,
    excerpt: Option<(u8, Arc<str>)>,
    rank: Option<RawRank>,
    score: Option<f64>,
    score_label: Option<Arc<str>>,
    raw_score: Option<f64>,
    dense_distance: Option<f64>,
    base_score: Option<f64>,
    final_score: Option<f64>,
    boost_reasons: Option<Arc<[String]>>,
    hit_reasons: Option<Arc<[String]>>,
    extra: Map<String, Value>,
    diags: Diags,
}

enum Item<T> {
    Object(T),
    NotObject(&'static str),
}

#[derive(Clone, Copy)]
struct CandidateVisitor;

impl<'de> DeserializeSeed<'de> for CandidateVisitor {
    type Value = Item<RawCandidate>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

fn rank_of(value: Scalar) -> RawRank {
    match value {
        Scalar::Null => RawRank::Absent,
        Scalar::U64(v) if v >= 1 => RawRank::Int(v),
        Scalar::I64(v) if v >= 1 => RawRank::Int(v as u64),
        Scalar::U64(v) => RawRank::Invalid(Arc::from(v.to_string())),
        Scalar::I64(v) => RawRank::Invalid(Arc::from(v.to_string())),
        Scalar::F64(v) => RawRank::Invalid(Arc::from(format!("{v:?}"))),
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
                    let value: Value = map.next_value()?;
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
enum ListField<T> {
    Absent,
    Wrong(&'static str),
    List(Vec<Item<T>>),
}

/// An array field whose elements are read by `element` (candidates, or traces in a
/// wrapper); `null` is absent and any other JSON type is reported by name.
#[derive(Clone, Copy)]
struct ListSeed<S> {
    element: S,
    expecting: &'static str,
}

const CANDIDATE_LIST: ListSeed<CandidateVisitor> = ListSeed {
    element: CandidateVisitor,
    expecting: "an array of candidates",
};

const TRACE_LIST: ListSeed<ObjectSeed> = ListSeed {
    element: ObjectSeed { nested: true },
    expecting: "an array of traces",
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

// ---------------------------------------------------------------------------
// Trace-level objects (a RerankTrace, a LookupResult or a `{"traces": [...]}` wrapper).

#[derive(Clone, Copy)]
enum TraceKey {
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

fn trace_key(name: &str) -> Option<(TraceKey, &'static str)> {
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
struct RawObject {
    kind: Option<Arc<str>>,
    request_id: Option<Arc<str>>,
    case_id: Option<Arc<str>>,
    query: Option<Arc<str>>,
    mode: Option<Arc<str>>,
    category_filter: Option<Arc<str>>,
    options: Option<(Value, &'static str)>,
    candidates: Option<(ListField<RawCandidate>, &'static str)>,
    evidence: Option<(ListField<RawCandidate>, &'static str)>,
    /// An embedded trace (`None` inside a nested object, where `trace` is just an unknown field).
    trace: Option<(Item<Box<RawObject>>, &'static str)>,
    traces: Option<(ListField<RawObject>, &'static str)>,
    relevance_level: Option<Arc<str>>,
    top_similarity: Option<f64>,
    low_quality: Option<bool>,
    extra: Map<String, Value>,
    diags: Diags,
}

/// `nested`: inside a wrapper or an embedded trace, `trace` / `traces` are ordinary unknown fields.
#[derive(Clone, Copy)]
struct ObjectSeed {
    nested: bool,
}

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
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut o = RawObject::default();
        while let Some(key) = map.next_key_seed(KeySeed(trace_key))? {
            let (key, name) = match key {
                KeyOf::Known(TraceKey::Trace | TraceKey::Traces, name) if self.nested => {
                    let value: Value = map.next_value()?;
                    o.extra.insert(name.to_owned(), value);
                    continue;
                }
                KeyOf::Known(key, name) => (key, name),
                KeyOf::Other(name) => {
                    let value: Value = map.next_value()?;
                    o.extra.insert(name, value);
                    continue;
                }
            };
            let d = &mut o.diags;
            match key {
                TraceKey::Options => {
                    let value: Value = map.next_value()?;
                    o.options = Some((value, name));
                }
                TraceKey::Candidates => {
                    o.candidates = Some((map.next_value_seed(CANDIDATE_LIST)?, name))
                }
                TraceKey::Evidence => {
                    o.evidence = Some((map.next_value_seed(CANDIDATE_LIST)?, name))
                }
                TraceKey::Trace => {
                    let item = match map.next_value_seed(ObjectSeed { nested: true })? {
                        Item::Object(inner) => Item::Object(Box::new(inner)),
                        Item::NotObject(t) => Item::NotObject(t),
                    };
                    o.trace = Some((item, name));
                }
                TraceKey::Traces => o.traces = Some((map.next_value_seed(TRACE_LIST)?, name)),
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
        Ok(Item::Object(o))
    }
}

/// A whole document (or one JSON Lines line).
enum Top {
    Object(Box<RawObject>),
    Array(Vec<Item<RawObject>>),
    Other(&'static str),
}

struct TopSeed {
    nested: bool,
}

impl<'de> DeserializeSeed<'de> for TopSeed {
    type Value = Top;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Top, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for TopSeed {
    type Value = Top;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a trace object or an array of traces")
    }
    other_values!(Top::Other);
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Top, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(ObjectSeed { nested: true })? {
            items.push(item);
        }
        Ok(Top::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Top, A::Error> {
        let _ = self.nested;
        match (ObjectSeed { nested: false }).visit_map(map)? {
            Item::Object(o) => Ok(Top::Object(Box::new(o))),
            Item::NotObject(t) => Ok(Top::Other(t)),
        }
    }
}

// ---------------------------------------------------------------------------
// From raw objects to traces.

struct Builder {
    source: Arc<str>,
    traces: Vec<Arc<Trace>>,
    errors: Vec<InputError>,
    slots: usize,
}

/// Where an object sits: its pointer, and its JSON Lines line (number, text).
#[derive(Clone, Copy)]
struct Place<'a> {
    pointer: &'a str,
    line: Option<(usize, &'a str)>,
}

impl Builder {
    fn new(source: &str) -> Self {
        Builder {
            source: Arc::from(source),
            traces: Vec::new(),
            errors: Vec::new(),
            slots: 0,
        }
    }

    fn fail(
        &mut self,
        line: Option<usize>,
        column: Option<usize>,
        path: Option<String>,
        message: String,
        line_text: Option<&str>,
    ) {
        self.errors.push(InputError::at(
            &self.source,
            line,
            column,
            path,
            message,
            line_text,
        ));
    }

    /// A syntax error in `text`, which starts after `line_offset` lines of the document.
    fn json_error(&mut self, err: &serde_json::Error, text: &str, line_offset: usize) {
        self.slots += 1;
        self.errors.push(InputError::json_syntax(
            &self.source,
            text,
            err,
            line_offset,
        ));
    }

    fn top(&mut self, top: Top, pointer: &str, line: Option<(usize, &str)>) {
        match top {
            Top::Array(items) => self.items(items, pointer, line),
            Top::Object(o) if is_wrapper(&o) => {
                let Some((ListField::List(items), name)) = o.traces else {
                    return;
                };
                let prefix = format!("{pointer}/{name}");
                self.items(items, &prefix, line);
            }
            Top::Object(o) => {
                let place = Place { pointer, line };
                self.object(*o, place);
            }
            Top::Other(found) => {
                self.slots += 1;
                self.fail(
                    line.map(|l| l.0),
                    None,
                    Some(pointer.to_owned()).filter(|p| !p.is_empty()),
                    format!("expected a trace object, an array of traces or {{\"traces\": [...]}}, got {found}"),
                    line.map(|l| l.1),
                );
            }
        }
    }

    fn items(&mut self, items: Vec<Item<RawObject>>, prefix: &str, line: Option<(usize, &str)>) {
        for (index, item) in items.into_iter().enumerate() {
            let pointer = format!("{prefix}/{index}");
            match item {
                Item::Object(o) => self.object(
                    o,
                    Place {
                        pointer: &pointer,
                        line,
                    },
                ),
                Item::NotObject(found) => {
                    self.slots += 1;
                    self.fail(
                        line.map(|l| l.0),
                        None,
                        Some(pointer),
                        format!("a trace must be an object, got {found}"),
                        None,
                    );
                }
            }
        }
    }

    fn object(&mut self, o: RawObject, place: Place) {
        self.slots += 1;
        let position = self.slots;
        match build_trace(o, place, position, &self.source) {
            Ok(trace) => self.traces.push(Arc::new(trace)),
            Err(message) => self.fail(
                place.line.map(|l| l.0),
                None,
                Some(place.pointer.to_owned()).filter(|p| !p.is_empty()),
                message,
                place.line.map(|l| l.1),
            ),
        }
    }

    fn finish(self) -> ParsedBatch {
        let summary = DocumentSummary {
            source: self.source.to_string(),
            traces: self.traces.len(),
            candidates: self.traces.iter().map(|t| t.candidates.len()).sum(),
            errors: self.errors.len(),
        };
        ParsedBatch {
            traces: self.traces,
            documents: vec![summary],
            errors: self.errors,
            slots: self.slots,
        }
    }
}

fn has_list<T>(field: &Option<(ListField<T>, &'static str)>) -> bool {
    matches!(field, Some((ListField::List(_), _)))
}

/// `{"traces": [...]}`: a `traces` array, no explicit kind, nothing that makes it a trace.
fn is_wrapper(o: &RawObject) -> bool {
    o.kind.is_none()
        && has_list(&o.traces)
        && o.candidates.is_none()
        && o.evidence.is_none()
        && o.trace.is_none()
}

fn kind_of(o: &mut RawObject) -> Result<TraceKind, String> {
    let explicit = match o.kind.as_deref().map(str::trim) {
        Some("RerankTrace") => Some(TraceKind::RerankTrace),
        Some("LookupResult") => Some(TraceKind::LookupResult),
        Some(other) => {
            o.diags.0.push(Diagnostic::warning(
                "unknown-kind",
                format!(
                    "kind {other:?} is neither RerankTrace nor LookupResult; recognised by shape"
                ),
                "/kind",
            ));
            None
        }
        None => None,
    };
    let embedded = matches!(o.trace, Some((Item::Object(_), _)));
    match explicit {
        Some(kind) => Ok(kind),
        None if has_list(&o.candidates) => Ok(TraceKind::RerankTrace),
        None if has_list(&o.evidence) || embedded => Ok(TraceKind::LookupResult),
        None if matches!(o.evidence, Some((ListField::Wrong(_), _))) => {
            Err(missing_list_message(o, "evidence"))
        }
        None => Err(missing_list_message(o, "candidates")),
    }
}

fn missing_list_message(o: &RawObject, wanted: &str) -> String {
    let field = if wanted == "candidates" {
        &o.candidates
    } else {
        &o.evidence
    };
    match field {
        Some((ListField::Wrong(found), name)) => {
            format!("the trace's {name} must be an array, got {found}")
        }
        _ => format!("the trace has no {wanted} array (a RerankTrace needs candidates, a LookupResult evidence)"),
    }
}

fn prefix_diags(diags: Diags, prefix: &str, out: &mut Vec<Diagnostic>) {
    out.extend(diags.0.into_iter().map(|mut diag| {
        diag.path = diag.path.map(|p| format!("{prefix}{p}"));
        diag
    }));
}

fn build_trace(
    mut o: RawObject,
    place: Place,
    position: usize,
    source: &Arc<str>,
) -> Result<Trace, String> {
    let kind = kind_of(&mut o)?;
    let mut diagnostics = Vec::new();
    if kind == TraceKind::RerankTrace {
        let Some((ListField::List(items), list_name)) = o.candidates.take() else {
            return Err(missing_list_message(&o, "candidates"));
        };
        let mut trace = base_trace(o, kind, place, position, source);
        let prefix = format!("{}/{list_name}", place.pointer);
        let candidates = finish_candidates(items, &prefix, &trace, &mut diagnostics);
        diagnostics.extend(std::mem::take(&mut trace.diagnostics));
        trace.diagnostics = diagnostics;
        derive(&mut trace, candidates);
        return Ok(trace);
    }

    // A LookupResult: analyse the embedded trace when there is one, else the evidence.
    let outer_prefix = place.pointer;
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
                        missing_list_message(&inner, "candidates")
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
        Some((mut inner, name)) => {
            let inner_pointer = format!("{outer_prefix}/{name}");
            let Some((ListField::List(items), list_name)) = inner.candidates.take() else {
                return Err(missing_list_message(&inner, "candidates"));
            };
            inner.relevance_level = inner.relevance_level.or(o.relevance_level.take());
            inner.low_quality = inner.low_quality.or(o.low_quality.take());
            let outer_diags = std::mem::take(&mut o.diags);
            prefix_diags(outer_diags, outer_prefix, &mut diagnostics);
            let inner_place = Place {
                pointer: &inner_pointer,
                line: place.line,
            };
            let mut trace = base_trace(*inner, kind, inner_place, position, source);
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
            diagnostics.extend(std::mem::take(&mut trace.diagnostics));
            trace.diagnostics = diagnostics;
            derive(&mut trace, candidates);
            Ok(trace)
        }
        None => {
            let Some((ListField::List(items), list_name)) = evidence else {
                o.evidence = evidence;
                return Err(missing_list_message(&o, "evidence"));
            };
            let mut trace = base_trace(o, kind, place, position, source);
            let prefix = format!("{outer_prefix}/{list_name}");
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
            diagnostics.extend(std::mem::take(&mut trace.diagnostics));
            trace.diagnostics = diagnostics;
            derive(&mut trace, candidates);
            Ok(trace)
        }
    }
}

/// The trace-level fields; candidates come after.
fn base_trace(
    mut o: RawObject,
    kind: TraceKind,
    place: Place,
    position: usize,
    source: &Arc<str>,
) -> Trace {
    let mut diagnostics = Vec::new();
    let (options, options_error) = match o.options.take() {
        Some((value, name)) => read_options(
            value,
            &format!("{}/{name}", place.pointer),
            &mut diagnostics,
        ),
        None => (Settings::default(), None),
    };
    prefix_diags(
        std::mem::take(&mut o.diags),
        place.pointer,
        &mut diagnostics,
    );
    Trace {
        kind,
        source: source.clone(),
        line: place.line.map(|l| l.0),
        pointer: place.pointer.to_owned(),
        position,
        request_id: o.request_id,
        case_id: o.case_id,
        query: o.query,
        lookup_query: None,
        mode: o.mode,
        category_filter: o.category_filter,
        options,
        options_error,
        recorded_relevance_level: o.relevance_level,
        recorded_top_similarity: o.top_similarity,
        recorded_low_quality: o.low_quality,
        candidates: Vec::new(),
        recorded_evidence: None,
        n_approximated: false,
        diagnostics,
        extra: o.extra,
        canonical_mode: None,
        legacy_labels: Arc::default(),
        order: Vec::new(),
        doc_count: 0,
        legacy: None,
        hot: Vec::new(),
    }
}

/// A trace's `options`: wrong JSON types are dropped with a diagnostic; an invalid value
/// (`returnN: 0`) makes the whole options block unusable (contract section 2).
fn read_options(
    value: Value,
    pointer: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> (Settings, Option<crate::config::ConfigError>) {
    let mut settings = Settings::default();
    let mut error = None;
    let object = match value {
        Value::Object(object) => object,
        Value::Null => return (settings, None),
        other => {
            let found = match other {
                Value::Bool(_) => "boolean",
                Value::Number(_) => "number",
                Value::String(_) => "string",
                _ => "array",
            };
            diagnostics.push(Diagnostic::error(
                "wrong-type",
                format!("options: expected an object, got {found}; treated as absent"),
                pointer,
            ));
            return (settings, None);
        }
    };
    for (name, value) in &object {
        if value.is_null() {
            continue;
        }
        // Unknown option keys belong to the service, not to us: ignored without noise.
        let Some(key) = Key::parse(name).filter(|k| *k != Key::UseTraceOptions) else {
            continue;
        };
        let path = format!("{pointer}/{}", pointer_token(name));
        match settings.set_json(key, value) {
            Ok(()) => {}
            Err(ValueError::WrongType(found)) => diagnostics.push(Diagnostic::error(
                "wrong-type",
                format!("options.{name}: got {found}, the wrong type; treated as absent"),
                path,
            )),
            Err(ValueError::Invalid(message)) => {
                if error.is_none() {
                    error = Some(crate::config::ConfigError {
                        key: Some(key.name().to_owned()),
                        message: message.clone(),
                    });
                }
                diagnostics.push(Diagnostic::error(
                    "invalid-options",
                    format!("options.{name} {message}; this trace is computed with defaults plus the user's settings"),
                    path,
                ));
            }
        }
    }
    (settings, error)
}

fn finish_candidates(
    items: Vec<Item<RawCandidate>>,
    prefix: &str,
    trace: &Trace,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Candidate> {
    let mode_label = trace.mode.as_deref().and_then(canonical_label);
    let mut out = Vec::with_capacity(items.len());
    for (index, item) in items.into_iter().enumerate() {
        let raw = match item {
            Item::Object(raw) => raw,
            Item::NotObject(found) => {
                diagnostics.push(Diagnostic::error(
                    "candidate-not-object",
                    format!("a candidate must be an object, got {found}; skipped"),
                    format!("{prefix}/{index}"),
                ));
                continue;
            }
        };
        let path = format!("{prefix}/{index}");
        let RawCandidate {
            evidence_key,
            doc_id,
            chunk_index,
            breadcrumb,
            title,
            source_type,
            excerpt,
            rank,
            score,
            score_label,
            raw_score,
            dense_distance,
            base_score,
            final_score,
            boost_reasons,
            hit_reasons,
            extra,
            diags,
        } = raw;
        prefix_diags(diags, &path, diagnostics);
        let rank = match rank.unwrap_or(RawRank::Absent) {
            RawRank::Int(r) => Rank::Given(r),
            RawRank::Invalid(text) => Rank::Invalid(text),
            RawRank::Absent => {
                diagnostics.push(Diagnostic::warning(
                    "missing-rank",
                    format!(
                        "no originalRank: its position in the array ({}) is used",
                        index + 1
                    ),
                    path.clone(),
                ));
                Rank::Position(index as u64 + 1)
            }
        };
        let evidence_key = match (evidence_key, &doc_id, chunk_index) {
            (Some(key), _, _) => key,
            (None, Some(doc), Some(chunk)) => Arc::from(format!("{doc}#{chunk}")),
            (None, _, _) => match &rank {
                Rank::Given(r) | Rank::Position(r) => Arc::from(format!("rank-{r}")),
                Rank::Invalid(text) => Arc::from(format!("rank-{text}")),
            },
        };
        let doc_id = doc_id.unwrap_or_else(|| evidence_key.clone());
        let (canonical, legacy_alias) = match &score_label {
            Some(label) => (canonical_label(label), is_legacy_alias(label)),
            None => (mode_label, false),
        };
        if canonical.is_none() {
            let message = match (&score_label, &trace.mode) {
                (Some(label), _) => format!("unknown scoreLabel {label:?}: quality 0"),
                (None, Some(mode)) => {
                    format!("no scoreLabel and the trace mode {mode:?} is not dense or hybrid: quality 0")
                }
                (None, None) => "no scoreLabel and no trace mode: quality 0".to_owned(),
            };
            diagnostics.push(Diagnostic::error("unknown-label", message, path.clone()));
        }
        if canonical == Some(CanonicalLabel::Dense) && score.is_some_and(|d| d < 0.0) {
            diagnostics.push(Diagnostic::warning(
                "negative-distance",
                "negative L2 distance treated as 0",
                format!("{path}/score"),
            ));
        }
        if dense_distance.is_some_and(|d| d < 0.0) {
            diagnostics.push(Diagnostic::warning(
                "negative-distance",
                "negative denseDistance treated as 0",
                format!("{path}/denseDistance"),
            ));
        }
        let (excerpt, excerpt_chars) = match excerpt {
            Some((_, text)) => {
                let chars = text.chars().count();
                (Some(text), chars)
            }
            None => (None, 0),
        };
        out.push(Candidate {
            input_index: index,
            evidence_key,
            doc_id,
            chunk_index,
            breadcrumb,
            title,
            source_type,
            excerpt,
            excerpt_chars,
            rank,
            score,
            score_label,
            canonical_label: canonical,
            legacy_alias,
            raw_score,
            dense_distance,
            base_score,
            final_score,
            boost_reasons,
            hit_reasons,
            extra: if extra.is_empty() {
                None
            } else {
                Some(Arc::new(extra))
            },
            doc_slot: 0,
            duplicate_of_rank: None,
            legacy_position: None,
            displacement: None,
        });
    }
    out
}

/// Everything about a trace that no setting changes: order, duplicates, doc slots,
/// legacy comparison, legacy label counts and the trace's canonical mode.
fn derive(trace: &mut Trace, mut candidates: Vec<Candidate>) {
    let mut valid: Vec<usize> = Vec::with_capacity(candidates.len());
    let mut invalid: Vec<usize> = Vec::new();
    for (i, c) in candidates.iter().enumerate() {
        if c.rank.value().is_some() {
            valid.push(i);
        } else {
            invalid.push(i);
        }
    }
    valid.sort_by(|&a, &b| {
        let (ca, cb) = (&candidates[a], &candidates[b]);
        ca.rank
            .value()
            .cmp(&cb.rank.value())
            .then_with(|| ca.evidence_key.as_bytes().cmp(cb.evidence_key.as_bytes()))
            .then_with(|| a.cmp(&b))
    });

    let mut seen: HashMap<Arc<str>, u64> = HashMap::with_capacity(valid.len());
    for &i in &valid {
        let c = &mut candidates[i];
        let rank = c.rank.value().unwrap_or(0);
        match seen.get(&c.evidence_key) {
            Some(&first) => c.duplicate_of_rank = Some(first),
            None => {
                seen.insert(c.evidence_key.clone(), rank);
            }
        }
    }

    let mut docs: HashMap<Arc<str>, usize> = HashMap::with_capacity(candidates.len());
    for c in candidates.iter_mut() {
        let next = docs.len();
        c.doc_slot = *docs.entry(c.doc_id.clone()).or_insert(next);
    }
    trace.doc_count = docs.len();

    let final_scores: Vec<Option<f64>> = valid.iter().map(|&i| candidates[i].final_score).collect();
    trace.legacy = legacy_positions(&final_scores).map(|cmp| {
        for (&i, place) in valid.iter().zip(&cmp.places) {
            if let (Some(c), Some(place)) = (candidates.get_mut(i), place) {
                c.legacy_position = Some(place.position);
                c.displacement = Some(place.displacement);
            }
        }
        cmp.summary
    });

    let mut legacy_labels = BTreeMap::new();
    for c in candidates.iter() {
        if c.legacy_alias {
            if let Some(label) = &c.score_label {
                *legacy_labels
                    .entry(label.trim().to_lowercase())
                    .or_insert(0usize) += 1;
            }
        }
    }
    trace.legacy_labels = Arc::new(legacy_labels);

    trace.canonical_mode = trace.mode.as_deref().and_then(canonical_label).or_else(|| {
        let mut shared = None;
        for &i in &valid {
            if let Some(label) = candidates[i].canonical_label {
                match shared {
                    None => shared = Some(label),
                    Some(s) if s != label => return None,
                    Some(_) => {}
                }
            }
        }
        shared
    });

    valid.extend(invalid);
    trace.order = valid;
    trace.candidates = candidates;
    trace.hot = hot_of(&trace.candidates, &trace.order);
}
