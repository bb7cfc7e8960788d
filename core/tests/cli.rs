//! End-to-end: the `ragtrace` binary, its output and its exit codes.
#![cfg(feature = "cli")]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn fixture(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures")
        .join(name)
        .display()
        .to_string()
}

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
            &fixture("dense-trace.json"),
            &fixture("hybrid-legacy-trace.json"),
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
            &fixture("dense-trace.json"),
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
    let text = std::fs::read_to_string(fixture("lookup-result.jsonl")).unwrap();
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
    let out = ragtrace(&["analyze", &bad, &fixture("dense-trace.json")], None);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!("{bad}:3:24: malformed JSON")),
        "{stderr}"
    );
    let v = json(&out);
    assert_eq!(v["traces"].as_array().unwrap().len(), 1);
    assert_eq!(v["inputErrors"][0]["line"], 3);
    let missing = ragtrace(&["analyze", "/nonexistent/x.json"], None);
    assert_eq!(missing.status.code(), Some(1));
}

#[test]
fn usage_and_configuration_errors_exit_2() {
    let file = fixture("dense-trace.json");
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
