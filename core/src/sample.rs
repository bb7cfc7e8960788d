//! Deterministic generated traces for benchmarks, tests and the page's sample.
//!
//! No `rand` dependency: a SplitMix64 generator seeded by the caller, so the same
//! arguments always give the same text on every platform.

use serde::Serialize;
use serde_json::{json, Value};

/// SplitMix64: tiny, fast, good enough to vary test data.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n` > 0).
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    /// Uniform in `[0, 1)`.
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

const WORDS: &[&str] = &[
    "redis",
    "eviction",
    "session",
    "timeout",
    "retry",
    "gateway",
    "certificate",
    "listener",
    "payment",
    "callback",
    "queue",
    "consumer",
    "kubernetes",
    "memory",
    "limit",
    "pod",
    "buffer",
    "pool",
    "index",
    "shard",
    "replica",
    "backup",
    "restore",
    "latency",
    "支付",
    "超时",
    "回调",
    "重试",
    "订单",
    "网关",
    "证书",
    "对账",
];

const DOMAINS: &[&str] = &["Ops", "Apps", "Payments", "Platform", "支付"];

fn sentence(rng: &mut Rng, words: usize) -> String {
    let mut out = String::new();
    for i in 0..words {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(WORDS[rng.below(WORDS.len() as u64) as usize]);
    }
    out
}

/// One generated trace as a JSON value; `index` names it.
fn trace(rng: &mut Rng, index: usize, candidates: usize) -> Value {
    let hybrid = rng.chance(60);
    let snake = rng.chance(20);
    let key =
        |camel: &'static str, snake_name: &'static str| if snake { snake_name } else { camel };
    let docs = (candidates / 2).max(1) as u64;
    let mut list = Vec::with_capacity(candidates);
    let mut distance = 0.15 + rng.unit() * 0.5;
    for rank in 1..=candidates {
        let doc = rng.below(docs);
        let chunk = rng.below(12);
        // About 5% repeat the previous hit's chunk: duplicates for dedup to remove.
        let (doc, chunk) = if rank > 1 && rng.chance(5) {
            (doc.saturating_sub(0), chunk)
        } else {
            (doc, chunk)
        };
        distance += rng.unit() * 0.12;
        let label = match (hybrid, rng.below(10)) {
            (true, 0) => "rrf_fused",
            (true, 1) => "bm25_only_no_dense",
            (true, _) => "hybrid",
            (false, 0) => "l2_distance",
            (false, _) => "dense",
        };
        let doc_id = format!("doc-{index}-{doc}");
        let mut c = serde_json::Map::new();
        c.insert(
            key("evidenceKey", "evidence_key").into(),
            json!(format!("{doc_id}#{chunk}")),
        );
        c.insert(key("docId", "doc_id").into(), json!(doc_id));
        c.insert(key("chunkIndex", "chunk_index").into(), json!(chunk));
        let domain = DOMAINS[rng.below(DOMAINS.len() as u64) as usize];
        c.insert(
            "breadcrumb".into(),
            json!(format!(
                "{domain} > {} > {}",
                sentence(rng, 1),
                sentence(rng, 1)
            )),
        );
        c.insert("title".into(), json!(sentence(rng, 3)));
        let words = 4 + rng.below(12) as usize;
        c.insert("excerpt".into(), json!(sentence(rng, words)));
        c.insert(key("originalRank", "original_rank").into(), json!(rank));
        c.insert(key("scoreLabel", "score_label").into(), json!(label));
        if hybrid {
            let rrf = 1.0 / (60.0 + rank as f64);
            c.insert("score".into(), json!(rrf));
            c.insert(key("rawScore", "raw_score").into(), json!(rrf));
            if rng.chance(70) {
                c.insert(
                    key("denseDistance", "dense_distance").into(),
                    json!(distance),
                );
            }
        } else if rng.chance(97) {
            c.insert("score".into(), json!(distance));
        } else {
            c.insert("score".into(), Value::Null);
        }
        if rng.chance(50) {
            let base = (1.2 - distance).max(0.0);
            let boost = if rng.chance(30) {
                0.15 + rng.unit() * 0.2
            } else {
                0.0
            };
            c.insert(key("baseScore", "base_score").into(), json!(base));
            c.insert(key("finalScore", "final_score").into(), json!(base + boost));
            if boost > 0.0 {
                c.insert(
                    key("boostReasons", "boost_reasons").into(),
                    json!(["keyword:+0.15"]),
                );
            }
        }
        if rng.chance(30) {
            c.insert(
                key("hitReasons", "hit_reasons").into(),
                json!(["keyword match"]),
            );
        }
        list.push(Value::Object(c));
    }
    let levels = [
        "PRECISE",
        "HIGHLY_RELEVANT",
        "RELEVANT",
        "LOW_RELEVANCE",
        "NO_MATCH",
    ];
    let mut t = serde_json::Map::new();
    t.insert("kind".into(), json!("RerankTrace"));
    t.insert(
        key("requestId", "request_id").into(),
        json!(format!("gen-{index:05}")),
    );
    t.insert("query".into(), json!(sentence(rng, 5)));
    t.insert(
        "mode".into(),
        json!(if hybrid { "hybrid" } else { "dense" }),
    );
    if rng.chance(40) {
        t.insert(
            key("categoryFilter", "category_filter").into(),
            json!("runbook"),
        );
    }
    if rng.chance(30) {
        t.insert(
            "options".into(),
            json!({ "returnN": 3 + rng.below(4), "maxL2Distance": 1.0 + rng.unit() }),
        );
    }
    t.insert("candidates".into(), Value::Array(list));
    t.insert(
        key("relevanceLevel", "relevance_level").into(),
        json!(levels[rng.below(levels.len() as u64) as usize]),
    );
    t.insert(
        key("lowQuality", "low_quality").into(),
        json!(rng.chance(30)),
    );
    Value::Object(t)
}

fn traces(count: usize, candidates_per_trace: usize, seed: u64) -> Vec<Value> {
    let mut rng = Rng(seed);
    (0..count)
        .map(|i| trace(&mut rng, i + 1, candidates_per_trace))
        .collect()
}

/// `{"traces": [...]}` with `traces` traces of `candidates_per_trace` candidates each:
/// 60% hybrid, some legacy labels, snake_case spellings, finalScores, duplicates,
/// category filters and recorded options. About 300 bytes per candidate.
pub fn generate_batch(trace_count: usize, candidates_per_trace: usize, seed: u64) -> String {
    json!({ "traces": traces(trace_count, candidates_per_trace, seed) }).to_string()
}

/// The traces of [`generate_batch`] with the same arguments, as JSON Lines: one trace
/// object per line, without the line end. Made one trace at a time, so a file of any
/// size (the streamed CLI's benchmark writes a gigabyte) takes the memory of one trace.
pub fn generate_batch_lines(
    trace_count: usize,
    candidates_per_trace: usize,
    seed: u64,
) -> impl Iterator<Item = String> {
    let mut rng = Rng(seed);
    (0..trace_count).map(move |i| trace(&mut rng, i + 1, candidates_per_trace).to_string())
}

/// One case of a generated cases file (contract section 6). Typed rather than built
/// with `json!`: the page ships this code, and the typed form is the smaller one.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct GeneratedCase {
    case_id: String,
    query: String,
    expected_doc_ids: Vec<String>,
    expected_breadcrumbs: Vec<String>,
    expected_keywords: Vec<String>,
    notes: String,
}

#[derive(Serialize)]
struct CasesFile {
    cases: Vec<GeneratedCase>,
}

/// A field of a generated candidate or trace under either spelling.
fn field<'a>(object: &'a Value, camel: &str, snake: &str) -> Option<&'a Value> {
    object.get(camel).or_else(|| object.get(snake))
}

/// A golden cases file (contract section 6) for the batch `generate_batch` makes with
/// the same arguments: one case for every fifth trace, linked by its query, plus one
/// case no trace answers. The expected document is the first candidate's (usually
/// found: strong or medium), a deep candidate's (found or not depending on `returnN`
/// and the per-document cap), both, or a document the trace never retrieved (a miss);
/// keywords come from that candidate's excerpt, and some cases expect its breadcrumb.
pub fn generate_cases(trace_count: usize, candidates_per_trace: usize, seed: u64) -> String {
    let mut rng = Rng(seed ^ 0x00C0_FFEE);
    let mut cases = Vec::new();
    for (i, t) in traces(trace_count, candidates_per_trace, seed)
        .iter()
        .enumerate()
        .step_by(5)
    {
        let Some(candidates) = t.get("candidates").and_then(Value::as_array) else {
            continue;
        };
        if candidates.is_empty() {
            continue;
        }
        let deep = candidates.len() / 2 + rng.below((candidates.len() / 2).max(1) as u64) as usize;
        let doc_of = |at: usize| {
            candidates
                .get(at)
                .and_then(|c| field(c, "docId", "doc_id"))
                .and_then(Value::as_str)
                .map(str::to_owned)
        };
        let (kind, expected, source) = match rng.below(10) {
            0..=3 => ("top", vec![doc_of(0)], 0),
            4..=6 => ("deep", vec![doc_of(deep)], deep),
            7 => ("top and deep", vec![doc_of(0), doc_of(deep)], deep),
            _ => (
                "never retrieved",
                vec![Some(format!("doc-absent-{}", i + 1))],
                0,
            ),
        };
        let expected: Vec<String> = expected.into_iter().flatten().collect();
        let candidate = &candidates[source.min(candidates.len() - 1)];
        let keywords: Vec<String> = candidate
            .get("excerpt")
            .and_then(Value::as_str)
            .map(|text| text.split(' ').take(2).map(str::to_owned).collect())
            .unwrap_or_default();
        let breadcrumbs: Vec<String> = if rng.chance(50) {
            candidate
                .get("breadcrumb")
                .and_then(Value::as_str)
                .map(str::to_owned)
                .into_iter()
                .collect()
        } else {
            Vec::new()
        };
        let request = field(t, "requestId", "request_id")
            .and_then(Value::as_str)
            .unwrap_or("");
        cases.push(GeneratedCase {
            case_id: format!("case-{request}"),
            query: t
                .get("query")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned(),
            expected_doc_ids: expected,
            expected_breadcrumbs: breadcrumbs,
            expected_keywords: keywords,
            notes: format!("expects the {kind} document of {request}"),
        });
    }
    cases.push(GeneratedCase {
        case_id: "case-unanswered".to_owned(),
        query: "a question no generated trace asked".to_owned(),
        expected_doc_ids: vec!["doc-absent".to_owned()],
        expected_breadcrumbs: Vec::new(),
        expected_keywords: Vec::new(),
        notes: "no trace has this query: a miss".to_owned(),
    });
    serde_json::to_string_pretty(&CasesFile { cases }).unwrap_or_default()
}

/// Paired runs of the same generated queries, for comparing runs: a dense run, a hybrid
/// run and a cases file, as `(dense, hybrid, cases)` JSON texts. Each query has its own
/// pool of documents; the hybrid run keeps most of the dense run's documents, swaps some
/// neighbours and brings in documents the dense run did not find, so the pairs show every
/// kind of agreement. Every other trace carries a `caseId` (the others pair by query),
/// and one query in ten appears in the dense run only. The cases (one per third query)
/// expect a document both runs find, one only the hybrid run finds, or one only the dense
/// run finds, so the golden deltas go both ways.
pub fn generate_paired_runs(
    queries: usize,
    candidates_per_trace: usize,
    seed: u64,
) -> (String, String, String) {
    let mut rng = Rng(seed ^ 0x0000_0B0D_1E5E);
    let n = candidates_per_trace.max(1);
    let mut dense = Vec::with_capacity(queries);
    let mut hybrid = Vec::with_capacity(queries);
    let mut cases = Vec::new();
    for q in 1..=queries {
        let query = format!("{} {q}", sentence(&mut rng, 4));
        let case_id = (q % 2 == 0).then(|| format!("q-{q:05}"));
        let doc = |d: usize| format!("d{q}-{d}");
        // Dense: documents 0..n in order. Hybrid: the same with neighbours swapped and
        // about a fifth replaced by documents n.. the dense run never saw.
        let dense_docs: Vec<usize> = (0..n).collect();
        let mut hybrid_docs = dense_docs.clone();
        for i in 0..n.saturating_sub(1) {
            if rng.chance(30) {
                hybrid_docs.swap(i, i + 1);
            }
        }
        let mut fresh = n;
        for slot in hybrid_docs.iter_mut() {
            if rng.chance(20) {
                *slot = fresh;
                fresh += 1;
            }
        }
        let mut distance = 0.2 + rng.unit() * 0.6;
        let dense_candidates: Vec<Value> = dense_docs
            .iter()
            .enumerate()
            .map(|(i, &d)| {
                distance += rng.unit() * 0.08;
                json!({
                    "evidenceKey": format!("{}#0", doc(d)), "docId": doc(d),
                    "originalRank": i + 1, "score": distance, "scoreLabel": "dense",
                    "breadcrumb": format!("Ops > {}", sentence(&mut rng, 1)),
                    "excerpt": sentence(&mut rng, 6),
                })
            })
            .collect();
        let hybrid_candidates: Vec<Value> = hybrid_docs
            .iter()
            .enumerate()
            .map(|(i, &d)| {
                let rank = i + 1;
                json!({
                    "evidenceKey": format!("{}#0", doc(d)), "docId": doc(d),
                    "originalRank": rank, "score": 1.0 / (60.0 + rank as f64),
                    "scoreLabel": "hybrid", "denseDistance": 0.2 + 0.05 * rank as f64 + rng.unit() * 0.3,
                    "breadcrumb": format!("Ops > {}", sentence(&mut rng, 1)),
                    "excerpt": sentence(&mut rng, 6),
                })
            })
            .collect();
        let trace = |mode: &str, candidates: Vec<Value>| {
            let mut t = serde_json::Map::new();
            t.insert("kind".into(), json!("RerankTrace"));
            t.insert("requestId".into(), json!(format!("{mode}-{q:05}")));
            if let Some(id) = &case_id {
                t.insert("caseId".into(), json!(id));
            }
            t.insert("query".into(), json!(query));
            t.insert("mode".into(), json!(mode));
            t.insert("candidates".into(), Value::Array(candidates));
            Value::Object(t)
        };
        dense.push(trace("dense", dense_candidates));
        if q % 10 != 0 {
            hybrid.push(trace("hybrid", hybrid_candidates));
        }
        if q % 3 == 0 {
            let both = hybrid_docs
                .iter()
                .find(|d| dense_docs[..n.min(5)].contains(d));
            let hybrid_only = hybrid_docs.iter().find(|&&d| d >= n);
            let dense_only = dense_docs.iter().find(|d| !hybrid_docs.contains(d));
            let (kind, expected) = match rng.below(3) {
                0 => ("both", both),
                1 => ("hybrid only", hybrid_only.or(both)),
                _ => ("dense only", dense_only.or(both)),
            };
            cases.push(GeneratedCase {
                case_id: case_id
                    .clone()
                    .unwrap_or_else(|| format!("by-query-{q:05}")),
                query: query.clone(),
                expected_doc_ids: expected.map(|&d| doc(d)).into_iter().collect(),
                expected_breadcrumbs: Vec::new(),
                expected_keywords: Vec::new(),
                notes: format!("expects a document {kind} found"),
            });
        }
    }
    let text = |traces: Vec<Value>| json!({ "traces": traces }).to_string();
    (
        text(dense),
        text(hybrid),
        serde_json::to_string_pretty(&CasesFile { cases }).unwrap_or_default(),
    )
}

/// Several runs of the same generated queries, for comparing many runs at once: `runs`
/// trace files and one cases file, as `(runs, cases)` JSON texts. Every query has a case
/// expecting two documents; run `r` finds each of them with probability `50 + 6r`
/// percent, at a random rank, so later runs are better on average and neighbouring runs
/// are close. Every query carries a caseId; one query in 97 is missing from the last run.
pub fn generate_many_runs(
    runs: usize,
    queries: usize,
    candidates_per_trace: usize,
    seed: u64,
) -> (Vec<String>, String) {
    let mut rng = Rng(seed ^ 0x006D_616E_7972);
    let n = candidates_per_trace.max(2);
    let mut files: Vec<Vec<Value>> = vec![Vec::with_capacity(queries); runs];
    let mut cases = Vec::with_capacity(queries);
    for q in 1..=queries {
        let query = format!("{} {q}", sentence(&mut rng, 4));
        let case_id = format!("m-{q:05}");
        let doc = |d: usize| format!("d{q}-{d}");
        for (r, file) in files.iter_mut().enumerate() {
            if r + 1 == runs && q % 97 == 0 {
                continue;
            }
            // Documents 2.. are not relevant; each relevant one (0 and 1) takes a random
            // rank when the run finds it.
            let mut ranking: Vec<usize> = (2..n + 2).collect();
            for relevant in 0..2 {
                if rng.chance(50 + 6 * r as u64) {
                    let at = rng.below(n as u64) as usize;
                    ranking.insert(at, relevant);
                }
            }
            ranking.truncate(n);
            let mut distance = 0.2 + rng.unit() * 0.3;
            let candidates: Vec<Value> = ranking
                .iter()
                .enumerate()
                .map(|(i, &d)| {
                    distance += rng.unit() * 0.08;
                    json!({
                        "evidenceKey": format!("{}#0", doc(d)), "docId": doc(d),
                        "originalRank": i + 1, "score": distance, "scoreLabel": "dense",
                    })
                })
                .collect();
            file.push(json!({
                "kind": "RerankTrace", "requestId": format!("run{r}-{q:05}"),
                "caseId": case_id, "query": query, "mode": "dense",
                "candidates": candidates,
            }));
        }
        cases.push(GeneratedCase {
            case_id,
            query,
            expected_doc_ids: vec![doc(0), doc(1)],
            expected_breadcrumbs: Vec::new(),
            expected_keywords: Vec::new(),
            notes: String::new(),
        });
    }
    (
        files
            .into_iter()
            .map(|traces| json!({ "traces": traces }).to_string())
            .collect(),
        serde_json::to_string_pretty(&CasesFile { cases }).unwrap_or_default(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_parseable() {
        let a = generate_batch(5, 10, 7);
        assert_eq!(a, generate_batch(5, 10, 7));
        assert_ne!(a, generate_batch(5, 10, 8));
        let batch = crate::input::parse_document("gen", &a);
        assert!(batch.errors.is_empty());
        assert_eq!(batch.traces.len(), 5);
        assert_eq!(batch.candidate_count(), 50);
    }

    /// The lines are the batch's traces, one per line.
    #[test]
    fn lines_are_the_batch_traces() {
        let whole: serde_json::Value =
            serde_json::from_str(&generate_batch(6, 4, 3)).unwrap_or_default();
        let lines: Vec<serde_json::Value> = generate_batch_lines(6, 4, 3)
            .map(|line| serde_json::from_str(&line).unwrap_or_default())
            .collect();
        assert_eq!(lines.len(), 6);
        assert_eq!(whole["traces"], serde_json::Value::Array(lines));
    }

    /// The generated cases link to the generated traces and reach every level.
    #[test]
    fn generated_cases_fit_the_generated_batch() {
        let text = generate_cases(500, 8, 42);
        assert_eq!(text, generate_cases(500, 8, 42));
        let cases = match crate::golden::parse_cases("cases", &text) {
            Ok(cases) => cases,
            Err(errors) => panic!("{errors:?}"),
        };
        assert_eq!(cases.cases.len(), 101);
        assert!(cases.diagnostics.is_empty(), "{:?}", cases.diagnostics);
        let batch = crate::input::parse_document("gen", &generate_batch(500, 8, 42));
        let analysis = match crate::analysis::analyze(&batch, &crate::Settings::default(), false) {
            Ok(analysis) => analysis,
            Err(err) => panic!("{err}"),
        };
        let report = crate::golden::evaluate_analysis(&cases, &analysis);
        let levels = &report.summary.levels;
        assert!(
            levels.strong > 0 && levels.medium > 0 && levels.weak > 0 && levels.miss > 0,
            "{levels:?}"
        );
        let linked = report
            .cases
            .iter()
            .filter(|c| c.trace_name.is_some())
            .count();
        assert_eq!(linked, 100);
    }
}
