//! End-to-end: the `ragtrace` binary, its output and its exit codes.

use crate::common;

use common::fixture_arg;
use std::io::Write;
use std::process::{Command, Output, Stdio};

fn ragtrace(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ragtrace"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin.unwrap_or("").as_bytes()).unwrap();
    drop(input);
    child.wait_with_output().unwrap()
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap()
}

fn temp_file(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("ragtrace-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

#[test]
fn analyze_prints_one_json_object_and_exits_0() {
    let out = ragtrace(
        &[
            "analyze",
            &fixture_arg("dense-trace.json"),
            &fixture_arg("hybrid-legacy-trace.json"),
        ],
        None,
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json(&out);
    assert_eq!(v["traces"].as_array().unwrap().len(), 2);
    assert_eq!(v["traces"][0]["relevanceLevel"], "RELEVANT");
    assert_eq!(v["traces"][1]["relevanceLevel"], "PRECISE");
    assert_eq!(v["config"]["returnN"], 5);
    assert!(v.get("sweep").is_none());
}

#[test]
fn settings_from_file_and_set_with_sweep() {
    let config = temp_file(
        "config.json",
        r#"{"returnN": 2, "reference_threshold": 0.7}"#,
    );
    let out = ragtrace(
        &[
            "analyze",
            "--config",
            &config,
            "--set",
            "returnN=3",
            "--set",
            "excerpt_max_chars=10",
            "--sweep",
            &fixture_arg("dense-trace.json"),
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(0));
    let v = json(&out);
    assert_eq!(v["config"]["returnN"], 3);
    assert_eq!(v["config"]["referenceThreshold"], 0.7);
    assert_eq!(v["traces"][0]["blocks"][0]["excerpt"], "allkeys-lr…");
    assert_eq!(v["traces"][0]["lowQuality"], true);
    assert_eq!(v["sweep"].as_array().unwrap().len(), 101);
}

#[test]
fn stdin_dash_reads_standard_input() {
    let text = std::fs::read_to_string(fixture_arg("lookup-result.jsonl")).unwrap();
    let out = ragtrace(&["analyze", "-"], Some(&text));
    assert_eq!(out.status.code(), Some(0));
    let v = json(&out);
    assert_eq!(v["traces"].as_array().unwrap().len(), 2);
    assert_eq!(v["traces"][1]["source"], "stdin");
}

#[test]
fn malformed_file_exits_1_names_file_line_column_and_still_prints_the_others() {
    let bad = temp_file(
        "bad.json",
        "{\n  \"candidates\": [\n    {\"originalRank\": 1,, }\n  ]\n}\n",
    );
    let out = ragtrace(&["analyze", &bad, &fixture_arg("dense-trace.json")], None);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!("{bad}:3:24: malformed JSON")),
        "{stderr}"
    );
    // The offending line, then a caret under the second comma.
    let lines: Vec<&str> = stderr.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains("{\"originalRank\": 1,, }"))
        .expect("the offending line is printed");
    assert_eq!(
        lines[at + 1].find('^'),
        lines[at].find(",,").map(|c| c + 1),
        "{stderr}"
    );
    let v = json(&out);
    assert_eq!(v["traces"].as_array().unwrap().len(), 1);
    assert_eq!(v["inputErrors"][0]["line"], 3);
    assert_eq!(v["inputErrors"][0]["caret"], 23);
    let missing = ragtrace(&["analyze", "/nonexistent/x.json"], None);
    assert_eq!(missing.status.code(), Some(1));
}

#[test]
fn usage_and_configuration_errors_exit_2() {
    let file = fixture_arg("dense-trace.json");
    for args in [
        vec!["analyze"],
        vec!["analyze", "--set", "returnN=0", &file],
        vec!["analyze", "--set", "nope=1", &file],
        vec!["analyze", "--set", "returnN", &file],
        vec!["analyze", "--set", "referenceThreshold=0.95", &file],
        vec!["analyze", "--config", "/nonexistent.json", &file],
        vec!["frobnicate"],
    ] {
        let out = ragtrace(&args, None);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    let out = ragtrace(&["analyze", "--set", "maxL2Distance=-1", &file], None);
    assert!(String::from_utf8_lossy(&out.stderr).contains("maxL2Distance"));
}

#[test]
fn eval_writes_report_json_markdown_and_trec_files() {
    let out_dir = std::env::temp_dir().join(format!("ragtrace-eval-{}", std::process::id()));
    let trec_dir = out_dir.join("trec");
    let out = ragtrace(
        &[
            "eval",
            "--cases",
            &fixture_arg("golden-cases.json"),
            "--out-dir",
            &out_dir.display().to_string(),
            "--trec",
            &trec_dir.display().to_string(),
            "--set",
            "returnN=2",
            &fixture_arg("dense-trace.json"),
            &fixture_arg("hybrid-legacy-trace.json"),
            &fixture_arg("lookup-result.jsonl"),
        ],
        None,
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary = String::from_utf8_lossy(&out.stdout);
    assert!(summary.contains("4 cases"), "{summary}");

    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("report.json")).unwrap())
            .unwrap();
    // --set beats the traces' own options: k is 2 everywhere.
    assert_eq!(report["config"]["returnN"], 2);
    let cases = report["cases"].as_array().unwrap();
    let ids: Vec<&str> = cases
        .iter()
        .map(|c| c["caseId"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        ["redis-eviction", "pay-timeout", "gateway-tls", "no-run"]
    );
    // redis: blocks kb-redis#3, kb-redis#4 -> one document, expected, breadcrumb hit.
    assert_eq!(cases[0]["level"], "strong");
    assert_eq!(cases[0]["docRanking"], serde_json::json!(["kb-redis"]));
    assert_eq!(cases[0]["k"], 2);
    assert_eq!(cases[0]["precision"], 0.5);
    // pay: cap 1 per document and returnN 2 -> pay-timeout#0, order-faq#5;
    // "指数退避" is found, "人工对账" (only in pay-timeout#1) is not: coverage 0.5.
    assert_eq!(cases[1]["coverage"], 0.5);
    assert_eq!(cases[1]["level"], "strong");
    assert_eq!(cases[3]["level"], "miss");
    assert_eq!(cases[3]["ndcg"], 0.0);
    assert_eq!(report["summary"]["levels"]["miss"], 1);

    let markdown = std::fs::read_to_string(out_dir.join("report.md")).unwrap();
    assert!(
        markdown.contains("| redis-eviction | strong |"),
        "{markdown}"
    );
    let qrels = std::fs::read_to_string(trec_dir.join("qrels.txt")).unwrap();
    assert!(
        qrels.lines().any(|l| l == "redis-eviction 0 kb-redis 1"),
        "{qrels}"
    );
    let run = std::fs::read_to_string(trec_dir.join("run.txt")).unwrap();
    assert!(
        run.lines()
            .next()
            .unwrap()
            .starts_with("redis-eviction Q0 kb-redis 1 "),
        "{run}"
    );
}

#[test]
fn eval_with_a_malformed_cases_file_exits_1_with_its_location() {
    let cases = temp_file("bad-cases.json", "{\"cases\": [\n  {\"caseId\": }\n]}");
    let out = ragtrace(
        &["eval", "--cases", &cases, &fixture_arg("dense-trace.json")],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("bad-cases.json:2:"), "{stderr}");
}
