//! The OTLP span reader on arbitrary bytes, seeded with the real span fixtures' lines
//! (scripts/fuzz.sh): nothing may panic, every failure is located, every span
//! finding names its place, the document's skipped spans are counted once however the
//! bytes are chunked, and reading in two chunks, as text, or (for one JSON value) as
//! an already-parsed value gives the very same traces and analysis.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use ragtrace_core::{DocumentReader, ParsedBatch, parse_document_bytes, parse_value};
use ragtrace_core::{Settings, analyze, parse_document};

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
    for trace in &batch.traces {
        for diagnostic in &trace.diagnostics {
            assert!(diagnostic.path.is_some(), "a span finding has a place: {diagnostic:?}");
        }
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
    assert_eq!(chunked.documents, batch.documents, "summaries differ split at {split}");
    assert_eq!(analysed(&chunked), whole, "two chunks split at {split} read otherwise");

    if let Ok(text) = std::str::from_utf8(data) {
        let single = parse_document("fuzz", text);
        if let (Ok(value), [_]) = (
            serde_json::from_str::<serde_json::Value>(text),
            single.documents.as_slice(),
        ) {
            if single.errors.is_empty() && !text.trim_start().starts_with('[') {
                let from_value = parse_value("fuzz", &value);
                assert_eq!(
                    from_value.traces.len(),
                    single.traces.len(),
                    "a value reads as its text"
                );
            }
        }
    }
});
