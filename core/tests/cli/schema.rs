//! End-to-end: `ragtrace schema NAME` prints the output's schema, and what every
//! command writes on the fixtures matches the schema it prints.

use crate::common;
use crate::schema_check;

use common::fixture_arg;
use schema_check::assert_valid;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn ragtrace(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ragtrace"))
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("runs: {e}"))
}

/// Runs and expects the exit status `code`.
fn run(args: &[&str], code: i32) -> Output {
    let out = ragtrace(args);
    assert_eq!(
        out.status.code(),
        Some(code),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn temp_dir(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("ragtrace-cli-schema-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    dir
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The schema as the CLI prints it.
fn printed(name: &str) -> Value {
    let out = run(&["schema", name], 0);
    assert!(out.stderr.is_empty());
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("schema {name}: {e}"))
}

#[test]
fn schema_prints_each_outputs_schema_as_the_library_gives_it() {
    for (name, _) in ragtrace_core::OUTPUT_SCHEMAS {
        let schema = printed(name);
        assert_eq!(Some(&schema), ragtrace_core::output_schema(name).as_ref());
        assert_eq!(schema["title"], *name);
        assert_eq!(
            schema["$schema"],
            "https://json-schema.org/draft/2020-12/schema"
        );
    }
    let text = String::from_utf8(run(&["schema", "analysis"], 0).stdout).unwrap();
    assert!(
        text.starts_with("{\n  \"$defs\": {\n"),
        "pretty JSON: {text:.40}"
    );
    assert!(text.ends_with("}\n"));
}

#[test]
fn schema_refuses_an_unknown_or_missing_name_and_lists_the_names() {
    let out = run(&["schema", "summary"], 2);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("invalid value 'summary'"), "{err}");
    assert!(
        err.contains("[possible values: analysis, report, compare, calibration, explain, partial]"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
    run(&["schema"], 2);
    let help = String::from_utf8(run(&["--help"], 0).stdout).unwrap();
    assert!(help.contains("schema"), "{help}");
}

#[test]
fn analyze_and_merge_output_matches_the_printed_schemas() {
    let analysis = printed("analysis");
    let partial = printed("partial");
    let dense = fixture_arg("dense-trace.json");
    let lookups = fixture_arg("lookup-result.jsonl");
    let hybrid = fixture_arg("hybrid-legacy-trace.json");
    let files = [dense.as_str(), hybrid.as_str(), lookups.as_str()];

    let whole = run(&[&["analyze", "--sweep"][..], &files].concat(), 0);
    let whole: Value = serde_json::from_slice(&whole.stdout).unwrap();
    assert_valid("analyze", &analysis, &whole);

    // --format jsonl: a trace per line, the batch view last.
    let lines = run(&[&["analyze", "--format", "jsonl"][..], &files].concat(), 0);
    let lines: Vec<Value> = String::from_utf8(lines.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let (last, traces) = lines.split_last().unwrap();
    assert_eq!(traces.len(), whole["traces"].as_array().unwrap().len());
    let trace = serde_json::json!({"$ref": "#/$defs/TraceAnalysis", "$defs": analysis["$defs"]});
    for line in traces {
        assert_valid("a trace line", &trace, line);
    }
    assert_valid("the batch line", &partial, last);
    let summary = run(&[&["analyze", "--summary"][..], &files].concat(), 0);
    let summary: Value = serde_json::from_slice(&summary.stdout).unwrap();
    assert_valid("analyze --summary", &partial, &summary);

    let dir = temp_dir("merge");
    let (a, b) = (dir.join("a.partial"), dir.join("b.partial"));
    let (a, b) = (a.display().to_string(), b.display().to_string());
    run(&["analyze", "--partial", &a, &dense, &lookups], 0);
    run(&["analyze", "--partial", &b, &hybrid], 0);
    let merged = run(&["merge", "--sweep", &a, &b], 0);
    let merged: Value = serde_json::from_slice(&merged.stdout).unwrap();
    assert_valid("merge", &partial, &merged);
    assert_eq!(merged, {
        let mut whole = whole;
        whole.as_object_mut().unwrap().remove("traces");
        whole
    });
}

#[test]
fn the_report_files_match_the_printed_schemas() {
    let dir = temp_dir("reports");
    let out = |name: &str| dir.join(name).display().to_string();
    let golden = fixture_arg("golden-cases.json");
    let compare_cases = fixture_arg("compare-cases.json");
    let run_a = fixture_arg("compare-run-a.json");
    let run_b = fixture_arg("compare-run-b.json");

    run(
        &[
            "eval",
            "--cases",
            &golden,
            "--out-dir",
            &out("eval"),
            &fixture_arg("golden-runs.json"),
        ],
        0,
    );
    run(
        &[
            "eval",
            "--cases",
            &compare_cases,
            "--out-dir",
            &out("a"),
            &run_a,
        ],
        0,
    );
    let baseline = dir.join("a/report.json").display().to_string();
    run(
        &[
            "eval",
            "--cases",
            &compare_cases,
            "--baseline",
            &baseline,
            "--out-dir",
            &out("b"),
            &run_b,
        ],
        0,
    );
    let report = printed("report");
    assert_valid(
        "eval's report.json",
        &report,
        &read_json(&dir.join("eval/report.json")),
    );
    let with_baseline = read_json(&dir.join("b/report.json"));
    assert!(with_baseline.get("comparison").is_some());
    assert_valid("eval --baseline's report.json", &report, &with_baseline);

    run(
        &[
            "compare",
            "--a",
            &run_a,
            "--b",
            &run_b,
            "--cases",
            &compare_cases,
            "--out-dir",
            &out("two"),
        ],
        0,
    );
    let many = ["dense", "hybrid", "rerank"].map(|name| {
        let path = dir.join(format!("{name}.json"));
        (name, path.display().to_string())
    });
    let (texts, cases) = ragtrace_core::generate_many_runs(3, 60, 8, 5);
    for ((_, path), text) in many.iter().zip(&texts) {
        std::fs::write(path, text).unwrap();
    }
    let many_cases = out("many-cases.json");
    std::fs::write(&many_cases, cases).unwrap();
    let mut args = vec!["compare".to_owned(), "--cases".to_owned(), many_cases];
    for (name, path) in &many {
        args.extend(["--run".to_owned(), format!("{name}={path}")]);
    }
    args.extend(["--out-dir".to_owned(), out("many")]);
    run(&args.iter().map(String::as_str).collect::<Vec<_>>(), 0);
    let compare = printed("compare");
    let two = read_json(&dir.join("two/compare.json"));
    assert_valid("compare --a --b", &compare, &two);
    let many = read_json(&dir.join("many/compare.json"));
    assert_valid("compare --run", &compare, &many);
    assert!(two.get("pairs").is_some() && many.get("metrics").is_some());

    run(
        &[
            "calibrate",
            "--cases",
            &fixture_arg("calibration/cases.json"),
            "--set",
            "referenceThreshold=0.3",
            "--out-dir",
            &out("calibration"),
            &fixture_arg("calibration/traces.json"),
        ],
        0,
    );
    let calibration = read_json(&dir.join("calibration/calibration.json"));
    assert_valid("calibration.json", &printed("calibration"), &calibration);

    run(
        &[
            "explain",
            "--cases",
            &fixture_arg("explain-cases.json"),
            "--out-dir",
            &out("explain"),
            &fixture_arg("explain-traces.json"),
        ],
        0,
    );
    let explain = read_json(&dir.join("explain/explain.json"));
    assert_valid("explain.json", &printed("explain"), &explain);
    std::fs::remove_dir_all(&dir).ok();
}
