//! The `analyze` output of contract section 7, and the function that computes it.
//!
//! Field names mirror the output keys (snake_case here, camelCase in JSON);
//! absent values are `None` and serialise to `null`, never omitted.

use crate::batch::{self, BatchWarning, Summary, SweepPoint};
use crate::config::{Config, ConfigError, HybridQuality, Settings};
use crate::diagnostic::{Diagnostic, InputError};
use crate::input::{DocumentSummary, ParsedBatch, Trace, TraceKind};
use crate::label::CanonicalLabel;
use crate::legacy::LegacySummary;
use crate::outcome::{normalise_level, outcome, Level};
use crate::pipeline::{decide, Excerpt, Status, StatusReason};
use crate::quality::{quality, QualityBasis};
use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
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
    pub legacy_labels: BTreeMap<String, usize>,
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
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Block {
    pub evidence_key: Arc<str>,
    pub doc_id: Arc<str>,
    /// Effective rank; `None` for an invalid one.
    pub original_rank: Option<u64>,
    /// The candidate's own label as written.
    pub score_label: Option<Arc<str>>,
    pub canonical_label: Option<CanonicalLabel>,
    pub score: Option<f64>,
    pub quality_score: f64,
    pub status: Status,
    pub accepted_rank: Option<usize>,
    pub duplicate_of_rank: Option<u64>,
    /// Serialises truncated; [`Excerpt::full`] has the whole text.
    pub excerpt: Option<Excerpt>,
    pub legacy_position: Option<usize>,
    pub displacement: Option<i64>,
    // ---- beyond the contract's keys
    /// E.g. `1 - min(0.41, 1.2) / 1.2 = 0.658`, `rank 3 of 5 -> 0.6`.
    pub quality_explanation: QualityBasis,
    /// E.g. `duplicate of rank 1`, `kb-redis already has 2 blocks`, `beyond return-n (4)`.
    pub status_reason: StatusReason,
    pub legacy_alias: bool,
    pub dense_distance: Option<f64>,
    pub raw_score: Option<f64>,
    pub base_score: Option<f64>,
    pub final_score: Option<f64>,
    pub boost_reasons: Option<Arc<[String]>>,
    pub breadcrumb: Option<Arc<str>>,
    pub title: Option<Arc<str>>,
    pub source_type: Option<Arc<str>>,
    pub chunk_index: Option<i64>,
    pub hit_reasons: Option<Arc<[String]>>,
    /// Untruncated excerpt length in Unicode scalar values.
    pub excerpt_chars: usize,
    /// 0-based position in the input array.
    pub input_index: usize,
    /// The rank was absent and the array position was used.
    pub rank_from_position: bool,
    pub extra: Option<Arc<Map<String, Value>>>,
}

impl Block {
    /// The full, untruncated excerpt ("" when there is none).
    pub fn full_excerpt(&self) -> &str {
        self.excerpt.as_ref().map_or("", Excerpt::full)
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
    let traces: Vec<TraceAnalysis> = batch
        .traces
        .iter()
        .map(|trace| analyze_trace(trace, settings, &global))
        .collect();
    let summary = batch::summarize(&traces);
    let sweep = with_sweep.then(|| batch::sweep(&traces));
    let warnings = batch::collect_warnings(&traces);
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
    let (config, used_trace_options, config_diag) = trace_config(trace, settings, global);
    let mut diagnostics = trace.diagnostics.clone();
    diagnostics.extend(config_diag);

    let n = trace.candidates.len();
    let decisions = decide(trace, &config);
    let mut stages = Stages {
        candidates: n,
        ..Stages::default()
    };
    let mut top_quality: Option<f64> = None;
    let mut gate_inert = false;
    let mut blocks = Vec::with_capacity(decisions.len());
    for decision in &decisions {
        let Some(c) = trace.candidates.get(decision.index) else {
            continue;
        };
        let q = match c.rank.value() {
            Some(rank) => quality(
                c.canonical_label,
                c.score,
                rank,
                n,
                &config,
                c.dense_distance,
            ),
            None => crate::quality::Quality {
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
            evidence_key: c.evidence_key.clone(),
            doc_id: c.doc_id.clone(),
            original_rank: c.rank.value(),
            score_label: c.score_label.clone(),
            canonical_label: c.canonical_label,
            score: c.score,
            quality_score: q.score,
            status: decision.status,
            accepted_rank: decision.accepted_rank,
            duplicate_of_rank: c.duplicate_of_rank,
            excerpt: c
                .excerpt
                .as_ref()
                .map(|text| Excerpt::new(text.clone(), c.excerpt_chars, config.excerpt_max_chars)),
            legacy_position: c.legacy_position,
            displacement: c.displacement,
            quality_explanation: q.basis,
            status_reason: StatusReason::of(c, decision, &config),
            legacy_alias: c.legacy_alias,
            dense_distance: c.dense_distance,
            raw_score: c.raw_score,
            base_score: c.base_score,
            final_score: c.final_score,
            boost_reasons: c.boost_reasons.clone(),
            breadcrumb: c.breadcrumb.clone(),
            title: c.title.clone(),
            source_type: c.source_type.clone(),
            chunk_index: c.chunk_index,
            hit_reasons: c.hit_reasons.clone(),
            excerpt_chars: c.excerpt_chars,
            input_index: c.input_index,
            rank_from_position: matches!(c.rank, crate::input::Rank::Position(_)),
            extra: c.extra.clone(),
        });
    }

    let result = outcome(top_quality, &config, trace.category_filter.as_deref());
    if gate_inert {
        diagnostics.push(Diagnostic::new(
            crate::diagnostic::Severity::Warning,
            "low-quality-gate-inert",
            "hybrid with rank quality: top quality is 1.0, the low-quality gate cannot fire",
            None,
        ));
    }
    let level_differs = trace
        .recorded_relevance_level
        .as_deref()
        .is_some_and(|recorded| normalise_level(recorded) != result.level.as_str());
    let low_quality_differs = trace
        .recorded_low_quality
        .is_some_and(|recorded| recorded != result.low_quality);
    if level_differs || low_quality_differs {
        let mut parts = Vec::new();
        if level_differs {
            parts.push(format!(
                "relevanceLevel recorded {} but recomputed {}",
                trace.recorded_relevance_level.as_deref().unwrap_or(""),
                result.level.as_str()
            ));
        }
        if low_quality_differs {
            parts.push(format!(
                "lowQuality recorded {} but recomputed {}",
                !result.low_quality, result.low_quality
            ));
        }
        diagnostics.push(Diagnostic::new(
            crate::diagnostic::Severity::Warning,
            "recorded-differs",
            parts.join("; "),
            None,
        ));
    }

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
    if let Some(cmp) = &evidence_comparison {
        if !cmp.same {
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
