//! ragtrace for JavaScript (contract section 7): a thin shell over `ragtrace-core`.
//!
//! Inputs are a JSON string (any shape of section 1) or an already-parsed JS object.
//! `analyze` hands back an [`Analysis`] handle that converts only what is asked for
//! (`summary()`, `trace(i)`, `traces(from, to)`, `toJSON()`); the other functions
//! return plain JS objects shaped exactly like the CLI's JSON (absent values are
//! `null`). Every failure is thrown as a JS `Error` whose message names what is wrong
//! and where (see [`Error`]).
//!
//! One file per concern: to add a function, add a file beside `evaluate.rs`, declare
//! its result types in `types/ragtrace.d.ts`, and use them in `types/usage.ts`.

#![warn(unreachable_pub)]

mod analyze;
mod args;
mod calibrate;
mod config;
mod error;
mod evaluate;
mod memory;
mod quality;
mod to_js;

pub use analyze::{analyze, analyze_object, Analysis};
pub use calibrate::calibrate;
pub use config::default_config;
pub use error::Error;
pub use evaluate::evaluate;
pub use quality::{canonical_label, quality_score};

use wasm_bindgen::prelude::*;

// The result types every export names: hand-written, checked by `tsc` in
// scripts/check-types.sh against types/usage.ts.
#[wasm_bindgen(typescript_custom_section)]
const RESULT_TYPES: &str = include_str!("../types/ragtrace.d.ts");

mod compare;
pub use compare::compare_runs;

mod explain;
pub use explain::explain;
