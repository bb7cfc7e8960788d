//! Getting traces in: paste, pick files, drop files (handled page-wide in `App`), samples.

use crate::samples::Sample;
use crate::state::loading::read_files;
use crate::state::AppState;
use leptos::html;
use leptos::prelude::*;

#[component]
pub(crate) fn InputPanel() -> impl IntoView {
    let state = expect_context::<AppState>();
    let file_input = NodeRef::<html::Input>::new();
    let on_files = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        if let Some(files) = input.files() {
            read_files(state, files);
        }
        // Cleared so that picking the same file again (after editing it) reloads it.
        input.set_value("");
    };
    let open_picker = move |_| {
        if let Some(input) = file_input.get() {
            input.click();
        }
    };
    view! {
        <section class="panel input-panel" aria-labelledby="input-title">
            <h2 id="input-title">"Load traces"</h2>
            <label for="trace-input">
                "Paste traces: one trace, a JSON array, " <code>"{\"traces\": [...]}"</code>
                " or JSON Lines"
            </label>
            <textarea
                id="trace-input"
                spellcheck="false"
                autocomplete="off"
                placeholder="{\"requestId\": \"...\", \"candidates\": [...]}"
                prop:value=move || state.paste.get()
                on:input=move |ev| state.set_paste(event_target_value(&ev))
            ></textarea>
            <div class="row">
                <button type="button" on:click=open_picker>"Open files…"</button>
                <input
                    id="file-input"
                    node_ref=file_input
                    class="visually-hidden"
                    type="file"
                    multiple
                    tabindex="-1"
                    aria-label="Trace files"
                    on:change=on_files
                />
                <span class="hint">"or drop files anywhere on the page"</span>
            </div>
            <div class="samples" role="group" aria-label="Built-in samples">
                <span class="hint">"Samples:"</span>
                {Sample::ALL
                    .into_iter()
                    .map(|sample| {
                        view! {
                            <button
                                type="button"
                                class="quiet"
                                data-sample=sample.key()
                                on:click=move |_| state.add_sample(sample)
                            >
                                {sample.label()}
                            </button>
                        }
                    })
                    .collect_view()}
            </div>
        </section>
    }
}
