//! Tests of the library's public surface: the hand-computed examples, the fixtures,
//! properties against reference implementations, hostile input, and the layering of
//! the sources. One test binary (`--test library`) that a plain
//! `cargo test -p ragtrace-core` builds and runs. The schema checks (`schema.rs`) need
//! the feature `schema` and are a binary of their own (`--test schema`).
//!
//! The properties' regression seeds are in `core/tests/proptest-regressions/`, one
//! file per module (proptest names them after the source file, beside the folder of
//! the binary's `main.rs`).

#[path = "../common/mod.rs"]
mod common;

mod accepted_lists;
mod bad_input;
mod batch_arrays;
mod bounded_errors;
mod calibration;
mod compare_properties;
mod deep_and_huge_values;
mod examples_exact;
mod explain_fixtures;
mod explain_golden_cases;
mod explain_properties;
mod fixtures_canonicalise;
mod floor_sweep;
mod fuzz_regressions;
mod golden;
mod golden_fixtures;
mod golden_sample;
mod graded_relevance;
mod hostile_inputs;
mod layers;
mod many_runs;
mod otlp;
mod partial;
mod phoenix;
mod properties;
mod reanalyze;
mod score_floors;
mod score_kind;
mod score_kind_spans;
mod seed_scenarios;
mod stream;
mod trec_eval_vectors;
mod trec_files;
