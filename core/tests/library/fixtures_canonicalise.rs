use crate::common;

use common::fixture;
use ragtrace_core::{canonical_label, CanonicalLabel};

#[test]
fn every_label_in_the_hybrid_fixture_canonicalises_to_hybrid() {
    let trace: serde_json::Value =
        serde_json::from_str(&fixture("hybrid-legacy-trace.json")).unwrap();
    let labels: Vec<&str> = trace["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["scoreLabel"].as_str().unwrap())
        .collect();
    assert_eq!(labels.len(), 5);
    for label in labels {
        assert_eq!(
            canonical_label(label),
            Some(CanonicalLabel::Hybrid),
            "{label}"
        );
    }
}
