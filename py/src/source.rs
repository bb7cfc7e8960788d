//! Reading the arguments every function shares. A source of traces or cases is a
//! path (`str` or `os.PathLike`, read in chunks as the CLI reads files), `bytes` or
//! `bytearray` of such a document, a binary file object, or already parsed JSON data
//! (`dict`/`list`). Settings are a dict of contract section 2 keys.

use crate::error::{config_error, input_error, unlocated_input_error};
use crate::to_py::from_py;
use pyo3::exceptions::{
    PyFileNotFoundError, PyIsADirectoryError, PyOSError, PyPermissionError, PyTypeError,
};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyList, PyString};
use ragtrace_core::parse_document_bytes;
use ragtrace_core::CaseSet;
use ragtrace_core::{parse_value, ParsedBatch, Settings};
use std::io::{ErrorKind, Read};
use std::path::PathBuf;

/// A document to read, as the caller gave it.
pub(crate) enum Source {
    /// A file, and the name its errors are located in (the path as given).
    Path(PathBuf, String),
    Bytes(Vec<u8>),
    /// A binary file object, and its name (its `name` attribute, else the role).
    File(Py<PyAny>, String),
    Value(serde_json::Value),
}

impl Source {
    /// Reads `value` as a source; `role` names it in errors when it has no name of
    /// its own (`input`, `runs`, `cases`, `a`, `b`).
    pub(crate) fn from_arg(value: &Bound<'_, PyAny>, role: &str) -> PyResult<Source> {
        if value.is_instance_of::<PyString>() || value.hasattr("__fspath__")? {
            let path: PathBuf = value.extract()?;
            let name = path.display().to_string();
            return Ok(Source::Path(path, name));
        }
        if let Ok(bytes) = value.cast::<PyBytes>() {
            return Ok(Source::Bytes(bytes.as_bytes().to_vec()));
        }
        if let Ok(bytes) = value.cast::<PyByteArray>() {
            return Ok(Source::Bytes(bytes.to_vec()));
        }
        if value.is_instance_of::<PyDict>() || value.is_instance_of::<PyList>() {
            return Ok(Source::Value(from_py(value)?));
        }
        if value.hasattr("read")? {
            let name = value
                .getattr("name")
                .ok()
                .and_then(|name| name.extract::<String>().ok())
                .unwrap_or_else(|| role.to_owned());
            return Ok(Source::File(value.clone().unbind(), name));
        }
        Err(PyTypeError::new_err(format!(
            "{role}: expected a path (str or os.PathLike), bytes, a binary file object, \
             or a parsed dict or list; got {}",
            value.get_type().name()?
        )))
    }
}

/// A binary file object read through `std::io::Read`, taking the GIL for each read
/// only (the parsing between reads runs without it).
struct PyFileReader {
    file: Py<PyAny>,
}

impl Read for PyFileReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        Python::attach(|py| -> PyResult<usize> {
            let chunk = self.file.bind(py).call_method1("read", (buf.len(),))?;
            let bytes = chunk.cast::<PyBytes>().map_err(|_| {
                PyTypeError::new_err(
                    "expected a binary file object (opened with 'rb'): its read() did not \
                     return bytes",
                )
            })?;
            let data = bytes.as_bytes();
            let n = data.len().min(buf.len());
            buf[..n].copy_from_slice(&data[..n]);
            Ok(n)
        })
        .map_err(std::io::Error::other)
    }
}

/// An I/O error as the Python exception of its kind, with the CLI's message
/// (`<file>: <why>`); a Python exception raised by a file object's `read` is itself.
fn io_error(name: &str, err: std::io::Error) -> PyErr {
    let err = match err.downcast::<PyErr>() {
        Ok(raised) => return raised,
        Err(err) => err,
    };
    let message = format!("{name}: {err}");
    match err.kind() {
        ErrorKind::NotFound => PyFileNotFoundError::new_err(message),
        ErrorKind::PermissionDenied => PyPermissionError::new_err(message),
        ErrorKind::IsADirectory => PyIsADirectoryError::new_err(message),
        _ => PyOSError::new_err(message),
    }
}

/// Reads `source` in full, without the GIL.
fn read_batch(py: Python<'_>, source: Source, role: &str) -> PyResult<ParsedBatch> {
    match source {
        Source::Path(path, name) => py
            .detach(|| {
                let file = std::fs::File::open(&path)?;
                ragtrace_core::read_batch(&name, file)
            })
            .map_err(|err| io_error(&path.display().to_string(), err)),
        Source::File(file, name) => py
            .detach(|| ragtrace_core::read_batch(&name, PyFileReader { file }))
            .map_err(|err| io_error(role, err)),
        Source::Bytes(bytes) => Ok(py.detach(|| parse_document_bytes(role, &bytes))),
        Source::Value(value) => Ok(py.detach(|| parse_value(role, &value))),
    }
}

/// The analysis of the traces of any source under valid `settings`: a file, a file
/// object or bytes analysed part by part as it is read, parsed data as it is. Fails
/// as [`traces`] does.
pub(crate) fn analysis(
    py: Python<'_>,
    value: &Bound<'_, PyAny>,
    role: &str,
    settings: &Settings,
    with_sweep: bool,
) -> PyResult<ragtrace_core::Analysis> {
    let read = |name: &str, input: &mut dyn Read| {
        ragtrace_core::read_and_analyze(name, input, settings, with_sweep)
    };
    let analysed = match Source::from_arg(value, role)? {
        Source::Path(path, name) => py
            .detach(|| read(&name, &mut std::fs::File::open(&path)?))
            .map_err(|err| io_error(&path.display().to_string(), err))?,
        Source::File(file, name) => py
            .detach(|| read(&name, &mut PyFileReader { file }))
            .map_err(|err| io_error(role, err))?,
        Source::Bytes(bytes) => py
            .detach(|| read(role, &mut bytes.as_slice()))
            .map_err(|err| io_error(role, err))?,
        other => {
            let batch = read_batch(py, other, role)?;
            py.detach(|| ragtrace_core::analyze(&batch, settings, with_sweep))
        }
    };
    let analysis = analysed.map_err(|err| config_error(py, &err))?;
    if analysis.traces.is_empty() {
        if let Some(first) = analysis.input_errors.first() {
            return Err(input_error(py, std::slice::from_ref(first)));
        }
    }
    Ok(analysis)
}

/// Traces from any source. Fails only when nothing at all could be read; a JSON
/// Lines document with bad lines is read, its bad lines in `inputErrors`.
pub(crate) fn traces(
    py: Python<'_>,
    value: &Bound<'_, PyAny>,
    role: &str,
) -> PyResult<ParsedBatch> {
    let batch = read_batch(py, Source::from_arg(value, role)?, role)?;
    if batch.traces.is_empty() {
        if let Some(first) = batch.errors.first() {
            return Err(input_error(py, std::slice::from_ref(first)));
        }
    }
    Ok(batch)
}

/// User settings from `None` or a dict of section 2 keys (either spelling).
pub(crate) fn settings(py: Python<'_>, config: Option<&Bound<'_, PyAny>>) -> PyResult<Settings> {
    let Some(config) = config.filter(|c| !c.is_none()) else {
        return Ok(Settings::default());
    };
    let text = from_py(config)?.to_string();
    Settings::from_json_text(&text).map_err(|err| config_error(py, &err))
}

/// The validated configuration of `settings`.
pub(crate) fn config_of(py: Python<'_>, settings: &Settings) -> PyResult<ragtrace_core::Config> {
    ragtrace_core::Config::from_settings(settings).map_err(|err| config_error(py, &err))
}

/// A golden cases document (contract section 6) from any source.
pub(crate) fn cases(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<CaseSet> {
    const ROLE: &str = "cases";
    let parsed = match Source::from_arg(value, ROLE)? {
        Source::Value(value) => ragtrace_core::parse_cases_value(ROLE, &value),
        Source::Path(path, name) => {
            let bytes = py
                .detach(|| std::fs::read(&path))
                .map_err(|err| io_error(&name, err))?;
            parse_cases_bytes(py, &name, &bytes)?
        }
        Source::File(file, name) => {
            let mut bytes = Vec::new();
            py.detach(|| PyFileReader { file }.read_to_end(&mut bytes))
                .map_err(|err| io_error(&name, err))?;
            parse_cases_bytes(py, &name, &bytes)?
        }
        Source::Bytes(bytes) => parse_cases_bytes(py, ROLE, &bytes)?,
    };
    parsed.map_err(|errors| input_error(py, &errors))
}

type ParsedCases = Result<CaseSet, Vec<ragtrace_core::InputError>>;

fn parse_cases_bytes(py: Python<'_>, name: &str, bytes: &[u8]) -> PyResult<ParsedCases> {
    let text = std::str::from_utf8(bytes).map_err(|_| {
        unlocated_input_error(py, name, "stream did not contain valid UTF-8".to_owned())
    })?;
    Ok(py.detach(|| ragtrace_core::parse_cases(name, text)))
}
