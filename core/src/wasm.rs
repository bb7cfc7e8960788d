//! The JavaScript API (contract section 7): a thin shell over the core.
//!
//! Inputs are a JSON string (any shape of section 1) or an already-parsed JS
//! object; results are plain JS objects shaped exactly like the CLI's JSON
//! (absent values are `null`). Errors are thrown as JS `Error`s whose message
//! names what is wrong and where.

use crate::config::{Config, Settings};
use crate::golden::{self, CaseSet};
use crate::input::{self, ParsedBatch};
use crate::label::CanonicalLabel;
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// The name given to inputs in located error messages.
const INPUT_SOURCE: &str = "input";
const CASES_SOURCE: &str = "cases";

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    // json_compatible: maps become plain objects and `None` becomes `null`.
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|err| JsError::new(&format!("cannot convert the result to JavaScript: {err}")))
}

fn js_to_json(value: JsValue, what: &str) -> Result<serde_json::Value, JsError> {
    serde_wasm_bindgen::from_value(value)
        .map_err(|err| JsError::new(&format!("{what} is not JSON-like data: {err}")))
}

fn is_absent(value: &JsValue) -> bool {
    value.is_undefined() || value.is_null()
}

/// Reads traces from a string or an object. Throws when nothing at all could
/// be read; partial failures are reported in the result's `inputErrors`.
fn parse_runs(input: JsValue, source: &str) -> Result<ParsedBatch, JsError> {
    let batch = match input.as_string() {
        Some(text) => input::parse_document(source, &text),
        None if is_absent(&input) => {
            return Err(JsError::new(&format!(
                "{source}: expected a JSON string or an object, got nothing"
            )))
        }
        None => input::parse_value(source, &js_to_json(input, source)?),
    };
    if batch.traces.is_empty() {
        if let Some(first) = batch.errors.first() {
            return Err(JsError::new(&first.to_string()));
        }
    }
    Ok(batch)
}

/// User settings from an optional JS object of section 2 keys (either spelling).
fn parse_settings(config: JsValue) -> Result<Settings, JsError> {
    if is_absent(&config) {
        return Ok(Settings::default());
    }
    let text = match config.as_string() {
        Some(text) => text,
        None => js_to_json(config, "config")?.to_string(),
    };
    Settings::from_json_text(&text).map_err(|err| JsError::new(&format!("config: {err}")))
}

fn parse_case_set(cases: JsValue) -> Result<CaseSet, JsError> {
    let parsed = match cases.as_string() {
        Some(text) => golden::parse_cases(CASES_SOURCE, &text),
        None => golden::parse_cases_value(CASES_SOURCE, &js_to_json(cases, CASES_SOURCE)?),
    };
    parsed.map_err(|errors| {
        let message = errors
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("; ");
        JsError::new(&message)
    })
}

/// `analyze(input, config?)`: the same object as `ragtrace analyze --sweep`.
#[wasm_bindgen]
pub fn analyze(input: JsValue, config: JsValue) -> Result<JsValue, JsError> {
    let settings = parse_settings(config)?;
    let batch = parse_runs(input, INPUT_SOURCE)?;
    let analysis = crate::analyze(&batch, &settings, true)
        .map_err(|err| JsError::new(&format!("config: {err}")))?;
    to_js(&analysis)
}

/// `evaluate(cases, runs, config?)`: the golden report (`report.json`'s object).
#[wasm_bindgen]
pub fn evaluate(cases: JsValue, runs: JsValue, config: JsValue) -> Result<JsValue, JsError> {
    let settings = parse_settings(config)?;
    let cases = parse_case_set(cases)?;
    let batch = parse_runs(runs, "runs")?;
    let analysis = crate::analyze(&batch, &settings, false)
        .map_err(|err| JsError::new(&format!("config: {err}")))?;
    to_js(&golden::evaluate_analysis(&cases, &analysis))
}

/// `defaultConfig()`: every key of section 2 with its default.
#[wasm_bindgen(js_name = defaultConfig)]
pub fn default_config() -> Result<JsValue, JsError> {
    to_js(&Config::default())
}

/// `canonicalLabel(label)`: "dense", "hybrid" or null for an unknown label.
#[wasm_bindgen(js_name = canonicalLabel)]
pub fn canonical_label(label: &str) -> Option<String> {
    crate::label::canonical_label(label).map(|l| l.as_str().to_owned())
}

/// `qualityScore(label, score, rank, batchSize, config?, denseDistance?)`:
/// the quality of one candidate (section 3.2); an unknown label gives 0.
#[wasm_bindgen(js_name = qualityScore)]
pub fn quality_score(
    label: &str,
    score: Option<f64>,
    rank: f64,
    batch_size: f64,
    config: JsValue,
    dense_distance: Option<f64>,
) -> Result<f64, JsError> {
    let settings = parse_settings(config)?;
    let config =
        Config::from_settings(&settings).map_err(|err| JsError::new(&format!("config: {err}")))?;
    let rank = whole_number_at_least_one(rank, "rank")?;
    let batch_size = whole_number_at_least_one(batch_size, "batchSize")?;
    let label: Option<CanonicalLabel> = crate::label::canonical_label(label);
    Ok(crate::quality::quality_score(
        label,
        score,
        rank,
        usize::try_from(batch_size).unwrap_or(usize::MAX),
        &config,
        dense_distance,
    ))
}

fn whole_number_at_least_one(value: f64, name: &str) -> Result<u64, JsError> {
    if value.is_finite() && value.fract() == 0.0 && value >= 1.0 && value <= u32::MAX as f64 {
        Ok(value as u64)
    } else {
        Err(JsError::new(&format!(
            "{name} must be an integer >= 1, got {value}"
        )))
    }
}
