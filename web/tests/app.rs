#![cfg(target_arch = "wasm32")]

use leptos::prelude::*;
use ragtrace_web::App;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn app_mounts_with_title_and_sample_loaded() {
    let root = document().create_element("div").unwrap();
    document().body().unwrap().append_child(&root).unwrap();
    let _handle = leptos::mount::mount_to(root.clone().unchecked_into(), App);
    let title = root.query_selector("h1").unwrap().unwrap();
    assert_eq!(title.text_content().as_deref(), Some("ragtrace"));
    let area: web_sys::HtmlTextAreaElement = root
        .query_selector("#trace-input")
        .unwrap()
        .unwrap()
        .unchecked_into();
    assert!(area.value().contains("req-dense-001"));
}
