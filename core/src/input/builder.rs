//! From raw objects to traces: places and positions, the shape of each object, the
//! trace-level fields, a trace's own options and the candidates.

use super::derive::derive;
use super::lookup::lookup_result;
use super::model::{Candidate, DocumentSummary, ParsedBatch, Rank, Trace, TraceKind};
use super::scalar::Diags;
use super::visitors::{Item, ListField, RawCandidate, RawObject, RawRank, Top};
use crate::config::{ConfigError, SettingKey, SettingValueError, Settings};
use crate::diagnostic::{pointer_token, Diagnostic, InputError};
use crate::input_errors::{keep, omitted_total, OmittedInputErrors};
use crate::label::{canonical_label, classify_label, CanonicalLabel};
use serde_json::Value;
use std::sync::Arc;

pub(super) struct Builder {
    pub(super) source: Arc<str>,
    traces: Vec<Arc<Trace>>,
    /// The traces read since the last were shared, up to [`SHARED_TOGETHER`]: each
    /// trace's struct is moved into its `Arc` with the others of its group, one
    /// allocation after the other, not each between its candidates' many small
    /// allocations. A pass over a batch (an analysis, every knob move) reads each
    /// trace's struct, and then finds the next ones close by in memory.
    pending: Vec<Trace>,
    pub(super) errors: Vec<InputError>,
    errors_omitted: OmittedInputErrors,
    /// Trace positions handed out since the last [`Builder::drain`]; positions count
    /// from there, so the drained parts concatenate into the whole document.
    pub(super) slots: usize,
    /// What earlier parts, already drained, contributed.
    drained: DocumentSummary,
}

/// How many traces' structs are shared (allocated) together; see [`Builder::pending`].
const SHARED_TOGETHER: usize = 64;

/// Where an object sits: its pointer, and its JSON Lines line (number, text).
#[derive(Clone, Copy)]
pub(super) struct Place<'a> {
    pub(super) pointer: &'a str,
    pub(super) line: Option<(usize, &'a str)>,
}

impl Builder {
    pub(super) fn new(source: &str) -> Self {
        Builder {
            source: Arc::from(source),
            traces: Vec::new(),
            pending: Vec::with_capacity(SHARED_TOGETHER),
            errors: Vec::new(),
            errors_omitted: OmittedInputErrors::new(),
            slots: 0,
            drained: DocumentSummary {
                source: source.to_owned(),
                traces: 0,
                candidates: 0,
                errors: 0,
            },
        }
    }

    pub(super) fn fail(
        &mut self,
        line: Option<usize>,
        column: Option<usize>,
        path: Option<String>,
        message: String,
        line_text: Option<&str>,
    ) {
        let error = InputError::at(&self.source, line, column, path, message, line_text);
        keep(&mut self.errors, &mut self.errors_omitted, error);
    }

    /// A syntax error in `text`, which starts after `line_offset` lines of the document.
    pub(super) fn json_error(&mut self, err: &serde_json::Error, text: &str, line_offset: usize) {
        self.slots += 1;
        let error = InputError::json_syntax(&self.source, text, err, line_offset);
        keep(&mut self.errors, &mut self.errors_omitted, error);
    }

    /// A document or line that cannot be read (bytes that are not UTF-8), at a 1-based
    /// line and character column; like a syntax error, it takes a trace's position.
    pub(super) fn unreadable(&mut self, line: usize, column: usize, message: String, text: &str) {
        self.slots += 1;
        self.fail(Some(line), Some(column), None, message, Some(text));
    }

    pub(super) fn top(&mut self, top: Top, pointer: &str, line: Option<(usize, &str)>) {
        match top {
            Top::Array(items) => self.items(items, pointer, line),
            Top::Object(o) if is_wrapper(&o) => {
                let Some((ListField::List(items), name)) = o.traces else {
                    return;
                };
                let prefix = format!("{pointer}/{name}");
                self.items(items, &prefix, line);
            }
            Top::Object(o) => {
                let place = Place { pointer, line };
                self.object(*o, place);
            }
            Top::Other(found) => {
                self.slots += 1;
                self.fail(
                    line.map(|l| l.0),
                    None,
                    Some(pointer.to_owned()).filter(|p| !p.is_empty()),
                    format!("expected a trace object, an array of traces or {{\"traces\": [...]}}, got {found}"),
                    line.map(|l| l.1),
                );
            }
        }
    }

    pub(super) fn items(
        &mut self,
        items: Vec<Item<RawObject>>,
        prefix: &str,
        line: Option<(usize, &str)>,
    ) {
        for (index, item) in items.into_iter().enumerate() {
            let pointer = format!("{prefix}/{index}");
            match item {
                Item::Object(o) => self.object(
                    o,
                    Place {
                        pointer: &pointer,
                        line,
                    },
                ),
                Item::NotObject(found) => {
                    self.slots += 1;
                    self.fail(
                        line.map(|l| l.0),
                        None,
                        Some(pointer),
                        format!("a trace must be an object, got {found}"),
                        None,
                    );
                }
            }
        }
    }

    pub(super) fn object(&mut self, o: RawObject, place: Place) {
        self.slots += 1;
        let position = self.slots;
        match build_trace(o, place, position, &self.source) {
            Ok(trace) => {
                self.pending.push(trace);
                if self.pending.len() == SHARED_TOGETHER {
                    self.share_pending();
                }
            }
            Err(message) => self.fail(
                place.line.map(|l| l.0),
                None,
                Some(place.pointer.to_owned()).filter(|p| !p.is_empty()),
                message,
                place.line.map(|l| l.1),
            ),
        }
    }

    fn share_pending(&mut self) {
        self.traces.extend(self.pending.drain(..).map(Arc::new));
    }

    /// Traces read since the last [`Builder::drain`].
    pub(super) fn trace_count(&self) -> usize {
        self.traces.len() + self.pending.len()
    }

    /// What the document has contributed so far, drained parts included.
    pub(super) fn summary(&self) -> DocumentSummary {
        let shared = self.traces.iter().map(|t| t.candidates.len());
        let pending = self.pending.iter().map(|t| t.candidates.len());
        DocumentSummary {
            source: self.drained.source.clone(),
            traces: self.drained.traces + self.trace_count(),
            candidates: self.drained.candidates + shared.chain(pending).sum::<usize>(),
            errors: self.drained.errors + self.errors.len() + omitted_total(&self.errors_omitted),
        }
    }

    /// The traces and errors read since the last drain, as a part of the document
    /// without its summary (`documents` is empty): the parts, concatenated with
    /// [`ParsedBatch::extend`], and then the last one from [`Builder::finish`], are
    /// the whole document.
    pub(super) fn drain(&mut self) -> ParsedBatch {
        self.share_pending();
        self.drained = self.summary();
        ParsedBatch {
            traces: std::mem::take(&mut self.traces),
            documents: Vec::new(),
            errors: std::mem::take(&mut self.errors),
            errors_omitted: std::mem::take(&mut self.errors_omitted),
            slots: std::mem::take(&mut self.slots),
        }
    }

    /// The last part, with the document's summary.
    pub(super) fn finish(mut self) -> ParsedBatch {
        self.share_pending();
        let summary = self.summary();
        ParsedBatch {
            traces: self.traces,
            documents: vec![summary],
            errors: self.errors,
            errors_omitted: self.errors_omitted,
            slots: self.slots,
        }
    }
}

pub(super) fn has_list<T>(field: &Option<(ListField<T>, &'static str)>) -> bool {
    matches!(field, Some((ListField::List(_), _)))
}

/// `{"traces": [...]}`: a `traces` array, no explicit kind, nothing that makes it a trace.
pub(super) fn is_wrapper(o: &RawObject) -> bool {
    o.kind.is_none()
        && has_list(&o.traces)
        && o.candidates.is_none()
        && o.evidence.is_none()
        && o.trace.is_none()
}

pub(super) fn kind_of(o: &mut RawObject) -> Result<TraceKind, String> {
    let explicit = match o.kind.as_deref().map(str::trim) {
        Some("RerankTrace") => Some(TraceKind::RerankTrace),
        Some("LookupResult") => Some(TraceKind::LookupResult),
        Some(other) => {
            o.diags.0.push(Diagnostic::warning(
                "unknown-kind",
                format!(
                    "kind {other:?} is neither RerankTrace nor LookupResult; recognised by shape"
                ),
                "/kind",
            ));
            None
        }
        None => None,
    };
    let embedded = matches!(o.trace, Some((Item::Object(_), _)));
    match explicit {
        Some(kind) => Ok(kind),
        None if has_list(&o.candidates) => Ok(TraceKind::RerankTrace),
        None if has_list(&o.evidence) || embedded => Ok(TraceKind::LookupResult),
        None if matches!(o.evidence, Some((ListField::Wrong(_), _))) => {
            Err(missing_list_message(o, "evidence"))
        }
        None => Err(missing_list_message(o, "candidates")),
    }
}

pub(super) fn missing_list_message(o: &RawObject, wanted: &str) -> String {
    let field = if wanted == "candidates" {
        &o.candidates
    } else {
        &o.evidence
    };
    match field {
        Some((ListField::Wrong(found), name)) => {
            format!("the trace's {name} must be an array, got {found}")
        }
        _ => format!("the trace has no {wanted} array (a RerankTrace needs candidates, a LookupResult evidence)"),
    }
}

pub(super) fn prefix_diags(diags: Diags, prefix: &str, out: &mut Vec<Diagnostic>) {
    out.extend(diags.0.into_iter().map(|mut diag| {
        diag.path = diag.path.map(|p| format!("{prefix}{p}"));
        diag
    }));
}

/// One trace object of either shape, or why it is not one.
pub(super) fn build_trace(
    mut o: RawObject,
    place: Place,
    position: usize,
    source: &Arc<str>,
) -> Result<Trace, String> {
    match kind_of(&mut o)? {
        TraceKind::RerankTrace => rerank_trace(o, place, position, source),
        TraceKind::LookupResult => lookup_result(o, place, position, source),
    }
}

/// A RerankTrace: its `candidates` are the candidates.
fn rerank_trace(
    mut o: RawObject,
    place: Place,
    position: usize,
    source: &Arc<str>,
) -> Result<Trace, String> {
    let Some((ListField::List(items), list_name)) = o.candidates.take() else {
        return Err(missing_list_message(&o, "candidates"));
    };
    let trace = base_trace(o, TraceKind::RerankTrace, place, position, source);
    let prefix = format!("{}/{list_name}", place.pointer);
    let mut diagnostics = Vec::new();
    let candidates = finish_candidates(items, &prefix, &trace, &mut diagnostics);
    Ok(finish_trace(trace, diagnostics, candidates))
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
