//! `defaultConfig`: the settings of contract section 2 and their defaults.

use crate::error::Error;
use crate::to_js::to_js;
use ragtrace_core::Config;
use wasm_bindgen::prelude::*;

/// `defaultConfig()`: every key of section 2 with its default.
#[wasm_bindgen(js_name = defaultConfig, unchecked_return_type = "Config")]
pub fn default_config() -> Result<JsValue, Error> {
    to_js(&Config::default())
}
