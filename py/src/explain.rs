//! `explain`: for every candidate, level and golden case, the least change of settings
//! that flips it (contract section 9's `explain.json`), from the CLI's core call.

use crate::error::config_error;
use crate::source::{self, traces};
use crate::to_py::to_py;
use pyo3::prelude::*;

/// `explain(source, cases=None, config=None)`: explain.json's object. Without
/// `cases`, `cases` is empty and the summary counts traces only.
#[pyfunction]
#[pyo3(signature = (source, cases=None, config=None))]
pub(crate) fn explain<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    cases: Option<&Bound<'py, PyAny>>,
    config: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let settings = source::settings(py, config)?;
    source::config_of(py, &settings)?;
    let cases = cases
        .filter(|c| !c.is_none())
        .map(|c| source::cases(py, c))
        .transpose()?;
    let batch = traces(py, source, "input")?;
    let explained = py
        .detach(|| ragtrace_core::explain(&batch, &settings, cases.as_ref()))
        .map_err(|err| config_error(py, &err))?;
    to_py(py, &explained)
}
