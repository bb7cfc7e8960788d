//! End-to-end: `ragtrace explain`, its files, its output and its exit codes.

use crate::common;

use common::fixture_arg;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn ragtrace(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ragtrace"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("runs: {e}"))
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "ragtrace-cli-explain-{}-{name}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    dir
}

fn read_json(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn explain_writes_json_and_markdown_and_prints_the_fixes() {
    let dir = temp_dir("ok");
    let out_dir = dir.join("out");
    let out = ragtrace(
        &[
            "explain",
            "--cases",
            &fixture_arg("explain-cases.json"),
            "--out-dir",
            &out_dir.display().to_string(),
            &fixture_arg("explain-traces.json"),
        ],
        &dir,
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.starts_with("explain: 2 traces, 10 candidates, 5 not accepted (3 accepted by some change of settings)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("cases: 4: found 1, dropped 1 (a settings problem), not-retrieved 1 (a retrieval problem), no-trace 1"),
        "{stdout}"
    );
    assert!(
        stdout.contains("returnN = 4 recovers 1 of 3 misses, changes 1 traces' lists (0 levels), lowers 0 cases' hit"),
        "{stdout}"
    );
    let text = std::fs::read_to_string(out_dir.join("explain.json")).unwrap_or_default();
    // The top-level keys, in this order.
    let at: Vec<Option<usize>> = ["config", "traces", "cases", "summary"]
        .iter()
        .map(|k| text.find(&format!("\n  \"{k}\": ")))
        .collect();
    assert!(
        at.iter().all(Option::is_some) && at.windows(2).all(|w| w[0] < w[1]),
        "{at:?}"
    );
    let v = read_json(&out_dir.join("explain.json"));
    assert_eq!(v.as_object().map(|o| o.len()), Some(4));
    assert_eq!(
        v["traces"][0]["candidates"][4]["acceptedIf"][0]["set"]["returnN"],
        4
    );
    assert_eq!(v["cases"][0]["foundIf"][0]["hit"], "strong");
    let md = std::fs::read_to_string(out_dir.join("explain.md")).unwrap_or_default();
    assert!(md.starts_with("# What would it take"), "{md}");
    assert!(md.contains("| 4 | d | return\\_n | returnN = 4 |"), "{md}");
}

#[test]
fn explain_without_cases_and_with_settings() {
    let dir = temp_dir("settings");
    let out = ragtrace(
        &[
            "explain",
            "--set",
            "maxChunksPerDocument=2",
            "--set",
            "returnN=4",
            &fixture_arg("explain-traces.json"),
        ],
        &dir,
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = read_json(&dir.join("explain.json"));
    assert_eq!(v["config"]["returnN"], 4);
    assert_eq!(v["cases"], serde_json::json!([]));
    assert_eq!(v["summary"]["cases"], 0);
    // The user's cap 2 and returnN 4 win over the trace's options: a#2 is accepted,
    // c#1 is the fourth block and d#1 is past returnN.
    let c = &v["traces"][0]["candidates"];
    assert_eq!(c[1]["status"], "accepted");
    assert_eq!(c[4]["status"], "return_n");
    assert_eq!(c[4]["acceptedIf"][0]["set"]["returnN"], 5);
}

#[test]
fn explain_usage_and_input_errors() {
    let dir = temp_dir("errors");
    let bad_setting = ragtrace(
        &[
            "explain",
            "--set",
            "returnN=0",
            &fixture_arg("explain-traces.json"),
        ],
        &dir,
    );
    assert_eq!(bad_setting.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad_setting.stderr).contains("returnN"));
    let broken = dir.join("broken.json");
    std::fs::write(&broken, "{\"candidates\": [").unwrap_or_else(|e| panic!("{e}"));
    let partial = ragtrace(
        &[
            "explain",
            &broken.display().to_string(),
            &fixture_arg("explain-traces.json"),
        ],
        &dir,
    );
    assert_eq!(partial.status.code(), Some(1));
    // The readable file is still explained.
    assert_eq!(read_json(&dir.join("explain.json"))["summary"]["traces"], 2);
}
