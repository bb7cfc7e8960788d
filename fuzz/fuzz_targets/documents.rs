//! The document parser on arbitrary bytes (JSON, JSON Lines, or neither; valid UTF-8
//! or not), then the analysis of whatever it read: nothing may panic, every failure
//! says what is wrong, the analysis keeps its invariants, and reading the same bytes
//! in two chunks (split where the input says) or, for valid UTF-8, as text gives the
//! very same analysis.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use ragtrace_core::{DocumentReader, ParsedBatch, parse_document_bytes};
use ragtrace_core::{Settings, analyze, parse_documents};

fn analysed(batch: &ParsedBatch) -> String {
    let Ok(analysis) = analyze(batch, &Settings::default(), true) else {
        panic!("default settings are valid");
    };
    assert_eq!(analysis.traces.len(), batch.traces.len());
    common::check_analysis(&analysis);
    let Ok(json) = serde_json::to_string(&analysis) else {
        panic!("an analysis serialises");
    };
    json
}

fuzz_target!(|data: &[u8]| {
    let batch = parse_document_bytes("fuzz", data);
    for error in &batch.errors {
        assert!(!error.message.is_empty(), "an error says what is wrong");
    }
    assert!(batch.slots >= batch.traces.len());
    let whole = analysed(&batch);

    let split = data.first().map_or(0, |&b| usize::from(b) % (data.len() + 1));
    let mut reader = DocumentReader::new("fuzz");
    reader.push(&data[..split]);
    let mut chunked = reader.take_parsed();
    reader.push(&data[split..]);
    chunked.extend(reader.take_parsed());
    chunked.extend(reader.finish());
    assert_eq!(analysed(&chunked), whole, "two chunks split at {split} read otherwise");

    if let Ok(text) = std::str::from_utf8(data) {
        let as_text = parse_documents(&[("fuzz".to_owned(), text.to_owned())]);
        assert_eq!(analysed(&as_text), whole, "bytes and text read otherwise");
    }
});
