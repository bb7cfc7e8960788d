//! Inputs the fuzz targets (fuzz/, scripts/fuzz.sh) found failing, kept as tests
//! (docs/reliability.md).

use ragtrace_core::{analyze, parse_document, Settings};

/// differential: a number written in its shortest round-trip form (what ryu, Python's
/// `repr` and JavaScript write) must read back as the same f64. serde_json's default
/// float parser read `0.22499999999999998` as 0.225, one unit in the last place off,
/// so ragtrace could not read its own output exactly; its `float_roundtrip` parser can.
#[test]
fn shortest_round_trip_numbers_read_back_exactly() {
    let exact = 0.224_999_999_999_999_98_f64;
    assert_ne!(exact.to_bits(), 0.225_f64.to_bits());
    let text = r#"{"mode":"dense","candidates":[{"score":0.22499999999999998},{"score":0.775}]}"#;
    let batch = parse_document("t", text);
    let scores: Vec<Option<u64>> = batch.traces[0]
        .candidates()
        .iter()
        .map(|c| c.score.map(f64::to_bits))
        .collect();
    assert_eq!(scores, [Some(exact.to_bits()), Some(0.775_f64.to_bits())]);

    // The analysis written as JSON and read back: every quality the same bits.
    let analysis = analyze(&batch, &Settings::default(), false).unwrap();
    let json = serde_json::to_string(&analysis).unwrap();
    let back: serde_json::Value = serde_json::from_str(&json).unwrap();
    for (block, out) in analysis.traces[0]
        .blocks()
        .zip(back["traces"][0]["blocks"].as_array().unwrap())
    {
        assert_eq!(
            out["qualityScore"].as_f64().map(f64::to_bits),
            Some(block.quality_score.to_bits())
        );
    }
}
