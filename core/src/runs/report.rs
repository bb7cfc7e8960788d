//! `compare.json`: the comparison with every pair's detail and the golden deltas.

use super::detail::{pair_detail, PairDetail};
use super::golden_delta;
use super::paired::{compare_runs, CompareOptions, GroupSummary, RunComparison};
use super::pairing::{Pairing, UnpairedTrace};
use crate::analysis::Analysis;
use serde::Serialize;

/// `compare.json`: the comparison with every pair's detail, and the golden deltas when
/// cases were given.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct CompareReport {
    /// The shape of this object; raised when a key changes meaning.
    pub version: u32,
    pub options: CompareOptions,
    /// The settings both runs were analysed under (defaults plus the user's settings).
    pub config: crate::config::Config,
    pub runs: RunSizes,
    pub groups: Vec<GroupSummary>,
    pub pairs: Vec<PairDetail>,
    pub unpaired_a: Vec<UnpairedTrace>,
    pub unpaired_b: Vec<UnpairedTrace>,
    pub b_kept_none: Vec<usize>,
    pub warnings: Vec<String>,
    pub no_common_query: Option<String>,
    pub golden: Option<golden_delta::GoldenComparison>,
}

/// Trace counts of the two runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct RunSizes {
    pub traces_a: usize,
    pub traces_b: usize,
    pub pairs: usize,
}

/// The version written in `compare.json`.
pub(super) const COMPARE_VERSION: u32 = 1;

/// Builds `compare.json` from a comparison (and the golden deltas, if any).
pub fn compare_report(
    a: &Analysis,
    b: &Analysis,
    pairing: &Pairing,
    comparison: &RunComparison,
    golden: Option<golden_delta::GoldenComparison>,
) -> CompareReport {
    CompareReport {
        version: COMPARE_VERSION,
        options: comparison.options,
        config: a.config,
        runs: RunSizes {
            traces_a: a.traces.len(),
            traces_b: b.traces.len(),
            pairs: comparison.pairs.len(),
        },
        groups: comparison.groups.clone(),
        pairs: comparison
            .pairs
            .iter()
            .filter_map(|p| pair_detail(a, b, p))
            .collect(),
        unpaired_a: pairing.unpaired_a.clone(),
        unpaired_b: pairing.unpaired_b.clone(),
        b_kept_none: comparison.b_kept_none.clone(),
        warnings: pairing.warnings.clone(),
        no_common_query: pairing.no_common_query.clone(),
        golden,
    }
}

/// Everything `compare.json` holds for two parsed runs: both analysed under the same
/// `settings` (each trace with its own options), paired and compared, and, given
/// `cases`, both evaluated against them with the golden deltas and their significance
/// (default seeds). The one entry point of the CLI's `compare` and the JS API's
/// `compareRuns`, so both report the same numbers. `Err` when the settings are invalid.
pub fn compare_batches(
    a: &crate::input::ParsedBatch,
    b: &crate::input::ParsedBatch,
    settings: &crate::config::Settings,
    cases: Option<&crate::golden::CaseSet>,
    options: &CompareOptions,
) -> Result<CompareReport, crate::config::ConfigError> {
    let analysis_a = crate::analysis::analyze(a, settings, false)?;
    let analysis_b = crate::analysis::analyze(b, settings, false)?;
    let (pairing, comparison) = compare_runs(&analysis_a, &analysis_b, options);
    let golden = cases.map(|cases| {
        let scores = |analysis: &Analysis| {
            golden_delta::case_scores(&crate::golden::evaluate_analysis(cases, analysis))
        };
        let mut delta = golden_delta::compare_golden(&scores(&analysis_a), &scores(&analysis_b));
        golden_delta::add_significance(&mut delta, &golden_delta::SignificanceOptions::default());
        delta
    });
    Ok(compare_report(
        &analysis_a,
        &analysis_b,
        &pairing,
        &comparison,
        golden,
    ))
}
