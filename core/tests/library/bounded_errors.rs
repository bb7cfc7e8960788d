//! Input errors are listed up to a bound and counted by code after it: a parsed
//! document, a batch of several, an analysis, a partial, merged partials and the bytes
//! of one all keep the first 1,000 in batch order and count every other exactly.

use ragtrace_core::{
    analyze, parse_document, parse_documents, OmittedInputErrors, Partial, Settings,
    INPUT_ERRORS_LISTED,
};
use serde_json::json;

/// `n` JSON Lines lines `{}`: each an object with no candidates array.
fn empty_objects(n: usize) -> String {
    "{}\n".repeat(n)
}

fn counts(pairs: &[(&str, usize)]) -> OmittedInputErrors {
    pairs
        .iter()
        .map(|(code, n)| ((*code).to_owned(), *n))
        .collect()
}

fn partial(source: &str, text: &str) -> Partial {
    Partial::from_document(&Settings::default(), source, text.as_bytes()).unwrap()
}

#[test]
fn the_bound_is_one_thousand() {
    assert_eq!(INPUT_ERRORS_LISTED, 1_000);
}

/// 1,500 unusable lines: lines 1-1,000 listed, the other 500 counted; the document's
/// summary still counts all 1,500.
#[test]
fn fifteen_hundred_bad_lines_list_a_thousand_and_count_five_hundred() {
    let batch = parse_document("bad.jsonl", &empty_objects(1_500));
    assert_eq!(batch.errors.len(), 1_000);
    assert_eq!(batch.errors[0].line, Some(1));
    assert_eq!(batch.errors[999].line, Some(1_000));
    assert_eq!(batch.errors_omitted, counts(&[("missing-candidates", 500)]));
    assert_eq!(batch.documents[0].errors, 1_500);

    let analysis = analyze(&batch, &Settings::default(), false).unwrap();
    assert_eq!(analysis.input_errors.len(), 1_000);
    let output = serde_json::to_value(&analysis).unwrap();
    assert_eq!(
        output["inputErrorsOmitted"],
        json!({"missing-candidates": 500})
    );
    assert_eq!(output["inputErrors"].as_array().map(Vec::len), Some(1_000));
    assert_eq!(output["documents"][0]["errors"], 1_500);
}

/// Up to the bound nothing changes: 1,000 errors are all listed and the output has
/// no `inputErrorsOmitted` key.
#[test]
fn at_the_bound_every_error_is_listed() {
    let batch = parse_document("bad.jsonl", &empty_objects(1_000));
    assert_eq!(batch.errors.len(), 1_000);
    assert!(batch.errors_omitted.is_empty());
    let output =
        serde_json::to_value(analyze(&batch, &Settings::default(), false).unwrap()).unwrap();
    assert!(output.get("inputErrorsOmitted").is_none());
}

/// A mix of codes after the bound: 1,000 `{}` lines fill the list; then 300 lines cut
/// short (`{"a":`), 200 numbers (`7`) and 100 objects whose candidates are not an
/// array are counted under their own codes; the one good trace at the end is analysed.
#[test]
fn a_mix_of_codes_is_counted_code_by_code() {
    let mut text = empty_objects(1_000);
    text.push_str(&"{\"a\":\n".repeat(300));
    text.push_str(&"7\n".repeat(200));
    text.push_str(&"{\"candidates\": 3}\n".repeat(100));
    text.push_str(
        "{\"candidates\": [{\"originalRank\": 1, \"score\": 0.5, \"scoreLabel\": \"dense\"}]}\n",
    );
    let batch = parse_document("mixed.jsonl", &text);
    assert_eq!(batch.traces.len(), 1);
    assert_eq!(batch.errors.len(), 1_000);
    assert_eq!(
        batch.errors_omitted,
        counts(&[
            ("list-not-array", 100),
            ("malformed-json", 300),
            ("not-a-trace", 200)
        ])
    );
    assert_eq!(batch.documents[0].errors, 1_600);
}

/// A single array of 1,500 numbers: elements /0 to /999 listed, 500 counted.
#[test]
fn unusable_elements_of_one_array_are_bounded() {
    let text = format!("[{}]", vec!["0"; 1_500].join(","));
    let batch = parse_document("array.json", &text);
    assert_eq!(batch.errors.len(), 1_000);
    assert_eq!(batch.errors[999].path.as_deref(), Some("/999"));
    assert_eq!(batch.errors_omitted, counts(&[("not-a-trace", 500)]));
}

/// Several documents: the second fills what room the first left (600 + 400 listed),
/// the rest of it counted (200). JSON Lines, as each starts with a whole object.
#[test]
fn a_batch_of_documents_shares_one_bound() {
    let docs = vec![
        ("a.jsonl".to_owned(), empty_objects(600)),
        ("b.jsonl".to_owned(), "{\"candidates\": 3}\n".repeat(600)),
    ];
    let batch = parse_documents(&docs);
    assert_eq!(batch.errors.len(), 1_000);
    assert_eq!(batch.errors[599].source, "a.jsonl");
    assert_eq!(batch.errors[600].source, "b.jsonl");
    assert_eq!(batch.errors[999].line, Some(400));
    assert_eq!(batch.errors_omitted, counts(&[("list-not-array", 200)]));
}

/// A partial of 1,500 bad lines is bounded like the analysis, and reads back from its
/// bytes the same.
#[test]
fn a_partial_is_bounded_and_its_bytes_keep_the_counts() {
    let part = partial("bad.jsonl", &empty_objects(1_500));
    assert_eq!(part.input_error_count(), 1_500);
    let view = part.finish(false);
    assert_eq!(view.input_errors.len(), 1_000);
    assert_eq!(
        view.input_errors_omitted,
        counts(&[("missing-candidates", 500)])
    );
    let read_back = Partial::from_bytes(&part.to_bytes()).unwrap();
    assert_eq!(read_back.input_error_count(), 1_500);
    let again = read_back.finish(false);
    assert_eq!(again.input_errors, view.input_errors);
    assert_eq!(again.input_errors_omitted, view.input_errors_omitted);
}

/// Merged partials keep the bound and add the counts exactly. `a.jsonl` (700 `{}`
/// lines) comes before `b.jsonl` (700 lines whose candidates are a number, then 1,200
/// `{}` lines: 1,000 listed in its own partial, 900 counted) in batch order, so the
/// merge lists a's 700 and b's first 300, and counts b's other 400 of the first kind
/// and its 1,200 `{}` lines: list-not-array 400, missing-candidates 1,200. The merge is the same in either order
/// and equal to the summary of both files read as one batch.
#[test]
fn merging_partials_keeps_the_bound_and_adds_the_counts() {
    let a_text = empty_objects(700);
    let b_text = format!(
        "{}{}",
        "{\"candidates\": 3}\n".repeat(700),
        empty_objects(1_200)
    );
    let a = partial("a.jsonl", &a_text);
    let b = partial("b.jsonl", &b_text);
    assert_eq!(
        b.finish(false).input_errors_omitted,
        counts(&[("missing-candidates", 900)])
    );

    let merged = a.clone().merge_with(b.clone()).unwrap();
    let view = merged.finish(false);
    assert_eq!(merged.input_error_count(), 2_600);
    assert_eq!(view.input_errors.len(), 1_000);
    assert_eq!(view.input_errors[699].source, "a.jsonl");
    assert_eq!(view.input_errors[700].source, "b.jsonl");
    assert_eq!(view.input_errors[999].line, Some(300));
    assert_eq!(
        view.input_errors_omitted,
        counts(&[("list-not-array", 400), ("missing-candidates", 1_200)])
    );

    let reversed = b.merge_with(a).unwrap().finish(false);
    assert_eq!(reversed.input_errors, view.input_errors);
    assert_eq!(reversed.input_errors_omitted, view.input_errors_omitted);

    let whole = parse_documents(&[
        ("a.jsonl".to_owned(), a_text),
        ("b.jsonl".to_owned(), b_text),
    ]);
    assert_eq!(whole.errors, view.input_errors);
    assert_eq!(whole.errors_omitted, view.input_errors_omitted);
}

/// Five partials of 300 bad lines each (sources s0-s4), merged all at once in a
/// shuffled order and pairwise in another: the first 1,000 of the batch listed (s0-s2
/// whole, s3's first 100), the other 500 counted (s3's last 200, s4's 300), as when
/// the five are read as one batch.
#[test]
fn many_partials_merged_in_any_grouping_keep_the_first_thousand() {
    let texts: Vec<(String, String)> = (0..5)
        .map(|i| (format!("s{i}.jsonl"), empty_objects(300)))
        .collect();
    let parts: Vec<Partial> = texts.iter().map(|(s, t)| partial(s, t)).collect();
    let at_once = Partial::merge([3, 0, 4, 2, 1].map(|i| parts[i].clone()))
        .unwrap()
        .finish(false);
    let pairwise = [4, 1, 3, 0]
        .into_iter()
        .fold(parts[2].clone(), |so_far, i| {
            so_far.merge_with(parts[i].clone()).unwrap()
        })
        .finish(false);
    let whole = parse_documents(&texts);
    for view in [&at_once, &pairwise] {
        assert_eq!(view.input_errors.len(), 1_000);
        assert_eq!(view.input_errors[899].source, "s2.jsonl");
        assert_eq!(view.input_errors[999].source, "s3.jsonl");
        assert_eq!(view.input_errors[999].line, Some(100));
        assert_eq!(
            view.input_errors_omitted,
            counts(&[("missing-candidates", 500)])
        );
        assert_eq!(view.input_errors, whole.errors);
    }
}
