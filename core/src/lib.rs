//! ragtrace-core: the whole ragtrace pipeline as pure functions over plain data.
//!
//! The behaviour contract is `docs/contract.md`; section numbers in comments refer to it.
//! Read with [`input::parse_documents`] once, then call [`analyze`] as often as the
//! settings change: nothing is re-parsed.

#![warn(unreachable_pub)]

pub mod analysis;
pub mod batch;
pub mod calibration;
pub mod compare;
pub mod config;
pub mod diagnostic;
pub mod explain;
mod fast_hash;
pub mod golden;
pub mod input;
pub mod label;
pub mod legacy;
pub mod outcome;
pub mod pipeline;
pub mod quality;
pub mod report;
pub mod runs;
pub mod stats;
pub mod testdata;
pub mod trace_analysis;

pub use analysis::{analyze, Analysis, BatchAnalyzer, BatchView};
pub use batch::{BatchWarning, ModeSummary, Summary, SweepPoint};
pub use config::{Config, ConfigError, HybridQuality, Settings};
pub use explain::{explain, explain_analysis, Explanation};
pub use input::{parse_document, parse_documents, parse_value, ParsedBatch, Trace};
pub use legacy::LegacySummary;
pub use outcome::Level;
pub use pipeline::Status;
pub use trace_analysis::{Block, EvidenceComparison, Stages, TraceAnalysis};
