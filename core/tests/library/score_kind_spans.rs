//! The real instrumentor's spans, written in each vector store's own score kind, read
//! under that kind: the same analysis as the same retrievals written natively with L2
//! distances (contract sections 10.1 and 11). The fixtures come from one LlamaIndex run
//! over one corpus whose vector store returned each kind's score
//! (tests/fixtures/otel/make_fixtures.py); the native file carries the L2 distances of
//! the same unit vectors.

use crate::common::fixture;
use ragtrace_core::{analyze, parse_document, Settings};
use serde_json::Value;

const KINDS: [&str; 7] = [
    "l2",
    "l2Squared",
    "cosineDistance",
    "cosineSimilarity",
    "negativeInnerProduct",
    "elasticCosine",
    "inverseL2Squared",
];

/// The cosine-based kinds go through `sqrt(2 - 2 cos)` and back: a few units in the
/// last place of a distance near 0.5.
const FLOAT_ERROR: f64 = 1e-12;

fn analysed(name: &str, settings: &Settings) -> Value {
    let batch = parse_document(name, &fixture(name));
    assert!(batch.errors.is_empty(), "{name}: {:?}", batch.errors);
    let analysis = analyze(&batch, settings, false).expect("valid settings");
    serde_json::to_value(&analysis).expect("serialises")
}

fn traces(analysis: &Value) -> &Vec<Value> {
    analysis["traces"].as_array().expect("traces")
}

fn number(value: &Value, what: &str) -> f64 {
    value
        .as_f64()
        .unwrap_or_else(|| panic!("{what} is not a number: {value}"))
}

fn assert_close(a: &Value, b: &Value, what: &str) {
    let (a, b) = (number(a, what), number(b, what));
    assert!((a - b).abs() <= FLOAT_ERROR, "{what}: {a} against {b}");
}

#[test]
fn every_kind_read_under_itself_gives_the_native_l2_analysis() {
    let native = analysed("otel/scores-native-l2.jsonl", &Settings::default());
    assert_eq!(traces(&native).len(), 8);
    for kind in KINDS {
        let mut settings = Settings::default();
        settings.set("scoreKind", kind).expect("a score kind");
        let name = format!("otel/scores-{kind}.jsonl");
        let spans = analysed(&name, &settings);
        assert_eq!(traces(&spans).len(), 8, "{kind}: one trace a retrieval");
        for expected in traces(&native) {
            let id = &expected["requestId"];
            let got = traces(&spans)
                .iter()
                .find(|t| &t["requestId"] == id)
                .unwrap_or_else(|| panic!("{kind}: no trace {id}"));
            let at = format!("{kind} {id}");
            for key in ["relevanceLevel", "lowQuality", "query", "caseId", "mode"] {
                assert_eq!(got[key], expected[key], "{at}: {key}");
            }
            assert_close(&got["topQuality"], &expected["topQuality"], &at);
            let (got_blocks, expected_blocks) = (
                got["blocks"].as_array().expect("blocks"),
                expected["blocks"].as_array().expect("blocks"),
            );
            assert_eq!(got_blocks.len(), expected_blocks.len(), "{at}: blocks");
            for (g, e) in got_blocks.iter().zip(expected_blocks) {
                for key in [
                    "evidenceKey",
                    "docId",
                    "originalRank",
                    "status",
                    "acceptedRank",
                ] {
                    assert_eq!(g[key], e[key], "{at} {}: {key}", e["evidenceKey"]);
                }
                assert_close(&g["qualityScore"], &e["qualityScore"], &at);
                // The distance used is the native file's score, whatever was read.
                assert_close(&g["distance"], &e["score"], &at);
            }
        }
    }
}

/// The same spans read under the default kind (`l2`) when they hold cosine
/// similarities: the levels are those of distances near 0.88, and the fit check says
/// the scores fall along the rank as similarities do.
#[test]
fn cosine_spans_read_as_l2_are_caught_by_the_fit_check() {
    let spans = analysed("otel/scores-cosineSimilarity.jsonl", &Settings::default());
    let warnings: Vec<(&str, &str)> = spans["warnings"]
        .as_array()
        .expect("warnings")
        .iter()
        .map(|w| {
            (
                w["code"].as_str().unwrap_or(""),
                w["message"].as_str().unwrap_or(""),
            )
        })
        .collect();
    let fit = warnings
        .iter()
        .find(|(code, _)| *code == "score-kind-mismatch")
        .unwrap_or_else(|| panic!("no fit line in {warnings:?}"));
    assert!(fit.1.contains("scoreKind is l2"), "{}", fit.1);
}
