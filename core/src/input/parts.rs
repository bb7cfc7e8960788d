//! What every shape of a trace shares, below the shapes: an object's place, where the
//! traces go ([`Sink`]), the trace-level fields, a trace's own options, the
//! candidates, and the tail that derives what no setting changes.

use super::derive::derive;
use super::model::{Candidate, InputRank, Rank, Trace, TraceKind};
use super::scalar::Diags;
use super::visitors::{Item, ListField, RawCandidate, RawObject, RawRank};
use crate::config::{ConfigError, SettingKey, SettingValueError, Settings};
use crate::diagnostic::{pointer_token, Diagnostic, InputErrorCode};
use crate::label::{canonical_label, classify_label, CanonicalLabel};
use serde_json::Value;
use std::sync::Arc;

/// Where an object sits: its pointer, and its JSON Lines line (number, text).
#[derive(Clone, Copy)]
pub(super) struct Place<'a> {
    pub(super) pointer: &'a str,
    pub(super) line: Option<(usize, &'a str)>,
}

/// Where a shape hands what it read: the document's traces, in order, each with its
/// position in the batch, and the objects that are no trace.
pub(super) trait Sink {
    /// The document's name.
    fn source(&self) -> &Arc<str>;
    /// The next 1-based position in the batch: every trace, and every object that
    /// fails, takes one.
    fn next_position(&mut self) -> usize;
    fn trace(&mut self, trace: Trace);
    /// An object that is no trace (its position already taken), and why.
    fn fail(&mut self, place: Place, code: InputErrorCode, message: String);
    /// Records of the document that are no trace and were skipped (spans of other
    /// kinds), counted in the document's summary.
    fn skipped_spans(&mut self, count: usize);
}

/// One object that is one trace (or fails): the common case of every shape.
pub(super) fn one_trace(
    sink: &mut dyn Sink,
    place: Place,
    build: impl FnOnce(usize, &Arc<str>) -> Result<Trace, (InputErrorCode, String)>,
) {
    let position = sink.next_position();
    let source = sink.source().clone();
    match build(position, &source) {
        Ok(trace) => sink.trace(trace),
        Err((code, message)) => sink.fail(place, code, message),
    }
}

pub(super) fn has_list<T>(field: &Option<(ListField<T>, &'static str)>) -> bool {
    matches!(field, Some((ListField::List(_), _)))
}

/// Why an object without the list it `wanted` (`candidates` or `evidence`) is no trace.
pub(super) fn missing_list(o: &RawObject, wanted: &str) -> (InputErrorCode, String) {
    let field = if wanted == "candidates" {
        &o.candidates
    } else {
        &o.evidence
    };
    match field {
        Some((ListField::Wrong(found), name)) => (
            InputErrorCode::ListNotArray,
            format!("the trace's {name} must be an array, got {found}"),
        ),
        _ => (
            if wanted == "candidates" {
                InputErrorCode::MissingCandidates
            } else {
                InputErrorCode::MissingEvidence
            },
            format!("the trace has no {wanted} array (a RerankTrace needs candidates, a LookupResult evidence)"),
        ),
    }
}

pub(super) fn prefix_diags(diags: Diags, prefix: &str, out: &mut Vec<Diagnostic>) {
    out.extend(diags.0.into_iter().map(|mut diag| {
        diag.path = diag.path.map(|p| format!("{prefix}{p}"));
        diag
    }));
}

/// The tail every shape shares: the findings about the candidates come before the
/// trace's own, then what no setting changes is derived.
pub(super) fn finish_trace(
    mut trace: Trace,
    mut diagnostics: Vec<Diagnostic>,
    candidates: Vec<Candidate>,
) -> Trace {
    diagnostics.append(&mut trace.diagnostics);
    trace.diagnostics = diagnostics;
    derive(&mut trace, candidates);
    trace
}

/// The trace-level fields; candidates come after.
pub(super) fn base_trace(
    mut o: RawObject,
    kind: TraceKind,
    place: Place,
    position: usize,
    source: &Arc<str>,
) -> Trace {
    let mut diagnostics = Vec::new();
    let (options, options_error) = match o.options.take() {
        Some((value, name)) => read_options(
            value,
            &format!("{}/{name}", place.pointer),
            &mut diagnostics,
        ),
        None => (Settings::default(), None),
    };
    prefix_diags(
        std::mem::take(&mut o.diags),
        place.pointer,
        &mut diagnostics,
    );
    Trace {
        kind,
        source: source.clone(),
        line: place.line.map(|l| l.0),
        pointer: place.pointer.to_owned(),
        position,
        request_id: o.request_id,
        case_id: o.case_id,
        query: o.query,
        lookup_query: None,
        mode: o.mode,
        category_filter: o.category_filter,
        options,
        options_error,
        recorded_relevance_level: o.relevance_level,
        recorded_top_similarity: o.top_similarity,
        recorded_low_quality: o.low_quality,
        candidates: Vec::new(),
        recorded_evidence: None,
        n_approximated: false,
        diagnostics,
        extra: o.extra,
        canonical_mode: None,
        legacy_labels: Arc::default(),
        order: Vec::new(),
        doc_count: 0,
        legacy: None,
        hot: Vec::new(),
        name_hashes: Arc::default(),
    }
}

/// A trace's `options`: wrong JSON types are dropped with a diagnostic; an invalid value
/// (`returnN: 0`) makes the whole options block unusable (contract section 2).
pub(super) fn read_options(
    value: Value,
    pointer: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> (Settings, Option<ConfigError>) {
    let mut settings = Settings::default();
    let mut error = None;
    let object = match value {
        Value::Object(object) => object,
        Value::Null => return (settings, None),
        other => {
            let found = match other {
                Value::Bool(_) => "boolean",
                Value::Number(_) => "number",
                Value::String(_) => "string",
                _ => "array",
            };
            diagnostics.push(Diagnostic::error(
                "wrong-type",
                format!("options: expected an object, got {found}; treated as absent"),
                pointer,
            ));
            return (settings, None);
        }
    };
    for (name, value) in &object {
        if value.is_null() {
            continue;
        }
        // Unknown option keys belong to the service, not to us: ignored without noise.
        let Some(key) = SettingKey::parse(name).filter(|k| *k != SettingKey::UseTraceOptions)
        else {
            continue;
        };
        let path = format!("{pointer}/{}", pointer_token(name));
        match settings.set_json(key, value) {
            Ok(()) => {}
            Err(SettingValueError::WrongType(found)) => diagnostics.push(Diagnostic::error(
                "wrong-type",
                format!("options.{name}: got {found}, the wrong type; treated as absent"),
                path,
            )),
            Err(SettingValueError::Invalid(message)) => {
                if error.is_none() {
                    error = Some(ConfigError {
                        key: Some(key.name().to_owned()),
                        message: message.clone(),
                    });
                }
                diagnostics.push(Diagnostic::error(
                    "invalid-options",
                    format!("options.{name} {message}; this trace is computed with defaults plus the user's settings"),
                    path,
                ));
            }
        }
    }
    (settings, error)
}

pub(super) fn finish_candidates(
    items: Vec<Item<RawCandidate>>,
    prefix: &str,
    trace: &Trace,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Candidate> {
    let mode_label = trace.mode.as_deref().and_then(canonical_label);
    let mut out = Vec::with_capacity(items.len());
    for (index, item) in items.into_iter().enumerate() {
        let raw = match item {
            Item::Object(raw) => raw,
            Item::NotObject(found) => {
                diagnostics.push(Diagnostic::error(
                    "candidate-not-object",
                    format!("a candidate must be an object, got {found}; skipped"),
                    format!("{prefix}/{index}"),
                ));
                continue;
            }
        };
        // Written only for a finding: most candidates have none.
        let path = || format!("{prefix}/{index}");
        let RawCandidate {
            evidence_key,
            doc_id,
            chunk_index,
            breadcrumb,
            title,
            source_type,
            excerpt,
            rank,
            score,
            score_label,
            raw_score,
            dense_distance,
            base_score,
            final_score,
            boost_reasons,
            hit_reasons,
            extra,
            diags,
        } = raw;
        if !diags.0.is_empty() {
            prefix_diags(diags, &path(), diagnostics);
        }
        let rank = match rank.unwrap_or(RawRank::Absent) {
            RawRank::Int(r) => Rank::Given(r),
            RawRank::Invalid(text) => Rank::Invalid(text),
            RawRank::Absent => {
                diagnostics.push(Diagnostic::warning(
                    "missing-rank",
                    format!(
                        "no originalRank: its position in the array ({}) is used",
                        index + 1
                    ),
                    path(),
                ));
                Rank::Position(index as u64 + 1)
            }
        };
        let evidence_key = match (evidence_key, &doc_id, chunk_index) {
            (Some(key), _, _) => key,
            (None, Some(doc), Some(chunk)) => Arc::from(format!("{doc}#{chunk}")),
            (None, _, _) => match &rank {
                Rank::Given(r) | Rank::Position(r) => Arc::from(format!("rank-{r}")),
                Rank::Invalid(text) => Arc::from(format!("rank-{text}")),
            },
        };
        let doc_id = doc_id.unwrap_or_else(|| evidence_key.clone());
        let (canonical, legacy_alias) = match &score_label {
            Some(label) => classify_label(label),
            None => (mode_label, false),
        };
        if canonical.is_none() {
            let message = match (&score_label, &trace.mode) {
                (Some(label), _) => format!("unknown scoreLabel {label:?}: quality 0"),
                (None, Some(mode)) => {
                    format!("no scoreLabel and the trace mode {mode:?} is not dense or hybrid: quality 0")
                }
                (None, None) => "no scoreLabel and no trace mode: quality 0".to_owned(),
            };
            diagnostics.push(Diagnostic::error("unknown-label", message, path()));
        }
        if canonical == Some(CanonicalLabel::Dense) && score.is_some_and(|d| d < 0.0) {
            diagnostics.push(Diagnostic::warning(
                "negative-distance",
                "negative L2 distance treated as 0",
                format!("{}/score", path()),
            ));
        }
        if dense_distance.is_some_and(|d| d < 0.0) {
            diagnostics.push(Diagnostic::warning(
                "negative-distance",
                "negative denseDistance treated as 0",
                format!("{}/denseDistance", path()),
            ));
        }
        let (excerpt, excerpt_chars) = match excerpt {
            Some((_, text)) => {
                let chars = text.chars().count();
                (Some(text), chars)
            }
            None => (None, 0),
        };
        out.push(Candidate {
            input_index: index,
            evidence_key,
            doc_id,
            chunk_index,
            breadcrumb,
            title,
            source_type,
            excerpt,
            excerpt_chars,
            rank,
            score,
            score_label,
            canonical_label: canonical,
            legacy_alias,
            raw_score,
            dense_distance,
            base_score,
            final_score,
            boost_reasons,
            hit_reasons,
            input_rank: InputRank::default(),
            extra: if extra.is_empty() {
                None
            } else {
                Some(Arc::new(extra))
            },
            doc_slot: 0,
            duplicate_of_rank: None,
            legacy_position: None,
            displacement: None,
        });
    }
    out
}
