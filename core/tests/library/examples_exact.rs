//! Exact outputs on the spec's example fixtures; every number computed by hand from the contract.
#![allow(clippy::type_complexity)] // tuples of expected columns read best inline

use crate::common;

use common::fixture;
use ragtrace_core::CanonicalLabel;
use ragtrace_core::{analyze, Analysis, Level, Settings, Status};
use ragtrace_core::{parse_documents, TraceKind};

fn analyse(files: &[&str], settings: &Settings) -> Analysis {
    let docs: Vec<(String, String)> = files.iter().map(|f| (f.to_string(), fixture(f))).collect();
    let batch = parse_documents(&docs);
    assert!(batch.errors.is_empty(), "{:?}", batch.errors);
    analyze(&batch, settings, true).unwrap()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

#[test]
fn dense_trace_statuses_qualities_and_level() {
    let a = analyse(&["dense-trace.json"], &Settings::default());
    let t = &a.traces[0];
    assert_eq!(t.name(), "req-dense-001");
    assert_eq!(t.trace.kind, TraceKind::RerankTrace);
    assert_eq!(t.mode(), Some(CanonicalLabel::Dense));
    // The trace's options win over defaults: M 1.2, returnN 4, cap 2.
    assert_eq!(t.config.max_l2_distance, 1.2);
    assert_eq!(t.config.return_n, 4);
    assert_eq!(t.config.max_chunks_per_document, 2);
    assert!(t.used_trace_options);
    // The batch config is defaults plus user settings only.
    assert_eq!(a.config.max_l2_distance, 1.0);

    let got: Vec<(&str, u64, Status, Option<usize>, Option<u64>)> = t
        .blocks()
        .map(|b| {
            (
                &*b.candidate.evidence_key,
                b.original_rank.unwrap(),
                b.status,
                b.accepted_rank,
                b.duplicate_of_rank,
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("kb-redis#3", 1, Status::Accepted, Some(1), None),
            ("kb-redis#4", 2, Status::Accepted, Some(2), None),
            ("kb-redis#3", 3, Status::Duplicate, None, Some(1)),
            ("kb-redis#9", 4, Status::DocCap, None, None),
            ("kb-session#1", 5, Status::Accepted, Some(3), None),
            ("kb-mysql#2", 6, Status::Accepted, Some(4), None),
            ("kb-k8s#7", 7, Status::ReturnN, None, None),
        ]
    );
    let q: Vec<f64> = t.blocks().map(|b| b.quality_score).collect();
    let expected = [
        1.0 - 0.41 / 1.2,
        1.0 - 0.58 / 1.2,
        1.0 - 0.62 / 1.2,
        1.0 - 0.77 / 1.2,
        1.0 - 0.93 / 1.2,
        0.0, // 1.31 > M
        0.0, // null score
    ];
    for (got, want) in q.iter().zip(expected) {
        assert!(close(*got, want), "{q:?}");
    }
    // Top quality 0.6583 is below 0.75: RELEVANT, although the service recorded HIGHLY_RELEVANT.
    assert!(close(t.top_quality.unwrap(), 1.0 - 0.41 / 1.2));
    assert_eq!(t.relevance_level, Level::Relevant);
    assert_eq!(
        t.trace.recorded_relevance_level.as_deref(),
        Some("HIGHLY_RELEVANT")
    );
    assert!(t.level_differs);
    assert!(!t.low_quality);
    assert_eq!(t.trace.recorded_low_quality, Some(false));
    assert!(!t.low_quality_differs);
    assert!(!t.retry_unfiltered);
    assert_eq!(t.trace.recorded_top_similarity, Some(0.6583));
    assert_eq!(t.trace.legacy_labels.len(), 1);
    assert_eq!(t.trace.legacy_labels.get("l2_distance"), Some(&1));
    assert!(t.trace.legacy.is_none());
    assert!(t.blocks().all(|b| b.legacy_position.is_none()));
    assert_eq!(t.stages.duplicates, 1);
    assert_eq!(t.stages.doc_capped, 1);
    assert_eq!(t.stages.return_n_cut, 1);
    assert_eq!(t.stages.accepted, 4);
    assert_eq!(
        t.block(0).unwrap().quality_explanation.to_string(),
        "1 - min(0.41, 1.2) / 1.2 = 0.658"
    );
    assert_eq!(
        t.block(2).unwrap().status_reason().to_string(),
        "duplicate of rank 1"
    );
    assert_eq!(
        t.block(3).unwrap().status_reason().to_string(),
        "kb-redis already has 2 blocks"
    );
    assert_eq!(
        t.block(6).unwrap().status_reason().to_string(),
        "beyond return-n (4)"
    );
    assert_eq!(
        t.block(6).unwrap().quality_explanation.to_string(),
        "no score -> 0"
    );
    // The golden evaluation sees the accepted blocks with their full text.
    let accepted: Vec<&str> = t.accepted_blocks().map(|b| &*b.candidate.doc_id).collect();
    assert_eq!(accepted, ["kb-redis", "kb-redis", "kb-session", "kb-mysql"]);
}

#[test]
fn dense_trace_under_user_settings() {
    let mut settings = Settings::default();
    settings.set("returnN", "2").unwrap();
    settings.set("excerptMaxChars", "10").unwrap();
    settings.set("referenceThreshold", "0.7").unwrap();
    let a = analyse(&["dense-trace.json"], &settings);
    let t = &a.traces[0];
    assert_eq!(t.config.return_n, 2);
    assert_eq!(t.config.max_l2_distance, 1.2);
    let statuses: Vec<Status> = t.blocks().map(|b| b.status).collect();
    assert_eq!(
        statuses,
        [
            Status::Accepted,
            Status::Accepted,
            Status::Duplicate,
            Status::DocCap,
            Status::ReturnN,
            Status::ReturnN,
            Status::ReturnN
        ]
    );
    let excerpt = t.block(0).unwrap().shown_excerpt().unwrap();
    assert_eq!(excerpt.shown(), "allkeys-lr…");
    assert!(excerpt.full().ends_with("maxmemory is reached."));
    // 0.658 < 0.7: low quality, with a category filter -> retry unfiltered.
    assert_eq!(t.relevance_level, Level::LowRelevance);
    assert!(t.low_quality);
    assert!(t.retry_unfiltered);
    assert!(t.low_quality_differs);

    // Ignoring the recorded options: M 1.0, returnN 5.
    let settings = Settings {
        use_trace_options: false,
        ..Settings::default()
    };
    let t = &analyse(&["dense-trace.json"], &settings).traces[0];
    assert!(!t.used_trace_options);
    assert!(close(t.block(0).unwrap().quality_score, 1.0 - 0.41));
    assert_eq!(t.block(6).unwrap().status, Status::Accepted); // 5 accepted: ranks 1, 2, 5, 6, 7
    assert_eq!(t.relevance_level, Level::Relevant);
}

#[test]
fn hybrid_legacy_trace_rank_quality_and_legacy_comparison() {
    let a = analyse(&["hybrid-legacy-trace.json"], &Settings::default());
    let t = &a.traces[0];
    assert_eq!(t.mode(), Some(CanonicalLabel::Hybrid));
    assert_eq!(t.config.return_n, 3);
    assert_eq!(t.config.max_chunks_per_document, 1);
    let got: Vec<(&str, Status, f64, Option<usize>, Option<i64>)> = t
        .blocks()
        .map(|b| {
            (
                &*b.candidate.evidence_key,
                b.status,
                b.quality_score,
                b.legacy_position,
                b.displacement,
            )
        })
        .collect();
    // Rank quality (n = 5): 1, 0.8, 0.6, 0.4, 0.2. finalScores 0.52, 0.44, 0.55, 0.36, 0.0
    // sort to legacy positions 2, 3, 1, 4, 5.
    assert_eq!(
        got,
        [
            ("pay-timeout#0", Status::Accepted, 1.0, Some(2), Some(-1)),
            ("pay-timeout#1", Status::DocCap, 0.8, Some(3), Some(-1)),
            ("order-faq#5", Status::Accepted, 0.6, Some(1), Some(2)),
            ("mq-retry#2", Status::Accepted, 0.4, Some(4), Some(0)),
            ("gateway#8", Status::ReturnN, 0.2, Some(5), Some(0)),
        ]
    );
    // 10 pairs, 2 discordant ((1,3), (2,3)): tau = (8 - 2) / 10.
    let legacy = t.trace.legacy.unwrap();
    assert!(close(legacy.kendall_tau, 0.6));
    assert_eq!(legacy.promoted, 1);
    assert_eq!(t.top_quality, Some(1.0));
    assert_eq!(t.relevance_level, Level::Precise);
    // Recorded with snake_case keys.
    assert_eq!(
        t.trace.recorded_relevance_level.as_deref(),
        Some("RELEVANT")
    );
    assert_eq!(t.trace.recorded_low_quality, Some(false));
    assert!(!t.low_quality);
    assert!(t.low_quality_gate_inert);
    assert!(t
        .diagnostics()
        .into_iter()
        .any(|d| d.code == "low-quality-gate-inert"));
    assert_eq!(t.trace.legacy_labels.get("rrf_fused"), Some(&1));
    assert_eq!(t.trace.legacy_labels.get("bm25_only_no_dense"), Some(&1));
    assert_eq!(t.trace.legacy_labels.len(), 2);
    assert_eq!(
        t.block(1).unwrap().status_reason().to_string(),
        "pay-timeout already has 1 block"
    );
    assert_eq!(
        t.block(2).unwrap().quality_explanation.to_string(),
        "rank 3 of 5 -> 0.6"
    );
    assert!(a
        .warnings
        .iter()
        .any(|w| w.code == "low-quality-gate-inert" && w.traces == 1));
}

#[test]
fn hybrid_trace_what_if_dense_quality() {
    let mut settings = Settings::default();
    settings.set("hybridQuality", "denseWhenPresent").unwrap();
    let t = &analyse(&["hybrid-legacy-trace.json"], &settings).traces[0];
    // r1 dense 0.72 -> 0.28; r3 has no denseDistance -> rank 0.6; r4 0.95 -> 0.05.
    assert!(close(t.block(0).unwrap().quality_score, 1.0 - 0.72));
    assert!(close(t.block(2).unwrap().quality_score, 0.6));
    assert!(close(t.block(3).unwrap().quality_score, 1.0 - 0.95));
    assert!(close(t.top_quality.unwrap(), 0.6));
    assert_eq!(t.relevance_level, Level::Relevant);
    assert!(!t.low_quality_gate_inert);
    // The order does not move.
    let statuses: Vec<Status> = t.blocks().map(|b| b.status).collect();
    assert_eq!(
        statuses,
        [
            Status::Accepted,
            Status::DocCap,
            Status::Accepted,
            Status::Accepted,
            Status::ReturnN
        ]
    );
    settings.set("hybridQuality", "maxRankDense").unwrap();
    let t = &analyse(&["hybrid-legacy-trace.json"], &settings).traces[0];
    assert_eq!(t.block(0).unwrap().quality_score, 1.0);
    assert!(close(t.block(4).unwrap().quality_score, 0.2)); // dense 1.4 -> 0, rank 0.2
}

#[test]
fn lookup_results_with_and_without_embedded_trace() {
    let a = analyse(&["lookup-result.jsonl"], &Settings::default());
    assert_eq!(a.traces.len(), 2);

    let t = &a.traces[0];
    assert_eq!(t.trace.kind, TraceKind::LookupResult);
    assert_eq!(t.name(), "#1");
    assert_eq!(t.trace.line, Some(1));
    assert!(t.trace.n_approximated);
    assert!(t.diagnostics().iter().any(|d| d.code == "n-approximated"));
    let q: Vec<f64> = t.blocks().map(|b| b.quality_score).collect();
    assert!(close(q[0], 1.0 - 0.18) && close(q[1], 1.0 - 0.35), "{q:?}");
    assert_eq!(t.relevance_level, Level::HighlyRelevant);
    assert_eq!(t.trace.recorded_relevance_level.as_deref(), Some("PRECISE"));
    assert_eq!(t.trace.recorded_top_similarity, Some(0.91));
    assert_eq!(t.mode(), Some(CanonicalLabel::Dense));
    assert!(t.evidence_comparison.is_none());

    let t = &a.traces[1];
    assert_eq!(t.name(), "req-xss-1");
    assert_eq!(t.trace.line, Some(2));
    assert_eq!(t.mode(), Some(CanonicalLabel::Hybrid));
    assert_eq!(t.trace.category_filter.as_deref(), Some("hr"));
    // The embedded trace supplies the trace fields; the level falls back to the outer one.
    assert_eq!(
        t.trace.recorded_relevance_level.as_deref(),
        Some("LOW_RELEVANCE")
    );
    assert_eq!(t.trace.query, None);
    assert_eq!(
        t.trace.lookup_query.as_deref(),
        Some("<script>alert('x')</script> payroll export")
    );
    assert_eq!(t.top_quality, Some(1.0));
    assert_eq!(t.relevance_level, Level::Precise);
    assert!(!t.trace.n_approximated);
    let cmp = t.evidence_comparison.as_ref().unwrap();
    assert!(!cmp.same);
    assert!(cmp.recorded.is_empty());
    assert_eq!(cmp.unexpected.len(), 1);
    assert_eq!(&*cmp.unexpected[0], "hr#1");
    // Text is kept verbatim; escaping is the page's job.
    assert!(t.block(0).unwrap().full_excerpt().starts_with("<img src=x"));
}

#[test]
fn all_fixtures_as_one_batch_summary_and_sweep() {
    let a = analyse(
        &[
            "dense-trace.json",
            "hybrid-legacy-trace.json",
            "lookup-result.jsonl",
        ],
        &Settings::default(),
    );
    let names: Vec<String> = a.traces.iter().map(|t| t.name().into_owned()).collect();
    // Positions continue across files: the unnamed LookupResult is the third trace.
    assert_eq!(
        names,
        ["req-dense-001", "req-hybrid-042", "#3", "req-xss-1"]
    );
    let s = &a.summary;
    assert_eq!(s.all.traces, 4);
    assert_eq!(s.all.levels.get(&Level::Relevant), Some(&1));
    assert_eq!(s.all.levels.get(&Level::Precise), Some(&2));
    assert_eq!(s.all.levels.get(&Level::HighlyRelevant), Some(&1));
    assert_eq!(s.all.levels.get(&Level::NoMatch), None);
    assert_eq!(s.all.recorded_levels.get("HIGHLY_RELEVANT"), Some(&1));
    assert_eq!(s.all.recorded_levels.get("RELEVANT"), Some(&1));
    assert_eq!(s.all.recorded_levels.get("PRECISE"), Some(&1));
    assert_eq!(s.all.recorded_levels.get("LOW_RELEVANCE"), Some(&1));
    assert_eq!(s.all.transitions.get("HIGHLY_RELEVANT->RELEVANT"), Some(&1));
    assert_eq!(s.all.transitions.get("RELEVANT->PRECISE"), Some(&1));
    assert_eq!(s.all.transitions.get("PRECISE->HIGHLY_RELEVANT"), Some(&1));
    assert_eq!(s.all.transitions.get("LOW_RELEVANCE->PRECISE"), Some(&1));
    assert_eq!(s.all.low_quality, 0);
    assert_eq!(s.all.retry_unfiltered, 0);
    assert_eq!(s.by_mode.dense.traces, 2);
    assert_eq!(s.by_mode.hybrid.traces, 2);
    assert_eq!(s.by_mode.hybrid.levels.get(&Level::Precise), Some(&2));

    // Top qualities 0.6583, 1.0, 0.82, 1.0 (all four have accepted blocks).
    let sweep = a.sweep.as_ref().unwrap();
    assert_eq!(sweep.len(), 101);
    assert_eq!(sweep[0].threshold, 0.0);
    assert_eq!(sweep[0].fraction, 1.0);
    assert_eq!(sweep[66].threshold, 0.66);
    assert_eq!(sweep[65].fraction, 1.0);
    assert_eq!(sweep[66].fraction, 0.75);
    assert_eq!(sweep[82].threshold, 82.0 / 100.0);
    assert_eq!(sweep[82].fraction, 0.75); // 1.0, 1.0 and 0.8200000000000001 >= 0.82
    assert_eq!(sweep[83].fraction, 0.5);
    assert_eq!(sweep[100].fraction, 0.5);

    let json = serde_json::to_value(&a).unwrap();
    assert!(json["sweep"].is_array());
    let block = &json["traces"][0]["blocks"][0];
    for key in [
        "evidenceKey",
        "docId",
        "originalRank",
        "scoreLabel",
        "canonicalLabel",
        "score",
        "qualityScore",
        "status",
        "acceptedRank",
        "duplicateOfRank",
        "excerpt",
        "legacyPosition",
        "displacement",
    ] {
        assert!(block.as_object().unwrap().contains_key(key), "{key}");
    }
    assert!(block["legacyPosition"].is_null());
    assert_eq!(json["traces"][0]["relevanceLevel"], "RELEVANT");
    assert_eq!(json["traces"][0]["blocks"][3]["status"], "doc_cap");
    assert_eq!(json["traces"][0]["blocks"][6]["status"], "return_n");
    assert_eq!(json["summary"]["byMode"]["dense"]["traces"], 2);
    assert_eq!(json["traces"][1]["legacy"]["kendallTau"], 0.6);

    let without = analyze(
        &parse_documents(&[("d".into(), fixture("dense-trace.json"))]),
        &Settings::default(),
        false,
    )
    .unwrap();
    assert!(serde_json::to_value(&without)
        .unwrap()
        .get("sweep")
        .is_none());
}
