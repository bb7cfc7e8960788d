//! The incremental reader: any chunking of a document's bytes reads exactly as the
//! one-shot parse of its text; bytes that are not UTF-8 cost only their line; input
//! that is not JSON is refused from its first bytes.

#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use ragtrace_core::{analyze, ParsedBatch, Settings};
use ragtrace_core::{parse_document, parse_document_bytes, DocumentReader};

/// Everything a batch shows: the analysis with the sweep (traces with their
/// pointers and lines, input errors, documents) and the positions handed out.
fn fingerprint(batch: &ParsedBatch) -> String {
    let analysis = match analyze(batch, &Settings::default(), true) {
        Ok(analysis) => analysis,
        Err(err) => panic!("default settings are valid: {err}"),
    };
    let places: Vec<_> = batch
        .traces
        .iter()
        .map(|t| (t.position, t.line, t.pointer.clone()))
        .collect();
    format!(
        "{}\n{places:?}\nslots {}",
        serde_json::to_string(&analysis).unwrap_or_default(),
        batch.slots
    )
}

/// Feeds `bytes` cut at `cuts` (sorted offsets), taking the parsed parts after each
/// chunk when `take` is set, and returns the whole document.
fn read_in_chunks(source: &str, bytes: &[u8], cuts: &[usize], take: bool) -> ParsedBatch {
    let mut reader = DocumentReader::new(source);
    let mut parts = Vec::new();
    let mut from = 0;
    for &cut in cuts.iter().chain(std::iter::once(&bytes.len())) {
        let cut = cut.clamp(from, bytes.len());
        reader.push(&bytes[from..cut]);
        from = cut;
        if take {
            parts.push(reader.take_parsed());
        }
    }
    assert_eq!(reader.bytes_read(), bytes.len() as u64);
    parts.push(reader.finish());
    ParsedBatch::concat(parts)
}

const TRACE: &str = r#"{"requestId":"q1","mode":"dense","candidates":[{"originalRank":1,"score":0.4,"docId":"a"},{"originalRank":2,"score":0.9,"docId":"b"}]}"#;
const HYBRID: &str = r#"{"requestId":"é2","mode":"hybrid","relevanceLevel":"HIGH","candidates":[{"originalRank":1,"score":0.03},{"originalRank":2,"score":0.02}]}"#;

/// A small JSON Lines file with everything that moves lines: a byte-order mark, CRLF,
/// blank and white-space lines, a malformed line, non-ASCII text, no final newline.
fn small_jsonl() -> String {
    format!("\u{feff}\n{TRACE}\r\n  \n{HYBRID}\n{{\"candidates\": [,]}}\n\u{a0}\n{TRACE}")
}

#[test]
fn every_split_offset_of_a_small_file_reads_as_the_whole_text() {
    let text = small_jsonl();
    let whole = fingerprint(&parse_document("f.jsonl", &text));
    assert!(whole.contains("malformed JSON"), "the file has a bad line");
    let bytes = text.as_bytes();
    for cut in 0..=bytes.len() {
        for take in [false, true] {
            let got = fingerprint(&read_in_chunks("f.jsonl", bytes, &[cut], take));
            assert_eq!(got, whole, "split at byte {cut}, take {take}");
        }
    }
    let one_by_one: Vec<usize> = (1..bytes.len()).collect();
    assert_eq!(
        fingerprint(&read_in_chunks("f.jsonl", bytes, &one_by_one, true)),
        whole
    );
    assert_eq!(fingerprint(&parse_document_bytes("f.jsonl", bytes)), whole);
}

#[test]
fn every_split_of_a_single_document_reads_as_the_whole_text() {
    for text in [
        format!("\u{feff}[{TRACE},\n{HYBRID}]"),
        format!("{{\"traces\": [\n{TRACE}\n]}}\n"),
        format!("{TRACE}\n\n  "),
        format!("{{\n\"candidates\": []\n}}\n{TRACE}"),
        format!("{TRACE} x\n{TRACE}"),
        "[1, 2,, 3]".to_owned(),
        "  \u{a0}\n".to_owned(),
        String::new(),
    ] {
        let whole = fingerprint(&parse_document("d.json", &text));
        for cut in 0..=text.len() {
            let got = fingerprint(&read_in_chunks("d.json", text.as_bytes(), &[cut], true));
            assert_eq!(got, whole, "{text:?} split at byte {cut}");
        }
    }
}

/// JSON Lines needs its first line complete and a second one started; a first chunk
/// holding only `{` or a part of the first line decides nothing yet.
#[test]
fn json_lines_are_recognised_from_a_tiny_first_chunk() {
    let text = format!("{TRACE}\n{HYBRID}\n");
    let mut reader = DocumentReader::new("t.jsonl");
    reader.push(b"{");
    assert_eq!(reader.traces_parsed(), 0);
    reader.push(&text.as_bytes()[1..TRACE.len() + 1]);
    assert_eq!(
        reader.traces_parsed(),
        0,
        "one line could still be one document"
    );
    reader.push(&text.as_bytes()[TRACE.len() + 1..TRACE.len() + 2]);
    assert_eq!(
        reader.traces_parsed(),
        1,
        "a second line started: JSON Lines"
    );
    reader.push(&text.as_bytes()[TRACE.len() + 2..]);
    assert_eq!(reader.traces_parsed(), 2);
    let first = reader.take_parsed();
    assert_eq!(first.traces.len(), 2);
    assert!(first.documents.is_empty(), "the summary comes with finish");
    let last = reader.finish();
    assert_eq!(last.traces.len(), 0);
    assert_eq!(last.documents[0].traces, 2);
}

#[test]
fn a_line_that_is_not_utf8_is_reported_at_its_character_column_and_the_rest_is_read() {
    // Line 3 is Latin-1: "café" with é as the single byte 0xE9, after two 2-byte characters.
    let mut bytes = format!("{TRACE}\n{HYBRID}\n").into_bytes();
    bytes.extend_from_slice(b"{\"query\": \"\xC3\xA9\xC3\xA9caf\xE9\", \"candidates\": []}\n");
    bytes.extend_from_slice(format!("{TRACE}\n").as_bytes());
    let whole = parse_document_bytes("mixed.jsonl", &bytes);
    assert_eq!(whole.traces.len(), 3);
    assert_eq!(
        whole.traces.iter().map(|t| t.line).collect::<Vec<_>>(),
        [Some(1), Some(2), Some(4)]
    );
    assert_eq!(whole.errors.len(), 1);
    let error = &whole.errors[0];
    assert_eq!((error.line, error.column), (Some(3), Some(17)));
    assert!(
        error.message.starts_with("not UTF-8: byte 0xE9"),
        "{}",
        error.message
    );
    let shown = error.line_text.as_deref().unwrap_or("");
    assert_eq!(
        shown.chars().nth(error.caret.unwrap_or(0)),
        Some('\u{fffd}')
    );
    // Nothing else replaced: the good lines' text is as written.
    assert_eq!(whole.traces[1].request_id.as_deref(), Some("é2"));
    assert_eq!(whole.slots, 4, "the bad line takes a trace's place");
    for cut in 0..=bytes.len() {
        assert_eq!(
            fingerprint(&read_in_chunks("mixed.jsonl", &bytes, &[cut], true)),
            fingerprint(&whole),
            "split at {cut}"
        );
    }
}

#[test]
fn a_single_document_that_is_not_utf8_names_line_and_column() {
    let mut bytes = b"[\n  {\"candidates\": [],\n   \"query\": \"na\xEFve\"}\n]".to_vec();
    let batch = parse_document_bytes("latin1.json", &bytes);
    assert!(batch.traces.is_empty());
    let error = &batch.errors[0];
    assert_eq!((error.line, error.column), (Some(3), Some(16)));
    assert!(error.message.starts_with("not UTF-8"), "{}", error.message);

    // A syntax error before the bad bytes comes first, as reading meets it.
    bytes.splice(1..1, b",".iter().copied());
    let batch = parse_document_bytes("latin1.json", &bytes);
    let error = &batch.errors[0];
    assert_eq!((error.line, error.column), (Some(1), Some(2)));
    assert!(
        error.message.starts_with("malformed JSON"),
        "{}",
        error.message
    );

    // Cut inside a character at the very end.
    let batch = parse_document_bytes("cut.json", b"{\"query\": \"\xE2\x82");
    let error = &batch.errors[0];
    assert_eq!((error.line, error.column), (Some(1), Some(12)));
    assert!(
        error.message.contains("ends inside a character"),
        "{}",
        error.message
    );
}

#[test]
fn input_that_is_not_json_is_refused_from_the_first_chunk() {
    let text = "This is not JSON, but a long report.\n".repeat(100_000);
    let mut reader = DocumentReader::new("report.txt");
    reader.push(&text.as_bytes()[..64 * 1024]);
    let refusal = match reader.refusal() {
        Some(refusal) => refusal.clone(),
        None => panic!("refused after the first 64 KB"),
    };
    assert_eq!((refusal.line, refusal.column), (Some(1), Some(1)));
    assert!(
        refusal.message.starts_with("malformed JSON"),
        "{}",
        refusal.message
    );
    // What the whole file would have said, and what finish says now.
    let whole = parse_document("report.txt", &text);
    assert_eq!(whole.errors, std::slice::from_ref(&refusal));
    assert_eq!(reader.finish().errors, [refusal]);

    // A binary file (here gzip's magic) and UTF-16 are refused too, from a first
    // slice of 2 KB.
    for (bytes, line, column) in [
        (&b"\x1f\x8b\x08\x00\x00\x00"[..], 1, 1),
        (&b"\xff\xfe{\x00\"\x00"[..], 1, 1),
        (&b"\n\n   <html>\n"[..], 3, 4),
    ] {
        let mut reader = DocumentReader::new("b");
        reader.push(&bytes.repeat(2048 / bytes.len()));
        let refused = reader.refusal().map(|r| (r.line, r.column));
        assert_eq!(refused, Some((Some(line), Some(column))), "{bytes:?}");
    }

    // Not refused: JSON, or JSON Lines whose first line is bad (the others count).
    for text in [
        format!("[{TRACE}"),
        "\"a string\"".to_owned(),
        "42".to_owned(),
        format!("{{ not json }}\n{TRACE}\n"),
    ] {
        let mut reader = DocumentReader::new("ok");
        reader.push(text.as_bytes());
        assert!(reader.refusal().is_none(), "{text:?}");
    }
}

/// A refusal waits for the rest of the offending line (or enough of it) so that its
/// excerpt is the one the whole input gives.
#[test]
fn a_refusal_shows_the_line_as_the_whole_input_does() {
    let text = format!("  x{}\n", "é".repeat(5_000));
    let mut reader = DocumentReader::new("x");
    reader.push(&text.as_bytes()[..100]);
    assert!(
        reader.refusal().is_none(),
        "the excerpt needs more of the line"
    );
    reader.push(&text.as_bytes()[100..4_000]);
    let whole = parse_document("x", &text);
    assert_eq!(reader.refusal(), whole.errors.first());
}

fn piece() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        TRACE,
        HYBRID,
        r#"{"traces":[{"candidates":[{"originalRank":1}]}]}"#,
        r#"[{"candidates":[]},3]"#,
        "{\n\"candidates\": []\n}",
        "\n",
        "\r\n",
        "\r",
        " ",
        "\t",
        "\u{a0}",
        "\u{2028}",
        "\u{feff}",
        "{",
        "}",
        "[",
        "]",
        ",",
        "x",
        "é",
        "\"s\"",
        "42",
    ])
}

/// A text and cut points in its bytes (anywhere, inside characters too).
fn text_and_cuts() -> impl Strategy<Value = (String, Vec<usize>)> {
    (
        prop::collection::vec(piece(), 0..14),
        prop::collection::vec(any::<prop::sample::Index>(), 0..6),
        any::<bool>(),
    )
        .prop_map(|(pieces, cuts, bom)| {
            let mut text = if bom {
                "\u{feff}".to_owned()
            } else {
                String::new()
            };
            text.extend(pieces);
            let mut cuts: Vec<usize> = cuts.iter().map(|i| i.index(text.len() + 1)).collect();
            cuts.sort_unstable();
            (text, cuts)
        })
}

/// Bytes from an alphabet with the pieces of JSON Lines and broken UTF-8.
fn bytes_and_cuts() -> impl Strategy<Value = (Vec<u8>, Vec<usize>)> {
    let chunk = prop::sample::select(vec![
        TRACE.as_bytes(),
        b"\n",
        b"\r",
        b" ",
        b"{",
        b"}",
        b"\xFF",
        b"\xC3",
        b"\xA9",
        b"\xE2\x80",
        b"\xEF\xBB\xBF",
        b"x",
        b"\"",
    ]);
    (
        prop::collection::vec(chunk, 0..14),
        prop::collection::vec(any::<prop::sample::Index>(), 0..6),
    )
        .prop_map(|(chunks, cuts)| {
            let bytes: Vec<u8> = chunks.concat();
            let mut cuts: Vec<usize> = cuts.iter().map(|i| i.index(bytes.len() + 1)).collect();
            cuts.sort_unstable();
            (bytes, cuts)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn any_chunking_of_any_text_reads_as_parse_document((text, cuts) in text_and_cuts(), take in any::<bool>()) {
        let whole = fingerprint(&parse_document("p", &text));
        prop_assert_eq!(fingerprint(&read_in_chunks("p", text.as_bytes(), &cuts, take)), whole);
    }

    #[test]
    fn any_chunking_of_any_bytes_reads_as_the_bytes_at_once((bytes, cuts) in bytes_and_cuts()) {
        let whole = parse_document_bytes("b", &bytes);
        if let Ok(text) = std::str::from_utf8(&bytes) {
            prop_assert_eq!(fingerprint(&whole), fingerprint(&parse_document("b", text)));
        }
        for error in &whole.errors {
            prop_assert!(!error.message.is_empty());
        }
        prop_assert_eq!(fingerprint(&read_in_chunks("b", &bytes, &cuts, true)), fingerprint(&whole));
    }
}

/// Reading and analysing each part as it is read gives the analysis of the whole
/// batch read first: traces, positions, lines, documents, and the input errors kept
/// and counted past the listed ones.
#[test]
fn analysing_parts_as_they_are_read_equals_analysing_the_batch() {
    let bad_lines = "{\"candidates\": [,]}\n".repeat(ragtrace_core::INPUT_ERRORS_LISTED + 7);
    let documents = [
        ("small.jsonl", small_jsonl()),
        (
            "spans.jsonl",
            crate::common::fixture("otel/llamaindex-cosine.jsonl"),
        ),
        ("errors.jsonl", format!("{TRACE}\n{bad_lines}{HYBRID}\n")),
    ];
    let settings = Settings::from_json_text(r#"{"scoreKind": "cosineSimilarity"}"#)
        .unwrap_or_else(|err| panic!("{err}"));
    for (name, text) in documents {
        for settings in [Settings::default(), settings.clone()] {
            let batch = ragtrace_core::read_batch(name, text.as_bytes()).unwrap();
            let whole = analyze(&batch, &settings, true).unwrap();
            let streamed = ragtrace_core::read_and_analyze(name, text.as_bytes(), &settings, true)
                .unwrap()
                .unwrap();
            assert!(!streamed.traces.is_empty(), "{name}");
            assert_eq!(
                serde_json::to_string(&streamed).unwrap(),
                serde_json::to_string(&whole).unwrap(),
                "{name}"
            );
            assert_eq!(streamed.input_errors_omitted, whole.input_errors_omitted);
            assert_eq!(
                name == "errors.jsonl",
                !whole.input_errors_omitted.is_empty()
            );
        }
    }
    let invalid = Settings::from_json_text(r#"{"preciseThreshold": 0.1}"#).unwrap();
    let refused = ragtrace_core::read_and_analyze("t", TRACE.as_bytes(), &invalid, false);
    assert!(matches!(refused, Ok(Err(_))));
}
