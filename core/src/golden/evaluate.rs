//! The evaluation: linking cases to traces, ranking metrics and each case's verdict.

use super::cases::{CaseSet, GoldenCase};
use super::floor_sweep::TraceSteps;
use super::metric::{Judged, Metric, MetricValues};
use super::relevance::Relevance;
use super::report::{CaseReport, GoldenLevel, GoldenReport, GoldenSummary, LevelCounts, LinkedBy};
use super::text::{normalize_query, push_normalized};
use crate::fast_hash::FastMap;
use crate::input::Candidate;
use serde::Serialize;
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

/// One analysed trace, as the evaluator sees it.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct RunTrace {
    /// The trace's display name (`requestId` or `#<position>`).
    pub name: String,
    pub case_id: Option<String>,
    pub query: Option<String>,
    /// The trace's effective `returnN`: the cut-off of the ranking metrics.
    pub k: usize,
    /// The accepted blocks, in `acceptedRank` order.
    pub blocks: Vec<RunBlock>,
}

/// One accepted block.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct RunBlock {
    pub doc_id: String,
    pub breadcrumb: Option<String>,
    pub title: Option<String>,
    /// The full, untruncated excerpt (coverage must not depend on `excerptMaxChars`).
    pub excerpt: Option<String>,
}

/// A trace as one case's evaluation reads it: its name, cut-off and accepted blocks'
/// fields, borrowed from a [`RunTrace`] or straight from an analysed trace.
#[derive(Debug, Clone)]
pub(crate) struct RunView<'a> {
    name: Cow<'a, str>,
    k: usize,
    blocks: Vec<BlockText<'a>>,
}

/// One accepted block's fields (the excerpt full, untruncated).
#[derive(Debug, Clone, Copy)]
struct BlockText<'a> {
    doc_id: &'a str,
    breadcrumb: Option<&'a str>,
    title: Option<&'a str>,
    excerpt: Option<&'a str>,
}

impl RunTrace {
    fn view(&self) -> RunView<'_> {
        RunView {
            name: Cow::Borrowed(&self.name),
            k: self.k,
            blocks: self
                .blocks
                .iter()
                .map(|b| BlockText {
                    doc_id: &b.doc_id,
                    breadcrumb: b.breadcrumb.as_deref(),
                    title: b.title.as_deref(),
                    excerpt: b.excerpt.as_deref(),
                })
                .collect(),
        }
    }
}

impl<'a> RunView<'a> {
    /// What [`RunTrace::from_analysis`] holds of `trace`, without copying its text.
    pub(crate) fn of_analysis(trace: &'a crate::trace_analysis::TraceAnalysis) -> RunView<'a> {
        RunView {
            name: trace.name(),
            k: trace.return_n(),
            blocks: trace
                .accepted_candidates()
                .map(|c| BlockText {
                    doc_id: &c.doc_id,
                    breadcrumb: c.breadcrumb.as_deref(),
                    title: c.title.as_deref(),
                    excerpt: c.excerpt.as_deref(),
                })
                .collect(),
        }
    }
}

/// The ranking metrics of one case at cut-off `k`.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct RankingMetrics {
    pub recall: f64,
    pub precision: f64,
    pub reciprocal_rank: f64,
    pub ndcg: f64,
}

/// recall@k, precision@k, reciprocal rank and nDCG@k with binary relevance,
/// as trec_eval's `recall_k`, `P_k`, `recip_rank` and `ndcg_cut_k` compute
/// them:
///
/// - precision divides by `k` even when fewer documents were retrieved;
/// - recall divides by the number of relevant documents;
/// - the reciprocal rank looks at the whole ranking, not only the top `k`;
/// - nDCG uses gain 1 and discount `log2(rank + 1)`; the ideal ranking puts
///   all relevant documents first, so IDCG sums `min(|relevant|, k)` terms.
///
/// With no relevant documents, or `k = 0`, the undefined ratios are 0 (what
/// trec_eval reports for a query with no relevant documents); never NaN.
/// `ranking` must hold distinct documents.
pub fn ranking_metrics(ranking: &[String], relevant: &HashSet<&str>, k: usize) -> RankingMetrics {
    let grades: Vec<i64> = ranking
        .iter()
        .map(|d| i64::from(relevant.contains(d.as_str())))
        .collect();
    let ideal = vec![1; relevant.len()];
    let values = Metric::values(&Judged {
        grades: &grades,
        relevant_grade: 1,
        relevant: relevant.len(),
        ideal: &ideal,
        k,
    });
    RankingMetrics {
        recall: values[Metric::Recall.index()],
        precision: values[Metric::Precision.index()],
        reciprocal_rank: values[Metric::ReciprocalRank.index()],
        ndcg: values[Metric::Ndcg.index()],
    }
}

/// [`evaluate_runs_graded`] with each run's floor-sweep steps (`None` for a run no case
/// can link to): the report of [`evaluate_analysis`], `floorSweep` included, from runs.
pub(crate) fn evaluate_runs_with_steps(
    cases: &[GoldenCase],
    runs: &[RunTrace],
    steps: &[Option<TraceSteps>],
    default_k: usize,
    relevant_grade: usize,
) -> GoldenReport {
    let mut report = evaluate_runs_graded(cases, runs, default_k, relevant_grade);
    let trace_of: Vec<Option<usize>> = link_cases(cases, runs)
        .iter()
        .map(|l| l.map(|(t, _)| t))
        .collect();
    report.floor_sweep = Some(super::floor_sweep(
        cases,
        &trace_of,
        runs.len(),
        |t| steps.get(t).cloned().flatten(),
        relevant_grade,
    ));
    report
}

/// Finds each case's trace: the first trace with the same `caseId`; else the
/// first trace *without* a `caseId` whose trimmed query equals the case's
/// trimmed query. Returns, per case, the trace index and how it was found.
pub(super) fn link_cases(
    cases: &[GoldenCase],
    runs: &[RunTrace],
) -> Vec<Option<(usize, LinkedBy)>> {
    link_cases_by_keys(
        cases,
        runs.iter()
            .map(|run| (run.case_id.as_deref(), run.query.as_deref())),
    )
}

/// [`link_cases`] over each trace's `(caseId, query)` alone, in batch order: the
/// calibration links an analysis without building the evaluator's [`RunTrace`]s.
pub(crate) fn link_cases_by_keys<'a>(
    cases: &[GoldenCase],
    trace_keys: impl IntoIterator<Item = (Option<&'a str>, Option<&'a str>)>,
) -> Vec<Option<(usize, LinkedBy)>> {
    // Indexed by the cases' keys, not the traces': a batch has many more traces than
    // cases, and looking a trace's key up costs less than inserting it. Each key holds
    // the first trace that has it (first occurrence wins: the batch is walked in order).
    let mut by_id: FastMap<&str, Option<usize>> = cases
        .iter()
        .map(|case| (case.case_id.as_str(), None))
        .collect();
    let mut by_query: FastMap<&str, Option<usize>> = cases
        .iter()
        .filter_map(|case| case.query.as_deref())
        .map(|q| (q.trim(), None))
        .collect();
    for (i, (case_id, query)) in trace_keys.into_iter().enumerate() {
        let first = match (case_id, query) {
            (Some(id), _) => by_id.get_mut(id),
            (None, Some(q)) => by_query.get_mut(q.trim()),
            (None, None) => None,
        };
        if let Some(first @ None) = first {
            *first = Some(i);
        }
    }
    cases
        .iter()
        .map(|case| {
            by_id
                .get(case.case_id.as_str())
                .copied()
                .flatten()
                .map(|i| (i, LinkedBy::CaseId))
                .or_else(|| {
                    case.query
                        .as_deref()
                        .and_then(|q| by_query.get(q.trim()).copied().flatten())
                        .map(|i| (i, LinkedBy::Query))
                })
        })
        .collect()
}

/// Evaluates every case against the runs (contract section 6). `default_k`
/// (the global `returnN`) is the cut-off for a case without a trace.
/// `config` and `diagnostics` of the result are left for the caller to fill.
/// A document is relevant from grade 1 (see [`evaluate_runs_graded`]).
pub fn evaluate_runs(cases: &[GoldenCase], runs: &[RunTrace], default_k: usize) -> GoldenReport {
    evaluate_runs_graded(cases, runs, default_k, 1)
}

/// [`evaluate_runs`] with documents relevant from `relevant_grade` (the setting
/// `relevantGrade`, contract section 12.1).
pub fn evaluate_runs_graded(
    cases: &[GoldenCase],
    runs: &[RunTrace],
    default_k: usize,
    relevant_grade: usize,
) -> GoldenReport {
    let links = link_cases(cases, runs);
    evaluate_linked(
        cases,
        &links,
        |t| runs.get(t).map(RunTrace::view),
        runs.len(),
        |t| runs.get(t).map(|r| r.name.clone()).unwrap_or_default(),
        default_k,
        relevant_grade,
    )
}

/// [`evaluate_runs`] with the cases linked: `run(t)` is trace `t`'s run (asked only for
/// a trace some case links to), `name(t)` its name (asked only for one no case links
/// to), of `traces` in all.
fn evaluate_linked<'r>(
    cases: &[GoldenCase],
    links: &[Option<(usize, LinkedBy)>],
    run: impl Fn(usize) -> Option<RunView<'r>>,
    traces: usize,
    name: impl Fn(usize) -> String,
    default_k: usize,
    relevant_grade: usize,
) -> GoldenReport {
    let mut linked = vec![false; traces];
    let mut first_at: HashMap<&str, usize> = HashMap::new();
    let mut reports = Vec::with_capacity(cases.len());
    for (i, (case, link)) in cases.iter().zip(links).enumerate() {
        let run = link.and_then(|(t, by)| {
            if let Some(l) = linked.get_mut(t) {
                *l = true;
            }
            run(t).map(|r| (r, by))
        });
        let mut report = evaluate_case(
            case,
            run.as_ref().map(|(r, by)| (r, *by)),
            default_k,
            relevant_grade,
        );
        match first_at.get(case.case_id.as_str()) {
            Some(&first) => push_note(
                &mut report.note,
                format!("caseId also used by case {} of the cases file", first + 1),
            ),
            None => {
                first_at.insert(case.case_id.as_str(), i);
            }
        }
        reports.push(report);
    }

    let mut levels = LevelCounts::default();
    for r in &reports {
        match r.level {
            GoldenLevel::Strong => levels.strong += 1,
            GoldenLevel::Medium => levels.medium += 1,
            GoldenLevel::Weak => levels.weak += 1,
            GoldenLevel::Miss => levels.miss += 1,
        }
    }
    // Means over all cases; an empty cases file has means of 0, not NaN.
    let mean = |metric: Metric| {
        if reports.is_empty() {
            0.0
        } else {
            reports
                .iter()
                .map(|r| metric.of_case(r))
                .fold(0.0, |total, x| total + x)
                / reports.len() as f64
        }
    };
    let summary = GoldenSummary {
        cases: reports.len(),
        levels,
        mean_recall: mean(Metric::Recall),
        mean_precision: mean(Metric::Precision),
        mean_reciprocal_rank: mean(Metric::ReciprocalRank),
        mean_ndcg: mean(Metric::Ndcg),
        mean_average_precision: mean(Metric::AveragePrecision),
    };
    let unlinked_traces = linked
        .iter()
        .enumerate()
        .filter(|(_, l)| !**l)
        .map(|(t, _)| name(t))
        .collect();
    GoldenReport {
        config: Value::Object(Map::new()),
        summary,
        cases: reports,
        unlinked_traces,
        diagnostics: Vec::new(),
        floor_sweep: None,
    }
}

fn push_note(note: &mut Option<String>, text: String) {
    match note {
        Some(n) => {
            n.push_str("; ");
            n.push_str(&text);
        }
        None => *note = Some(text),
    }
}

/// The hit level (and `evidenceHit`) from what was found; `no_evidence_expected`: the
/// case has no breadcrumb and no keyword that could match.
fn hit_level(
    doc_hit: bool,
    breadcrumb_hit: bool,
    coverage: Option<f64>,
    no_evidence_expected: bool,
) -> (GoldenLevel, bool) {
    let evidence_hit = breadcrumb_hit || coverage.is_some_and(|c| c >= 0.5) || no_evidence_expected;
    let level = if doc_hit && evidence_hit {
        GoldenLevel::Strong
    } else if doc_hit {
        GoldenLevel::Medium
    } else if breadcrumb_hit || coverage.is_some_and(|c| c > 0.0) {
        GoldenLevel::Weak
    } else {
        GoldenLevel::Miss
    };
    (level, evidence_hit)
}

/// What a case's hit level reads, prepared once for many accepted lists: its distinct
/// expected documents and its breadcrumbs and keywords normalised. [`HitProbe::hit`]
/// gives the level and `docHit` that [`evaluate_case`] reports, without the rest of
/// the report (the ranking metrics, the lists of what matched).
#[derive(Debug, Clone)]
pub(crate) struct HitProbe {
    /// The relevant documents, distinct, in file order.
    pub(crate) expected_doc_ids: Vec<String>,
    breadcrumbs: Vec<String>,
    keywords: Vec<String>,
}

impl HitProbe {
    pub(crate) fn of(case: &GoldenCase, relevant_grade: usize) -> HitProbe {
        let expected_doc_ids = Relevance::of(case, relevant_grade)
            .relevant_docs()
            .map(str::to_owned)
            .collect();
        let normalized = |list: &[String]| {
            list.iter()
                .map(|b| normalize_query(b))
                .filter(|n| !n.is_empty())
                .collect()
        };
        HitProbe {
            expected_doc_ids,
            breadcrumbs: normalized(&case.expected_breadcrumbs),
            keywords: normalized(&case.expected_keywords),
        }
    }

    /// The hit level and `docHit` against the accepted `blocks` (in `acceptedRank`
    /// order).
    pub(crate) fn hit<'a>(
        &self,
        blocks: impl Iterator<Item = &'a Candidate> + Clone,
        scratch: &mut HitScratch,
    ) -> (GoldenLevel, bool) {
        let doc_hit = blocks
            .clone()
            .any(|b| self.expected_doc_ids.iter().any(|d| **d == *b.doc_id));
        let joined = &mut scratch.joined;
        let breadcrumb_hit = !self.breadcrumbs.is_empty()
            && blocks
                .clone()
                .filter_map(|b| b.breadcrumb.as_deref())
                .any(|crumb| {
                    joined.clear();
                    push_normalized(joined, crumb);
                    self.breadcrumbs.iter().any(|n| joined.contains(n.as_str()))
                });
        // A breadcrumb found is evidence enough, and without the document the level is
        // weak either way: the coverage would change nothing, so the text (most of an
        // evaluation's time) is not read.
        let coverage = (!breadcrumb_hit && !self.keywords.is_empty())
            .then(|| self.coverage(blocks, doc_hit, scratch));
        let no_evidence_expected = self.breadcrumbs.is_empty() && self.keywords.is_empty();
        let (level, _) = hit_level(doc_hit, breadcrumb_hit, coverage, no_evidence_expected);
        (level, doc_hit)
    }

    /// The keywords' coverage of the text as `evaluate_case` reads it (every field of
    /// the blocks joined with single spaces, then normalised), read only as far as the
    /// level needs: with the document, until half the keywords are found (the level is
    /// then strong whatever the rest holds); without it, until one is (weak). The text
    /// is normalised a block at a time, and each keyword not yet found is looked for
    /// where the new text could complete it.
    fn coverage<'a>(
        &self,
        blocks: impl Iterator<Item = &'a Candidate>,
        doc_hit: bool,
        scratch: &mut HitScratch,
    ) -> f64 {
        let HitScratch { joined, found } = scratch;
        let total = self.keywords.len();
        let enough = if doc_hit { total.div_ceil(2) } else { 1 };
        joined.clear();
        found.clear();
        found.resize(total, false);
        let mut count = 0;
        for b in blocks {
            let before = joined.len();
            for field in [&b.breadcrumb, &b.title, &b.excerpt] {
                if let Some(field) = field.as_deref() {
                    push_normalized(joined, field);
                }
            }
            for (keyword, found) in self.keywords.iter().zip(found.iter_mut()) {
                if *found {
                    continue;
                }
                // An occurrence that ends in the new text starts at most one byte
                // short of the keyword's length before it.
                let mut from = before.saturating_sub(keyword.len() - 1);
                while !joined.is_char_boundary(from) {
                    from -= 1;
                }
                if joined
                    .get(from..)
                    .is_some_and(|tail| tail.contains(keyword.as_str()))
                {
                    *found = true;
                    count += 1;
                }
            }
            if count >= enough {
                break;
            }
        }
        count as f64 / total as f64
    }
}

/// Scratch space for [`HitProbe::hit`], reused across cases and lists.
#[derive(Debug, Default)]
pub(crate) struct HitScratch {
    /// Normalised text.
    joined: String,
    /// Per keyword of the probe: found yet.
    found: Vec<bool>,
}

/// Evaluates one case against its trace (or none).
pub(crate) fn evaluate_case(
    case: &GoldenCase,
    run: Option<(&RunView, LinkedBy)>,
    default_k: usize,
    relevant_grade: usize,
) -> CaseReport {
    let no_blocks: &[BlockText] = &[];
    let blocks = run.map_or(no_blocks, |(r, _)| r.blocks.as_slice());
    let k = run.map_or(default_k, |(r, _)| r.k);

    // Relevant set: distinct, in file order (qrels cannot repeat a document).
    let relevance = Relevance::of(case, relevant_grade);
    let expected_doc_ids: Vec<String> = relevance.relevant_docs().map(str::to_owned).collect();

    // Document ranking: each docId at its first position.
    let mut doc_ranking: Vec<String> = Vec::new();
    for b in blocks {
        if !doc_ranking.iter().any(|d| d == b.doc_id) {
            doc_ranking.push(b.doc_id.to_owned());
        }
    }
    let grades: Vec<i64> = doc_ranking.iter().map(|d| relevance.grade(d)).collect();
    let relevant_at = |i: usize| grades[i] >= i64::try_from(relevant_grade).unwrap_or(i64::MAX);
    let matched_doc_ids: Vec<String> = doc_ranking
        .iter()
        .enumerate()
        .filter(|&(i, _)| relevant_at(i))
        .map(|(_, d)| d.clone())
        .collect();
    let unexpected_doc_ids: Vec<String> = doc_ranking
        .iter()
        .enumerate()
        .filter(|&(i, _)| !relevant_at(i))
        .map(|(_, d)| d.clone())
        .collect();
    let missing_doc_ids: Vec<String> = expected_doc_ids
        .iter()
        .filter(|d| !doc_ranking.contains(d))
        .cloned()
        .collect();
    let doc_hit = !matched_doc_ids.is_empty();

    // Expectations empty after normalisation would match everything; they
    // are ignored (parse_cases warns about them).
    let breadcrumbs: Vec<(&String, String)> = case
        .expected_breadcrumbs
        .iter()
        .map(|b| (b, normalize_query(b)))
        .filter(|(_, n)| !n.is_empty())
        .collect();
    let keywords: Vec<(&String, String)> = case
        .expected_keywords
        .iter()
        .map(|w| (w, normalize_query(w)))
        .filter(|(_, n)| !n.is_empty())
        .collect();

    let block_crumbs: Vec<String> = blocks
        .iter()
        .filter_map(|b| b.breadcrumb.map(normalize_query))
        .collect();
    let matched_breadcrumbs: Vec<String> = breadcrumbs
        .iter()
        .filter(|(_, n)| block_crumbs.iter().any(|c| c.contains(n.as_str())))
        .map(|(b, _)| (*b).clone())
        .collect();
    let breadcrumb_hit = !matched_breadcrumbs.is_empty();

    // All blocks' breadcrumb, title and full excerpt joined with single spaces and
    // normalised, field by field. Only a case with keywords reads it (the text is
    // most of an evaluation's time).
    let mut text = String::new();
    if !keywords.is_empty() {
        let fields = blocks
            .iter()
            .flat_map(|b| [b.breadcrumb, b.title, b.excerpt]);
        // Normalising does not lengthen ASCII text: grown once, not as it fills.
        text.reserve(fields.clone().flatten().map(|f| f.len() + 1).sum());
        for field in fields.flatten() {
            push_normalized(&mut text, field);
        }
    }
    let (found, missing): (Vec<_>, Vec<_>) = keywords
        .iter()
        .partition(|(_, n)| text.contains(n.as_str()));
    let coverage = if keywords.is_empty() {
        None
    } else {
        Some(found.len() as f64 / keywords.len() as f64)
    };
    let matched_keywords: Vec<String> = found.iter().map(|(w, _)| (*w).clone()).collect();
    let missing_keywords: Vec<String> = missing.iter().map(|(w, _)| (*w).clone()).collect();

    let (level, evidence_hit) = hit_level(
        doc_hit,
        breadcrumb_hit,
        coverage,
        breadcrumbs.is_empty() && keywords.is_empty(),
    );

    let values: MetricValues = Metric::values(&relevance.judged(&grades, k));

    let mut note = None;
    match run {
        None => push_note(
            &mut note,
            match &case.query {
                Some(q) => format!(
                    "no trace: none has caseId \"{}\" and none without a caseId has query \"{}\"",
                    case.case_id,
                    q.trim()
                ),
                None => format!("no trace: none has caseId \"{}\"", case.case_id),
            },
        ),
        Some((r, _)) if r.blocks.is_empty() => {
            push_note(&mut note, "the trace has no accepted block".to_owned())
        }
        Some(_) => {}
    }
    if let Some(why) = relevance.note() {
        push_note(&mut note, why);
    }
    if case.expected_doc_ids.is_empty() && case.judgments.as_ref().is_none_or(|j| j.0.is_empty()) {
        push_note(
            &mut note,
            "no expected documents: docHit is false and every ranking metric is 0".to_owned(),
        );
    }
    if k == 0 {
        push_note(&mut note, "k is 0: the cut-off metrics are 0".to_owned());
    }

    CaseReport {
        case_id: case.case_id.clone(),
        query: case.query.clone(),
        trace_name: run.map(|(r, _)| r.name.clone().into_owned()),
        linked_by: run.map(|(_, by)| by),
        level,
        doc_hit,
        breadcrumb_hit,
        coverage,
        evidence_hit,
        doc_ranking,
        matched_doc_ids,
        matched_breadcrumbs,
        matched_keywords,
        expected_doc_ids,
        missing_doc_ids,
        unexpected_doc_ids,
        missing_keywords,
        k,
        recall: values[Metric::Recall.index()],
        precision: values[Metric::Precision.index()],
        reciprocal_rank: values[Metric::ReciprocalRank.index()],
        ndcg: values[Metric::Ndcg.index()],
        average_precision: values[Metric::AveragePrecision.index()],
        note,
        notes: case.notes.clone(),
        judgments: case.judgments.clone(),
    }
}

impl RunTrace {
    /// The evaluator's view of one analysed trace under the current configuration.
    pub fn from_analysis(trace: &crate::trace_analysis::TraceAnalysis) -> RunTrace {
        RunTrace {
            name: trace.name().into_owned(),
            case_id: trace.trace.case_id.as_deref().map(str::to_owned),
            query: trace.trace.query.as_deref().map(str::to_owned),
            k: trace.return_n(),
            blocks: trace
                .accepted_blocks()
                .map(|block| RunBlock {
                    doc_id: block.doc_id.to_string(),
                    breadcrumb: block.breadcrumb.as_deref().map(str::to_owned),
                    title: block.title.as_deref().map(str::to_owned),
                    excerpt: block
                        .excerpt
                        .as_ref()
                        .map(|_| block.full_excerpt().to_owned()),
                })
                .collect(),
        }
    }
}

/// Each case's trace in an analysis (an index into its traces) and how it was linked.
fn links_of(
    cases: &CaseSet,
    analysis: &crate::analysis::Analysis,
) -> Vec<Option<(usize, LinkedBy)>> {
    link_cases_by_keys(
        &cases.cases,
        analysis
            .traces
            .iter()
            .map(|t| (t.trace.case_id.as_deref(), t.trace.query.as_deref())),
    )
}

/// Evaluates the cases against an analysis: the one entry point the CLI, the
/// JS API and the page share, so all three report the same numbers.
///
/// The linked traces are read in place: copying every trace's accepted blocks into
/// [`RunTrace`]s was most of an evaluation's time.
pub fn evaluate_analysis(cases: &CaseSet, analysis: &crate::analysis::Analysis) -> GoldenReport {
    let traces = &analysis.traces;
    let links = links_of(cases, analysis);
    let config = serde_json::to_value(analysis.config).unwrap_or(Value::Null);
    evaluate_linked(
        &cases.cases,
        &links,
        |t| traces.get(t).map(RunView::of_analysis),
        traces.len(),
        |t| {
            traces
                .get(t)
                .map(|t| t.name().into_owned())
                .unwrap_or_default()
        },
        analysis.config.return_n,
        analysis.config.relevant_grade,
    )
    .with_config(config)
    .with_diagnostics(cases.diagnostics.iter().cloned())
}

/// [`evaluate_analysis`] with its floor sweep (contract section 10.2): report.json as
/// the CLI, the JS API and Python write it. The page and the comparisons evaluate
/// without it on every knob move: the sweep costs about half an evaluation again.
pub fn evaluate_with_floor_sweep(
    cases: &CaseSet,
    analysis: &crate::analysis::Analysis,
) -> GoldenReport {
    let mut report = evaluate_analysis(cases, analysis);
    report.floor_sweep = Some(floor_sweep_of(cases, analysis));
    report
}

/// The floor sweep of the cases against an analysis alone (contract section 10.2):
/// what [`evaluate_with_floor_sweep`] puts in `floorSweep`, without evaluating each case.
pub fn floor_sweep_of(cases: &CaseSet, analysis: &crate::analysis::Analysis) -> super::FloorSweep {
    let traces = &analysis.traces;
    let trace_of: Vec<Option<usize>> = links_of(cases, analysis)
        .iter()
        .map(|l| l.map(|(t, _)| t))
        .collect();
    super::floor_sweep(
        &cases.cases,
        &trace_of,
        traces.len(),
        |t| traces.get(t).map(TraceSteps::of),
        analysis.config.relevant_grade,
    )
}

#[cfg(test)]
mod tests {
    use super::{evaluate_case, link_cases_by_keys, GoldenCase, HitProbe, HitScratch, LinkedBy};
    use super::{RunBlock, RunTrace};
    use crate::input::{parse_document, Candidate};

    /// The plain reading of the linking rule: per case, the first trace with its
    /// `caseId`, else the first trace without a `caseId` whose trimmed query is its
    /// trimmed query.
    fn linked_plainly(
        cases: &[GoldenCase],
        traces: &[(Option<&str>, Option<&str>)],
    ) -> Vec<Option<(usize, LinkedBy)>> {
        cases
            .iter()
            .map(|case| {
                let by_id = traces
                    .iter()
                    .position(|(id, _)| *id == Some(case.case_id.as_str()))
                    .map(|i| (i, LinkedBy::CaseId));
                by_id.or_else(|| {
                    let query = case.query.as_deref()?.trim();
                    traces
                        .iter()
                        .position(|(id, q)| id.is_none() && q.map(str::trim) == Some(query))
                        .map(|i| (i, LinkedBy::Query))
                })
            })
            .collect()
    }

    fn case(id: &str, query: Option<&str>) -> GoldenCase {
        GoldenCase {
            case_id: id.to_owned(),
            query: query.map(str::to_owned),
            expected_doc_ids: Vec::new(),
            expected_breadcrumbs: Vec::new(),
            expected_keywords: Vec::new(),
            notes: None,
            judgments: None,
        }
    }

    /// A probe's level and docHit are those `evaluate_case` reports, on every list a
    /// trace's candidates can make (each subset, in order).
    #[test]
    fn a_probe_s_hit_is_the_evaluation_s() {
        let trace = serde_json::json!({"query": "q", "candidates": [
            {"docId": "d1", "breadcrumb": "Ops > Redis", "title": "Eviction",
             "excerpt": "LRU  eviction policy", "originalRank": 1, "score": 0.1},
            {"docId": "d2", "breadcrumb": "支付 > Retry", "title": "ΟΔΟΣ",
             "excerpt": "gateway\ttimeout retry", "originalRank": 2, "score": 0.2},
            {"docId": "d3", "title": "Session", "excerpt": "session cookie",
             "originalRank": 3, "score": 0.3},
            {"docId": "d1", "breadcrumb": "Ops > Memory", "excerpt": " maxmemory ",
             "originalRank": 4, "score": 0.4}
        ]});
        let batch = parse_document("t", &trace.to_string());
        let Some(trace) = batch.traces.first() else {
            panic!("the trace parses");
        };
        let candidates = trace.candidates();
        assert_eq!(candidates.len(), 4);
        let strings = |list: &[&str]| list.iter().map(|s| (*s).to_owned()).collect();
        let expecting = |docs: &[&str], crumbs: &[&str], keywords: &[&str]| GoldenCase {
            expected_doc_ids: strings(docs),
            expected_breadcrumbs: strings(crumbs),
            expected_keywords: strings(keywords),
            ..case("c", Some("q"))
        };
        let cases = [
            expecting(&["d1"], &["ops > redis"], &["eviction policy", "missing"]),
            expecting(&["d2"], &[], &["timeout retry", "οδοσ"]),
            expecting(&["dx"], &["REDIS"], &["session"]),
            expecting(&["dx"], &["memory"], &[]),
            expecting(&[], &[], &[]),
            expecting(&["d3"], &["nowhere"], &["cookie maxmemory", "cookie ops"]),
            expecting(&["d1", "d1"], &["  "], &["EVICTION", "lru eviction", "x"]),
            // Keywords across two fields, and across two blocks.
            expecting(&["d1"], &[], &["eviction lru", "policy 支付", "retry οδοσ"]),
            // With the document, half the keywords found in the first block.
            expecting(
                &["d2"],
                &[],
                &["eviction", "lru", "maxmemory", "ops > memory"],
            ),
            // Without it, a keyword only the last block has.
            expecting(&["dx"], &[], &["maxmemory", "nothing"]),
        ];
        let mut scratch = HitScratch::default();
        let mut compared = 0;
        for case in &cases {
            let probe = HitProbe::of(case, 1);
            for subset in 0..(1u32 << candidates.len()) {
                let list: Vec<&Candidate> = candidates
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| subset & (1 << i) != 0)
                    .map(|(_, c)| c)
                    .collect();
                let run = RunTrace {
                    k: 5,
                    blocks: list
                        .iter()
                        .map(|c| RunBlock {
                            doc_id: c.doc_id.to_string(),
                            breadcrumb: c.breadcrumb.as_deref().map(str::to_owned),
                            title: c.title.as_deref().map(str::to_owned),
                            excerpt: c.excerpt.as_deref().map(str::to_owned),
                        })
                        .collect(),
                    ..RunTrace::default()
                };
                let report = evaluate_case(case, Some((&run.view(), LinkedBy::Query)), 5, 1);
                let hit = probe.hit(list.iter().copied(), &mut scratch);
                assert_eq!(hit, (report.level, report.doc_hit), "{subset:b}");
                compared += 1;
            }
        }
        assert_eq!(compared, cases.len() * 16);
    }

    /// An analysis is evaluated in place as it is once copied into runs: the same
    /// report, with cases linked by id and by query, cases of no trace, a caseId used
    /// twice, and traces no case links to (named by requestId or position).
    #[test]
    fn an_analysis_reads_as_its_runs() {
        let extra = r#"[{"caseId": "none", "query": "no such query", "expectedDocIds": ["x"]},
            {"caseId": "none", "expectedDocIds": []}]"#;
        for (seed, traces, per_trace) in [(3, 60, 12), (8, 150, 20)] {
            let batch = parse_document("t", &crate::generate_batch(traces, per_trace, seed));
            let Ok(mut cases) =
                super::super::parse_cases("c", &crate::generate_cases(traces, per_trace, seed))
            else {
                panic!("generated cases parse");
            };
            let Ok(more) = super::super::parse_cases("c", extra) else {
                panic!("extra cases parse");
            };
            cases.cases.truncate(traces / 3);
            cases.cases.extend(more.cases);
            let settings = crate::config::Settings {
                return_n: Some(4),
                ..crate::config::Settings::default()
            };
            let Ok(analysis) = crate::analysis::analyze(&batch, &settings, false) else {
                panic!("valid settings");
            };
            let runs: Vec<RunTrace> = analysis
                .traces
                .iter()
                .map(RunTrace::from_analysis)
                .collect();
            let copied = super::evaluate_runs(&cases.cases, &runs, analysis.config.return_n);
            let in_place = super::evaluate_analysis(&cases, &analysis);
            assert!(!copied.unlinked_traces.is_empty());
            assert!(copied.cases.iter().any(|c| c.trace_name.is_none()));
            assert_eq!(in_place.cases, copied.cases);
            assert_eq!(in_place.summary, copied.summary);
            assert_eq!(in_place.unlinked_traces, copied.unlinked_traces);
        }
    }

    #[test]
    fn links_as_the_plain_rule_does() {
        let cases = [
            case("a", Some("redis eviction")),
            case("b", Some(" redis eviction ")),
            case("a", None),
            case("c", Some("only by query")),
            case("d", Some("nothing matches")),
            case("e", None),
            case("f", Some("taken by an id")),
            case("g", Some("")),
        ];
        let traces = [
            (None, Some("redis eviction")),
            (Some("b"), Some("unrelated")),
            (None, Some("  only by query\t")),
            (Some("x"), Some("taken by an id")),
            (Some("a"), None),
            (None, Some("only by query")),
            (Some("a"), Some("second a")),
            (None, None),
            (None, Some("taken by an id")),
            (None, Some(" ")),
            (Some("b"), None),
        ];
        let linked = link_cases_by_keys(&cases, traces.iter().copied());
        assert_eq!(linked, linked_plainly(&cases, &traces));
        assert_eq!(linked[0], Some((4, LinkedBy::CaseId)));
        assert_eq!(linked[1], Some((1, LinkedBy::CaseId)));
        assert_eq!(linked[3], Some((2, LinkedBy::Query)));
        assert_eq!(linked[4], None);
        assert_eq!(linked[6], Some((8, LinkedBy::Query)));
        assert_eq!(linked[7], Some((9, LinkedBy::Query)));
        assert_eq!(link_cases_by_keys(&[], traces.iter().copied()), Vec::new());
    }
}
