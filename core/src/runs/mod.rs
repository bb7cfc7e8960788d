//! Two runs side by side: two batches of traces for the same queries (dense against
//! hybrid, before against after a change), analysed under the same settings.
//!
//! Pairing depends on the input only, so [`pair_runs`] runs once per pair of loaded
//! batches: it pairs the traces by their caseId, query or requestId and reads no
//! candidate. [`compare_paired`] is the part the page calls on every knob change: per
//! pair, numbers only (overlap, Jaccard, RBO, Kendall's tau-b, both levels). It matches
//! the two sides' accepted docIds and evidence keys by the hashes the parser stored for
//! every candidate, so it reads neither the candidates nor their strings, and it uses
//! one scratch space for all pairs. [`compare_runs`] does both. [`pair_detail`] builds
//! the lists of one pair when they are read; [`compare_report`] builds them for every
//! pair (what `compare.json` holds). The golden deltas and their significance are in
//! [`golden_delta`], computed separately (after the paint on the page).

mod detail;
mod golden_delta;
mod many;
mod paired;
mod pairing;
mod render;
mod report;
#[cfg(test)]
mod test_support;

/// How the comparisons' errors read: "at PATH: message", `/` for the whole input.
fn write_at(f: &mut std::fmt::Formatter<'_>, path: &str, message: &str) -> std::fmt::Result {
    let at = if path.is_empty() { "/" } else { path };
    write!(f, "at {at}: {message}")
}

pub use detail::{pair_detail, AcceptedItem, ConfigDifference, OnlyOneSide, PairDetail};
pub use golden_delta::{
    add_significance, baseline_scores, case_scores, compare_golden, golden_gate, BaselineError,
    CaseDelta, CaseScore, FailOn, GoldenComparison, MetricSummary, ReportWithComparison,
    Significance, SignificanceOptions, ValuePair,
};
pub use many::{
    check_many_batches, check_run_names, compact_letters, compare_many, compare_many_batches,
    many_runs_gate, many_runs_markdown, many_runs_summary_text, ManyRunCases, ManyRunComparison,
    ManyRunError, ManyRunMetric, ManyRunOptions, ManyRunSignificance, ManyRunTable, ManyRunTest,
    PartialCase, RandomisedTukey, TukeyHsd, MANY_RUNS_VERSION, MOST_RUNS,
};
pub use paired::{
    compare_paired, compare_runs, recompare_paired, CompareOptions, Distribution, GroupSummary,
    PairComparison, RunComparison,
};
pub use pairing::{pair_runs, Link, ModePair, PairedBy, Pairing, UnpairedTrace};
pub use render::{
    baseline_changes_markdown, baseline_changes_text, compare_markdown, compare_summary_text,
};
pub use report::{compare_batches, compare_report, CompareReport, RunSizes};
