//! End-to-end: `ragtrace compare` and `ragtrace eval --baseline`, their files and exit codes.

use crate::common;

use common::fixture_arg;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn ragtrace(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ragtrace"))
        .args(args)
        .output()
        .expect("the ragtrace binary runs")
}

/// A fresh folder per test (tests run in parallel).
fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "ragtrace-cli-compare-{}-{test}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn read_json(path: PathBuf) -> Value {
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).expect("valid JSON")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn compare(dir: &Path, extra: &[&str]) -> Output {
    let (a, b, cases) = (
        fixture_arg("compare-run-a.json"),
        fixture_arg("compare-run-b.json"),
        fixture_arg("compare-cases.json"),
    );
    let out_dir = dir.display().to_string();
    let mut args = vec![
        "compare",
        "--a",
        &a,
        "--b",
        &b,
        "--cases",
        &cases,
        "--out-dir",
        &out_dir,
    ];
    args.extend_from_slice(extra);
    ragtrace(&args)
}

/// The fixture's numbers, derived by hand: c1 pairs by caseId (A: a b c d e, B: b a x c y),
/// "Session timeout" by query (B kept none of f g), r-3 by requestId (h i against i h).
#[test]
fn compare_writes_json_and_markdown_with_the_hand_derived_numbers() {
    let dir = temp_dir("numbers");
    let out = compare(&dir, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let summary = String::from_utf8_lossy(&out.stdout);
    assert!(
        summary.starts_with(
            "run comparison: 3 pairs (4 traces in A, 4 in B; 1 unpaired in A, 1 in B)"
        ),
        "{summary}"
    );

    let report = read_json(dir.join("compare.json"));
    assert_eq!(report["version"], 1);
    assert_eq!(report["options"]["rboP"], 0.9);
    let pairs = report["pairs"].as_array().expect("pairs");
    assert_eq!(pairs.len(), 3);
    let c1 = &pairs[0];
    assert_eq!(c1["pairedBy"], "caseId");
    assert_eq!(c1["modePair"], "dense->hybrid");
    assert_eq!(c1["k"], 5);
    assert_eq!(c1["overlapDocs"], 0.6); // a, b, c of five
    assert_eq!(c1["jaccard"], 3.0 / 7.0);
    // a before b in A, after in B; (a, c) and (b, c) agree: (2 - 1) / 3.
    assert_eq!(c1["kendallTauB"], 1.0 / 3.0);
    // The PyPI rbo package's rbo_ext gives 0.5923350000000001.
    let ext = c1["rbo"]["ext"].as_f64().unwrap_or(f64::NAN);
    assert!((ext - 0.592335).abs() < 1e-12, "{ext}");
    assert_eq!(c1["onlyInA"][0]["docId"], "kb-d");
    assert_eq!(c1["onlyInA"][0]["docRank"], 4);
    assert_eq!(c1["onlyInB"][1]["docId"], "kb-y");
    assert_eq!(pairs[1]["pairedBy"], "query");
    assert_eq!(pairs[1]["bKeptNone"], true);
    assert_eq!(pairs[1]["levelA"], "RELEVANT");
    assert_eq!(pairs[1]["levelB"], "PRECISE");
    assert_eq!(pairs[2]["pairedBy"], "requestId");
    assert_eq!(pairs[2]["kendallTauB"], -1.0);
    assert_eq!(report["bKeptNone"], json!([1]));
    assert_eq!(report["unpairedA"][0]["name"], "a-4");
    assert_eq!(report["unpairedB"][0]["name"], "b-4");
    let all = &report["groups"][0];
    assert_eq!(all["group"], "all");
    assert_eq!(all["levelTransitions"][2][0], 1); // RELEVANT -> PRECISE
    assert_eq!(all["levelImproved"], 1);

    let golden = &report["golden"];
    assert_eq!(golden["regressions"], 1);
    assert_eq!(golden["cases"][0]["caseId"], "c1");
    assert_eq!(golden["cases"][0]["levelA"], "strong");
    assert_eq!(golden["cases"][0]["levelB"], "miss");
    // Two cases whose differences cancel or differ in sign: no sign flip is rarer.
    assert_eq!(golden["metrics"][0]["significance"]["permutationP"], 1.0);

    let markdown = std::fs::read_to_string(dir.join("compare.md")).expect("compare.md");
    assert!(markdown.starts_with("# Run comparison\n"));
    assert!(
        markdown.contains("| c1 (regression) | strong | miss |"),
        "{markdown}"
    );
}

#[test]
fn fail_on_sets_exit_3_only_when_the_gate_trips() {
    let dir = temp_dir("gate");
    let out = compare(&dir, &["--fail-on", "regression"]);
    assert_eq!(out.status.code(), Some(3));
    assert!(
        stderr(&out).contains("1 case(s) regressed: c1 (strong -> miss)"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        compare(&dir, &["--fail-on", "significant"]).status.code(),
        Some(0)
    );
    assert_eq!(
        compare(&dir, &["--fail-on", "never"]).status.code(),
        Some(0)
    );
    assert_eq!(
        compare(&dir, &["--fail-on", "sometimes"]).status.code(),
        Some(2)
    );
    assert_eq!(compare(&dir, &["--rbo-p", "1"]).status.code(), Some(2));
    let cases = fixture_arg("compare-cases.json");
    let run = fixture_arg("compare-run-b.json");
    let out_dir = dir.display().to_string();
    let out = ragtrace(&[
        "eval",
        "--cases",
        &cases,
        "--out-dir",
        &out_dir,
        "--fail-on",
        "regression",
        &run,
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--fail-on needs --baseline"),
        "{}",
        stderr(&out)
    );
}

/// The settings apply to both runs: returnN 2 cuts both accepted lists to two blocks.
#[test]
fn settings_apply_to_both_runs() {
    let dir = temp_dir("settings");
    let out = compare(&dir, &["--set", "returnN=2", "--rbo-p", "0.5"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report = read_json(dir.join("compare.json"));
    let c1 = &report["pairs"][0];
    assert_eq!(c1["k"], 2);
    assert_eq!(c1["acceptedA"].as_array().map(Vec::len), Some(2));
    assert_eq!(c1["acceptedB"].as_array().map(Vec::len), Some(2));
    // A: a b, B: b a: overlap@2 = 1; RBO_ext with p = 0.5 is (1-p)/p (0 + 1·p²) + 1·p² = 0.5.
    assert_eq!(c1["overlapDocs"], 1.0);
    assert_eq!(c1["rbo"]["ext"], 0.5);
    assert_eq!(report["options"]["rboP"], 0.5);
    assert_eq!(report["config"]["returnN"], 2);
}

#[test]
fn runs_with_no_query_in_common_say_so() {
    let dir = temp_dir("disjoint");
    let a = dir.join("a.json");
    let b = dir.join("b.json");
    let trace = |id: &str, query: &str| {
        json!({"requestId": id, "query": query, "candidates": [
            {"evidenceKey": "k#1", "docId": "k", "originalRank": 1, "score": 0.2, "scoreLabel": "dense"}]})
    };
    std::fs::write(
        &a,
        json!([trace("a1", "first question"), trace("a2", "second")]).to_string(),
    )
    .expect("write");
    std::fs::write(&b, json!([trace("b1", "another question")]).to_string()).expect("write");
    let out_dir = dir.display().to_string();
    let (a, b) = (a.display().to_string(), b.display().to_string());
    let out = ragtrace(&["compare", "--a", &a, "--b", &b, "--out-dir", &out_dir]);
    assert_eq!(out.status.code(), Some(0));
    let message = stderr(&out);
    assert!(
        message.contains(
            "no query in common: all 2 trace(s) of run A and all 1 of run B are unpaired"
        ) && message.contains("\"first question\", \"second\"")
            && message.contains("\"another question\""),
        "{message}"
    );
    let report = read_json(dir.join("compare.json"));
    assert_eq!(report["pairs"], json!([]));
}

/// Twenty cases all found by A and all missed by B: every metric drops, p is tiny.
#[test]
fn eval_baseline_gates_a_significant_drop_and_writes_the_comparison() {
    let dir = temp_dir("baseline");
    let traces = |docs: &str| {
        let list: Vec<Value> = (0..20)
            .map(|i| json!({"requestId": format!("t{i}"), "caseId": format!("c{i}"), "query": format!("q{i}"),
                "candidates": [{"evidenceKey": format!("{docs}{i}#1"), "docId": format!("{docs}{i}"),
                "originalRank": 1, "score": 0.2, "scoreLabel": "dense"}]}))
            .collect();
        Value::Array(list).to_string()
    };
    let cases: Vec<Value> = (0..20)
        .map(|i| json!({"caseId": format!("c{i}"), "expectedDocIds": [format!("good{i}")]}))
        .collect();
    let write = |name: &str, text: String| {
        let path = dir.join(name);
        std::fs::write(&path, text).expect("write");
        path.display().to_string()
    };
    let (good, bad) = (
        write("good.json", traces("good")),
        write("bad.json", traces("bad")),
    );
    let cases = write("cases.json", Value::Array(cases).to_string());
    let (old, new) = (dir.join("old"), dir.join("new"));
    let (old, new) = (old.display().to_string(), new.display().to_string());
    let baseline = format!("{old}/report.json");
    assert_eq!(
        ragtrace(&["eval", "--cases", &cases, "--out-dir", &old, &good])
            .status
            .code(),
        Some(0)
    );
    let eval = |fail_on: &str| {
        ragtrace(&[
            "eval",
            "--cases",
            &cases,
            "--out-dir",
            &new,
            "--baseline",
            &baseline,
            "--fail-on",
            fail_on,
            &bad,
        ])
    };
    let out = eval("significant");
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("metric mean(s) dropped significantly: hit (mean -1.0000"),
        "{}",
        stderr(&out)
    );
    let report = read_json(PathBuf::from(format!("{new}/report.json")));
    let hit = &report["comparison"]["metrics"][0];
    assert_eq!(hit["metric"], "hit");
    assert_eq!(hit["losses"], 20);
    // All 20 differences -1: only the two same-sign flips of 2^20 reach |mean| = 1.
    let p = hit["significance"]["permutationP"]
        .as_f64()
        .unwrap_or(f64::NAN);
    assert!(p < 0.001, "{p}");
    assert_eq!(report["comparison"]["regressions"], 20);
    let markdown = std::fs::read_to_string(format!("{new}/report.md")).expect("report.md");
    assert!(markdown.contains("\n## Changes since the baseline\n"));
    assert_eq!(eval("regression").status.code(), Some(3));
    assert_eq!(eval("never").status.code(), Some(0));

    // Without --baseline, report.json has no comparison key.
    assert_eq!(
        ragtrace(&["eval", "--cases", &cases, "--out-dir", &new, &bad])
            .status
            .code(),
        Some(0)
    );
    assert!(read_json(PathBuf::from(format!("{new}/report.json")))
        .get("comparison")
        .is_none());
}

#[test]
fn a_baseline_of_another_shape_exits_2_naming_the_place_and_what_was_expected() {
    let dir = temp_dir("bad-baseline");
    let cases = fixture_arg("compare-cases.json");
    let run = fixture_arg("compare-run-b.json");
    let out_dir = dir.display().to_string();
    let cases_of = |baseline: &str| {
        let path = dir.join("baseline.json");
        std::fs::write(&path, baseline).expect("write");
        let path = path.display().to_string();
        ragtrace(&[
            "eval",
            "--cases",
            &cases,
            "--out-dir",
            &out_dir,
            "--baseline",
            &path,
            &run,
        ])
    };
    let out = cases_of(r#"{"summary": {}, "cases": [{"caseId": "c1", "level": "excellent"}]}"#);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out)
            .contains(r#"at /cases/0/level: expected one of "strong", "medium", "weak", "miss""#),
        "{}",
        stderr(&out)
    );
    let out = cases_of(r#"{"traces": []}"#);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("at /summary: expected an object"),
        "{}",
        stderr(&out)
    );
    let out = cases_of("[1,");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("baseline.json:1:3: the baseline is not JSON"),
        "{}",
        stderr(&out)
    );
}
