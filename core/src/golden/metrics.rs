//! Each case's ranking metrics against an analysis, alone: what a comparison of many
//! runs reads of each run's evaluation.

use super::cases::{CaseSet, GoldenCase};
use super::metric::{Judged, Metric, MetricValues};
use super::relevance::judged_docs;
use crate::fast_hash::FastMap;
use crate::input::{name_hash, Trace};
use crate::trace_analysis::TraceAnalysis;

/// Each case's metrics against an analysis, as [`evaluate_analysis`](crate::evaluate_analysis)
/// computes them, in [`Metric::ALL`] order, or `None` for a case no trace links to.
/// Nothing else of an evaluation (levels, evidence, lists, notes) is built and no string
/// is copied: what a comparison of many runs reads of each. For several analyses against
/// the same cases, [`CaseMetrics`] reads the cases once.
pub fn case_metrics(
    cases: &CaseSet,
    analysis: &crate::analysis::Analysis,
) -> Vec<Option<MetricValues>> {
    CaseMetrics::new(cases).of(analysis)
}

/// [`case_metrics`] with what it reads of the cases (each case's expected documents and
/// the cases by caseId and by query) read once, for any number of analyses.
///
/// The links are the evaluation's (a case's first trace with its `caseId`, else the
/// first trace without a `caseId` with its trimmed query), found walking the batch in
/// order from the cases' side. In a large batch every first read of a trace is a cache
/// miss, and they are most of the time: each trace's key, its case and its metrics are
/// found in three short loops, each of which the processor runs over many traces at once.
pub struct CaseMetrics<'a> {
    expected: ExpectedDocs<'a>,
    by_id: CaseIndex<'a>,
    by_query: CaseIndex<'a>,
}

impl<'a> CaseMetrics<'a> {
    /// Reads the cases: each one's expected documents, and the cases by key.
    pub fn new(cases: &'a CaseSet) -> Self {
        let cases = &cases.cases;
        CaseMetrics {
            expected: ExpectedDocs::of(cases),
            by_id: CaseIndex::new(cases.iter().map(|case| Some(case.case_id.as_str()))),
            by_query: CaseIndex::new(
                cases
                    .iter()
                    .map(|case| case.query.as_deref().map(str::trim)),
            ),
        }
    }

    /// Each case's metrics against `analysis` (see [`case_metrics`]).
    pub fn of(&self, analysis: &crate::analysis::Analysis) -> Vec<Option<MetricValues>> {
        let relevant_grade = i64::try_from(analysis.config.relevant_grade).unwrap_or(i64::MAX);
        let cases = self.by_id.next.len();
        // Per case, its values against the trace it links to by caseId, and by query (kept
        // apart: a caseId link wins over a query link whichever trace comes first; the
        // second list is made when a trace links by query).
        let mut id_values: Vec<Option<MetricValues>> = vec![None; cases];
        let mut query_values: Vec<Option<MetricValues>> = Vec::new();
        // Each trace's key, then the links, then the metrics: short loops, whose reads of
        // many traces the processor makes at once (one long loop waited for each).
        let keys: Vec<Option<(bool, &str)>> = analysis
            .traces
            .iter()
            .map(|trace| match (&trace.trace.case_id, &trace.trace.query) {
                (Some(id), _) => Some((true, &**id)),
                (None, Some(query)) => Some((false, &**query)),
                (None, None) => None,
            })
            .collect();
        let mut id_linked = vec![false; cases];
        let mut query_linked: Vec<bool> = Vec::new();
        let mut links: Vec<(usize, usize, bool)> = Vec::new();
        for (t, key) in keys.iter().enumerate() {
            let Some((by_id, key)) = *key else {
                continue;
            };
            let (index, linked, key) = if by_id {
                (&self.by_id, &mut id_linked, key)
            } else {
                (&self.by_query, &mut query_linked, key.trim())
            };
            let Some(first) = index.first(key) else {
                continue;
            };
            linked.resize(cases, false);
            // The cases of one key link together, to the first trace that has it.
            if !linked[first] {
                linked[first] = true;
                links.push((t, first, by_id));
            }
        }
        let mut ranking = Ranking::default();
        for (t, first, by_id) in links {
            let trace = &analysis.traces[t];
            let (index, values) = if by_id {
                (&self.by_id, &mut id_values)
            } else {
                (&self.by_query, &mut query_values)
            };
            values.resize(cases, None);
            ranking.read(trace);
            for case in index.cases_from(first) {
                let (docs, ideal) = self.expected.of_case(case);
                values[case] = Some(ranking.values(docs, ideal, relevant_grade, trace.return_n()));
            }
        }
        for (by_id, by_query) in id_values.iter_mut().zip(query_values) {
            if by_id.is_none() {
                *by_id = by_query;
            }
        }
        id_values
    }
}

/// Each case's documents of a positive grade (the only ones a metric reads), distinct,
/// with their name hashes and grades, and the same grades sorted descending (the ideal
/// ranking's gains): one list, case after case.
struct ExpectedDocs<'a> {
    docs: Vec<(u64, &'a str, i64)>,
    ideal: Vec<i64>,
    /// Where each case's documents end in `docs` (and its gains in `ideal`).
    ends: Vec<usize>,
}

impl<'a> ExpectedDocs<'a> {
    fn of(cases: &'a [GoldenCase]) -> Self {
        let mut docs: Vec<(u64, &str, i64)> = Vec::new();
        let mut ideal: Vec<i64> = Vec::new();
        let mut ends = Vec::with_capacity(cases.len());
        for case in cases {
            let start = docs.len();
            for (doc, grade) in judged_docs(case) {
                if grade > 0 {
                    docs.push((name_hash(doc), doc, grade));
                    ideal.push(grade);
                }
            }
            ideal[start..].sort_unstable_by(|a, b| b.cmp(a));
            ends.push(docs.len());
        }
        ExpectedDocs { docs, ideal, ends }
    }

    fn range(&self, case: usize) -> std::ops::Range<usize> {
        let start = case.checked_sub(1).map_or(0, |before| self.ends[before]);
        start..self.ends[case]
    }

    fn of_case(&self, case: usize) -> (&[(u64, &'a str, i64)], &[i64]) {
        let range = self.range(case);
        (&self.docs[range.clone()], &self.ideal[range])
    }
}

/// The cases by a key (caseId, or trimmed query): the first case of each key, and each
/// case's next one with the same key, in file order.
struct CaseIndex<'a> {
    first: FastMap<&'a str, usize>,
    next: Vec<Option<usize>>,
}

impl<'a> CaseIndex<'a> {
    fn new(keys: impl ExactSizeIterator<Item = Option<&'a str>>) -> Self {
        let mut first_last: FastMap<&str, (usize, usize)> = FastMap::default();
        first_last.reserve(keys.len());
        let mut next = vec![None; keys.len()];
        for (case, key) in keys.enumerate() {
            let Some(key) = key else {
                continue;
            };
            first_last
                .entry(key)
                .and_modify(|(_, last)| {
                    next[*last] = Some(case);
                    *last = case;
                })
                .or_insert((case, case));
        }
        let first = first_last
            .into_iter()
            .map(|(key, (first, _))| (key, first))
            .collect();
        CaseIndex { first, next }
    }

    fn first(&self, key: &str) -> Option<usize> {
        self.first.get(key).copied()
    }

    fn cases_from(&self, first: usize) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(Some(first), |&case| self.next[case])
    }
}

/// One trace's document ranking: its accepted candidates' documents, each at its first
/// position, as their name hashes and candidate indices.
#[derive(Default)]
struct Ranking<'a> {
    trace: Option<&'a Trace>,
    docs: Vec<(u64, usize)>,
    grades: Vec<i64>,
}

impl<'a> Ranking<'a> {
    /// Documents are compared by hash: a candidate itself is read only when its hash is
    /// that of a document already ranked (or, in [`Ranking::values`], expected).
    fn read(&mut self, trace: &'a TraceAnalysis) {
        let hashes = trace.trace.name_hashes();
        self.trace = Some(&trace.trace);
        self.docs.clear();
        for index in trace.accepted_indices() {
            let Some(hash) = hashes.get(index).map(|h| h.doc) else {
                continue;
            };
            if !self
                .docs
                .iter()
                .any(|&(h, other)| h == hash && same_doc(&trace.trace, index, other))
            {
                self.docs.push((hash, index));
            }
        }
    }

    /// The metrics of the ranking against a case's graded documents, cut off at `k`.
    fn values(
        &mut self,
        graded: &[(u64, &str, i64)],
        ideal: &[i64],
        relevant_grade: i64,
        k: usize,
    ) -> MetricValues {
        self.grades.clear();
        for &(hash, index) in &self.docs {
            let grade = graded
                .iter()
                .find(|&&(h, doc, _)| {
                    h == hash && self.trace.is_some_and(|trace| doc_is(trace, index, doc))
                })
                .map_or(0, |&(_, _, grade)| grade);
            self.grades.push(grade);
        }
        Metric::values(&Judged {
            grades: &self.grades,
            relevant_grade,
            relevant: graded
                .iter()
                .filter(|&&(_, _, g)| g >= relevant_grade)
                .count(),
            ideal,
            k,
        })
    }
}

/// Whether candidates `a` and `b` of `trace` have the same docId: read on equal hashes
/// only, and kept out of the loops so that their loads are not made ahead of the test.
#[cold]
#[inline(never)]
fn same_doc(trace: &Trace, a: usize, b: usize) -> bool {
    let candidates = trace.candidates();
    matches!((candidates.get(a), candidates.get(b)), (Some(a), Some(b)) if a.doc_slot == b.doc_slot)
}

/// Whether candidate `index` of `trace` has the docId `doc` (see [`same_doc`]).
#[cold]
#[inline(never)]
fn doc_is(trace: &Trace, index: usize, doc: &str) -> bool {
    trace
        .candidates()
        .get(index)
        .is_some_and(|c| *c.doc_id == *doc)
}
