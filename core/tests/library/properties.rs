//! Invariants of quality, order and acceptance over generated traces.
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::type_complexity)]

use proptest::prelude::*;
use ragtrace_core::quality_score;
use ragtrace_core::HybridQuality;
use ragtrace_core::{analyze, parse_value, Config, Settings, Status};
use ragtrace_core::{block_changes, level_changes, BlockChange};
use ragtrace_core::{classify_label, CanonicalLabel};
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};

fn config_strategy() -> impl Strategy<Value = Config> {
    (
        0.01f64..5.0,
        prop_oneof![
            Just(HybridQuality::Rank),
            Just(HybridQuality::DenseWhenPresent),
            Just(HybridQuality::MaxRankDense)
        ],
    )
        .prop_map(|(m, hq)| Config {
            max_l2_distance: m,
            hybrid_quality: hq,
            ..Config::default()
        })
}

/// Candidates drawn from few docs and keys so duplicates and caps happen.
fn candidates_strategy() -> impl Strategy<Value = Vec<Value>> {
    prop::collection::vec(
        (
            1u64..12,
            0u8..4,
            0u8..6,
            prop::option::of(-0.5f64..3.0),
            prop::bool::ANY,
            prop::option::of(0.0f64..2.0),
        ),
        0..25,
    )
    .prop_map(|items| {
        items
            .into_iter()
            .map(|(rank, doc, chunk, score, hybrid, dense)| {
                json!({
                    "evidenceKey": format!("d{doc}#{chunk}"),
                    "docId": format!("d{doc}"),
                    "originalRank": rank,
                    "score": score,
                    "scoreLabel": if hybrid { "hybrid" } else { "dense" },
                    "denseDistance": dense,
                })
            })
            .collect()
    })
}

fn settings_strategy() -> impl Strategy<Value = Settings> {
    (1usize..6, 1usize..4, config_strategy()).prop_map(|(n, cap, c)| Settings {
        return_n: Some(n),
        max_chunks_per_document: Some(cap),
        max_l2_distance: Some(c.max_l2_distance),
        hybrid_quality: Some(c.hybrid_quality),
        ..Settings::default()
    })
}

proptest! {
    #[test]
    fn quality_is_in_unit_interval(
        config in config_strategy(),
        hybrid in prop::bool::ANY,
        score in prop::option::of(prop::num::f64::ANY),
        dense in prop::option::of(prop::num::f64::ANY),
        rank in 0u64..1000,
        n in 0usize..1000,
    ) {
        let label = Some(if hybrid { CanonicalLabel::Hybrid } else { CanonicalLabel::Dense });
        let q = quality_score(label, score, rank, n, &config, dense);
        prop_assert!((0.0..=1.0).contains(&q), "{q}");
    }

    #[test]
    fn hybrid_rank_quality_is_non_increasing_and_rank_one_is_one(n in 1usize..500) {
        let config = Config::default();
        let q = |r: u64| quality_score(Some(CanonicalLabel::Hybrid), None, r, n, &config, None);
        prop_assert_eq!(q(1), 1.0);
        for r in 1..(n as u64 + 3) {
            prop_assert!(q(r) >= q(r + 1));
        }
    }

    #[test]
    fn acceptance_respects_caps_and_dedup(
        candidates in candidates_strategy(),
        settings in settings_strategy(),
    ) {
        let batch = parse_value("p", &json!({"candidates": candidates}));
        let analysis = analyze(&batch, &settings, true).unwrap();
        let t = &analysis.traces[0];
        let accepted: Vec<_> = t.accepted_blocks().collect();
        prop_assert!(accepted.len() <= t.config.return_n);
        let mut per_doc: HashMap<&str, usize> = HashMap::new();
        let mut keys = HashSet::new();
        for b in &accepted {
            *per_doc.entry(&b.doc_id).or_insert(0) += 1;
            prop_assert!(keys.insert(b.evidence_key.clone()), "{} accepted twice", b.evidence_key);
        }
        prop_assert!(per_doc.values().all(|&n| n <= t.config.max_chunks_per_document));
        let ranks: Vec<usize> = accepted.iter().map(|b| b.accepted_rank.unwrap()).collect();
        prop_assert_eq!(ranks, (1..=accepted.len()).collect::<Vec<_>>());
        for b in t.blocks() {
            prop_assert!((0.0..=1.0).contains(&b.quality_score));
        }
        // Blocks are in originalRank order.
        let order: Vec<u64> = t.blocks().filter_map(|b| b.original_rank).collect();
        prop_assert!(order.windows(2).all(|w| w[0] <= w[1]));
    }

    #[test]
    fn result_does_not_depend_on_input_order(
        candidates in candidates_strategy(),
        settings in settings_strategy(),
        seed in 0u64..1000,
    ) {
        let mut shuffled = candidates.clone();
        // A deterministic shuffle driven by the seed.
        let len = shuffled.len();
        if len > 1 {
            let mut s = seed;
            for i in (1..len).rev() {
                s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                shuffled.swap(i, (s >> 33) as usize % (i + 1));
            }
        }
        let view = |cands: Vec<Value>| {
            let batch = parse_value("p", &json!({"candidates": cands}));
            let t = analyze(&batch, &settings, false).unwrap().traces.remove(0);
            let blocks: Vec<(String, Option<u64>, Status, Option<usize>, u64)> = t
                .blocks()
                .map(|b| (b.evidence_key.to_string(), b.original_rank, b.status, b.accepted_rank, b.quality_score.to_bits()))
                .collect();
            (blocks, t.top_quality.map(f64::to_bits), t.relevance_level)
        };
        // Equal (rank, key) pairs may differ in other fields and then legitimately keep input
        // order; compare only when every (rank, key) pair is unique.
        let pairs: HashSet<(u64, String)> = candidates
            .iter()
            .map(|c| (c["originalRank"].as_u64().unwrap(), c["evidenceKey"].as_str().unwrap().to_owned()))
            .collect();
        prop_assume!(pairs.len() == candidates.len());
        prop_assert_eq!(view(candidates), view(shuffled));
    }

    /// Blocks are views built on demand: every candidate has one, its quality is the
    /// quality function's value for it, and comparing two analyses marks exactly the
    /// blocks whose acceptance or accepted rank differs.
    #[test]
    fn block_views_and_baseline_changes_agree_with_the_decisions(
        candidates in candidates_strategy(),
        baseline_settings in settings_strategy(),
        settings in settings_strategy(),
    ) {
        let batch = parse_value("p", &json!({"candidates": candidates}));
        let baseline = analyze(&batch, &baseline_settings, false).unwrap();
        let current = analyze(&batch, &settings, false).unwrap();
        let (b, t) = (&baseline.traces[0], &current.traces[0]);
        prop_assert_eq!(t.blocks().count(), t.trace.candidates().len());
        let n = t.trace.candidates().len();
        for block in t.blocks() {
            let expected = match block.original_rank {
                Some(rank) => quality_score(
                    block.canonical_label,
                    block.score,
                    rank,
                    n,
                    &t.config,
                    block.dense_distance,
                ),
                None => 0.0,
            };
            prop_assert_eq!(block.quality_score.to_bits(), expected.to_bits());
        }
        prop_assert!(block_changes(t, t).unwrap().iter().all(|c| *c == BlockChange::Same));

        let accepted_rank = |a: &ragtrace_core::TraceAnalysis| -> HashMap<usize, usize> {
            a.accepted_blocks()
                .map(|blk| (blk.input_index, blk.accepted_rank.unwrap()))
                .collect()
        };
        let (was, now) = (accepted_rank(b), accepted_rank(t));
        let changes = block_changes(b, t).unwrap();
        prop_assert_eq!(changes.len(), t.blocks().count());
        for (block, change) in t.blocks().zip(changes) {
            let i = block.input_index;
            let expected = match (was.get(&i).copied(), now.get(&i).copied()) {
                (None, Some(accepted_rank)) => BlockChange::Entered { accepted_rank },
                (Some(was_rank), None) => BlockChange::Left { was_rank },
                (Some(w), Some(a)) if w != a => BlockChange::Moved { was_rank: w, accepted_rank: a },
                _ => BlockChange::Same,
            };
            prop_assert_eq!(change, expected);
        }
        let level_changed = b.relevance_level != t.relevance_level;
        prop_assert_eq!(level_changes(&baseline, &current).unwrap().len(), usize::from(level_changed));
    }
}

/// Section 3.1 as written: trim, lowercase, then match. `classify_label` skips the
/// lowercased copy for ASCII labels and must agree with this on every label.
fn label_by_lowercasing(raw: &str) -> (Option<CanonicalLabel>, bool) {
    let label = raw.trim().to_lowercase();
    let canonical = match label.as_str() {
        "dense" | "l2_distance" => Some(CanonicalLabel::Dense),
        "hybrid" | "rrf_fused" => Some(CanonicalLabel::Hybrid),
        other if other.starts_with("bm25_only") => Some(CanonicalLabel::Hybrid),
        _ => None,
    };
    (
        canonical,
        canonical.is_some() && label != "dense" && label != "hybrid",
    )
}

#[test]
fn label_classification_equals_lowercasing_first_on_edge_cases() {
    let labels = [
        "dense",
        "DENSE",
        " Hybrid\t",
        "l2_DISTANCE",
        "RRF_Fused ",
        "bm25_only",
        "BM25_ONLY_no_dense",
        "bm25_onl",
        "",
        "  ",
        "cosine",
        "denser",
        "\u{3000}dense\u{3000}",
        "\u{212A}dense",
        "bm25_only\u{212A}",
        "hybr\u{130}d",
        "d\u{e9}nse",
        "\u{1E0C}ENSE",
    ];
    for label in labels {
        assert_eq!(
            classify_label(label),
            label_by_lowercasing(label),
            "{label:?}"
        );
    }
}

proptest! {
    #[test]
    fn label_classification_equals_lowercasing_first(
        label in "[ \t\u{3000}]?(dense|hybrid|l2_distance|rrf_fused|bm25_only|bm25_onl|cosine|)[a-z_\u{212A}\u{e9}\u{130}]{0,3}[ \u{85}]?",
        upper in prop::collection::vec(prop::bool::ANY, 16),
    ) {
        let label: String = label
            .chars()
            .zip(upper.iter().cycle())
            .map(|(c, &up)| if up { c.to_ascii_uppercase() } else { c })
            .collect();
        prop_assert_eq!(classify_label(&label), label_by_lowercasing(&label), "{:?}", label);
    }
}
