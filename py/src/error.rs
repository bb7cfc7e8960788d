//! How failures reach Python: `InputError` (a document that cannot be read at all,
//! or a cases file with fatal problems) and `ConfigError` (a bad setting), both
//! `ValueError`s whose message is the CLI's and whose attributes name the place.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use ragtrace_core::InputError as CoreInputError;

pyo3::create_exception!(
    ragtrace,
    InputError,
    PyValueError,
    "A document that cannot be read at all: `source`, `line` and `column` name the place."
);
pyo3::create_exception!(
    ragtrace,
    ConfigError,
    PyValueError,
    "An invalid setting: `key` names it (None when the configuration as a whole is wrong)."
);

/// `errors` (at least one; the first is the place) as one `InputError` whose message
/// lists them all, as the CLI prints them.
pub(crate) fn input_error(py: Python<'_>, errors: &[CoreInputError]) -> PyErr {
    let message = errors
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ");
    let err = InputError::new_err(message);
    let value = err.value(py);
    let first = errors.first();
    // Setting an attribute on a fresh exception instance does not fail.
    let _ = value.setattr("source", first.map(|e| e.source.as_str()));
    let _ = value.setattr("line", first.and_then(|e| e.line));
    let _ = value.setattr("column", first.and_then(|e| e.column));
    let _ = value.setattr("path", first.and_then(|e| e.path.as_deref()));
    err
}

/// An input error that is not one of the core's located errors (a cases file that is
/// not UTF-8): the message and the source's name.
pub(crate) fn unlocated_input_error(py: Python<'_>, source: &str, message: String) -> PyErr {
    input_error(
        py,
        &[CoreInputError {
            source: source.to_owned(),
            line: None,
            column: None,
            path: None,
            code: ragtrace_core::InputErrorCode::Unusable,
            message,
            line_text: None,
            caret: None,
        }],
    )
}

/// A bad setting: `config: <key>: <why>`, with `key` set.
pub(crate) fn config_error(py: Python<'_>, error: &ragtrace_core::ConfigError) -> PyErr {
    let err = ConfigError::new_err(format!("config: {error}"));
    let _ = err.value(py).setattr("key", error.key.as_deref());
    err
}
