//! Golden evaluation of a batch analysed in shards. A case links to the first trace
//! of the batch with its `caseId`, else to the first trace without a `caseId` whose
//! trimmed query is the case's (contract section 6), and the report lists every other
//! trace by name. So a shard keeps, in its order, every trace's name and, for the
//! first trace of the shard with each case's key, what the evaluator reads of it;
//! merged in batch order, the first of each key in the batch is among those kept,
//! and the evaluation of the merged matches is the evaluation of the whole batch.

use super::encode::{settings_of_pairs, settings_pairs, with_header, without_header};
use super::pieces::{in_order, merge_pieces, offsets, Piece};
use super::{same_settings, DecodeError, MergeError};
use crate::analysis::BatchAnalyzer;
use crate::batch::Example;
use crate::config::{Config, ConfigError, Settings};
use crate::golden::{self, CaseSet, GoldenReport, RunBlock, RunTrace, TraceSteps};
use crate::input::{DocumentReader, ParsedBatch};
use crate::trace_analysis::TraceAnalysis;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::hash::Hasher;

/// The first bytes of encoded case matches.
pub(super) const MATCHES_MAGIC: &[u8; 16] = b"ragtrace-matches";

/// What a golden evaluation needs of part of a batch under one set of settings:
/// every trace's name, in batch order, and the evaluator's view of the traces that
/// may link to a case. Merges as partials do (pieces in order of source, then line).
#[derive(Debug, Clone)]
pub struct CaseMatches {
    settings: Settings,
    config: Config,
    keys: CaseKeys,
    /// In batch order.
    pieces: Vec<Piece>,
    /// Every trace, in batch order.
    traces: Vec<Matched>,
}

/// The keys cases link by: their `caseId`s, and their trimmed queries.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
struct CaseKeys {
    ids: Vec<String>,
    queries: Vec<String>,
}

impl CaseKeys {
    fn of(cases: &CaseSet) -> CaseKeys {
        let mut ids: Vec<String> = cases.cases.iter().map(|c| c.case_id.clone()).collect();
        let mut queries: Vec<String> = cases
            .cases
            .iter()
            .filter_map(|c| c.query.as_deref().map(|q| q.trim().to_owned()))
            .collect();
        ids.sort();
        ids.dedup();
        queries.sort();
        queries.dedup();
        CaseKeys { ids, queries }
    }

    /// The key by which a trace could link: its `caseId` when it has one (a trace
    /// with one never links by query), else its trimmed query.
    fn key_of<'a>(
        &self,
        case_id: Option<&'a str>,
        query: Option<&'a str>,
    ) -> Option<(bool, &'a str)> {
        match case_id {
            Some(id) => self
                .ids
                .binary_search_by(|k| k.as_str().cmp(id))
                .is_ok()
                .then_some((true, id)),
            None => {
                let query = query?.trim();
                self.queries
                    .binary_search_by(|k| k.as_str().cmp(query))
                    .is_ok()
                    .then_some((false, query))
            }
        }
    }
}

/// One trace: its piece and name, and, when it may link to a case, what the
/// evaluator reads of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Matched {
    piece: usize,
    name: Example,
    run: Option<Linkable>,
}

/// A [`RunTrace`] without its name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Linkable {
    case_id: Option<String>,
    query: Option<String>,
    k: usize,
    blocks: Vec<Block>,
    /// What the floor sweep reads of the trace (contract section 10.2).
    #[serde(default)]
    floor_steps: Option<TraceSteps>,
}

/// docId, breadcrumb, title and excerpt of an accepted block ([`RunBlock`]).
type Block = (String, Option<String>, Option<String>, Option<String>);

impl Linkable {
    fn of(run: RunTrace, floor_steps: TraceSteps) -> Linkable {
        Linkable {
            floor_steps: Some(floor_steps),
            case_id: run.case_id,
            query: run.query,
            k: run.k,
            blocks: run
                .blocks
                .into_iter()
                .map(|b| (b.doc_id, b.breadcrumb, b.title, b.excerpt))
                .collect(),
        }
    }

    fn run(&self, name: String) -> RunTrace {
        RunTrace {
            name,
            case_id: self.case_id.clone(),
            query: self.query.clone(),
            k: self.k,
            blocks: self
                .blocks
                .iter()
                .map(|(doc_id, breadcrumb, title, excerpt)| RunBlock {
                    doc_id: doc_id.clone(),
                    breadcrumb: breadcrumb.clone(),
                    title: title.clone(),
                    excerpt: excerpt.clone(),
                })
                .collect(),
        }
    }
}

/// Keeps the evaluator's view only of the first trace of each key.
#[derive(Default)]
struct FirstOfKey {
    seen: HashSet<(bool, String)>,
}

impl FirstOfKey {
    fn first(&mut self, keys: &CaseKeys, case_id: Option<&str>, query: Option<&str>) -> bool {
        keys.key_of(case_id, query)
            .is_some_and(|(by_id, key)| self.seen.insert((by_id, key.to_owned())))
    }
}

/// Builds the [`CaseMatches`] of one document, or of a run of lines of one, from its
/// bytes fed in chunks (as [`PartialBuilder`](super::PartialBuilder) builds a partial).
pub struct CaseMatchesBuilder {
    settings: Settings,
    keys: CaseKeys,
    analyzer: BatchAnalyzer,
    reader: DocumentReader,
    first_line: usize,
    traces: Vec<Matched>,
    firsts: FirstOfKey,
}

impl CaseMatchesBuilder {
    /// A builder of lines `first_line`, ... of the JSON Lines document `source`.
    /// `Err` only when the settings are invalid.
    pub fn lines(
        settings: &Settings,
        cases: &CaseSet,
        source: &str,
        first_line: usize,
    ) -> Result<Self, ConfigError> {
        Self::new(
            settings,
            cases,
            DocumentReader::lines(source, first_line),
            first_line,
        )
    }

    /// A builder of the whole document `source`, of any shape.
    /// `Err` only when the settings are invalid.
    pub fn document(
        settings: &Settings,
        cases: &CaseSet,
        source: &str,
    ) -> Result<Self, ConfigError> {
        Self::new(settings, cases, DocumentReader::new(source), 1)
    }

    fn new(
        settings: &Settings,
        cases: &CaseSet,
        reader: DocumentReader,
        first_line: usize,
    ) -> Result<Self, ConfigError> {
        Ok(CaseMatchesBuilder {
            settings: settings.clone(),
            keys: CaseKeys::of(cases),
            analyzer: BatchAnalyzer::new(settings, false)?,
            reader,
            first_line,
            traces: Vec::new(),
            firsts: FirstOfKey::default(),
        })
    }

    /// The next bytes of the document; a line may run across chunks.
    pub fn push_chunk(&mut self, bytes: &[u8]) {
        self.reader.push(bytes);
        self.analyse_parsed();
    }

    /// The next line, with or without its line end (one is added when missing).
    pub fn push_line(&mut self, line: &[u8]) {
        self.reader.push(line);
        if !line.ends_with(b"\n") {
            self.reader.push(b"\n");
        }
    }

    fn analyse_parsed(&mut self) {
        let part = self.reader.take_parsed();
        analyse(
            &mut self.analyzer,
            &self.keys,
            &mut self.firsts,
            &mut self.traces,
            part,
        );
    }

    /// The case matches of everything fed.
    pub fn finish(mut self) -> CaseMatches {
        self.analyse_parsed();
        let CaseMatchesBuilder {
            settings,
            keys,
            mut analyzer,
            reader,
            first_line,
            mut traces,
            mut firsts,
        } = self;
        let mut last = reader.finish();
        let document = last
            .documents
            .pop()
            .unwrap_or_else(|| crate::input::DocumentSummary {
                source: String::new(),
                traces: 0,
                candidates: 0,
                errors: 0,
                skipped_spans: 0,
            });
        analyse(&mut analyzer, &keys, &mut firsts, &mut traces, last);
        let config = *analyzer.config();
        let slots = analyzer.into_counts().slots;
        let mut matches = CaseMatches {
            settings,
            config,
            keys,
            pieces: vec![Piece::new(document, first_line, slots)],
            traces,
        };
        let mut hasher = crate::fast_hash::FxHasher::default();
        hasher.write(&matches.to_bytes());
        if let Some(piece) = matches.pieces.first_mut() {
            piece.fingerprint = hasher.finish();
        }
        matches
    }
}

/// Analyses the traces of `part`, keeping each one's name and, for the first of each
/// case key, what the evaluator reads of it.
fn analyse(
    analyzer: &mut BatchAnalyzer,
    keys: &CaseKeys,
    firsts: &mut FirstOfKey,
    traces: &mut Vec<Matched>,
    part: ParsedBatch,
) {
    analyzer.analyze_part(part, |t: TraceAnalysis| {
        let trace = &t.trace;
        let linkable = firsts.first(keys, trace.case_id.as_deref(), trace.query.as_deref());
        traces.push(Matched {
            piece: 0,
            name: Example {
                position: trace.position,
                request_id: trace.request_id.clone(),
            },
            run: linkable.then(|| Linkable::of(RunTrace::from_analysis(&t), TraceSteps::of(&t))),
        });
    });
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Encoded {
    settings: Vec<(String, String)>,
    keys: CaseKeys,
    pieces: Vec<Piece>,
    traces: Vec<Matched>,
}

impl CaseMatches {
    /// The case matches of lines `first_line`, ... of the JSON Lines document
    /// `source` (each item one line, as [`Partial::from_lines`](super::Partial::from_lines)).
    /// `Err` only when the settings are invalid.
    pub fn from_lines<L: AsRef<[u8]>>(
        settings: &Settings,
        cases: &CaseSet,
        source: &str,
        first_line: usize,
        lines: impl IntoIterator<Item = L>,
    ) -> Result<CaseMatches, ConfigError> {
        let mut builder = CaseMatchesBuilder::lines(settings, cases, source, first_line)?;
        for line in lines {
            builder.push_line(line.as_ref());
        }
        Ok(builder.finish())
    }

    /// The case matches of one whole document (any shape). `Err` only when the
    /// settings are invalid.
    pub fn from_document(
        settings: &Settings,
        cases: &CaseSet,
        source: &str,
        bytes: &[u8],
    ) -> Result<CaseMatches, ConfigError> {
        let mut builder = CaseMatchesBuilder::document(settings, cases, source)?;
        builder.push_chunk(bytes);
        Ok(builder.finish())
    }

    /// Traces gathered.
    pub fn traces(&self) -> usize {
        self.traces.len()
    }

    /// The matches as one, in batch order. Associative and commutative. `Err` when
    /// there are none, or they were gathered under different settings or cases.
    pub fn merge(parts: impl IntoIterator<Item = CaseMatches>) -> Result<CaseMatches, MergeError> {
        let parts: Vec<CaseMatches> = parts.into_iter().collect();
        let first = parts.first().ok_or(MergeError::Nothing)?;
        for part in &parts {
            same_settings(&first.settings, &part.settings)?;
            if part.keys != first.keys {
                return Err(MergeError::Cases);
            }
        }
        let piece_lists: Vec<&[Piece]> = parts.iter().map(|p| p.pieces.as_slice()).collect();
        let (pieces, moved) = merge_pieces(&piece_lists);
        let (settings, config, keys) = (first.settings.clone(), first.config, first.keys.clone());
        let mut traces: Vec<Matched> = Vec::new();
        for (part, moved) in parts.into_iter().zip(&moved) {
            traces.extend(part.traces.into_iter().map(|mut t| {
                t.piece = moved.get(t.piece).copied().unwrap_or(t.piece);
                t
            }));
        }
        // Stable: a piece's traces come from one part, in their order.
        traces.sort_by_key(|t| t.piece);
        // Only the first of each key in the batch can link: the others need no more
        // than their name.
        let mut firsts = FirstOfKey::default();
        for t in &mut traces {
            let first = t.run.as_ref().is_some_and(|run| {
                firsts.first(&keys, run.case_id.as_deref(), run.query.as_deref())
            });
            if !first {
                t.run = None;
            }
        }
        Ok(CaseMatches {
            settings,
            config,
            keys,
            pieces,
            traces,
        })
    }

    /// The golden report (`report.json`) of `cases` against the traces: what
    /// `ragtrace eval` writes for the same files listed in name order. `Err` when
    /// the matches were gathered for other cases.
    pub fn evaluate(&self, cases: &CaseSet) -> Result<GoldenReport, MergeError> {
        if CaseKeys::of(cases) != self.keys {
            return Err(MergeError::Cases);
        }
        let offsets = offsets(&self.pieces);
        let runs: Vec<RunTrace> = self
            .traces
            .iter()
            .map(|t| {
                let name = t.name.name(offsets.get(t.piece).copied().unwrap_or(0));
                match &t.run {
                    Some(run) => run.run(name),
                    None => RunTrace {
                        name,
                        ..RunTrace::default()
                    },
                }
            })
            .collect();
        let config = serde_json::to_value(self.config).unwrap_or(serde_json::Value::Null);
        let steps: Vec<Option<TraceSteps>> = self
            .traces
            .iter()
            .map(|t| t.run.as_ref().and_then(|r| r.floor_steps.clone()))
            .collect();
        Ok(golden::evaluate_runs_with_steps(
            &cases.cases,
            &runs,
            &steps,
            self.config.return_n,
            self.config.relevant_grade,
        )
        .with_config(config)
        .with_diagnostics(cases.diagnostics.iter().cloned()))
    }

    /// The matches as bytes: [`MATCHES_MAGIC`], the format version, compact JSON.
    pub fn to_bytes(&self) -> Vec<u8> {
        with_header(
            MATCHES_MAGIC,
            &Encoded {
                settings: settings_pairs(&self.settings),
                keys: self.keys.clone(),
                pieces: self.pieces.clone(),
                traces: self.traces.clone(),
            },
        )
    }

    /// Matches from the bytes of [`CaseMatches::to_bytes`]; a wrong header, another
    /// version or bytes that do not hold consistent matches is an error.
    pub fn from_bytes(bytes: &[u8]) -> Result<CaseMatches, DecodeError> {
        let encoded: Encoded = without_header(MATCHES_MAGIC, bytes)?;
        let (settings, config) = settings_of_pairs(&encoded.settings)?;
        let pieces = encoded.pieces.len();
        if !encoded.traces.iter().all(|t| t.piece < pieces) {
            return Err(DecodeError::Corrupt(
                "a trace is of a piece it does not hold".into(),
            ));
        }
        if !in_order(&encoded.pieces) {
            return Err(DecodeError::Corrupt(
                "its pieces are not in batch order".into(),
            ));
        }
        Ok(CaseMatches {
            settings,
            config,
            keys: encoded.keys,
            pieces: encoded.pieces,
            traces: encoded.traces,
        })
    }
}
