//! Golden evaluation of `golden-cases.json` against runs built by hand from
//! `dense-trace.json` and `golden-runs.json` (the accepted blocks the pipeline
//! keeps under each trace's options), with hand-computed expectations.

// Inside a `golden` module so `cargo test golden` selects every test here.
mod golden {

    use crate::common::fixture;
    use ragtrace_core::{
        evaluate_runs, parse_cases, GoldenLevel, GoldenReport, LinkedBy, RunBlock, RunTrace,
    };
    use ragtrace_core::{golden_markdown, golden_summary_text, trec_qrels, trec_run};
    use serde_json::Value;

    const EPS: f64 = 1e-12;

    fn close(actual: f64, expected: f64, what: &str) {
        assert!(
            (actual - expected).abs() < EPS,
            "{what}: expected {expected}, got {actual}"
        );
    }

    fn block(doc: &str, crumb: &str, title: Option<&str>, excerpt: &str) -> RunBlock {
        RunBlock {
            doc_id: doc.to_owned(),
            breadcrumb: Some(crumb.to_owned()),
            title: title.map(str::to_owned),
            excerpt: Some(excerpt.to_owned()),
        }
    }

    /// dense-trace.json under its options (returnN 4, maxChunksPerDocument 2):
    /// kb-redis's chunks 3 and 4 accepted, its chunk 3 again a duplicate, its chunk 9
    /// over the per-document cap, the chunks of kb-session and kb-mysql accepted,
    /// kb-k8s's over returnN. No caseId: linked by query.
    fn redis_run() -> RunTrace {
        RunTrace {
            name: "req-dense-001".into(),
            case_id: None,
            query: Some("redis eviction policy keeps dropping session keys".into()),
            k: 4,
            blocks: vec![
            block(
                "kb-redis",
                "Ops > Redis > Eviction",
                Some("Redis eviction"),
                "allkeys-lru evicts any key, including session keys, once maxmemory is reached.",
            ),
            block(
                "kb-redis",
                "Ops > Redis > Eviction",
                None,
                "volatile-lru only evicts keys that carry a TTL.",
            ),
            block(
                "kb-session",
                "Apps > Session store",
                None,
                "Sessions are stored in Redis with a 30 minute TTL.",
            ),
            block(
                "kb-mysql",
                "Ops > MySQL > Buffer pool",
                None,
                "innodb_buffer_pool_size should be 70% of RAM.",
            ),
        ],
        }
    }

    /// golden-runs.json, in batch order after dense-trace.json.
    fn other_runs() -> Vec<RunTrace> {
        vec![
            RunTrace {
                name: "req-pay-001".into(),
                case_id: Some("pay-timeout".into()),
                query: Some("订单支付超时回调怎么重试".into()),
                k: 5,
                blocks: vec![
                    block(
                        "pay-callback",
                        "支付 > 回调",
                        Some("支付回调"),
                        "回调失败后按指数退避重试，最多 5 次。",
                    ),
                    block(
                        "pay-faq",
                        "支付 > 常见问题",
                        None,
                        "订单超时未支付会自动关闭。",
                    ),
                ],
            },
            RunTrace {
                name: "req-gw-001".into(),
                case_id: Some("gateway-tls".into()),
                query: Some("rotate gateway tls cert".into()),
                k: 3,
                blocks: vec![
                    block(
                        "gw-cert-faq",
                        "Gateway > Certificates > FAQ",
                        None,
                        "Certificates are renewed by cert-manager.",
                    ),
                    block(
                        "gw-runbook",
                        "Ops > Gateway > Runbook",
                        None,
                        "Rotate secrets with the runbook script.",
                    ),
                ],
            },
            // Its query equals the no-run case's, but it carries another caseId,
            // so it must not be linked by query (and its doc "x" must not count).
            RunTrace {
                name: "req-other-001".into(),
                case_id: Some("unrelated".into()),
                query: Some("a case with no retrieval run".into()),
                k: 5,
                blocks: vec![block("x", "X", None, "x")],
            },
        ]
    }

    fn all_runs() -> Vec<RunTrace> {
        let mut runs = vec![redis_run()];
        runs.extend(other_runs());
        runs
    }

    fn report() -> GoldenReport {
        let set = parse_cases("golden-cases.json", &fixture("golden-cases.json"))
            .unwrap_or_else(|e| panic!("{e:?}"));
        assert!(set.diagnostics.is_empty(), "{:?}", set.diagnostics);
        evaluate_runs(&set.cases, &all_runs(), 5)
            .with_config(serde_json::json!({"returnN": 5}))
            .with_diagnostics(set.diagnostics)
    }

    /// The hand-built blocks copy the fixture candidates faithfully.
    #[test]
    fn hand_built_blocks_match_the_fixture_candidates() {
        let dense: Value = serde_json::from_str(&fixture("dense-trace.json")).unwrap();
        let batch: Value = serde_json::from_str(&fixture("golden-runs.json")).unwrap();
        let mut traces = vec![dense];
        traces.extend(batch["traces"].as_array().unwrap().iter().cloned());
        let runs = all_runs();
        assert_eq!(traces.len(), runs.len());
        for (trace, run) in traces.iter().zip(&runs) {
            assert_eq!(trace["requestId"], run.name.as_str());
            assert_eq!(trace["query"].as_str(), run.query.as_deref());
            assert_eq!(trace["caseId"].as_str(), run.case_id.as_deref());
            let candidates = trace["candidates"].as_array().unwrap();
            for b in &run.blocks {
                let found = candidates.iter().any(|c| {
                    c["docId"] == b.doc_id.as_str()
                        && c["breadcrumb"].as_str() == b.breadcrumb.as_deref()
                        && c["title"].as_str() == b.title.as_deref()
                        && c["excerpt"].as_str() == b.excerpt.as_deref()
                });
                assert!(found, "{}: no candidate like {b:?}", run.name);
            }
        }
    }

    #[test]
    fn redis_case_is_strong_linked_by_query() {
        let rep = report();
        let r = &rep.cases[0];
        assert_eq!(r.case_id, "redis-eviction");
        assert_eq!(r.trace_name.as_deref(), Some("req-dense-001"));
        assert_eq!(r.linked_by, Some(LinkedBy::Query));
        assert_eq!(r.doc_ranking, ["kb-redis", "kb-session", "kb-mysql"]);
        assert!(r.doc_hit && r.breadcrumb_hit && r.evidence_hit);
        assert_eq!(r.matched_breadcrumbs, ["Redis > Eviction"]);
        assert_eq!(r.matched_keywords, ["allkeys-lru", "maxmemory"]);
        assert_eq!(r.coverage, Some(1.0));
        assert_eq!(r.level, GoldenLevel::Strong);
        assert_eq!(r.unexpected_doc_ids, ["kb-session", "kb-mysql"]);
        // k = 4, 3 distinct documents, the one expected at rank 1.
        assert_eq!(r.k, 4);
        close(r.recall, 1.0, "recall");
        close(r.precision, 0.25, "precision");
        close(r.reciprocal_rank, 1.0, "rr");
        close(r.ndcg, 1.0, "ndcg");
    }

    #[test]
    fn chinese_case_is_weak_via_coverage() {
        let rep = report();
        let r = &rep.cases[1];
        assert_eq!(r.case_id, "pay-timeout");
        assert_eq!(r.linked_by, Some(LinkedBy::CaseId));
        assert!(!r.doc_hit && !r.breadcrumb_hit);
        assert_eq!(r.coverage, Some(0.5));
        assert_eq!(r.matched_keywords, ["指数退避"]);
        assert_eq!(r.missing_keywords, ["人工对账"]);
        assert_eq!(r.missing_doc_ids, ["pay-timeout"]);
        assert_eq!(r.level, GoldenLevel::Weak);
        assert_eq!(
            (r.recall, r.precision, r.reciprocal_rank, r.ndcg),
            (0.0, 0.0, 0.0, 0.0)
        );
    }

    #[test]
    fn gateway_case_is_medium_with_more_expected_than_found() {
        let rep = report();
        let r = &rep.cases[2];
        assert_eq!(r.case_id, "gateway-tls");
        assert!(r.doc_hit && !r.breadcrumb_hit);
        assert_eq!(r.coverage, None);
        assert!(!r.evidence_hit);
        assert_eq!(r.level, GoldenLevel::Medium);
        assert_eq!(r.matched_doc_ids, ["gw-runbook"]);
        assert_eq!(r.missing_doc_ids, ["gw-tls"]);
        // k = 3, ranking [gw-cert-faq, gw-runbook], relevant {gw-tls, gw-runbook}.
        let d3 = 1.0 / 3f64.log2();
        close(r.recall, 0.5, "recall");
        close(r.precision, 1.0 / 3.0, "precision");
        close(r.reciprocal_rank, 0.5, "rr");
        close(r.ndcg, d3 / (1.0 + d3), "ndcg");
    }

    #[test]
    fn case_without_trace_is_miss_even_with_a_same_query_trace_under_another_case_id() {
        let rep = report();
        let r = &rep.cases[3];
        assert_eq!(r.case_id, "no-run");
        assert_eq!(r.trace_name, None);
        assert_eq!(r.level, GoldenLevel::Miss);
        assert!(r.doc_ranking.is_empty());
        assert_eq!(r.k, 5);
        assert!(r.note.as_deref().unwrap_or_default().contains("no trace"));
        assert_eq!(rep.unlinked_traces, ["req-other-001"]);
    }

    #[test]
    fn summary_of_the_fixture() {
        let s = report().summary;
        assert_eq!(s.cases, 4);
        assert_eq!(
            (
                s.levels.strong,
                s.levels.medium,
                s.levels.weak,
                s.levels.miss
            ),
            (1, 1, 1, 1)
        );
        let d3 = 1.0 / 3f64.log2();
        close(s.mean_recall, 1.5 / 4.0, "mean recall");
        close(s.mean_precision, (0.25 + 1.0 / 3.0) / 4.0, "mean precision");
        close(s.mean_reciprocal_rank, 1.5 / 4.0, "mrr");
        close(s.mean_ndcg, (1.0 + d3 / (1.0 + d3)) / 4.0, "mean ndcg");
    }

    #[test]
    fn report_json_follows_the_contract_schema() {
        let v = serde_json::to_value(report()).unwrap();
        assert_eq!(v["config"]["returnN"], 5);
        assert_eq!(
            v["summary"]["levels"],
            serde_json::json!({"strong": 1, "medium": 1, "weak": 1, "miss": 1})
        );
        let cases = v["cases"].as_array().unwrap();
        let ids: Vec<&str> = cases.iter().filter_map(|c| c["caseId"].as_str()).collect();
        assert_eq!(
            ids,
            ["redis-eviction", "pay-timeout", "gateway-tls", "no-run"]
        );
        assert_eq!(cases[0]["level"], "strong");
        assert_eq!(cases[0]["docRanking"][1], "kb-session");
        assert!(cases[2]["coverage"].is_null());
        assert!(cases[3]["traceName"].is_null());
        assert!(cases[0]["note"].is_null());
        assert_eq!(v["unlinkedTraces"], serde_json::json!(["req-other-001"]));
    }

    #[test]
    fn trec_files_of_the_fixture() {
        let rep = report();
        assert_eq!(
            trec_qrels(&rep),
            "redis-eviction 0 kb-redis 1\n\
         pay-timeout 0 pay-timeout 1\n\
         gateway-tls 0 gw-tls 1\n\
         gateway-tls 0 gw-runbook 1\n\
         no-run 0 x 1\n"
        );
        assert_eq!(
            trec_run(&rep, "ragtrace"),
            "redis-eviction Q0 kb-redis 1 3 ragtrace\n\
         redis-eviction Q0 kb-session 2 2 ragtrace\n\
         redis-eviction Q0 kb-mysql 3 1 ragtrace\n\
         pay-timeout Q0 pay-callback 1 2 ragtrace\n\
         pay-timeout Q0 pay-faq 2 1 ragtrace\n\
         gateway-tls Q0 gw-cert-faq 1 2 ragtrace\n\
         gateway-tls Q0 gw-runbook 2 1 ragtrace\n"
        );
    }

    #[test]
    fn markdown_and_summary_text_of_the_fixture() {
        let rep = report();
        let md = golden_markdown(&rep);
        assert!(md.contains("| strong | 1 | 25.0% |"), "{md}");
        assert!(md.contains("| recall@k | 0.375 |"), "{md}");
        assert!(
        md.contains("| redis-eviction | strong | yes | yes | 1.000 | 4 | 1.000 | 0.250 | 1.000 | 1.000 | 1.000 | req-dense-001 |  |"),
        "{md}"
    );
        assert!(
        md.contains("| gateway-tls | medium | yes | no | – | 3 | 0.500 | 0.333 | 0.500 | 0.387 | 0.250 | req-gw-001 |  |"),
        "{md}"
    );
        assert!(md.contains("- req-other-001"), "{md}");
        let text = golden_summary_text(&rep);
        assert!(text.contains("golden evaluation: 4 cases"), "{text}");
        assert!(text.contains("no-run: miss"), "{text}");
    }
}
