//! End-to-end tests of the `ragtrace` binary: what each command prints and writes on
//! the fixtures, and its exit codes. One test binary (`--test cli`), built only with
//! the feature `cli` (core/Cargo.toml's `required-features`): without it cargo skips
//! the binary instead of compiling it to nothing.

#[path = "../common/mod.rs"]
mod common;
#[path = "../common/schema_check.rs"]
mod schema_check;

mod basics;
mod bounded_errors;
mod calibrate;
mod compare;
mod compare_many;
mod explain;
mod otlp;
mod partial;
mod run;
mod schema;
mod stream;
mod trec_files;
