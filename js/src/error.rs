//! How failures reach JavaScript: every export returns `Result<_, Error>`; an
//! [`Error`]'s `Display` is the sentence the user reads, and [`into_error`] makes it a
//! real JS `Error` (with a stack) when it crosses into JavaScript.

use std::fmt;
use wasm_bindgen::JsValue;

/// Why an export failed. Each variant names what is wrong and where.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Error {
    /// `undefined` or `null` where something is required.
    Missing { what: &'static str },
    /// A value that is not JSON-like data (a function, a symbol, ...).
    NotJsonLike { what: &'static str, detail: String },
    /// The input held no readable trace: the first problem, located (`input:3:18: ...`).
    Unreadable(String),
    /// The cases file has fatal problems: all of them, located.
    Cases(Vec<String>),
    /// An invalid setting, naming the key.
    Config(String),
    /// A number that must be a whole count of at least one.
    NotACount { name: &'static str, value: f64 },
    /// A result could not be handed to JavaScript (not expected: results are plain data).
    Convert(String),
    /// An invalid option of `compareRuns`, naming the key.
    Options(String),
    /// Runs `compareRuns` cannot compare at once, located in its arguments
    /// (`runs[2].name`, `options.baseline`).
    ManyRuns { at: String, message: String },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Missing { what } => {
                write!(
                    f,
                    "{what}: expected a JSON string or an object, got nothing"
                )
            }
            Error::NotJsonLike { what, detail } => {
                write!(f, "{what} is not JSON-like data: {detail}")
            }
            Error::Unreadable(message) => f.write_str(message),
            Error::Cases(messages) => f.write_str(&messages.join("; ")),
            Error::Config(message) => write!(f, "config: {message}"),
            Error::NotACount { name, value } => {
                write!(f, "{name} must be an integer >= 1, got {value}")
            }
            Error::Convert(message) => {
                write!(f, "cannot convert the result to JavaScript: {message}")
            }
            Error::Options(message) => write!(f, "options: {message}"),
            Error::ManyRuns { at, message } => write!(f, "{at}: {message}"),
        }
    }
}

impl std::error::Error for Error {}

/// The one way an error leaves the crate: a JS `Error` carrying its message.
pub(crate) fn into_error(error: &impl fmt::Display) -> JsValue {
    js_sys::Error::new(&error.to_string()).into()
}

impl From<Error> for JsValue {
    fn from(error: Error) -> JsValue {
        into_error(&error)
    }
}
