//! Pairing two runs' traces: by caseId when both carry one, else by the normalised
//! query, else by requestId. It depends on the input only, so it is made once per pair
//! of loaded batches.

use crate::analysis::Analysis;
use crate::fast_hash::FastMap;
use crate::golden::normalize_query;
use crate::input::NameHashes;
use crate::input::Trace;
use crate::label::CanonicalLabel;
use serde::Serialize;
use std::borrow::Cow;
use std::sync::Arc;

/// What two traces were paired by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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

/// Written as its label.
#[cfg(feature = "schema")]
impl schemars::JsonSchema for ModePair {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "ModePair".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let modes = [
            Some(CanonicalLabel::Dense),
            Some(CanonicalLabel::Hybrid),
            None,
        ];
        let labels: Vec<String> = modes
            .iter()
            .flat_map(|&a| modes.iter().map(move |&b| ModePair { a, b }.label()))
            .collect();
        schemars::json_schema!({
            "type": "string",
            "description": "The modes of the pair's two traces, e.g. `dense->hybrid`.",
            "enum": labels,
        })
    }
}

/// A trace of one run that no trace of the other run pairs with.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct UnpairedTrace {
    /// Index into its run's `Analysis::traces`.
    pub index: usize,
    pub name: String,
    pub query: Option<String>,
    pub case_id: Option<String>,
}

/// Two traces paired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
    pub(super) linked: Vec<LinkedTraces>,
}

/// What a comparison reads of a link's two traces that no setting changes, beside the
/// link so that a knob change reads neither trace: their modes and the hashes of their
/// candidates' names.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct LinkedTraces {
    pub(super) mode_pair: ModePair,
    pub(super) names_a: Arc<[NameHashes]>,
    pub(super) names_b: Arc<[NameHashes]>,
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
        Cow::Owned(normalize_query(text))
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

/// The traces an analysis holds, for [`pair_runs`].
pub(super) fn traces_of(analysis: &Analysis) -> Vec<Arc<Trace>> {
    analysis
        .traces
        .iter()
        .map(|t| Arc::clone(&t.trace))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runs::golden_delta;
    use crate::runs::test_support::*;

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
    fn normalized_query_is_normalize_query() {
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
            assert_eq!(normalized_query(text), normalize_query(text), "{text:?}");
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
    fn the_generated_paired_runs_pair_fully_but_for_the_dense_only_queries() {
        let (dense, hybrid, cases) = crate::sample::generate_paired_runs(50, 10, 3);
        assert_eq!(
            (dense.clone(), hybrid.clone(), cases.clone()),
            crate::sample::generate_paired_runs(50, 10, 3)
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
}
