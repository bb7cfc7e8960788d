//! A case's judged documents and their grades (contract section 12.1): what every metric
//! and every relevance test of the golden evaluation reads of a case.

use super::cases::GoldenCase;
use super::metric::Judged;

/// Every judged document of `case` with its grade, each once: the `expectedDocIds` in
/// file order (grade 1 unless `judgments` grades them), then the other judged documents.
/// What the metrics read, and what a view of a case's grades lists.
pub fn judged_docs(case: &GoldenCase) -> Vec<(&str, i64)> {
    let judgments = case.judgments.as_ref().map_or(&[][..], |j| j.0.as_slice());
    let graded = |doc: &str| {
        judgments
            .iter()
            .find(|(d, _)| d == doc)
            .map(|&(_, grade)| grade)
    };
    let mut docs: Vec<(&str, i64)> = Vec::with_capacity(case.expected_doc_ids.len());
    for doc in &case.expected_doc_ids {
        if !docs.iter().any(|(d, _)| d == doc) {
            docs.push((doc, graded(doc).unwrap_or(1)));
        }
    }
    for (doc, grade) in judgments {
        if !docs.iter().any(|(d, _)| d == doc) {
            docs.push((doc, *grade));
        }
    }
    docs
}

/// One case's relevance under a `relevantGrade`.
#[derive(Debug, Clone)]
pub(crate) struct Relevance<'a> {
    /// Every judged document with its grade (see [`judged_docs`]).
    judged: Vec<(&'a str, i64)>,
    relevant_grade: i64,
    /// The positive grades, descending: the ideal ranking's gains.
    ideal: Vec<i64>,
}

impl<'a> Relevance<'a> {
    pub(crate) fn of(case: &'a GoldenCase, relevant_grade: usize) -> Relevance<'a> {
        let judged = judged_docs(case);
        let mut ideal: Vec<i64> = judged.iter().map(|&(_, g)| g).filter(|&g| g > 0).collect();
        ideal.sort_unstable_by(|a, b| b.cmp(a));
        Relevance {
            judged,
            relevant_grade: i64::try_from(relevant_grade).unwrap_or(i64::MAX),
            ideal,
        }
    }

    /// A document's grade; 0 when it is not judged.
    pub(crate) fn grade(&self, doc: &str) -> i64 {
        self.judged
            .iter()
            .find(|(d, _)| *d == doc)
            .map_or(0, |&(_, g)| g)
    }

    /// The relevant documents, in [`judged_docs`] order.
    pub(crate) fn relevant_docs(&self) -> impl Iterator<Item = &'a str> + '_ {
        self.judged
            .iter()
            .filter(|&&(_, g)| g >= self.relevant_grade)
            .map(|&(d, _)| d)
    }

    /// What the metrics read of a ranking whose documents have `grades`.
    pub(crate) fn judged<'g>(&'g self, grades: &'g [i64], k: usize) -> Judged<'g> {
        Judged {
            grades,
            relevant_grade: self.relevant_grade,
            relevant: self.relevant_docs().count(),
            ideal: &self.ideal,
            k,
        }
    }

    /// Why a case with graded judgments has no relevant document, when it has none.
    /// (A case without judged documents has its own note.)
    pub(crate) fn note(&self) -> Option<String> {
        if self.judged.is_empty() || self.relevant_docs().next().is_some() {
            return None;
        }
        let highest = self.judged.iter().map(|&(_, g)| g).max().unwrap_or(0);
        Some(if highest < 0 {
            "every judged document has a negative grade: none is relevant and every ranking \
             metric is 0"
                .to_owned()
        } else if highest == 0 {
            "no judged document has a positive grade: none is relevant and every ranking metric \
             is 0"
                .to_owned()
        } else {
            format!(
                "relevantGrade {} is above every grade of the case (the highest is {highest}): no \
                 document is relevant, so every ranking metric but nDCG is 0",
                self.relevant_grade
            )
        })
    }
}
