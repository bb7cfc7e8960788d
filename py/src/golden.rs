//! `evaluate`, `compare`, `compare_many` and `calibrate`: the objects the CLI writes as
//! report.json, compare.json and calibration.json, from the core's same entry points.

use crate::error::config_error;
use crate::partial::CaseMatches;
use crate::source::{self, traces};
use crate::to_py::to_py;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use ragtrace_core::{
    calibrate_with_floor_sweep, compare_batches, compare_many_batches, evaluate_with_floor_sweep,
    CompareOptions, ManyRunOptions,
};

/// `evaluate(cases, runs, config=None)`: report.json's object. `runs` may also be
/// the merged `CaseMatches` of a batch analysed in shards.
#[pyfunction]
#[pyo3(signature = (cases, runs, config=None))]
pub(crate) fn evaluate<'py>(
    py: Python<'py>,
    cases: &Bound<'py, PyAny>,
    runs: &Bound<'py, PyAny>,
    config: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    if let Ok(matches) = runs.cast::<CaseMatches>() {
        if config.is_some_and(|c| !c.is_none()) {
            return Err(PyValueError::new_err(
                "evaluate: case matches carry the settings they were gathered under; give no config",
            ));
        }
        let cases = source::cases(py, cases)?;
        let matches = &matches.get().inner;
        let report = py
            .detach(|| matches.evaluate(&cases))
            .map_err(|err| PyValueError::new_err(err.to_string()))?;
        return to_py(py, &report);
    }
    let settings = source::settings(py, config)?;
    source::config_of(py, &settings)?;
    let cases = source::cases(py, cases)?;
    let batch = traces(py, runs, "runs")?;
    let report = py
        .detach(|| {
            ragtrace_core::analyze(&batch, &settings, false)
                .map(|analysis| evaluate_with_floor_sweep(&cases, &analysis))
        })
        .map_err(|err| config_error(py, &err))?;
    to_py(py, &report)
}

/// `calibrate(cases, runs, config=None)`: calibration.json's object.
#[pyfunction]
#[pyo3(signature = (cases, runs, config=None))]
pub(crate) fn calibrate<'py>(
    py: Python<'py>,
    cases: &Bound<'py, PyAny>,
    runs: &Bound<'py, PyAny>,
    config: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let settings = source::settings(py, config)?;
    source::config_of(py, &settings)?;
    let cases = source::cases(py, cases)?;
    let batch = traces(py, runs, "runs")?;
    let result = py
        .detach(|| {
            ragtrace_core::analyze(&batch, &settings, false)
                .map(|analysis| calibrate_with_floor_sweep(&cases, &analysis))
        })
        .map_err(|err| config_error(py, &err))?;
    to_py(py, &result)
}

/// `compare(a, b, cases=None, config=None, *, rbo_p=0.9)`: compare.json's object.
#[pyfunction]
#[pyo3(signature = (a, b, cases=None, config=None, *, rbo_p=0.9))]
pub(crate) fn compare<'py>(
    py: Python<'py>,
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
    cases: Option<&Bound<'py, PyAny>>,
    config: Option<&Bound<'py, PyAny>>,
    rbo_p: f64,
) -> PyResult<Bound<'py, PyAny>> {
    let settings = source::settings(py, config)?;
    source::config_of(py, &settings)?;
    let options = CompareOptions { rbo_p };
    options
        .validate()
        .map_err(|message| PyValueError::new_err(format!("rbo_p: {message}")))?;
    let cases = cases
        .filter(|c| !c.is_none())
        .map(|c| source::cases(py, c))
        .transpose()?;
    let batch_a = traces(py, a, "a")?;
    let batch_b = traces(py, b, "b")?;
    let report = py
        .detach(|| compare_batches(&batch_a, &batch_b, &settings, cases.as_ref(), &options))
        .map_err(|err| config_error(py, &err))?;
    to_py(py, &report)
}

/// `compare_many(runs, cases, config=None, *, baseline=None)`: the many-run
/// compare.json's object. `runs` is a dict of name -> source, or a sequence of
/// `(name, source)` pairs (so a name given twice is reported, not silently merged).
#[pyfunction]
#[pyo3(signature = (runs, cases, config=None, *, baseline=None))]
pub(crate) fn compare_many<'py>(
    py: Python<'py>,
    runs: &Bound<'py, PyAny>,
    cases: &Bound<'py, PyAny>,
    config: Option<&Bound<'py, PyAny>>,
    baseline: Option<String>,
) -> PyResult<Bound<'py, PyAny>> {
    let settings = source::settings(py, config)?;
    source::config_of(py, &settings)?;
    let cases = source::cases(py, cases)?;
    let pairs: Vec<(String, Bound<'py, PyAny>)> = match runs.cast::<PyDict>() {
        Ok(dict) => dict
            .iter()
            .map(|(name, value)| Ok((name.extract::<String>()?, value)))
            .collect::<PyResult<_>>()?,
        Err(_) => runs
            .try_iter()?
            .map(|item| item?.extract::<(String, Bound<'py, PyAny>)>())
            .collect::<PyResult<_>>()
            .map_err(|_| {
                PyTypeError::new_err(
                    "compare_many: runs must be a dict of name -> traces, or a sequence of (name, traces) pairs",
                )
            })?,
    };
    let names: Vec<&str> = pairs.iter().map(|(name, _)| name.as_str()).collect();
    ragtrace_core::check_run_names(&names).map_err(|err| runs_error(py, &err))?;
    let batches = pairs
        .iter()
        .map(|(name, value)| traces(py, value, name))
        .collect::<PyResult<Vec<_>>>()?;
    let named: Vec<(&str, &ragtrace_core::ParsedBatch)> =
        names.iter().copied().zip(&batches).collect();
    let options = ManyRunOptions {
        baseline,
        ..ManyRunOptions::default()
    };
    let comparison = py
        .detach(|| compare_many_batches(&named, &settings, &cases, &options))
        .map_err(|err| runs_error(py, &err))?;
    to_py(py, &comparison)
}

/// Runs that cannot be compared: an `InputError` whose `source` is `runs` and whose
/// `path` is the JSON pointer of the place (`/runs/1/name`, `/baseline`).
fn runs_error(py: Python<'_>, err: &ragtrace_core::ManyRunError) -> PyErr {
    crate::error::input_error(
        py,
        &[ragtrace_core::InputError {
            source: "runs".to_owned(),
            line: None,
            column: None,
            path: Some(err.path.clone()),
            code: ragtrace_core::InputErrorCode::Unusable,
            message: err.message.clone(),
            line_text: None,
            caret: None,
        }],
    )
}
