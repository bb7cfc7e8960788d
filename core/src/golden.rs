//! Offline golden-set evaluation (contract section 6).
//!
//! Everything here is a pure function over plain data and independent of the
//! per-trace pipeline: the caller turns each analysed trace into a
//! [`RunTrace`] (its accepted blocks in `acceptedRank` order) and passes the
//! cases parsed by [`parse_cases`]. That keeps the evaluator testable on
//! hand-computed vectors and lets the CLI, the wasm API and the page share it.

use crate::diagnostic::{pointer_token, Diagnostic, InputError, Severity};
use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::{HashMap, HashSet};

// ---------------------------------------------------------------------------
// Cases file
// ---------------------------------------------------------------------------

/// One golden case: what a good retrieval for `query` must bring back.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GoldenCase {
    pub case_id: String,
    /// `None` when the file gives no query; such a case links by `caseId` only.
    pub query: Option<String>,
    pub expected_doc_ids: Vec<String>,
    pub expected_breadcrumbs: Vec<String>,
    pub expected_keywords: Vec<String>,
    pub notes: Option<String>,
}

/// The parsed cases file: the cases in file order plus non-fatal findings
/// (duplicate caseIds, expectations that can never match, ...).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CaseSet {
    pub cases: Vec<GoldenCase>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Parses a cases file: a JSON array of cases or `{"cases": [...]}`.
///
/// Fatal problems (malformed JSON, a wrong top-level shape, a case that is not
/// an object, a missing `caseId`, a known field of the wrong type) are all
/// collected and returned as located [`InputError`]s. Unlike service traces,
/// a cases file is the hand-written ground truth: silently dropping a
/// mistyped expectation would change every score, so we refuse instead.
pub fn parse_cases(source: &str, text: &str) -> Result<CaseSet, Vec<InputError>> {
    // A leading BOM is ignored, as for every input (contract section 1).
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    match serde_json::from_str::<Value>(text) {
        Ok(value) => parse_cases_value(source, &value),
        Err(err) => Err(vec![InputError::json_syntax(source, text, &err, 0)]),
    }
}

/// Same as [`parse_cases`] for an already-parsed value (the JS API receives
/// objects, not text). Errors carry JSON pointers but no line/column.
pub fn parse_cases_value(source: &str, value: &Value) -> Result<CaseSet, Vec<InputError>> {
    let mut errors = Vec::new();
    let (items, base) = match value {
        Value::Array(items) => (items, String::new()),
        Value::Object(map) => match map.get("cases") {
            Some(Value::Array(items)) => (items, "/cases".to_owned()),
            Some(Value::Null) | None => {
                return Err(vec![located(
                    source,
                    "",
                    "expected a JSON array of cases or an object with a \"cases\" array",
                )])
            }
            Some(other) => {
                return Err(vec![located(
                    source,
                    "/cases",
                    format!("\"cases\" must be an array, found {}", type_name(other)),
                )])
            }
        },
        other => {
            return Err(vec![located(
                source,
                "",
                format!(
                    "expected a JSON array of cases or an object with a \"cases\" array, found {}",
                    type_name(other)
                ),
            )])
        }
    };

    let mut set = CaseSet::default();
    for (i, item) in items.iter().enumerate() {
        let path = format!("{base}/{i}");
        match item {
            Value::Object(map) => {
                if let Some(case) =
                    parse_case(source, &path, map, &mut errors, &mut set.diagnostics)
                {
                    set.cases.push(case);
                }
            }
            other => errors.push(located(
                source,
                &path,
                format!("a case must be an object, found {}", type_name(other)),
            )),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }

    // Duplicate caseIds make linking ambiguous (both cases link to the same
    // trace) and collide in the TREC files; both cases are still evaluated so
    // the report keeps the order and length of the cases file.
    let mut first_at: HashMap<&str, usize> = HashMap::new();
    for (i, case) in set.cases.iter().enumerate() {
        match first_at.get(case.case_id.as_str()) {
            Some(&first) => set.diagnostics.push(Diagnostic::error(
                "duplicate-case-id",
                format!(
                    "caseId \"{}\" is used by case {} and case {} (1-based); both are evaluated \
                     and link to the same trace",
                    case.case_id,
                    first + 1,
                    i + 1
                ),
                format!("{base}/{i}/caseId"),
            )),
            None => {
                first_at.insert(case.case_id.as_str(), i);
            }
        }
    }
    Ok(set)
}

fn parse_case(
    source: &str,
    path: &str,
    map: &Map<String, Value>,
    errors: &mut Vec<InputError>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<GoldenCase> {
    let before = errors.len();
    let case_id = match field(map, path, "caseId", "case_id", diagnostics) {
        Some((key, v)) => id_text(v).or_else(|| {
            errors.push(located(
                source,
                &format!("{path}/{}", pointer_token(key)),
                format!(
                    "caseId must be a string or an integer, found {}",
                    type_name(v)
                ),
            ));
            None
        }),
        None => {
            errors.push(located(source, path, "a case needs a \"caseId\""));
            None
        }
    };
    let query = optional_string(source, path, map, "query", "query", errors, diagnostics);
    let notes = optional_string(source, path, map, "notes", "notes", errors, diagnostics);
    let expected_doc_ids = string_array(
        source,
        path,
        map,
        ("expectedDocIds", "expected_doc_ids"),
        true,
        errors,
        diagnostics,
    );
    let expected_breadcrumbs = string_array(
        source,
        path,
        map,
        ("expectedBreadcrumbs", "expected_breadcrumbs"),
        false,
        errors,
        diagnostics,
    );
    let expected_keywords = string_array(
        source,
        path,
        map,
        ("expectedKeywords", "expected_keywords"),
        false,
        errors,
        diagnostics,
    );
    if errors.len() != before {
        return None;
    }
    // Substring matching of an empty needle would always succeed, which no
    // one writing a case means; such entries are ignored by `evaluate`, and
    // we say so here where the author can fix the file.
    for (key, list) in [
        ("expectedBreadcrumbs", &expected_breadcrumbs),
        ("expectedKeywords", &expected_keywords),
    ] {
        for (j, entry) in list.iter().enumerate() {
            if normalize(entry).is_empty() {
                diagnostics.push(Diagnostic::warning(
                    "empty-expectation",
                    format!(
                        "{key} entry {} is empty after normalisation and is ignored",
                        j + 1
                    ),
                    format!("{path}/{key}/{j}"),
                ));
            }
        }
    }
    Some(GoldenCase {
        case_id: case_id?,
        query,
        expected_doc_ids,
        expected_breadcrumbs,
        expected_keywords,
        notes,
    })
}

/// Looks a field up under its camelCase and snake_case names; `null` counts
/// as absent (contract section 1). When both spellings are present the
/// camelCase one wins, with a warning.
fn field<'a>(
    map: &'a Map<String, Value>,
    path: &str,
    camel: &'static str,
    snake: &'static str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<(&'static str, &'a Value)> {
    let c = map.get(camel).filter(|v| !v.is_null());
    let s = if camel == snake {
        None
    } else {
        map.get(snake).filter(|v| !v.is_null())
    };
    match (c, s) {
        (Some(c), Some(s)) => {
            if c != s {
                diagnostics.push(Diagnostic::warning(
                    "conflicting-field",
                    format!("both {camel} and {snake} are given; {camel} is used"),
                    format!("{path}/{}", pointer_token(snake)),
                ));
            }
            Some((camel, c))
        }
        (Some(c), None) => Some((camel, c)),
        (None, Some(s)) => Some((snake, s)),
        (None, None) => None,
    }
}

fn optional_string(
    source: &str,
    path: &str,
    map: &Map<String, Value>,
    camel: &'static str,
    snake: &'static str,
    errors: &mut Vec<InputError>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<String> {
    let (key, v) = field(map, path, camel, snake, diagnostics)?;
    match v {
        Value::String(s) => Some(s.clone()),
        other => {
            errors.push(located(
                source,
                &format!("{path}/{}", pointer_token(key)),
                format!("{key} must be a string, found {}", type_name(other)),
            ));
            None
        }
    }
}

/// A missing array is empty. Document ids may be integers (used as their
/// decimal text, as `docId` in traces); breadcrumbs and keywords are text.
fn string_array(
    source: &str,
    path: &str,
    map: &Map<String, Value>,
    (camel, snake): (&'static str, &'static str),
    integers_allowed: bool,
    errors: &mut Vec<InputError>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<String> {
    let Some((key, v)) = field(map, path, camel, snake, diagnostics) else {
        return Vec::new();
    };
    let field_path = format!("{path}/{}", pointer_token(key));
    let Value::Array(items) = v else {
        errors.push(located(
            source,
            &field_path,
            format!("{key} must be an array, found {}", type_name(v)),
        ));
        return Vec::new();
    };
    let mut out = Vec::with_capacity(items.len());
    for (j, item) in items.iter().enumerate() {
        let text = if integers_allowed {
            id_text(item)
        } else {
            item.as_str().map(str::to_owned)
        };
        match text {
            Some(t) => out.push(t),
            None => errors.push(located(
                source,
                &format!("{field_path}/{j}"),
                format!(
                    "{key} entries must be {}, found {}",
                    if integers_allowed {
                        "strings or integers"
                    } else {
                        "strings"
                    },
                    type_name(item)
                ),
            )),
        }
    }
    out
}

/// A string, or an integer used as its decimal text.
fn id_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) if n.is_i64() || n.is_u64() => Some(n.to_string()),
        _ => None,
    }
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn located(source: &str, path: &str, message: impl Into<String>) -> InputError {
    InputError {
        source: source.to_owned(),
        line: None,
        column: None,
        path: Some(path.to_owned()),
        message: message.into(),
        line_text: None,
        caret: None,
    }
}

// ---------------------------------------------------------------------------
// Runs: the plain view of analysed traces
// ---------------------------------------------------------------------------

/// One analysed trace, as the evaluator sees it.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
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
#[serde(rename_all = "camelCase")]
pub struct RunBlock {
    pub doc_id: String,
    pub breadcrumb: Option<String>,
    pub title: Option<String>,
    /// The full, untruncated excerpt (coverage must not depend on `excerptMaxChars`).
    pub excerpt: Option<String>,
}

// ---------------------------------------------------------------------------
// Report
// ---------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum GoldenLevel {
    Strong,
    Medium,
    Weak,
    Miss,
}

impl GoldenLevel {
    pub fn as_str(self) -> &'static str {
        match self {
            GoldenLevel::Strong => "strong",
            GoldenLevel::Medium => "medium",
            GoldenLevel::Weak => "weak",
            GoldenLevel::Miss => "miss",
        }
    }
}

/// How a case found its trace.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum LinkedBy {
    #[serde(rename = "caseId")]
    CaseId,
    #[serde(rename = "query")]
    Query,
}

/// `report.json` (contract section 6), plus `unlinkedTraces` and `diagnostics`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GoldenReport {
    /// The effective configuration; `evaluate` leaves an empty object for the
    /// caller to fill (the evaluator does not know the configuration type).
    pub config: Value,
    pub summary: GoldenSummary,
    pub cases: Vec<CaseReport>,
    /// Names of the traces no case linked to, in batch order.
    pub unlinked_traces: Vec<String>,
    /// Findings about the cases file; `evaluate` leaves it empty for the
    /// caller to fill with [`CaseSet::diagnostics`] (and its own findings).
    pub diagnostics: Vec<Diagnostic>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GoldenSummary {
    pub cases: usize,
    pub levels: LevelCounts,
    pub mean_recall: f64,
    pub mean_precision: f64,
    pub mean_reciprocal_rank: f64,
    pub mean_ndcg: f64,
}

/// Always all four keys, zero included, so a reader can index it blindly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct LevelCounts {
    pub strong: usize,
    pub medium: usize,
    pub weak: usize,
    pub miss: usize,
}

impl LevelCounts {
    pub fn get(&self, level: GoldenLevel) -> usize {
        match level {
            GoldenLevel::Strong => self.strong,
            GoldenLevel::Medium => self.medium,
            GoldenLevel::Weak => self.weak,
            GoldenLevel::Miss => self.miss,
        }
    }
}

/// One case's verdict and the evidence behind it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CaseReport {
    pub case_id: String,
    pub query: Option<String>,
    pub trace_name: Option<String>,
    /// Extra: `caseId` or `query`; null without a trace.
    pub linked_by: Option<LinkedBy>,
    pub level: GoldenLevel,
    pub doc_hit: bool,
    pub breadcrumb_hit: bool,
    pub coverage: Option<f64>,
    /// Extra: the evidence half of the level rule.
    pub evidence_hit: bool,
    /// Distinct docIds of the accepted blocks, each at its first position.
    pub doc_ranking: Vec<String>,
    /// Expected documents that were retrieved, in ranking order.
    pub matched_doc_ids: Vec<String>,
    /// Expected breadcrumbs (as written in the cases file) some block contains.
    pub matched_breadcrumbs: Vec<String>,
    /// Expected keywords (as written) found in the blocks' text.
    pub matched_keywords: Vec<String>,
    /// Extra: the relevant set (deduplicated, file order); what the qrels hold.
    pub expected_doc_ids: Vec<String>,
    /// Extra: expected documents never retrieved.
    pub missing_doc_ids: Vec<String>,
    /// Extra: retrieved documents this case does not expect, in ranking order.
    pub unexpected_doc_ids: Vec<String>,
    /// Extra: expected keywords not found.
    pub missing_keywords: Vec<String>,
    pub k: usize,
    pub recall: f64,
    pub precision: f64,
    pub reciprocal_rank: f64,
    pub ndcg: f64,
    /// Why the numbers look the way they do, when that is not obvious.
    pub note: Option<String>,
    /// Extra: the case's own `notes` from the cases file.
    pub notes: Option<String>,
}

// ---------------------------------------------------------------------------
// Evaluation
// ---------------------------------------------------------------------------

/// Normalises text for substring matching: runs of Unicode white space become
/// one space, the ends are trimmed, and every character is lowercased.
///
/// Lowercasing is per character (Unicode `Lowercase_Mapping`), not
/// `str::to_lowercase`, whose context-sensitive final sigma would make a
/// needle and the same word inside a longer text lowercase differently.
pub fn normalize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut pending_space = false;
    for ch in text.chars() {
        if ch.is_whitespace() {
            pending_space = true;
            continue;
        }
        if pending_space && !out.is_empty() {
            out.push(' ');
        }
        pending_space = false;
        // The same mapping for ASCII, without the case-mapping iterator: most text
        // is ASCII, and the page evaluates every case's text on each knob move.
        if ch.is_ascii() {
            out.push(ch.to_ascii_lowercase());
        } else {
            out.extend(ch.to_lowercase());
        }
    }
    out
}

/// The ranking metrics of one case at cut-off `k`.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
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
    let is_rel = |doc: &String| relevant.contains(doc.as_str());
    let top = &ranking[..ranking.len().min(k)];
    let hits = top.iter().filter(|d| is_rel(d)).count();
    let recall = if relevant.is_empty() {
        0.0
    } else {
        hits as f64 / relevant.len() as f64
    };
    let precision = if k == 0 { 0.0 } else { hits as f64 / k as f64 };
    let reciprocal_rank = ranking
        .iter()
        .position(is_rel)
        .map_or(0.0, |i| 1.0 / (i + 1) as f64);
    let discount = |i: usize| 1.0 / ((i + 2) as f64).log2(); // 0-based position i = rank i+1
    let dcg: f64 = top
        .iter()
        .enumerate()
        .filter(|(_, d)| is_rel(d))
        .map(|(i, _)| discount(i))
        .fold(0.0, |total, gain| total + gain);
    // Folding from +0.0: `Sum` for floats starts at -0.0, which would print as "-0".
    let idcg: f64 = (0..relevant.len().min(k))
        .map(discount)
        .fold(0.0, |total, gain| total + gain);
    let ndcg = if idcg > 0.0 { dcg / idcg } else { 0.0 };
    RankingMetrics {
        recall,
        precision,
        reciprocal_rank,
        ndcg,
    }
}

/// Finds each case's trace: the first trace with the same `caseId`; else the
/// first trace *without* a `caseId` whose trimmed query equals the case's
/// trimmed query. Returns, per case, the trace index and how it was found.
pub fn link_cases(cases: &[GoldenCase], runs: &[RunTrace]) -> Vec<Option<(usize, LinkedBy)>> {
    link_cases_by_keys(
        cases,
        runs.iter()
            .map(|run| (run.case_id.as_deref(), run.query.as_deref())),
    )
}

/// [`link_cases`] over each trace's `(caseId, query)` alone, in batch order: the
/// calibration links an analysis without building the evaluator's [`RunTrace`]s.
pub fn link_cases_by_keys<'a>(
    cases: &[GoldenCase],
    trace_keys: impl IntoIterator<Item = (Option<&'a str>, Option<&'a str>)>,
) -> Vec<Option<(usize, LinkedBy)>> {
    // First occurrence wins: build the indexes walking the batch in order.
    let mut by_id: HashMap<&str, usize> = HashMap::new();
    let mut by_query: HashMap<&str, usize> = HashMap::new();
    for (i, (case_id, query)) in trace_keys.into_iter().enumerate() {
        match case_id {
            Some(id) => {
                by_id.entry(id).or_insert(i);
            }
            None => {
                if let Some(q) = query {
                    by_query.entry(q.trim()).or_insert(i);
                }
            }
        }
    }
    cases
        .iter()
        .map(|case| {
            by_id
                .get(case.case_id.as_str())
                .map(|&i| (i, LinkedBy::CaseId))
                .or_else(|| {
                    case.query
                        .as_deref()
                        .and_then(|q| by_query.get(q.trim()))
                        .map(|&i| (i, LinkedBy::Query))
                })
        })
        .collect()
}

/// Evaluates every case against the runs (contract section 6). `default_k`
/// (the global `returnN`) is the cut-off for a case without a trace.
/// `config` and `diagnostics` of the result are left for the caller to fill.
pub fn evaluate(cases: &[GoldenCase], runs: &[RunTrace], default_k: usize) -> GoldenReport {
    let links = link_cases(cases, runs);
    let mut linked = vec![false; runs.len()];
    let mut first_at: HashMap<&str, usize> = HashMap::new();
    let mut reports = Vec::with_capacity(cases.len());
    for (i, (case, link)) in cases.iter().zip(&links).enumerate() {
        let run = link.map(|(t, by)| {
            linked[t] = true;
            (&runs[t], by)
        });
        let mut report = evaluate_case(case, run, default_k);
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
    let mean = |f: fn(&CaseReport) -> f64| {
        if reports.is_empty() {
            0.0
        } else {
            reports.iter().map(f).fold(0.0, |total, x| total + x) / reports.len() as f64
        }
    };
    let summary = GoldenSummary {
        cases: reports.len(),
        levels,
        mean_recall: mean(|r| r.recall),
        mean_precision: mean(|r| r.precision),
        mean_reciprocal_rank: mean(|r| r.reciprocal_rank),
        mean_ndcg: mean(|r| r.ndcg),
    };
    let unlinked_traces = runs
        .iter()
        .zip(&linked)
        .filter(|(_, l)| !**l)
        .map(|(r, _)| r.name.clone())
        .collect();
    GoldenReport {
        config: Value::Object(Map::new()),
        summary,
        cases: reports,
        unlinked_traces,
        diagnostics: Vec::new(),
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

/// Evaluates one case against its trace (or none).
pub fn evaluate_case(
    case: &GoldenCase,
    run: Option<(&RunTrace, LinkedBy)>,
    default_k: usize,
) -> CaseReport {
    let no_blocks: &[RunBlock] = &[];
    let blocks = run.map_or(no_blocks, |(r, _)| r.blocks.as_slice());
    let k = run.map_or(default_k, |(r, _)| r.k);

    // Relevant set: distinct, in file order (qrels cannot repeat a document).
    let mut expected_doc_ids: Vec<String> = Vec::new();
    for d in &case.expected_doc_ids {
        if !expected_doc_ids.contains(d) {
            expected_doc_ids.push(d.clone());
        }
    }
    let relevant: HashSet<&str> = expected_doc_ids.iter().map(String::as_str).collect();

    // Document ranking: each docId at its first position.
    let mut doc_ranking: Vec<String> = Vec::new();
    for b in blocks {
        if !doc_ranking.contains(&b.doc_id) {
            doc_ranking.push(b.doc_id.clone());
        }
    }
    let matched_doc_ids: Vec<String> = doc_ranking
        .iter()
        .filter(|d| relevant.contains(d.as_str()))
        .cloned()
        .collect();
    let unexpected_doc_ids: Vec<String> = doc_ranking
        .iter()
        .filter(|d| !relevant.contains(d.as_str()))
        .cloned()
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
        .map(|b| (b, normalize(b)))
        .filter(|(_, n)| !n.is_empty())
        .collect();
    let keywords: Vec<(&String, String)> = case
        .expected_keywords
        .iter()
        .map(|w| (w, normalize(w)))
        .filter(|(_, n)| !n.is_empty())
        .collect();

    let block_crumbs: Vec<String> = blocks
        .iter()
        .filter_map(|b| b.breadcrumb.as_deref().map(normalize))
        .collect();
    let matched_breadcrumbs: Vec<String> = breadcrumbs
        .iter()
        .filter(|(_, n)| block_crumbs.iter().any(|c| c.contains(n.as_str())))
        .map(|(b, _)| (*b).clone())
        .collect();
    let breadcrumb_hit = !matched_breadcrumbs.is_empty();

    // All blocks' breadcrumb, title and full excerpt joined with single
    // spaces; normalising afterwards also collapses the joints. Only a case with
    // keywords reads it (the text is most of an evaluation's time).
    let text = if keywords.is_empty() {
        String::new()
    } else {
        normalize(
            &blocks
                .iter()
                .flat_map(|b| [&b.breadcrumb, &b.title, &b.excerpt])
                .filter_map(|f| f.as_deref())
                .collect::<Vec<_>>()
                .join(" "),
        )
    };
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

    let evidence_hit = breadcrumb_hit
        || coverage.is_some_and(|c| c >= 0.5)
        || (breadcrumbs.is_empty() && keywords.is_empty());
    let level = if doc_hit && evidence_hit {
        GoldenLevel::Strong
    } else if doc_hit {
        GoldenLevel::Medium
    } else if breadcrumb_hit || coverage.is_some_and(|c| c > 0.0) {
        GoldenLevel::Weak
    } else {
        GoldenLevel::Miss
    };

    let metrics = ranking_metrics(&doc_ranking, &relevant, k);

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
    if expected_doc_ids.is_empty() {
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
        trace_name: run.map(|(r, _)| r.name.clone()),
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
        recall: metrics.recall,
        precision: metrics.precision,
        reciprocal_rank: metrics.reciprocal_rank,
        ndcg: metrics.ndcg,
        note,
        notes: case.notes.clone(),
    }
}

impl GoldenReport {
    /// Sets the configuration echoed in `report.json`.
    pub fn with_config(mut self, config: Value) -> Self {
        self.config = config;
        self
    }

    /// Adds findings (typically [`CaseSet::diagnostics`]) to the report.
    pub fn with_diagnostics(mut self, diagnostics: impl IntoIterator<Item = Diagnostic>) -> Self {
        self.diagnostics.extend(diagnostics);
        self
    }

    /// True when a finding of error severity is attached.
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }
}

// ---------------------------------------------------------------------------
// From the pipeline's output
// ---------------------------------------------------------------------------

impl RunTrace {
    /// The evaluator's view of one analysed trace under the current configuration.
    pub fn from_analysis(trace: &crate::TraceAnalysis) -> RunTrace {
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

/// Evaluates the cases against an analysis: the one entry point the CLI, the
/// JS API and the page share, so all three report the same numbers.
pub fn evaluate_analysis(cases: &CaseSet, analysis: &crate::Analysis) -> GoldenReport {
    let runs: Vec<RunTrace> = analysis
        .traces
        .iter()
        .map(RunTrace::from_analysis)
        .collect();
    let config = serde_json::to_value(analysis.config).unwrap_or(Value::Null);
    evaluate(&cases.cases, &runs, analysis.config.return_n)
        .with_config(config)
        .with_diagnostics(cases.diagnostics.iter().cloned())
}
