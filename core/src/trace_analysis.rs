//! One trace under one configuration (contract sections 3 and 7): its blocks, outcome,
//! stages and findings, and the function that computes them.
//!
//! Field names mirror the output keys (snake_case here, camelCase in JSON);
//! absent values are `None` and serialise to `null`, never omitted.

use crate::config::{Config, HybridQuality, ScoreKind, Settings};
use crate::diagnostic::{Diagnostic, Severity};
use crate::input::{Candidate, Hot, Rank, Trace};
use crate::label::CanonicalLabel;
use crate::outcome::{filters, outcome_of, Level};
use crate::pipeline::{decide_hot, floor_of, Excerpt, Status, StatusReason};
use crate::quality::{dense_quality, quality, Quality, QualityBasis};
use crate::score_kind::{l2_distance, range_text};
use serde::ser::SerializeStruct;
use serde::Serialize;
use serde::Serializer;
use std::borrow::Cow;
use std::num::NonZeroUsize;
use std::ops::Deref;
use std::sync::Arc;

mod accepted;
mod incremental;

pub use accepted::AcceptedLists;
pub(crate) use incremental::{reanalyze_outcome, reanalyze_trace};

/// One trace under its effective configuration.
///
/// Holds only what the configuration decides; everything read from the input is in
/// the shared [`Trace`], so a recompute copies no strings and, per candidate, stores
/// one small `Decided` entry. [`Block`]s are views built when they are read.
/// Serialises with every key of section 7 (see [`TraceAnalysis::serialize`]).
#[derive(Debug, Clone)]
pub struct TraceAnalysis {
    /// The trace as read, shared with the parsed batch.
    pub trace: Arc<Trace>,
    /// Effective for this trace: defaults, its own options (if used), the user's settings.
    pub config: Config,
    pub relevance_level: Level,
    pub top_quality: Option<f64>,
    /// The score floor `max(minQuality, relativeQuality x qMax)` (contract section 10.2).
    pub floor: f64,
    pub low_quality: bool,
    pub retry_unfiltered: bool,
    /// The recorded level exists and differs from the recomputed one.
    pub level_differs: bool,
    pub low_quality_differs: bool,
    pub stages: Stages,
    /// Boxed: only LookupResults with an embedded trace have one, and every trace
    /// would otherwise carry its full size.
    pub evidence_comparison: Option<Box<EvidenceComparison>>,
    /// Hybrid rank quality put a rank-1 block first: top quality 1.0, the gate cannot fire.
    pub low_quality_gate_inert: bool,
    /// Whether the trace's own `options` took part in `config`.
    pub used_trace_options: bool,
    /// Why the trace's own options were set aside, when they were.
    options_diagnostic: Option<Box<Diagnostic>>,
    /// Some quality was computed from a distance (see [`Qualities`]).
    quality_reads_distance: bool,
    /// Scores read under `scoreKind`, and those out of its range (see [`Qualities`]).
    scores_read: u32,
    score_out_of_range: u32,
    /// The top quality as a function of `maxL2Distance` (see [`TopParts`]).
    top_parts: TopParts,
    /// One entry per candidate in section 3.3 order, invalid ones last. Shared with
    /// the analyses made from this one by a change that left the blocks' decisions as
    /// they were (a quality or a threshold), so sharing it means the same blocks. The
    /// blocks' qualities are not kept: a block's is computed again when the block is
    /// read (it comes with its explanation), so a change of qualities allocates nothing.
    decided: Arc<[Decided]>,
    /// What the later stages read of the trace, carried from analysis to analysis.
    facts: TraceFacts,
}

/// What the configuration and level stages read of a trace that no setting changes,
/// read once and carried along by each reanalysis: a knob move then reads the trace's
/// hot entries at most, not its fields and strings scattered over memory (in a large
/// batch each such read is a cache miss, and they were most of a threshold move).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct TraceFacts {
    /// The trace has readable options of its own.
    own_options: bool,
    /// Its recorded category filter filters anything.
    filtered: bool,
    recorded_level: RecordedLevel,
    recorded_low_quality: Option<bool>,
    /// See [`TraceAnalysis::mode`]: every reanalysis counts the trace by it.
    mode: Option<CanonicalLabel>,
    /// The trace has findings of its own reading: every reanalysis counts the
    /// findings, and most traces have none to read.
    diagnosed: bool,
    /// Which way its dense scores go along the rank (the batch's fit check).
    score_direction: Option<ScoreDirection>,
}

/// Which way a trace's dense scores go along the rank: from the first scored dense
/// candidate (valid rank, finite score) in the order of section 3.3 to the last.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ScoreDirection {
    /// The last score is larger than the first: what distances do.
    Rising,
    /// The last score is smaller: what similarities do.
    Falling,
}

impl ScoreDirection {
    /// `None` with fewer than two scored dense candidates, or when the first and the
    /// last score are equal.
    fn of(trace: &Trace) -> Option<ScoreDirection> {
        let mut scores = trace
            .hot()
            .iter()
            .filter(|h| h.label == Some(CanonicalLabel::Dense) && h.rank().is_some())
            .filter_map(Hot::score);
        let first = scores.next()?;
        let last = scores.next_back()?;
        if last > first {
            Some(ScoreDirection::Rising)
        } else if last < first {
            Some(ScoreDirection::Falling)
        } else {
            None
        }
    }
}

/// A trace's recorded `relevanceLevel`, as the level comparison reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RecordedLevel {
    Absent,
    /// The level it names (normalised as section 7's comparison does).
    Level(Level),
    /// It names no level, so it differs from every recomputed one.
    Other,
}

impl RecordedLevel {
    fn of(recorded: Option<&str>) -> Self {
        match recorded {
            None => RecordedLevel::Absent,
            Some(text) => {
                Level::parse_recorded(text).map_or(RecordedLevel::Other, RecordedLevel::Level)
            }
        }
    }
}

impl TraceFacts {
    fn of(trace: &Trace) -> Self {
        TraceFacts {
            own_options: trace.options_error.is_none() && !trace.options.is_empty(),
            filtered: filters(trace.category_filter.as_deref()),
            recorded_level: RecordedLevel::of(trace.recorded_relevance_level.as_deref()),
            recorded_low_quality: trace.recorded_low_quality,
            mode: trace.canonical_mode,
            diagnosed: !trace.diagnostics.is_empty(),
            score_direction: ScoreDirection::of(trace),
        }
    }

    /// The recorded level exists and differs from `level`.
    fn level_differs(&self, level: Level) -> bool {
        match self.recorded_level {
            RecordedLevel::Absent => false,
            RecordedLevel::Level(recorded) => recorded != level,
            RecordedLevel::Other => true,
        }
    }
}

/// What the configuration decided for one candidate (12 bytes on wasm32).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Decided {
    /// Index into the trace's `candidates`.
    index: usize,
    accepted_rank: Option<NonZeroUsize>,
    status: Status,
}

const GATE_INERT_MESSAGE: &str =
    "hybrid with rank quality: top quality is 1.0, the low-quality gate cannot fire";

/// One entry of a trace's diagnostics. The ones the configuration causes are kept as
/// flags and written out only when read, so a recompute allocates no message.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Finding<'a> {
    /// Made while reading, or about the trace's own options.
    Stored(&'a Diagnostic),
    GateInert,
    RecordedDiffers,
    EvidenceDiffers(&'a EvidenceComparison),
    /// A candidate's score (or `denseDistance`, when `dense_distance`) lay outside the
    /// range of the `scoreKind` it was read under.
    ScoreOutOfRange {
        candidate: &'a Candidate,
        dense_distance: bool,
    },
}

/// The codes of the findings the configuration causes, at their [`Finding::computed`] index.
pub(crate) const COMPUTED_CODES: [&str; 4] = [
    "low-quality-gate-inert",
    "recorded-differs",
    "evidence-differs",
    SCORE_OUT_OF_RANGE,
];

/// The code of [`Finding::ScoreOutOfRange`] (the contract's `scoreOutOfRange`, kebab-case as
/// every code).
pub(crate) const SCORE_OUT_OF_RANGE: &str = "score-out-of-range";

/// The code of the warning made while reading a negative distance: what `l2` does with a
/// score out of its range, so it is dropped under another kind (which checks its own).
const NEGATIVE_DISTANCE: &str = "negative-distance";

impl Finding<'_> {
    pub(crate) fn code(&self) -> &str {
        match self {
            Finding::Stored(d) => &d.code,
            Finding::GateInert => COMPUTED_CODES[0],
            Finding::RecordedDiffers => COMPUTED_CODES[1],
            Finding::EvidenceDiffers(_) => COMPUTED_CODES[2],
            Finding::ScoreOutOfRange { .. } => COMPUTED_CODES[3],
        }
    }

    /// For a finding the configuration causes, its index in [`COMPUTED_CODES`]: the
    /// batch's findings are counted by it, without comparing codes.
    pub(crate) fn computed(&self) -> Option<usize> {
        match self {
            Finding::Stored(_) => None,
            Finding::GateInert => Some(0),
            Finding::RecordedDiffers => Some(1),
            Finding::EvidenceDiffers(_) => Some(2),
            Finding::ScoreOutOfRange { .. } => Some(3),
        }
    }

    pub(crate) fn severity(&self) -> Severity {
        match self {
            Finding::Stored(d) => d.severity,
            _ => Severity::Warning,
        }
    }

    pub(crate) fn diagnostic(&self, t: &TraceAnalysis) -> Diagnostic {
        let warning =
            |message: String| Diagnostic::new(Severity::Warning, self.code(), message, None);
        match self {
            Finding::Stored(d) => (*d).clone(),
            Finding::GateInert => warning(GATE_INERT_MESSAGE.to_owned()),
            Finding::RecordedDiffers => warning(recorded_differs_message(
                t.trace.recorded_relevance_level.as_deref(),
                t.relevance_level,
                t.low_quality,
                t.level_differs,
                t.low_quality_differs,
            )),
            Finding::EvidenceDiffers(cmp) => warning(format!(
                "recorded evidence [{}] differs from the recomputed accepted blocks [{}]",
                cmp.recorded.join(", "),
                cmp.recomputed.join(", ")
            )),
            Finding::ScoreOutOfRange {
                candidate,
                dense_distance,
            } => {
                let kind = t.config.score_kind;
                let (field, value) = if *dense_distance {
                    ("denseDistance", candidate.dense_distance)
                } else {
                    ("score", candidate.score)
                };
                let value = value.unwrap_or(f64::NAN);
                let read = match l2_distance(kind, value).distance {
                    Some(_) => "clamped into it",
                    None => "quality 0",
                };
                Diagnostic::new(
                    Severity::Warning,
                    self.code(),
                    format!(
                        "candidate {} ({}): {field} {value} is outside the range {} of scoreKind {}; {read}",
                        candidate.input_index,
                        candidate.evidence_key,
                        range_text(kind),
                        kind.as_str()
                    ),
                    Some(t.trace.pointer.clone()),
                )
            }
        }
    }
}

impl TraceAnalysis {
    /// `requestId`, else `#<position in batch>`.
    pub fn name(&self) -> Cow<'_, str> {
        match self.trace.request_id.as_deref() {
            Some(id) => Cow::Borrowed(id),
            None => Cow::Owned(format!("#{}", self.trace.position)),
        }
    }

    /// The canonical mode (section 7): the trace's own, else the label its candidates share.
    pub fn mode(&self) -> Option<CanonicalLabel> {
        self.facts.mode
    }

    /// Every candidate in section 3.3 order, invalid ones last.
    pub fn blocks(&self) -> impl DoubleEndedIterator<Item = Block<'_>> + '_ {
        self.decided.iter().filter_map(|d| self.block_of(d))
    }

    /// The block at `at` in processing order.
    pub fn block(&self, at: usize) -> Option<Block<'_>> {
        self.decided.get(at).and_then(|d| self.block_of(d))
    }

    /// The accepted blocks in `acceptedRank` order (what an agent would see).
    pub fn accepted_blocks(&self) -> impl Iterator<Item = Block<'_>> + '_ {
        self.decided
            .iter()
            .filter(|d| d.status == Status::Accepted)
            .filter_map(|d| self.block_of(d))
    }

    /// The accepted blocks' candidates, in `acceptedRank` order, without building the
    /// blocks: what the golden evaluation reads of them.
    pub(crate) fn accepted_candidates(&self) -> impl Iterator<Item = &Candidate> + Clone + '_ {
        self.decided
            .iter()
            .filter(|d| d.status == Status::Accepted)
            .filter_map(|d| self.trace.candidates().get(d.index))
    }

    /// Each block's candidate and status, as [`TraceAnalysis::blocks`] yields them,
    /// without building the blocks (each computes its quality).
    pub(crate) fn decided_candidates(&self) -> impl Iterator<Item = (&Candidate, Status)> + '_ {
        self.decided
            .iter()
            .filter_map(|d| Some((self.trace.candidates().get(d.index)?, d.status)))
    }

    /// Each candidate's status in processing order: one per entry of the trace's
    /// [`Trace::hot`], in their order (the explanation reads the decisions made here
    /// rather than deciding again).
    pub(crate) fn statuses(&self) -> impl ExactSizeIterator<Item = Status> + '_ {
        self.decided.iter().map(|d| d.status)
    }

    /// `self.block(at)?.status_reason()`, without building the block.
    pub(crate) fn status_reason_at(&self, at: usize) -> Option<StatusReason> {
        let d = self.decided.get(at)?;
        let c = self.trace.candidates().get(d.index)?;
        // Only a reason below the floor names the quality, so only it computes one.
        let quality = if d.status == Status::BelowFloor {
            quality_of(
                &Hot::of(d.index, c),
                self.trace.candidates().len(),
                &self.config,
            )
            .score
        } else {
            0.0
        };
        Some(status_reason(
            c,
            d.status,
            d.accepted_rank.map(NonZeroUsize::get),
            self.config.max_chunks_per_document,
            self.config.return_n,
            quality,
            self.floor,
        ))
    }

    /// The indices (into the trace's candidates) of the accepted blocks' candidates, in
    /// `acceptedRank` order: what a run comparison reads of
    /// [`TraceAnalysis::accepted_blocks`], without building the blocks or reading the
    /// candidates.
    pub(crate) fn accepted_indices(&self) -> impl Iterator<Item = usize> + '_ {
        self.decided
            .iter()
            .filter(|d| d.status == Status::Accepted)
            .map(|d| d.index)
    }

    /// The trace's recorded level as read once (the batch counts read it per analysis).
    pub(crate) fn recorded_level(&self) -> RecordedLevel {
        self.facts.recorded_level
    }

    /// Whether `other` (an analysis of the same trace) decided the very same blocks as
    /// this one: true when one was made from the other by a change that reached only
    /// qualities or the level, so what is read of the accepted list can be reused.
    pub(crate) fn same_decisions(&self, other: &TraceAnalysis) -> bool {
        Arc::ptr_eq(&self.decided, &other.decided)
    }

    /// The trace's effective `returnN` (the golden evaluation's k).
    pub fn return_n(&self) -> usize {
        self.config.return_n
    }

    /// Findings made while reading, then those of this configuration.
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        self.findings().map(|f| f.diagnostic(self)).collect()
    }

    /// Every finding: [`TraceAnalysis::common_findings`], then the scores out of range.
    pub(crate) fn findings(&self) -> impl Iterator<Item = Finding<'_>> + '_ {
        let out_of_range = self
            .has_scores_out_of_range()
            .then(|| self.out_of_range_findings())
            .into_iter()
            .flatten();
        self.common_findings().chain(out_of_range)
    }

    /// Some score was out of its kind's range: [`TraceAnalysis::out_of_range_findings`]
    /// has findings. Apart so that counting a batch's findings (every reanalysis does)
    /// walks the short chain of the others and tests this once.
    pub(crate) fn has_scores_out_of_range(&self) -> bool {
        self.score_out_of_range > 0
    }

    /// The findings made while reading and those of this configuration, but the scores
    /// out of range.
    pub(crate) fn common_findings(&self) -> impl Iterator<Item = Finding<'_>> + '_ {
        let evidence_differs = self.evidence_comparison.as_deref().filter(|cmp| !cmp.same);
        let read: &[Diagnostic] = if self.facts.diagnosed {
            &self.trace.diagnostics
        } else {
            &[]
        };
        // Under another kind than `l2`, a negative score may be in range, and one out
        // of range is its kind's own finding.
        let l2 = self.config.score_kind == ScoreKind::L2;
        read.iter()
            .filter(move |d| l2 || d.code != NEGATIVE_DISTANCE)
            .chain(self.options_diagnostic.as_deref())
            .map(Finding::Stored)
            .chain(self.low_quality_gate_inert.then_some(Finding::GateInert))
            .chain(
                (self.level_differs || self.low_quality_differs)
                    .then_some(Finding::RecordedDiffers),
            )
            .chain(evidence_differs.map(Finding::EvidenceDiffers))
    }

    /// Which way the trace's dense scores go along the rank.
    pub(crate) fn score_direction(&self) -> Option<ScoreDirection> {
        self.facts.score_direction
    }

    /// The scores read under `scoreKind`, and how many of them were out of its range.
    pub(crate) fn scores_read(&self) -> (usize, usize) {
        (self.scores_read as usize, self.score_out_of_range as usize)
    }

    /// One finding per candidate whose score read under `scoreKind` lay outside the
    /// kind's range: the candidates the quality stage flagged, found again.
    pub(crate) fn out_of_range_findings(&self) -> impl Iterator<Item = Finding<'_>> + '_ {
        let kind = self.config.score_kind;
        let reads_dense_distance = self.config.hybrid_quality != HybridQuality::Rank;
        let out = move |value: Option<f64>| {
            value.is_some_and(|s| s.is_finite() && l2_distance(kind, s).out_of_range)
        };
        self.trace
            .candidates()
            .iter()
            .filter(|c| !matches!(c.rank, Rank::Invalid(_)))
            .filter_map(move |c| {
                let dense_distance = match c.canonical_label {
                    Some(CanonicalLabel::Dense) if out(c.score) => false,
                    Some(CanonicalLabel::Hybrid)
                        if reads_dense_distance && out(c.dense_distance) =>
                    {
                        true
                    }
                    _ => return None,
                };
                Some(Finding::ScoreOutOfRange {
                    candidate: c,
                    dense_distance,
                })
            })
    }

    fn block_of(&self, d: &Decided) -> Option<Block<'_>> {
        let candidate = self.trace.candidates().get(d.index)?;
        let hot = Hot::of(d.index, candidate);
        // The very computation the decision stage made under this configuration.
        let quality = quality_of(&hot, self.trace.candidates().len(), &self.config);
        Some(Block {
            candidate,
            original_rank: hot.rank(),
            quality_score: quality.score,
            distance: quality.distance(),
            status: d.status,
            accepted_rank: d.accepted_rank.map(NonZeroUsize::get),
            quality_explanation: quality.basis,
            floor: self.floor,
            excerpt_max_chars: self.config.excerpt_max_chars,
            max_chunks_per_document: self.config.max_chunks_per_document,
            return_n: self.config.return_n,
        })
    }
}

/// A sequence written from an iterator made on demand.
struct SerializeIter<F>(F);

impl<F, I> Serialize for SerializeIter<F>
where
    F: Fn() -> I,
    I: IntoIterator,
    I::Item: Serialize,
{
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq((self.0)())
    }
}

impl Serialize for TraceAnalysis {
    /// The keys of section 7 in the contract's order, then the extras the page and the
    /// golden evaluation read (docs/decisions.md).
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let t = &*self.trace;
        let mut s = serializer.serialize_struct("TraceAnalysis", 32)?;
        s.serialize_field("name", &self.name())?;
        s.serialize_field("kind", &t.kind)?;
        s.serialize_field("mode", &t.canonical_mode)?;
        s.serialize_field("requestId", &t.request_id)?;
        s.serialize_field("query", &t.query)?;
        s.serialize_field("config", &self.config)?;
        s.serialize_field("relevanceLevel", &self.relevance_level)?;
        s.serialize_field("recordedRelevanceLevel", &t.recorded_relevance_level)?;
        s.serialize_field("topQuality", &self.top_quality)?;
        s.serialize_field("floor", &self.floor)?;
        s.serialize_field("lowQuality", &self.low_quality)?;
        s.serialize_field("recordedLowQuality", &t.recorded_low_quality)?;
        s.serialize_field("retryUnfiltered", &self.retry_unfiltered)?;
        s.serialize_field("legacyLabels", &t.legacy_labels)?;
        s.serialize_field("blocks", &SerializeIter(|| self.blocks()))?;
        s.serialize_field("legacy", &t.legacy)?;
        s.serialize_field(
            "diagnostics",
            &SerializeIter(|| self.findings().map(|f| f.diagnostic(self))),
        )?;
        s.serialize_field("source", &t.source)?;
        s.serialize_field("line", &t.line)?;
        s.serialize_field("pointer", &t.pointer)?;
        s.serialize_field("position", &t.position)?;
        s.serialize_field("caseId", &t.case_id)?;
        s.serialize_field("categoryFilter", &t.category_filter)?;
        s.serialize_field("lookupQuery", &t.lookup_query)?;
        s.serialize_field("recordedTopSimilarity", &t.recorded_top_similarity)?;
        s.serialize_field("levelDiffers", &self.level_differs)?;
        s.serialize_field("lowQualityDiffers", &self.low_quality_differs)?;
        s.serialize_field("stages", &self.stages)?;
        s.serialize_field("evidenceComparison", &self.evidence_comparison)?;
        s.serialize_field("nApproximated", &t.n_approximated)?;
        s.serialize_field("lowQualityGateInert", &self.low_quality_gate_inert)?;
        s.serialize_field("usedTraceOptions", &self.used_trace_options)?;
        s.serialize_field("extra", &t.extra)?;
        s.end()
    }
}

/// One candidate after post-processing: a view over the parsed [`Candidate`] (which it
/// dereferences to, so `block.evidence_key`, `block.doc_id`, `block.excerpt` (the full
/// text) ... read like fields) and what the configuration decided for it.
/// Serialises with every key of section 7 (`excerpt` truncated) plus the extras listed
/// in docs/decisions.md.
#[derive(Debug, Clone, Copy)]
pub struct Block<'a> {
    pub candidate: &'a Candidate,
    /// Effective rank; `None` for an invalid one.
    pub original_rank: Option<u64>,
    pub quality_score: f64,
    /// The L2 distance the quality read (the score, or `denseDistance`, under
    /// `scoreKind`); `None` when it read none.
    pub distance: Option<f64>,
    pub status: Status,
    pub accepted_rank: Option<usize>,
    /// E.g. `1 - min(0.41, 1.2) / 1.2 = 0.658`, `rank 3 of 5 -> 0.6`.
    pub quality_explanation: QualityBasis,
    /// The trace's score floor.
    pub floor: f64,
    /// The trace's effective `excerptMaxChars`, `maxChunksPerDocument` and `returnN`.
    pub excerpt_max_chars: usize,
    pub max_chunks_per_document: usize,
    pub return_n: usize,
}

impl Deref for Block<'_> {
    type Target = Candidate;
    fn deref(&self) -> &Candidate {
        self.candidate
    }
}

impl Block<'_> {
    /// The full, untruncated excerpt ("" when there is none).
    pub fn full_excerpt(&self) -> &str {
        self.candidate.excerpt.as_deref().unwrap_or("")
    }

    /// The excerpt as shown: truncated to `excerptMaxChars` scalar values plus `…`.
    pub fn shown_excerpt(&self) -> Option<Excerpt> {
        self.candidate.excerpt.as_ref().map(|text| {
            Excerpt::new(
                text.clone(),
                self.candidate.excerpt_chars,
                self.excerpt_max_chars,
            )
        })
    }

    /// E.g. `duplicate of rank 1`, `kb-redis already has 2 blocks`, `beyond return-n (4)`.
    pub fn status_reason(&self) -> StatusReason {
        status_reason(
            self.candidate,
            self.status,
            self.accepted_rank,
            self.max_chunks_per_document,
            self.return_n,
            self.quality_score,
            self.floor,
        )
    }

    /// The rank was absent and the array position was used.
    pub fn rank_from_position(&self) -> bool {
        matches!(self.candidate.rank, Rank::Position(_))
    }
}

/// [`Block::status_reason`] from what it reads, for a caller that has the candidate and
/// its decision but no block (building one computes the quality).
pub(crate) fn status_reason(
    c: &Candidate,
    status: Status,
    accepted_rank: Option<usize>,
    max_chunks_per_document: usize,
    return_n: usize,
    quality: f64,
    floor: f64,
) -> StatusReason {
    match status {
        Status::Accepted => StatusReason::Accepted {
            accepted_rank: accepted_rank.unwrap_or(0),
        },
        Status::Duplicate => StatusReason::Duplicate {
            of_rank: c.duplicate_of_rank.unwrap_or(0),
        },
        Status::BelowFloor => StatusReason::BelowFloor { quality, floor },
        Status::DocCap => StatusReason::DocCap {
            doc_id: c.doc_id.clone(),
            cap: max_chunks_per_document,
        },
        Status::ReturnN => StatusReason::ReturnN { return_n },
        Status::Invalid => StatusReason::Invalid {
            rank: match &c.rank {
                Rank::Invalid(text) => text.clone(),
                _ => Arc::from("?"),
            },
        },
    }
}

impl Serialize for Block<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let c = self.candidate;
        let mut s = serializer.serialize_struct("Block", 32)?;
        s.serialize_field("evidenceKey", &c.evidence_key)?;
        s.serialize_field("docId", &c.doc_id)?;
        s.serialize_field("originalRank", &self.original_rank)?;
        s.serialize_field("scoreLabel", &c.score_label)?;
        s.serialize_field("canonicalLabel", &c.canonical_label)?;
        s.serialize_field("score", &c.score)?;
        s.serialize_field("distance", &self.distance)?;
        s.serialize_field("qualityScore", &self.quality_score)?;
        s.serialize_field("status", &self.status)?;
        s.serialize_field("acceptedRank", &self.accepted_rank)?;
        s.serialize_field("duplicateOfRank", &c.duplicate_of_rank)?;
        s.serialize_field("excerpt", &self.shown_excerpt())?;
        s.serialize_field("legacyPosition", &c.legacy_position)?;
        s.serialize_field("displacement", &c.displacement)?;
        s.serialize_field("qualityExplanation", &self.quality_explanation)?;
        s.serialize_field("statusReason", &self.status_reason())?;
        s.serialize_field("legacyAlias", &c.legacy_alias)?;
        s.serialize_field("denseDistance", &c.dense_distance)?;
        s.serialize_field("rawScore", &c.raw_score)?;
        s.serialize_field("baseScore", &c.base_score)?;
        s.serialize_field("finalScore", &c.final_score)?;
        s.serialize_field("boostReasons", &c.boost_reasons)?;
        s.serialize_field("breadcrumb", &c.breadcrumb)?;
        s.serialize_field("title", &c.title)?;
        s.serialize_field("sourceType", &c.source_type)?;
        s.serialize_field("chunkIndex", &c.chunk_index)?;
        s.serialize_field("hitReasons", &c.hit_reasons)?;
        s.serialize_field("excerptChars", &c.excerpt_chars)?;
        s.serialize_field(
            "excerptTruncated",
            &(c.excerpt_chars > self.excerpt_max_chars),
        )?;
        s.serialize_field("inputIndex", &c.input_index)?;
        if let Some(input_rank) = c.input_rank() {
            s.serialize_field("inputRank", &input_rank)?;
        }
        s.serialize_field("rankFromPosition", &self.rank_from_position())?;
        s.serialize_field("extra", &c.extra)?;
        s.end()
    }
}

/// The JSON Schemas of the two hand-written serialisations above: a shape per type,
/// field for field as `serialize` writes it (the schema tests check real output
/// against them, so a key added to one and not the other fails there).
#[cfg(feature = "schema")]
mod schema {
    use super::{Block, TraceAnalysis};
    use crate::config::Config;
    use crate::diagnostic::Diagnostic;
    use crate::input::TraceKind;
    use crate::label::CanonicalLabel;
    use crate::legacy::LegacySummary;
    use crate::outcome::Level;
    use crate::pipeline::Status;
    use crate::trace_analysis::{EvidenceComparison, Stages};
    use schemars::{JsonSchema, Schema, SchemaGenerator};
    use serde_json::{Map, Value};
    use std::borrow::Cow;
    use std::collections::BTreeMap;

    #[derive(JsonSchema)]
    #[serde(rename_all = "camelCase")]
    #[allow(dead_code)]
    struct TraceAnalysisShape {
        name: String,
        kind: TraceKind,
        mode: Option<CanonicalLabel>,
        request_id: Option<String>,
        query: Option<String>,
        config: Config,
        relevance_level: Level,
        recorded_relevance_level: Option<String>,
        top_quality: Option<f64>,
        /// The score floor: `max(minQuality, relativeQuality x qMax)`.
        floor: f64,
        low_quality: bool,
        recorded_low_quality: Option<bool>,
        retry_unfiltered: bool,
        legacy_labels: BTreeMap<String, usize>,
        blocks: Vec<Block<'static>>,
        legacy: Option<LegacySummary>,
        diagnostics: Vec<Diagnostic>,
        source: String,
        line: Option<usize>,
        pointer: String,
        position: usize,
        case_id: Option<String>,
        category_filter: Option<String>,
        lookup_query: Option<String>,
        recorded_top_similarity: Option<f64>,
        level_differs: bool,
        low_quality_differs: bool,
        stages: Stages,
        evidence_comparison: Option<EvidenceComparison>,
        n_approximated: bool,
        low_quality_gate_inert: bool,
        used_trace_options: bool,
        extra: Map<String, Value>,
    }

    impl JsonSchema for TraceAnalysis {
        fn schema_name() -> Cow<'static, str> {
            "TraceAnalysis".into()
        }
        fn json_schema(generator: &mut SchemaGenerator) -> Schema {
            TraceAnalysisShape::json_schema(generator)
        }
    }

    #[derive(JsonSchema)]
    #[serde(rename_all = "camelCase")]
    #[allow(dead_code)]
    struct BlockShape {
        evidence_key: String,
        doc_id: String,
        original_rank: Option<u64>,
        score_label: Option<String>,
        canonical_label: Option<CanonicalLabel>,
        score: Option<f64>,
        /// The L2 distance the quality read: the score (or `denseDistance`) under
        /// `scoreKind`, a negative one as 0; null when it read none.
        distance: Option<f64>,
        quality_score: f64,
        status: Status,
        accepted_rank: Option<usize>,
        duplicate_of_rank: Option<u64>,
        /// Truncated to `excerptMaxChars` characters plus `…`.
        excerpt: Option<String>,
        legacy_position: Option<usize>,
        displacement: Option<i64>,
        /// The formula with its numbers, e.g. `rank 3 of 5 -> 0.6`.
        quality_explanation: String,
        /// Why the block has its status, e.g. `duplicate of rank 1`.
        status_reason: String,
        legacy_alias: bool,
        dense_distance: Option<f64>,
        raw_score: Option<f64>,
        base_score: Option<f64>,
        final_score: Option<f64>,
        boost_reasons: Option<Vec<String>>,
        breadcrumb: Option<String>,
        title: Option<String>,
        source_type: Option<String>,
        chunk_index: Option<i64>,
        hit_reasons: Option<Vec<String>>,
        excerpt_chars: usize,
        excerpt_truncated: bool,
        input_index: usize,
        /// A reranker span's output document: its 1-based position among the
        /// reranker's input documents, null when not among them; absent otherwise.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        input_rank: Option<u64>,
        rank_from_position: bool,
        extra: Option<Map<String, Value>>,
    }

    impl JsonSchema for Block<'_> {
        fn schema_name() -> Cow<'static, str> {
            "Block".into()
        }
        fn json_schema(generator: &mut SchemaGenerator) -> Schema {
            BlockShape::json_schema(generator)
        }
    }
}

/// Counts per post-processing stage, for a waterfall.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Stages {
    pub candidates: usize,
    pub invalid: usize,
    pub duplicates: usize,
    pub below_floor: usize,
    pub doc_capped: usize,
    pub return_n_cut: usize,
    pub accepted: usize,
}

/// A LookupResult's recorded `evidence` against the recomputed accepted blocks.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct EvidenceComparison {
    pub recorded: Vec<Arc<str>>,
    pub recomputed: Vec<Arc<str>>,
    /// Same evidenceKeys in the same order.
    pub same: bool,
    /// Recorded but not recomputed.
    pub missing: Vec<Arc<str>>,
    /// Recomputed but not recorded.
    pub unexpected: Vec<Arc<str>>,
}

/// The configuration a trace runs with, whether its options took part, and why they
/// were set aside when they were.
#[derive(Debug)]
pub(crate) struct TraceConfig {
    config: Config,
    used_trace_options: bool,
    options_diagnostic: Option<Box<Diagnostic>>,
}

/// Defaults, the trace's own options (when used and valid), the user's settings.
fn trace_config(
    trace: &Trace,
    facts: &TraceFacts,
    settings: &Settings,
    global: &Config,
) -> TraceConfig {
    let global_only = |options_diagnostic| TraceConfig {
        config: *global,
        used_trace_options: false,
        options_diagnostic,
    };
    if !settings.use_trace_options || !facts.own_options {
        return global_only(None);
    }
    match Config::merged(&trace.options, settings) {
        Ok(config) => TraceConfig {
            config,
            used_trace_options: true,
            options_diagnostic: None,
        },
        Err(err) => global_only(Some(Box::new(Diagnostic::error(
            "invalid-options",
            format!("the trace's options make the configuration invalid ({err}); computed with defaults plus the user's settings"),
            format!("{}/options", trace.pointer),
        )))),
    }
}

/// [`trace_config`] under `settings`, for a trace analysed as `previous` under
/// `before`. The user's settings sit on top, so where `previous` ran with its own
/// options and every key the user changed is still set, the new configuration is
/// `previous`'s with those keys written over, validated as a whole: the trace's
/// options are not read again (in a reanalysis of a large batch, reading them was a
/// cache miss per trace).
fn trace_config_after(
    previous: &TraceAnalysis,
    before: &Settings,
    settings: &Settings,
    global: &Config,
) -> TraceConfig {
    let own_options_kept = settings.use_trace_options
        && before.use_trace_options
        && previous.facts.own_options
        && previous.used_trace_options;
    if own_options_kept {
        let mut config = previous.config;
        if settings.overlay_changes(before, &mut config) && config.validate().is_ok() {
            return TraceConfig {
                config,
                used_trace_options: true,
                options_diagnostic: None,
            };
        }
    }
    trace_config(&previous.trace, &previous.facts, settings, global)
}

/// Per-trace working space, reused across the traces of one `analyze` call.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    /// Blocks held per docId slot (the per-document cap).
    per_doc: Vec<usize>,
    /// The trace's decisions being made, copied into their shared slice when done.
    decided: Vec<Decided>,
}

/// A candidate's quality from its hot entry; `n` is the trace's candidate count.
#[inline]
pub(crate) fn quality_of(h: &Hot, n: usize, config: &Config) -> Quality {
    match h.rank() {
        Some(rank) => quality(h.label, h.score(), rank, n, config, h.dense_distance()),
        None => Quality {
            score: 0.0,
            basis: QualityBasis::InvalidRank,
            out_of_range: false,
        },
    }
}

/// What a trace's qualities decide beyond each block's score, folded one candidate
/// at a time.
#[derive(Debug, Clone, Copy, Default)]
struct Qualities {
    /// The best quality among the accepted blocks.
    top: Option<f64>,
    /// The same best quality as a function of `maxL2Distance`.
    top_parts: TopParts,
    /// See [`TraceAnalysis::low_quality_gate_inert`].
    gate_inert: bool,
    /// Some quality was computed from a distance, so `maxL2Distance` changes it.
    reads_distance: bool,
    /// Scores (or `denseDistance`s) read under a `scoreKind` other than l2.
    scores_read: u32,
    /// Of them, those outside the kind's range.
    out_of_range: u32,
}

/// The accepted blocks' best quality in two parts, so that a change of
/// `maxL2Distance` alone gives the new best without reading a block again (in a large
/// batch, reading each trace's blocks was most of such a move): the best of the
/// qualities that read no distance, and the least distance read. Every quality read
/// from a distance is [`dense_quality`] of it (`maxRankDense` the larger of that and a
/// rank's quality), which never rises as the distance grows, so the least distance
/// gives the best of them under any `maxL2Distance`.
#[derive(Debug, Clone, Copy, PartialEq)]
struct TopParts {
    /// `-inf` while no accepted block has a quality that reads no distance.
    without_distance: f64,
    /// `+inf` while no accepted block's quality reads a distance.
    least_distance: f64,
}

impl Default for TopParts {
    fn default() -> Self {
        TopParts {
            without_distance: f64::NEG_INFINITY,
            least_distance: f64::INFINITY,
        }
    }
}

impl TopParts {
    /// An accepted block's quality.
    fn add(&mut self, q: &Quality) {
        match q.basis {
            QualityBasis::Dense { d, .. } | QualityBasis::DenseDistance { d, .. } => {
                self.least_distance = self.least_distance.min(d);
            }
            QualityBasis::MaxRankDense { d, rank_q, .. } => {
                self.least_distance = self.least_distance.min(d);
                self.without_distance = self.without_distance.max(rank_q);
            }
            QualityBasis::NoScore
            | QualityBasis::NoDistance
            | QualityBasis::Rank { .. }
            | QualityBasis::UnknownLabel
            | QualityBasis::InvalidRank => {
                self.without_distance = self.without_distance.max(q.score);
            }
        }
    }

    /// The best quality under `max_l2_distance`; `None` with no accepted block.
    fn top(&self, max_l2_distance: f64) -> Option<f64> {
        let read = (self.least_distance != f64::INFINITY)
            .then(|| dense_quality(self.least_distance, max_l2_distance));
        match (self.without_distance != f64::NEG_INFINITY, read) {
            (true, Some(read)) => Some(self.without_distance.max(read)),
            (true, None) => Some(self.without_distance),
            (false, read) => read,
        }
    }
}

impl Qualities {
    /// An accepted block's quality counted in the top.
    fn raise_top(&mut self, score: f64) {
        self.top = Some(self.top.map_or(score, |t| t.max(score)));
    }

    fn add(&mut self, q: &Quality, status: Status, config: &Config) {
        self.reads_distance |= matches!(
            q.basis,
            QualityBasis::Dense { .. }
                | QualityBasis::DenseDistance { .. }
                | QualityBasis::MaxRankDense { .. }
        );
        // Only a kind other than l2 has a range to check (l2's negative distances
        // have their own warning), so l2 counts nothing here.
        if config.score_kind != ScoreKind::L2 {
            self.scores_read += u32::from(matches!(
                q.basis,
                QualityBasis::Dense { .. }
                    | QualityBasis::DenseDistance { .. }
                    | QualityBasis::MaxRankDense { .. }
                    | QualityBasis::NoDistance
            ));
            self.out_of_range += u32::from(q.out_of_range);
        }
        if status == Status::Accepted {
            self.raise_top(q.score);
            self.top_parts.add(q);
            if config.hybrid_quality == HybridQuality::Rank
                && matches!(q.basis, QualityBasis::Rank { r: 1, .. })
            {
                self.gate_inert = true;
            }
        }
    }
}

/// The decision stage: every candidate's status and accepted rank (`returnN`,
/// `maxChunksPerDocument`), and its quality in the same pass, while its hot entry is
/// in cache (`maxL2Distance`, `hybridQuality`).
fn decide(
    trace: &Trace,
    config: &Config,
    scratch: &mut Scratch,
) -> (Arc<[Decided]>, Stages, Qualities, f64) {
    let n = trace.candidates().len();
    let mut stages = Stages {
        candidates: n,
        ..Stages::default()
    };
    let mut qualities = Qualities::default();
    let Scratch { per_doc, decided } = scratch;
    decided.clear();
    let quality = |h: &Hot| quality_of(h, n, config).score;
    let floor = floor_of(trace, config, quality);
    // Above a floor of 0 the walk reads each candidate's quality to decide it, just
    // before the fold below reads it again: computed once, handed over.
    let walked = std::cell::Cell::new(None::<(usize, Quality)>);
    let walk_quality = |h: &Hot| {
        let q = quality_of(h, n, config);
        walked.set(Some((h.index, q)));
        q.score
    };
    decide_hot(
        trace,
        config,
        per_doc,
        floor,
        walk_quality,
        |h, decision| {
            let q = match walked.take() {
                Some((index, q)) if index == h.index => q,
                _ => quality_of(h, n, config),
            };
            qualities.add(&q, decision.status, config);
            match decision.status {
                Status::Accepted => stages.accepted += 1,
                Status::Duplicate => stages.duplicates += 1,
                Status::BelowFloor => stages.below_floor += 1,
                Status::DocCap => stages.doc_capped += 1,
                Status::ReturnN => stages.return_n_cut += 1,
                Status::Invalid => stages.invalid += 1,
            }
            decided.push(Decided {
                index: h.index,
                accepted_rank: decision.accepted_rank.and_then(NonZeroUsize::new),
                status: decision.status,
            });
        },
    );
    (Arc::from(decided.as_slice()), stages, qualities, floor)
}

/// The quality stage alone, over decisions already made (`maxL2Distance`,
/// `hybridQuality`): what the qualities of the blocks of `decided` decide. `kept`: the
/// qualities before a change of `maxL2Distance` alone, which moves scores but not what
/// they are computed from (labels, ranks and `hybridQuality` decide that), so only the
/// top is new, and its parts give it.
fn requalify(
    trace: &Trace,
    config: &Config,
    decided: &[Decided],
    kept: Option<Qualities>,
) -> Qualities {
    match kept {
        Some(kept) => Qualities {
            top: kept.top_parts.top(config.max_l2_distance),
            ..kept
        },
        None => {
            let n = trace.candidates().len();
            let mut qualities = Qualities::default();
            // `decided` was filled in the order of these very entries, one per entry.
            for (d, h) in decided.iter().zip(trace.hot()) {
                qualities.add(&quality_of(h, n, config), d.status, config);
            }
            qualities
        }
    }
}

/// The best quality of the accepted blocks of `decided` under `config`, each computed
/// again: what a change of `hybridQuality` gives the top (it changes what a quality is
/// computed from, so the parts kept do not give it).
fn accepted_top(trace: &Trace, config: &Config, decided: &[Decided]) -> Option<f64> {
    let n = trace.candidates().len();
    let mut qualities = Qualities::default();
    // `decided` was filled in the order of these very entries, one per entry.
    for (_, h) in decided
        .iter()
        .zip(trace.hot())
        .filter(|(d, _)| d.status == Status::Accepted)
    {
        qualities.raise_top(quality_of(h, n, config).score);
    }
    qualities.top
}

/// The recorded evidence against the accepted blocks, for a LookupResult that has it.
fn evidence_comparison(trace: &Trace, decided: &[Decided]) -> Option<Box<EvidenceComparison>> {
    let recorded = trace.recorded_evidence.as_ref()?;
    let recomputed: Vec<Arc<str>> = decided
        .iter()
        .filter(|d| d.status == Status::Accepted)
        .filter_map(|d| trace.candidates().get(d.index))
        .map(|c| c.evidence_key.clone())
        .collect();
    let missing = recorded
        .iter()
        .filter(|k| !recomputed.contains(k))
        .cloned()
        .collect();
    let unexpected = recomputed
        .iter()
        .filter(|k| !recorded.contains(k))
        .cloned()
        .collect();
    Some(Box::new(EvidenceComparison {
        same: *recorded == recomputed,
        recorded: recorded.clone(),
        recomputed,
        missing,
        unexpected,
    }))
}

/// What the decision and quality stages made of one trace, before the level stage.
#[derive(Debug)]
struct Decisions {
    decided: Arc<[Decided]>,
    stages: Stages,
    qualities: Qualities,
    /// The trace's score floor the decisions were made under.
    floor: f64,
    evidence_comparison: Option<Box<EvidenceComparison>>,
}

impl Decisions {
    /// Every stage under `config`.
    fn make(trace: &Trace, config: &Config, scratch: &mut Scratch) -> Self {
        let (decided, stages, qualities, floor) = decide(trace, config, scratch);
        let evidence_comparison = evidence_comparison(trace, &decided);
        Decisions {
            decided,
            stages,
            qualities,
            floor,
            evidence_comparison,
        }
    }
}

/// The level stage (the three thresholds) over the stages before it, and the whole
/// trace analysis.
fn finish(
    trace: Arc<Trace>,
    facts: TraceFacts,
    config: TraceConfig,
    decisions: Decisions,
) -> TraceAnalysis {
    let TraceConfig {
        config,
        used_trace_options,
        options_diagnostic,
    } = config;
    let Decisions {
        decided,
        stages,
        qualities,
        floor,
        evidence_comparison,
    } = decisions;
    let result = outcome_of(qualities.top, &config, facts.filtered);
    let level_differs = facts.level_differs(result.level);
    let low_quality_differs = facts
        .recorded_low_quality
        .is_some_and(|recorded| recorded != result.low_quality);
    TraceAnalysis {
        trace,
        config,
        relevance_level: result.level,
        top_quality: result.top_quality,
        floor,
        low_quality: result.low_quality,
        retry_unfiltered: result.retry_unfiltered,
        level_differs,
        low_quality_differs,
        stages,
        evidence_comparison,
        low_quality_gate_inert: qualities.gate_inert,
        used_trace_options,
        options_diagnostic,
        quality_reads_distance: qualities.reads_distance,
        scores_read: qualities.scores_read,
        score_out_of_range: qualities.out_of_range,
        top_parts: qualities.top_parts,
        decided,
        facts,
    }
}

/// One trace under the user's settings (`global` = defaults plus those settings).
pub(crate) fn analyze_trace(
    trace: &Arc<Trace>,
    settings: &Settings,
    global: &Config,
    scratch: &mut Scratch,
) -> TraceAnalysis {
    let facts = TraceFacts::of(trace);
    let config = trace_config(trace, &facts, settings, global);
    let decisions = Decisions::make(trace, &config.config, scratch);
    finish(Arc::clone(trace), facts, config, decisions)
}

/// `relevanceLevel recorded X but recomputed Y; lowQuality recorded A but recomputed B`
/// (either part alone when only one differs).
fn recorded_differs_message(
    recorded_level: Option<&str>,
    level: Level,
    low_quality: bool,
    level_differs: bool,
    low_quality_differs: bool,
) -> String {
    let level_part = level_differs.then(|| {
        format!(
            "relevanceLevel recorded {} but recomputed {}",
            recorded_level.unwrap_or(""),
            level.as_str()
        )
    });
    let low_quality_part = low_quality_differs.then(|| {
        format!(
            "lowQuality recorded {} but recomputed {low_quality}",
            !low_quality
        )
    });
    level_part
        .into_iter()
        .chain(low_quality_part)
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::normalised_eq;

    /// The level read once per trace differs from a recomputed level exactly when the
    /// comparison of section 7 on the recorded text says so.
    #[test]
    fn a_recorded_level_read_once_compares_as_its_text_does() {
        let facts = |recorded| TraceFacts {
            own_options: false,
            filtered: false,
            recorded_level: RecordedLevel::of(recorded),
            recorded_low_quality: None,
            mode: None,
            diagnosed: false,
            score_direction: None,
        };
        for text in [
            "PRECISE",
            " highly-relevant ",
            "no match",
            "Low_Relevance",
            "relevant\t",
            "Précise",
            "PRECISE\u{a0}",
            "",
            " ",
            "unknown",
        ] {
            let facts = facts(Some(text));
            for level in Level::ALL {
                assert_eq!(
                    facts.level_differs(level),
                    !normalised_eq(text, level.as_str()),
                    "{text:?} against {level:?}"
                );
            }
        }
        let absent = facts(None);
        assert!(Level::ALL.into_iter().all(|l| !absent.level_differs(l)));
    }

    /// The top kept in parts is, under any `maxL2Distance`, the best quality of the
    /// accepted blocks each computed again: over every basis a quality has (dense and
    /// hybrid, with and without a dense distance, negative and non-finite distances,
    /// unknown labels, invalid ranks) and every `hybridQuality`.
    #[test]
    fn the_top_in_parts_is_the_best_quality_computed_again() {
        let text = r#"[
 {"mode":"dense","candidates":[
   {"evidenceKey":"a#1","docId":"a","originalRank":1,"score":-0.2,"scoreLabel":"dense"},
   {"evidenceKey":"b#1","docId":"b","originalRank":2,"score":0.7,"scoreLabel":"dense"},
   {"evidenceKey":"c#1","docId":"c","originalRank":3,"score":null,"scoreLabel":"dense"}]},
 {"mode":"hybrid","candidates":[
   {"evidenceKey":"a#1","docId":"a","originalRank":3,"score":0.01,"scoreLabel":"hybrid","denseDistance":0.15},
   {"evidenceKey":"b#1","docId":"b","originalRank":1,"score":0.02,"scoreLabel":"hybrid","denseDistance":1.4},
   {"evidenceKey":"c#1","docId":"c","originalRank":2,"score":0.015,"scoreLabel":"hybrid"},
   {"evidenceKey":"d#1","docId":"d","originalRank":4,"score":0.3,"scoreLabel":"dense"},
   {"evidenceKey":"e#1","docId":"e","originalRank":5,"score":0.1,"scoreLabel":"mystery"},
   {"evidenceKey":"f#1","docId":"f","originalRank":"x","score":0.1,"scoreLabel":"dense"}]},
 {"mode":"hybrid","candidates":[
   {"evidenceKey":"a#1","docId":"a","originalRank":2,"score":0.01,"scoreLabel":"hybrid","denseDistance":0.05}]},
 {"mode":"dense","candidates":[]}
]"#;
        let batch = crate::input::parse_document("t", text);
        let mut generated =
            crate::input::parse_document("g", &crate::sample::generate_batch(40, 12, 9));
        let mut traces = batch.traces;
        traces.append(&mut generated.traces);
        let mut scratch = Scratch::default();
        let mut compared = 0;
        for hybrid_quality in HybridQuality::ALL {
            for return_n in [1, 2, 5] {
                let config = Config {
                    hybrid_quality,
                    return_n,
                    ..Config::default()
                };
                for trace in &traces {
                    let (decided, _, qualities, _) = decide(trace, &config, &mut scratch);
                    for m in [0.01, 0.1, 0.15, 0.3, 0.7, 1.0, 1.4, 2.5, 1e9] {
                        let moved = Config {
                            max_l2_distance: m,
                            ..config
                        };
                        let again = accepted_top(trace, &moved, &decided);
                        let parts = qualities.top_parts.top(m);
                        assert_eq!(
                            parts.map(f64::to_bits),
                            again.map(f64::to_bits),
                            "{hybrid_quality:?} returnN {return_n} maxL2Distance {m}"
                        );
                        compared += 1;
                    }
                }
            }
        }
        assert!(compared > 1000);
    }
}
