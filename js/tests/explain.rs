//! The JS API's `explain`, exercised in headless browsers by `wasm-pack test`: the
//! same object as the core's (and so as `ragtrace explain`'s explain.json).
#![cfg(target_arch = "wasm32")]

use js_sys::JSON;
use ragtrace_js as wasm;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const TRACES: &str = include_str!("../../tests/fixtures/explain-traces.json");
const CASES: &str = include_str!("../../tests/fixtures/explain-cases.json");

/// Through `JSON.stringify` on both sides, so numbers are written the same way.
fn as_json(value: &JsValue) -> serde_json::Value {
    let text: String = JSON::stringify(value).map(Into::into).unwrap_or_default();
    serde_json::from_str(&text).unwrap_or_default()
}

fn core_explanation(settings: &ragtrace_core::Settings, with_cases: bool) -> serde_json::Value {
    let batch = ragtrace_core::parse_document("input", TRACES);
    let cases = with_cases.then(|| ragtrace_core::parse_cases("cases", CASES).unwrap());
    let explained = ragtrace_core::explain(&batch, settings, cases.as_ref()).unwrap();
    as_json(&JSON::parse(&serde_json::to_string(&explained).unwrap()).unwrap())
}

#[wasm_bindgen_test]
fn explain_equals_the_cores_explanation() {
    let out = wasm::explain(
        JsValue::from_str(TRACES),
        JSON::parse(CASES).unwrap(),
        JsValue::UNDEFINED,
    )
    .unwrap();
    let got = as_json(&out);
    assert_eq!(
        got,
        core_explanation(&ragtrace_core::Settings::default(), true)
    );
    // The fixture's hand-worked figures, as a reader of the object sees them.
    assert_eq!(
        got["traces"][0]["candidates"][4]["acceptedIf"][0]["set"]["returnN"],
        4
    );
    assert_eq!(
        got["traces"][0]["levelIf"][0]["set"]["maxL2Distance"],
        1.9999999999999998
    );
    assert_eq!(got["cases"][0]["cause"], "dropped");
    assert_eq!(got["cases"][3]["traceIndex"], serde_json::Value::Null);
}

#[wasm_bindgen_test]
fn explain_passes_settings_and_works_without_cases() {
    let config = r#"{"returnN": 4, "maxChunksPerDocument": 2}"#;
    let out = wasm::explain(
        JsValue::from_str(TRACES),
        JsValue::NULL,
        JsValue::from_str(config),
    )
    .unwrap();
    let settings = ragtrace_core::Settings::from_json_text(config).unwrap();
    let got = as_json(&out);
    assert_eq!(got, core_explanation(&settings, false));
    assert_eq!(got["config"]["returnN"], 4);
    assert_eq!(got["cases"], serde_json::json!([]));
}

#[wasm_bindgen_test]
fn explain_throws_on_bad_settings_and_unreadable_input() {
    let bad = wasm::explain(
        JsValue::from_str(TRACES),
        JsValue::UNDEFINED,
        JsValue::from_str(r#"{"returnN": 0}"#),
    );
    let message = bad
        .err()
        .map(|e| format!("{:?}", JsValue::from(e)))
        .unwrap_or_default();
    assert!(message.contains("returnN"), "{message}");
    let unreadable = wasm::explain(
        JsValue::from_str("{\"traces\": ["),
        JsValue::UNDEFINED,
        JsValue::UNDEFINED,
    );
    assert!(unreadable.is_err());
}
