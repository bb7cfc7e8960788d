//! Golden evaluation (contract section 6) on hand-built runs and hand-computed numbers.

use ragtrace_core::{
    evaluate_runs, normalize_query, parse_cases, parse_cases_value, ranking_metrics, GoldenCase,
    GoldenLevel, LinkedBy, RunBlock, RunTrace,
};
use ragtrace_core::{golden_markdown, golden_summary_text, md_cell, trec_qrels, trec_run};
use std::collections::HashSet;

const EPS: f64 = 1e-12;

fn close(actual: f64, expected: f64) {
    assert!(
        (actual - expected).abs() < EPS,
        "expected {expected}, got {actual}"
    );
}

fn block(doc: &str, crumb: Option<&str>, title: Option<&str>, excerpt: Option<&str>) -> RunBlock {
    RunBlock {
        doc_id: doc.to_owned(),
        breadcrumb: crumb.map(str::to_owned),
        title: title.map(str::to_owned),
        excerpt: excerpt.map(str::to_owned),
    }
}

fn doc(doc_id: &str) -> RunBlock {
    block(doc_id, None, None, None)
}

fn run(
    name: &str,
    case_id: Option<&str>,
    query: Option<&str>,
    k: usize,
    blocks: Vec<RunBlock>,
) -> RunTrace {
    RunTrace {
        name: name.to_owned(),
        case_id: case_id.map(str::to_owned),
        query: query.map(str::to_owned),
        k,
        blocks,
    }
}

fn case(id: &str, query: &str, docs: &[&str], crumbs: &[&str], keywords: &[&str]) -> GoldenCase {
    let v = |xs: &[&str]| xs.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    GoldenCase {
        case_id: id.to_owned(),
        query: Some(query.to_owned()),
        expected_doc_ids: v(docs),
        expected_breadcrumbs: v(crumbs),
        expected_keywords: v(keywords),
        notes: None,
        judgments: None,
    }
}

fn strings(xs: &[&str]) -> Vec<String> {
    xs.iter().map(|s| s.to_string()).collect()
}

/// Evaluates one case against one trace linked by caseId.
fn one(c: GoldenCase, blocks: Vec<RunBlock>, k: usize) -> ragtrace_core::CaseReport {
    let r = run("t1", Some(&c.case_id.clone()), None, k, blocks);
    let mut report = evaluate_runs(&[c], &[r], 5);
    report.cases.remove(0)
}

// ----------------------------------------------------------------- levels

#[test]
fn level_strong_doc_hit_and_breadcrumb_hit() {
    let c = case("c", "q", &["a"], &["Redis > Eviction"], &[]);
    let r = one(
        c,
        vec![block("a", Some("Ops > Redis > Eviction"), None, None)],
        5,
    );
    assert!(r.doc_hit && r.breadcrumb_hit && r.evidence_hit);
    assert_eq!(r.coverage, None);
    assert_eq!(r.level, GoldenLevel::Strong);
    assert_eq!(r.matched_breadcrumbs, strings(&["Redis > Eviction"]));
}

#[test]
fn level_strong_via_half_keyword_coverage() {
    // coverage 0.5 is enough evidence (>= 0.5) even with a breadcrumb miss.
    let c = case("c", "q", &["a"], &["Nowhere"], &["alpha", "beta"]);
    let r = one(
        c,
        vec![block("a", Some("Elsewhere"), None, Some("alpha only"))],
        5,
    );
    assert!(!r.breadcrumb_hit);
    assert_eq!(r.coverage, Some(0.5));
    assert!(r.evidence_hit);
    assert_eq!(r.level, GoldenLevel::Strong);
}

#[test]
fn level_medium_doc_hit_without_evidence() {
    // One keyword of three (< 0.5) and the expected breadcrumb is absent.
    let c = case("c", "q", &["a"], &["Gateway > TLS"], &["x1", "x2", "x3"]);
    let r = one(
        c,
        vec![block("a", Some("Gateway > Runbook"), Some("x1"), None)],
        5,
    );
    assert!(r.doc_hit);
    assert!(!r.evidence_hit);
    close(r.coverage.unwrap_or(f64::NAN), 1.0 / 3.0);
    assert_eq!(r.level, GoldenLevel::Medium);
}

#[test]
fn level_weak_via_breadcrumb() {
    let c = case("c", "q", &["a"], &["Redis > Eviction"], &[]);
    let r = one(
        c,
        vec![block("b", Some("Ops > Redis > Eviction > LRU"), None, None)],
        5,
    );
    assert!(!r.doc_hit);
    assert!(r.breadcrumb_hit);
    assert_eq!(r.level, GoldenLevel::Weak);
}

#[test]
fn level_weak_via_coverage() {
    // Any coverage above 0 makes a doc miss weak, even below 0.5.
    let c = case("c", "q", &["a"], &[], &["k1", "k2", "k3", "k4"]);
    let r = one(c, vec![block("b", None, Some("has k3"), None)], 5);
    assert!(!r.doc_hit && !r.breadcrumb_hit);
    close(r.coverage.unwrap_or(f64::NAN), 0.25);
    assert!(!r.evidence_hit);
    assert_eq!(r.level, GoldenLevel::Weak);
    assert_eq!(r.matched_keywords, strings(&["k3"]));
    assert_eq!(r.missing_keywords, strings(&["k1", "k2", "k4"]));
}

#[test]
fn level_miss_nothing_matches() {
    let c = case("c", "q", &["a"], &["Redis"], &["lru"]);
    let r = one(
        c,
        vec![block("b", Some("MySQL"), Some("buffer"), Some("pool"))],
        5,
    );
    assert!(!r.doc_hit && !r.breadcrumb_hit);
    assert_eq!(r.coverage, Some(0.0));
    assert_eq!(r.level, GoldenLevel::Miss);
}

#[test]
fn evidence_hit_when_no_breadcrumbs_and_no_keywords_expected() {
    let c = case("c", "q", &["a"], &[], &[]);
    let r = one(c.clone(), vec![doc("a")], 5);
    assert!(r.evidence_hit);
    assert_eq!(r.level, GoldenLevel::Strong);
    // ...but evidence alone never lifts a doc miss to weak.
    let r = one(c, vec![doc("b")], 5);
    assert!(r.evidence_hit);
    assert_eq!(r.level, GoldenLevel::Miss);
}

#[test]
fn coverage_null_when_no_keywords_expected() {
    let c = case("c", "q", &["a"], &["Nope"], &[]);
    let r = one(c, vec![block("a", None, None, Some("text"))], 5);
    assert_eq!(r.coverage, None);
    let json = serde_json::to_value(&r).unwrap();
    assert!(json["coverage"].is_null());
    // breadcrumbs expected but missed, no keywords: no evidence.
    assert!(!r.evidence_hit);
    assert_eq!(r.level, GoldenLevel::Medium);
}

#[test]
fn empty_expectations_are_ignored_not_matched_everywhere() {
    // "  " normalises to "" which is a substring of everything.
    let c = case("c", "q", &["a"], &["  "], &["\t"]);
    let r = one(c, vec![doc("b")], 5);
    assert!(!r.breadcrumb_hit);
    assert_eq!(r.coverage, None);
    assert_eq!(r.level, GoldenLevel::Miss);
}

#[test]
fn coverage_uses_breadcrumb_title_and_full_excerpt_joined_by_spaces() {
    // A keyword spanning title and excerpt is found because they are joined with one space.
    let long = format!("{} needle-at-the-end", "x".repeat(1000));
    let c = case(
        "c",
        "q",
        &["a"],
        &[],
        &["Crumb Title", "needle-at-the-end", "title body"],
    );
    let r = one(
        c,
        vec![block(
            "a",
            Some("crumb"),
            Some("title"),
            Some(&format!("body {long}")),
        )],
        5,
    );
    assert_eq!(r.coverage, Some(1.0));
}

// ----------------------------------------------------------------- metrics

fn set<'a>(xs: &[&'a str]) -> HashSet<&'a str> {
    xs.iter().copied().collect()
}

#[test]
fn metrics_fewer_retrieved_than_k() {
    // k = 5, ranking [a, x, b], relevant {a, b, c}.
    let m = ranking_metrics(&strings(&["a", "x", "b"]), &set(&["a", "b", "c"]), 5);
    close(m.recall, 2.0 / 3.0);
    close(m.precision, 2.0 / 5.0); // divides by k, not by the 3 retrieved
    close(m.reciprocal_rank, 1.0);
    // DCG = 1/log2(2) + 1/log2(4) = 1.5; IDCG over min(3, 5) = 3 positions.
    let idcg = 1.0 + 1.0 / 3f64.log2() + 0.5;
    close(m.ndcg, 1.5 / idcg);
    close(m.ndcg, 0.703_918_089_034_134_7);
}

#[test]
fn metrics_more_expected_than_k() {
    // k = 2, ranking [x, a, b], relevant {a, b, c}: b at rank 3 is past the cut-off.
    let m = ranking_metrics(&strings(&["x", "a", "b"]), &set(&["a", "b", "c"]), 2);
    close(m.recall, 1.0 / 3.0);
    close(m.precision, 0.5);
    close(m.reciprocal_rank, 0.5);
    // DCG = 1/log2(3); IDCG over min(3, 2) = 2 positions = 1 + 1/log2(3).
    let d3 = 1.0 / 3f64.log2();
    close(m.ndcg, d3 / (1.0 + d3));
    close(m.ndcg, 0.386_852_807_234_541_6);
}

#[test]
fn metrics_perfect_ranking_with_more_expected_than_k_has_ndcg_one() {
    let m = ranking_metrics(&strings(&["a", "b"]), &set(&["a", "b", "c"]), 2);
    close(m.ndcg, 1.0);
    close(m.recall, 2.0 / 3.0);
    close(m.precision, 1.0);
}

#[test]
fn reciprocal_rank_looks_past_k_like_trec_eval() {
    let m = ranking_metrics(&strings(&["x", "y", "a"]), &set(&["a"]), 1);
    close(m.recall, 0.0);
    close(m.precision, 0.0);
    close(m.ndcg, 0.0);
    close(m.reciprocal_rank, 1.0 / 3.0);
}

#[test]
fn metrics_with_no_relevant_documents_or_zero_k_are_zero_not_nan() {
    let m = ranking_metrics(&strings(&["a"]), &set(&[]), 3);
    assert_eq!(
        (m.recall, m.precision, m.reciprocal_rank, m.ndcg),
        (0.0, 0.0, 0.0, 0.0)
    );
    let m = ranking_metrics(&strings(&["a"]), &set(&["a"]), 0);
    assert_eq!((m.recall, m.precision, m.ndcg), (0.0, 0.0, 0.0));
    close(m.reciprocal_rank, 1.0);
    let m = ranking_metrics(&[], &set(&["a"]), 3);
    assert_eq!(
        (m.recall, m.precision, m.reciprocal_rank, m.ndcg),
        (0.0, 0.0, 0.0, 0.0)
    );
}

#[test]
fn document_ranking_keeps_each_doc_at_its_first_position() {
    // Blocks a, a, b, x: ranking [a, b, x]; k = 4 > 3 documents.
    let c = case("c", "q", &["b", "z"], &[], &[]);
    let r = one(c, vec![doc("a"), doc("a"), doc("b"), doc("x")], 4);
    assert_eq!(r.doc_ranking, strings(&["a", "b", "x"]));
    assert_eq!(r.matched_doc_ids, strings(&["b"]));
    assert_eq!(r.missing_doc_ids, strings(&["z"]));
    assert_eq!(r.unexpected_doc_ids, strings(&["a", "x"]));
    close(r.recall, 0.5);
    close(r.precision, 0.25);
    close(r.reciprocal_rank, 0.5);
    // DCG = 1/log2(3); IDCG = 1 + 1/log2(3).
    let d3 = 1.0 / 3f64.log2();
    close(r.ndcg, d3 / (1.0 + d3));
}

#[test]
fn duplicate_expected_doc_ids_count_once() {
    let c = case("c", "q", &["a", "a"], &[], &[]);
    let r = one(c, vec![doc("a")], 1);
    assert_eq!(r.expected_doc_ids, strings(&["a"]));
    close(r.recall, 1.0);
    close(r.ndcg, 1.0);
}

#[test]
fn case_without_expected_docs_scores_zero_with_a_note() {
    let c = case("c", "q", &[], &[], &["kw"]);
    let r = one(c, vec![block("a", None, None, Some("kw"))], 5);
    assert!(!r.doc_hit);
    assert_eq!(r.level, GoldenLevel::Weak);
    assert_eq!(
        (r.recall, r.precision, r.reciprocal_rank, r.ndcg),
        (0.0, 0.0, 0.0, 0.0)
    );
    assert!(r.note.unwrap_or_default().contains("no expected documents"));
}

// ----------------------------------------------------------------- normalisation

#[test]
fn normalise_collapses_unicode_whitespace_trims_and_lowercases() {
    assert_eq!(
        normalize_query("  Redis\t\n  >\u{00A0}Eviction \u{3000}"),
        "redis > eviction"
    );
    assert_eq!(normalize_query("ÉVICTION Straße"), "éviction straße");
    assert_eq!(normalize_query("\u{2003}\r\n"), "");
    // Per-character lowercase: a final capital sigma is σ, the same inside a longer text.
    assert_eq!(normalize_query("ΟΔΟΣ"), "οδοσ");
}

// proptest is a native dev-dependency only (the wasm32 clippy builds these tests too).
#[cfg(not(target_arch = "wasm32"))]
proptest::proptest! {
    /// The definition, written the slow way: every character through its
    /// Unicode lowercase mapping, white space runs as one space, ends trimmed.
    #[test]
    fn normalise_is_per_character_lowercase_with_collapsed_white_space(text in "\\PC{0,40}|[ A-Za-z\t\u{0B}\u{85}\u{A0}\u{3000}ΣÉİ订単]{0,40}") {
        let words: Vec<String> = text
            .split(char::is_whitespace)
            .filter(|w| !w.is_empty())
            .map(|w| w.chars().flat_map(char::to_lowercase).collect())
            .collect();
        proptest::prop_assert_eq!(normalize_query(&text), words.join(" "));
    }
}

#[test]
fn cjk_keywords_and_breadcrumbs_match_as_substrings() {
    let c = case(
        "c",
        "q",
        &["pay"],
        &["支付 > 回调"],
        &["指数退避", "人工对账"],
    );
    let r = one(
        c,
        vec![block(
            "other",
            Some("运维\u{3000}>  支付 >\t回调 > 重试"),
            None,
            Some("回调失败后按指数退避重试"),
        )],
        5,
    );
    assert!(
        r.breadcrumb_hit,
        "ideographic space and tab collapse to one space"
    );
    assert_eq!(r.coverage, Some(0.5));
    assert_eq!(r.matched_keywords, strings(&["指数退避"]));
    assert_eq!(r.level, GoldenLevel::Weak);
}

#[test]
fn matching_ignores_case_and_whitespace_on_both_sides() {
    let c = case(
        "c",
        "q",
        &["a"],
        &["  REDIS   >\nEVICTION "],
        &["AllKeys-LRU", "MAX\u{00A0}MEMORY"],
    );
    let r = one(
        c,
        vec![block(
            "a",
            Some("ops > redis > eviction"),
            None,
            Some("allkeys-lru and max memory"),
        )],
        5,
    );
    assert!(r.breadcrumb_hit);
    assert_eq!(r.coverage, Some(1.0));
    // Matched entries are reported as written in the cases file.
    assert_eq!(r.matched_breadcrumbs, strings(&["  REDIS   >\nEVICTION "]));
}

// ----------------------------------------------------------------- linking

#[test]
fn links_by_case_id_before_query() {
    let c = case("c1", "the query", &["a"], &[], &[]);
    let runs = vec![
        run("by-query", None, Some("the query"), 5, vec![doc("x")]),
        run(
            "by-id",
            Some("c1"),
            Some("something else"),
            5,
            vec![doc("a")],
        ),
    ];
    let rep = evaluate_runs(&[c], &runs, 5);
    assert_eq!(rep.cases[0].trace_name.as_deref(), Some("by-id"));
    assert_eq!(rep.cases[0].linked_by, Some(LinkedBy::CaseId));
    assert_eq!(rep.unlinked_traces, strings(&["by-query"]));
}

#[test]
fn links_by_trimmed_query_to_first_trace_without_case_id() {
    let c = case("c1", "  the query\n", &["a"], &[], &[]);
    let runs = vec![
        run("other-id", Some("c2"), Some("the query"), 5, vec![doc("a")]),
        run("first", None, Some(" the query "), 3, vec![doc("a")]),
        run("second", None, Some("the query"), 5, vec![doc("a")]),
    ];
    let rep = evaluate_runs(&[c], &runs, 5);
    let r = &rep.cases[0];
    assert_eq!(r.trace_name.as_deref(), Some("first"));
    assert_eq!(r.linked_by, Some(LinkedBy::Query));
    assert_eq!(r.k, 3, "k is the linked trace's effective returnN");
    assert_eq!(rep.unlinked_traces, strings(&["other-id", "second"]));
}

#[test]
fn trace_with_a_different_case_id_is_not_linked_by_query() {
    let c = case("c1", "the query", &["a"], &[], &[]);
    let runs = vec![run("t", Some("c2"), Some("the query"), 5, vec![doc("a")])];
    let rep = evaluate_runs(&[c], &runs, 7);
    let r = &rep.cases[0];
    assert_eq!(r.trace_name, None);
    assert_eq!(r.level, GoldenLevel::Miss);
    assert_eq!(r.k, 7);
    assert_eq!(rep.unlinked_traces, strings(&["t"]));
}

#[test]
fn query_linking_is_exact_after_trim_not_normalised() {
    let c = case("c1", "The  Query", &["a"], &[], &[]);
    let runs = vec![run("t", None, Some("the query"), 5, vec![doc("a")])];
    assert_eq!(evaluate_runs(&[c], &runs, 5).cases[0].trace_name, None);
}

#[test]
fn first_trace_with_the_case_id_wins() {
    let c = case("c1", "q", &["a"], &[], &[]);
    let runs = vec![
        run("t1", Some("c1"), None, 5, vec![doc("x")]),
        run("t2", Some("c1"), None, 5, vec![doc("a")]),
    ];
    let rep = evaluate_runs(&[c], &runs, 5);
    assert_eq!(rep.cases[0].trace_name.as_deref(), Some("t1"));
    assert_eq!(rep.cases[0].level, GoldenLevel::Miss);
}

#[test]
fn case_without_trace_is_miss_with_zero_metrics_and_a_note() {
    let c = case("lonely", "nobody asked", &["x"], &["X"], &["kw"]);
    let rep = evaluate_runs(&[c], &[], 6);
    let r = &rep.cases[0];
    assert_eq!(r.level, GoldenLevel::Miss);
    assert!(r.doc_ranking.is_empty());
    assert_eq!(r.k, 6);
    assert_eq!(
        (r.recall, r.precision, r.reciprocal_rank, r.ndcg),
        (0.0, 0.0, 0.0, 0.0)
    );
    // +0.0, not -0.0: reports must not print "-0".
    assert!(r.ndcg.is_sign_positive() && rep.summary.mean_ndcg.is_sign_positive());
    let note = r.note.clone().unwrap_or_default();
    assert!(note.contains("no trace"), "{note}");
    assert!(
        note.contains("lonely") && note.contains("nobody asked"),
        "{note}"
    );
    let json = serde_json::to_value(r).unwrap();
    assert!(json["traceName"].is_null());
    assert_eq!(json["docRanking"], serde_json::json!([]));
}

#[test]
fn duplicate_case_ids_both_evaluated_and_noted() {
    let cases = vec![
        case("d", "q1", &["a"], &[], &[]),
        case("d", "q2", &["b"], &[], &[]),
    ];
    let runs = vec![run("t", Some("d"), None, 2, vec![doc("a"), doc("b")])];
    let rep = evaluate_runs(&cases, &runs, 5);
    assert_eq!(rep.cases.len(), 2);
    assert_eq!(rep.cases[1].trace_name.as_deref(), Some("t"));
    close(rep.cases[1].reciprocal_rank, 0.5);
    assert!(rep.cases[1]
        .note
        .clone()
        .unwrap_or_default()
        .contains("case 1"));
    assert_eq!(rep.cases[0].note, None);
}

#[test]
fn summary_counts_levels_and_averages_over_all_cases() {
    let cases = vec![
        case("s", "q", &["a"], &[], &[]),
        case("m", "q", &["a"], &["Z"], &[]),
        case("none", "q", &["a"], &[], &[]),
    ];
    let runs = vec![
        run("t-s", Some("s"), None, 2, vec![doc("a")]),
        run("t-m", Some("m"), None, 2, vec![doc("x"), doc("a")]),
    ];
    let rep = evaluate_runs(&cases, &runs, 5);
    let s = &rep.summary;
    assert_eq!(s.cases, 3);
    assert_eq!(
        (
            s.levels.strong,
            s.levels.medium,
            s.levels.weak,
            s.levels.miss
        ),
        (1, 1, 0, 1)
    );
    close(s.mean_recall, (1.0 + 1.0 + 0.0) / 3.0);
    close(s.mean_precision, (0.5 + 0.5 + 0.0) / 3.0);
    close(s.mean_reciprocal_rank, (1.0 + 0.5 + 0.0) / 3.0);
    let d3 = 1.0 / 3f64.log2();
    close(s.mean_ndcg, (1.0 + d3 + 0.0) / 3.0);
}

#[test]
fn empty_case_list_has_zero_means() {
    let rep = evaluate_runs(&[], &[run("t", None, None, 5, vec![])], 5);
    assert_eq!(rep.summary.cases, 0);
    assert_eq!(rep.summary.mean_ndcg, 0.0);
    assert_eq!(rep.unlinked_traces, strings(&["t"]));
    assert!(golden_markdown(&rep).contains("| strong | 0 | – |"));
}

#[test]
fn report_json_has_every_required_key() {
    let c = case("c", "q", &["a"], &[], &[]);
    let rep = evaluate_runs(&[c], &[], 5).with_config(serde_json::json!({"returnN": 5}));
    let v = serde_json::to_value(&rep).unwrap();
    assert_eq!(v["config"]["returnN"], 5);
    for key in [
        "cases",
        "levels",
        "meanRecall",
        "meanPrecision",
        "meanReciprocalRank",
        "meanNdcg",
    ] {
        assert!(v["summary"].get(key).is_some(), "summary.{key}");
    }
    for key in ["strong", "medium", "weak", "miss"] {
        assert!(v["summary"]["levels"][key].is_u64(), "levels.{key}");
    }
    let case = &v["cases"][0];
    for key in [
        "caseId",
        "query",
        "traceName",
        "level",
        "docHit",
        "breadcrumbHit",
        "coverage",
        "docRanking",
        "matchedDocIds",
        "matchedBreadcrumbs",
        "matchedKeywords",
        "k",
        "recall",
        "precision",
        "reciprocalRank",
        "ndcg",
        "note",
    ] {
        assert!(case.get(key).is_some(), "cases[0].{key}");
    }
    assert_eq!(case["level"], "miss");
    assert_eq!(case["k"], 5);
    assert_eq!(case["recall"], 0.0);
}

// ----------------------------------------------------------------- parsing

#[test]
fn parses_object_form_with_snake_case_and_missing_arrays() {
    let text = r#"{"cases": [
        {"case_id": "a", "query": "q", "expected_doc_ids": ["d1", 42], "notes": "n"},
        {"caseId": 7, "expectedKeywords": ["k"], "expectedBreadcrumbs": null}
    ]}"#;
    let set = parse_cases("cases.json", text).unwrap();
    assert!(set.diagnostics.is_empty(), "{:?}", set.diagnostics);
    let a = &set.cases[0];
    assert_eq!(a.case_id, "a");
    assert_eq!(a.expected_doc_ids, strings(&["d1", "42"]));
    assert!(a.expected_breadcrumbs.is_empty() && a.expected_keywords.is_empty());
    assert_eq!(a.notes.as_deref(), Some("n"));
    let b = &set.cases[1];
    assert_eq!(b.case_id, "7");
    assert_eq!(b.query, None);
    assert_eq!(b.expected_keywords, strings(&["k"]));
}

#[test]
fn parses_bare_array_with_bom() {
    let text = "\u{feff}[{\"caseId\": \"x\", \"query\": \"q\"}]";
    let set = parse_cases("cases.json", text).unwrap();
    assert_eq!(set.cases.len(), 1);
}

#[test]
fn malformed_cases_file_reports_line_column_and_line_text() {
    // The error is at `x` on line 2; columns count characters, not UTF-8 bytes.
    let text = "[\n  {\"caseId\": \"支付\", \"query\": x}\n]";
    let errs = parse_cases("cases.json", text).unwrap_err();
    assert_eq!(errs.len(), 1);
    let e = &errs[0];
    assert_eq!(e.source, "cases.json");
    assert_eq!(e.line, Some(2));
    assert_eq!(e.column, Some(29));
    assert_eq!(
        e.line_text.as_deref(),
        Some("  {\"caseId\": \"支付\", \"query\": x}")
    );
    assert!(e.message.contains("malformed JSON"), "{}", e.message);
    assert!(e.to_string().starts_with("cases.json:2:29: "), "{e}");
}

#[test]
fn truncated_cases_file_is_located() {
    let errs = parse_cases("c.json", "{\"cases\": [\n").unwrap_err();
    assert_eq!(errs[0].line, Some(2));
    assert!(errs[0].column.is_some());
}

#[test]
fn wrong_types_are_reported_with_json_pointers_all_at_once() {
    let text = r#"{"cases": [
        {"caseId": "a", "query": "q"},
        {"caseId": "b", "query": 3},
        {"caseId": "c", "expectedDocIds": "d1", "expectedKeywords": ["ok", 5]},
        "not an object",
        {"query": "no id"},
        {"caseId": ["x"], "expected_breadcrumbs": [true]}
    ]}"#;
    let errs = parse_cases("cases.json", text).unwrap_err();
    let paths: Vec<&str> = errs.iter().filter_map(|e| e.path.as_deref()).collect();
    assert_eq!(
        paths,
        vec![
            "/cases/1/query",
            "/cases/2/expectedDocIds",
            "/cases/2/expectedKeywords/1",
            "/cases/3",
            "/cases/4",
            "/cases/5/caseId",
            "/cases/5/expected_breadcrumbs/0",
        ]
    );
    assert!(errs
        .iter()
        .all(|e| e.source == "cases.json" && e.line.is_none()));
    assert!(
        errs[1].message.contains("must be an array"),
        "{}",
        errs[1].message
    );
}

#[test]
fn wrong_top_level_shapes_are_errors() {
    for (text, path) in [
        ("3", ""),
        ("{\"cases\": {}}", "/cases"),
        ("{\"traces\": []}", ""),
    ] {
        let errs = parse_cases("c.json", text).unwrap_err();
        assert_eq!(errs[0].path.as_deref(), Some(path), "{text}");
    }
}

#[test]
fn duplicate_case_ids_are_reported_naming_both_positions() {
    let text = r#"[{"caseId": "a"}, {"caseId": "b"}, {"caseId": "a"}]"#;
    let set = parse_cases("c.json", text).unwrap();
    assert_eq!(set.cases.len(), 3);
    assert_eq!(set.diagnostics.len(), 1);
    let d = &set.diagnostics[0];
    assert_eq!(d.code, "duplicate-case-id");
    assert_eq!(d.path.as_deref(), Some("/2/caseId"));
    assert!(
        d.message.contains("case 1") && d.message.contains("case 3"),
        "{}",
        d.message
    );
}

#[test]
fn parse_cases_value_accepts_already_parsed_objects() {
    let v = serde_json::json!([{"caseId": "a", "expectedDocIds": ["d"]}]);
    let set = parse_cases_value("js", &v).unwrap();
    assert_eq!(set.cases[0].expected_doc_ids, strings(&["d"]));
    let errs = parse_cases_value("js", &serde_json::json!([{"caseId": null}])).unwrap_err();
    assert_eq!(errs[0].path.as_deref(), Some("/0"));
}

#[test]
fn empty_expectations_in_the_file_are_warned_about() {
    let set = parse_cases(
        "c.json",
        r#"[{"caseId": "a", "expectedKeywords": ["ok", " "]}]"#,
    )
    .unwrap();
    assert_eq!(set.diagnostics.len(), 1);
    assert_eq!(
        set.diagnostics[0].path.as_deref(),
        Some("/0/expectedKeywords/1")
    );
}

// ----------------------------------------------------------------- renderings

#[test]
fn markdown_escapes_pipes_newlines_and_markup_in_cells() {
    assert_eq!(md_cell("a|b\nc\r\nd"), "a\\|b<br>c<br>d");
    assert_eq!(md_cell("<script>&*x*"), "&lt;script&gt;&amp;\\*x\\*");
    assert_eq!(md_cell("支付_超时"), "支付\\_超时");

    let mut c = case("id|with\npipe", "q", &["a"], &[], &[]);
    c.query = Some("line1\nline2".into());
    let rep = evaluate_runs(&[c], &[], 5);
    let md = golden_markdown(&rep);
    assert!(md.starts_with("# Golden evaluation\n"));
    let row = md
        .lines()
        .find(|l| l.starts_with("| id"))
        .unwrap_or_else(|| panic!("no case row in\n{md}"));
    assert!(
        row.starts_with("| id\\|with<br>pipe | miss | no | no | – | 5 | 0.000 |"),
        "{row}"
    );
    // Every table row of the case table has the same number of unescaped pipes.
    let cells = |l: &str| l.replace("\\|", "").matches('|').count();
    let header = md
        .lines()
        .find(|l| l.starts_with("| case |"))
        .unwrap_or_default();
    assert_eq!(cells(row), cells(header));
    assert!(md.contains("| miss | 1 | 100.0% |"), "{md}");
}

#[test]
fn trec_files_have_the_standard_columns() {
    let cases = vec![
        case("q 1", "q", &["a", "c"], &[], &[]),
        case("q2", "q", &["z"], &[], &[]),
        case("q2", "q", &[], &[], &[]),
    ];
    let runs = vec![
        run(
            "t1",
            Some("q 1"),
            None,
            5,
            vec![doc("b"), doc("a"), doc("b"), doc("c d")],
        ),
        run("t2", Some("q2"), None, 5, vec![doc("y")]),
    ];
    let rep = evaluate_runs(&cases, &runs, 5);
    assert_eq!(
        trec_qrels(&rep),
        "q_1 0 a 1\nq_1 0 c 1\nq2 0 z 1\nq2#3 0 y 0\n"
    );
    assert_eq!(
        trec_run(&rep, "ragtrace"),
        "q_1 Q0 b 1 3 ragtrace\nq_1 Q0 a 2 2 ragtrace\nq_1 Q0 c_d 3 1 ragtrace\n\
         q2 Q0 y 1 1 ragtrace\nq2#3 Q0 y 1 1 ragtrace\n"
    );
}

#[test]
fn summary_text_is_one_line_per_case() {
    let c = case("c\nx", "q", &["a"], &[], &[]);
    let rep = evaluate_runs(&[c], &[run("t", None, None, 5, vec![])], 5);
    let text = golden_summary_text(&rep);
    assert!(text.starts_with("golden evaluation: 1 cases\n"), "{text}");
    assert!(text.contains("  c x: miss (recall 0.000"), "{text}");
    assert!(text.contains("traces no case links to: t"), "{text}");
}
