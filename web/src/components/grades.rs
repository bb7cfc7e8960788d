//! A graded case's judged documents (contract section 12.1), as the Golden tab's case
//! table and the Compare tab's pair view show them: each with its grade, whether it
//! counts as relevant (grade >= `relevantGrade`), and where each run put it. The grades
//! are the core's (`judged_docs`, what the metrics read); the places come from the
//! case's report (its document ranking) and its linked trace.

use crate::components::dom;
use crate::format::yes_no;
use crate::state::golden::GoldenState;
use crate::state::AppState;
use leptos::prelude::*;
use ragtrace_core::{judged_docs, GoldenCase, GoldenReport, TraceAnalysis};
use std::borrow::Cow;
use std::collections::HashMap;
use web_sys::Element;

/// Judged documents listed per case; the others are counted. A qrels file judges
/// hundreds of documents per query: the ranked ones, then the best graded, are what
/// explain the case's numbers.
pub(crate) const LISTED_JUDGED: usize = 30;

/// Where one run put a judged document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Found {
    /// At this position (1-based) of the case's document ranking; `true` within k.
    Ranked(usize, bool),
    /// Among the linked trace's candidates, not accepted under the settings.
    NotAccepted,
    /// Not among the linked trace's candidates.
    NotRetrieved,
    /// The case has no trace in this run.
    NoTrace,
}

impl Found {
    pub(crate) fn text(self) -> String {
        match self {
            Found::Ranked(rank, true) => format!("rank {rank}"),
            Found::Ranked(rank, false) => format!("rank {rank} (beyond k)"),
            Found::NotAccepted => "retrieved, not accepted".to_owned(),
            Found::NotRetrieved => "not retrieved".to_owned(),
            Found::NoTrace => "no trace".to_owned(),
        }
    }
}

/// What one run holds of a case: its document ranking and cut-off (the case's report)
/// and its linked trace.
pub(crate) struct RunOfCase<'a> {
    pub ranking: &'a [String],
    pub k: usize,
    pub trace: Option<&'a TraceAnalysis>,
}

impl RunOfCase<'_> {
    fn rank(&self, doc: &str) -> Option<usize> {
        self.ranking.iter().position(|d| d == doc)
    }

    /// Whether a document was retrieved depends on the trace's candidates alone, never on
    /// the settings: the place stays right across knob moves that keep the report.
    fn place(&self, doc: &str) -> Found {
        if let Some(i) = self.rank(doc) {
            return Found::Ranked(i + 1, i < self.k);
        }
        match self.trace {
            None => Found::NoTrace,
            Some(t) if t.blocks().any(|b| *b.candidate.doc_id == *doc) => Found::NotAccepted,
            Some(_) => Found::NotRetrieved,
        }
    }
}

/// One listed judged document.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct JudgedRow {
    pub doc_id: String,
    pub grade: i64,
    pub relevant: bool,
    /// One place per run, in the order the runs were given.
    pub found: Vec<Found>,
}

/// A graded case's judged documents: the first [`LISTED_JUDGED`] and the counts.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Grades {
    pub rows: Vec<JudgedRow>,
    pub judged: usize,
    pub relevant: usize,
    pub relevant_grade: usize,
}

/// The grades of `case` against `runs`; `None` for a case without `judgments` (a
/// binary case shows as it always did). Ranked documents come first (best rank in any
/// run), then the others by grade, highest first, then in the file's order.
pub(crate) fn grades(
    case: &GoldenCase,
    relevant_grade: usize,
    runs: &[RunOfCase],
) -> Option<Grades> {
    case.judgments.as_ref()?;
    let threshold = i64::try_from(relevant_grade).unwrap_or(i64::MAX);
    let docs = judged_docs(case);
    let mut order: Vec<(Option<usize>, i64, usize)> = docs
        .iter()
        .enumerate()
        .map(|(i, &(doc, grade))| (runs.iter().filter_map(|r| r.rank(doc)).min(), grade, i))
        .collect();
    order.sort_by_key(|&(rank, grade, i)| (rank.is_none(), rank, std::cmp::Reverse(grade), i));
    let rows = order
        .iter()
        .take(LISTED_JUDGED)
        .map(|&(_, grade, i)| {
            let doc = docs[i].0;
            JudgedRow {
                doc_id: doc.to_owned(),
                grade,
                relevant: grade >= threshold,
                found: runs.iter().map(|r| r.place(doc)).collect(),
            }
        })
        .collect();
    Some(Grades {
        rows,
        judged: docs.len(),
        relevant: docs.iter().filter(|&&(_, g)| g >= threshold).count(),
        relevant_grade,
    })
}

/// "N judged documents, R relevant (grade >= G)".
fn headline(g: &Grades) -> String {
    [
        crate::format::count(g.judged, "judged document", "judged documents"),
        ", ".to_owned(),
        g.relevant.to_string(),
        " relevant (grade ≥ ".to_owned(),
        g.relevant_grade.to_string(),
        ")".to_owned(),
    ]
    .concat()
}

/// "… and N more judged documents", when some are not listed.
fn more(g: &Grades) -> Option<String> {
    let left = g.judged.saturating_sub(g.rows.len());
    (left > 0).then(|| {
        [
            "… and ".to_owned(),
            crate::format::count(left, "more judged document", "more judged documents"),
        ]
        .concat()
    })
}

/// The Golden tab's view of one case's grades (one run).
#[component]
pub(crate) fn GradesList(grades: Grades) -> impl IntoView {
    let headline = headline(&grades);
    let more = more(&grades);
    let rows = grades
        .rows
        .into_iter()
        .map(|row| {
            let found = row.found.first().map_or_else(String::new, |f| f.text());
            let key = row.doc_id.clone();
            view! {
                <tr data-doc=key class:relevant=row.relevant>
                    <td data-col="doc"><code>{row.doc_id}</code></td>
                    <td data-col="grade">{row.grade}</td>
                    <td data-col="relevant">{yes_no(row.relevant)}</td>
                    <td data-col="found">{found}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <details class="golden-evidence golden-grades" data-evidence="grades" open>
            <summary class="hint">{headline}</summary>
            <table class="grades">
                <thead>
                    <tr>
                        <th scope="col">"document"</th>
                        <th scope="col">"grade"</th>
                        <th scope="col">"relevant"</th>
                        <th scope="col">"found"</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
            {more.map(|m| view! { <div class="hint">{m}</div> })}
        </details>
    }
}

/// The Compare tab's view of one case's grades: where run A and run B put each document.
pub(crate) fn grades_table(grades: &Grades) -> Option<Element> {
    let rows = grades
        .rows
        .iter()
        .map(|row| {
            let place = |i: usize| row.found.get(i).map_or_else(String::new, |f| f.text());
            (
                row.doc_id.clone(),
                vec![
                    (row.doc_id.clone(), "", "doc"),
                    (row.grade.to_string(), "", "grade"),
                    (yes_no(row.relevant).to_owned(), "", "relevant"),
                    (place(0), "", "found-a"),
                    (place(1), "", "found-b"),
                ],
            )
        })
        .collect();
    let mut out = dom::add(
        dom::el("div", "compare-grades", "")?,
        dom::el("p", "hint", &headline(grades)),
    );
    out = dom::add(
        out,
        dom::table(
            "compare-pair-grades",
            "counts",
            &["document", "grade", "relevant", "run A", "run B"],
            rows,
        ),
    );
    if let Some(more) = more(grades) {
        out = dom::add(out, dom::el("p", "hint", &more));
    }
    Some(out)
}

/// The `relevantGrade` `report` was evaluated with, as its configuration echoes it.
pub(crate) fn relevant_grade_of(report: &GoldenReport) -> usize {
    report
        .config
        .get("relevantGrade")
        .and_then(serde_json::Value::as_u64)
        .and_then(|g| usize::try_from(g).ok())
        .unwrap_or(1)
}

/// The grades of the report's cases at `indices` (positions in `report.cases`, which
/// follow the cases file), each against the trace it links to; `None` for a binary case.
/// Read untracked: the caller is rebuilt with the report, and the places read only the
/// report and the traces' candidates.
pub(crate) fn case_grades(
    state: AppState,
    golden: GoldenState,
    report: &GoldenReport,
    indices: &[usize],
) -> Vec<Option<Grades>> {
    let none = || vec![None; indices.len()];
    let relevant_grade = relevant_grade_of(report);
    golden.cases().with_untracked(|cases| {
        let Some(Ok(cases)) = cases else {
            return none();
        };
        let case_at = |i: usize| {
            let (case, shown) = (cases.cases.get(i)?, report.cases.get(i)?);
            (case.case_id == shown.case_id && case.judgments.is_some()).then_some((case, shown))
        };
        if !indices.iter().any(|&i| case_at(i).is_some()) {
            return none();
        }
        state.analysis.with_untracked(|analysis| {
            let mut by_name: HashMap<Cow<'_, str>, &TraceAnalysis> = HashMap::new();
            for t in analysis.iter().flat_map(|a| a.traces.iter()) {
                by_name.entry(t.name()).or_insert(t);
            }
            indices
                .iter()
                .map(|&i| {
                    let (case, shown) = case_at(i)?;
                    let trace = shown
                        .trace_name
                        .as_deref()
                        .and_then(|name| by_name.get(name).copied());
                    let run = RunOfCase {
                        ranking: &shown.doc_ranking,
                        k: shown.k,
                        trace,
                    };
                    grades(case, relevant_grade, &[run])
                })
                .collect()
        })
    })
}

#[cfg(test)]
mod tests {
    use super::{grades, Found, RunOfCase};
    use ragtrace_core::{GoldenCase, Judgments};

    /// Judged a 0, b 3, c 1, d 3, e -1; the run ranks c, x, a with k = 2; relevant from
    /// grade 2. Ranked first by rank (c within k, a beyond it), then by grade, highest
    /// first, ties in the file's order (b before d), then e; relevant: b and d.
    #[test]
    fn ranked_first_then_by_grade_then_in_file_order() {
        let judged = [("a", 0), ("b", 3), ("c", 1), ("d", 3), ("e", -1)];
        let case = GoldenCase {
            case_id: "q".to_owned(),
            judgments: Some(Judgments(
                judged.iter().map(|&(d, g)| (d.to_owned(), g)).collect(),
            )),
            ..GoldenCase::default()
        };
        let ranking = ["c", "x", "a"].map(str::to_owned);
        let run = RunOfCase {
            ranking: &ranking,
            k: 2,
            trace: None,
        };
        let g = grades(&case, 2, &[run]).unwrap();
        let rows: Vec<(&str, i64, bool, Found)> = g
            .rows
            .iter()
            .map(|r| (r.doc_id.as_str(), r.grade, r.relevant, r.found[0]))
            .collect();
        assert_eq!(
            rows,
            [
                ("c", 1, false, Found::Ranked(1, true)),
                ("a", 0, false, Found::Ranked(3, false)),
                ("b", 3, true, Found::NoTrace),
                ("d", 3, true, Found::NoTrace),
                ("e", -1, false, Found::NoTrace),
            ]
        );
        assert_eq!((g.judged, g.relevant), (5, 2));
        assert_eq!(Found::Ranked(3, false).text(), "rank 3 (beyond k)");
    }

    /// A case without judgments is binary: no grades to list.
    #[test]
    fn a_binary_case_has_no_grades() {
        let case = GoldenCase {
            case_id: "q".to_owned(),
            expected_doc_ids: vec!["a".to_owned()],
            ..GoldenCase::default()
        };
        assert!(grades(&case, 1, &[]).is_none());
    }
}
