//! `analyze`: the batch analysis of `ragtrace analyze --sweep`, kept in Rust behind a
//! handle so a caller converts only what it reads.

use crate::source;
use crate::to_py::to_py;
use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use pyo3::types::PyList;
use ragtrace_core::CanonicalLabel;
use ragtrace_core::{Level, TraceAnalysis};
use serde::Serialize;

/// The analysis of a batch under one set of settings. Each method converts one part
/// of the object `ragtrace analyze --sweep` prints; `to_dict()` converts all of it.
#[pyclass(module = "ragtrace", frozen)]
pub struct Analysis {
    inner: ragtrace_core::Analysis,
}

/// One trace as a flat row, for `pandas.DataFrame(analysis.rows())`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Row<'a> {
    name: std::borrow::Cow<'a, str>,
    request_id: Option<&'a str>,
    mode: Option<CanonicalLabel>,
    relevance_level: Level,
    recorded_relevance_level: Option<&'a str>,
    top_quality: Option<f64>,
    candidates: usize,
    accepted: usize,
    low_quality: bool,
    retry_unfiltered: bool,
    level_differs: bool,
    low_quality_differs: bool,
    low_quality_gate_inert: bool,
    source: &'a str,
    line: Option<usize>,
}

impl<'a> Row<'a> {
    fn of(t: &'a TraceAnalysis) -> Self {
        Row {
            name: t.name(),
            request_id: t.trace.request_id.as_deref(),
            mode: t.mode(),
            relevance_level: t.relevance_level,
            recorded_relevance_level: t.trace.recorded_relevance_level.as_deref(),
            top_quality: t.top_quality,
            candidates: t.stages.candidates,
            accepted: t.stages.accepted,
            low_quality: t.low_quality,
            retry_unfiltered: t.retry_unfiltered,
            level_differs: t.level_differs,
            low_quality_differs: t.low_quality_differs,
            low_quality_gate_inert: t.low_quality_gate_inert,
            source: &t.trace.source,
            line: t.trace.line,
        }
    }
}

/// Traces from which an analysis is freed on a thread of its own: freeing a batch of
/// real-shaped traces (their chunk texts) takes about a tenth of reading it, which
/// the caller need not wait for; below this, starting the thread costs more.
const FREED_ELSEWHERE_FROM: usize = 1_000;

impl Drop for Analysis {
    fn drop(&mut self) {
        if self.inner.traces.len() < FREED_ELSEWHERE_FROM {
            return;
        }
        let traces = std::mem::take(&mut self.inner.traces);
        // Should no thread start, the closure and the traces are freed here.
        let _ = std::thread::Builder::new()
            .name("ragtrace-free".to_owned())
            .spawn(move || drop(traces));
    }
}

/// Python's reading of `index` into a sequence of `len` (negative counts from the end).
fn position(index: isize, len: usize) -> Option<usize> {
    if index < 0 {
        len.checked_sub(index.unsigned_abs())
    } else {
        Some(index.unsigned_abs()).filter(|&i| i < len)
    }
}

#[pymethods]
impl Analysis {
    /// Number of traces analysed.
    fn __len__(&self) -> usize {
        self.inner.traces.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "<ragtrace.Analysis of {} traces, {} input errors>",
            self.inner.traces.len(),
            self.inner
                .input_errors
                .len()
                .saturating_add(ragtrace_core::omitted_total(
                    &self.inner.input_errors_omitted
                ))
        )
    }

    /// The batch summary: level counts, transitions, split by mode.
    fn summary<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.inner.summary)
    }

    /// Every trace's analysis, or those of `traces[start:stop]`.
    #[pyo3(signature = (start=None, stop=None))]
    fn traces<'py>(
        &self,
        py: Python<'py>,
        start: Option<isize>,
        stop: Option<isize>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let len = self.inner.traces.len();
        let bound = |at: Option<isize>, absent: usize| match at {
            None => absent,
            Some(at) if at < 0 => len.saturating_sub(at.unsigned_abs()),
            Some(at) => at.unsigned_abs().min(len),
        };
        let from = bound(start, 0);
        let to = bound(stop, len).max(from);
        to_py(py, &self.inner.traces[from..to])
    }

    /// One trace's analysis (negative indices count from the end).
    fn trace<'py>(&self, py: Python<'py>, index: isize) -> PyResult<Bound<'py, PyAny>> {
        let len = self.inner.traces.len();
        let at = position(index, len).ok_or_else(|| {
            PyIndexError::new_err(format!("trace index {index} out of range ({len} traces)"))
        })?;
        to_py(py, &self.inner.traces[at])
    }

    /// One flat dict per trace: name, requestId, mode, levels, top quality, counts
    /// and flags.
    fn rows<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let rows = self
            .inner
            .traces
            .iter()
            .map(|t| to_py(py, &Row::of(t)))
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, rows)
    }

    /// The effective configuration: defaults plus the user's settings.
    fn config<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.inner.config)
    }

    /// Fraction of traces at or above each quality threshold 0, 0.01, ..., 1 (empty
    /// without the sweep).
    fn sweep<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, self.inner.sweep.as_deref().unwrap_or_default())
    }

    /// Notable findings across the batch, one entry per diagnostic code.
    fn warnings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.inner.warnings)
    }

    /// Documents or lines that could not be read: the first 1,000.
    fn input_errors<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.inner.input_errors)
    }

    /// Input errors after the first 1,000, counted by code (empty when all are listed).
    fn input_errors_omitted<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.inner.input_errors_omitted)
    }

    /// What each document contributed.
    fn documents<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.inner.documents)
    }

    /// The whole object, as `ragtrace analyze --sweep` prints it (without `sweep`
    /// when analysed with `sweep=False`, as `ragtrace analyze` prints it).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.inner)
    }
}

/// `analyze(source, config=None, *, sweep=True)`.
#[pyfunction]
#[pyo3(signature = (source, config=None, *, sweep=true))]
pub(crate) fn analyze(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    config: Option<&Bound<'_, PyAny>>,
    sweep: bool,
) -> PyResult<Analysis> {
    let settings = source::settings(py, config)?;
    source::config_of(py, &settings)?;
    let inner = source::analysis(py, source, "input", &settings, sweep)?;
    Ok(Analysis { inner })
}
