//! The ragtrace inspector page: a thin Leptos shell over `ragtrace-core`.

use leptos::prelude::*;

/// The sample trace the page opens with, so a first visitor sees an analysis at once.
pub const SAMPLE_DENSE_TRACE: &str = include_str!("../../tests/fixtures/dense-trace.json");

#[component]
pub fn App() -> impl IntoView {
    let (input, set_input) = signal(SAMPLE_DENSE_TRACE.to_owned());
    view! {
        <main class="app">
            <header>
                <h1>"ragtrace"</h1>
                <p class="tagline">"See why your retrieval returned what it did."</p>
            </header>
            <section class="input-panel">
                <label for="trace-input">"Traces (JSON, JSON array or JSON Lines)"</label>
                <textarea
                    id="trace-input"
                    spellcheck="false"
                    prop:value=input
                    on:input=move |ev| set_input.set(event_target_value(&ev))
                ></textarea>
            </section>
        </main>
    }
}

/// Mounts the app on `<body>`; panics are shown on the page, not only in the console.
pub fn mount() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(App);
}
