//! Errors and warnings as values with a place and a sentence a human can act on.

use serde::Serialize;
use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

/// A finding about one trace or one input, located by a JSON pointer
/// (`/traces/3/candidates/0/originalRank`) when it has a place in the input.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Diagnostic {
    pub severity: Severity,
    /// A stable kebab-case identifier, e.g. `invalid-rank`, `unknown-label`.
    pub code: String,
    pub message: String,
    pub path: Option<String>,
}

impl Diagnostic {
    pub fn new(
        severity: Severity,
        code: &str,
        message: impl Into<String>,
        path: Option<String>,
    ) -> Self {
        Diagnostic {
            severity,
            code: code.to_owned(),
            message: message.into(),
            path,
        }
    }

    pub fn error(code: &str, message: impl Into<String>, path: impl Into<String>) -> Self {
        Self::new(Severity::Error, code, message, Some(path.into()))
    }

    pub fn warning(code: &str, message: impl Into<String>, path: impl Into<String>) -> Self {
        Self::new(Severity::Warning, code, message, Some(path.into()))
    }
}

/// An input that could not be read at all (malformed JSON, wrong top-level shape),
/// located by source name, 1-based line and column, and JSON pointer where known.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InputError {
    /// The file name (or `stdin`, `pasted text`).
    pub source: String,
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub path: Option<String>,
    pub message: String,
    /// The offending line of text, so a caller can show it with a caret under `column`.
    pub line_text: Option<String>,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.source)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(column) = self.column {
                write!(f, ":{column}")?;
            }
        }
        if let Some(path) = &self.path {
            write!(f, " at {path}")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for InputError {}

/// Escapes one JSON-pointer reference token (RFC 6901).
pub fn pointer_token(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}
