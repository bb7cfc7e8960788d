//! Partials: the batch view of part of a batch as counts that merge exactly, so any
//! engine (Ray, Spark, Dask) can analyse shards apart and ship the partials between
//! machines (`to_bytes`, pickling).

use crate::error::config_error;
use crate::source;
use crate::to_py::to_py;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyString, PyTuple};
use ragtrace_core::READ_CHUNK;
use ragtrace_core::{CaseMatchesBuilder, MergeError, PartialBuilder};

/// The batch view of part of a batch under one configuration (`partial`'s and
/// `merge`'s result).
#[pyclass(module = "ragtrace", frozen)]
pub struct Partial {
    inner: ragtrace_core::Partial,
}

#[pymethods]
impl Partial {
    /// The object `ragtrace analyze --summary --sweep` prints for the same lines:
    /// config, summary, sweep, warnings, inputErrors and documents.
    #[pyo3(signature = (*, sweep=true))]
    fn summary<'py>(&self, py: Python<'py>, sweep: bool) -> PyResult<Bound<'py, PyAny>> {
        let view = py.detach(|| self.inner.finish(sweep));
        to_py(py, &view)
    }

    /// Number of traces counted.
    fn __len__(&self) -> usize {
        self.inner.traces()
    }

    fn __repr__(&self) -> String {
        format!(
            "<ragtrace.Partial of {} traces, {} input errors>",
            self.inner.traces(),
            self.inner.input_error_count()
        )
    }

    /// A compact, versioned encoding (what pickling ships).
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let bytes = py.detach(|| self.inner.to_bytes());
        PyBytes::new(py, &bytes)
    }

    /// The partial `to_bytes` encoded; `ValueError` for bytes of another format
    /// version or corrupt ones.
    #[staticmethod]
    fn from_bytes(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<Partial> {
        decode(py, data, ragtrace_core::Partial::from_bytes).map(|inner| Partial { inner })
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        reduce(slf, slf.get().to_bytes(slf.py()))
    }
}

/// Hands the lines of `lines` (an iterable of `str` or `bytes`, one line each, its
/// line end optional) to `push` in chunks of about a megabyte: the lines are
/// gathered under the GIL and `push` (the parsing) runs without it.
fn feed_lines(
    py: Python<'_>,
    lines: &Bound<'_, PyAny>,
    mut push: impl FnMut(&[u8]) + Send,
) -> PyResult<()> {
    if lines.is_instance_of::<PyString>() || lines.is_instance_of::<PyBytes>() {
        return Err(PyTypeError::new_err(
            "lines: expected an iterable of lines, got one str or bytes \
             (split it first, e.g. text.splitlines())",
        ));
    }
    let mut chunk: Vec<u8> = Vec::with_capacity(READ_CHUNK);
    for line in lines.try_iter()? {
        let line = line?;
        let start = chunk.len();
        if let Ok(text) = line.cast::<PyString>() {
            match text.to_cow() {
                Ok(text) => chunk.extend_from_slice(text.as_bytes()),
                // Text decoded with errors="surrogateescape" (Dask's read_text can):
                // its original bytes, so a line that is not UTF-8 is reported as such.
                Err(_) => {
                    let bytes = text.call_method1("encode", ("utf-8", "surrogateescape"))?;
                    chunk.extend_from_slice(bytes.cast::<PyBytes>()?.as_bytes());
                }
            }
        } else if let Ok(bytes) = line.cast::<PyBytes>() {
            chunk.extend_from_slice(bytes.as_bytes());
        } else if let Ok(bytes) = line.cast::<PyByteArray>() {
            chunk.extend_from_slice(&bytes.to_vec());
        } else {
            return Err(PyTypeError::new_err(format!(
                "lines: expected str or bytes lines, got {}",
                line.get_type().name()?
            )));
        }
        // Each item is one line, whether or not it kept its line end.
        if chunk.len() == start || !chunk.ends_with(b"\n") {
            chunk.push(b'\n');
        }
        if chunk.len() >= READ_CHUNK {
            py.detach(|| push(&chunk));
            chunk.clear();
        }
    }
    py.detach(|| push(&chunk));
    Ok(())
}

/// The bytes of `bytes` or `bytearray`, else `None`.
/// `from_bytes` of either class: the bytes read out of `data`, decoded without the GIL.
fn decode<T, E: std::fmt::Display + Send>(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    from_bytes: impl FnOnce(&[u8]) -> Result<T, E> + Send,
) -> PyResult<T>
where
    T: Send,
{
    let bytes = bytes_of(data)
        .ok_or_else(|| PyTypeError::new_err("from_bytes: expected bytes or bytearray"))?;
    py.detach(|| from_bytes(&bytes))
        .map_err(|err| PyValueError::new_err(err.to_string()))
}

/// Pickling of either class: rebuilt by its `from_bytes` from its `to_bytes`.
fn reduce<'py, T: pyo3::PyClass>(
    slf: &Bound<'py, T>,
    bytes: Bound<'py, PyBytes>,
) -> PyResult<Bound<'py, PyTuple>> {
    let py = slf.py();
    let from_bytes = slf.as_any().get_type().getattr("from_bytes")?;
    PyTuple::new(py, [from_bytes, PyTuple::new(py, [bytes])?.into_any()])
}

fn bytes_of(value: &Bound<'_, PyAny>) -> Option<Vec<u8>> {
    if let Ok(bytes) = value.cast::<PyBytes>() {
        return Some(bytes.as_bytes().to_vec());
    }
    value.cast::<PyByteArray>().ok().map(|bytes| bytes.to_vec())
}

/// `partial(lines, config=None, *, source=None, first_line=1)`: the partial of the
/// JSON Lines `lines` (any iterable of `str` or `bytes`, one line each), numbered
/// from `first_line` in the document `source`.
#[pyfunction]
#[pyo3(signature = (lines, config=None, *, source=None, first_line=1))]
pub(crate) fn partial(
    py: Python<'_>,
    lines: &Bound<'_, PyAny>,
    config: Option<&Bound<'_, PyAny>>,
    source: Option<&str>,
    first_line: usize,
) -> PyResult<Partial> {
    let settings = source::settings(py, config)?;
    let source = source.unwrap_or("input");
    let mut builder = PartialBuilder::lines(&settings, source, first_line)
        .map_err(|err| config_error(py, &err))?;
    feed_lines(py, lines, |chunk| builder.push_chunk(chunk))?;
    let inner = py.detach(|| builder.finish());
    Ok(Partial { inner })
}

/// `merge(partials)`: the partials as one (associative and commutative), or the
/// case matches as one when given `CaseMatches`. Partials made under different
/// settings raise `ConfigError` naming the first that differs.
#[pyfunction]
pub(crate) fn merge(py: Python<'_>, partials: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    let items = partials
        .try_iter()?
        .collect::<PyResult<Vec<Bound<'_, PyAny>>>>()?;
    if items
        .first()
        .is_some_and(|first| first.is_instance_of::<CaseMatches>())
    {
        let parts = items
            .iter()
            .map(|item| {
                item.cast::<CaseMatches>()
                    .map(|m| m.get().inner.clone())
                    .map_err(|_| mixed())
            })
            .collect::<PyResult<Vec<_>>>()?;
        let inner = py
            .detach(|| ragtrace_core::CaseMatches::merge(parts))
            .map_err(|err| merge_error(py, err))?;
        return Ok(Py::new(py, CaseMatches { inner })?.into_any());
    }
    let parts = items
        .iter()
        .map(|item| {
            item.cast::<Partial>()
                .map(|p| p.get().inner.clone())
                .map_err(|_| mixed())
        })
        .collect::<PyResult<Vec<_>>>()?;
    let inner = py
        .detach(|| ragtrace_core::Partial::merge(parts))
        .map_err(|err| merge_error(py, err))?;
    Ok(Py::new(py, Partial { inner })?.into_any())
}

fn mixed() -> PyErr {
    PyTypeError::new_err(
        "merge: expected an iterable of ragtrace.Partial (or of ragtrace.CaseMatches), not a mix",
    )
}

fn merge_error(py: Python<'_>, err: MergeError) -> PyErr {
    match err {
        MergeError::Nothing => {
            PyValueError::new_err("merge: no partial to merge (give at least one)")
        }
        MergeError::Settings { ref key, .. } => {
            let raised = crate::error::ConfigError::new_err(err.to_string());
            let _ = raised.value(py).setattr("key", key.as_str());
            raised
        }
        other => PyValueError::new_err(other.to_string()),
    }
}

/// What a golden evaluation needs of part of a batch (`case_matches`' result):
/// every trace's name and the traces that may link to a case. Merged with `merge`,
/// evaluated with `evaluate(cases, matches)`.
#[pyclass(module = "ragtrace", frozen)]
pub struct CaseMatches {
    pub(crate) inner: ragtrace_core::CaseMatches,
}

#[pymethods]
impl CaseMatches {
    /// Number of traces gathered.
    fn __len__(&self) -> usize {
        self.inner.traces()
    }

    fn __repr__(&self) -> String {
        format!("<ragtrace.CaseMatches of {} traces>", self.inner.traces())
    }

    /// A compact, versioned encoding (what pickling ships).
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let bytes = py.detach(|| self.inner.to_bytes());
        PyBytes::new(py, &bytes)
    }

    /// The matches `to_bytes` encoded; `ValueError` for bytes of another format
    /// version or corrupt ones.
    #[staticmethod]
    fn from_bytes(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<CaseMatches> {
        decode(py, data, ragtrace_core::CaseMatches::from_bytes).map(|inner| CaseMatches { inner })
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        reduce(slf, slf.get().to_bytes(slf.py()))
    }
}

/// `case_matches(cases, lines, config=None, *, source=None, first_line=1)`: what
/// `evaluate(cases, ...)` needs of these JSON Lines lines, to merge with the other
/// shards' and evaluate once.
#[pyfunction]
#[pyo3(signature = (cases, lines, config=None, *, source=None, first_line=1))]
pub(crate) fn case_matches(
    py: Python<'_>,
    cases: &Bound<'_, PyAny>,
    lines: &Bound<'_, PyAny>,
    config: Option<&Bound<'_, PyAny>>,
    source: Option<&str>,
    first_line: usize,
) -> PyResult<CaseMatches> {
    let settings = source::settings(py, config)?;
    let cases = source::cases(py, cases)?;
    let source = source.unwrap_or("input");
    let mut builder = CaseMatchesBuilder::lines(&settings, &cases, source, first_line)
        .map_err(|err| config_error(py, &err))?;
    feed_lines(py, lines, |chunk| builder.push_chunk(chunk))?;
    let inner = py.detach(|| builder.finish());
    Ok(CaseMatches { inner })
}
