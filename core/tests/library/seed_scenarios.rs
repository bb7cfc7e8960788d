//! One test per scenario of the seed spec (`docs/seed-quality-score.md`), numbers by hand
//! from the contract.

use ragtrace_core::quality_score;
use ragtrace_core::CanonicalLabel;
use ragtrace_core::HybridQuality;
use ragtrace_core::{analyze, parse_value, Config, Level, Settings, Status, TraceAnalysis};
use serde_json::{json, Value};

fn run(trace: Value, settings: &Settings) -> TraceAnalysis {
    let batch = parse_value("test", &trace);
    assert!(batch.errors.is_empty(), "{:?}", batch.errors);
    let mut analysis = analyze(&batch, settings, false).unwrap();
    assert_eq!(analysis.traces.len(), 1);
    analysis.traces.remove(0)
}

fn statuses(t: &TraceAnalysis) -> Vec<(String, Status)> {
    t.blocks()
        .map(|b| (b.evidence_key.to_string(), b.status))
        .collect()
}

#[test]
fn dense_mode_labels_hits_as_dense() {
    // Hits without a label take the trace mode; the score is read as an L2 distance.
    let t = run(
        json!({"mode": "dense", "candidates": [
            {"evidenceKey": "a", "originalRank": 1, "score": 0.25},
            {"evidenceKey": "b", "originalRank": 2, "score": 0.5, "scoreLabel": "dense"}
        ]}),
        &Settings::default(),
    );
    assert_eq!(t.mode(), Some(CanonicalLabel::Dense));
    for b in t.blocks() {
        assert_eq!(b.canonical_label, Some(CanonicalLabel::Dense));
    }
    assert_eq!(t.block(0).unwrap().quality_score, 0.75);
    assert_eq!(t.block(1).unwrap().quality_score, 0.5);
}

#[test]
fn hybrid_mode_labels_hits_as_hybrid() {
    // Order follows originalRank, not the input order and not the fused score.
    let t = run(
        json!({"mode": "hybrid", "candidates": [
            {"evidenceKey": "c", "originalRank": 3, "score": 0.9},
            {"evidenceKey": "a", "originalRank": 1, "score": 0.01},
            {"evidenceKey": "b", "originalRank": 2, "score": 0.5}
        ]}),
        &Settings::default(),
    );
    assert_eq!(t.mode(), Some(CanonicalLabel::Hybrid));
    let keys: Vec<&str> = t.blocks().map(|b| &*b.candidate.evidence_key).collect();
    assert_eq!(keys, ["a", "b", "c"]);
    let ranks: Vec<Option<usize>> = t.blocks().map(|b| b.accepted_rank).collect();
    assert_eq!(ranks, [Some(1), Some(2), Some(3)]);
    assert!(t
        .blocks()
        .all(|b| b.canonical_label == Some(CanonicalLabel::Hybrid)));
}

#[test]
fn legacy_aliases_canonicalize() {
    let t = run(
        json!({"candidates": [
            {"evidenceKey": "a", "originalRank": 1, "score": 0.2, "scoreLabel": "l2_distance"},
            {"evidenceKey": "b", "originalRank": 2, "score": 0.1, "scoreLabel": "rrf_fused"},
            {"evidenceKey": "c", "originalRank": 3, "score": 0.1, "scoreLabel": "bm25_only_no_dense"},
            {"evidenceKey": "d", "originalRank": 4, "score": 0.1, "scoreLabel": " BM25_ONLY "}
        ]}),
        &Settings::default(),
    );
    let labels: Vec<_> = t.blocks().map(|b| b.canonical_label).collect();
    assert_eq!(
        labels,
        [
            Some(CanonicalLabel::Dense),
            Some(CanonicalLabel::Hybrid),
            Some(CanonicalLabel::Hybrid),
            Some(CanonicalLabel::Hybrid)
        ]
    );
    // Quality is computed on the canonical label: dense 1 - 0.2 = 0.8; hybrid ranks 2,3 of 4.
    assert!((t.block(0).unwrap().quality_score - 0.8).abs() < 1e-12);
    assert_eq!(t.block(1).unwrap().quality_score, 0.75);
    assert_eq!(t.block(2).unwrap().quality_score, 0.5);
    assert_eq!(t.trace.legacy_labels.get("l2_distance"), Some(&1));
    assert_eq!(t.trace.legacy_labels.get("rrf_fused"), Some(&1));
    assert_eq!(t.trace.legacy_labels.get("bm25_only_no_dense"), Some(&1));
    assert_eq!(t.trace.legacy_labels.get("bm25_only"), Some(&1));
    assert!(t.blocks().all(|b| b.legacy_alias));
    // Mixed dense and hybrid labels with no trace mode: the trace mode is unknown.
    assert_eq!(t.mode(), None);
}

#[test]
fn no_l2_enrichment_overwrite() {
    // A hybrid hit's score is never read as an L2 distance, even when it looks like one
    // (0.0 would be a perfect distance); rank alone decides under `rank`.
    let t = run(
        json!({"mode": "hybrid", "candidates": [
            {"evidenceKey": "a", "originalRank": 1, "score": 1.9, "denseDistance": 1.9},
            {"evidenceKey": "b", "originalRank": 2, "score": 0.0}
        ]}),
        &Settings::default(),
    );
    assert_eq!(t.block(0).unwrap().quality_score, 1.0);
    assert_eq!(t.block(1).unwrap().quality_score, 0.5);
    assert_eq!(t.block(0).unwrap().score, Some(1.9));
}

#[test]
fn dense_quality_from_l2() {
    let config = Config {
        max_l2_distance: 1.2,
        ..Config::default()
    };
    let dense = Some(CanonicalLabel::Dense);
    let q = |d: Option<f64>| quality_score(dense, d, 1, 3, &config, None);
    assert!((q(Some(0.41)) - (1.0 - 0.41 / 1.2)).abs() < 1e-15);
    assert_eq!(q(Some(1.2)), 0.0);
    assert_eq!(q(Some(1.31)), 0.0);
    assert_eq!(q(Some(0.0)), 1.0);
    assert_eq!(q(None), 0.0);
    assert_eq!(q(Some(f64::NAN)), 0.0);
    assert_eq!(q(Some(f64::INFINITY)), 0.0);
    assert_eq!(q(Some(-0.3)), 1.0);
}

#[test]
fn hybrid_quality_from_rank() {
    let config = Config::default();
    let hybrid = Some(CanonicalLabel::Hybrid);
    let q = |r: u64, n: usize| quality_score(hybrid, Some(0.5), r, n, &config, Some(0.1));
    assert_eq!(q(1, 1), 1.0);
    assert_eq!(q(1, 5), 1.0);
    assert_eq!(q(2, 5), 0.8);
    assert_eq!(q(5, 5), 0.2);
    assert_eq!(q(9, 5), 0.2); // clamped into [1, n]
    for n in 1..20usize {
        for r in 1..(n as u64) {
            assert!(q(r, n) >= q(r + 1, n));
        }
    }
}

#[test]
fn keyword_overlap_does_not_promote_lower_rank() {
    // B matches every query word and carries keyword boosts, A none: A still comes first.
    let t = run(
        json!({"mode": "hybrid", "query": "redis eviction", "candidates": [
            {"evidenceKey": "B", "originalRank": 2, "excerpt": "redis eviction redis eviction",
             "hitReasons": ["keyword:redis", "keyword:eviction"], "baseScore": 0.2, "finalScore": 0.9,
             "boostReasons": ["keyword:+0.7"]},
            {"evidenceKey": "A", "originalRank": 1, "excerpt": "unrelated", "baseScore": 0.5, "finalScore": 0.5}
        ]}),
        &Settings::default(),
    );
    let accepted: Vec<&str> = t
        .accepted_blocks()
        .map(|b| &*b.candidate.evidence_key)
        .collect();
    assert_eq!(accepted, ["A", "B"]);
    // The legacy comparison shows the boost would have swapped them.
    let legacy = t.trace.legacy.unwrap();
    assert_eq!(legacy.kendall_tau, -1.0);
    assert_eq!(legacy.promoted, 1);
    assert_eq!(t.block(1).unwrap().displacement, Some(1));
}

#[test]
fn structural_caps_still_apply_after_rank_order() {
    let mut settings = Settings::default();
    settings.set("maxChunksPerDocument", "2").unwrap();
    settings.set("returnN", "3").unwrap();
    let t = run(
        json!({"mode": "dense", "candidates": [
            {"evidenceKey": "d1#4", "docId": "d1", "originalRank": 4, "score": 0.1},
            {"evidenceKey": "d1#1", "docId": "d1", "originalRank": 1, "score": 0.5},
            {"evidenceKey": "d1#2", "docId": "d1", "originalRank": 2, "score": 0.5},
            {"evidenceKey": "d2#1", "docId": "d2", "originalRank": 3, "score": 0.5},
            {"evidenceKey": "d3#1", "docId": "d3", "originalRank": 5, "score": 0.5},
            {"evidenceKey": "d4#1", "docId": "d4", "originalRank": 6, "score": 0.5}
        ]}),
        &settings,
    );
    assert_eq!(
        statuses(&t),
        [
            ("d1#1".into(), Status::Accepted),
            ("d1#2".into(), Status::Accepted),
            ("d2#1".into(), Status::Accepted),
            ("d1#4".into(), Status::DocCap),
            ("d3#1".into(), Status::ReturnN),
            ("d4#1".into(), Status::ReturnN),
        ]
    );
    assert_eq!(t.stages.accepted, 3);
    assert_eq!(t.stages.doc_capped, 1);
    assert_eq!(t.stages.return_n_cut, 2);
    // The best distance (rank 4, q = 0.9) was capped: top quality is 0.5, not 0.9.
    assert_eq!(t.top_quality, Some(0.5));
}

#[test]
fn low_quality_uses_top_quality_score() {
    let settings = Settings::default();
    // Dense: top accepted quality 1 - 0.6 = 0.4 < 0.5 -> low quality, retry without filter.
    let t = run(
        json!({"mode": "dense", "categoryFilter": "runbook", "candidates": [
            {"evidenceKey": "a", "originalRank": 1, "score": 0.6, "hitReasons": ["domain:redis"]},
            {"evidenceKey": "b", "originalRank": 2, "score": 0.7}
        ]}),
        &settings,
    );
    assert!((t.top_quality.unwrap() - 0.4).abs() < 1e-12);
    assert!(t.low_quality);
    assert!(t.retry_unfiltered);
    assert_eq!(t.relevance_level, Level::LowRelevance);
    // Quality at the reference threshold is usable with no hint support at all.
    let t = run(
        json!({"mode": "dense", "categoryFilter": "runbook", "candidates": [
            {"evidenceKey": "a", "originalRank": 1, "score": 0.5}
        ]}),
        &settings,
    );
    assert_eq!(t.top_quality, Some(0.5));
    assert!(!t.low_quality);
    assert!(!t.retry_unfiltered);
    assert_eq!(t.relevance_level, Level::Relevant);
    // No accepted block: NO_MATCH, low quality.
    let t = run(
        json!({"mode": "dense", "candidates": [
            {"evidenceKey": "a", "originalRank": 0, "score": 0.1}
        ]}),
        &settings,
    );
    assert_eq!(t.top_quality, None);
    assert!(t.low_quality);
    assert!(!t.retry_unfiltered);
    assert_eq!(t.relevance_level, Level::NoMatch);
}

#[test]
fn precise_does_not_require_hint_support() {
    // No hit reasons, no keyword overlap with the query: quality alone gives PRECISE.
    let t = run(
        json!({"mode": "dense", "query": "zzz", "candidates": [
            {"evidenceKey": "a", "originalRank": 1, "score": 0.05, "excerpt": "nothing shared"}
        ]}),
        &Settings::default(),
    );
    assert!((t.top_quality.unwrap() - 0.95).abs() < 1e-12);
    assert_eq!(t.relevance_level, Level::Precise);
    // At or above highly-relevant but below precise: HIGHLY_RELEVANT.
    let t = run(
        json!({"mode": "dense", "candidates": [
            {"evidenceKey": "a", "originalRank": 1, "score": 0.25}
        ]}),
        &Settings::default(),
    );
    assert_eq!(t.top_quality, Some(0.75));
    assert_eq!(t.relevance_level, Level::HighlyRelevant);
}

#[test]
fn mode_dense_still_callable() {
    // Dense traces and hybrid traces analyse side by side in one batch and are split by mode.
    let batch = parse_value(
        "test",
        &json!([
            {"mode": "dense", "candidates": [{"evidenceKey": "a", "originalRank": 1, "score": 0.2}]},
            {"mode": "hybrid", "candidates": [{"evidenceKey": "a", "originalRank": 1, "score": 0.2}]}
        ]),
    );
    let analysis = analyze(&batch, &Settings::default(), false).unwrap();
    assert_eq!(analysis.traces[0].mode(), Some(CanonicalLabel::Dense));
    assert_eq!(
        analysis.traces[0].block(0).unwrap().canonical_label,
        Some(CanonicalLabel::Dense)
    );
    assert!((analysis.traces[0].top_quality.unwrap() - 0.8).abs() < 1e-12);
    assert_eq!(analysis.summary.by_mode.dense.traces, 1);
    assert_eq!(analysis.summary.by_mode.hybrid.traces, 1);
}

#[test]
fn dense_distance_does_not_replace_hybrid_label() {
    // A worse-ranked hit with a better dense distance stays behind, stays hybrid, under
    // every hybridQuality mode.
    for mode in [
        HybridQuality::Rank,
        HybridQuality::DenseWhenPresent,
        HybridQuality::MaxRankDense,
    ] {
        let settings = Settings {
            hybrid_quality: Some(mode),
            ..Settings::default()
        };
        let t = run(
            json!({"mode": "hybrid", "candidates": [
                {"evidenceKey": "b", "originalRank": 2, "scoreLabel": "hybrid", "denseDistance": 0.1},
                {"evidenceKey": "a", "originalRank": 1, "scoreLabel": "hybrid", "denseDistance": 0.9}
            ]}),
            &settings,
        );
        let keys: Vec<&str> = t
            .accepted_blocks()
            .map(|b| &*b.candidate.evidence_key)
            .collect();
        assert_eq!(keys, ["a", "b"], "{mode:?}");
        assert!(t
            .blocks()
            .all(|b| b.canonical_label == Some(CanonicalLabel::Hybrid)));
        let q: Vec<f64> = t.blocks().map(|b| b.quality_score).collect();
        let expected = match mode {
            HybridQuality::Rank => [1.0, 0.5],
            HybridQuality::DenseWhenPresent => [1.0 - 0.9, 1.0 - 0.1],
            HybridQuality::MaxRankDense => [1.0, 0.9],
        };
        assert!((q[0] - expected[0]).abs() < 1e-12, "{mode:?} {q:?}");
        assert!((q[1] - expected[1]).abs() < 1e-12, "{mode:?} {q:?}");
    }
}
