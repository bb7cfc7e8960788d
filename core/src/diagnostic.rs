//! Errors and warnings as values with a place and a sentence a human can act on.

use serde::{Deserialize, Serialize};
use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    /// The lowercase word every output uses: `info`, `warning`, `error`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// A finding about one trace or one input, located by a JSON pointer
/// (`/traces/3/candidates/0/originalRank`) when it has a place in the input.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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

/// The kind of an [`InputError`], set where the error is made: a stable kebab-case
/// name, like a [`Diagnostic`]'s code, under which errors beyond the listed ones are
/// counted (`inputErrorsOmitted`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum InputErrorCode {
    /// Not JSON, or JSON cut short.
    MalformedJson,
    /// Bytes that are not UTF-8 text.
    NotUtf8,
    /// A document with nothing but white space.
    EmptyDocument,
    /// A document or batch element that is no trace-level object.
    NotATrace,
    /// An object with no candidates array.
    MissingCandidates,
    /// A LookupResult with no evidence array.
    MissingEvidence,
    /// A trace's candidates or evidence that are not an array.
    ListNotArray,
    /// Any other input that cannot be used.
    Unusable,
}

impl InputErrorCode {
    /// The kebab-case name every output uses.
    pub fn as_str(self) -> &'static str {
        match self {
            InputErrorCode::MalformedJson => "malformed-json",
            InputErrorCode::NotUtf8 => "not-utf8",
            InputErrorCode::EmptyDocument => "empty-document",
            InputErrorCode::NotATrace => "not-a-trace",
            InputErrorCode::MissingCandidates => "missing-candidates",
            InputErrorCode::MissingEvidence => "missing-evidence",
            InputErrorCode::ListNotArray => "list-not-array",
            InputErrorCode::Unusable => "unusable",
        }
    }
}

/// An input that could not be read at all (malformed JSON, wrong top-level shape),
/// located by source name, 1-based line and column, and JSON pointer where known.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct InputError {
    /// The file name (or `stdin`, `pasted text`).
    pub source: String,
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub path: Option<String>,
    /// What kind of error it is.
    pub code: InputErrorCode,
    pub message: String,
    /// The offending line of text: whole when short, else a window of it around the
    /// column with `…` at a cut end (see [`InputError::at`]).
    pub line_text: Option<String>,
    /// Where the caret goes under `line_text`, in characters from its start (0-based);
    /// `None` without a column. Every shell draws the caret from this, not from `column`,
    /// which counts in the whole line.
    pub caret: Option<usize>,
}

/// Lines up to this many characters are shown whole.
const LINE_TEXT_MAX: usize = 300;
/// A longer line is shown as this many characters...
const WINDOW_CHARS: usize = 200;
/// ...starting this many before the column.
const WINDOW_BEFORE: usize = 100;

/// The part of `line` shown under an error at 1-based character `column`, and the
/// caret's offset in it.
fn line_excerpt(line: &str, column: usize) -> (String, usize) {
    let chars = line.chars().count();
    let at = column.saturating_sub(1).min(chars);
    if chars <= LINE_TEXT_MAX {
        return (line.to_owned(), at);
    }
    let start = at.saturating_sub(WINDOW_BEFORE);
    let mut text = String::new();
    if start > 0 {
        text.push('…');
    }
    text.extend(line.chars().skip(start).take(WINDOW_CHARS));
    if start + WINDOW_CHARS < chars {
        text.push('…');
    }
    (text, usize::from(start > 0) + at - start)
}

impl InputError {
    /// An error in `source` at a 1-based `line` and character `column`, showing
    /// `line_text` (the whole line; a long one is cut to a window around the column).
    pub fn at(
        source: &str,
        line: Option<usize>,
        column: Option<usize>,
        path: Option<String>,
        code: InputErrorCode,
        message: String,
        line_text: Option<&str>,
    ) -> InputError {
        let excerpt = line_text.map(|text| line_excerpt(text, column.unwrap_or(1)));
        let caret = column.and(excerpt.as_ref().map(|(_, caret)| *caret));
        InputError {
            source: source.to_owned(),
            line,
            column,
            path,
            code,
            message,
            line_text: excerpt.map(|(text, _)| text),
            caret,
        }
    }

    /// A serde_json syntax error in `text`, which starts after `lines_before` lines of
    /// its document (a JSON Lines line). serde_json counts columns in bytes; a person,
    /// and the caret, count characters, so the column is converted.
    pub fn json_syntax(
        source: &str,
        text: &str,
        err: &serde_json::Error,
        lines_before: usize,
    ) -> InputError {
        let line_no = err.line().max(1);
        let line_text = text.lines().nth(line_no - 1).unwrap_or("");
        let byte_col = err.column();
        let mut cut = byte_col.min(line_text.len());
        while cut > 0 && !line_text.is_char_boundary(cut) {
            cut -= 1;
        }
        let column = line_text
            .get(..cut)
            .map_or(byte_col, |s| s.chars().count())
            .max(1);
        // serde_json ends its message with its own " at line L column C", relative to
        // the text it was given; the error carries the position in the document instead.
        let full = err.to_string();
        let reason = full
            .rfind(" at line ")
            .map_or(full.as_str(), |i| &full[..i]);
        let (code, message) = match err.classify() {
            serde_json::error::Category::Eof => (
                InputErrorCode::MalformedJson,
                format!("unexpected end of JSON: {reason}"),
            ),
            // Valid JSON, only deeper than the reader goes: the message names the limit.
            _ if reason == "recursion limit exceeded" => (
                InputErrorCode::Unusable,
                "JSON nested more than 128 levels deep, the reader's limit (unknown fields may nest deeper)".to_owned(),
            ),
            _ => (
                InputErrorCode::MalformedJson,
                format!("malformed JSON: {reason}"),
            ),
        };
        InputError::at(
            source,
            Some(line_no + lines_before),
            Some(column),
            None,
            code,
            message,
            Some(line_text),
        )
    }
}

impl InputError {
    /// The kebab-case name of [`InputError::code`]: what errors beyond the listed ones
    /// are counted under (`inputErrorsOmitted`).
    pub fn code(&self) -> &'static str {
        self.code.as_str()
    }
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

/// The JSON type of a value as a sentence names it ("a string", "null").
pub(crate) fn json_type(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

/// Escapes one JSON-pointer reference token (RFC 6901).
pub(crate) fn pointer_token(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The caret lands under the offending character, whole line or window.
    #[test]
    fn caret_points_at_the_column() {
        let short = "ab,,cd";
        let e = InputError::at(
            "s",
            Some(1),
            Some(4),
            None,
            InputErrorCode::Unusable,
            String::new(),
            Some(short),
        );
        assert_eq!(e.line_text.as_deref(), Some(short));
        assert_eq!(e.caret, Some(3));

        let long: String = (0..1000)
            .map(|i| if i == 600 { 'X' } else { 'é' })
            .collect();
        let e = InputError::at(
            "s",
            Some(1),
            Some(601),
            None,
            InputErrorCode::Unusable,
            String::new(),
            Some(&long),
        );
        let shown = e.line_text.unwrap_or_default();
        assert!(shown.starts_with('…') && shown.ends_with('…'), "{shown}");
        assert_eq!(shown.chars().nth(e.caret.unwrap_or(0)), Some('X'));

        // Near the start: no leading cut.
        let e = InputError::at(
            "s",
            Some(1),
            Some(3),
            None,
            InputErrorCode::Unusable,
            String::new(),
            Some(&long),
        );
        let shown = e.line_text.unwrap_or_default();
        assert!(!shown.starts_with('…'));
        assert_eq!(e.caret, Some(2));

        // No column: the line is shown, no caret.
        let e = InputError::at(
            "s",
            Some(1),
            None,
            None,
            InputErrorCode::Unusable,
            String::new(),
            Some(short),
        );
        assert_eq!(e.caret, None);
    }

    #[test]
    fn json_syntax_counts_characters_and_lines_of_the_document() {
        let text = "{\"é\": 1,, }";
        let err = serde_json::from_str::<serde_json::Value>(text).err();
        let Some(err) = err else {
            panic!("the text is malformed");
        };
        let e = InputError::json_syntax("doc.jsonl", text, &err, 4);
        assert_eq!(e.line, Some(5));
        assert_eq!(e.column, Some(9));
        assert_eq!(text.chars().nth(e.caret.unwrap_or(0)), Some(','));
        assert!(e.message.starts_with("malformed JSON: "), "{}", e.message);
        assert_eq!(e.code, InputErrorCode::MalformedJson);
        assert!(!e.message.contains(" at line "), "{}", e.message);
    }
}
