//! Offline golden-set evaluation (contract section 6).
//!
//! Everything here is a pure function over plain data and independent of the
//! per-trace pipeline: the caller turns each analysed trace into a
//! [`RunTrace`] (its accepted blocks in `acceptedRank` order) and passes the
//! cases parsed by [`parse_cases`]. That keeps the evaluator testable on
//! hand-computed vectors and lets the CLI, the wasm API and the page share it.

mod cases;
mod evaluate;
mod floor_sweep;
mod judgment_scan;
mod metric;
mod metrics;
mod qrels;
mod relevance;
mod render;
mod report;
mod text;
mod trec;

pub use cases::{parse_cases, parse_cases_value, CaseSet, GoldenCase, Judgments};
pub use evaluate::{
    evaluate_analysis, evaluate_runs, evaluate_runs_graded, evaluate_with_floor_sweep,
    floor_sweep_of, ranking_metrics, RankingMetrics, RunBlock, RunTrace,
};
pub(crate) use evaluate::{
    evaluate_case, evaluate_runs_with_steps, link_cases_by_keys, HitProbe, HitScratch, RunView,
};
pub use floor_sweep::{
    batch_floor_sweep, BatchFloorPoint, BatchFloorSweep, FLOOR_POINTS, FLOOR_RECALL_TOLERANCE,
};
pub(crate) use floor_sweep::{floor_sweep, floor_sweep_line, floor_sweep_table, TraceSteps};
pub use metric::{Metric, MetricValues, DELTA_METRICS, METRIC_LABELS};
pub use metrics::{case_metrics, CaseMetrics};
pub use relevance::judged_docs;
pub use render::{golden_markdown, golden_summary_text, md_cell};
pub use report::{
    CaseReport, FloorPoint, FloorSweep, GoldenLevel, GoldenReport, GoldenSummary, LevelCounts,
    LinkedBy, SuggestedFloors,
};
pub use text::normalize_query;
pub use trec::{trec_qrels, trec_run, TREC_RUN_TAG};
