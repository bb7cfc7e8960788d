//! The hostile-input corpus (docs/reliability.md lists it): text a production system
//! or an attacker could hand ragtrace, and exactly what each case yields. Nothing
//! panics, every failure is located, and the traces that can be read are analysed.

use ragtrace_core::parse_document;
use ragtrace_core::{analyze, Settings};

/// What a document yields: traces, candidates, and per error its place: `L3` for
/// line 3 (and a column), `/0` for a JSON path, `-` for the whole document.
#[derive(Debug, PartialEq)]
struct Yield {
    traces: usize,
    candidates: usize,
    errors: Vec<String>,
}

fn place(error: &ragtrace_core::InputError) -> String {
    match (error.line, error.column, &error.path) {
        (Some(line), Some(_), _) => format!("L{line}"),
        (Some(line), None, _) => format!("L{line}, no column"),
        (None, _, Some(path)) => path.clone(),
        (None, _, None) => "-".to_owned(),
    }
}

fn yields(text: &str) -> Yield {
    let batch = parse_document("hostile", text);
    let analysis = match analyze(&batch, &Settings::default(), true) {
        Ok(analysis) => analysis,
        Err(err) => panic!("default settings are valid: {err}"),
    };
    assert_eq!(analysis.traces.len(), batch.traces.len());
    for error in &batch.errors {
        assert!(!error.message.is_empty());
    }
    Yield {
        traces: batch.traces.len(),
        candidates: batch.candidate_count(),
        errors: batch.errors.iter().map(place).collect(),
    }
}

fn ok(traces: usize, candidates: usize) -> Yield {
    Yield {
        traces,
        candidates,
        errors: Vec::new(),
    }
}

fn failed(traces: usize, candidates: usize, places: &[&str]) -> Yield {
    Yield {
        traces,
        candidates,
        errors: places.iter().map(|p| (*p).to_owned()).collect(),
    }
}

/// Every case, named; the table in docs/reliability.md is this list.
fn corpus() -> Vec<(&'static str, String, Yield)> {
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let deep_object = format!(
        "{{\"candidates\":[{{\"extra\":{}1{}}}]}}",
        "{\"a\":".repeat(5_000),
        "}".repeat(5_000)
    );
    let long_key = format!(
        "{{\"candidates\":[{{\"evidenceKey\":\"{}\",\"score\":0.1}}]}}",
        "k".repeat(1_000_000)
    );
    let many_duplicates = format!(
        "{{\"mode\":\"dense\",\"candidates\":[{}]}}",
        vec!["{\"evidenceKey\":\"same\",\"score\":0.1}"; 10_000].join(",")
    );
    let many_lines = "{\"candidates\":[]}\n".repeat(10_000);
    vec![
        ("empty", String::new(), failed(0, 0, &["-"])),
        ("whitespace only", " \n\t\r\n".to_owned(), failed(0, 0, &["-"])),
        (
            "byte-order mark",
            "\u{feff}{\"candidates\":[{\"score\":0.2}]}".to_owned(),
            ok(1, 1),
        ),
        (
            "malformed JSON",
            "{\"candidates\":[1,, 2]}".to_owned(),
            failed(0, 0, &["L1"]),
        ),
        ("10,000 nested arrays", deep, failed(0, 0, &["/0"])),
        // An unknown field is never an error: kept to 64 levels, the rest skipped.
        ("5,000 nested objects in a field", deep_object, ok(1, 1)),
        ("a number", "42".to_owned(), failed(0, 0, &["-"])),
        ("a string", "\"trace\"".to_owned(), failed(0, 0, &["-"])),
        ("an array of non-objects", "[1,\"a\",null]".to_owned(), failed(0, 0, &["/0", "/1", "/2"])),
        (
            "a bad line among JSON Lines",
            "{\"candidates\":[]}\n{\"candidates\":[}\n{\"candidates\":[{}]}\n".to_owned(),
            failed(2, 1, &["L2"]),
        ),
        (
            "extreme numbers",
            "{\"candidates\":[{\"score\":1e308,\"originalRank\":18446744073709551615},{\"score\":-0.0,\"originalRank\":1e3},{\"score\":5e-324}]}".to_owned(),
            ok(1, 3),
        ),
        (
            "a number beyond f64",
            "{\"candidates\":[{\"score\":1e400}]}".to_owned(),
            // Read as infinite, with a warning: quality 0, as any non-finite score.
            ok(1, 1),
        ),
        (
            "NUL and a lone surrogate escape",
            "{\"candidates\":[{\"excerpt\":\"a\\u0000b\",\"title\":\"\\ud800\"}]}".to_owned(),
            failed(0, 0, &["L1"]),
        ),
        (
            "a duplicated key",
            "{\"candidates\":[],\"candidates\":[{}]}".to_owned(),
            ok(1, 1),
        ),
        (
            "script and markup in every text field",
            "{\"requestId\":\"<script>alert(1)</script>\",\"query\":\"<img src=x onerror=alert(1)>\",\"candidates\":[{\"evidenceKey\":\"</td><script>\",\"excerpt\":\"javascript:alert(1)\"}]}".to_owned(),
            ok(1, 1),
        ),
        ("a 1,000,000-character evidenceKey", long_key, ok(1, 1)),
        (
            "candidates that are not an array",
            "{\"candidates\":{\"0\":{}}}".to_owned(),
            failed(0, 0, &["-"]),
        ),
        ("10,000 copies of one evidenceKey", many_duplicates, ok(1, 10_000)),
        ("10,000 JSON Lines", many_lines, ok(10_000, 0)),
    ]
}

#[test]
fn each_hostile_input_yields_what_is_documented() {
    let mut wrong = Vec::new();
    for (name, text, want) in corpus() {
        let got = yields(&text);
        if got != want {
            wrong.push(format!("{name}: {got:?}, documented {want:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
