//! End-to-end: `ragtrace compare --run NAME=FILE ...`, its files, gate and errors.

use ragtrace_core::{
    compare_many_batches, generate_many_runs, parse_cases, parse_document, ManyRunOptions, Settings,
};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const NAMES: [&str; 5] = ["r0", "r1", "r2", "r3", "r4"];

fn ragtrace(args: &[String]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ragtrace"))
        .args(args)
        .output()
        .expect("the ragtrace binary runs")
}

/// A fresh folder per test (tests run in parallel) holding five generated runs of 150
/// queries (r0 worst ... r4 best; one query missing from r4) and their cases.
fn runs_in(test: &str) -> (PathBuf, Vec<String>, String) {
    let dir = std::env::temp_dir().join(format!(
        "ragtrace-cli-compare-many-{}-{test}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (runs, cases) = generate_many_runs(5, 150, 10, 7);
    let mut args = Vec::new();
    for (name, text) in NAMES.iter().zip(&runs) {
        let path = dir.join(format!("{name}.json"));
        std::fs::write(&path, text).expect("written");
        args.push("--run".to_owned());
        args.push(format!("{name}={}", path.display()));
    }
    std::fs::write(dir.join("cases.json"), &cases).expect("written");
    (dir, args, cases)
}

fn compare(dir: &Path, runs: &[String], extra: &[&str]) -> Output {
    let mut args = vec!["compare".to_owned()];
    args.extend_from_slice(runs);
    args.extend(
        [
            "--cases",
            &dir.join("cases.json").display().to_string(),
            "--out-dir",
            &dir.join("out").display().to_string(),
        ]
        .map(str::to_owned),
    );
    args.extend(extra.iter().map(|s| (*s).to_owned()));
    ragtrace(&args)
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn many_runs_write_the_core_comparison_as_json_and_a_table() {
    let (dir, runs, cases) = runs_in("files");
    let out = compare(&dir, &runs, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = std::fs::read_to_string(dir.join("out/compare.json")).expect("compare.json");
    let report: Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(report["runs"], serde_json::json!(NAMES));
    assert_eq!(report["baseline"], "r0");
    assert_eq!(report["cases"]["common"], 149);
    assert_eq!(report["partialCases"][0]["caseId"], "m-00097");
    let hit = &report["metrics"][0];
    assert_eq!(hit["metric"], "hit");
    for key in ["means", "ci", "letters", "wins", "ties"] {
        assert_eq!(hit[key].as_array().map(Vec::len), Some(5), "{key}");
    }
    assert_eq!(hit["tukey"]["p"].as_array().map(Vec::len), Some(5));
    // The same numbers as the core computes in-process.
    let cases = parse_cases("cases.json", &cases).expect("cases");
    let (texts, _) = generate_many_runs(5, 150, 10, 7);
    let batches: Vec<_> = texts.iter().map(|t| parse_document("run", t)).collect();
    let named: Vec<_> = NAMES.iter().copied().zip(&batches).collect();
    let expected = compare_many_batches(
        &named,
        &Settings::default(),
        &cases,
        &ManyRunOptions::default(),
    )
    .expect("compared");
    assert_eq!(
        report["metrics"],
        serde_json::to_value(&expected.metrics).expect("JSON")
    );
    let markdown = std::fs::read_to_string(dir.join("out/compare.md")).expect("compare.md");
    assert!(
        markdown.contains("| run | hit | recall@k | P@k | MRR | nDCG@k |"),
        "{markdown}"
    );
    let r4 = format!(
        "| r4 | {:.3} {} |",
        expected.metrics[0].means[4], expected.metrics[0].letters[4]
    );
    assert!(markdown.contains(&r4), "{r4} in {markdown}");
    let summary = String::from_utf8_lossy(&out.stdout);
    assert!(
        summary.contains("Means over the 149 case(s) every run answered."),
        "{summary}"
    );
}

#[test]
fn the_gate_trips_when_a_run_is_significantly_worse_than_the_baseline() {
    let (dir, runs, _) = runs_in("gate");
    let out = compare(
        &dir,
        &runs,
        &["--baseline", "r4", "--fail-on", "regression"],
    );
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("significantly worse than the baseline \"r4\""),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("r0 on hit"), "{}", stderr(&out));
    // Against the worst run nothing is worse.
    let out = compare(
        &dir,
        &runs,
        &["--baseline", "r0", "--fail-on", "regression"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = compare(&dir, &runs, &["--baseline", "r9"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--baseline: the baseline \"r9\" is not one of the runs"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn bad_runs_are_usage_errors_that_say_what_to_do() {
    let (dir, runs, _) = runs_in("bad");
    let one = compare(&dir, &runs[..2], &[]);
    assert_eq!(one.status.code(), Some(2));
    assert!(
        stderr(&one).contains("only one run given (\"r0\")"),
        "{}",
        stderr(&one)
    );
    let twice = [
        runs[0].clone(),
        runs[1].clone(),
        runs[0].clone(),
        runs[1].clone(),
    ];
    let out = compare(&dir, &twice, &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("the name \"r0\" is given to runs 1 and 2"),
        "{}",
        stderr(&out)
    );
    let unnamed = [
        "--run".to_owned(),
        "r0.json".to_owned(),
        runs[2].clone(),
        runs[3].clone(),
    ];
    let out = compare(&dir, &unnamed, &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("give the run's name and its trace file as NAME=FILE"),
        "{}",
        stderr(&out)
    );
    let empty = dir.join("empty.json");
    std::fs::write(&empty, "[]").expect("written");
    let with_empty = [
        runs[0].clone(),
        runs[1].clone(),
        "--run".to_owned(),
        format!("nothing={}", empty.display()),
    ];
    let out = compare(&dir, &with_empty, &[]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("run \"nothing\" has no trace"),
        "{}",
        stderr(&out)
    );
}
