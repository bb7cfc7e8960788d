//! The `analyze` output of contract section 7: every trace under the user's settings,
//! and what the batch view (section 4) counts over them. The top of the core: it
//! uses the per-trace analysis and the batch counts, and nothing uses it but callers.

use crate::batch::{
    BatchWarning, Summary, SummaryBuilder, SweepPoint, SweepScopes, WarningsBuilder,
};
use crate::config::{Config, ConfigError, Settings};
use crate::diagnostic::InputError;
use crate::input::{DocumentSummary, ParsedBatch};
use crate::trace_analysis::{analyze_trace, Scratch, TraceAnalysis};
use serde::Serialize;

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
    /// What the sweep counts per scope (batch, dense, hybrid), when the sweep was asked
    /// for (else empty); `sweep` is `sweep_counts.all` as points. Not part of the JSON
    /// output.
    #[serde(skip)]
    pub sweep_counts: SweepScopes,
    /// Notable findings across the batch, one entry per diagnostic code.
    pub warnings: Vec<BatchWarning>,
    /// Documents or traces that could not be read.
    pub input_errors: Vec<InputError>,
    pub documents: Vec<DocumentSummary>,
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
    let mut summary = SummaryBuilder::default();
    let mut warnings = WarningsBuilder::default();
    let mut sweep_counts = SweepScopes::default();
    let mut traces = Vec::with_capacity(batch.traces.len());
    for trace in &batch.traces {
        let t = analyze_trace(trace, settings, &global, &mut scratch);
        // Counted now, while the trace is in cache, rather than in later passes over all.
        summary.add(&t);
        warnings.add(&t);
        if with_sweep {
            sweep_counts.add(&t);
        }
        traces.push(t);
    }
    let summary = summary.finish();
    let sweep = with_sweep.then(|| sweep_counts.all.points());
    let warnings = warnings.finish();
    Ok(Analysis {
        config: global,
        traces,
        summary,
        sweep,
        sweep_counts,
        warnings,
        input_errors: batch.errors.clone(),
        documents: batch.documents.clone(),
    })
}
