//! End-to-end: `ragtrace calibrate`, its files, its output and its exit codes.

use crate::common;

use common::fixture_arg;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn ragtrace(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ragtrace"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "ragtrace-cli-calibrate-{}-{name}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn calibrate_writes_json_and_markdown_and_prints_the_table() {
    let dir = temp_dir("ok");
    let out_dir = dir.join("out");
    let out = ragtrace(
        &[
            "calibrate",
            "--cases",
            &fixture_arg("calibration/cases.json"),
            "--set",
            "referenceThreshold=0.3",
            "--out-dir",
            &out_dir.display().to_string(),
            &fixture_arg("calibration/traces.json"),
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
        stdout.starts_with("calibration: 6 cases, 6 linked"),
        "{stdout}"
    );
    assert!(
        stdout.contains("only 6 linked cases: every figure here is anecdotal"),
        "{stdout}"
    );
    // The level table row and the gate over all traces (AUC 17/18, see tests/calibration.rs).
    assert!(
        stdout
            .lines()
            .any(|l| l.split_whitespace().collect::<Vec<_>>()[..6]
                == ["RELEVANT", "3", "1", "0", "0", "2"]),
        "{stdout}"
    );
    assert!(
        stdout.lines().any(|l| l.trim_start().starts_with("all")
            && l.contains("0.944")
            && l.contains("0.600")),
        "{stdout}"
    );
    assert!(
        stdout.contains("referenceThreshold 0.3 → 0.600"),
        "{stdout}"
    );

    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("calibration.json")).unwrap())
            .unwrap();
    let auc = json["gate"]["all"]["auc"].as_f64().unwrap();
    assert!((auc - 17.0 / 18.0).abs() < 1e-12, "{auc}");
    assert_eq!(json["config"]["referenceThreshold"], 0.3);
    assert_eq!(json["suggestions"][0]["rule"], "youden");
    assert_eq!(
        json["suggestions"][0]["settings"][0]["key"],
        "referenceThreshold"
    );
    let md = std::fs::read_to_string(out_dir.join("calibration.md")).unwrap();
    assert!(md.starts_with("# Calibration\n"), "{md}");
    assert!(md.contains("## Suggestions"), "{md}");
}

#[test]
fn calibrate_writes_into_the_current_folder_by_default() {
    let dir = temp_dir("default");
    let out = ragtrace(
        &[
            "calibrate",
            "--cases",
            &fixture_arg("calibration/cases.json"),
            &fixture_arg("calibration/traces.json"),
        ],
        &dir,
    );
    assert_eq!(out.status.code(), Some(0));
    assert!(dir.join("calibration.json").is_file());
    assert!(dir.join("calibration.md").is_file());
}

#[test]
fn unlinked_cases_are_named() {
    let dir = temp_dir("unlinked");
    let cases = dir.join("cases.json");
    std::fs::write(
        &cases,
        r#"[{"caseId": "ghost", "query": "what nobody asked"}]"#,
    )
    .unwrap();
    let out = ragtrace(
        &[
            "calibrate",
            "--cases",
            &cases.display().to_string(),
            &fixture_arg("calibration/traces.json"),
        ],
        &dir,
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout.contains("no case is linked to a trace"), "{stdout}");
    assert!(
        stdout.contains("first unlinked: ghost (\"what nobody asked\")"),
        "{stdout}"
    );
}

#[test]
fn bad_cases_exit_1_and_bad_settings_exit_2() {
    let dir = temp_dir("bad");
    let cases = dir.join("cases.json");
    std::fs::write(&cases, "[{\"caseId\": 1.5,}]").unwrap();
    let out = ragtrace(
        &[
            "calibrate",
            "--cases",
            &cases.display().to_string(),
            &fixture_arg("calibration/traces.json"),
        ],
        &dir,
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("cases.json:1:"), "{stderr}");
    assert!(!dir.join("calibration.json").exists());

    let out = ragtrace(
        &[
            "calibrate",
            "--cases",
            &fixture_arg("calibration/cases.json"),
            "--set",
            "referenceThreshold=0.9",
            &fixture_arg("calibration/traces.json"),
        ],
        &dir,
    );
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("referenceThreshold"), "{stderr}");
}
