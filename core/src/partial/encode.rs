//! The bytes of a partial, to ship it between machines: [`MAGIC`], the format version
//! as a little-endian `u16`, then the counts as compact JSON (serde_json, already a
//! dependency: a partial is a few kilobytes however many traces it counts, so a
//! binary encoding would save little). Decoding checks every count against the others,
//! so corrupt bytes are an error, never a panic or a wrong view.

use super::pieces::{in_order, Piece};
use super::{Partial, PlacedError, PlacedWarning};
use crate::batch::{SummaryBuilder, SweepCounts, SweepScopes};
use crate::config::{Config, Settings};
use crate::diagnostic::{InputError, InputErrorCode};
use crate::input_errors::OmittedInputErrors;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::hash::Hasher;

/// The first bytes of every encoded partial.
pub const MAGIC: &[u8; 16] = b"ragtrace-partial";

/// The version of the encoding [`Partial::to_bytes`] writes and
/// [`Partial::from_bytes`] reads; any change to what a partial holds changes it.
pub const FORMAT_VERSION: u16 = 1;

/// Why bytes are not a partial this version of ragtrace can read.
#[derive(Debug, Clone, PartialEq)]
pub enum DecodeError {
    /// The bytes do not start with [`MAGIC`].
    NotAPartial,
    /// A partial of another format version.
    Version { found: u16 },
    /// The header is right but what follows is not a whole, consistent partial.
    Corrupt(String),
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::NotAPartial => f.write_str(
                "not a ragtrace partial (it does not start with \"ragtrace-partial\" or \"ragtrace-matches\")",
            ),
            DecodeError::Version { found } => write!(
                f,
                "a ragtrace partial of format version {found}; this ragtrace reads version {FORMAT_VERSION} (make the partials and merge them with the same version)"
            ),
            DecodeError::Corrupt(why) => write!(f, "a corrupt ragtrace partial: {why}"),
        }
    }
}

impl std::error::Error for DecodeError {}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Encoded {
    /// The overridden settings, as `--set key=value` writes them.
    settings: Vec<(String, String)>,
    pieces: Vec<Piece>,
    summary: SummaryBuilder,
    /// Batch, dense, hybrid: (tops, tops reaching each threshold as their highest).
    sweep: [(usize, Vec<usize>); 3],
    warnings: Vec<PlacedWarning>,
    input_errors: Vec<PlacedError>,
    /// Absent when every input error is listed, so such a partial's bytes are those
    /// of a ragtrace that kept every error.
    #[serde(default, skip_serializing_if = "OmittedInputErrors::is_empty")]
    input_errors_omitted: OmittedInputErrors,
}

/// An input error as a partial's bytes hold it: without `code` when an older ragtrace
/// wrote it.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct StoredError {
    source: String,
    line: Option<usize>,
    column: Option<usize>,
    path: Option<String>,
    code: Option<InputErrorCode>,
    message: String,
    line_text: Option<String>,
    caret: Option<usize>,
}

/// Reads an input error of a partial of any ragtrace: one written before errors
/// carried their code gets the code that ragtrace counted it under, read from the
/// message.
pub(super) fn error_of_any_version<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<InputError, D::Error> {
    let stored = StoredError::deserialize(d)?;
    Ok(InputError {
        code: stored
            .code
            .unwrap_or_else(|| code_of_older_message(&stored.message)),
        source: stored.source,
        line: stored.line,
        column: stored.column,
        path: stored.path,
        message: stored.message,
        line_text: stored.line_text,
        caret: stored.caret,
    })
}

/// The code an older ragtrace counted an error under: read from its message's opening
/// words; `unusable` for any other message.
fn code_of_older_message(message: &str) -> InputErrorCode {
    use InputErrorCode::*;
    const CODES: [(&str, InputErrorCode); 8] = [
        ("malformed JSON: ", MalformedJson),
        ("unexpected end of JSON: ", MalformedJson),
        ("not UTF-8: ", NotUtf8),
        ("the document is empty", EmptyDocument),
        ("a trace must be an object", NotATrace),
        ("expected a trace object", NotATrace),
        ("the trace has no candidates array", MissingCandidates),
        ("the trace has no evidence array", MissingEvidence),
    ];
    if message.starts_with("the trace's ") && message.contains(" must be an array") {
        return ListNotArray;
    }
    CODES
        .iter()
        .find(|(opening, _)| message.starts_with(opening))
        .map_or(Unusable, |(_, code)| *code)
}

fn sweep_parts(counts: &SweepCounts) -> (usize, Vec<usize>) {
    let (total, highest) = counts.to_parts();
    (total, highest.to_vec())
}

/// `magic`, the format version, then `body` as compact JSON.
pub(super) fn with_header(magic: &[u8], body: &impl Serialize) -> Vec<u8> {
    let mut bytes = magic.to_vec();
    bytes.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    // Plain data with string keys: serialising it cannot fail.
    if let Err(err) = serde_json::to_writer(&mut bytes, body) {
        debug_assert!(false, "plain data always serialises: {err}");
    }
    bytes
}

/// The body of bytes written by [`with_header`] with the same `magic`.
pub(super) fn without_header<T: serde::de::DeserializeOwned>(
    magic: &[u8],
    bytes: &[u8],
) -> Result<T, DecodeError> {
    let rest = bytes.strip_prefix(magic).ok_or(DecodeError::NotAPartial)?;
    let (version, body) = match rest {
        [low, high, body @ ..] => (u16::from_le_bytes([*low, *high]), body),
        _ => return Err(DecodeError::Corrupt("it ends inside its header".into())),
    };
    if version != FORMAT_VERSION {
        return Err(DecodeError::Version { found: version });
    }
    serde_json::from_slice(body).map_err(|err| DecodeError::Corrupt(err.to_string()))
}

/// Settings from the `(key, value)` pairs of [`settings_pairs`], with their
/// configuration.
pub(super) fn settings_of_pairs(
    pairs: &[(String, String)],
) -> Result<(Settings, Config), DecodeError> {
    let corrupt =
        |err: crate::config::ConfigError| DecodeError::Corrupt(format!("its settings: {err}"));
    let mut settings = Settings::default();
    for (key, value) in pairs {
        settings.set(key, value).map_err(corrupt)?;
    }
    let config = Config::from_settings(&settings).map_err(corrupt)?;
    Ok((settings, config))
}

/// The settings' overrides as `--set key=value` writes them.
pub(super) fn settings_pairs(settings: &Settings) -> Vec<(String, String)> {
    settings
        .overrides()
        .map(|(key, value)| (key.name().to_owned(), value.to_string()))
        .collect()
}

impl Partial {
    /// The partial as bytes that [`Partial::from_bytes`] reads back.
    pub fn to_bytes(&self) -> Vec<u8> {
        let encoded = Encoded {
            settings: settings_pairs(&self.settings),
            pieces: self.pieces.clone(),
            summary: self.summary.clone(),
            sweep: [
                sweep_parts(&self.sweep.all),
                sweep_parts(&self.sweep.dense),
                sweep_parts(&self.sweep.hybrid),
            ],
            warnings: self.warnings.clone(),
            input_errors: self.input_errors.clone(),
            input_errors_omitted: self.input_errors_omitted.clone(),
        };
        with_header(MAGIC, &encoded)
    }

    /// A partial from the bytes of [`Partial::to_bytes`]; a wrong header, another
    /// format version or bytes that do not hold a consistent partial is an error.
    pub fn from_bytes(bytes: &[u8]) -> Result<Partial, DecodeError> {
        let encoded: Encoded = without_header(MAGIC, bytes)?;
        let (settings, config) = settings_of_pairs(&encoded.settings)?;
        let corrupt = |why: String| DecodeError::Corrupt(why);
        let sweep_of = |(total, highest): &(usize, Vec<usize>)| {
            SweepCounts::from_parts(*total, highest)
                .ok_or_else(|| corrupt("its sweep counts do not add up".into()))
        };
        let [all, dense, hybrid] = &encoded.sweep;
        let sweep = SweepScopes {
            all: sweep_of(all)?,
            dense: sweep_of(dense)?,
            hybrid: sweep_of(hybrid)?,
        };
        if !encoded.summary.is_consistent() {
            return Err(corrupt(
                "its counts name recorded levels it does not hold".into(),
            ));
        }
        let pieces = encoded.pieces.len();
        let in_range = |piece: usize| piece < pieces;
        let placed =
            encoded.warnings.iter().all(|w| {
                in_range(w.first.0) && w.examples.iter().all(|(piece, _)| in_range(*piece))
            }) && encoded.input_errors.iter().all(|e| in_range(e.piece));
        if !placed {
            return Err(corrupt(
                "a warning or an input error is of a piece it does not hold".into(),
            ));
        }
        if !in_order(&encoded.pieces) {
            return Err(corrupt("its pieces are not in batch order".into()));
        }
        let mut partial = Partial {
            settings,
            config,
            pieces: encoded.pieces,
            summary: encoded.summary,
            sweep,
            warnings: encoded.warnings,
            input_errors: encoded.input_errors,
            input_errors_omitted: encoded.input_errors_omitted,
        };
        // A partial written by a ragtrace that listed every error is bounded on reading.
        partial.bound_input_errors();
        Ok(partial)
    }
}

/// A digest of a partial's bytes: orders pieces of the same place by their content.
pub(super) fn fingerprint(partial: &Partial) -> u64 {
    let mut hasher = crate::fast_hash::FxHasher::default();
    hasher.write(&partial.to_bytes());
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An error of an older partial, without `code`, gets the code its message was
    /// counted under; one with `code` keeps it whatever its message says.
    #[test]
    fn an_older_partials_errors_get_their_codes_from_their_messages() {
        let code = |message: &str| code_of_older_message(message).as_str();
        assert_eq!(code("malformed JSON: expected value"), "malformed-json");
        assert_eq!(
            code("unexpected end of JSON: EOF while parsing"),
            "malformed-json"
        );
        assert_eq!(
            code("not UTF-8: byte 0xFF is not a character here"),
            "not-utf8"
        );
        assert_eq!(code("the document is empty"), "empty-document");
        assert_eq!(code("a trace must be an object, got number"), "not-a-trace");
        assert_eq!(
            code("expected a trace object, an array of traces or {\"traces\": [...]}, got string"),
            "not-a-trace"
        );
        assert_eq!(code("the trace has no candidates array (a RerankTrace needs candidates, a LookupResult evidence)"), "missing-candidates");
        assert_eq!(code("the trace has no evidence array (a RerankTrace needs candidates, a LookupResult evidence)"), "missing-evidence");
        assert_eq!(
            code("the trace's candidates must be an array, got object"),
            "list-not-array"
        );
        assert_eq!(code("cases: duplicate id"), "unusable");

        let older = r#"{"source":"a.jsonl","line":3,"column":null,"path":"/2","message":"the trace has no candidates array","lineText":"{}","caret":null}"#;
        let newer = r#"{"source":"a.jsonl","line":3,"column":null,"path":"/2","code":"not-a-trace","message":"the trace has no candidates array","lineText":"{}","caret":null}"#;
        let read = |text: &str| {
            let mut de = serde_json::Deserializer::from_str(text);
            error_of_any_version(&mut de).map(|e| e.code)
        };
        assert_eq!(read(older).ok(), Some(InputErrorCode::MissingCandidates));
        assert_eq!(read(newer).ok(), Some(InputErrorCode::NotATrace));
    }
}
