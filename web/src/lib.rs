//! The ragtrace inspector page: a thin Leptos shell over `ragtrace-core`.
//!
//! Everything the page shows is computed by the core (each document read once by
//! `parse_document` or the streamed `DocumentReader`, then `analyze` on every knob change); the page only lays it out. Trace text is
//! always rendered as text nodes, never as HTML, and nothing uses the network.

#![warn(unreachable_pub)]

pub mod browser;
pub mod components;
#[cfg(feature = "test-hooks")]
mod counters;
mod deferred;
pub mod format;
mod hints;
mod lazy;
pub(crate) mod persist;
pub mod samples;
mod shared;
pub(crate) mod state;
#[cfg(feature = "test-hooks")]
pub mod test_hooks;

use components::{
    baseline::BaselineComparison, distribution::Distribution, error_panel::ErrorPanel,
    file_list::FileList, input::InputPanel, knobs::Knobs, load_progress::LoadProgressPanel,
    sweep_plot::SweepPanel, trace_list::TraceList, trace_view::TraceView, transitions::Transitions,
    warnings::Warnings,
};
use leptos::prelude::*;
pub use samples::{SAMPLE_DENSE_TRACE, SAMPLE_HYBRID_LEGACY_TRACE, SAMPLE_LOOKUP_RESULTS};
pub use state::loading::{LARGEST_FILE, SLICES_PER_READ, SLICE_BYTES, TASK_BUDGET_MS};
pub use state::PASTE_PAUSE;
use state::{AppState, View};

#[component]
pub fn App() -> impl IntoView {
    let mut restored = persist::restore();
    let compare_hash = std::mem::take(&mut restored.hash.compare);
    let state = AppState::new(restored.documents, restored.paste, restored.settings);
    persist::apply_hash(state, restored.hash);
    provide_context(state);
    let golden = state::golden::GoldenState::new(state, restored.cases);
    provide_context(golden);
    provide_context(state::compare_link::CompareLink::new(compare_hash));
    persist::keep_in_sync(state);
    persist::keep_cases_in_sync(state, golden);
    accept_dropped_files(state);

    view! {
        <div class="app" class:dragging=move || state.dragging.get()>
            <header class="app-header">
                <div>
                    <h1>"ragtrace"</h1>
                    <p class="tagline">
                        "See why your retrieval returned what it did. Everything runs in this page; nothing is uploaded."
                    </p>
                </div>
                <Downloads/>
            </header>
            <Notice/>
            <div class="layout">
                <aside class="sidebar">
                    <InputPanel/>
                    <LoadProgressPanel/>
                    <FileList/>
                    <Knobs/>
                </aside>
                <main class="main" id="main">
                    <ErrorPanel/>
                    <StaleBanner/>
                    <AnalysisStatus/>
                    <ViewTabs/>
                    <MainView/>
                </main>
            </div>
        </div>
    }
}

/// Files dropped anywhere on the page join the batch.
fn accept_dropped_files(state: AppState) {
    let over = window_event_listener(leptos::ev::dragover, move |ev| {
        // Without this the browser would open the file instead of handing it to us.
        ev.prevent_default();
        if !state.dragging.get_untracked() {
            state.dragging.set(true);
        }
    });
    let leave = window_event_listener(leptos::ev::dragleave, move |ev| {
        // Leaving the window has no related target; moving between children has one.
        if ev.related_target().is_none() {
            state.dragging.set(false);
        }
    });
    let drop = window_event_listener(leptos::ev::drop, move |ev| {
        ev.prevent_default();
        state.dragging.set(false);
        if let Some(files) = ev.data_transfer().and_then(|dt| dt.files()) {
            state::loading::read_files(state, files);
        }
    });
    on_cleanup(move || {
        over.remove();
        leave.remove();
        drop.remove();
    });
}

#[component]
fn Notice() -> impl IntoView {
    let state = expect_context::<AppState>();
    move || {
        state.notice.get().map(|text| {
            view! {
                <div class="notice" role="status">
                    <span>{text}</span>
                    <button type="button" class="quiet" on:click=move |_| state.notice.set(None)>
                        "Dismiss"
                    </button>
                </div>
            }
        })
    }
}

/// Says so when the results below are older than the input (which could not be read).
#[component]
fn StaleBanner() -> impl IntoView {
    let state = expect_context::<AppState>();
    view! {
        <Show when=move || state.stale.get()>
            <div class="stale-banner" role="status">
                "Showing the last good analysis: the current input could not be read (see the errors above). "
                "Fix or remove the unreadable input to analyse it."
            </div>
        </Show>
        <Show when=move || state.computed.with(|c| c.is_err())>
            <div class="stale-banner" role="status">
                "Showing the analysis for the last valid settings: the current settings are invalid (see above)."
            </div>
        </Show>
    }
}

/// Which tab shows `view`: the ids the tablist's buttons carry.
fn tab_id(view: View) -> &'static str {
    match view {
        View::Trace(_) => "tab-trace",
        View::Golden => "tab-golden",
        View::Compare => "tab-compare",
        _ => "tab-batch",
    }
}

/// The views as a WAI-ARIA tablist: one tab stop (the selected tab); the arrow
/// keys, Home and End move to another tab and select it.
#[component]
fn ViewTabs() -> impl IntoView {
    let state = expect_context::<AppState>();
    let trace_count = move || {
        state
            .analysis
            .with(|a| a.as_ref().map_or(0, |a| a.traces.len()))
    };
    let selected = move |id: &'static str| move || tab_id(state.shown_view.get()) == id;
    let open_trace = move || match state.shown_view.get() {
        View::Trace(index) => Some(index),
        _ => None,
    };
    view! {
        <div class="tabs" role="tablist" aria-label="Views" on:keydown=move_between_tabs>
            <button
                type="button"
                class="tab"
                role="tab"
                id="tab-batch"
                aria-controls="view-panel"
                aria-selected=move || if selected("tab-batch")() { "true" } else { "false" }
                tabindex=move || tab_stop(selected("tab-batch")())
                on:click=move |_| state.view.set(View::Batch)
            >
                {move || format!("Batch ({})", format::count(trace_count(), "trace", "traces"))}
            </button>
            <button
                type="button"
                class="tab"
                role="tab"
                id="tab-trace"
                aria-controls="view-panel"
                aria-selected=move || if selected("tab-trace")() { "true" } else { "false" }
                tabindex=move || tab_stop(selected("tab-trace")())
                disabled=move || trace_count() == 0
                on:click=move |_| {
                    if open_trace().is_none() {
                        state.view.set(View::Trace(0));
                    }
                }
            >
                {move || match open_trace() {
                    Some(index) => {
                        let name = state
                            .analysis
                            .with(|a| {
                                a.as_ref().and_then(|a| a.traces.get(index).map(|t| t.name().into_owned()))
                            })
                            .unwrap_or_default();
                        format!("Trace {name}")
                    }
                    None => "Trace".to_owned(),
                }}
            </button>
            <button
                type="button"
                class="tab"
                role="tab"
                id="tab-golden"
                aria-controls="view-panel"
                aria-selected=move || if selected("tab-golden")() { "true" } else { "false" }
                tabindex=move || tab_stop(selected("tab-golden")())
                on:click=move |_| state.view.set(View::Golden)
            >
                "Golden"
            </button>
            <CompareTabButton/>
        </div>
    }
}

fn tab_stop(selected: bool) -> &'static str {
    if selected {
        "0"
    } else {
        "-1"
    }
}

/// Arrow keys, Home and End on the tablist: focus and select another enabled tab
/// (automatic activation: a tab's content is ready as soon as it is selected).
fn move_between_tabs(ev: leptos::ev::KeyboardEvent) {
    use wasm_bindgen::JsCast;
    let key = ev.key();
    if !matches!(key.as_str(), "ArrowRight" | "ArrowLeft" | "Home" | "End") {
        return;
    }
    let Some(list) = ev
        .current_target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
    else {
        return;
    };
    let mut tabs = Vec::new();
    let mut child = list.first_element_child();
    while let Some(tab) = child {
        child = tab.next_element_sibling();
        if tab.get_attribute("role").as_deref() == Some("tab") && !tab.has_attribute("disabled") {
            tabs.push(tab);
        }
    }
    let focused = document().active_element();
    let current = tabs
        .iter()
        .position(|tab| Some(tab) == focused.as_ref())
        .unwrap_or(0);
    let last = tabs.len().saturating_sub(1);
    let target = match key.as_str() {
        "ArrowRight" if current == last => 0,
        "ArrowRight" => current + 1,
        "ArrowLeft" if current == 0 => last,
        "ArrowLeft" => current - 1,
        "Home" => 0,
        _ => last,
    };
    if let Some(tab) = tabs
        .get(target)
        .and_then(|t| t.dyn_ref::<web_sys::HtmlElement>())
    {
        ev.prevent_default();
        let _ = tab.focus();
        tab.click();
    }
}

#[component]
fn CompareTabButton() -> impl IntoView {
    let state = expect_context::<AppState>();
    let selected = move || state.shown_view.get() == View::Compare;
    view! {
        <button
            type="button"
            class="tab"
            role="tab"
            id="tab-compare"
            aria-controls="view-panel"
            aria-selected=move || if selected() { "true" } else { "false" }
            tabindex=move || tab_stop(selected())
            on:click=move |_| state.view.set(View::Compare)
        >
            "Compare"
        </button>
    }
}

/// The analysis summary in one sentence for screen readers, announced (politely)
/// whenever a knob or the input changes it. Counts are the core's.
#[component]
fn AnalysisStatus() -> impl IntoView {
    let state = expect_context::<AppState>();
    let sentence = Memo::new(move |_| {
        state.analysis.with(|analysis| {
            let Some(analysis) = analysis else {
                return String::new();
            };
            let all = &analysis.summary.all;
            let levels = all
                .levels
                .iter()
                .map(|(level, n)| format!("{} {n}", level.as_str()))
                .collect::<Vec<_>>()
                .join(", ");
            format!(
                "{} analysed: {levels}; {} differ from the recorded level.",
                format::count(all.traces, "trace", "traces"),
                all.level_differs
            )
        })
    });
    view! {
        <p id="analysis-status" class="visually-hidden" role="status" aria-live="polite" aria-atomic="true">
            {sentence}
        </p>
    }
}

#[component]
fn MainView() -> impl IntoView {
    let state = expect_context::<AppState>();
    let has_analysis = move || state.analysis.with(Option::is_some);
    view! {
        <div
            class="results"
            class:stale=move || state.stale.get()
            role="tabpanel"
            id="view-panel"
            aria-labelledby=move || tab_id(state.shown_view.get())
        >
            <Show
                when=has_analysis
                fallback=|| view! { <p class="empty">"Load traces to see an analysis."</p> }
            >
                {move || match state.shown_view.get() {
                    View::Trace(index) => view! { <TraceView index=index/> }.into_any(),
                    View::Golden => lazy::lazy_view!(lazy::views::golden_tab()),
                    View::Compare => {
                        let link = expect_context::<state::compare_link::CompareLink>();
                        lazy::lazy_view!(lazy::views::compare_tab(link))
                    }
                    _ => view! { <BatchView/> }.into_any(),
                }}
            </Show>
        </div>
    }
}

#[component]
fn BatchView() -> impl IntoView {
    view! {
        <div class="batch-view">
            <Warnings/>
            <BaselineComparison/>
            <Distribution/>
            <div class="batch-grid">
                <SweepPanel/>
                <Transitions/>
            </div>
            <components::floor_sweep::BatchFloorSection panel=|| lazy::lazy_view!(lazy::views::batch_floors())/>
            <TraceList/>
        </div>
    }
}

/// Downloads of what is on screen: the CLI's JSON and the trace list as CSV.
#[component]
fn Downloads() -> impl IntoView {
    let state = expect_context::<AppState>();
    let golden = expect_context::<state::golden::GoldenState>();
    let download_json = move |_| {
        let Some(analysis) = state.analysis.get_untracked() else {
            return;
        };
        deferred::compute::with_analysis_json(analysis, move |json| {
            let result = json.and_then(|json| {
                browser::download("ragtrace-analysis.json", "application/json", &json)
            });
            if let Err(error) = result {
                state
                    .notice
                    .set(Some(format!("The download failed: {error}")));
            }
        });
    };
    let download_csv = move |_| {
        let Some(analysis) = state.analysis.get_untracked() else {
            return;
        };
        let csv = components::trace_list::csv(&analysis);
        if let Err(error) = browser::download("ragtrace-traces.csv", "text/csv", &csv) {
            state
                .notice
                .set(Some(format!("The download failed: {error}")));
        }
    };
    view! {
        <div class="header-actions">
            <button type="button" id="download-json" on:click=download_json>
                "Download analysis (JSON)"
            </button>
            <button type="button" id="download-csv" on:click=download_csv>
                "Download trace list (CSV)"
            </button>
            <button
                type="button"
                class="quiet"
                title="Forget the input, cases and settings this browser remembers, and return to the opening sample"
                on:click=move |_| persist::forget(state, golden)
            >
                "Clear saved input"
            </button>
        </div>
    }
}

/// Mounts the app on `<body>`; panics are shown on the page, not only in the console.
pub fn mount() {
    browser::install_panic_hook();
    leptos::mount::mount_to_body(App);
}
