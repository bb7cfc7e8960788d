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

pub mod golden_delta;
pub mod markdown;

use crate::fast_hash::FastMap;
use crate::golden::normalize;
use crate::input::NameHashes;
use crate::label::CanonicalLabel;
use crate::stats::{self, Rbo};
use crate::{Analysis, Level, Trace, TraceAnalysis};
use serde::Serialize;
use serde_json::Value;
use std::borrow::Cow;
use std::sync::Arc;

/// The options of a comparison (not knobs of the analysis: they change no trace).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
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

/// What two traces were paired by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum PairedBy {
    #[serde(rename = "caseId")]
    CaseId,
    #[serde(rename = "query")]
    Query,
    #[serde(rename = "requestId")]
    RequestId,
}

/// The modes of a pair's two traces, e.g. dense -> hybrid; `None` is an unknown mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ModePair {
    pub a: Option<CanonicalLabel>,
    pub b: Option<CanonicalLabel>,
}

impl ModePair {
    /// `dense->hybrid`; an unknown mode is `unknown`.
    pub fn label(&self) -> String {
        let name = |m: Option<CanonicalLabel>| m.map_or("unknown", CanonicalLabel::as_str);
        format!("{}->{}", name(self.a), name(self.b))
    }
}

impl Serialize for ModePair {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.label())
    }
}

/// One pair of traces, numbers only (no string is copied).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
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
    /// differ); [`pair_detail`] lists the keys.
    pub config_differs: bool,
}

impl PairComparison {
    /// The level got worse from A to B (NO_MATCH is the worst).
    pub fn level_worsened(&self) -> bool {
        self.level_b > self.level_a
    }
}

/// A trace of one run that no trace of the other run pairs with.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UnpairedTrace {
    /// Index into its run's `Analysis::traces`.
    pub index: usize,
    pub name: String,
    pub query: Option<String>,
    pub case_id: Option<String>,
}

/// A summary of numbers in [0, 1].
#[derive(Debug, Clone, PartialEq, Serialize)]
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

/// The five recomputed levels, best first: the rows and columns of the transition matrix.
pub const LEVELS: [Level; 5] = [
    Level::Precise,
    Level::HighlyRelevant,
    Level::Relevant,
    Level::LowRelevance,
    Level::NoMatch,
];

fn level_index(level: Level) -> usize {
    LEVELS.iter().position(|l| *l == level).unwrap_or(4)
}

/// The batch numbers of a group of pairs (all of them, or those of one mode pair).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GroupSummary {
    /// `all`, or a mode pair such as `dense->hybrid`.
    pub group: String,
    pub pairs: usize,
    /// `levelTransitions[i][j]`: pairs at level LEVELS[i] in A and LEVELS[j] in B
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

/// Two traces paired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Link {
    /// Index into run A's traces.
    pub a: usize,
    /// Index into run B's traces.
    pub b: usize,
    pub paired_by: PairedBy,
}

/// Which traces of two runs pair, with what a comparison reads of them that no setting
/// changes. Depends on the input only: made once per pair of loaded batches.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Pairing {
    /// In run A's order.
    pub links: Vec<Link>,
    pub unpaired_a: Vec<UnpairedTrace>,
    pub unpaired_b: Vec<UnpairedTrace>,
    /// E.g. duplicate queries paired in order.
    pub warnings: Vec<String>,
    /// Set when the runs have no query in common: says how many traces of each side
    /// were unpaired and names the first few queries.
    pub no_common_query: Option<String>,
    pub traces_a: usize,
    pub traces_b: usize,
    /// Per link, what a comparison reads of its traces.
    #[serde(skip)]
    linked: Vec<LinkedTraces>,
}

/// What a comparison reads of a link's two traces that no setting changes, beside the
/// link so that a knob change reads neither trace: their modes and the hashes of their
/// candidates' names.
#[derive(Debug, Clone, PartialEq)]
struct LinkedTraces {
    mode_pair: ModePair,
    names_a: Arc<[NameHashes]>,
    names_b: Arc<[NameHashes]>,
}

/// A pairing key: caseId, normalised query, or requestId.
type Key<'a> = Cow<'a, str>;

const NONE: usize = usize::MAX;

/// Run B's traces with one key, in order, as a linked list through [`Occurrences`]'
/// `next` (no allocation per key): the first and last index, `NONE` when empty.
#[derive(Clone, Copy)]
struct Chain {
    head: usize,
    tail: usize,
}

/// What one pass knows of one key: run B's traces with it, one chain per category of
/// trace (see [`category`]), and whether a trace of run A had it already.
#[derive(Clone, Copy)]
struct Seen {
    chains: [Chain; 4],
    by_a: bool,
}

const UNSEEN: Seen = Seen {
    chains: [Chain {
        head: NONE,
        tail: NONE,
    }; 4],
    by_a: false,
};

/// One pass's keys, hashed once per trace: a trace of B is appended to its key's chain,
/// a trace of A takes the first of its key's chains it may pair with.
struct Occurrences<'a> {
    keys: FastMap<Key<'a>, Seen>,
    next: Vec<usize>,
}

impl<'a> Occurrences<'a> {
    /// Appends B's trace `index`; true when the chain had one already (a repeated key).
    fn push(&mut self, key: Key<'a>, category: usize, index: usize) -> bool {
        let chain = &mut self.keys.entry(key).or_insert(UNSEEN).chains[category];
        let repeated = chain.head != NONE;
        if repeated {
            self.next[chain.tail] = index;
        } else {
            chain.head = index;
        }
        chain.tail = index;
        // `next` is reused across passes: the new tail must not point on.
        self.next[index] = NONE;
        repeated
    }

    /// The partner of a trace of A of `category`, first come first served, and whether an
    /// earlier trace of A had the same key.
    fn pop(&mut self, key: Key<'a>, by: PairedBy, category: usize) -> (Option<usize>, bool) {
        let seen = self.keys.entry(key).or_insert(UNSEEN);
        let repeated = std::mem::replace(&mut seen.by_a, true);
        let next = &self.next;
        let partner = (0..4).filter(|&c| allowed(by, category, c)).find_map(|c| {
            let chain = &mut seen.chains[c];
            let index = chain.head;
            (index != NONE).then(|| {
                chain.head = next[index];
                index
            })
        });
        (partner, repeated)
    }
}

/// The normalised query, borrowed when normalising would not change it (the usual case).
fn normalized_query(text: &str) -> Cow<'_, str> {
    // A character normalising keeps: a space, or another character that is no whitespace
    // and lowercases to itself (ASCII without the Unicode tables).
    let settled = |c: char| {
        if c.is_ascii() {
            c == ' ' || !(c.is_whitespace() || c.is_ascii_uppercase())
        } else {
            !c.is_whitespace() && lowercases_to_itself(c)
        }
    };
    let already = !text.starts_with(' ')
        && !text.ends_with(' ')
        && !text.contains("  ")
        && text.chars().all(settled);
    if already {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(normalize(text))
    }
}

fn lowercases_to_itself(c: char) -> bool {
    let mut lower = c.to_lowercase();
    lower.next() == Some(c) && lower.next().is_none()
}

type KeyOf = for<'t> fn(&'t Trace) -> Option<Cow<'t, str>>;

fn case_key(t: &Trace) -> Option<Cow<'_, str>> {
    t.case_id.as_deref().map(Cow::Borrowed)
}

fn query_key(t: &Trace) -> Option<Cow<'_, str>> {
    t.query.as_deref().map(normalized_query)
}

fn request_key(t: &Trace) -> Option<Cow<'_, str>> {
    t.request_id.as_deref().map(Cow::Borrowed)
}

/// Which traces a pass may pair: `(has caseId, has query)` of each side. Two traces that
/// both carry a caseId pair by it or not at all; two that both carry a query pair by it
/// (normalised) or not at all; requestId is the last resort.
fn category(t: &Trace) -> usize {
    usize::from(t.case_id.is_some()) * 2 + usize::from(t.query.is_some())
}

fn allowed(by: PairedBy, a: usize, b: usize) -> bool {
    let both = a & b;
    match by {
        PairedBy::CaseId => both & 2 != 0,
        PairedBy::Query => both & 2 == 0,
        PairedBy::RequestId => both == 0,
    }
}

/// Pairs the traces of two runs: caseId when both carry one, else the normalised query,
/// else requestId; repeated keys pair in order. Returns (a, b, by) in A's order.
fn link_traces(a: &[Arc<Trace>], b: &[Arc<Trace>], warnings: &mut Vec<String>) -> Vec<Link> {
    let mut partner_of_a = vec![None::<(usize, PairedBy)>; a.len()];
    let mut paired_b = vec![false; b.len()];
    let passes: [(KeyOf, PairedBy); 3] = [
        (case_key, PairedBy::CaseId),
        (query_key, PairedBy::Query),
        (request_key, PairedBy::RequestId),
    ];
    let mut occurrences = Occurrences {
        keys: FastMap::default(),
        next: vec![NONE; b.len()],
    };
    for (key_of, by) in passes {
        occurrences.keys.clear();
        let mut repeated_b = 0usize;
        for (j, t) in b.iter().enumerate() {
            if paired_b[j] {
                continue;
            }
            if let Some(key) = key_of(t) {
                repeated_b += usize::from(occurrences.push(key, category(t), j));
            }
        }
        let mut repeated_a = 0usize;
        for (i, t) in a.iter().enumerate() {
            if partner_of_a[i].is_some() {
                continue;
            }
            let Some(key) = key_of(t) else { continue };
            let (partner, repeated) = occurrences.pop(key, by, category(t));
            if let Some(j) = partner {
                partner_of_a[i] = Some((j, by));
                paired_b[j] = true;
            }
            repeated_a += usize::from(repeated);
        }
        if repeated_a + repeated_b > 0 {
            let what = match by {
                PairedBy::CaseId => "caseId",
                PairedBy::Query => "query",
                PairedBy::RequestId => "requestId",
            };
            warnings.push(format!(
                "{repeated_a} trace(s) of run A and {repeated_b} of run B repeat an earlier {what}; repeated ones are paired in order of appearance"
            ));
        }
    }
    partner_of_a
        .iter()
        .enumerate()
        .filter_map(|(i, p)| p.map(|(b, paired_by)| Link { a: i, b, paired_by }))
        .collect()
}

/// Pairs the traces of two runs (caseId, else normalised query, else requestId). Pass
/// the parsed batches' `traces` (or, equally, those an analysis holds): the analyses
/// compared must be of these.
pub fn pair_runs(a: &[Arc<Trace>], b: &[Arc<Trace>]) -> Pairing {
    let mut warnings = Vec::new();
    let links = link_traces(a, b, &mut warnings);
    let linked = links
        .iter()
        .map(|link| {
            let (ta, tb) = (&a[link.a], &b[link.b]);
            LinkedTraces {
                mode_pair: ModePair {
                    a: ta.canonical_mode,
                    b: tb.canonical_mode,
                },
                names_a: Arc::clone(ta.name_hashes()),
                names_b: Arc::clone(tb.name_hashes()),
            }
        })
        .collect();
    let mut paired_a = vec![false; a.len()];
    let mut paired_b = vec![false; b.len()];
    for link in &links {
        paired_a[link.a] = true;
        paired_b[link.b] = true;
    }
    let unpaired_of = |traces: &[Arc<Trace>], paired: &[bool]| -> Vec<UnpairedTrace> {
        traces
            .iter()
            .enumerate()
            .filter(|(i, _)| !paired[*i])
            .map(|(i, t)| unpaired(t, i))
            .collect()
    };
    let unpaired_a = unpaired_of(a, &paired_a);
    let unpaired_b = unpaired_of(b, &paired_b);
    let no_common_query = (links.is_empty() && !(a.is_empty() && b.is_empty()))
        .then(|| no_common_query_message(&unpaired_a, &unpaired_b));
    Pairing {
        links,
        unpaired_a,
        unpaired_b,
        warnings,
        no_common_query,
        traces_a: a.len(),
        traces_b: b.len(),
        linked,
    }
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

fn unpaired(t: &Trace, index: usize) -> UnpairedTrace {
    let name = match t.request_id.as_deref() {
        Some(id) => id.to_owned(),
        None => format!("#{}", t.position),
    };
    UnpairedTrace {
        index,
        name,
        query: t.query.as_deref().map(str::to_owned),
        case_id: t.case_id.as_deref().map(str::to_owned),
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
        summary.level_transitions[level_index(p.level_a)][level_index(p.level_b)] += 1;
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

/// How many queries the no-common-query message names per side.
const FIRST_FEW: usize = 3;

fn no_common_query_message(unpaired_a: &[UnpairedTrace], unpaired_b: &[UnpairedTrace]) -> String {
    let first = |side: &[UnpairedTrace]| {
        let names: Vec<String> = side
            .iter()
            .take(FIRST_FEW)
            .map(|t| match &t.query {
                Some(q) => format!("\"{q}\""),
                None => t.name.clone(),
            })
            .collect();
        if names.is_empty() {
            "none".to_owned()
        } else {
            names.join(", ")
        }
    };
    format!(
        "the runs have no query in common: all {} trace(s) of run A and all {} of run B are unpaired (traces pair by caseId, else normalised query, else requestId); run A's first queries: {}; run B's: {}",
        unpaired_a.len(),
        unpaired_b.len(),
        first(unpaired_a),
        first(unpaired_b)
    )
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

/// The traces an analysis holds, for [`pair_runs`].
pub fn traces_of(analysis: &Analysis) -> Vec<Arc<Trace>> {
    analysis
        .traces
        .iter()
        .map(|t| Arc::clone(&t.trace))
        .collect()
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

/// One accepted block of one side of a pair.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AcceptedItem {
    pub doc_id: String,
    pub evidence_key: String,
    pub accepted_rank: usize,
    pub quality: f64,
}

/// A document only one side accepted: its rank among that side's distinct documents
/// (1-based), its first block's accepted rank and quality.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OnlyOneSide {
    pub doc_id: String,
    pub doc_rank: usize,
    pub accepted_rank: usize,
    pub quality: f64,
}

/// A configuration key whose effective value differs between the two traces.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ConfigDifference {
    pub key: String,
    pub a: Value,
    pub b: Value,
}

/// One pair with its names and lists (built when read).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PairDetail {
    pub name_a: String,
    pub name_b: String,
    pub query: Option<String>,
    pub case_id: Option<String>,
    pub accepted_a: Vec<AcceptedItem>,
    pub accepted_b: Vec<AcceptedItem>,
    pub only_in_a: Vec<OnlyOneSide>,
    pub only_in_b: Vec<OnlyOneSide>,
    pub config_differences: Vec<ConfigDifference>,
    #[serde(flatten)]
    pub numbers: PairComparison,
}

fn accepted_items(t: &TraceAnalysis) -> Vec<AcceptedItem> {
    t.accepted_blocks()
        .map(|block| AcceptedItem {
            doc_id: block.doc_id.to_string(),
            evidence_key: block.evidence_key.to_string(),
            accepted_rank: block.accepted_rank.unwrap_or(0),
            quality: block.quality_score,
        })
        .collect()
}

fn only_in(side: &[AcceptedItem], other: &[AcceptedItem]) -> Vec<OnlyOneSide> {
    let mut docs: Vec<&str> = Vec::new();
    let mut out = Vec::new();
    for item in side {
        if docs.contains(&item.doc_id.as_str()) {
            continue;
        }
        docs.push(&item.doc_id);
        if !other.iter().any(|o| o.doc_id == item.doc_id) {
            out.push(OnlyOneSide {
                doc_id: item.doc_id.clone(),
                doc_rank: docs.len(),
                accepted_rank: item.accepted_rank,
                quality: item.quality,
            });
        }
    }
    out
}

fn config_differences(a: &TraceAnalysis, b: &TraceAnalysis) -> Vec<ConfigDifference> {
    if a.config == b.config {
        return Vec::new();
    }
    let (Ok(Value::Object(ca)), Ok(Value::Object(cb))) = (
        serde_json::to_value(a.config),
        serde_json::to_value(b.config),
    ) else {
        return Vec::new();
    };
    ca.iter()
        .filter_map(|(key, va)| {
            let vb = cb.get(key).cloned().unwrap_or(Value::Null);
            (*va != vb).then(|| ConfigDifference {
                key: key.clone(),
                a: va.clone(),
                b: vb,
            })
        })
        .collect()
}

/// The names and lists of one pair (what the page's side-by-side view shows).
pub fn pair_detail(a: &Analysis, b: &Analysis, pair: &PairComparison) -> Option<PairDetail> {
    let (ta, tb) = (a.traces.get(pair.a)?, b.traces.get(pair.b)?);
    let accepted_a = accepted_items(ta);
    let accepted_b = accepted_items(tb);
    Some(PairDetail {
        name_a: ta.name().into_owned(),
        name_b: tb.name().into_owned(),
        query: ta
            .trace
            .query
            .as_deref()
            .or(tb.trace.query.as_deref())
            .map(str::to_owned),
        case_id: ta
            .trace
            .case_id
            .as_deref()
            .or(tb.trace.case_id.as_deref())
            .map(str::to_owned),
        only_in_a: only_in(&accepted_a, &accepted_b),
        only_in_b: only_in(&accepted_b, &accepted_a),
        accepted_a,
        accepted_b,
        config_differences: config_differences(ta, tb),
        numbers: *pair,
    })
}

/// `compare.json`: the comparison with every pair's detail, and the golden deltas when
/// cases were given.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CompareReport {
    /// The shape of this object; raised when a key changes meaning.
    pub version: u32,
    pub options: CompareOptions,
    /// The settings both runs were analysed under (defaults plus the user's settings).
    pub config: crate::Config,
    pub runs: RunSizes,
    pub groups: Vec<GroupSummary>,
    pub pairs: Vec<PairDetail>,
    pub unpaired_a: Vec<UnpairedTrace>,
    pub unpaired_b: Vec<UnpairedTrace>,
    pub b_kept_none: Vec<usize>,
    pub warnings: Vec<String>,
    pub no_common_query: Option<String>,
    pub golden: Option<golden_delta::GoldenComparison>,
}

/// Trace counts of the two runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RunSizes {
    pub traces_a: usize,
    pub traces_b: usize,
    pub pairs: usize,
}

/// The version written in `compare.json`.
pub const COMPARE_VERSION: u32 = 1;

/// Builds `compare.json` from a comparison (and the golden deltas, if any).
pub fn compare_report(
    a: &Analysis,
    b: &Analysis,
    pairing: &Pairing,
    comparison: &RunComparison,
    golden: Option<golden_delta::GoldenComparison>,
) -> CompareReport {
    CompareReport {
        version: COMPARE_VERSION,
        options: comparison.options,
        config: a.config,
        runs: RunSizes {
            traces_a: a.traces.len(),
            traces_b: b.traces.len(),
            pairs: comparison.pairs.len(),
        },
        groups: comparison.groups.clone(),
        pairs: comparison
            .pairs
            .iter()
            .filter_map(|p| pair_detail(a, b, p))
            .collect(),
        unpaired_a: pairing.unpaired_a.clone(),
        unpaired_b: pairing.unpaired_b.clone(),
        b_kept_none: comparison.b_kept_none.clone(),
        warnings: pairing.warnings.clone(),
        no_common_query: pairing.no_common_query.clone(),
        golden,
    }
}

/// Everything `compare.json` holds for two parsed runs: both analysed under the same
/// `settings` (each trace with its own options), paired and compared, and, given
/// `cases`, both evaluated against them with the golden deltas and their significance
/// (default seeds). The one entry point of the CLI's `compare` and the JS API's
/// `compareRuns`, so both report the same numbers. `Err` when the settings are invalid.
pub fn compare_batches(
    a: &crate::ParsedBatch,
    b: &crate::ParsedBatch,
    settings: &crate::Settings,
    cases: Option<&crate::golden::CaseSet>,
    options: &CompareOptions,
) -> Result<CompareReport, crate::ConfigError> {
    let analysis_a = crate::analyze(a, settings, false)?;
    let analysis_b = crate::analyze(b, settings, false)?;
    let (pairing, comparison) = compare_runs(&analysis_a, &analysis_b, options);
    let golden = cases.map(|cases| {
        let scores = |analysis: &Analysis| {
            golden_delta::case_scores(&crate::golden::evaluate_analysis(cases, analysis))
        };
        let mut delta = golden_delta::compare_golden(&scores(&analysis_a), &scores(&analysis_b));
        golden_delta::add_significance(&mut delta, &golden_delta::SignificanceOptions::default());
        delta
    });
    Ok(compare_report(
        &analysis_a,
        &analysis_b,
        &pairing,
        &comparison,
        golden,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{analyze, parse_document, ParsedBatch, Settings};

    fn run(traces: &str) -> Analysis {
        let batch = parse_document("run", traces);
        assert!(batch.errors.is_empty(), "{:?}", batch.errors);
        analyze(&batch, &Settings::default(), false).unwrap_or_else(|err| panic!("{err}"))
    }

    fn trace(fields: &str, docs: &[&str]) -> String {
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
    struct Both {
        pairs: Vec<PairComparison>,
        groups: Vec<GroupSummary>,
        unpaired_a: Vec<UnpairedTrace>,
        unpaired_b: Vec<UnpairedTrace>,
        warnings: Vec<String>,
        no_common_query: Option<String>,
    }

    fn both(a: &Analysis, b: &Analysis) -> Both {
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

    fn pairs_of(a: &[String], b: &[String]) -> Both {
        let (a, b) = (
            run(&format!("[{}]", a.join(","))),
            run(&format!("[{}]", b.join(","))),
        );
        both(&a, &b)
    }

    #[test]
    fn queries_pair_after_normalisation_and_case_ids_only_with_each_other() {
        let c = pairs_of(
            &[
                trace(r#""requestId":"a1","query":"Redis  Eviction""#, &["x"]),
                trace(
                    r#""requestId":"a2","caseId":"c1","query":"same words""#,
                    &["x"],
                ),
                trace(r#""requestId":"a3","caseId":"c2","query":"shared""#, &["x"]),
            ],
            &[
                trace(r#""requestId":"b1","query":" redis eviction ""#, &["x"]),
                // Another caseId with the same query: not the same case.
                trace(r#""requestId":"b3","caseId":"c9","query":"shared""#, &["x"]),
                trace(
                    r#""requestId":"b2","caseId":"c1","query":"other words""#,
                    &["x"],
                ),
            ],
        );
        let found: Vec<(usize, usize, PairedBy)> =
            c.pairs.iter().map(|p| (p.a, p.b, p.paired_by)).collect();
        assert_eq!(found, [(0, 0, PairedBy::Query), (1, 2, PairedBy::CaseId)]);
        assert_eq!(c.unpaired_a.len(), 1);
        assert_eq!(c.unpaired_a[0].name, "a3");
        assert_eq!(c.unpaired_b[0].name, "b3");
        assert!(c.warnings.is_empty());
        assert_eq!(c.no_common_query, None);
    }

    /// The borrowed fast path agrees with the golden module's normalisation.
    #[test]
    fn normalized_query_is_normalize() {
        for text in [
            "plain words",
            "Upper Case",
            " padded ",
            "two  spaces",
            "tab\there",
            "vertical\u{b}tab",
            "ΣΊΣΥΦΟΣ",
            "ǅemal",
            "支付 回调",
            "non\u{a0}breaking",
            "",
        ] {
            assert_eq!(normalized_query(text), normalize(text), "{text:?}");
        }
        assert!(matches!(normalized_query("plain words"), Cow::Borrowed(_)));
    }

    #[test]
    fn repeated_queries_pair_in_order_with_a_warning() {
        let c = pairs_of(
            &[
                trace(r#""requestId":"a1","query":"q""#, &["x"]),
                trace(r#""requestId":"a2","query":"q""#, &["y"]),
                trace(r#""requestId":"a3","query":"q""#, &["z"]),
            ],
            &[
                trace(r#""requestId":"b1","query":"q""#, &["x"]),
                trace(r#""requestId":"b2","query":"q""#, &["y"]),
            ],
        );
        let found: Vec<(usize, usize)> = c.pairs.iter().map(|p| (p.a, p.b)).collect();
        assert_eq!(found, [(0, 0), (1, 1)]);
        assert_eq!(c.unpaired_a[0].name, "a3");
        assert_eq!(
            c.warnings,
            ["2 trace(s) of run A and 1 of run B repeat an earlier query; repeated ones are paired in order of appearance"]
        );
    }

    /// B's two traces share a caseId A lacks, so neither pairs by caseId; by query only
    /// the first one pairs, and the second A trace stays unpaired.
    #[test]
    fn a_chain_of_one_pass_does_not_leak_into_the_next() {
        let c = pairs_of(
            &[
                trace(r#""requestId":"a1","query":"x""#, &["d"]),
                trace(r#""requestId":"a2","query":"x""#, &["d"]),
            ],
            &[
                trace(r#""requestId":"b1","caseId":"c","query":"x""#, &["d"]),
                trace(r#""requestId":"b2","caseId":"c","query":"y""#, &["d"]),
            ],
        );
        let found: Vec<(usize, usize, PairedBy)> =
            c.pairs.iter().map(|p| (p.a, p.b, p.paired_by)).collect();
        assert_eq!(found, [(0, 0, PairedBy::Query)]);
        assert_eq!(c.unpaired_a[0].name, "a2");
        assert_eq!(c.unpaired_b[0].name, "b2");
        assert_eq!(
            c.warnings,
            [
                "0 trace(s) of run A and 1 of run B repeat an earlier caseId; repeated ones are paired in order of appearance",
                "1 trace(s) of run A and 0 of run B repeat an earlier query; repeated ones are paired in order of appearance"
            ]
        );
    }

    #[test]
    fn request_ids_pair_traces_without_queries_only() {
        let c = pairs_of(
            &[
                trace(r#""requestId":"r1""#, &["x"]),
                trace(r#""requestId":"r2","query":"asked by A""#, &["x"]),
            ],
            &[
                trace(r#""requestId":"r1""#, &["x"]),
                trace(r#""requestId":"r2","query":"asked by B""#, &["x"]),
            ],
        );
        assert_eq!(c.pairs.len(), 1);
        assert_eq!(c.pairs[0].paired_by, PairedBy::RequestId);
        assert_eq!(c.unpaired_a.len(), 1);
    }

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
    fn no_query_in_common_is_a_message_not_an_empty_table() {
        let c = pairs_of(
            &[trace(r#""requestId":"a","query":"one""#, &["x"])],
            &[trace(r#""requestId":"b","query":"two""#, &["x"])],
        );
        assert!(c.pairs.is_empty());
        assert_eq!(
            c.no_common_query.as_deref(),
            Some("the runs have no query in common: all 1 trace(s) of run A and all 1 of run B are unpaired (traces pair by caseId, else normalised query, else requestId); run A's first queries: \"one\"; run B's: \"two\"")
        );
    }

    #[test]
    fn differing_trace_options_are_listed_per_pair() {
        let (a, b) = (
            run(&format!(
                "[{}]",
                trace(
                    r#""requestId":"a","query":"q","options":{"returnN":2}"#,
                    &["x", "y", "z"]
                )
            )),
            run(&format!(
                "[{}]",
                trace(r#""requestId":"b","query":"q""#, &["x", "y", "z"])
            )),
        );
        let c = both(&a, &b);
        assert!(c.pairs[0].config_differs);
        assert_eq!(c.pairs[0].k, 2);
        let detail = pair_detail(&a, &b, &c.pairs[0]).unwrap_or_else(|| panic!("a pair"));
        assert_eq!(detail.config_differences.len(), 1);
        assert_eq!(detail.config_differences[0].key, "returnN");
        assert_eq!(detail.config_differences[0].a, serde_json::json!(2));
        assert_eq!(detail.config_differences[0].b, serde_json::json!(5));
        assert_eq!(detail.only_in_b[0].doc_id, "z");
        assert_eq!(detail.only_in_b[0].doc_rank, 3);
    }

    #[test]
    fn the_generated_paired_runs_pair_fully_but_for_the_dense_only_queries() {
        let (dense, hybrid, cases) = crate::testdata::generate_paired_runs(50, 10, 3);
        assert_eq!(
            (dense.clone(), hybrid.clone(), cases.clone()),
            crate::testdata::generate_paired_runs(50, 10, 3)
        );
        let cases = crate::golden::parse_cases("cases", &cases).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(cases.cases.len(), 16);
        let (a, b) = (run(&dense), run(&hybrid));
        // The cases go both ways: some regress from dense to hybrid, some improve.
        let delta = golden_delta::compare_golden(
            &golden_delta::case_scores(&crate::golden::evaluate_analysis(&cases, &a)),
            &golden_delta::case_scores(&crate::golden::evaluate_analysis(&cases, &b)),
        );
        assert!(delta.regressions > 0 && delta.improvements > 0, "{delta:?}");
        let c = both(&a, &b);
        assert_eq!(c.pairs.len(), 45);
        assert_eq!(c.unpaired_a.len(), 5);
        assert!(c.unpaired_b.is_empty());
        assert_eq!(c.groups[1].group, "dense->hybrid");
        assert!(c.pairs.iter().any(|p| p.paired_by == PairedBy::CaseId));
        assert!(c.pairs.iter().any(|p| p.paired_by == PairedBy::Query));
    }

    #[test]
    fn a_comparison_redone_after_each_knob_equals_one_made_afresh() {
        let (dense, hybrid, _) = crate::testdata::generate_paired_runs(60, 10, 5);
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
