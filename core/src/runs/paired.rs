//! The numbers of every pair (overlap, Jaccard, RBO, Kendall's tau-b, both levels) and
//! their summaries by group: what the page recomputes on every knob change.

use super::pairing::{pair_runs, traces_of, Link, LinkedTraces, ModePair, PairedBy, Pairing};
use crate::analysis::Analysis;
use crate::input::NameHashes;
use crate::outcome::Level;
use crate::stats::{self, Rbo};
use crate::trace_analysis::TraceAnalysis;
use serde::Serialize;

/// The options of a comparison (not knobs of the analysis: they change no trace).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct CompareOptions {
    /// RBO's persistence: the weight of depth d is proportional to p^(d-1); 0.9 puts
    /// about 86% of the weight on the first ten ranks.
    pub rbo_p: f64,
}

impl Default for CompareOptions {
    fn default() -> Self {
        CompareOptions { rbo_p: 0.9 }
    }
}

impl CompareOptions {
    /// `Err` names the problem when `rbo_p` is not in (0, 1).
    pub fn validate(&self) -> Result<(), String> {
        if self.rbo_p > 0.0 && self.rbo_p < 1.0 {
            Ok(())
        } else {
            Err(format!(
                "rboP must be greater than 0 and less than 1, found {}",
                self.rbo_p
            ))
        }
    }
}

/// One pair of traces, numbers only (no string is copied).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct PairComparison {
    /// Index into run A's `Analysis::traces`.
    pub a: usize,
    /// Index into run B's `Analysis::traces`.
    pub b: usize,
    pub paired_by: PairedBy,
    pub mode_pair: ModePair,
    /// The cut of overlap@k: the smaller of the two traces' effective `returnN`.
    pub k: usize,
    /// Distinct documents each side accepted.
    pub docs_a: usize,
    pub docs_b: usize,
    /// Documents both accepted (whole lists, not only the first k).
    pub common_docs: usize,
    /// |A ∩ B| / k over the first k distinct documents of each side; `None` when k is 0.
    pub overlap_docs: Option<f64>,
    /// The same over the accepted blocks' evidence keys.
    pub overlap_keys: Option<f64>,
    /// Over the accepted documents; `None` when neither side accepted any.
    pub jaccard: Option<f64>,
    /// Over the accepted document rankings; `None` when neither side accepted any.
    pub rbo: Option<Rbo>,
    /// Over the ranks of the documents both accepted; `None` for fewer than two.
    pub kendall_tau_b: Option<f64>,
    pub level_a: Level,
    pub level_b: Level,
    pub top_quality_a: Option<f64>,
    pub top_quality_b: Option<f64>,
    /// A accepted documents and B kept none of them.
    pub b_kept_none: bool,
    /// The two traces ran with different effective configurations (their own options
    /// differ); [`pair_detail`](crate::pair_detail) lists the keys.
    pub config_differs: bool,
}

impl PairComparison {
    /// The level got worse from A to B (NO_MATCH is the worst).
    pub fn level_worsened(&self) -> bool {
        self.level_b > self.level_a
    }
}

/// A summary of numbers in [0, 1].
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Distribution {
    /// Pairs that have the number (it is undefined for some).
    pub count: usize,
    pub mean: Option<f64>,
    pub median: Option<f64>,
    /// Ten bins of width 0.1: [0, 0.1), [0.1, 0.2), ..., [0.9, 1.0]; 1.0 is in the last.
    pub histogram: [usize; 10],
}

impl Distribution {
    fn of(mut values: Vec<f64>) -> Distribution {
        let mut histogram = [0usize; 10];
        for v in &values {
            histogram[((v * 10.0).floor().max(0.0) as usize).min(9)] += 1;
        }
        values.sort_by(f64::total_cmp);
        let count = values.len();
        let mean = (count > 0).then(|| values.iter().sum::<f64>() / count as f64);
        let median = (count > 0).then(|| stats::quantile(&values, 0.5));
        Distribution {
            count,
            mean,
            median,
            histogram,
        }
    }
}

/// The batch numbers of a group of pairs (all of them, or those of one mode pair).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct GroupSummary {
    /// `all`, or a mode pair such as `dense->hybrid`.
    pub group: String,
    pub pairs: usize,
    /// `levelTransitions[i][j]`: pairs at level `Level::ALL[i]` in A and `Level::ALL[j]` in B
    /// (PRECISE, HIGHLY_RELEVANT, RELEVANT, LOW_RELEVANCE, NO_MATCH).
    pub level_transitions: [[usize; 5]; 5],
    pub level_improved: usize,
    pub level_worsened: usize,
    pub overlap_docs: Distribution,
    pub overlap_keys: Distribution,
    pub jaccard: Distribution,
    pub rbo_ext: Distribution,
    /// Pairs where A accepted documents and B kept none of them.
    pub b_kept_none: usize,
}

/// The comparison of two analysed runs.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct RunComparison {
    pub options: CompareOptions,
    /// In run A's order (the order of [`Pairing::links`]).
    pub pairs: Vec<PairComparison>,
    /// `all` first, then each mode pair present, in label order.
    pub groups: Vec<GroupSummary>,
    /// Indexes into `pairs` where B kept none of A's documents.
    pub b_kept_none: Vec<usize>,
}

/// Working space reused across pairs, so a comparison allocates per batch, not per pair.
#[derive(Default)]
struct Scratch {
    docs_a: Vec<u64>,
    docs_b: Vec<u64>,
    keys_a: Vec<u64>,
    keys_b: Vec<u64>,
    ranks_a: Vec<f64>,
    ranks_b: Vec<f64>,
}

/// A trace's accepted documents (distinct, first occurrence) and evidence keys, as the
/// hashes of their names (`names`, the trace's): the two sides' lists are compared by
/// these numbers.
fn accepted_lists(
    t: &TraceAnalysis,
    names: &[NameHashes],
    docs: &mut Vec<u64>,
    keys: &mut Vec<u64>,
) {
    docs.clear();
    keys.clear();
    // `take` stops the walk at the last accepted block instead of reading every decision.
    for at in t.accepted_indices().take(t.stages.accepted) {
        let Some(names) = names.get(at) else { continue };
        keys.push(names.key);
        if !docs.contains(&names.doc) {
            docs.push(names.doc);
        }
    }
}

/// A pair compared again when neither trace decided its blocks anew: what the
/// accepted lists give is `before`'s; what the qualities and levels give is read again.
fn recompare_pair(
    ta: &TraceAnalysis,
    tb: &TraceAnalysis,
    before: &PairComparison,
) -> PairComparison {
    PairComparison {
        level_a: ta.relevance_level,
        level_b: tb.relevance_level,
        top_quality_a: ta.top_quality,
        top_quality_b: tb.top_quality,
        config_differs: ta.config != tb.config,
        ..*before
    }
}

fn compare_pair(
    ta: &TraceAnalysis,
    tb: &TraceAnalysis,
    (link, linked): (Link, &LinkedTraces),
    options: &CompareOptions,
    s: &mut Scratch,
) -> PairComparison {
    accepted_lists(ta, &linked.names_a, &mut s.docs_a, &mut s.keys_a);
    accepted_lists(tb, &linked.names_b, &mut s.docs_b, &mut s.keys_b);
    let k = ta.return_n().min(tb.return_n());
    let at_k = |count: usize| (k > 0).then(|| count as f64 / k as f64);
    s.ranks_a.clear();
    s.ranks_b.clear();
    for (i, doc) in s.docs_a.iter().enumerate() {
        if let Some(j) = s.docs_b.iter().position(|d| d == doc) {
            s.ranks_a.push(i as f64);
            s.ranks_b.push(j as f64);
        }
    }
    let common_docs = s.ranks_a.len();
    PairComparison {
        a: link.a,
        b: link.b,
        paired_by: link.paired_by,
        mode_pair: linked.mode_pair,
        k,
        docs_a: s.docs_a.len(),
        docs_b: s.docs_b.len(),
        common_docs,
        overlap_docs: at_k(stats::overlap_count(&s.docs_a, &s.docs_b, k)),
        overlap_keys: at_k(stats::overlap_count(&s.keys_a, &s.keys_b, k)),
        jaccard: stats::jaccard(&s.docs_a, &s.docs_b),
        rbo: stats::rbo(&s.docs_a, &s.docs_b, options.rbo_p),
        kendall_tau_b: stats::kendall_tau_b(&s.ranks_a, &s.ranks_b),
        level_a: ta.relevance_level,
        level_b: tb.relevance_level,
        top_quality_a: ta.top_quality,
        top_quality_b: tb.top_quality,
        b_kept_none: !s.docs_a.is_empty() && common_docs == 0,
        config_differs: ta.config != tb.config,
    }
}

fn group_summary<'p>(
    group: String,
    pairs: impl Iterator<Item = &'p PairComparison>,
) -> GroupSummary {
    let mut summary = GroupSummary {
        group,
        pairs: 0,
        level_transitions: [[0; 5]; 5],
        level_improved: 0,
        level_worsened: 0,
        overlap_docs: Distribution::of(Vec::new()),
        overlap_keys: Distribution::of(Vec::new()),
        jaccard: Distribution::of(Vec::new()),
        rbo_ext: Distribution::of(Vec::new()),
        b_kept_none: 0,
    };
    // Sized once for the most pairs the group can hold, not grown pair by pair.
    let most = pairs.size_hint().1.unwrap_or(0);
    let mut overlap_docs = Vec::with_capacity(most);
    let mut overlap_keys = Vec::with_capacity(most);
    let mut jaccard = Vec::with_capacity(most);
    let mut rbo = Vec::with_capacity(most);
    for p in pairs {
        summary.pairs += 1;
        summary.level_transitions[p.level_a.index()][p.level_b.index()] += 1;
        if p.level_b < p.level_a {
            summary.level_improved += 1;
        } else if p.level_worsened() {
            summary.level_worsened += 1;
        }
        summary.b_kept_none += usize::from(p.b_kept_none);
        overlap_docs.extend(p.overlap_docs);
        overlap_keys.extend(p.overlap_keys);
        jaccard.extend(p.jaccard);
        rbo.extend(p.rbo.map(|r| r.ext));
    }
    summary.overlap_docs = Distribution::of(overlap_docs);
    summary.overlap_keys = Distribution::of(overlap_keys);
    summary.jaccard = Distribution::of(jaccard);
    summary.rbo_ext = Distribution::of(rbo);
    summary
}

/// Compares two analysed runs paired by `pairing` (fast: numbers only, no golden cases,
/// no significance). Links whose traces are not in the analyses are skipped.
pub fn compare_paired(
    a: &Analysis,
    b: &Analysis,
    pairing: &Pairing,
    options: &CompareOptions,
) -> RunComparison {
    compare_runs_since(None, a, b, pairing, options)
}

/// What [`compare_paired`] gives for `a` and `b`, knowing `previous`: the comparison of
/// `previous_runs` under the same `pairing` (the runs before a knob moved, from which
/// `a` and `b` were reanalysed). A pair whose two traces kept their blocks' decisions
/// (the knob reached only qualities or levels: `maxL2Distance`, a threshold) reuses
/// what `previous` read of their accepted lists, by far the larger part of a pair's
/// cost; the others are compared afresh. Any other `previous` only costs the check.
pub fn recompare_paired(
    previous: &RunComparison,
    previous_runs: (&Analysis, &Analysis),
    (a, b): (&Analysis, &Analysis),
    pairing: &Pairing,
    options: &CompareOptions,
) -> RunComparison {
    compare_runs_since(Some((previous, previous_runs)), a, b, pairing, options)
}

type Since<'a> = (&'a RunComparison, (&'a Analysis, &'a Analysis));

fn compare_runs_since(
    since: Option<Since<'_>>,
    a: &Analysis,
    b: &Analysis,
    pairing: &Pairing,
    options: &CompareOptions,
) -> RunComparison {
    let since = since.filter(|(previous, _)| previous.options == *options);
    // The previous pair of the same two traces, when both kept their decisions.
    let unchanged = |at: usize, link: Link, ta: &TraceAnalysis, tb: &TraceAnalysis| {
        let (previous, (before_a, before_b)) = since?;
        let pair = previous.pairs.get(at)?;
        let same_link = pair.a == link.a && pair.b == link.b;
        (same_link
            && before_a.traces.get(link.a)?.same_decisions(ta)
            && before_b.traces.get(link.b)?.same_decisions(tb))
        .then_some(pair)
    };
    let mut scratch = Scratch::default();
    let mut pairs = Vec::with_capacity(pairing.links.len());
    for (&link, linked) in pairing.links.iter().zip(&pairing.linked) {
        if let (Some(ta), Some(tb)) = (a.traces.get(link.a), b.traces.get(link.b)) {
            let pair = match unchanged(pairs.len(), link, ta, tb) {
                Some(before) => recompare_pair(ta, tb, before),
                None => compare_pair(ta, tb, (link, linked), options, &mut scratch),
            };
            pairs.push(pair);
        }
    }
    // At most sixteen mode pairs (four modes a side): collected and insertion-sorted by
    // hand, as a general sort would add a few KB to the page's wasm.
    let mut mode_pairs: Vec<ModePair> = Vec::new();
    for p in &pairs {
        if !mode_pairs.contains(&p.mode_pair) {
            let at = mode_pairs.partition_point(|m| *m < p.mode_pair);
            mode_pairs.insert(at, p.mode_pair);
        }
    }
    let all = group_summary("all".to_owned(), pairs.iter());
    let mut groups = Vec::with_capacity(mode_pairs.len() + 1);
    for &mode_pair in &mode_pairs {
        groups.push(if mode_pairs.len() == 1 {
            // Every pair is of this mode pair (the usual dense -> hybrid comparison): its
            // numbers are the batch's.
            GroupSummary {
                group: mode_pair.label(),
                ..all.clone()
            }
        } else {
            group_summary(
                mode_pair.label(),
                pairs.iter().filter(|p| p.mode_pair == mode_pair),
            )
        });
    }
    groups.insert(0, all);
    let b_kept_none = pairs
        .iter()
        .enumerate()
        .filter(|(_, p)| p.b_kept_none)
        .map(|(i, _)| i)
        .collect();
    RunComparison {
        options: *options,
        pairs,
        groups,
        b_kept_none,
    }
}

/// Pairs and compares two analysed runs in one call.
pub fn compare_runs(
    a: &Analysis,
    b: &Analysis,
    options: &CompareOptions,
) -> (Pairing, RunComparison) {
    let pairing = pair_runs(&traces_of(a), &traces_of(b));
    let comparison = compare_paired(a, b, &pairing, options);
    (pairing, comparison)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::analyze;
    use crate::config::Settings;
    use crate::input::{parse_document, ParsedBatch};
    use crate::runs::test_support::*;

    /// A: a b c (k = 5), B: c a d. Overlap@5 {a, c} = 2/5; Jaccard 2/4; common ranks
    /// a (0, 1), c (2, 0): discordant, tau-b -1.
    #[test]
    fn one_pair_by_hand() {
        let c = pairs_of(
            &[trace(r#""requestId":"a","query":"q""#, &["a", "b", "c"])],
            &[trace(r#""requestId":"b","query":"q""#, &["c", "a", "d"])],
        );
        let p = c.pairs[0];
        assert_eq!((p.k, p.docs_a, p.docs_b, p.common_docs), (5, 3, 3, 2));
        assert_eq!(p.overlap_docs, Some(0.4));
        assert_eq!(p.overlap_keys, Some(0.4));
        assert_eq!(p.jaccard, Some(0.5));
        assert_eq!(p.kendall_tau_b, Some(-1.0));
        assert!(!p.b_kept_none);
        assert_eq!(c.groups[0].overlap_docs.mean, Some(0.4));
        assert_eq!(c.groups[0].overlap_docs.histogram[4], 1);
    }

    #[test]
    fn a_comparison_redone_after_each_knob_equals_one_made_afresh() {
        let (dense, hybrid, _) = crate::sample::generate_paired_runs(60, 10, 5);
        let (batch_a, batch_b) = (parse_document("a", &dense), parse_document("b", &hybrid));
        let pairing = pair_runs(&batch_a.traces, &batch_b.traces);
        let options = CompareOptions::default();
        let with = |change: fn(&mut Settings)| {
            let mut s = Settings::default();
            change(&mut s);
            s
        };
        // (the settings, whether every trace keeps its blocks' decisions from the step
        // before: the keys of that step not set here go back to their defaults)
        let steps = [
            (with(|s| s.max_l2_distance = Some(0.7)), true),
            (with(|s| s.precise_threshold = Some(0.95)), true),
            (with(|s| s.return_n = Some(3)), false),
            (with(|s| s.max_chunks_per_document = Some(1)), false),
            (with(|s| s.reference_threshold = Some(0.2)), false),
            (Settings::default(), true),
        ];
        let analysed = |batch: &ParsedBatch, s: &Settings| {
            analyze(batch, s, false).unwrap_or_else(|e| panic!("{e}"))
        };
        let (mut a, mut b) = (
            analysed(&batch_a, &Settings::default()),
            analysed(&batch_b, &Settings::default()),
        );
        let mut compared = compare_paired(&a, &b, &pairing, &options);
        for (settings, kept) in steps {
            let again = |run: &Analysis, batch: &ParsedBatch| {
                run.reanalyze(batch, &settings)
                    .unwrap_or_else(|e| panic!("{e}"))
            };
            let (next_a, next_b) = (again(&a, &batch_a), again(&b, &batch_b));
            let shared = next_a
                .traces
                .iter()
                .zip(&a.traces)
                .all(|(n, before)| n.same_decisions(before));
            assert_eq!(shared, kept, "{settings:?}");
            let recompared =
                recompare_paired(&compared, (&a, &b), (&next_a, &next_b), &pairing, &options);
            let fresh = compare_paired(
                &analysed(&batch_a, &settings),
                &analysed(&batch_b, &settings),
                &pairing,
                &options,
            );
            assert_eq!(recompared, fresh, "{settings:?}");
            assert_ne!(recompared, compared, "{settings:?} changed nothing");
            (a, b, compared) = (next_a, next_b, recompared);
        }
        // Another RBO persistence: nothing of the previous comparison is reused.
        let options = CompareOptions { rbo_p: 0.5 };
        assert_eq!(
            recompare_paired(&compared, (&a, &b), (&a, &b), &pairing, &options),
            compare_paired(&a, &b, &pairing, &options)
        );
    }
}
