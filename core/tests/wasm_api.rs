//! The JS API, exercised in headless browsers by `wasm-pack test`.
#![cfg(target_arch = "wasm32")]

use ragtrace_core::wasm;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn canonical_label_maps_aliases_and_rejects_unknown() {
    assert_eq!(
        wasm::canonical_label("rrf_fused").as_deref(),
        Some("hybrid")
    );
    assert_eq!(
        wasm::canonical_label(" L2_DISTANCE").as_deref(),
        Some("dense")
    );
    assert_eq!(wasm::canonical_label("cosine"), None);
}
