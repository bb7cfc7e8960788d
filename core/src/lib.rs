//! ragtrace-core: the whole ragtrace pipeline as pure functions over plain data.
//!
//! The behaviour contract is `docs/contract.md`; section numbers in comments refer to it.

pub mod diagnostic;
pub mod golden;
pub mod label;
pub mod report;

#[cfg(target_arch = "wasm32")]
pub mod wasm;
