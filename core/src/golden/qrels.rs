//! A TREC qrels file read as a cases file (contract section 12.3): lines `qid iter docno
//! rel`, one case per qid (`caseId` = qid, no query), its lines as `judgments`. Blank
//! lines and lines starting with `#` are skipped, as trec_eval does.

use crate::diagnostic::{pointer_token, Diagnostic, InputError, InputErrorCode};
use crate::input::{looks_like_trec, trec_data_lines, MOST_TREC_LINE_ERRORS};
use std::collections::HashMap;

/// The largest grade in absolute value (in qrels and in a cases file's `judgments`):
/// gains and their sums stay exact in an `f64`.
pub(super) const MAX_GRADE: i64 = (1 << 31) - 1;

/// One query of a qrels file: its qid and its judgments (docno, grade), in docno order.
pub(super) type QrelsQuery = (String, Vec<(String, i64)>);

/// Whether `text` is a qrels file: its first data line has four fields and does not
/// start as JSON does.
pub(super) fn looks_like_qrels(text: &str) -> bool {
    looks_like_trec(text, 4)
}

/// Reads a qrels file. Every line that cannot be read is an error located by line (at
/// most [`MOST_TREC_LINE_ERRORS`]); a docno judged twice under one qid keeps the last grade, with
/// a warning.
pub(super) fn parse_qrels(
    source: &str,
    text: &str,
) -> Result<(Vec<QrelsQuery>, Vec<Diagnostic>), Vec<InputError>> {
    let mut errors: Vec<InputError> = Vec::new();
    let mut more = 0usize;
    // Per qid in file order: the qid and its judgments.
    let mut cases: Vec<(&str, Vec<(String, i64)>)> = Vec::new();
    let mut by_qid: HashMap<&str, usize> = HashMap::new();
    let mut diagnostics = Vec::new();
    for (line, raw, fields) in trec_data_lines(text) {
        let problem = match fields[..] {
            [qid, _, docno, grade] => match grade.parse::<i64>() {
                Ok(g) if g.abs() <= MAX_GRADE => {
                    let at = *by_qid.entry(qid).or_insert_with(|| {
                        cases.push((qid, Vec::new()));
                        cases.len() - 1
                    });
                    let judgments = &mut cases[at].1;
                    match judgments.iter_mut().find(|(d, _)| d == docno) {
                        Some(judged) => {
                            judged.1 = g;
                            diagnostics.push(Diagnostic::warning(
                                "repeated-judgment",
                                format!(
                                    "line {line}: docno \"{docno}\" is judged again for qid {qid}; \
                                     the last grade is used"
                                ),
                                format!("/{at}/judgments/{}", pointer_token(docno)),
                            ));
                        }
                        None => judgments.push((docno.to_owned(), g)),
                    }
                    None
                }
                _ => Some(format!(
                    "the relevance \"{grade}\" (field 4) must be an integer from -{MAX_GRADE} \
                     to {MAX_GRADE}"
                )),
            },
            _ => Some(format!(
                "a qrels line has 4 fields (qid iter docno rel), this one has {}",
                fields.len()
            )),
        };
        if let Some(message) = problem {
            if errors.len() < MOST_TREC_LINE_ERRORS {
                errors.push(InputError::at(
                    source,
                    Some(line),
                    Some(1),
                    None,
                    InputErrorCode::Unusable,
                    message,
                    Some(raw),
                ));
            } else {
                more += 1;
            }
        }
    }
    if more > 0 {
        errors.push(InputError::at(
            source,
            None,
            None,
            None,
            InputErrorCode::Unusable,
            format!("{more} more lines could not be read"),
            None,
        ));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let queries = cases
        .into_iter()
        .map(|(qid, mut judgments)| {
            judgments.sort_by(|a, b| a.0.cmp(&b.0));
            (qid.to_owned(), judgments)
        })
        .collect();
    Ok((queries, diagnostics))
}

#[cfg(test)]
mod tests {
    use super::{looks_like_qrels, parse_qrels};

    #[test]
    fn one_case_per_qid_with_its_grades() {
        let text = "# judged\n301 0 d2 1\n301 0 d1 -1\n\n302 0 x 0\n301 0 d2 3\n";
        assert!(looks_like_qrels(text));
        let Ok((queries, diagnostics)) = parse_qrels("qrels.txt", text) else {
            panic!("reads");
        };
        let ids: Vec<&str> = queries.iter().map(|(qid, _)| qid.as_str()).collect();
        assert_eq!(ids, ["301", "302"]);
        assert_eq!(queries[0].1, [("d1".to_owned(), -1), ("d2".to_owned(), 3)]);
        assert_eq!(diagnostics.len(), 1);
        assert!(diagnostics[0].message.starts_with("line 6:"));
    }

    #[test]
    fn bad_lines_are_errors_located_by_line() {
        let Err(errors) = parse_qrels("q", "301 0 d1 1\n301 0 d2 2.5\n301 d3 1\n") else {
            panic!("refused");
        };
        let lines: Vec<Option<usize>> = errors.iter().map(|e| e.line).collect();
        assert_eq!(lines, [Some(2), Some(3)]);
        assert!(
            errors[0].message.contains("\"2.5\""),
            "{}",
            errors[0].message
        );
        assert!(errors[1].message.contains("has 3"), "{}", errors[1].message);
        assert!(!looks_like_qrels("[1, 2, 3, 4]"));
    }
}
