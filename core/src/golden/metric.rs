//! The ranking metrics, one row each in [`metrics!`]: what every evaluation, comparison
//! and report reads of them (their keys, their fields in `report.json`, their labels and
//! how each is computed) comes from that table.
//!
//! Adding a metric is one row and its function below; the compiler then names the rest
//! (the report's fields, the summary's mean, the stubs in the bindings).

use super::report::{CaseReport, GoldenSummary};

/// What a metric reads of one case against one ranking.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Judged<'a> {
    /// Per ranked document (distinct, in ranking order), its grade; 0 when not judged.
    pub(crate) grades: &'a [i64],
    /// The grade from which a document is relevant (trec_eval's `-l`), at least 1.
    pub(crate) relevant_grade: i64,
    /// The case's relevant documents (judged at `relevant_grade` or above).
    pub(crate) relevant: usize,
    /// The case's positive grades, descending: the ideal ranking's gains.
    pub(crate) ideal: &'a [i64],
    /// The cut-off.
    pub(crate) k: usize,
}

impl Judged<'_> {
    fn is_relevant(&self, grade: i64) -> bool {
        grade >= self.relevant_grade
    }

    /// The first `k` ranked documents' grades.
    fn top(&self) -> &[i64] {
        &self.grades[..self.grades.len().min(self.k)]
    }

    fn relevant_in_top(&self) -> usize {
        self.top().iter().filter(|&&g| self.is_relevant(g)).count()
    }
}

/// 1 when a relevant document is anywhere in the ranking (`docHit`), else 0.
fn hit(j: &Judged) -> f64 {
    if j.grades.iter().any(|&g| j.is_relevant(g)) {
        1.0
    } else {
        0.0
    }
}

/// Relevant documents in the first k over all relevant documents (trec_eval `recall_k`).
fn recall(j: &Judged) -> f64 {
    if j.relevant == 0 {
        0.0
    } else {
        j.relevant_in_top() as f64 / j.relevant as f64
    }
}

/// Relevant documents in the first k over k, even when fewer were retrieved
/// (trec_eval `P_k`).
fn precision(j: &Judged) -> f64 {
    if j.k == 0 {
        0.0
    } else {
        j.relevant_in_top() as f64 / j.k as f64
    }
}

/// 1 / the position of the first relevant document, over the whole ranking
/// (trec_eval `recip_rank`).
fn reciprocal_rank(j: &Judged) -> f64 {
    j.grades
        .iter()
        .position(|&g| j.is_relevant(g))
        .map_or(0.0, |i| 1.0 / (i + 1) as f64)
}

/// The discount of 0-based position `i` (rank i + 1): 1 / log2(rank + 1).
fn discount(i: usize) -> f64 {
    1.0 / ((i + 2) as f64).log2()
}

/// nDCG@k with the grade as the gain (a negative grade gains 0) and the case's grades
/// sorted descending as the ideal ranking (trec_eval `ndcg_cut_k`).
fn ndcg(j: &Judged) -> f64 {
    // Folding from +0.0: `Sum` for floats starts at -0.0, which would print as "-0".
    let dcg = j
        .top()
        .iter()
        .enumerate()
        .filter(|(_, &g)| g > 0)
        .fold(0.0, |total, (i, &g)| total + gain(g) * discount(i));
    let idcg = j
        .ideal
        .iter()
        .take(j.k)
        .enumerate()
        .filter(|(_, &g)| g > 0)
        .fold(0.0, |total, (i, &g)| total + gain(g) * discount(i));
    if idcg > 0.0 {
        dcg / idcg
    } else {
        0.0
    }
}

/// MAP@k (trec_eval `map_cut_k`): the sum, over the relevant documents in the first k,
/// of the precision at their position, over the number of relevant documents.
fn average_precision(j: &Judged) -> f64 {
    if j.relevant == 0 {
        return 0.0;
    }
    let mut found = 0usize;
    let mut sum = 0.0;
    for (i, &g) in j.top().iter().enumerate() {
        if j.is_relevant(g) {
            found += 1;
            sum += found as f64 / (i + 1) as f64;
        }
    }
    sum / j.relevant as f64
}

/// A positive grade as a gain (grades are bounded when read, so this is exact).
fn gain(grade: i64) -> f64 {
    grade as f64
}

/// A report field that holds a metric's value: a number, or a yes/no counted as 1/0.
pub(crate) trait MetricField {
    fn metric_value(&self) -> f64;
}

impl MetricField for f64 {
    fn metric_value(&self) -> f64 {
        *self
    }
}

impl MetricField for bool {
    fn metric_value(&self) -> f64 {
        if *self {
            1.0
        } else {
            0.0
        }
    }
}

/// The table of metrics: one row per metric, in the order every output lists them.
///
/// - `key`: its name in the comparisons (`compare.json`'s `metric`, `Δ key` in compare.md);
/// - `case`: its field in report.json's cases (the Rust field = the JSON key);
/// - `mean`: its mean in report.json's summary, if the summary has one;
/// - `label`: the column head of the run tables (compare.md, the page);
/// - `name`: its name beside its mean (report.md, the CLI's summary);
/// - `column`: its column head among a case's numbers (report.md, the CLI's case lines);
/// - `value`: the function computing it from a [`Judged`] case.
macro_rules! metrics {
    (@mean_key) => { None };
    (@mean_key $key:literal) => { Some($key) };
    (@mean $summary:ident) => { None };
    (@mean $summary:ident $field:ident) => { Some($summary.$field) };
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident {
            key: $key:literal,
            case: $case_field:ident = $case_key:literal,
            mean: [$($mean_field:ident = $mean_key:literal)?],
            label: $label:literal,
            name: $name:literal,
            column: $column:literal,
            value: $value:path $(,)?
        }
    ),* $(,)?) => {
        /// A ranking metric of the golden evaluation (one row of the metrics table).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Metric {
            $($(#[doc = $doc])* $variant,)*
        }

        impl Metric {
            /// How many metrics there are.
            pub const COUNT: usize = [$(Metric::$variant),*].len();

            /// Every metric, in the order every output lists them.
            pub const ALL: [Metric; Metric::COUNT] = [$(Metric::$variant),*];

            /// Its name in the comparisons (`hit`, `recall`, ...).
            pub const fn key(self) -> &'static str {
                match self { $(Metric::$variant => $key,)* }
            }

            /// Its key in report.json's cases.
            pub const fn case_key(self) -> &'static str {
                match self { $(Metric::$variant => $case_key,)* }
            }

            /// Its mean's key in report.json's summary, if the summary has one.
            pub const fn mean_key(self) -> Option<&'static str> {
                match self { $(Metric::$variant => metrics!(@mean_key $($mean_key)?),)* }
            }

            /// The column head of the run tables.
            pub const fn label(self) -> &'static str {
                match self { $(Metric::$variant => $label,)* }
            }

            /// Its name beside its mean.
            pub const fn name(self) -> &'static str {
                match self { $(Metric::$variant => $name,)* }
            }

            /// Its column head among a case's numbers.
            pub const fn column(self) -> &'static str {
                match self { $(Metric::$variant => $column,)* }
            }

            /// Its position in [`Metric::ALL`].
            pub const fn index(self) -> usize {
                self as usize
            }

            /// Its value in a case of report.json.
            pub fn of_case(self, case: &CaseReport) -> f64 {
                match self { $(Metric::$variant => MetricField::metric_value(&case.$case_field),)* }
            }

            /// Its mean in report.json's summary, if the summary has one.
            pub fn of_summary(self, summary: &GoldenSummary) -> Option<f64> {
                match self { $(Metric::$variant => metrics!(@mean summary $($mean_field)?),)* }
            }

            /// Computes it for one case.
            pub(crate) fn value(self, judged: &Judged) -> f64 {
                match self { $(Metric::$variant => $value(judged),)* }
            }
        }
    };
}

metrics! {
    /// An expected (relevant) document was accepted: 1, else 0.
    Hit {
        key: "hit",
        case: doc_hit = "docHit",
        mean: [],
        label: "hit",
        name: "hit",
        column: "docHit",
        value: hit,
    },
    /// recall@k.
    Recall {
        key: "recall",
        case: recall = "recall",
        mean: [mean_recall = "meanRecall"],
        label: "recall@k",
        name: "recall@k",
        column: "recall",
        value: recall,
    },
    /// precision@k.
    Precision {
        key: "precision",
        case: precision = "precision",
        mean: [mean_precision = "meanPrecision"],
        label: "P@k",
        name: "precision@k",
        column: "precision",
        value: precision,
    },
    /// The reciprocal rank of the first relevant document.
    ReciprocalRank {
        key: "reciprocalRank",
        case: reciprocal_rank = "reciprocalRank",
        mean: [mean_reciprocal_rank = "meanReciprocalRank"],
        label: "MRR",
        name: "MRR",
        column: "RR",
        value: reciprocal_rank,
    },
    /// nDCG@k.
    Ndcg {
        key: "ndcg",
        case: ndcg = "ndcg",
        mean: [mean_ndcg = "meanNdcg"],
        label: "nDCG@k",
        name: "nDCG@k",
        column: "nDCG",
        value: ndcg,
    },
    /// MAP@k: average precision cut at k.
    AveragePrecision {
        key: "map",
        case: average_precision = "averagePrecision",
        mean: [mean_average_precision = "meanAveragePrecision"],
        label: "MAP@k",
        name: "MAP@k",
        column: "AP",
        value: average_precision,
    },
}

/// One case's metrics, in [`Metric::ALL`] order.
pub type MetricValues = [f64; Metric::COUNT];

/// The metrics' keys in the comparisons, in [`Metric::ALL`] order.
pub const DELTA_METRICS: [&str; Metric::COUNT] = {
    let mut keys = [""; Metric::COUNT];
    let mut m = 0;
    while m < Metric::COUNT {
        keys[m] = Metric::ALL[m].key();
        m += 1;
    }
    keys
};

/// The metrics' column heads in the run tables, in [`Metric::ALL`] order.
pub const METRIC_LABELS: [&str; Metric::COUNT] = {
    let mut labels = [""; Metric::COUNT];
    let mut m = 0;
    while m < Metric::COUNT {
        labels[m] = Metric::ALL[m].label();
        m += 1;
    }
    labels
};

impl Metric {
    /// Every metric of one case.
    pub(crate) fn values(judged: &Judged) -> MetricValues {
        Metric::ALL.map(|m| m.value(judged))
    }

    /// Whether a saved report.json may lack it (written before the metric existed): a
    /// baseline without it compares the others and leaves it out.
    pub fn may_be_absent(self) -> bool {
        self == Metric::AveragePrecision
    }

    /// The metrics that report.json's summary has a mean of.
    pub fn with_mean() -> impl Iterator<Item = Metric> {
        Metric::ALL.into_iter().filter(|m| m.mean_key().is_some())
    }
}

#[cfg(test)]
mod tests {
    use super::{Judged, Metric};

    /// The table's positions are the enum's, and the keys and fields are distinct.
    #[test]
    fn the_table_is_in_order_and_its_names_distinct() {
        for (i, m) in Metric::ALL.iter().enumerate() {
            assert_eq!(m.index(), i);
        }
        let keys: std::collections::HashSet<&str> = Metric::ALL.iter().map(|m| m.key()).collect();
        assert_eq!(keys.len(), Metric::COUNT);
        let fields: std::collections::HashSet<&str> =
            Metric::ALL.iter().map(|m| m.case_key()).collect();
        assert_eq!(fields.len(), Metric::COUNT);
    }

    /// The report fields named in the table are the ones report.json writes.
    #[test]
    fn the_table_names_report_json_s_keys() {
        let case = crate::golden::evaluate_runs(
            &[crate::golden::GoldenCase {
                case_id: "c".to_owned(),
                ..crate::golden::GoldenCase::default()
            }],
            &[],
            3,
        );
        let json = serde_json::to_value(&case).unwrap_or_default();
        for m in Metric::ALL {
            assert!(
                json["cases"][0].get(m.case_key()).is_some(),
                "{}",
                m.case_key()
            );
            if let Some(mean) = m.mean_key() {
                assert!(json["summary"].get(mean).is_some(), "{mean}");
            }
        }
    }

    /// Ranking r1 d1 n d2 (relevant r1, r2, r3 with r2, r3 unretrieved), k = 3:
    /// recall 1/3, precision 1/3, RR 1, nDCG = 1 / (1 + 1/log2 3 + 1/2), AP = (1/1) / 3.
    #[test]
    fn binary_values_by_hand() {
        let judged = Judged {
            grades: &[1, 0, 0, 0],
            relevant_grade: 1,
            relevant: 3,
            ideal: &[1, 1, 1],
            k: 3,
        };
        let v = Metric::values(&judged);
        let idcg = 1.0 + 1.0 / 3f64.log2() + 0.5;
        assert_eq!(v, [1.0, 1.0 / 3.0, 1.0 / 3.0, 1.0, 1.0 / idcg, 1.0 / 3.0]);
    }

    /// Grades [0, 2, 1, 0, 3, 1] at relevantGrade 2, 4 relevant documents, k = 5:
    /// relevant at positions 2 and 5: AP = (1/2 + 2/5) / 4 = 0.225. At k = 4 only the
    /// first: (1/2) / 4 = 0.125. No relevant document: 0.
    #[test]
    fn average_precision_by_hand() {
        let at = |k: usize, relevant: usize| {
            Metric::AveragePrecision.value(&Judged {
                grades: &[0, 2, 1, 0, 3, 1],
                relevant_grade: 2,
                relevant,
                ideal: &[3, 2, 2, 2],
                k,
            })
        };
        assert_eq!(at(5, 4), 0.225);
        assert_eq!(at(4, 4), 0.125);
        assert_eq!(at(5, 0), 0.0);
        assert_eq!(at(0, 4), 0.0);
    }
}
