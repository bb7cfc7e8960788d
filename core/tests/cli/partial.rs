//! End-to-end: `ragtrace analyze --partial` of each file (or of groups of files),
//! `ragtrace merge` of the partials prints byte for byte what `analyze --summary`
//! prints for all the files, with the same exit status; corrupt partials and partials
//! of different settings are refused with a usage error naming the file.

use crate::common;

use common::fixture_arg;
use ragtrace_core::generate_batch_lines;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "ragtrace-cli-partial-{}-{name}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir
}

fn ragtrace<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ragtrace"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the ragtrace binary runs")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The fixtures and a generated JSON Lines file with bad lines, in name order (the
/// batch order of merged partials).
fn inputs(dir: &std::path::Path) -> Vec<String> {
    let mut lines: Vec<String> = generate_batch_lines(40, 4, 3).collect();
    lines[7] = "{\"candidates\": [".into();
    lines[12] = "[1, 2]".into();
    lines[20] = lines[20].replace("\"requestId\"", "\"note\"");
    let generated = dir.join("generated.jsonl");
    std::fs::write(&generated, lines.join("\n")).expect("a temporary file");
    let mut files: Vec<String> = [
        "compare-run-a.json",
        "dense-trace.json",
        "golden-runs.json",
        "hybrid-legacy-trace.json",
        "lookup-result.jsonl",
        "calibration/traces.json",
    ]
    .iter()
    .map(|name| fixture_arg(name))
    .chain([generated.display().to_string()])
    .collect();
    files.sort();
    files
}

fn partial_of(dir: &std::path::Path, name: &str, files: &[String], settings: &[&str]) -> String {
    let out = dir.join(name).display().to_string();
    let mut args: Vec<String> = vec!["analyze".into(), "--partial".into(), out.clone()];
    args.extend(settings.iter().map(|s| s.to_string()));
    args.extend(files.iter().cloned());
    let run = ragtrace(&args);
    assert!(
        matches!(run.status.code(), Some(0 | 1)),
        "analyze --partial: {}",
        stderr(&run)
    );
    assert!(
        run.stdout.is_empty(),
        "a partial is written to its file, not printed"
    );
    out
}

#[test]
fn merged_partials_print_the_summary_of_all_the_files() {
    let dir = temp_dir("merge");
    let files = inputs(&dir);
    let settings = ["--set", "maxL2Distance=0.9", "--set", "returnN=3"];
    for sweep in [true, false] {
        let mut whole_args: Vec<String> = vec!["analyze".into(), "--summary".into()];
        if sweep {
            whole_args.push("--sweep".into());
        }
        whole_args.extend(settings.iter().map(|s| s.to_string()));
        whole_args.extend(files.iter().cloned());
        let whole = ragtrace(&whole_args);
        assert!(!whole.stdout.is_empty());

        // One partial per file, given to merge in reverse order.
        let mut each: Vec<String> = files
            .iter()
            .enumerate()
            .map(|(i, file)| {
                partial_of(
                    &dir,
                    &format!("file-{i}.partial"),
                    std::slice::from_ref(file),
                    &settings,
                )
            })
            .collect();
        each.reverse();
        // Files grouped into partials of several files.
        let grouped = vec![
            partial_of(&dir, "late.partial", &files[4..], &settings),
            partial_of(&dir, "early.partial", &files[..4], &settings),
        ];
        // Partials merged in two rounds: the first written as partials.
        let mut rounds = Vec::new();
        for (name, group) in [("odd.partial", 1), ("even.partial", 0)] {
            let out = dir.join(name).display().to_string();
            let mut args = vec!["merge".to_owned(), "--partial".to_owned(), out.clone()];
            args.extend(each.iter().skip(group).step_by(2).cloned());
            let run = ragtrace(&args);
            assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
            assert!(run.stdout.is_empty());
            rounds.push(out);
        }
        for partials in [each, grouped, rounds] {
            let mut args: Vec<String> = vec!["merge".into()];
            if sweep {
                args.push("--sweep".into());
            }
            args.extend(partials);
            let merged = ragtrace(&args);
            assert_eq!(
                String::from_utf8_lossy(&merged.stdout),
                String::from_utf8_lossy(&whole.stdout),
                "merge of the partials prints the summary of the whole"
            );
            assert_eq!(merged.status.code(), whole.status.code());
            assert_eq!(merged.status.code(), Some(1), "the batch has input errors");
            assert!(
                stderr(&merged).contains("generated.jsonl:8:"),
                "{}",
                stderr(&merged)
            );
        }
    }
}

#[test]
fn corrupt_or_foreign_partials_are_usage_errors_naming_the_file() {
    let dir = temp_dir("corrupt");
    let good = partial_of(
        &dir,
        "good.partial",
        &[fixture_arg("dense-trace.json")],
        &[],
    );
    let bytes = std::fs::read(&good).expect("the partial");

    let cut = dir.join("cut.partial");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).expect("a file");
    let mut other_version = bytes.clone();
    other_version[ragtrace_core::PARTIAL_MAGIC.len()] = 0x7f;
    let versioned = dir.join("versioned.partial");
    std::fs::write(&versioned, other_version).expect("a file");
    let cases = [
        (cut.display().to_string(), "a corrupt ragtrace partial"),
        (versioned.display().to_string(), "format version 127"),
        (fixture_arg("dense-trace.json"), "not a ragtrace partial"),
        (
            dir.join("missing.partial").display().to_string(),
            "missing.partial",
        ),
    ];
    for (bad, expected) in cases {
        let run = ragtrace(&["merge", good.as_str(), bad.as_str()]);
        assert_eq!(run.status.code(), Some(2), "{bad}");
        assert!(run.stdout.is_empty());
        let message = stderr(&run);
        assert!(message.contains(&bad), "names the file: {message}");
        assert!(message.contains(expected), "{message}");
    }
}

#[test]
fn partials_of_different_settings_are_refused() {
    let dir = temp_dir("settings");
    let one = partial_of(&dir, "one.partial", &[fixture_arg("dense-trace.json")], &[]);
    let other = partial_of(
        &dir,
        "other.partial",
        &[fixture_arg("lookup-result.jsonl")],
        &["--set", "preciseThreshold=0.8"],
    );
    let run = ragtrace(&["merge", one.as_str(), other.as_str()]);
    assert_eq!(run.status.code(), Some(2));
    let message = stderr(&run);
    assert!(
        message.contains("one.partial") && message.contains("other.partial"),
        "{message}"
    );
    assert!(
        message.contains("preciseThreshold is not set in one and 0.8 in another"),
        "{message}"
    );
    // A partial is not a summary: --partial goes with neither --summary nor --format.
    let run = ragtrace(&[
        "analyze",
        "--summary",
        "--partial",
        "x",
        &fixture_arg("dense-trace.json"),
    ]);
    assert_eq!(run.status.code(), Some(2));
}

/// A file cut into runs of lines (as `split -l` cuts it), each run's partial made
/// with the file's name and its first line, merges into the summary of the file:
/// input errors at the file's lines, unnamed traces at the file's positions.
#[test]
fn line_shards_of_a_file_merge_into_its_summary() {
    let dir = temp_dir("lines");
    let unnamed = |line: &str, options: bool| {
        let mut trace: serde_json::Value = serde_json::from_str(line).expect("generated JSON");
        if let Some(object) = trace.as_object_mut() {
            object.remove("requestId");
            object.remove("request_id");
            if options {
                object.insert("options".into(), serde_json::json!({ "maxL2Distance": -5 }));
            }
        }
        trace.to_string()
    };
    let mut lines: Vec<String> = generate_batch_lines(30, 4, 9).collect();
    lines[2] = unnamed(&lines[2], false);
    lines[5] = "{\"candidates\": [".into();
    lines[11] = String::new();
    lines[21] = unnamed(&lines[21], true);
    lines[23] = "[1, 2]".into();
    lines[26] = unnamed(&lines[26], true);
    let whole_file = dir.join("day.jsonl").display().to_string();
    std::fs::write(&whole_file, lines.join("\n")).expect("a temporary file");
    let whole = ragtrace(&["analyze", "--summary", "--sweep", whole_file.as_str()]);
    let printed = String::from_utf8_lossy(&whole.stdout).into_owned();
    // Unnamed traces of later shards are named by their position in the file, `#`
    // and the position (a blank line takes none, a line of two non-objects two).
    let by_position = |position: usize| format!("\"#{position}\"");
    let expected = format!("[{},{}]", by_position(21), by_position(27));
    assert!(printed.contains(&expected), "{printed}");

    let mut partials = Vec::new();
    for (i, start) in [0usize, 7, 8, 19, 25].into_iter().enumerate().rev() {
        let end = [7, 8, 19, 25, 30][i];
        let shard = dir.join(format!("shard-{i}.jsonl"));
        std::fs::write(&shard, lines[start..end].join("\n")).expect("a shard");
        let out = dir.join(format!("shard-{i}.partial")).display().to_string();
        let first_line = (start + 1).to_string();
        let shard = shard.display().to_string();
        let run = ragtrace(&[
            "analyze",
            "--partial",
            out.as_str(),
            "--source",
            whole_file.as_str(),
            "--first-line",
            first_line.as_str(),
            shard.as_str(),
        ]);
        assert!(matches!(run.status.code(), Some(0 | 1)), "{}", stderr(&run));
        partials.push(out);
    }
    let mut args = vec!["merge".to_owned(), "--sweep".to_owned()];
    args.extend(partials);
    let merged = ragtrace(&args);
    assert_eq!(
        String::from_utf8_lossy(&merged.stdout),
        String::from_utf8_lossy(&whole.stdout)
    );
    assert_eq!(merged.status.code(), whole.status.code());

    let run = ragtrace(&[
        "analyze",
        "--partial",
        "x",
        "--source",
        "a",
        &whole_file,
        &whole_file,
    ]);
    assert_eq!(run.status.code(), Some(2), "--source names one file");
}
