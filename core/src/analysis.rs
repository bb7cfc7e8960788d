//! The `analyze` output of contract section 7, and the function that computes it.
//!
//! Field names mirror the output keys (snake_case here, camelCase in JSON);
//! absent values are `None` and serialise to `null`, never omitted.

use crate::batch::{self, BatchWarning, Summary, SweepPoint};
use crate::config::{Config, ConfigError, HybridQuality, Settings};
use crate::diagnostic::{Diagnostic, InputError};
use crate::input::{Candidate, Hot, Rank};
use crate::input::{DocumentSummary, ParsedBatch, Trace, TraceKind};
use crate::label::CanonicalLabel;
use crate::legacy::LegacySummary;
use crate::outcome::{normalised_eq, outcome, Level, Outcome};
use crate::pipeline::{decide_hot, Excerpt, Status, StatusReason};
use crate::quality::{quality, Quality, QualityBasis};
use serde::ser::SerializeStruct;
use serde::Serialize;
use serde::Serializer;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::ops::Deref;
use std::sync::Arc;

/// The whole analysis of a batch under one set of user settings.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Analysis {
    /// Defaults plus the user's settings.
    pub config: Config,
    pub traces: Vec<TraceAnalysis>,
    pub summary: Summary,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sweep: Option<Vec<SweepPoint>>,
    /// Notable findings across the batch, one entry per diagnostic code.
    pub warnings: Vec<BatchWarning>,
    /// Documents or traces that could not be read.
    pub input_errors: Vec<InputError>,
    pub documents: Vec<DocumentSummary>,
}

/// One trace under its effective configuration.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TraceAnalysis {
    /// `requestId`, else `#<position in batch>`.
    pub name: String,
    pub kind: TraceKind,
    pub mode: Option<CanonicalLabel>,
    pub request_id: Option<Arc<str>>,
    pub query: Option<Arc<str>>,
    /// Effective for this trace: defaults, its own options (if used), the user's settings.
    pub config: Config,
    pub relevance_level: Level,
    pub recorded_relevance_level: Option<Arc<str>>,
    pub top_quality: Option<f64>,
    pub low_quality: bool,
    pub recorded_low_quality: Option<bool>,
    pub retry_unfiltered: bool,
    pub legacy_labels: Arc<BTreeMap<String, usize>>,
    /// Every candidate in section 3.3 order, invalid ones last.
    pub blocks: Vec<Block>,
    pub legacy: Option<LegacySummary>,
    pub diagnostics: Vec<Diagnostic>,
    // ---- beyond the contract's keys: what the page and the golden evaluation need
    pub source: Arc<str>,
    /// 1-based line in a JSON Lines document.
    pub line: Option<usize>,
    /// JSON pointer of the trace within its document.
    pub pointer: String,
    pub position: usize,
    pub case_id: Option<Arc<str>>,
    pub category_filter: Option<Arc<str>>,
    /// The outer LookupResult's `query` when an embedded trace was analysed.
    pub lookup_query: Option<Arc<str>>,
    pub recorded_top_similarity: Option<f64>,
    /// The recorded level exists and differs from the recomputed one.
    pub level_differs: bool,
    pub low_quality_differs: bool,
    pub stages: Stages,
    pub evidence_comparison: Option<EvidenceComparison>,
    pub n_approximated: bool,
    /// Hybrid rank quality put a rank-1 block first: top quality 1.0, the gate cannot fire.
    pub low_quality_gate_inert: bool,
    /// Whether the trace's own `options` took part in `config`.
    pub used_trace_options: bool,
    /// Unknown trace fields, kept to be shown.
    pub extra: Map<String, Value>,
}

impl TraceAnalysis {
    /// The accepted blocks in `acceptedRank` order (what an agent would see).
    pub fn accepted_blocks(&self) -> impl Iterator<Item = &Block> {
        self.blocks.iter().filter(|b| b.status == Status::Accepted)
    }

    /// The trace's effective `returnN` (the golden evaluation's k).
    pub fn return_n(&self) -> usize {
        self.config.return_n
    }
}

/// One candidate after post-processing.
///
/// Holds only what the configuration changes; everything read from the input is in the
/// shared [`Candidate`] it dereferences to, so `block.evidence_key`, `block.doc_id`,
/// `block.breadcrumb`, `block.excerpt` (the full text) ... read like fields and a
/// recompute copies no strings. Serialises with every key of section 7 (`excerpt`
/// truncated) plus the extras listed in docs/decisions.md.
#[derive(Debug, Clone)]
pub struct Block {
    pub candidate: Arc<Candidate>,
    /// Effective rank; `None` for an invalid one.
    pub original_rank: Option<u64>,
    pub quality_score: f64,
    pub status: Status,
    pub accepted_rank: Option<usize>,
    /// E.g. `1 - min(0.41, 1.2) / 1.2 = 0.658`, `rank 3 of 5 -> 0.6`.
    pub quality_explanation: QualityBasis,
    /// The trace's effective `excerptMaxChars`, `maxChunksPerDocument` and `returnN`.
    pub excerpt_max_chars: usize,
    pub max_chunks_per_document: usize,
    pub return_n: usize,
}

impl Deref for Block {
    type Target = Candidate;
    fn deref(&self) -> &Candidate {
        &self.candidate
    }
}

impl Block {
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
        let c = &*self.candidate;
        match self.status {
            Status::Accepted => StatusReason::Accepted {
                accepted_rank: self.accepted_rank.unwrap_or(0),
            },
            Status::Duplicate => StatusReason::Duplicate {
                of_rank: c.duplicate_of_rank.unwrap_or(0),
            },
            Status::DocCap => StatusReason::DocCap {
                doc_id: c.doc_id.clone(),
                cap: self.max_chunks_per_document,
            },
            Status::ReturnN => StatusReason::ReturnN {
                return_n: self.return_n,
            },
            Status::Invalid => StatusReason::Invalid {
                rank: match &c.rank {
                    Rank::Invalid(text) => text.clone(),
                    _ => Arc::from("?"),
                },
            },
        }
    }

    /// The rank was absent and the array position was used.
    pub fn rank_from_position(&self) -> bool {
        matches!(self.candidate.rank, Rank::Position(_))
    }
}

impl Serialize for Block {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let c = &*self.candidate;
        let mut s = serializer.serialize_struct("Block", 32)?;
        s.serialize_field("evidenceKey", &c.evidence_key)?;
        s.serialize_field("docId", &c.doc_id)?;
        s.serialize_field("originalRank", &self.original_rank)?;
        s.serialize_field("scoreLabel", &c.score_label)?;
        s.serialize_field("canonicalLabel", &c.canonical_label)?;
        s.serialize_field("score", &c.score)?;
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
        s.serialize_field("rankFromPosition", &self.rank_from_position())?;
        s.serialize_field("extra", &c.extra)?;
        s.end()
    }
}

/// Counts per post-processing stage, for a waterfall.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Stages {
    pub candidates: usize,
    pub invalid: usize,
    pub duplicates: usize,
    pub doc_capped: usize,
    pub return_n_cut: usize,
    pub accepted: usize,
}

/// A LookupResult's recorded `evidence` against the recomputed accepted blocks.
#[derive(Debug, Clone, PartialEq, Serialize)]
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

/// Analyses a batch; `Err` only when the user's settings are invalid (nothing is computed then).
///
/// Cheap to call again with new settings: nothing is re-parsed.
pub fn analyze(
    batch: &ParsedBatch,
    settings: &Settings,
    with_sweep: bool,
) -> Result<Analysis, ConfigError> {
    let global = Config::from_settings(settings)?;
    let mut scratch = Scratch::default();
    let mut summary = batch::SummaryBuilder::default();
    let mut warnings = batch::WarningsBuilder::default();
    let mut tops = Vec::new();
    let mut traces = Vec::with_capacity(batch.traces.len());
    if let Some(first) = batch.traces.first() {
        prefetch(first);
    }
    for (at, trace) in batch.traces.iter().enumerate() {
        // One trace ahead: its lines arrive while this one is computed.
        if let Some(next) = batch.traces.get(at + 1) {
            prefetch(next);
        }
        let t = analyze_trace_with(trace, settings, &global, &mut scratch);
        // Counted now, while the trace is in cache, rather than in later passes over all.
        summary.add(&t);
        warnings.add(&t);
        if with_sweep {
            tops.extend(t.top_quality);
        }
        traces.push(t);
    }
    let summary = summary.finish();
    let sweep = with_sweep.then(|| batch::sweep_tops(tops));
    let warnings = warnings.finish();
    Ok(Analysis {
        config: global,
        traces,
        summary,
        sweep,
        warnings,
        input_errors: batch.errors.clone(),
        documents: batch.documents.clone(),
    })
}

/// The configuration a trace runs with, whether its options were used, and any finding.
fn trace_config(
    trace: &Trace,
    settings: &Settings,
    global: &Config,
) -> (Config, bool, Option<Diagnostic>) {
    if !settings.use_trace_options || trace.options_error.is_some() || trace.options.is_empty() {
        return (*global, false, None);
    }
    match Config::merged(&trace.options, settings) {
        Ok(config) => (config, true, None),
        Err(err) => (
            *global,
            false,
            Some(Diagnostic::error(
                "invalid-options",
                format!("the trace's options make the configuration invalid ({err}); computed with defaults plus the user's settings"),
                format!("{}/options", trace.pointer),
            )),
        ),
    }
}

/// One trace under the user's settings (`global` = defaults plus those settings).
pub fn analyze_trace(trace: &Trace, settings: &Settings, global: &Config) -> TraceAnalysis {
    prefetch(trace);
    analyze_trace_with(trace, settings, global, &mut Scratch::default())
}

/// Per-trace working space, reused across the traces of one `analyze` call.
#[derive(Debug, Default)]
struct Scratch {
    /// Blocks held per docId slot (the per-document cap).
    per_doc: Vec<usize>,
    /// Hot entries rebuilt for a trace whose `order` changed after parsing (rare).
    hot: Vec<Hot>,
}

fn analyze_trace_with(
    trace: &Trace,
    settings: &Settings,
    global: &Config,
    scratch: &mut Scratch,
) -> TraceAnalysis {
    let (config, used_trace_options, config_diag) = trace_config(trace, settings, global);

    let n = trace.candidates.len();
    let mut stages = Stages {
        candidates: n,
        ..Stages::default()
    };
    let mut top_quality: Option<f64> = None;
    let mut gate_inert = false;
    let mut blocks = Vec::with_capacity(trace.order.len());
    let Scratch { per_doc, hot } = scratch;
    decide_hot(trace, &config, per_doc, hot, |h, decision| {
        // A hot entry always indexes a candidate (both come from the same parse).
        let Some(c) = trace.candidates.get(h.index) else {
            return;
        };
        let q = match h.rank() {
            Some(rank) => quality(h.label, h.score(), rank, n, &config, h.dense_distance()),
            None => Quality {
                score: 0.0,
                basis: QualityBasis::InvalidRank,
            },
        };
        match decision.status {
            Status::Accepted => {
                stages.accepted += 1;
                top_quality = Some(top_quality.map_or(q.score, |t: f64| t.max(q.score)));
                if config.hybrid_quality == HybridQuality::Rank
                    && matches!(q.basis, QualityBasis::Rank { r: 1, .. })
                {
                    gate_inert = true;
                }
            }
            Status::Duplicate => stages.duplicates += 1,
            Status::DocCap => stages.doc_capped += 1,
            Status::ReturnN => stages.return_n_cut += 1,
            Status::Invalid => stages.invalid += 1,
        }
        blocks.push(Block {
            candidate: c.clone(),
            original_rank: h.rank(),
            quality_score: q.score,
            status: decision.status,
            accepted_rank: decision.accepted_rank,
            quality_explanation: q.basis,
            excerpt_max_chars: config.excerpt_max_chars,
            max_chunks_per_document: config.max_chunks_per_document,
            return_n: config.return_n,
        });
    });

    let result = outcome(top_quality, &config, trace.category_filter.as_deref());
    let level_differs = trace
        .recorded_relevance_level
        .as_deref()
        .is_some_and(|recorded| !normalised_eq(recorded, result.level.as_str()));
    let low_quality_differs = trace
        .recorded_low_quality
        .is_some_and(|recorded| recorded != result.low_quality);
    let evidence_comparison = trace.recorded_evidence.as_ref().map(|recorded| {
        let recomputed: Vec<Arc<str>> = blocks
            .iter()
            .filter(|b| b.status == Status::Accepted)
            .map(|b| b.evidence_key.clone())
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
        EvidenceComparison {
            same: *recorded == recomputed,
            recorded: recorded.clone(),
            recomputed,
            missing,
            unexpected,
        }
    });
    let evidence_differs = evidence_comparison.as_ref().is_some_and(|cmp| !cmp.same);

    // Sized once: growing the list would free and reallocate for most traces.
    let mut diagnostics = Vec::with_capacity(
        trace.diagnostics.len()
            + usize::from(config_diag.is_some())
            + usize::from(gate_inert)
            + usize::from(level_differs || low_quality_differs)
            + usize::from(evidence_differs),
    );
    diagnostics.extend_from_slice(&trace.diagnostics);
    diagnostics.extend(config_diag);
    if gate_inert {
        diagnostics.push(Diagnostic::new(
            crate::diagnostic::Severity::Warning,
            "low-quality-gate-inert",
            "hybrid with rank quality: top quality is 1.0, the low-quality gate cannot fire",
            None,
        ));
    }
    if level_differs || low_quality_differs {
        diagnostics.push(Diagnostic::new(
            crate::diagnostic::Severity::Warning,
            "recorded-differs",
            recorded_differs_message(
                trace.recorded_relevance_level.as_deref(),
                &result,
                level_differs,
                low_quality_differs,
            ),
            None,
        ));
    }
    if let Some(cmp) = evidence_comparison.as_ref().filter(|_| evidence_differs) {
        diagnostics.push(Diagnostic::new(
            crate::diagnostic::Severity::Warning,
            "evidence-differs",
            format!(
                "recorded evidence [{}] differs from the recomputed accepted blocks [{}]",
                cmp.recorded.join(", "),
                cmp.recomputed.join(", ")
            ),
            None,
        ));
    }

    TraceAnalysis {
        name: trace
            .request_id
            .as_deref()
            .map_or_else(|| format!("#{}", trace.position), str::to_owned),
        kind: trace.kind,
        mode: trace.canonical_mode,
        request_id: trace.request_id.clone(),
        query: trace.query.clone(),
        config,
        relevance_level: result.level,
        recorded_relevance_level: trace.recorded_relevance_level.clone(),
        top_quality: result.top_quality,
        low_quality: result.low_quality,
        recorded_low_quality: trace.recorded_low_quality,
        retry_unfiltered: result.retry_unfiltered,
        legacy_labels: trace.legacy_labels.clone(),
        blocks,
        legacy: trace.legacy,
        diagnostics,
        source: trace.source.clone(),
        line: trace.line,
        pointer: trace.pointer.clone(),
        position: trace.position,
        case_id: trace.case_id.clone(),
        category_filter: trace.category_filter.clone(),
        lookup_query: trace.lookup_query.clone(),
        recorded_top_similarity: trace.recorded_top_similarity,
        level_differs,
        low_quality_differs,
        stages,
        evidence_comparison,
        n_approximated: trace.n_approximated,
        low_quality_gate_inert: gate_inert,
        used_trace_options,
        extra: trace.extra.clone(),
    }
}

/// Asks the CPU to fetch the cache lines a recompute of `trace` will touch outside the
/// trace itself: its hot entries, and, for writing, the line holding each candidate's
/// reference count, which cloning it into a block increments.
///
/// That increment is a locked instruction on a line nowhere near the previous one (the
/// candidates are spread over the whole parsed batch); a locked instruction waits for its
/// line and lets no later memory access start meanwhile, so without this the misses are
/// paid one after another and dominated the recompute. Prefetches are not held back by
/// locked instructions, so these misses overlap. Only a hint: the address of the counts
/// (16 bytes before the data, where `Arc` keeps them today) may be wrong on some other
/// std without being unsafe, and a prefetch never faults.
#[cfg(target_arch = "x86_64")]
fn prefetch(trace: &Trace) {
    use std::arch::x86_64::{_mm_prefetch, _MM_HINT_ET0, _MM_HINT_T0};
    for c in &trace.candidates {
        let counts = Arc::as_ptr(c).cast::<i8>().wrapping_sub(16);
        // SAFETY: a prefetch only hints the cache: it reads and writes nothing
        // architecturally and never faults, whatever the address; `sse`, which it needs,
        // is part of every x86_64 target.
        unsafe { _mm_prefetch::<_MM_HINT_ET0>(counts) };
    }
    // One hint per 64-byte line of the hot entries.
    let hot = trace.hot.as_ptr().cast::<i8>();
    let bytes = std::mem::size_of_val(trace.hot.as_slice());
    for offset in (0..bytes).step_by(64) {
        // SAFETY: as above.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(hot.wrapping_add(offset)) };
    }
}

/// No portable prefetch elsewhere (wasm has none): the loads simply wait.
#[cfg(not(target_arch = "x86_64"))]
fn prefetch(_: &Trace) {}

/// `relevanceLevel recorded X but recomputed Y; lowQuality recorded A but recomputed B`
/// (either part alone when only one differs), written into one right-sized string.
fn recorded_differs_message(
    recorded_level: Option<&str>,
    result: &Outcome,
    level_differs: bool,
    low_quality_differs: bool,
) -> String {
    use std::fmt::Write;
    let recorded_level = recorded_level.unwrap_or("");
    // The longest fixed text of both parts plus the recorded level: no regrowth.
    let mut message = String::with_capacity(110 + recorded_level.len());
    if level_differs {
        let _ = write!(
            message,
            "relevanceLevel recorded {recorded_level} but recomputed {}",
            result.level.as_str()
        );
    }
    if low_quality_differs {
        if level_differs {
            message.push_str("; ");
        }
        let _ = write!(
            message,
            "lowQuality recorded {} but recomputed {}",
            !result.low_quality, result.low_quality
        );
    }
    message
}
