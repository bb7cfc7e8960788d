//! One candidate at a time, and the settings: `default_config`, `canonical_label`,
//! `quality_score` (contract sections 2 and 3).

use crate::source;
use crate::to_py::to_py;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use ragtrace_core::canonical_label as canonical;
use ragtrace_core::Config;

/// `default_config()`: every key of section 2 with its default.
#[pyfunction]
pub(crate) fn default_config(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    to_py(py, &Config::default())
}

/// `canonical_label(label)`: "dense", "hybrid" or None for an unknown label.
#[pyfunction]
pub(crate) fn canonical_label(label: &str) -> Option<&'static str> {
    canonical(label).map(|l| l.as_str())
}

/// A whole number >= 1 (`rank`, `batch_size`).
fn count(value: i64, name: &str) -> PyResult<u64> {
    u64::try_from(value)
        .ok()
        .filter(|&v| v >= 1)
        .ok_or_else(|| {
            PyValueError::new_err(format!("{name} must be an integer >= 1, got {value}"))
        })
}

/// `quality_score(label, score, rank, batch_size, config=None, dense_distance=None)`:
/// the quality of one candidate (section 3.2); an unknown label gives 0.
#[pyfunction]
#[pyo3(signature = (label, score, rank, batch_size, config=None, dense_distance=None))]
pub(crate) fn quality_score(
    py: Python<'_>,
    label: &str,
    score: Option<f64>,
    rank: i64,
    batch_size: i64,
    config: Option<&Bound<'_, PyAny>>,
    dense_distance: Option<f64>,
) -> PyResult<f64> {
    let settings = source::settings(py, config)?;
    let config = source::config_of(py, &settings)?;
    let rank = count(rank, "rank")?;
    let batch_size = count(batch_size, "batch_size")?;
    Ok(ragtrace_core::quality_score(
        canonical(label),
        score,
        rank,
        usize::try_from(batch_size).unwrap_or(usize::MAX),
        &config,
        dense_distance,
    ))
}
