//! One candidate at a time: `canonicalLabel` and `qualityScore` (contract section 3).

use crate::args;
use crate::error::Error;
use ragtrace_core::canonical_label as canonical;
use ragtrace_core::Config;
use wasm_bindgen::prelude::*;

/// `canonicalLabel(label)`: "dense", "hybrid" or null for an unknown label.
#[wasm_bindgen(js_name = canonicalLabel, unchecked_return_type = "CanonicalLabel | null")]
pub fn canonical_label(label: &str) -> Option<String> {
    canonical(label).map(|l| l.as_str().to_owned())
}

/// `qualityScore(label, score, rank, batchSize, config?, denseDistance?)`: the quality
/// of one candidate (section 3.2); an unknown label gives 0.
#[wasm_bindgen(js_name = qualityScore)]
pub fn quality_score(
    label: &str,
    score: Option<f64>,
    rank: f64,
    #[wasm_bindgen(js_name = batchSize)] batch_size: f64,
    #[wasm_bindgen(unchecked_optional_param_type = "Settings | string | null")] config: JsValue,
    #[wasm_bindgen(js_name = denseDistance, unchecked_optional_param_type = "number | null")]
    dense_distance: Option<f64>,
) -> Result<f64, Error> {
    let settings = args::settings(config)?;
    let config = Config::from_settings(&settings).map_err(|err| Error::Config(err.to_string()))?;
    let rank = args::count(rank, "rank")?;
    let batch_size = args::count(batch_size, "batchSize")?;
    Ok(ragtrace_core::quality_score(
        canonical(label),
        score,
        rank,
        usize::try_from(batch_size).unwrap_or(usize::MAX),
        &config,
        dense_distance,
    ))
}
