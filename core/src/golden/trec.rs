//! TREC qrels and run files of a [`GoldenReport`], so that trec_eval or ranx can
//! recompute the ranking metrics independently.

use super::report::GoldenReport;
use std::collections::HashSet;
use std::fmt::Write as _;

/// The run tag written in the last column of [`trec_run`].
pub const TREC_RUN_TAG: &str = "ragtrace";

/// One TREC identifier per case, in case order. TREC files are split on
/// white space, so white space inside a caseId becomes `_` (an empty id
/// becomes `_`); a caseId already used by an earlier case gets `#<position>`
/// appended so the two cases stay distinct queries.
pub(super) fn trec_qids(report: &GoldenReport) -> Vec<String> {
    let mut used: HashSet<String> = HashSet::new();
    report
        .cases
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let mut qid = trec_token(&c.case_id);
            if used.contains(&qid) {
                qid = format!("{qid}#{}", i + 1);
                while used.contains(&qid) {
                    qid.push('_');
                }
            }
            used.insert(qid.clone());
            qid
        })
        .collect()
}

/// A TREC field: white space (which would split the field) becomes `_`.
pub(super) fn trec_token(text: &str) -> String {
    let t: String = text
        .chars()
        .map(|c| if c.is_whitespace() { '_' } else { c })
        .collect();
    if t.is_empty() {
        "_".to_owned()
    } else {
        t
    }
}

/// TREC qrels: `qid 0 docno 1` for every expected document of every case, and
/// `qid 0 docno grade` for every graded judgment of a case that has them (evaluate with
/// `trec_eval -l` at the `relevantGrade` the report was made under).
///
/// A case with no expected document gets its retrieved documents judged 0, so
/// the query still exists for `trec_eval -c` (which then scores it 0, as we
/// do). A case with neither expected nor retrieved documents cannot be
/// written; the tools' means then leave it out while ours count it.
pub fn trec_qrels(report: &GoldenReport) -> String {
    let mut out = String::new();
    for (qid, c) in trec_qids(report).iter().zip(&report.cases) {
        if let Some(judgments) = &c.judgments {
            for d in &c.expected_doc_ids {
                if !judgments.0.iter().any(|(j, _)| j == d) {
                    let _ = writeln!(out, "{qid} 0 {} 1", trec_token(d));
                }
            }
            for (d, grade) in &judgments.0 {
                let _ = writeln!(out, "{qid} 0 {} {grade}", trec_token(d));
            }
            if judgments.0.is_empty() && c.expected_doc_ids.is_empty() {
                for d in &c.doc_ranking {
                    let _ = writeln!(out, "{qid} 0 {} 0", trec_token(d));
                }
            }
        } else if c.expected_doc_ids.is_empty() {
            for d in &c.doc_ranking {
                let _ = writeln!(out, "{qid} 0 {} 0", trec_token(d));
            }
        } else {
            for d in &c.expected_doc_ids {
                let _ = writeln!(out, "{qid} 0 {} 1", trec_token(d));
            }
        }
    }
    out
}

/// TREC run: `qid Q0 docno rank score runtag` for every document of every
/// case's `docRanking` (the whole ranking: the reciprocal rank is not cut at
/// k). trec_eval re-sorts by score and breaks ties by docno, so scores are
/// strictly decreasing with rank: `n - rank + 1` for a ranking of n.
/// Cases without a trace have no lines; evaluate with `trec_eval -c` so they
/// count as 0, as in our means.
pub fn trec_run(report: &GoldenReport, run_tag: &str) -> String {
    let tag = trec_token(run_tag);
    let mut out = String::new();
    for (qid, c) in trec_qids(report).iter().zip(&report.cases) {
        let n = c.doc_ranking.len();
        for (i, d) in c.doc_ranking.iter().enumerate() {
            let _ = writeln!(out, "{qid} Q0 {} {} {} {tag}", trec_token(d), i + 1, n - i);
        }
    }
    out
}
