//! End-to-end: `ragtrace analyze` (whole and `--summary`), a partial and `merge` list
//! the first 1,000 input errors, count the rest by code, and print one line saying so.

use crate::run::{ragtrace, temp_file};
use serde_json::{json, Value};
use std::process::Output;

fn last_json(out: &Output) -> Value {
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text.lines().last().expect("some output");
    serde_json::from_str(last).expect("one JSON object")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// 1,500 lines `{}`, then 300 lines cut short: 1,800 errors, lines 1-1,000 listed,
/// 500 missing-candidates and 300 malformed-json counted.
fn bad_lines() -> String {
    format!("{}{}", "{}\n".repeat(1_500), "{\"a\":\n".repeat(300))
}

fn assert_bounded(v: &Value) {
    let listed = v["inputErrors"].as_array().expect("inputErrors");
    assert_eq!(listed.len(), 1_000);
    assert_eq!(listed[0]["line"], 1);
    assert_eq!(listed[999]["line"], 1_000);
    assert_eq!(
        v["inputErrorsOmitted"],
        json!({"malformed-json": 300, "missing-candidates": 500})
    );
    assert_eq!(v["documents"][0]["errors"], 1_800);
}

const OMITTED_LINE: &str = "ragtrace: 1,800 inputs could not be used (the first 1,000 are listed; not listed: 300 malformed-json, 500 missing-candidates)";

#[test]
fn analyze_lists_a_thousand_and_counts_the_rest() {
    let file = temp_file("bad.jsonl", bad_lines());
    let out = ragtrace(&["analyze", &file]);
    assert_eq!(out.status.code(), Some(1));
    assert_bounded(&last_json(&out));
    let err = stderr(&out);
    // One line per listed error (with its line of text and caret when it has one).
    assert_eq!(
        err.matches(": the trace has no candidates array").count(),
        1_000
    );
    assert!(
        err.contains(":1000 at /999: the trace has no candidates array"),
        "{err}"
    );
    assert!(
        !err.contains(":1001 at "),
        "the 1,001st error is not printed"
    );
    assert!(
        err.ends_with(&format!("{OMITTED_LINE}\n")),
        "{}",
        &err[err.len() - 300..]
    );
}

#[test]
fn summary_and_jsonl_are_bounded_the_same() {
    let file = temp_file("bad-summary.jsonl", bad_lines());
    let summary: &[&str] = &["analyze", "--summary", &file];
    let jsonl: &[&str] = &["analyze", "--format", "jsonl", &file];
    for args in [summary, jsonl] {
        let out = ragtrace(args);
        assert_eq!(out.status.code(), Some(1));
        assert_bounded(&last_json(&out));
        let err = stderr(&out);
        assert_eq!(
            err.matches(": the trace has no candidates array").count(),
            1_000
        );
        assert!(err.ends_with(&format!("{OMITTED_LINE}\n")));
    }
}

/// Up to the bound the output is as before: no `inputErrorsOmitted`, no count line.
#[test]
fn a_thousand_errors_are_all_listed_without_a_count() {
    let file = temp_file("thousand.jsonl", "{}\n".repeat(1_000));
    let out = ragtrace(&["analyze", "--summary", &file]);
    let v = last_json(&out);
    assert_eq!(v["inputErrors"].as_array().map(Vec::len), Some(1_000));
    assert!(v.get("inputErrorsOmitted").is_none());
    assert!(!stderr(&out).contains("could not be used"));
}

/// Two partials of 700 bad lines each, merged: a's 700 and b's first 300 listed,
/// b's other 400 counted; the same as `--summary` over both files.
#[test]
fn merged_partials_keep_the_bound_and_add_the_counts() {
    let a = temp_file("a.jsonl", "{}\n".repeat(700));
    let b = temp_file("b.jsonl", "{\"candidates\": 3}\n".repeat(700));
    let pa = temp_file("a.partial", "");
    let pb = temp_file("b.partial", "");
    assert_eq!(
        ragtrace(&["analyze", "--partial", &pa, &a]).status.code(),
        Some(1)
    );
    assert_eq!(
        ragtrace(&["analyze", "--partial", &pb, &b]).status.code(),
        Some(1)
    );
    let merged = ragtrace(&["merge", &pb, &pa]);
    assert_eq!(merged.status.code(), Some(1));
    let v = last_json(&merged);
    let listed = v["inputErrors"].as_array().expect("inputErrors");
    assert_eq!(listed.len(), 1_000);
    assert_eq!(listed[699]["source"], a.as_str());
    assert_eq!(listed[700]["source"], b.as_str());
    assert_eq!(listed[999]["line"], 300);
    assert_eq!(v["inputErrorsOmitted"], json!({"list-not-array": 400}));
    assert!(stderr(&merged).ends_with(
        "ragtrace: 1,400 inputs could not be used (the first 1,000 are listed; not listed: 400 list-not-array)\n"
    ));
    let summary = last_json(&ragtrace(&["analyze", "--summary", &a, &b]));
    assert_eq!(summary["inputErrors"], v["inputErrors"]);
    assert_eq!(summary["inputErrorsOmitted"], v["inputErrorsOmitted"]);
}
