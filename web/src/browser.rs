//! The few places the page talks to the browser directly: reading files,
//! saving downloads, and the fatal-error banner. Nothing here uses the network.

use crate::state::{AppState, Origin};
use leptos::prelude::Set;
use std::sync::Arc;
use wasm_bindgen::{JsCast, JsValue};

/// Reads every file (picked or dropped) as UTF-8 text and adds it to the batch.
/// Reading is asynchronous; each file joins the batch when it has been read.
pub fn read_files(state: AppState, files: web_sys::FileList) {
    for i in 0..files.length() {
        let Some(file) = files.get(i) else {
            continue;
        };
        let name = file.name();
        let promise = file.text();
        leptos::task::spawn_local(async move {
            match wasm_bindgen_futures::JsFuture::from(promise).await {
                Ok(text) => {
                    let text = text.as_string().unwrap_or_default();
                    state.add_document(name, Arc::from(text), Origin::File);
                }
                Err(error) => state.notice.set(Some(format!(
                    "{name} could not be read: {}",
                    describe(&error)
                ))),
            }
        });
    }
}

fn describe(error: &JsValue) -> String {
    error
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| error.as_string())
        .unwrap_or_else(|| "unknown error".to_owned())
}

/// Offers `content` as a file download (Blob + object URL: nothing leaves the machine).
pub fn download(file_name: &str, mime: &str, content: &str) -> Result<(), String> {
    let fail = |e: JsValue| describe(&e);
    let window = web_sys::window().ok_or("no window")?;
    let document = window.document().ok_or("no document")?;
    let parts = js_sys::Array::of1(&JsValue::from_str(content));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).map_err(fail)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(fail)?;
    let anchor: web_sys::HtmlAnchorElement = document
        .create_element("a")
        .map_err(fail)?
        .dyn_into()
        .map_err(|_| "not an anchor".to_owned())?;
    anchor.set_href(&url);
    anchor.set_download(file_name);
    anchor.click();
    // Revoked a moment later: some browsers start the download asynchronously.
    leptos::prelude::set_timeout(
        move || {
            let _ = web_sys::Url::revoke_object_url(&url);
        },
        std::time::Duration::from_secs(10),
    );
    Ok(())
}

/// Panics show a visible banner (and still reach the console), never a dead page.
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        show_fatal_banner(&format!(
            "ragtrace hit an internal error and may have stopped responding; reload the page. ({info})"
        ));
    }));
}

/// Inserts a `.fatal-banner` at the top of the page, without the framework
/// (which may be what failed).
pub fn show_fatal_banner(message: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Ok(banner) = document.create_element("div") else {
        return;
    };
    banner.set_class_name("fatal-banner");
    let _ = banner.set_attribute("role", "alert");
    banner.set_text_content(Some(message));
    if let Some(body) = document.body() {
        let _ = body.prepend_with_node_1(&banner);
    }
}
