//! The JavaScript API (contract section 7): a thin shell over the core.

use wasm_bindgen::prelude::*;

/// `canonicalLabel(label)`: "dense", "hybrid" or null for an unknown label.
#[wasm_bindgen(js_name = canonicalLabel)]
pub fn canonical_label(label: &str) -> Option<String> {
    crate::label::canonical_label(label).map(|l| l.as_str().to_owned())
}
