//! The model every later stage reads: traces, candidates and the batch they form.

use crate::config::{ConfigError, Settings};
use crate::diagnostic::{Diagnostic, InputError};
use crate::input_errors::{keep_all, OmittedInputErrors};
use crate::label::CanonicalLabel;
use crate::legacy::LegacySummary;
use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Which shape a trace came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
    /// A reranker span's output document: its position among the reranker's input
    /// documents (see [`Candidate::input_rank`]); four bytes, in what was padding.
    pub(crate) input_rank: InputRank,
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

impl Candidate {
    /// A reranker span's output document: its 1-based position among the reranker's
    /// input documents (`Some(None)` when it is not among them, or past 2^32 - 2);
    /// `None` for every other candidate, which shows no `inputRank`.
    pub fn input_rank(&self) -> Option<Option<u64>> {
        self.input_rank.get()
    }
}

/// [`Candidate::input_rank`] in four bytes: 0 for a candidate that is no reranker's
/// output, `u32::MAX` for one not among the input documents, else the rank.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct InputRank(u32);

impl InputRank {
    /// A reranker's output document at `rank` among the inputs (`None`: not among them).
    pub(crate) fn of(rank: Option<u64>) -> InputRank {
        InputRank(
            rank.and_then(|r| u32::try_from(r).ok())
                .filter(|&r| r != 0 && r != u32::MAX)
                .unwrap_or(u32::MAX),
        )
    }

    pub(crate) fn get(self) -> Option<Option<u64>> {
        match self.0 {
            0 => None,
            u32::MAX => Some(None),
            rank => Some(Some(u64::from(rank))),
        }
    }
}

/// One retrieval request, ready to analyse under any configuration.
///
/// The candidates and everything derived from them (their order, the docId count and
/// the per-candidate entries a recompute reads) are read-only outside parsing, so the
/// derived parts always agree with the candidates:
///
/// ```compile_fail,E0616
/// let batch = ragtrace_core::parse_document("t", r#"{"candidates":[{"score":1}]}"#);
/// let mut trace = ragtrace_core::Trace::clone(&batch.traces[0]);
/// trace.order = vec![];
/// ```
///
/// ```
/// let batch = ragtrace_core::parse_document("t", r#"{"candidates":[{"score":1}]}"#);
/// let trace = ragtrace_core::Trace::clone(&batch.traces[0]);
/// assert_eq!(trace.order(), [0]);
/// ```
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
    pub options_error: Option<ConfigError>,
    pub recorded_relevance_level: Option<Arc<str>>,
    pub recorded_top_similarity: Option<f64>,
    pub recorded_low_quality: Option<bool>,
    /// Every analysis's blocks borrow these, so a recompute copies no candidate data.
    pub(in crate::input) candidates: Vec<Candidate>,
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
    pub(in crate::input) order: Vec<usize>,
    /// Number of distinct docIds.
    pub(in crate::input) doc_count: usize,
    pub legacy: Option<LegacySummary>,
    /// What a recompute reads of each candidate, in `order`: one contiguous array of
    /// small `Copy` entries, so the per-settings loop reads neither the candidates
    /// (about 350 bytes each) nor `order` for rank, docId slot, duplicate, label and
    /// scores. Derived from `candidates` and `order` at parse time, which no one can
    /// change afterwards.
    pub(in crate::input) hot: Vec<Hot>,
    /// The [`NameHashes`] of each candidate, parallel to `candidates`: a run comparison
    /// matches the two sides' documents by these numbers, on every knob change, instead
    /// of reading (and hashing) the candidates' strings again. Shared: a pairing keeps
    /// them beside its links.
    pub(in crate::input) name_hashes: Arc<[NameHashes]>,
}

impl Trace {
    /// The candidates as read, in input order.
    pub fn candidates(&self) -> &[Candidate] {
        &self.candidates
    }

    /// Candidate indices in the order of section 3.3: valid sorted, then invalid in input order.
    pub fn order(&self) -> &[usize] {
        &self.order
    }

    /// Number of distinct docIds.
    pub fn doc_count(&self) -> usize {
        self.doc_count
    }

    /// What a recompute reads of each candidate, in [`Trace::order`].
    pub(crate) fn hot(&self) -> &[Hot] {
        &self.hot
    }

    /// The hashes of each candidate's docId and evidence key, parallel to
    /// [`Trace::candidates`].
    pub(crate) fn name_hashes(&self) -> &Arc<[NameHashes]> {
        &self.name_hashes
    }
}

/// 64-bit hashes of a candidate's docId and evidence key ([`name_hash`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct NameHashes {
    pub(crate) doc: u64,
    pub(crate) key: u64,
}

impl NameHashes {
    pub(crate) fn of(c: &Candidate) -> NameHashes {
        NameHashes {
            doc: name_hash(&c.doc_id),
            key: name_hash(&c.evidence_key),
        }
    }
}

/// SipHash-1-3 with fixed keys (std's `DefaultHasher::new()`): the same text gives the
/// same number in both runs of a comparison, and two different names of one pair share
/// a number with probability about 2^-64 per pair of names (docs/decisions.md). Other
/// maps of the page use it too, so it adds no hashing code there.
pub(crate) fn name_hash(text: &str) -> u64 {
    use std::hash::BuildHasher;
    std::hash::BuildHasherDefault::<std::hash::DefaultHasher>::default().hash_one(text)
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
    /// For a duplicate, the rank of the first candidate with its evidenceKey when it
    /// fits in 32 bits, else 0 (as for a candidate that is not a duplicate): what the
    /// duplicate's reason names, held here so that explaining a duplicate does not read
    /// its candidate (in a large batch a cache miss each). It fills the padding.
    first_of_key_rank: u32,
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
            first_of_key_rank: c
                .duplicate_of_rank
                .and_then(|rank| u32::try_from(rank).ok())
                .unwrap_or(0),
        }
    }

    /// For a duplicate, the rank of the first candidate with its evidenceKey, when it is
    /// held here; `None` otherwise (the candidate's `duplicate_of_rank` then tells).
    pub(crate) fn first_of_key_rank(&self) -> Option<u64> {
        (self.first_of_key_rank != 0).then_some(u64::from(self.first_of_key_rank))
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
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct DocumentSummary {
    pub source: String,
    pub traces: usize,
    pub candidates: usize,
    pub errors: usize,
    /// OTLP spans that are neither retrieval nor reranker spans, skipped (contract
    /// section 11); shown only when some were.
    #[serde(skip_serializing_if = "is_zero")]
    pub skipped_spans: usize,
}

fn is_zero(count: &usize) -> bool {
    *count == 0
}

/// Traces from one or more documents: what the analysis runs on.
#[derive(Debug, Clone, Default)]
pub struct ParsedBatch {
    /// Shared with every analysis of the batch, which reads them instead of copying.
    pub traces: Vec<Arc<Trace>>,
    pub documents: Vec<DocumentSummary>,
    /// Documents or traces that could not be read at all: the first
    /// [`INPUT_ERRORS_LISTED`](crate::INPUT_ERRORS_LISTED).
    pub errors: Vec<InputError>,
    /// Those after the listed ones, counted by code.
    pub errors_omitted: OmittedInputErrors,
    /// Trace positions handed out so far (analysed and failed).
    pub slots: usize,
}

impl ParsedBatch {
    /// Appends another batch (the next file): its traces' positions continue this batch's.
    pub fn extend(&mut self, mut other: ParsedBatch) {
        other.shift_positions(self.slots);
        self.traces.append(&mut other.traces);
        self.documents.extend(other.documents);
        keep_all(
            &mut self.errors,
            &mut self.errors_omitted,
            other.errors,
            other.errors_omitted,
        );
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

    /// Moves every trace's position on by `offset` (the slots of the batch before it).
    pub fn shift_positions(&mut self, offset: usize) {
        if offset == 0 {
            return;
        }
        for trace in &mut self.traces {
            // Freshly parsed traces are not shared yet, so this copies nothing.
            Arc::make_mut(trace).position += offset;
        }
    }

    pub fn candidate_count(&self) -> usize {
        self.traces.iter().map(|t| t.candidates.len()).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reranker_input_rank_takes_no_room_of_its_own() {
        // 352 bytes on 64-bit targets with or without it: it sits in the padding
        // beside the one-byte label and flag.
        if cfg!(target_pointer_width = "64") {
            assert_eq!(std::mem::size_of::<Candidate>(), 352);
        }
        assert_eq!(InputRank::default().get(), None);
        assert_eq!(InputRank::of(Some(4)).get(), Some(Some(4)));
        assert_eq!(InputRank::of(None).get(), Some(None));
        assert_eq!(InputRank::of(Some(1 << 40)).get(), Some(None));
    }
}
