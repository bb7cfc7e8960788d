//! End-to-end: `ragtrace analyze --format jsonl` and `--summary` read files as a stream
//! and agree with the one JSON object; bad bytes cost one line; non-JSON is refused
//! from its first chunk.

use crate::common;

use crate::run::{ragtrace, temp_file};
use common::fixture_arg;
use ragtrace_core::{generate_batch, generate_batch_lines};
use serde_json::Value;
use std::io::Write;
use std::process::{Command, Output, Stdio};

fn stdout_lines(out: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("each line is one JSON value"))
        .collect()
}

/// The default object without its traces: what `--summary` prints.
fn without_traces(mut whole: Value) -> Value {
    if let Some(object) = whole.as_object_mut() {
        object.remove("traces");
    }
    whole
}

#[test]
fn jsonl_lines_are_the_default_output_split_and_summary_is_its_batch_view() {
    let generated = temp_file("generated.json", generate_batch(30, 6, 7).as_bytes());
    let lines = generate_batch_lines(10, 6, 8)
        .collect::<Vec<_>>()
        .join("\n");
    let generated_lines = temp_file("generated.jsonl", lines.as_bytes());
    let files = [
        fixture_arg("dense-trace.json"),
        fixture_arg("lookup-result.jsonl"),
        generated,
        generated_lines,
        fixture_arg("hybrid-legacy-trace.json"),
    ];
    let args = |extra: &[&'static str]| -> Vec<String> {
        let mut all: Vec<String> = ["analyze", "--sweep", "--set", "returnN=3"]
            .iter()
            .chain(extra)
            .map(|s| s.to_string())
            .collect();
        all.extend(files.iter().cloned());
        all
    };
    let run = |extra: &[&'static str]| {
        let args = args(extra);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        ragtrace(&args)
    };

    let whole = run(&[]);
    assert_eq!(whole.status.code(), Some(0));
    let whole_text = String::from_utf8_lossy(&whole.stdout).into_owned();
    let whole: Value = serde_json::from_str(&whole_text).expect("one JSON object");
    let traces = whole["traces"].as_array().cloned().unwrap_or_default();
    assert_eq!(traces.len(), 1 + 2 + 30 + 10 + 1);

    let streamed = run(&["--format", "jsonl"]);
    assert_eq!(streamed.status.code(), Some(0));
    let mut lines = stdout_lines(&streamed);
    let view = lines.pop().expect("the batch view comes last");
    assert_eq!(lines, traces, "one line per trace, positions across files");
    assert_eq!(view, without_traces(whole.clone()));
    // Byte for byte too: the lines are the default output's array elements.
    let joined = String::from_utf8_lossy(&streamed.stdout)
        .lines()
        .take(traces.len())
        .collect::<Vec<_>>()
        .join(",");
    assert!(whole_text.contains(&format!("\"traces\":[{joined}]")));

    for extra in [&["--summary"][..], &["--summary", "--format", "jsonl"]] {
        let summary = run(extra);
        assert_eq!(summary.status.code(), Some(0));
        assert_eq!(stdout_lines(&summary), [without_traces(whole.clone())]);
    }
}

/// Latin-1 text in one line of a JSON Lines file: that line is an error at its line
/// and character column, every other line is analysed, in each output format.
#[test]
fn a_line_that_is_not_utf8_costs_only_that_line() {
    let mut lines: Vec<Vec<u8>> = generate_batch_lines(5, 3, 1)
        .map(String::into_bytes)
        .collect();
    lines.insert(2, b"{\"query\": \"caf\xE9\", \"candidates\": []}".to_vec());
    let file = temp_file("latin1.jsonl", lines.join(&b'\n'));

    let whole = ragtrace(&["analyze", &file]);
    assert_eq!(whole.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&whole.stderr);
    assert!(
        stderr.contains(&format!("{file}:3:15: not UTF-8: byte 0xE9")),
        "{stderr}"
    );
    let v: Value = serde_json::from_slice(&whole.stdout).expect("the analysis");
    let lines_read: Vec<Value> = v["traces"]
        .as_array()
        .map(|ts| ts.iter().map(|t| t["line"].clone()).collect())
        .unwrap_or_default();
    assert_eq!(lines_read, [1, 2, 4, 5, 6].map(Value::from));
    assert_eq!(v["inputErrors"][0]["line"], 3);
    assert_eq!(v["inputErrors"][0]["column"], 15);

    let streamed = ragtrace(&["analyze", "--format", "jsonl", &file]);
    assert_eq!(streamed.status.code(), Some(1));
    let out = stdout_lines(&streamed);
    assert_eq!(out.len(), 5 + 1);
    assert_eq!(out[5]["inputErrors"], v["inputErrors"]);
}

/// A file that is not JSON is given up after its first chunk: fed through a pipe that
/// is never closed, the command still ends, and the writer finds the pipe closed long
/// before it has written everything.
#[test]
fn input_that_is_not_json_is_refused_after_the_first_chunk() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ragtrace"))
        .args(["analyze", "--format", "jsonl", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the ragtrace binary runs");
    let mut input = child.stdin.take().expect("a pipe");
    let block = "This is a plain text report, not JSON.\n".repeat(1_000);
    let mut written = 0usize;
    let limit = 256 << 20;
    while written < limit {
        match input.write_all(block.as_bytes()) {
            Ok(()) => written += block.len(),
            Err(_) => break,
        }
    }
    assert!(written < limit, "the whole input was read");
    drop(input);
    let out = child.wait_with_output().expect("the command ends");
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("stdin:1:1: malformed JSON"), "{stderr}");
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), 1, "no trace, only the batch view");
    assert_eq!(lines[0]["documents"][0]["traces"], 0);
}
