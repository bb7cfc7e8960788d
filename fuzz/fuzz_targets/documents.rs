//! The document parser on arbitrary text (JSON, JSON Lines, or neither), then the
//! analysis of whatever it read: nothing may panic, every failure says what is wrong,
//! and the analysis keeps its invariants.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use ragtrace_core::{analyze, parse_documents, Settings};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let batch = parse_documents(&[("fuzz".to_owned(), text.to_owned())]);
    for error in &batch.errors {
        assert!(!error.message.is_empty(), "an error says what is wrong");
    }
    assert!(batch.slots >= batch.traces.len());
    let Ok(analysis) = analyze(&batch, &Settings::default(), true) else {
        panic!("default settings are valid");
    };
    assert_eq!(analysis.traces.len(), batch.traces.len());
    common::check_analysis(&analysis);
});
