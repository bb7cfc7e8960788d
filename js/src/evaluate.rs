//! `evaluate`: the golden evaluation of contract section 6.

use crate::args::{self, RUNS_SOURCE};
use crate::error::Error;
use crate::to_js::to_js;
use ragtrace_core::evaluate_with_floor_sweep;
use wasm_bindgen::prelude::*;

/// `evaluate(cases, runs, config?)`: the golden report (`report.json`'s object) of
/// the cases against the traces in `runs` analysed under `config`.
#[wasm_bindgen(unchecked_return_type = "GoldenReport")]
pub fn evaluate(
    #[wasm_bindgen(unchecked_param_type = "string | object")] cases: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string | object")] runs: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "Settings | string | null")] config: JsValue,
) -> Result<JsValue, Error> {
    let settings = args::settings(config)?;
    let cases = args::cases(cases)?;
    let batch = args::traces(runs, RUNS_SOURCE)?;
    let analysis = ragtrace_core::analyze(&batch, &settings, false)
        .map_err(|err| Error::Config(err.to_string()))?;
    to_js(&evaluate_with_floor_sweep(&cases, &analysis))
}
