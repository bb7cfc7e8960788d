//! What the tests of the runs modules share: small runs and their comparison.

use super::{compare_runs, CompareOptions, GroupSummary, PairComparison, UnpairedTrace};
use crate::analysis::{analyze, Analysis};
use crate::config::Settings;
use crate::input::parse_document;

pub(super) fn run(traces: &str) -> Analysis {
    let batch = parse_document("run", traces);
    assert!(batch.errors.is_empty(), "{:?}", batch.errors);
    analyze(&batch, &Settings::default(), false).unwrap_or_else(|err| panic!("{err}"))
}

pub(super) fn trace(fields: &str, docs: &[&str]) -> String {
    let candidates: Vec<String> = docs
        .iter()
        .enumerate()
        .map(|(i, d)| {
            format!(
                r#"{{"evidenceKey":"{d}#1","docId":"{d}","originalRank":{},"score":{},"scoreLabel":"dense"}}"#,
                i + 1,
                0.1 + 0.1 * i as f64
            )
        })
        .collect();
    format!(r#"{{{fields},"candidates":[{}]}}"#, candidates.join(","))
}

/// The pairing's lists and warnings with the comparison's numbers.
pub(super) struct Both {
    pub(super) pairs: Vec<PairComparison>,
    pub(super) groups: Vec<GroupSummary>,
    pub(super) unpaired_a: Vec<UnpairedTrace>,
    pub(super) unpaired_b: Vec<UnpairedTrace>,
    pub(super) warnings: Vec<String>,
    pub(super) no_common_query: Option<String>,
}

pub(super) fn both(a: &Analysis, b: &Analysis) -> Both {
    let (pairing, c) = compare_runs(a, b, &CompareOptions::default());
    Both {
        pairs: c.pairs,
        groups: c.groups,
        unpaired_a: pairing.unpaired_a,
        unpaired_b: pairing.unpaired_b,
        warnings: pairing.warnings,
        no_common_query: pairing.no_common_query,
    }
}

pub(super) fn pairs_of(a: &[String], b: &[String]) -> Both {
    let (a, b) = (
        run(&format!("[{}]", a.join(","))),
        run(&format!("[{}]", b.join(","))),
    );
    both(&a, &b)
}
