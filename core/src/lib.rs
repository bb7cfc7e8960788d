//! ragtrace-core: the whole ragtrace pipeline as pure functions over plain data.
//!
//! A RAG service retrieves chunks by dense vector search or by hybrid search and then
//! post-processes them: a quality score per hit, dedup by evidence key, a per-document
//! cap, a return-n bound and a relevance level. This crate reads the traces such a
//! service writes (`RerankTrace`, `LookupResult`, JSON Lines, OpenTelemetry spans, TREC
//! runs), recomputes all of that under the settings you choose, explains what changed
//! and why, and evaluates the result against golden cases. The `ragtrace` command line,
//! the JavaScript package, the Python package and the inspector page are thin shells
//! over it: every number they show is computed here.
//!
//! The behaviour is specified in the repository's `docs/contract.md`; section numbers in
//! comments refer to it.
//!
//! # Reading, analysing, reading the result
//!
//! Read once with [`parse_document`] (or [`parse_documents`], [`read_batch`] for a byte
//! stream), then call [`analyze`] as often as the settings change: nothing is re-parsed,
//! and [`Analysis::reanalyze`] redoes only what a change reaches.
//!
//! ```
//! use ragtrace_core::{analyze, parse_document, Level, Settings, Status};
//!
//! # fn main() -> Result<(), ragtrace_core::ConfigError> {
//! // One dense trace: three hits with their L2 distances, two from the same document.
//! let text = r#"{
//!   "requestId": "r-1", "query": "reset a password", "mode": "dense",
//!   "relevanceLevel": "HIGHLY_RELEVANT",
//!   "candidates": [
//!     {"evidenceKey": "a#0", "docId": "a", "originalRank": 1, "score": 0.0625},
//!     {"evidenceKey": "a#1", "docId": "a", "originalRank": 2, "score": 0.30},
//!     {"evidenceKey": "b#0", "docId": "b", "originalRank": 3, "score": 0.60}
//!   ]
//! }"#;
//! let batch = parse_document("trace.json", text);
//! assert!(batch.errors.is_empty());
//!
//! // Under the defaults (maxL2Distance 1.0, preciseThreshold 0.9) the top quality is
//! // 1 - 0.0625 / 1.0 = 0.9375: PRECISE, although the service recorded HIGHLY_RELEVANT.
//! let analysis = analyze(&batch, &Settings::default(), false)?;
//! let trace = &analysis.traces[0];
//! assert_eq!(trace.relevance_level, Level::Precise);
//! assert!(trace.level_differs);
//!
//! // One block per document and a stricter distance: "a#1" is capped, and the top
//! // quality drops to 1 - 0.0625 / 0.5 = 0.875, below preciseThreshold.
//! let mut settings = Settings::default();
//! settings.set("maxChunksPerDocument", "1")?;
//! settings.set("maxL2Distance", "0.5")?;
//! let analysis = analyze(&batch, &settings, false)?;
//! let trace = &analysis.traces[0];
//! let statuses: Vec<(&str, Status)> = trace
//!     .blocks()
//!     .map(|block| (&*block.candidate.evidence_key, block.status))
//!     .collect();
//! assert_eq!(
//!     statuses,
//!     [("a#0", Status::Accepted), ("a#1", Status::DocCap), ("b#0", Status::Accepted)]
//! );
//! assert_eq!(trace.top_quality, Some(0.875));
//! assert_eq!(trace.relevance_level, Level::HighlyRelevant);
//! assert_eq!(analysis.summary.all.recomputed("HIGHLY_RELEVANT"), 1);
//! # Ok(())
//! # }
//! ```
//!
//! # Where to go next
//!
//! - The batch view: [`Analysis::summary`](Analysis), the threshold sweep
//!   (`analyze(.., true)`), [`BatchAnalyzer`] for streams in bounded memory, and
//!   [`Partial`] for shards that merge exactly.
//! - Golden cases: [`parse_cases`], [`evaluate_analysis`] ([`GoldenReport`]), TREC files
//!   ([`trec_qrels`], [`trec_run`]), and [`calibrate`] for the thresholds.
//! - Two runs or many: [`compare_runs`], [`compare_many`].
//! - What would it take: [`explain`], the least change of settings that flips each
//!   candidate, level and golden case, each confirmed by the pipeline.
//! - Settings: [`Settings`] (what the user set), [`Config`] (complete), [`SettingKey`]
//!   (every key with its kind and bounds).

#![warn(unreachable_pub)]

mod analysis;
mod baseline;
mod batch;
mod calibration;
mod config;
mod diagnostic;
mod explain;
mod fast_hash;
mod golden;
mod input;
mod input_errors;
mod label;
mod lanes;
mod legacy;
mod outcome;
mod partial;
mod pipeline;
mod quality;
mod render;
mod runs;
mod sample;
#[cfg(feature = "schema")]
mod schema;
mod score_kind;
mod stats;
mod trace_analysis;

// Reading traces.
pub use crate::diagnostic::{Diagnostic, InputError, InputErrorCode, Severity};
pub use crate::input::{
    load_other_readers, other_readers_missed, parse_document, parse_document_bytes,
    parse_documents, parse_trec_run, parse_value, read_batch, read_document, Candidate,
    DocumentReader, DocumentSummary, ParsedBatch, Rank, ReadError, Trace, TraceKind, READ_CHUNK,
};
pub use crate::input_errors::{omitted_total, OmittedInputErrors, INPUT_ERRORS_LISTED};
pub use crate::label::{canonical_label, classify_label, CanonicalLabel};
pub use crate::score_kind::{
    distance_as_score_text, l2_distance, score_from_distance, score_name, Converted,
};

// Settings.
pub use crate::config::{
    decode_component, encode_component, encode_settings, link_pairs, settings_from_pairs,
    settings_from_text, Config, ConfigError, HybridQuality, ScoreKind, SettingBounds, SettingKey,
    SettingKind, SettingValue, Settings,
};

// The analysis of a batch.
pub use crate::analysis::{analyze, read_and_analyze, Analysis, BatchAnalyzer, BatchView};
pub use crate::batch::{
    BatchWarning, ByMode, ModeSummary, Summary, SweepCounts, SweepPoint, SweepScopes, SCOPES,
};
pub use crate::legacy::{LegacyComparison, LegacyPlace, LegacySummary};
pub use crate::outcome::{Level, Outcome};
pub use crate::pipeline::{Decision, Excerpt, Status, StatusReason};
pub use crate::quality::{
    distance_at_quality, quality_floor_as_score_text, quality_score, Quality, QualityBasis,
};
pub use crate::trace_analysis::{AcceptedLists, Block, EvidenceComparison, Stages, TraceAnalysis};

// A batch analysed in parts (shards) whose counts merge exactly.
pub use crate::partial::{
    CaseMatches, CaseMatchesBuilder, DecodeError, MergeError, Partial, PartialBuilder,
    PARTIAL_FORMAT_VERSION, PARTIAL_MAGIC,
};

// What would it take: the least change of settings that flips each candidate,
// level, low-quality flag and golden case.
pub use crate::explain::{
    explain, explain_analysis, explain_golden_cases, explain_markdown, explain_one,
    explain_summary_text, CandidateExplanation, CandidateList, CaseExplanation, Cause, Change,
    ChangeImpact, ChangedSetting, ExplainSummary, Explanation, FoundIf, LevelIf, LowQualityIf,
    SetIf, SetIfList, TraceExplanation,
};

// The same batch under pinned settings (`eval --baseline`'s page counterpart).
pub use crate::baseline::{
    block_changes, level_changes, same_batch, BlockChange, DifferentBatches, LevelChange,
};

// Golden cases: evaluation, the metrics table, report.md, TREC files.
pub use crate::golden::{
    batch_floor_sweep, BatchFloorPoint, BatchFloorSweep, FloorPoint, FloorSweep, SuggestedFloors,
    FLOOR_POINTS, FLOOR_RECALL_TOLERANCE,
};
pub use crate::golden::{
    case_metrics, evaluate_analysis, evaluate_runs, evaluate_runs_graded,
    evaluate_with_floor_sweep, floor_sweep_of, golden_markdown, golden_summary_text, md_cell,
    normalize_query, parse_cases, parse_cases_value, ranking_metrics, trec_qrels, trec_run,
    CaseMetrics, CaseReport, CaseSet, GoldenCase, GoldenLevel, GoldenReport, GoldenSummary,
    Judgments, LevelCounts, LinkedBy, RankingMetrics, RunBlock, RunTrace, TREC_RUN_TAG,
};
pub use crate::golden::{Metric, MetricValues, DELTA_METRICS, METRIC_LABELS};
// A case's judged documents and grades, as the metrics read them (what the page lists).
pub use crate::golden::judged_docs;

// Calibration of the levels and the gate against golden cases.
pub use crate::calibration::{
    calibrate, calibrate_against_baseline, calibrate_evaluated, calibrate_linked,
    calibrate_with_floor_sweep, calibration_links, calibration_markdown, calibration_summary_text,
    top_quality_histogram, Calibration, CalibrationComparison, CaseLinks, CurveStatus, FoundSplit,
    GateCurve, GateScopes, HistogramBin, LevelRow, LevelTable, OutcomeCounts, RocPoint,
    SettingChange, Suggestion, ThresholdPoint, TopQualityHistogram, Unlinked, UnlinkedCase,
};

// Two runs side by side, and golden deltas between two evaluations.
pub use crate::runs::{
    add_significance, baseline_changes_markdown, baseline_changes_text, baseline_scores,
    case_scores, compare_batches, compare_golden, compare_markdown, compare_paired, compare_report,
    compare_runs, compare_summary_text, golden_gate, pair_detail, pair_runs, recompare_paired,
    AcceptedItem, BaselineError, CaseDelta, CaseScore, CompareOptions, CompareReport,
    ConfigDifference, Distribution, FailOn, GoldenComparison, GroupSummary, Link, MetricSummary,
    ModePair, OnlyOneSide, PairComparison, PairDetail, PairedBy, Pairing, ReportWithComparison,
    RunComparison, RunSizes, Significance, SignificanceOptions, UnpairedTrace, ValuePair,
};

// Many runs of the same queries at once: means, intervals, randomised Tukey HSD, letters.
pub use crate::runs::{
    check_many_batches, check_run_names, compact_letters, compare_many, compare_many_batches,
    many_runs_gate, many_runs_markdown, many_runs_summary_text, ManyRunCases, ManyRunComparison,
    ManyRunError, ManyRunMetric, ManyRunOptions, ManyRunSignificance, ManyRunTable, ManyRunTest,
    PartialCase, RandomisedTukey, TukeyHsd, MANY_RUNS_VERSION, MOST_RUNS,
};

// Statistics the comparisons use, for checking them against references.
pub use crate::stats::{
    bootstrap_mean_intervals, holm, jaccard, kendall_tau_b, overlap_count, paired_t_test, rbo,
    sign_flip_p_values, BootstrapMeans, Rbo, SplitMix64, TTest, BOOTSTRAP_SEED, PERMUTATION_SEED,
};

// The outputs' JSON Schemas (feature `schema`).
#[cfg(feature = "schema")]
pub use crate::schema::{output_schema, OUTPUT_SCHEMAS};

// Generated traces and cases: the page's sample, benchmarks and tests.
pub use crate::sample::{
    generate_batch, generate_batch_lines, generate_cases, generate_many_runs, generate_paired_runs,
    generate_real_batch_lines, generate_real_otlp_cosine_lines, generate_real_otlp_lines,
};
