//! Built-in samples, one click away: the contract's examples, a generated batch and
//! generated OpenTelemetry spans.

use ragtrace_core::ScoreKind;
use std::sync::{Arc, OnceLock};

/// The contract's dense example: duplicates, a per-document cap, a null score.
pub const SAMPLE_DENSE_TRACE: &str = include_str!("../../samples/dense-trace.json");
/// A hybrid trace with legacy labels and legacy `finalScore`s.
pub const SAMPLE_HYBRID_LEGACY_TRACE: &str = include_str!("../../samples/hybrid-legacy-trace.json");
/// LookupResults as JSON Lines, one with an embedded trace and markup in its text.
pub const SAMPLE_LOOKUP_RESULTS: &str = include_str!("../../samples/lookup-result.jsonl");

/// Size and seed of the generated sample: about 500 traces, mixed dense and hybrid.
pub const GENERATED_TRACES: usize = 500;
pub const GENERATED_CANDIDATES_PER_TRACE: usize = 8;
pub const GENERATED_SEED: u64 = 42;

/// Size and seed of the OpenTelemetry sample: retrievals as LlamaIndex's OpenInference
/// instrumentor records them, 5 to 30 documents each, scored by cosine similarity.
pub const SPANS_TRACES: usize = 40;
pub const SPANS_SEED: u64 = 42;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Sample {
    DenseTrace,
    HybridLegacyTrace,
    LookupResults,
    Generated,
    CosineSpans,
}

impl Sample {
    pub const ALL: [Sample; 5] = [
        Sample::Generated,
        Sample::DenseTrace,
        Sample::HybridLegacyTrace,
        Sample::LookupResults,
        Sample::CosineSpans,
    ];

    /// What the page opens with: a full batch, so every panel has something to show.
    pub const OPENING: Sample = Sample::Generated;

    /// The source name its traces are reported under.
    pub fn file_name(self) -> &'static str {
        match self {
            Sample::DenseTrace => "dense-trace.json",
            Sample::HybridLegacyTrace => "hybrid-legacy-trace.json",
            Sample::LookupResults => "lookup-result.jsonl",
            Sample::Generated => "generated-500.json",
            Sample::CosineSpans => "llamaindex-spans-cosine.jsonl",
        }
    }

    /// The button text.
    pub fn label(self) -> &'static str {
        match self {
            Sample::DenseTrace => "Dense trace",
            Sample::HybridLegacyTrace => "Hybrid trace with legacy labels",
            Sample::LookupResults => "LookupResults (JSON Lines)",
            Sample::Generated => "Generated batch (500 traces)",
            Sample::CosineSpans => "OpenTelemetry spans (cosine similarity)",
        }
    }

    /// A stable identifier for saved state.
    pub fn key(self) -> &'static str {
        match self {
            Sample::DenseTrace => "dense",
            Sample::HybridLegacyTrace => "hybrid-legacy",
            Sample::LookupResults => "lookup",
            Sample::Generated => "generated",
            Sample::CosineSpans => "otlp-cosine",
        }
    }

    pub fn from_key(key: &str) -> Option<Sample> {
        Sample::ALL.into_iter().find(|s| s.key() == key)
    }

    pub fn text(self) -> Arc<str> {
        match self {
            Sample::DenseTrace => Arc::from(SAMPLE_DENSE_TRACE),
            Sample::HybridLegacyTrace => Arc::from(SAMPLE_HYBRID_LEGACY_TRACE),
            Sample::LookupResults => Arc::from(SAMPLE_LOOKUP_RESULTS),
            Sample::Generated => generated_text(),
            Sample::CosineSpans => spans_text(),
        }
    }

    /// Whether its text can be had now (see [`make_spans_text`]): false only for the
    /// OpenTelemetry sample, where the page is split, until its module is loaded.
    pub fn ready(self) -> bool {
        self != Sample::CosineSpans || cfg!(not(ragtrace_split)) || SPANS_TEXT.get().is_some()
    }

    /// The `scoreKind` its scores are in, which loading it sets: spans carry no
    /// options, and a cosine similarity read as an L2 distance inverts every quality.
    pub fn score_kind(self) -> Option<ScoreKind> {
        match self {
            Sample::CosineSpans => Some(ScoreKind::CosineSimilarity),
            _ => None,
        }
    }
}

/// The generated batch is deterministic, so it is built once per page load.
fn generated_text() -> Arc<str> {
    static TEXT: OnceLock<Arc<str>> = OnceLock::new();
    TEXT.get_or_init(|| {
        Arc::from(ragtrace_core::generate_batch(
            GENERATED_TRACES,
            GENERATED_CANDIDATES_PER_TRACE,
            GENERATED_SEED,
        ))
    })
    .clone()
}

/// The OpenTelemetry sample, generated like the batch (once per page load). Its
/// spans need the readers of other stacks anyway, so where the page is split its
/// generator comes with them (`deferred::readers`, which calls [`make_spans_text`]); until
/// then the sample is not [`ready`](Sample::ready) and its text is empty.
static SPANS_TEXT: OnceLock<Arc<str>> = OnceLock::new();

fn spans_text() -> Arc<str> {
    #[cfg(not(ragtrace_split))]
    make_spans_text();
    SPANS_TEXT.get().cloned().unwrap_or_else(|| Arc::from(""))
}

/// Generates the OpenTelemetry sample's text, once.
pub(crate) fn make_spans_text() {
    SPANS_TEXT.get_or_init(|| {
        let lines: Vec<String> =
            ragtrace_core::generate_real_otlp_cosine_lines(SPANS_TRACES, SPANS_SEED).collect();
        Arc::from(lines.join("\n"))
    });
}

/// Golden cases written for the generated batch (`ragtrace_core::generate_cases`).
pub fn generated_cases() -> Arc<str> {
    static TEXT: OnceLock<Arc<str>> = OnceLock::new();
    TEXT.get_or_init(|| {
        Arc::from(ragtrace_core::generate_cases(
            GENERATED_TRACES,
            GENERATED_CANDIDATES_PER_TRACE,
            GENERATED_SEED,
        ))
    })
    .clone()
}

/// The source name the generated cases are reported under.
pub const GENERATED_CASES_SOURCE: &str = "generated-500-cases.json";

/// The built-in paired runs: (dense run, hybrid run, cases), generated once per page.
pub fn paired_sample() -> &'static (Arc<str>, Arc<str>, String) {
    static TEXT: OnceLock<(Arc<str>, Arc<str>, String)> = OnceLock::new();
    TEXT.get_or_init(|| {
        let (dense, hybrid, cases) =
            ragtrace_core::generate_paired_runs(PAIRED_QUERIES, PAIRED_CANDIDATES, PAIRED_SEED);
        (Arc::from(dense), Arc::from(hybrid), cases)
    })
}

/// Size and seed of the paired sample: 120 queries (108 in both runs), 10 candidates each.
pub const PAIRED_QUERIES: usize = 120;
pub const PAIRED_CANDIDATES: usize = 10;
pub const PAIRED_SEED: u64 = 9;
/// The source names the paired sample's runs and cases are read under.
pub const PAIRED_DENSE_SOURCE: &str = "paired-dense.json";
pub const PAIRED_HYBRID_SOURCE: &str = "paired-hybrid.json";
pub const PAIRED_CASES_SOURCE: &str = "paired-cases.json";
