//! `report.json`'s shape: the golden levels, the summary and each case's verdict.

use super::cases::Judgments;
use crate::diagnostic::{Diagnostic, Severity};
use serde::Serialize;
use serde_json::Value;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum GoldenLevel {
    Strong,
    Medium,
    Weak,
    Miss,
}

impl GoldenLevel {
    /// Every golden level, best first (also `GoldenLevel as usize` order).
    pub const ALL: [GoldenLevel; 4] = [
        GoldenLevel::Strong,
        GoldenLevel::Medium,
        GoldenLevel::Weak,
        GoldenLevel::Miss,
    ];

    /// The level's position in [`GoldenLevel::ALL`] (0 = best).
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn as_str(self) -> &'static str {
        match self {
            GoldenLevel::Strong => "strong",
            GoldenLevel::Medium => "medium",
            GoldenLevel::Weak => "weak",
            GoldenLevel::Miss => "miss",
        }
    }
}

/// How a case found its trace.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum LinkedBy {
    #[serde(rename = "caseId")]
    CaseId,
    #[serde(rename = "query")]
    Query,
}

/// `report.json` (contract section 6), plus `unlinkedTraces` and `diagnostics`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct GoldenReport {
    /// The effective configuration; `evaluate` leaves an empty object for the
    /// caller to fill (the evaluator does not know the configuration type); every
    /// shell fills it with the [`Config`](crate::config::Config) it evaluated under.
    #[cfg_attr(feature = "schema", schemars(with = "crate::config::Config"))]
    pub config: Value,
    pub summary: GoldenSummary,
    pub cases: Vec<CaseReport>,
    /// Names of the traces no case linked to, in batch order.
    pub unlinked_traces: Vec<String>,
    /// Findings about the cases file; `evaluate` leaves it empty for the
    /// caller to fill with [`CaseSet::diagnostics`](crate::CaseSet::diagnostics) (and its own findings).
    pub diagnostics: Vec<Diagnostic>,
    /// Recall, blocks and `NO_MATCH` traces against each score floor (contract section
    /// 10.2): in report.json ([`evaluate_with_floor_sweep`](super::evaluate_with_floor_sweep)),
    /// absent from the evaluations the page and the comparisons make on every knob move,
    /// and from a report evaluated from runs alone (they carry no qualities).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "FloorSweep"))]
    pub floor_sweep: Option<FloorSweep>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct GoldenSummary {
    pub cases: usize,
    pub levels: LevelCounts,
    pub mean_recall: f64,
    pub mean_precision: f64,
    pub mean_reciprocal_rank: f64,
    pub mean_ndcg: f64,
    /// MAP@k over all cases (contract section 12.2).
    pub mean_average_precision: f64,
}

/// Always all four keys, zero included, so a reader can index it blindly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct LevelCounts {
    pub strong: usize,
    pub medium: usize,
    pub weak: usize,
    pub miss: usize,
}

impl LevelCounts {
    pub fn get(&self, level: GoldenLevel) -> usize {
        match level {
            GoldenLevel::Strong => self.strong,
            GoldenLevel::Medium => self.medium,
            GoldenLevel::Weak => self.weak,
            GoldenLevel::Miss => self.miss,
        }
    }
}

/// One case's verdict and the evidence behind it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct CaseReport {
    pub case_id: String,
    pub query: Option<String>,
    pub trace_name: Option<String>,
    /// Extra: `caseId` or `query`; null without a trace.
    pub linked_by: Option<LinkedBy>,
    pub level: GoldenLevel,
    pub doc_hit: bool,
    pub breadcrumb_hit: bool,
    pub coverage: Option<f64>,
    /// Extra: the evidence half of the level rule.
    pub evidence_hit: bool,
    /// Distinct docIds of the accepted blocks, each at its first position.
    pub doc_ranking: Vec<String>,
    /// Expected documents that were retrieved, in ranking order.
    pub matched_doc_ids: Vec<String>,
    /// Expected breadcrumbs (as written in the cases file) some block contains.
    pub matched_breadcrumbs: Vec<String>,
    /// Expected keywords (as written) found in the blocks' text.
    pub matched_keywords: Vec<String>,
    /// Extra: the relevant set (deduplicated, file order); what the qrels hold.
    pub expected_doc_ids: Vec<String>,
    /// Extra: expected documents never retrieved.
    pub missing_doc_ids: Vec<String>,
    /// Extra: retrieved documents this case does not expect, in ranking order.
    pub unexpected_doc_ids: Vec<String>,
    /// Extra: expected keywords not found.
    pub missing_keywords: Vec<String>,
    pub k: usize,
    pub recall: f64,
    pub precision: f64,
    pub reciprocal_rank: f64,
    pub ndcg: f64,
    /// Average precision cut at k (MAP@k's per-case value, contract section 12.2).
    pub average_precision: f64,
    /// Why the numbers look the way they do, when that is not obvious.
    pub note: Option<String>,
    /// Extra: the case's own `notes` from the cases file.
    pub notes: Option<String>,
    /// The case's graded judgments, as read (contract section 12.2); absent when the
    /// cases file gives none.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "Judgments"))]
    pub judgments: Option<Judgments>,
}

impl GoldenReport {
    /// Sets the configuration echoed in `report.json`.
    pub fn with_config(mut self, config: Value) -> Self {
        self.config = config;
        self
    }

    /// Adds findings (typically [`CaseSet::diagnostics`](crate::CaseSet::diagnostics)) to the report.
    pub fn with_diagnostics(mut self, diagnostics: impl IntoIterator<Item = Diagnostic>) -> Self {
        self.diagnostics.extend(diagnostics);
        self
    }

    /// True when a finding of error severity is attached.
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }
}

/// `floorSweep` of report.json and calibration.json.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct FloorSweep {
    /// `minQuality` at each t, `relativeQuality` at its current value.
    pub min_quality: Vec<FloorPoint>,
    /// `relativeQuality` at each t, `minQuality` at its current value.
    pub relative_quality: Vec<FloorPoint>,
    pub suggested: SuggestedFloors,
}

/// One floor of a sweep.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct FloorPoint {
    pub floor: f64,
    /// Mean recall@k over all cases (a case without a trace counts 0).
    pub mean_recall: f64,
    /// Mean accepted blocks per linked trace (each trace once); 0 without one.
    pub mean_blocks: f64,
    /// Linked traces left with no accepted block.
    pub no_match: usize,
}

/// The largest floor of each kind whose mean recall@k is at least that at a floor of 0
/// minus [`FLOOR_RECALL_TOLERANCE`](super::FLOOR_RECALL_TOLERANCE).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct SuggestedFloors {
    pub min_quality: f64,
    pub relative_quality: f64,
}
