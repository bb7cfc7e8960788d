//! `explain`: for every candidate, level and golden case, the least change of settings
//! that flips it (contract section 9's `explain.json`).

use crate::args::{self, INPUT_SOURCE};
use crate::error::Error;
use crate::to_js::to_js;
use wasm_bindgen::prelude::*;

/// `explain(input, cases?, config?)`: the object `ragtrace explain` writes as
/// `explain.json`, from the same core call. `input` is read like `analyze`'s; without
/// `cases`, `cases` is empty and the summary counts traces only.
#[wasm_bindgen(unchecked_return_type = "Explanation")]
pub fn explain(
    #[wasm_bindgen(unchecked_param_type = "string | object")] input: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "string | object | null")] cases: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "Settings | string | null")] config: JsValue,
) -> Result<JsValue, Error> {
    let settings = args::settings(config)?;
    let cases = args::optional_cases(cases)?;
    let batch = args::traces(input, INPUT_SOURCE)?;
    let explained = ragtrace_core::explain(&batch, &settings, cases.as_ref())
        .map_err(|err| Error::Config(err.to_string()))?;
    to_js(&explained)
}
