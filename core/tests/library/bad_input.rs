//! Bad input: located errors, wrong types with paths, partial failures, nothing panics.

use ragtrace_core::{analyze, Settings, Status};
use ragtrace_core::{parse_document, parse_documents, Rank};

fn codes_at(batch: &ragtrace_core::ParsedBatch, code: &str) -> Vec<String> {
    batch
        .traces
        .iter()
        .flat_map(|t| t.diagnostics.iter())
        .filter(|d| d.code == code)
        .filter_map(|d| d.path.clone())
        .collect()
}

#[test]
fn malformed_json_gives_line_column_and_text() {
    let text = "{\n  \"candidates\": [\n    {\"originalRank\": 1,, \"score\": 0.2}\n  ]\n}\n";
    let batch = parse_document("bad.json", text);
    assert!(batch.traces.is_empty());
    let err = &batch.errors[0];
    assert_eq!(err.source, "bad.json");
    assert_eq!(err.line, Some(3));
    assert_eq!(err.column, Some(24));
    assert_eq!(
        err.line_text.as_deref(),
        Some("    {\"originalRank\": 1,, \"score\": 0.2}")
    );
    assert!(err.to_string().starts_with("bad.json:3:24: malformed JSON"));
}

#[test]
fn column_counts_characters_not_bytes() {
    let text = "{\"query\": \"支付\" \"candidates\": []}";
    let err = &parse_document("zh.json", text).errors[0];
    assert_eq!(err.line, Some(1));
    // The error is at the quote after `"支付" `, the 16th character (the 20th byte).
    assert_eq!(err.column, Some(16));
}

#[test]
fn truncated_document_is_an_error_not_a_panic() {
    let batch = parse_document("cut.json", "{\"candidates\": [{\"originalRank\": 1");
    assert_eq!(batch.errors.len(), 1);
    assert!(batch.errors[0].message.contains("end of JSON"));
}

#[test]
fn wrong_types_are_located_and_treated_as_absent() {
    let text = r#"{"traces": [
        {"mode": "dense", "candidates": [{"evidenceKey": "a", "originalRank": 1, "score": 0.1}]},
        {"mode": "dense", "requestId": ["x"], "candidates": [
            {"evidenceKey": "k", "originalRank": 1, "score": "0.5", "docId": 7, "excerpt": 5,
             "hit_reasons": ["ok", 3], "chunkIndex": 1.5, "extraField": {"kept": true}}
        ]}
    ]}"#;
    let batch = parse_document("types.json", text);
    assert!(batch.errors.is_empty());
    let wrong = codes_at(&batch, "wrong-type");
    assert!(
        wrong.contains(&"/traces/1/requestId".to_string()),
        "{wrong:?}"
    );
    assert!(wrong.contains(&"/traces/1/candidates/0/score".to_string()));
    assert!(wrong.contains(&"/traces/1/candidates/0/excerpt".to_string()));
    assert!(wrong.contains(&"/traces/1/candidates/0/hit_reasons/1".to_string()));
    assert!(wrong.contains(&"/traces/1/candidates/0/chunkIndex".to_string()));
    let c = &batch.traces[1].candidates()[0];
    assert_eq!(c.score, None);
    assert_eq!(&*c.doc_id, "7"); // an integer id is its decimal text
    assert_eq!(c.excerpt, None);
    assert_eq!(c.hit_reasons.as_deref(), Some(&["ok".to_string()][..]));
    assert_eq!(
        c.extra.as_ref().unwrap()["extraField"],
        serde_json::json!({"kept": true})
    );
    let a = analyze(&batch, &Settings::default(), false).unwrap();
    assert_eq!(a.traces[1].name(), "#2");
    assert_eq!(a.traces[1].block(0).unwrap().quality_score, 0.0); // dense with no score
}

#[test]
fn one_bad_jsonl_line_fails_only_that_trace() {
    let text = concat!(
        "{\"requestId\": \"one\", \"mode\": \"dense\", \"candidates\": [{\"originalRank\": 1, \"score\": 0.1}]}\n",
        "{\"requestId\": \"two\", \"candidates\": [oops]}\n",
        "\n",
        "{\"requestId\": \"three\", \"mode\": \"hybrid\", \"candidates\": [{\"originalRank\": 2.5}]}\n",
        "{\"requestId\": \"four\"}\n",
        "[1, 2]\n",
    );
    let batch = parse_document("runs.jsonl", text);
    let names: Vec<&str> = batch
        .traces
        .iter()
        .map(|t| t.request_id.as_deref().unwrap())
        .collect();
    assert_eq!(names, ["one", "three"]);
    assert_eq!(batch.traces[1].line, Some(4));
    assert_eq!(batch.traces[1].position, 3);
    assert_eq!(
        codes_at(&batch, "invalid-rank"),
        ["/3/candidates/0/originalRank"]
    );
    let lines: Vec<Option<usize>> = batch.errors.iter().map(|e| e.line).collect();
    assert_eq!(lines, [Some(2), Some(5), Some(6), Some(6)]);
    assert_eq!(batch.errors[0].column, Some(37));
    assert!(batch.errors[1].message.contains("no candidates array"));
    assert_eq!(batch.errors[2].path.as_deref(), Some("/5/0"));
    assert_eq!(batch.documents[0].traces, 2);
    assert_eq!(batch.documents[0].errors, 4);
}

#[test]
fn bad_array_element_fails_only_that_trace() {
    let text = r#"[{"candidates": []}, 42, {"evidence": "nope"}, {"kind": "RerankTrace", "evidence": []}]"#;
    let batch = parse_document("arr.json", text);
    assert_eq!(batch.traces.len(), 1);
    let paths: Vec<Option<&str>> = batch.errors.iter().map(|e| e.path.as_deref()).collect();
    assert_eq!(paths, [Some("/1"), Some("/2"), Some("/3")]);
    assert!(batch.errors[1]
        .message
        .contains("must be an array, got string"));
    // An empty candidate list is a trace with no match.
    let a = analyze(&batch, &Settings::default(), false).unwrap();
    assert_eq!(a.traces[0].relevance_level, ragtrace_core::Level::NoMatch);
}

#[test]
fn trace_without_candidates_and_other_top_levels() {
    for text in [r#"{"query": "x"}"#, "42", "\"text\"", "null", "", "   \n"] {
        let batch = parse_document("x.json", text);
        assert!(batch.traces.is_empty(), "{text}");
        assert_eq!(batch.errors.len(), 1, "{text}");
    }
}

#[test]
fn invalid_ranks_are_invalid_candidates_listed_last() {
    let text = r#"{"mode": "hybrid", "candidates": [
        {"evidenceKey": "zero", "originalRank": 0},
        {"evidenceKey": "neg", "originalRank": -1},
        {"evidenceKey": "frac", "originalRank": 2.5},
        {"evidenceKey": "float", "originalRank": 2.0},
        {"evidenceKey": "str", "originalRank": "2"},
        {"evidenceKey": "bool", "originalRank": true},
        {"evidenceKey": "ok2", "originalRank": 2},
        {"evidenceKey": "none"},
        {"evidenceKey": "nul", "originalRank": null}
    ]}"#;
    let batch = parse_document("ranks.json", text);
    let ranks: Vec<&Rank> = batch.traces[0]
        .candidates()
        .iter()
        .map(|c| &c.rank)
        .collect();
    assert!(matches!(ranks[3], Rank::Invalid(t) if &**t == "2.0"));
    assert!(matches!(ranks[4], Rank::Invalid(t) if &**t == "\"2\""));
    assert_eq!(*ranks[7], Rank::Position(8));
    assert_eq!(*ranks[8], Rank::Position(9));
    assert_eq!(codes_at(&batch, "invalid-rank").len(), 6);
    assert_eq!(codes_at(&batch, "missing-rank").len(), 2);
    let a = analyze(&batch, &Settings::default(), false).unwrap();
    let t = &a.traces[0];
    let order: Vec<(&str, Status)> = t
        .blocks()
        .map(|b| (&*b.candidate.evidence_key, b.status))
        .collect();
    assert_eq!(
        order,
        [
            ("ok2", Status::Accepted),
            ("none", Status::Accepted),
            ("nul", Status::Accepted),
            ("zero", Status::Invalid),
            ("neg", Status::Invalid),
            ("frac", Status::Invalid),
            ("float", Status::Invalid),
            ("str", Status::Invalid),
            ("bool", Status::Invalid),
        ]
    );
    assert!(t
        .blocks()
        .skip(3)
        .all(|b| b.quality_score == 0.0 && b.original_rank.is_none() && b.accepted_rank.is_none()));
    // n = 9 candidates, invalid ones included: rank 2 -> 8/9.
    assert_eq!(t.block(0).unwrap().quality_score, 8.0 / 9.0);
    assert_eq!(
        t.block(5).unwrap().status_reason().to_string(),
        "invalid rank: 2.5 is not an integer >= 1"
    );
}

#[test]
fn unknown_label_is_an_error_with_quality_zero_that_still_takes_part() {
    let text = r#"{"candidates": [
        {"evidenceKey": "a", "originalRank": 1, "scoreLabel": "cosine", "score": 0.1},
        {"evidenceKey": "b", "originalRank": 2, "score": 0.1}
    ]}"#;
    let batch = parse_document("labels.json", text);
    assert_eq!(
        codes_at(&batch, "unknown-label"),
        ["/candidates/0", "/candidates/1"]
    );
    let t = &analyze(&batch, &Settings::default(), false).unwrap().traces[0];
    assert_eq!(t.block(0).unwrap().canonical_label, None);
    assert_eq!(t.block(0).unwrap().status, Status::Accepted);
    assert_eq!(t.block(0).unwrap().quality_score, 0.0);
    assert_eq!(t.mode(), None);
    assert_eq!(t.relevance_level, ragtrace_core::Level::LowRelevance);
}

#[test]
fn invalid_trace_options_fall_back_to_defaults_plus_user() {
    let text = r#"[
        {"options": {"returnN": 0, "maxL2Distance": 2}, "mode": "dense", "candidates": [{"originalRank": 1, "score": 0.5}]},
        {"options": {"returnN": "3", "preciseThreshold": 0.6}, "mode": "dense", "candidates": [{"originalRank": 1, "score": 0.5}]},
        {"options": {"maxL2Distance": 2, "someServiceKey": 1}, "mode": "dense", "candidates": [{"originalRank": 1, "score": 0.5}]}
    ]"#;
    let batch = parse_document("opts.json", text);
    let a = analyze(&batch, &Settings::default(), false).unwrap();
    // returnN 0 invalidates the whole options block: M stays 1.0.
    assert_eq!(a.traces[0].config.max_l2_distance, 1.0);
    assert!(!a.traces[0].used_trace_options);
    assert!(a.traces[0]
        .diagnostics()
        .into_iter()
        .any(|d| d.code == "invalid-options" && d.path.as_deref() == Some("/0/options/returnN")));
    // "3" is the wrong type (dropped); preciseThreshold 0.6 < highly 0.75 fails the merge.
    assert_eq!(a.traces[1].config.return_n, 5);
    assert_eq!(a.traces[1].config.precise_threshold, 0.9);
    assert!(a.traces[1]
        .diagnostics()
        .into_iter()
        .any(|d| d.code == "invalid-options" && d.path.as_deref() == Some("/1/options")));
    assert_eq!(a.traces[2].config.max_l2_distance, 2.0);
    assert_eq!(a.traces[2].top_quality, Some(0.75));
}

#[test]
fn invalid_user_settings_are_an_error() {
    let batch = parse_document("x", r#"{"candidates": []}"#);
    let settings = Settings {
        max_l2_distance: Some(f64::NAN),
        ..Settings::default()
    };
    let err = analyze(&batch, &settings, false).unwrap_err();
    assert_eq!(err.key.as_deref(), Some("maxL2Distance"));
}

#[test]
fn bom_snake_case_aliases_and_explicit_kind() {
    let text = "\u{feff}{\"kind\": \"LookupResult\", \"candidates\": [{\"original_rank\": 1}], \"evidence\": [{\"doc_id\": \"d\", \"chunk_index\": 3, \"content\": \"hello\", \"original_rank\": 1, \"score_label\": \"dense\", \"score\": 0.5}]}";
    let batch = parse_document("bom.json", text);
    assert!(batch.errors.is_empty(), "{:?}", batch.errors);
    let t = &batch.traces[0];
    assert_eq!(t.kind, ragtrace_core::TraceKind::LookupResult);
    assert_eq!(t.candidates().len(), 1);
    assert_eq!(&*t.candidates()[0].evidence_key, "d#3");
    assert_eq!(t.candidates()[0].excerpt.as_deref(), Some("hello"));
    // The explicit kind wins: `candidates` is ignored, with a warning.
    assert!(t
        .diagnostics
        .iter()
        .any(|d| d.code == "candidates-ignored" && d.path.as_deref() == Some("/candidates")));
}

#[test]
fn pretty_printed_documents_are_not_json_lines() {
    let text = "[\n  {\"candidates\": []},\n  {\"candidates\": []}\n]\n";
    assert_eq!(parse_document("p.json", text).traces.len(), 2);
    let text = "{\"candidates\": []}\n{\"candidates\": []}\n";
    assert_eq!(parse_document("l.jsonl", text).traces.len(), 2);
}

#[test]
fn garbage_never_panics() {
    let samples = [
        "{", "}", "[", "[{}", "{\"traces\": 1}", "{\"traces\": [1, null, {}]}", "\u{0}",
        "{\"candidates\": [null, 1, \"x\", [], {}]}", "{\"evidence\": [], \"trace\": 5}",
        "{\"evidence\": [], \"trace\": {\"candidates\": 3}}", "1e999", "{\"candidates\": [{\"score\": 1e308}]}",
        "{\"candidates\": [{\"originalRank\": 18446744073709551615}]}",
        "{\"candidates\": [{\"originalRank\": -9223372036854775808, \"chunkIndex\": 18446744073709551615}]}",
        "{\"candidates\": [{\"evidenceKey\": {\"a\": 1}, \"docId\": [1]}], \"options\": [1]}",
        "{\"candidates\": [], \"options\": {\"returnN\": 1e300, \"hybridQuality\": \"x\"}}",
    ];
    let docs: Vec<(String, String)> = samples
        .iter()
        .enumerate()
        .map(|(i, s)| (format!("g{i}"), s.to_string()))
        .collect();
    let batch = parse_documents(&docs);
    let a = analyze(&batch, &Settings::default(), true).unwrap();
    serde_json::to_string(&a).unwrap();
    let deep = "[".repeat(10_000);
    assert_eq!(parse_document("deep", &deep).errors.len(), 1);
}
