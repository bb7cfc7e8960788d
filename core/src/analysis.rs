//! The `analyze` output of contract section 7: every trace under the user's settings,
//! and what the batch view (section 4) counts over them. The top of the core: it
//! uses the per-trace analysis and the batch counts, and nothing uses it but callers.

use crate::batch::{
    BatchWarning, Summary, SummaryBuilder, SweepPoint, SweepScopes, WarningsBuilder,
};
use crate::config::{Config, ConfigError, Settings};
use crate::diagnostic::InputError;
use crate::input::{read_document, DocumentSummary, ParsedBatch, ReadError, Trace};
use crate::input_errors::{keep_all, OmittedInputErrors};
use crate::trace_analysis::{
    analyze_trace, reanalyze_trace, AcceptedLists, Scratch, TraceAnalysis,
};
use serde::Serialize;
use std::convert::Infallible;
use std::io::Read;
use std::sync::Arc;

/// The whole analysis of a batch under one set of user settings.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Analysis {
    /// Defaults plus the user's settings.
    pub config: Config,
    pub traces: Vec<TraceAnalysis>,
    pub summary: Summary,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "Vec<SweepPoint>"))]
    pub sweep: Option<Vec<SweepPoint>>,
    /// What the sweep counts per scope (batch, dense, hybrid), when the sweep was asked
    /// for (else empty); `sweep` is `sweep_counts.all` as points. Not part of the JSON
    /// output.
    #[serde(skip)]
    pub sweep_counts: SweepScopes,
    /// Notable findings across the batch, one entry per diagnostic code.
    pub warnings: Vec<BatchWarning>,
    /// Documents or traces that could not be read: the first
    /// [`INPUT_ERRORS_LISTED`](crate::INPUT_ERRORS_LISTED).
    pub input_errors: Vec<InputError>,
    /// Input errors after the first [`INPUT_ERRORS_LISTED`](crate::INPUT_ERRORS_LISTED),
    /// counted by code (`{"malformed-json": 1999000}`); absent when every one is listed.
    #[serde(skip_serializing_if = "OmittedInputErrors::is_empty")]
    pub input_errors_omitted: OmittedInputErrors,
    pub documents: Vec<DocumentSummary>,
    /// The user's settings it was made under (`config` is the defaults plus these).
    #[serde(skip)]
    pub settings: Settings,
}

/// Analyses a batch; `Err` only when the user's settings are invalid (nothing is computed then).
///
/// Cheap to call again with new settings: nothing is re-parsed. Cheaper still with
/// [`Analysis::reanalyze`], which redoes only what the new settings change.
pub fn analyze(
    batch: &ParsedBatch,
    settings: &Settings,
    with_sweep: bool,
) -> Result<Analysis, ConfigError> {
    let mut analyzer = BatchAnalyzer::new(settings, with_sweep)?;
    let traces = batch
        .traces
        .iter()
        .map(|trace| analyzer.analyze_trace(trace))
        .collect();
    Ok(analyzer.into_analysis(traces, batch))
}

/// Reads the document named `source` from `input` and analyses each part as it is
/// read, while it is still in cache: equal to [`analyze`] of
/// [`read_batch`](crate::input::read_batch)'s batch, without holding the parsed
/// batch and the analysis apart. The outer `Err` when the input cannot be read, the
/// inner one when the settings are invalid (nothing is read then).
pub fn read_and_analyze(
    source: &str,
    input: impl Read,
    settings: &Settings,
    with_sweep: bool,
) -> std::io::Result<Result<Analysis, ConfigError>> {
    let mut analyzer = match BatchAnalyzer::new(settings, with_sweep) {
        Ok(analyzer) => analyzer,
        Err(err) => return Ok(Err(err)),
    };
    let mut traces = Vec::new();
    let read = read_document(source, input, |part| {
        analyzer.analyze_part(part, |trace| traces.push(trace));
        Ok::<(), Infallible>(())
    });
    match read {
        Ok(()) => Ok(Ok(analyzer.into_analysis_of_parts(traces))),
        Err(ReadError::Input(err)) => Err(err),
        Err(ReadError::Part(never)) => match never {},
    }
}

impl Analysis {
    /// The accepted lists of this analysis: compare them with an earlier analysis's to
    /// know whether its golden evaluation still holds (see [`AcceptedLists`]).
    pub fn accepted_lists(&self) -> AcceptedLists {
        AcceptedLists::of(&self.traces)
    }

    /// The same batch under new settings: equal to `analyze(batch, settings, with_sweep)`
    /// (with the sweep when this analysis has one), but each trace redoes only the
    /// stages the change reaches (a threshold re-levels it without deciding a block
    /// again; `maxL2Distance` recomputes the qualities computed from a distance;
    /// `returnN` and the per-document cap decide again). `batch` must be the one this
    /// analysis was made from; any other is analysed in full. `Err` only when the
    /// settings are invalid.
    pub fn reanalyze(
        &self,
        batch: &ParsedBatch,
        settings: &Settings,
    ) -> Result<Analysis, ConfigError> {
        let with_sweep = self.sweep.is_some();
        if !self.is_of(batch) {
            return analyze(batch, settings, with_sweep);
        }
        let mut analyzer = BatchAnalyzer::new(settings, with_sweep)?;
        let traces = self
            .traces
            .iter()
            .map(|previous| analyzer.reanalyze_trace(previous, &self.settings))
            .collect();
        Ok(analyzer.into_analysis(traces, batch))
    }

    /// Whether this analysis is of `batch`'s very traces (the same allocations).
    pub fn is_of(&self, batch: &ParsedBatch) -> bool {
        self.traces.len() == batch.traces.len()
            && self
                .traces
                .iter()
                .zip(&batch.traces)
                .all(|(t, trace)| Arc::ptr_eq(&t.trace, trace))
    }
}

/// Everything of an [`Analysis`] but its traces: what `ragtrace analyze --summary`
/// prints, and the last line of `--format jsonl`. Serialises with the keys of
/// `Analysis` in the same order, `traces` left out.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct BatchView {
    pub config: Config,
    pub summary: Summary,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "Vec<SweepPoint>"))]
    pub sweep: Option<Vec<SweepPoint>>,
    #[serde(skip)]
    pub sweep_counts: SweepScopes,
    pub warnings: Vec<BatchWarning>,
    pub input_errors: Vec<InputError>,
    /// Input errors after the first [`INPUT_ERRORS_LISTED`](crate::INPUT_ERRORS_LISTED),
    /// counted by code (`{"malformed-json": 1999000}`); absent when every one is listed.
    #[serde(skip_serializing_if = "OmittedInputErrors::is_empty")]
    pub input_errors_omitted: OmittedInputErrors,
    pub documents: Vec<DocumentSummary>,
}

/// The counts of a [`BatchAnalyzer`], before they are finished into a [`BatchView`].
#[derive(Debug)]
pub(crate) struct BatchCounts {
    pub(crate) summary: SummaryBuilder,
    pub(crate) warnings: WarningsBuilder,
    pub(crate) sweep_counts: SweepScopes,
    pub(crate) input_errors: Vec<InputError>,
    pub(crate) input_errors_omitted: OmittedInputErrors,
    /// Trace positions handed out (analysed traces and failed ones).
    pub(crate) slots: usize,
}

/// Analyses traces one at a time and counts the batch view as they pass, so a caller
/// can drop each trace's analysis once it has used it (memory bounded by one part,
/// not by the batch). [`analyze`] is this over a whole batch.
#[derive(Debug)]
pub struct BatchAnalyzer {
    settings: Settings,
    config: Config,
    with_sweep: bool,
    scratch: Scratch,
    summary: SummaryBuilder,
    warnings: WarningsBuilder,
    sweep_counts: SweepScopes,
    input_errors: Vec<InputError>,
    input_errors_omitted: OmittedInputErrors,
    documents: Vec<DocumentSummary>,
    /// Trace positions handed out by the parts so far.
    slots: usize,
}

impl BatchAnalyzer {
    /// `Err` only when the user's settings are invalid.
    pub fn new(settings: &Settings, with_sweep: bool) -> Result<Self, ConfigError> {
        Ok(BatchAnalyzer {
            settings: settings.clone(),
            config: Config::from_settings(settings)?,
            with_sweep,
            scratch: Scratch::default(),
            summary: SummaryBuilder::default(),
            warnings: WarningsBuilder::default(),
            sweep_counts: SweepScopes::default(),
            input_errors: Vec::new(),
            input_errors_omitted: OmittedInputErrors::new(),
            documents: Vec::new(),
            slots: 0,
        })
    }

    /// Defaults plus the user's settings.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// One trace under the settings, counted in the batch view.
    pub fn analyze_trace(&mut self, trace: &Arc<Trace>) -> TraceAnalysis {
        let t = analyze_trace(trace, &self.settings, &self.config, &mut self.scratch);
        self.count(&t);
        t
    }

    /// `previous`'s trace under the settings, counted in the batch view.
    fn reanalyze_trace(&mut self, previous: &TraceAnalysis, before: &Settings) -> TraceAnalysis {
        let t = reanalyze_trace(
            previous,
            before,
            &self.settings,
            &self.config,
            &mut self.scratch,
        );
        self.count(&t);
        t
    }

    /// Counted now, while the trace is in cache, rather than in later passes over all.
    fn count(&mut self, t: &TraceAnalysis) {
        self.summary.add(t);
        self.warnings.add(t);
        if self.with_sweep {
            self.sweep_counts.add(t);
        }
    }

    /// The next part of the batch (a document, or what a
    /// [`DocumentReader`](crate::input::DocumentReader) read so far): its traces'
    /// positions continue the parts before, each analysis is handed to `each`, and its
    /// input errors and document summaries are kept for the view.
    pub fn analyze_part(&mut self, mut part: ParsedBatch, mut each: impl FnMut(TraceAnalysis)) {
        part.shift_positions(self.slots);
        self.slots += part.slots;
        for trace in &part.traces {
            each(self.analyze_trace(trace));
        }
        keep_all(
            &mut self.input_errors,
            &mut self.input_errors_omitted,
            part.errors,
            part.errors_omitted,
        );
        self.documents.append(&mut part.documents);
    }

    /// Input errors of the parts so far: the first
    /// [`INPUT_ERRORS_LISTED`](crate::INPUT_ERRORS_LISTED).
    pub fn input_errors(&self) -> &[InputError] {
        &self.input_errors
    }

    /// Input errors of the parts so far after the listed ones, counted by code.
    pub fn input_errors_omitted(&self) -> &OmittedInputErrors {
        &self.input_errors_omitted
    }

    /// The whole batch's analysis: `traces`, every trace of `batch` as this analyzer
    /// analysed them (with [`analyze_trace`](Self::analyze_trace)), in order. What
    /// [`analyze`] does after its loop: a caller that must not block (the page, on a
    /// large file) runs the loop in pieces and finishes with this.
    pub fn into_analysis(mut self, traces: Vec<TraceAnalysis>, batch: &ParsedBatch) -> Analysis {
        self.input_errors = batch.errors.clone();
        self.input_errors_omitted = batch.errors_omitted.clone();
        self.documents = batch.documents.clone();
        self.into_analysis_of_parts(traces)
    }

    /// The whole analysis of the parts analysed so far (with
    /// [`analyze_part`](Self::analyze_part)): `traces`, every analysis it handed out,
    /// in order.
    pub fn into_analysis_of_parts(self, traces: Vec<TraceAnalysis>) -> Analysis {
        let settings = self.settings.clone();
        let view = self.finish();
        Analysis {
            config: view.config,
            traces,
            summary: view.summary,
            sweep: view.sweep,
            sweep_counts: view.sweep_counts,
            warnings: view.warnings,
            input_errors: view.input_errors,
            input_errors_omitted: view.input_errors_omitted,
            documents: view.documents,
            settings,
        }
    }

    /// What the analyzer counted, as parts to merge with other analyzers' (a
    /// [`Partial`](crate::Partial) is made of them).
    pub(crate) fn into_counts(self) -> BatchCounts {
        BatchCounts {
            summary: self.summary,
            warnings: self.warnings,
            sweep_counts: self.sweep_counts,
            input_errors: self.input_errors,
            input_errors_omitted: self.input_errors_omitted,
            slots: self.slots,
        }
    }

    /// The batch view over every trace analysed.
    pub fn finish(self) -> BatchView {
        let summary = self.summary.finish();
        let mut warnings = self.warnings.finish(&summary.all);
        warnings.extend(self.summary.score_fit.warnings(self.config.score_kind));
        BatchView {
            config: self.config,
            warnings,
            summary,
            sweep: self.with_sweep.then(|| self.sweep_counts.all.points()),
            sweep_counts: self.sweep_counts,
            input_errors: self.input_errors,
            input_errors_omitted: self.input_errors_omitted,
            documents: self.documents,
        }
    }
}
