//! End-to-end: the CLI reads OTLP JSON spans through the core with no span code of
//! its own (contract section 11), on the real LlamaIndex instrumentor's spans.

use crate::common;

use crate::run::ragtrace;
use common::fixture_arg;
use serde_json::Value;

#[test]
fn analyze_and_eval_read_spans_like_any_trace() {
    let spans = fixture_arg("otel/llamaindex-cosine.jsonl");
    let out = ragtrace(&["analyze", &spans]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let analysis: Value = serde_json::from_slice(&out.stdout).unwrap();
    let traces = analysis["traces"].as_array().unwrap();
    // 9 lines, one retrieval each (the outer RETRIEVER span); 28 other spans skipped.
    assert_eq!(traces.len(), 9);
    assert_eq!(
        traces[0]["requestId"],
        "fe4f526311d5d724d5baa978983b6369/456d044bc1f49414"
    );
    assert_eq!(traces[0]["caseId"], "espresso-temperature");
    assert_eq!(traces[0]["blocks"][0]["docId"], "espresso-guide.md");
    assert_eq!(traces[0]["blocks"][0]["score"], 0.8799575718004368);
    assert_eq!(analysis["documents"][0]["skippedSpans"], 28);

    // The stream reads the same traces.
    let out = ragtrace(&["analyze", "--format", "jsonl", &spans]);
    assert!(out.status.success());
    let streamed: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .filter(|line: &Value| line.get("requestId").is_some())
        .collect();
    let ids = |list: &[Value]| -> Vec<String> {
        list.iter().map(|t| t["requestId"].to_string()).collect()
    };
    assert_eq!(ids(&streamed), ids(traces));

    // Golden cases link by the span's metadata caseId (6 traces) or by query (the
    // last two, whose spans have no caseId: tests/fixtures/otel/README.md).
    let dir = std::env::temp_dir().join(format!("ragtrace-cli-otlp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = fixture_arg("otel/golden-cases.json");
    let out_dir = dir.display().to_string();
    let out = ragtrace(&["eval", "--cases", &cases, "--out-dir", &out_dir, &spans]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    let linked: Vec<(&str, &str)> = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["caseId"].as_str().unwrap(),
                c["linkedBy"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        linked,
        [
            ("espresso-temperature", "caseId"),
            ("kyoto-temple-etiquette", "caseId"),
            ("sourdough-starter", "caseId"),
            ("rust-question-mark", "caseId"),
            ("bike-tyre-pressure", "caseId"),
            ("steuer-frist", "caseId"),
            ("json-escape-quote", "query"),
            ("monstera-watering", "query"),
        ]
    );
}
