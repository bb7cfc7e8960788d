//! The golden metrics against trec_eval itself (contract section 12.1): trec_eval's own
//! test qrels (binary `qrels.test`, graded `qrels.rel_level` with grades -1 to 4) and run
//! (`results.test`, 3 queries of 500 documents), read as cases and traces, evaluated by
//! ragtrace and compared per query to the values pytrec_eval computes
//! (tests/fixtures/trec_eval/reference.json, made by reference.py there), to 1e-9.
//!
//! How the run reaches the metrics: each query is one trace (`caseId` = qid, mode
//! hybrid, no score) whose candidates are the run's documents in trec_eval's order
//! (score descending, ties by docno descending), each its own document. The pipeline
//! then keeps the first `returnN` of them (no document has a second chunk, so
//! `maxChunksPerDocument` never drops one), and the cut-off k of every metric is the
//! trace's effective `returnN`. So each cut-off k is evaluated with `returnN = k`, and
//! the reciprocal rank, which trec_eval takes over the whole ranking, with `returnN`
//! = 500 (every document kept).

use ragtrace_core::{analyze, evaluate_analysis, parse_cases, parse_document, GoldenReport};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

fn fixture(name: &str) -> String {
    let path = format!(
        "{}/../tests/fixtures/trec_eval/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The non-blank, non-comment lines' white-space separated fields.
fn lines(text: &str) -> impl Iterator<Item = Vec<&str>> {
    text.lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|f| !f.is_empty() && !f[0].starts_with('#'))
}

/// A qrels file as a cases file: one case per qid, its lines as `judgments`.
fn cases_json(qrels: &str) -> String {
    let mut cases: BTreeMap<&str, Map<String, Value>> = BTreeMap::new();
    for f in lines(qrels) {
        let grade: i64 = f[3].parse().unwrap_or_else(|e| panic!("{f:?}: {e}"));
        cases
            .entry(f[0])
            .or_default()
            .insert(f[2].to_owned(), json!(grade));
    }
    let cases: Vec<Value> = cases
        .into_iter()
        .map(|(qid, judgments)| json!({"caseId": qid, "judgments": judgments}))
        .collect();
    Value::Array(cases).to_string()
}

/// A run file as traces, the candidates in trec_eval's order.
fn traces_json(run: &str) -> String {
    let mut by_qid: BTreeMap<&str, Vec<(f64, &str)>> = BTreeMap::new();
    for f in lines(run) {
        let score: f64 = f[4].parse().unwrap_or_else(|e| panic!("{f:?}: {e}"));
        by_qid.entry(f[0]).or_default().push((score, f[2]));
    }
    let traces: Vec<Value> = by_qid
        .into_iter()
        .map(|(qid, mut docs)| {
            docs.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| b.1.cmp(a.1)));
            let candidates: Vec<Value> = docs
                .iter()
                .enumerate()
                .map(|(i, (_, doc))| json!({"docId": doc, "evidenceKey": doc, "originalRank": i + 1}))
                .collect();
            json!({"requestId": format!("STANDARD/{qid}"), "caseId": qid, "mode": "hybrid",
                   "candidates": candidates})
        })
        .collect();
    Value::Array(traces).to_string()
}

/// The report of the run against `qrels` at `returnN = k`, documents relevant from
/// `level`.
fn report(qrels: &str, level: usize, k: usize) -> GoldenReport {
    let cases = parse_cases("qrels", &cases_json(qrels)).unwrap_or_else(|e| panic!("{e:?}"));
    let batch = parse_document("run", &traces_json(&fixture("results.test")));
    let mut settings = ragtrace_core::Settings::default();
    for (key, value) in [
        ("returnN", k.to_string()),
        ("maxChunksPerDocument", "1000".to_owned()),
        ("relevantGrade", level.to_string()),
    ] {
        settings
            .set(key, &value)
            .unwrap_or_else(|e| panic!("{key}: {e:?}"));
    }
    let analysis = analyze(&batch, &settings, false).unwrap_or_else(|e| panic!("{e:?}"));
    let report = evaluate_analysis(&cases, &analysis);
    for case in &report.cases {
        assert_eq!(case.k, k, "query {}", case.case_id);
        assert_eq!(case.doc_ranking.len(), k.min(500), "query {}", case.case_id);
    }
    report
}

fn reference() -> Value {
    serde_json::from_str(&fixture("reference.json")).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn every_value_matches_pytrec_eval() {
    let reference = reference();
    let cuts: Vec<usize> = serde_json::from_value(reference["cuts"].clone()).unwrap_or_default();
    assert_eq!(cuts, [1, 3, 5, 10, 20, 100, 500]);
    let mut checked = 0;
    for qrels_file in ["qrels.test", "qrels.rel_level"] {
        let qrels = fixture(qrels_file);
        for level in [1, 2] {
            let expected = &reference["values"][format!("{qrels_file} -l {level}")];
            for &k in &cuts {
                let report = report(&qrels, level, k);
                assert_eq!(report.cases.len(), 3);
                for case in &report.cases {
                    let want = &expected[&case.case_id];
                    for (measure, ours) in [
                        (format!("ndcg_cut_{k}"), case.ndcg),
                        (format!("map_cut_{k}"), case.average_precision),
                        (format!("P_{k}"), case.precision),
                        (format!("recall_{k}"), case.recall),
                    ] {
                        let Some(theirs) = want[&measure].as_f64() else {
                            panic!("no {measure} for query {}", case.case_id);
                        };
                        assert!(
                            (ours - theirs).abs() < 1e-9,
                            "{qrels_file} -l {level} query {} {measure}: ours {ours}, trec_eval {theirs}",
                            case.case_id
                        );
                        checked += 1;
                    }
                    if k == 500 {
                        let theirs = want["recip_rank"].as_f64().unwrap_or(f64::NAN);
                        assert!(
                            (case.reciprocal_rank - theirs).abs() < 1e-9,
                            "{qrels_file} -l {level} query {} recip_rank: ours {}, trec_eval {theirs}",
                            case.case_id,
                            case.reciprocal_rank
                        );
                        checked += 1;
                    }
                }
            }
        }
    }
    // 2 qrels x 2 levels x 7 cut-offs x 3 queries x 4 measures, plus 12 reciprocal ranks.
    assert_eq!(checked, 2 * 2 * 7 * 3 * 4 + 12);
}

/// A few values written out, so that the reference file cannot drift unnoticed.
/// From `trec_eval -q -l 1 -m ndcg_cut.10 -m map_cut.100 -m recip_rank qrels.rel_level
/// results.test` (pytrec_eval, the same C code): query 302 nDCG@10 0.752969406552648, query 301
/// MAP@100 0.011793..., query 303 recip_rank 1/19; with `-l 2` query 301's first
/// relevant document is at rank 307 (1/307).
#[test]
fn literal_values_from_trec_eval() {
    let graded = fixture("qrels.rel_level");
    let at = |level: usize, k: usize, qid: &str| {
        report(&graded, level, k)
            .cases
            .into_iter()
            .find(|c| c.case_id == qid)
            .unwrap_or_else(|| panic!("query {qid}"))
    };
    let q302 = at(1, 10, "302");
    assert!(
        (q302.ndcg - 0.752969406552648).abs() < 1e-12,
        "{}",
        q302.ndcg
    );
    let q301 = at(1, 100, "301");
    assert!((q301.average_precision - 0.011793194465249277).abs() < 1e-12);
    let q303 = at(1, 500, "303");
    assert!((q303.reciprocal_rank - 1.0 / 19.0).abs() < 1e-12);
    let q301 = at(2, 500, "301");
    assert!((q301.reciprocal_rank - 1.0 / 307.0).abs() < 1e-12);
    // P@10 of query 301: 2 relevant documents in its first 10.
    assert!((at(1, 10, "301").precision - 0.2).abs() < 1e-12);
}
