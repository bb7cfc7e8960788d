//! A batch (a document that is an array of traces, or a wrapper's `traces`) is built
//! element by element as it is read. What it yields is what reading it whole yielded:
//! the same traces at the same positions and pointers, the same errors in the same
//! order, and nothing of a batch that turns out not to be one.

use ragtrace_core::{parse_document, ParsedBatch};

/// A valid trace, four non-objects, an object without candidates, a trace with an
/// empty candidates list.
const ELEMENTS: &str = r#"[
  {"requestId": "a", "mode": "dense", "candidates": [{"docId": "d1", "originalRank": 1, "score": 0.2, "scoreLabel": "dense"}]},
  7,
  "x",
  {"requestId": "b"},
  null,
  [1],
  {"requestId": "c", "candidates": []}
]"#;

const NO_CANDIDATES: &str =
    "the trace has no candidates array (a RerankTrace needs candidates, a LookupResult evidence)";

/// (requestId, position, pointer, line) of each trace.
fn traces(batch: &ParsedBatch) -> Vec<(String, usize, String, Option<usize>)> {
    batch
        .traces
        .iter()
        .map(|t| {
            let id = t.request_id.as_deref().unwrap_or("").to_owned();
            (id, t.position, t.pointer.clone(), t.line)
        })
        .collect()
}

/// (path, line, message) of each input error.
fn errors(batch: &ParsedBatch) -> Vec<(String, Option<usize>, String)> {
    batch
        .errors
        .iter()
        .map(|e| {
            let path = e.path.clone().unwrap_or_default();
            (path, e.line, e.message.clone())
        })
        .collect()
}

fn owned(
    rows: &[(&str, usize, &str, Option<usize>)],
) -> Vec<(String, usize, String, Option<usize>)> {
    rows.iter()
        .map(|(id, position, pointer, line)| {
            ((*id).to_owned(), *position, (*pointer).to_owned(), *line)
        })
        .collect()
}

fn owned_errors(rows: &[(&str, Option<usize>, &str)]) -> Vec<(String, Option<usize>, String)> {
    rows.iter()
        .map(|(path, line, message)| ((*path).to_owned(), *line, (*message).to_owned()))
        .collect()
}

/// Each element takes the position of its index + 1, trace or not.
#[test]
fn a_mixed_array_yields_its_traces_and_errors_in_order() {
    let batch = parse_document("mixed.json", ELEMENTS);
    assert_eq!(
        traces(&batch),
        owned(&[("a", 1, "/0", None), ("c", 7, "/6", None)])
    );
    assert_eq!(batch.traces[0].candidates().len(), 1);
    assert_eq!(
        errors(&batch),
        owned_errors(&[
            ("/1", None, "a trace must be an object, got number"),
            ("/2", None, "a trace must be an object, got string"),
            ("/3", None, NO_CANDIDATES),
            ("/4", None, "a trace must be an object, got null"),
            ("/5", None, "a trace must be an object, got array"),
        ])
    );
    // Each error's code is set where it is made, whatever its wording.
    let codes: Vec<&str> = batch.errors.iter().map(|e| e.code()).collect();
    assert_eq!(
        codes,
        [
            "not-a-trace",
            "not-a-trace",
            "missing-candidates",
            "not-a-trace",
            "not-a-trace"
        ]
    );
    assert_eq!(batch.slots, 7);
    assert_eq!(batch.documents[0].traces, 2);
    assert_eq!(batch.documents[0].errors, 5);
}

#[test]
fn a_wrapper_yields_the_same_under_its_field() {
    let batch = parse_document("wrapped.json", &format!("{{\"traces\": {ELEMENTS}}}"));
    assert_eq!(
        traces(&batch),
        owned(&[("a", 1, "/traces/0", None), ("c", 7, "/traces/6", None)])
    );
    assert_eq!(
        errors(&batch)[2],
        ("/traces/3".to_owned(), None, NO_CANDIDATES.to_owned())
    );
    assert_eq!(errors(&batch).len(), 5);
}

/// `traces` next to `candidates` is no wrapper: the object is one trace, and the
/// elements read before `candidates` came are undone.
#[test]
fn traces_beside_candidates_are_no_batch() {
    let text = format!("{{\"traces\": {ELEMENTS}, \"requestId\": \"own\", \"candidates\": []}}");
    let batch = parse_document("not-a-wrapper.json", &text);
    assert_eq!(traces(&batch), owned(&[("own", 1, "", None)]));
    assert!(batch.errors.is_empty());
    assert_eq!(batch.slots, 1);
}

/// A repeated `traces` field: the last one counts, as for every field.
#[test]
fn a_repeated_traces_field_keeps_the_last() {
    let text = format!(
        "{{\"traces\": {ELEMENTS}, \"traces\": [{{\"requestId\": \"z\", \"candidates\": []}}]}}"
    );
    let batch = parse_document("twice.json", &text);
    assert_eq!(traces(&batch), owned(&[("z", 1, "/traces/0", None)]));
    assert!(batch.errors.is_empty());
}

/// A batch cut short is one syntax error: none of the elements read before it count.
#[test]
fn a_batch_cut_short_is_only_its_syntax_error() {
    let cut = &ELEMENTS[..ELEMENTS.len() - 2];
    let batch = parse_document("cut.json", cut);
    assert!(batch.traces.is_empty());
    assert_eq!(batch.errors.len(), 1);
    assert!(
        batch.errors[0]
            .message
            .starts_with("unexpected end of JSON: "),
        "{}",
        batch.errors[0].message
    );
    assert_eq!(batch.slots, 1);
}

/// A number beyond a double's range makes the reader read the text again: the
/// elements of the first reading are undone, so each trace is there once.
#[test]
fn a_batch_read_again_for_a_huge_number_has_each_trace_once() {
    let text = r#"[{"requestId": "a", "candidates": []}, {"requestId": "b", "candidates": [{"docId": "d", "score": 1e999, "scoreLabel": "dense"}]}, 5]"#;
    let batch = parse_document("huge.json", text);
    assert_eq!(
        traces(&batch),
        owned(&[("a", 1, "/0", None), ("b", 2, "/1", None)])
    );
    assert_eq!(
        errors(&batch),
        owned_errors(&[("/2", None, "a trace must be an object, got number")])
    );
}

/// A JSON Lines line that is an array: its elements sit under the line's pointer, on
/// its line.
#[test]
fn an_array_line_of_json_lines() {
    let text = "{\"requestId\": \"x\", \"candidates\": []}\n[{\"requestId\": \"y\", \"candidates\": []}, 5]\n";
    let batch = parse_document("lines.jsonl", text);
    assert_eq!(
        traces(&batch),
        owned(&[("x", 1, "/0", Some(1)), ("y", 2, "/1/0", Some(2))])
    );
    assert_eq!(
        errors(&batch),
        owned_errors(&[("/1/1", Some(2), "a trace must be an object, got number")])
    );
}
