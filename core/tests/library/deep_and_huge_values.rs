//! Valid JSON the reader once refused: values nested deeper than serde_json's 128
//! levels inside an unknown field, and numbers beyond a double's range.

use ragtrace_core::{analyze, parse_document, DocumentReader, InputError, Settings};

/// `{"candidates":[{"originalRank":1,"score":0.2,"extra":[[[...1...]]]}]}` with the
/// unknown field `extra` nested `depth` arrays deep.
fn deep_unknown_field(depth: usize) -> String {
    format!(
        "{{\"mode\":\"dense\",\"candidates\":[{{\"originalRank\":1,\"score\":0.2,\"extra\":{}1{}}}]}}",
        "[".repeat(depth),
        "]".repeat(depth)
    )
}

#[test]
fn an_unknown_field_nested_200_levels_is_kept_to_64_and_the_trace_read() {
    let batch = parse_document("deep.json", &deep_unknown_field(200));
    assert_eq!(batch.errors, vec![]);
    let trace = &batch.traces[0];
    let candidate = &trace.candidates()[0];
    assert_eq!(candidate.score, Some(0.2));
    let codes: Vec<(&str, Option<&str>)> = trace
        .diagnostics
        .iter()
        .map(|d| (d.code.as_str(), d.path.as_deref()))
        .collect();
    assert_eq!(codes, [("deep-value-cut", Some("/candidates/0/extra"))]);
    assert!(trace.diagnostics[0].message.contains("64 levels"));
    // 64 arrays are kept; the 65th level stands for what was skipped.
    let mut value = &candidate.extra.as_ref().unwrap()["extra"];
    let mut kept = 0;
    while let Some(inner) = value.as_array() {
        value = &inner[0];
        kept += 1;
    }
    assert_eq!(kept, 64);
    assert_eq!(value, "(nested too deep: not kept)");
}

#[test]
fn a_million_levels_in_an_unknown_field_neither_fail_nor_overflow_the_stack() {
    // Run on a thread with a small stack: the skip must not recurse per level.
    let text = deep_unknown_field(1_000_000);
    let handle = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || {
            let started = std::time::Instant::now();
            let whole = parse_document("deep.json", &text);
            let mut reader = DocumentReader::new("deep.json");
            for chunk in text.as_bytes().chunks(4096) {
                reader.push(chunk);
            }
            let streamed = reader.finish();
            (whole, streamed, started.elapsed())
        })
        .unwrap();
    let (whole, streamed, elapsed) = handle.join().unwrap();
    for batch in [whole, streamed] {
        assert_eq!(batch.errors, vec![]);
        assert_eq!(batch.traces.len(), 1);
        assert_eq!(batch.traces[0].diagnostics[0].code, "deep-value-cut");
    }
    // Two reads of 2 MB: linear, well under a second even unoptimised.
    eprintln!("a million levels, read whole and streamed: {elapsed:?}");
    assert!(elapsed.as_secs() < 10, "{elapsed:?}");
}

#[test]
fn the_nesting_limit_is_named_not_called_malformed() {
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    let err = serde_json::from_str::<serde_json::Value>(&deep).unwrap_err();
    let error = InputError::json_syntax("deep.json", &deep, &err, 0);
    assert_eq!(
        error.message,
        "JSON nested more than 128 levels deep, the reader's limit (unknown fields may nest deeper)"
    );
}

#[test]
fn scores_beyond_a_double_read_as_infinite_with_a_warning_and_quality_0() {
    let text = r#"{"mode":"dense","candidates":[
        {"evidenceKey":"a","originalRank":1,"score":1e400},
        {"evidenceKey":"b","originalRank":2,"score":-1e400},
        {"evidenceKey":"c","originalRank":3,"score":0.2,"note":"1e400 in text stays text","big":2E+999}]}"#;
    let batch = parse_document("huge.json", text);
    assert_eq!(batch.errors, vec![]);
    let trace = &batch.traces[0];
    let scores: Vec<Option<f64>> = trace.candidates().iter().map(|c| c.score).collect();
    assert_eq!(
        scores,
        [Some(f64::INFINITY), Some(f64::NEG_INFINITY), Some(0.2)]
    );
    let out_of_range: Vec<(&str, &str)> = trace
        .diagnostics
        .iter()
        .filter(|d| d.code == "number-out-of-range")
        .map(|d| (d.path.as_deref().unwrap(), d.message.as_str()))
        .collect();
    assert_eq!(
        out_of_range,
        [
            ("/candidates/0/score", "score: 1e400 is beyond a double's range; read as infinite (non-finite: quality 0)"),
            ("/candidates/1/score", "score: -1e400 is beyond a double's range; read as infinite (non-finite: quality 0)"),
        ]
    );
    let extra = trace.candidates()[2].extra.as_ref().unwrap();
    assert_eq!(extra["note"], "1e400 in text stays text");
    assert_eq!(extra["big"], "2E+999");
    // Dense quality of a non-finite distance is 0 (contract section 3.2); 0.2 gives 0.8.
    let analysis = analyze(&batch, &Settings::default(), true).unwrap();
    let qualities: Vec<(String, f64)> = analysis.traces[0]
        .blocks()
        .map(|b| (b.candidate.evidence_key.to_string(), b.quality_score))
        .collect();
    assert!(qualities.contains(&("a".to_owned(), 0.0)));
    assert!(qualities.contains(&("b".to_owned(), 0.0)));
    assert!(qualities
        .iter()
        .any(|(k, q)| k == "c" && (q - 0.8).abs() < 1e-12));
}

#[test]
fn a_syntax_error_after_a_huge_number_is_placed_in_the_text_as_written() {
    // Line 2: `{"candidates":[{"score":1e400,,}]}`: the second comma is column 31.
    let text = "{\"candidates\":[]}\n{\"candidates\":[{\"score\":1e400,,}]}\n";
    let batch = parse_document("huge.jsonl", text);
    assert_eq!(batch.traces.len(), 1);
    let error = &batch.errors[0];
    assert_eq!((error.line, error.column), (Some(2), Some(31)));
    assert_eq!(
        error.line_text.as_deref(),
        Some("{\"candidates\":[{\"score\":1e400,,}]}")
    );
    assert!(
        error.message.starts_with("malformed JSON"),
        "{}",
        error.message
    );
}
