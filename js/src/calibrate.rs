//! `calibrate`: the relevance levels and the low-quality gate against golden
//! outcomes (contract section 6.1).

use crate::args::{self, INPUT_SOURCE};
use crate::error::Error;
use crate::to_js::to_js;
use wasm_bindgen::prelude::*;

/// `calibrate(cases, input, config?)`: `calibration.json`'s object for the cases
/// against the traces in `input` analysed under `config`: the level-vs-outcome
/// table, the gate as a classifier (ROC, AUC, F1 per threshold) and the suggested
/// settings with their figures.
#[wasm_bindgen(unchecked_return_type = "Calibration")]
pub fn calibrate(
    #[wasm_bindgen(unchecked_param_type = "string | object")] cases: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string | object")] input: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "Settings | string | null")] config: JsValue,
) -> Result<JsValue, Error> {
    let settings = args::settings(config)?;
    let cases = args::cases(cases)?;
    let batch = args::traces(input, INPUT_SOURCE)?;
    let analysis = ragtrace_core::analyze(&batch, &settings, false)
        .map_err(|err| Error::Config(err.to_string()))?;
    to_js(&ragtrace_core::calibrate_with_floor_sweep(
        &cases, &analysis,
    ))
}
