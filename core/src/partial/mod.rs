//! Partials: the batch view of a part of a batch (a file, or a run of lines of one)
//! kept as counts, so that parts analysed apart, on as many machines as one likes,
//! merge into exactly the view of the whole batch.
//!
//! **Batch order.** A partial is made of pieces, each a document or a run of lines of
//! one, named by its source and the number of its first line. Merged, the pieces are
//! in order of (source, first line): sources in the byte order of their names,
//! lines in order. So the finished view of merged partials is the view
//! `ragtrace analyze --summary` prints for the same files listed in name order, read
//! whole or in runs of lines. Pieces with the same place are ordered by their counts
//! and then a fingerprint of their content: merging stays deterministic, but their
//! lines are then ambiguous (a shard should be made with its real first line).
//!
//! **What is exact, and why.** Every figure of the view is a count or is decided by
//! batch order, and a partial keeps each in a form that adds up:
//! - levels, recorded levels, transitions, the flags, per mode: integer counts,
//!   recorded spellings matched by name;
//! - the sweep: per threshold, how many tops reach it as their highest (integers);
//!   fractions are divided once, when the view is finished;
//! - warnings: per code, the trace count (a sum), the severity (a maximum), the first
//!   finding's message and the first five traces (kept with their place and taken by
//!   the least place); unnamed traces are named `#<position>` once the pieces before
//!   them are known;
//! - input errors with their place, in piece order, the first
//!   [`INPUT_ERRORS_LISTED`] of them (each part lists a prefix of its own, so the
//!   first of a merge are among the parts' listed ones), the rest counted by code (a
//!   sum); documents: per source, the sums of its pieces.
//!
//! Merging is associative and commutative: the finished view does not depend on the
//! order or the grouping of the merges. Partials made under different settings are
//! refused ([`MergeError`]).

mod build;
mod cases;
mod encode;
mod pieces;

pub use build::PartialBuilder;
pub use cases::{CaseMatches, CaseMatchesBuilder};
pub use encode::{DecodeError, FORMAT_VERSION as PARTIAL_FORMAT_VERSION, MAGIC as PARTIAL_MAGIC};

use crate::analysis::{BatchCounts, BatchView};
use crate::batch::{group_message, BatchWarning, Example, SummaryBuilder, SweepScopes, EXAMPLES};
use crate::config::{Config, ConfigError, SettingKey, Settings};
use crate::diagnostic::{InputError, Severity};
use crate::input::DocumentSummary;
use crate::input_errors::{
    add_counts, count, omitted_total, OmittedInputErrors, INPUT_ERRORS_LISTED,
};
use pieces::{merge_pieces, offsets, Piece};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt;

/// The batch view of part of a batch under one set of settings, as counts that merge.
#[derive(Debug, Clone)]
pub struct Partial {
    settings: Settings,
    config: Config,
    /// In batch order.
    pieces: Vec<Piece>,
    summary: SummaryBuilder,
    sweep: SweepScopes,
    /// In order of first appearance.
    warnings: Vec<PlacedWarning>,
    /// In batch order: the first [`INPUT_ERRORS_LISTED`] of the batch.
    input_errors: Vec<PlacedError>,
    /// The batch's input errors after those, counted by code.
    input_errors_omitted: OmittedInputErrors,
}

/// Where a warning was first seen: the piece, the trace's position in the piece, and
/// the order of the codes first seen on that trace.
type FirstSeen = (usize, usize, usize);

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct PlacedWarning {
    first: FirstSeen,
    code: String,
    severity: Severity,
    traces: usize,
    message: String,
    /// The first traces concerned, with their piece, in batch order.
    examples: Vec<(usize, Example)>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct PlacedError {
    piece: usize,
    #[serde(deserialize_with = "encode::error_of_any_version")]
    error: InputError,
}

/// Why partials cannot be merged.
#[derive(Debug, Clone, PartialEq)]
pub enum MergeError {
    /// No partial was given: a merge needs at least one to know its settings.
    Nothing,
    /// The partials were made under different settings: `key` is the first that
    /// differs (in the contract's order), with its value in each.
    Settings {
        key: String,
        one: String,
        another: String,
    },
    /// Case matches gathered for different golden cases (or evaluated against cases
    /// other than theirs).
    Cases,
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeError::Nothing => f.write_str("no partial to merge"),
            MergeError::Cases => f.write_str(
                "case matches gathered for different golden cases cannot be put together (gather every shard's with the same cases file)",
            ),
            MergeError::Settings { key, one, another } => write!(
                f,
                "partials made under different settings cannot be merged: {key} is {one} in one and {another} in another"
            ),
        }
    }
}

impl std::error::Error for MergeError {}

impl Partial {
    /// The partial of lines `first_line`, `first_line + 1`, ... of the JSON Lines
    /// document `source`: each item is one line (its `\n` or `\r\n` may be left on; an
    /// item holding more line ends counts as that many lines). A line that cannot be
    /// read is an input error at its line, as when the whole file is read. `Err` only
    /// when the settings are invalid.
    pub fn from_lines<L: AsRef<[u8]>>(
        settings: &Settings,
        source: &str,
        first_line: usize,
        lines: impl IntoIterator<Item = L>,
    ) -> Result<Partial, ConfigError> {
        let mut builder = PartialBuilder::lines(settings, source, first_line)?;
        for line in lines {
            builder.push_line(line.as_ref());
        }
        Ok(builder.finish())
    }

    /// The partial of one whole document (any shape, read as `ragtrace analyze` reads
    /// a file). `Err` only when the settings are invalid.
    pub fn from_document(
        settings: &Settings,
        source: &str,
        bytes: &[u8],
    ) -> Result<Partial, ConfigError> {
        let mut builder = PartialBuilder::document(settings, source)?;
        builder.push_chunk(bytes);
        Ok(builder.finish())
    }

    /// The partial of the document named `source` read from `input` in chunks of
    /// [`READ_CHUNK`](crate::input::READ_CHUNK) bytes, as `ragtrace analyze` reads a
    /// file (a document that is not JSON at all is given up after its first chunk).
    /// `Err` when the input cannot be read, or the settings are invalid.
    pub fn from_reader(
        settings: &Settings,
        source: &str,
        input: impl std::io::Read,
    ) -> std::io::Result<Partial> {
        PartialBuilder::document(settings, source)
            .map_err(|err| std::io::Error::new(std::io::ErrorKind::InvalidInput, err))?
            .read_from(input)
    }

    /// A partial of nothing: merged with any partial of the same settings, it changes
    /// nothing. `Err` only when the settings are invalid.
    pub fn empty(settings: &Settings) -> Result<Partial, ConfigError> {
        Ok(Partial {
            settings: settings.clone(),
            config: Config::from_settings(settings)?,
            pieces: Vec::new(),
            summary: SummaryBuilder::default(),
            sweep: SweepScopes::default(),
            warnings: Vec::new(),
            input_errors: Vec::new(),
            input_errors_omitted: OmittedInputErrors::new(),
        })
    }

    /// A partial of one piece, from what an analyzer counted over it.
    fn of_piece(
        settings: Settings,
        config: Config,
        document: DocumentSummary,
        first_line: usize,
        counts: BatchCounts,
    ) -> Partial {
        let warnings = counts
            .warnings
            .into_tallies()
            .into_iter()
            .map(|w| PlacedWarning {
                first: (0, w.first.0, w.first.1),
                code: w.code,
                severity: w.severity,
                traces: w.traces,
                message: w.message,
                examples: w.examples.into_iter().map(|e| (0, e)).collect(),
            })
            .collect();
        let mut partial = Partial {
            settings,
            config,
            pieces: vec![Piece::new(document, first_line, counts.slots)],
            summary: counts.summary,
            sweep: counts.sweep_counts,
            warnings,
            input_errors: counts
                .input_errors
                .into_iter()
                .map(|error| PlacedError { piece: 0, error })
                .collect(),
            input_errors_omitted: counts.input_errors_omitted,
        };
        let fingerprint = encode::fingerprint(&partial);
        if let Some(piece) = partial.pieces.first_mut() {
            piece.fingerprint = fingerprint;
        }
        partial
    }

    /// The settings the partial was made under.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Defaults plus the settings.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Traces counted.
    pub fn traces(&self) -> usize {
        self.pieces
            .iter()
            .fold(0, |sum, p| sum.saturating_add(p.traces))
    }

    /// Documents or traces that could not be read, listed and counted.
    pub fn input_error_count(&self) -> usize {
        self.input_errors
            .len()
            .saturating_add(omitted_total(&self.input_errors_omitted))
    }

    /// `Ok` when `other` was made under the same settings as this partial (so the two
    /// can be merged), else the first setting that differs.
    pub fn check_mergeable(&self, other: &Partial) -> Result<(), MergeError> {
        same_settings(&self.settings, &other.settings)
    }

    /// This partial and `other` as one.
    pub fn merge_with(self, other: Partial) -> Result<Partial, MergeError> {
        Partial::merge([self, other])
    }

    /// The partials as one: the counts of all their traces, their pieces in batch
    /// order. Associative and commutative. `Err` when there is none, or when they
    /// were made under different settings.
    pub fn merge(parts: impl IntoIterator<Item = Partial>) -> Result<Partial, MergeError> {
        let parts: Vec<Partial> = parts.into_iter().collect();
        let first = parts.first().ok_or(MergeError::Nothing)?;
        for part in &parts {
            first.check_mergeable(part)?;
        }
        let piece_lists: Vec<&[Piece]> = parts.iter().map(|p| p.pieces.as_slice()).collect();
        let (pieces, moved) = merge_pieces(&piece_lists);
        let mut merged = Partial {
            settings: first.settings.clone(),
            config: first.config,
            pieces,
            summary: SummaryBuilder::default(),
            sweep: SweepScopes::default(),
            warnings: Vec::new(),
            input_errors: Vec::new(),
            input_errors_omitted: OmittedInputErrors::new(),
        };
        let mut by_code: HashMap<String, usize> = HashMap::new();
        for (part, moved) in parts.into_iter().zip(&moved) {
            let to = |piece: usize| moved.get(piece).copied().unwrap_or(piece);
            merged.summary.merge(&part.summary);
            merged.sweep.merge(&part.sweep);
            for mut w in part.warnings {
                w.first.0 = to(w.first.0);
                for example in &mut w.examples {
                    example.0 = to(example.0);
                }
                match by_code
                    .get(&w.code)
                    .and_then(|&at| merged.warnings.get_mut(at))
                {
                    Some(kept) => kept.absorb(w),
                    None => {
                        by_code.insert(w.code.clone(), merged.warnings.len());
                        merged.warnings.push(w);
                    }
                }
            }
            merged
                .input_errors
                .extend(part.input_errors.into_iter().map(|mut e| {
                    e.piece = to(e.piece);
                    e
                }));
            add_counts(&mut merged.input_errors_omitted, part.input_errors_omitted);
            // Stable: a piece's errors come from one part, in their order. Each part
            // lists a prefix of its errors in batch order and counts only ones after
            // it, so the first listed of the merge are the first of the whole batch;
            // bounded after each part, a merge of many holds two parts' errors at most.
            merged.input_errors.sort_by_key(|e| e.piece);
            merged.bound_input_errors();
        }
        merged
            .warnings
            .sort_by(|a, b| (a.first, &a.code).cmp(&(b.first, &b.code)));
        Ok(merged)
    }

    /// Keeps the first [`INPUT_ERRORS_LISTED`] input errors listed and counts the
    /// rest by code.
    fn bound_input_errors(&mut self) {
        if self.input_errors.len() > INPUT_ERRORS_LISTED {
            for placed in self.input_errors.split_off(INPUT_ERRORS_LISTED) {
                count(&mut self.input_errors_omitted, placed.error.code(), 1);
            }
        }
    }

    /// The batch view: what `ragtrace analyze --summary` prints (with the sweep when
    /// `with_sweep`) for the same traces.
    pub fn finish(&self, with_sweep: bool) -> BatchView {
        let offsets = offsets(&self.pieces);
        let offset = |piece: usize| offsets.get(piece).copied().unwrap_or(0);
        let mut documents: Vec<DocumentSummary> = Vec::new();
        for piece in &self.pieces {
            match documents.last_mut() {
                Some(document) if document.source == piece.source => {
                    document.traces = document.traces.saturating_add(piece.traces);
                    document.candidates = document.candidates.saturating_add(piece.candidates);
                    document.errors = document.errors.saturating_add(piece.errors);
                    document.skipped_spans =
                        document.skipped_spans.saturating_add(piece.skipped_spans);
                }
                _ => documents.push(DocumentSummary {
                    source: piece.source.clone(),
                    traces: piece.traces,
                    candidates: piece.candidates,
                    errors: piece.errors,
                    skipped_spans: piece.skipped_spans,
                }),
            }
        }
        let summary = self.summary.finish();
        let mut warnings: Vec<BatchWarning> = self
            .warnings
            .iter()
            .map(|w| BatchWarning {
                code: w.code.clone(),
                severity: w.severity,
                traces: w.traces,
                message: group_message(&w.code, w.traces, &summary.all),
                examples: w
                    .examples
                    .iter()
                    .map(|(piece, example)| example.name(offset(*piece)))
                    .collect(),
            })
            .collect();
        warnings.extend(self.summary.score_fit.warnings(self.config.score_kind));
        BatchView {
            config: self.config,
            summary,
            sweep: with_sweep.then(|| self.sweep.all.points()),
            sweep_counts: self.sweep,
            warnings,
            input_errors: self.input_errors.iter().map(|e| e.error.clone()).collect(),
            input_errors_omitted: self.input_errors_omitted.clone(),
            documents,
        }
    }
}

/// `Ok` when `one` and `another` set the same keys to the same values, else the
/// first key (in the contract's order) that differs.
fn same_settings(one: &Settings, another: &Settings) -> Result<(), MergeError> {
    for &key in SettingKey::ALL {
        let (a, b) = (one.value(key), another.value(key));
        if a != b {
            let shown = |value: Option<crate::config::SettingValue>| match value {
                Some(value) => value.to_string(),
                None => "not set".to_owned(),
            };
            return Err(MergeError::Settings {
                key: key.name().to_owned(),
                one: shown(a),
                another: shown(b),
            });
        }
    }
    Ok(())
}

impl PlacedWarning {
    /// Adds the counts of the same code in another part of the batch.
    fn absorb(&mut self, other: PlacedWarning) {
        self.traces = self.traces.saturating_add(other.traces);
        self.severity = self.severity.max(other.severity);
        if (other.first, &other.message) < (self.first, &self.message) {
            self.first = other.first;
            self.message = other.message;
        }
        self.examples.extend(other.examples);
        self.examples.sort();
        self.examples.truncate(EXAMPLES);
    }
}
