//! `compareRuns`: two runs side by side (contract section 6.2's `compare.json`).

use crate::args::{self, RUN_A_SOURCE, RUN_B_SOURCE};
use crate::error::Error;
use crate::to_js::to_js;
use ragtrace_core::compare_batches;
use wasm_bindgen::prelude::*;

/// `compareRuns(a, b, cases?, config?, options?)`: the object `ragtrace compare`
/// writes as `compare.json`, from the core's one entry point so both report the same
/// numbers. `a` and `b` are read like `analyze`'s input (errors located in `a` or `b`);
/// with `cases`, both runs are evaluated and the golden deltas are in `golden`.
#[wasm_bindgen(js_name = compareRuns, unchecked_return_type = "CompareReport")]
pub fn compare_runs(
    #[wasm_bindgen(unchecked_param_type = "string | object")] a: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string | object")] b: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "string | object | null")] cases: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "Settings | string | null")] config: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "Partial<CompareOptions> | null")]
    options: JsValue,
) -> Result<JsValue, Error> {
    let settings = args::settings(config)?;
    let options = args::compare_options(options)?;
    let cases = args::optional_cases(cases)?;
    let batch_a = args::traces(a, RUN_A_SOURCE)?;
    let batch_b = args::traces(b, RUN_B_SOURCE)?;
    let report = compare_batches(&batch_a, &batch_b, &settings, cases.as_ref(), &options)
        .map_err(|err| Error::Config(err.to_string()))?;
    to_js(&report)
}
