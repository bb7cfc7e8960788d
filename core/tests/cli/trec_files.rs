//! `ragtrace eval` and `ragtrace compare` take a qrels file and run files directly
//! (contract section 12.3).

use crate::common::fixture_arg;
use crate::run::ragtrace;

/// `ragtrace eval --cases qrels run` and `ragtrace compare --run a=run --run b=run
/// --cases qrels` read the TREC files as they are.
#[test]
fn eval_and_compare_read_qrels_and_run_files() {
    let out = std::env::temp_dir().join(format!("ragtrace-trec-{}", std::process::id()));
    let out_dir = out.to_string_lossy().into_owned();
    let qrels = fixture_arg("trec_eval/qrels.rel_level");
    let run = fixture_arg("trec_eval/results.test");
    let eval = ragtrace(&[
        "eval",
        "--cases",
        &qrels,
        "--set",
        "returnN=10",
        "--set",
        "maxChunksPerDocument=1000",
        "--out-dir",
        &out_dir,
        &run,
    ]);
    assert_eq!(
        eval.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&eval.stderr)
    );
    let report: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("report.json")).unwrap_or_else(|e| panic!("{e}")),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    // Query 302 at k = 10, trec_eval -l 1: nDCG@10 0.752969406552648, P@10 0.7.
    let q302 = &report["cases"][1];
    assert_eq!(q302["caseId"], "302");
    assert_eq!(q302["traceName"], "STANDARD/302");
    assert!((q302["ndcg"].as_f64().unwrap_or(0.0) - 0.752969406552648).abs() < 1e-12);
    assert!((q302["precision"].as_f64().unwrap_or(0.0) - 0.7).abs() < 1e-12);

    let compare = ragtrace(&[
        "compare",
        "--run",
        &format!("bm25={run}"),
        "--run",
        &format!("again={run}"),
        "--cases",
        &qrels,
        "--out-dir",
        &out_dir,
    ]);
    assert_eq!(
        compare.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&compare.stderr)
    );
    let json: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("compare.json")).unwrap_or_else(|e| panic!("{e}")),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(json["cases"]["common"], 3);
    let metrics: Vec<&str> = json["metrics"]
        .as_array()
        .map(|m| m.iter().filter_map(|m| m["metric"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(
        metrics,
        [
            "hit",
            "recall",
            "precision",
            "reciprocalRank",
            "ndcg",
            "map"
        ]
    );
    let _ = std::fs::remove_dir_all(&out);
}
