//! A TREC run file read as traces (contract section 12.3): lines `qid Q0 docno rank score
//! tag`, one trace per qid (`caseId` = qid, `requestId` = `tag/qid`, mode hybrid), its
//! candidates in trec_eval's order (score descending, ties by docno descending), each
//! `originalRank` its position and `evidenceKey` = `docId` = docno, with no score.
//!
//! The traces are built as the JSON shape of section 1 and read by the same builder as
//! every other document, so they are the traces any other shape of the same content
//! gives. Blank lines and lines starting with `#` are skipped, as trec_eval does.

use super::builder::Builder;
use super::model::{ParsedBatch, Trace};
use crate::diagnostic::{Diagnostic, InputError, InputErrorCode};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::Arc;

/// The most line errors a TREC file (a run, or qrels) keeps: the first ones say what
/// is wrong with the file.
pub(crate) const MOST_ERRORS: usize = 50;

/// The fields of a TREC file's data lines (not blank, not a `#` comment), with their
/// 1-based line numbers: a run's here, a qrels file's in `golden`.
pub(crate) fn data_lines(text: &str) -> impl Iterator<Item = (usize, &str, Vec<&str>)> {
    text.lines().enumerate().filter_map(|(i, line)| {
        let fields: Vec<&str> = line.split_whitespace().collect();
        (!fields.is_empty() && !fields[0].starts_with('#')).then_some((i + 1, line, fields))
    })
}

/// Whether `text` is a TREC file of `fields` white-space separated fields a line: its
/// first data line has that many and does not start as JSON does.
pub(crate) fn looks_like_trec(text: &str, fields: usize) -> bool {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    match data_lines(text).next() {
        Some((_, line, found)) => {
            found.len() == fields && !line.trim_start().starts_with(['{', '[', '"'])
        }
        None => false,
    }
}

/// Whether `text` is a TREC run file (six fields a line).
pub(crate) fn looks_like_trec_run(text: &str) -> bool {
    looks_like_trec(text, 6)
}

/// [`parse_trec_run`] (handed in as `parse`) of bytes: text that is not UTF-8 is an
/// error at its line, never replaced.
pub(crate) fn parse_trec_run_bytes(
    source: &str,
    bytes: &[u8],
    parse: fn(&str, &str) -> ParsedBatch,
) -> ParsedBatch {
    match std::str::from_utf8(bytes) {
        Ok(text) => parse(source, text),
        Err(err) => {
            let valid = bytes.get(..err.valid_up_to()).unwrap_or_default();
            let line = 1 + valid.iter().filter(|&&b| b == b'\n').count();
            let mut batch = ParsedBatch::default();
            batch.errors.push(InputError::at(
                source,
                Some(line),
                None,
                None,
                InputErrorCode::Unusable,
                format!("line {line} is not UTF-8 text: a run file must be UTF-8"),
                None,
            ));
            batch
        }
    }
}

/// One qid's documents as read.
struct Query<'a> {
    qid: &'a str,
    tag: &'a str,
    /// (score, docno, line).
    docs: Vec<(f64, &'a str, usize)>,
}

/// Reads a TREC run file as a batch of traces. Lines that cannot be read are input
/// errors located by line (at most [`MOST_ERRORS`], then one saying how many more).
pub fn parse_trec_run(source: &str, text: &str) -> ParsedBatch {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut errors: Vec<InputError> = Vec::new();
    let mut more_errors = 0usize;
    let mut error = |line: usize, text: &str, message: String| {
        if errors.len() < MOST_ERRORS {
            errors.push(InputError::at(
                source,
                Some(line),
                Some(1),
                None,
                InputErrorCode::Unusable,
                message,
                Some(text),
            ));
        } else {
            more_errors += 1;
        }
    };
    let mut queries: Vec<Query> = Vec::new();
    let mut by_qid: HashMap<&str, usize> = HashMap::new();
    for (line, raw, fields) in data_lines(text) {
        let [qid, _, docno, _, score, tag] = fields[..] else {
            error(
                line,
                raw,
                format!(
                    "a run line has 6 fields (qid Q0 docno rank score tag), this one has {}",
                    fields.len()
                ),
            );
            continue;
        };
        let Some(score) = score.parse::<f64>().ok().filter(|s| s.is_finite()) else {
            error(
                line,
                raw,
                format!("the score \"{score}\" (field 5) is not a number"),
            );
            continue;
        };
        let at = *by_qid.entry(qid).or_insert_with(|| {
            queries.push(Query {
                qid,
                tag,
                docs: Vec::new(),
            });
            queries.len() - 1
        });
        queries[at].docs.push((score, docno, line));
    }

    let mut duplicates: Vec<Vec<String>> = Vec::with_capacity(queries.len());
    let traces: Vec<Value> = queries
        .iter_mut()
        .map(|q| {
            // trec_eval's order: score descending, then docno descending.
            q.docs
                .sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| b.1.cmp(a.1)));
            let mut seen: HashMap<&str, usize> = HashMap::new();
            let mut repeated = Vec::new();
            for &(_, docno, line) in &q.docs {
                if let Some(first) = seen.insert(docno, line) {
                    repeated.push(format!(
                        "docno \"{docno}\" is listed again for qid {} (lines {first} and {line}); \
                         the later one is a duplicate candidate",
                        q.qid
                    ));
                }
            }
            duplicates.push(repeated);
            let candidates: Vec<Value> = q
                .docs
                .iter()
                .enumerate()
                .map(|(i, &(_, docno, _))| {
                    json!({"docId": docno, "evidenceKey": docno, "originalRank": i + 1})
                })
                .collect();
            json!({
                "requestId": format!("{}/{}", q.tag, q.qid),
                "caseId": q.qid,
                "mode": "hybrid",
                "candidates": candidates,
            })
        })
        .collect();

    // The same builder as every JSON document's, over the traces' JSON shape.
    let mut builder = Builder::new(source);
    builder.value(&Value::Array(traces));
    let mut batch = builder.finish();
    for (trace, notes) in batch.traces.iter_mut().zip(duplicates) {
        if notes.is_empty() {
            continue;
        }
        let mut with_notes = Trace::clone(trace);
        for note in notes {
            with_notes
                .diagnostics
                .push(Diagnostic::warning("duplicate-docno", note, ""));
        }
        *trace = Arc::new(with_notes);
    }
    if more_errors > 0 {
        errors.push(InputError::at(
            source,
            None,
            None,
            None,
            InputErrorCode::Unusable,
            format!("{more_errors} more lines could not be read"),
            None,
        ));
    }
    batch.errors.extend(errors);
    batch
}

#[cfg(test)]
mod tests {
    use super::{looks_like_trec_run, parse_trec_run};

    #[test]
    fn recognised_by_six_fields_not_json() {
        assert!(looks_like_trec_run("# a comment\n\n301 Q0 d1 1 2.5 run\n"));
        assert!(!looks_like_trec_run("301 0 d1 1\n"));
        assert!(!looks_like_trec_run("[1, 2, 3, 4, 5, 6]"));
        assert!(!looks_like_trec_run("{\"a\": 1}"));
        assert!(!looks_like_trec_run(""));
    }

    /// Candidates in trec_eval's order: score descending, ties by docno descending
    /// (d3 and d2 tie at 1.0: d3 first), whatever the rank column says.
    #[test]
    fn one_trace_per_qid_in_trec_eval_order() {
        let text = "q1 Q0 d1 1 0.5 bm25\nq1 Q0 d2 2 1.0 bm25\nq2 Q0 x 1 3 bm25\n\
                    q1 Q0 d3 3 1.0 bm25\n";
        let batch = parse_trec_run("run.txt", text);
        assert!(batch.errors.is_empty(), "{:?}", batch.errors);
        assert_eq!(batch.traces.len(), 2);
        let q1 = &batch.traces[0];
        assert_eq!(q1.case_id.as_deref(), Some("q1"));
        assert_eq!(q1.request_id.as_deref(), Some("bm25/q1"));
        let docs: Vec<&str> = q1.candidates().iter().map(|c| &*c.doc_id).collect();
        assert_eq!(docs, ["d3", "d2", "d1"]);
        let keys: Vec<&str> = q1.candidates().iter().map(|c| &*c.evidence_key).collect();
        assert_eq!(keys, ["d3", "d2", "d1"]);
        assert_eq!(batch.traces[1].case_id.as_deref(), Some("q2"));
    }

    #[test]
    fn bad_lines_are_errors_located_by_line_and_the_rest_is_read() {
        let text = "q1 Q0 d1 1 0.5 run\nq1 Q0 d2 2 run\nq1 Q0 d3 3 high run\nq1 Q0 d4 4 0.1 run\n";
        let batch = parse_trec_run("run.txt", text);
        let lines: Vec<Option<usize>> = batch.errors.iter().map(|e| e.line).collect();
        assert_eq!(lines, [Some(2), Some(3)]);
        assert!(
            batch.errors[0].message.contains("has 5"),
            "{}",
            batch.errors[0].message
        );
        assert!(
            batch.errors[1].message.contains("\"high\""),
            "{}",
            batch.errors[1].message
        );
        assert_eq!(batch.traces[0].candidates().len(), 2);
    }

    #[test]
    fn a_repeated_docno_is_a_duplicate_candidate_with_a_note() {
        let batch = parse_trec_run("run.txt", "q1 Q0 d1 1 0.9 r\nq1 Q0 d1 2 0.5 r\n");
        let trace = &batch.traces[0];
        assert_eq!(trace.candidates().len(), 2);
        let note = trace
            .diagnostics
            .iter()
            .find(|d| d.code == "duplicate-docno")
            .unwrap_or_else(|| panic!("a note: {:?}", trace.diagnostics));
        assert!(note.message.contains("lines 1 and 2"), "{}", note.message);
        let analysis = crate::analysis::analyze(&batch, &crate::config::Settings::default(), false)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(analysis.traces[0].accepted_candidates().count(), 1);
    }
}
