//! Results into JavaScript: serialised to JSON text in wasm and read by the engine's
//! `JSON.parse`, which builds a large object many times faster than setting its
//! properties one call at a time (the shape is the CLI's JSON either way).

use crate::error::Error;
use serde::Serialize;
use wasm_bindgen::JsValue;

pub(crate) fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, Error> {
    let text = serde_json::to_string(value).map_err(|err| Error::Convert(err.to_string()))?;
    js_sys::JSON::parse(&text).map_err(|err| Error::Convert(format!("{err:?}")))
}
