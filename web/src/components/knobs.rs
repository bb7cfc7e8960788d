//! The knobs: every configuration key of the contract, bound to the user's
//! [`Settings`]. Each change re-runs the analysis of every loaded trace (the
//! analysis memo in `state`), never the parse.

use crate::components::baseline::PinControls;
use crate::state::AppState;
use leptos::prelude::*;
use ragtrace_core::config::Key;
use ragtrace_core::{Config, HybridQuality, Settings};

/// The three thresholds, best level first; they must stay in this order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Threshold {
    Precise,
    HighlyRelevant,
    Reference,
}

impl Threshold {
    fn key(self) -> Key {
        match self {
            Threshold::Precise => Key::PreciseThreshold,
            Threshold::HighlyRelevant => Key::HighlyRelevantThreshold,
            Threshold::Reference => Key::ReferenceThreshold,
        }
    }
}

/// Sets one threshold and moves the others just enough to keep
/// precise >= highly relevant >= reference, as the user drags.
fn set_threshold(settings: &mut Settings, current: &Config, which: Threshold, value: f64) {
    let (mut precise, mut highly, mut reference) = (
        current.precise_threshold,
        current.highly_relevant_threshold,
        current.reference_threshold,
    );
    match which {
        Threshold::Precise => {
            precise = value;
            highly = highly.min(precise);
            reference = reference.min(highly);
        }
        Threshold::HighlyRelevant => {
            highly = value;
            precise = precise.max(highly);
            reference = reference.min(highly);
        }
        Threshold::Reference => {
            reference = value;
            highly = highly.max(reference);
            precise = precise.max(highly);
        }
    }
    // Only keys the user moved (directly or by pushing) become overrides, so the
    // others keep coming from each trace's own options.
    if which == Threshold::Precise || precise != current.precise_threshold {
        settings.precise_threshold = Some(precise);
    }
    if which == Threshold::HighlyRelevant || highly != current.highly_relevant_threshold {
        settings.highly_relevant_threshold = Some(highly);
    }
    if which == Threshold::Reference || reference != current.reference_threshold {
        settings.reference_threshold = Some(reference);
    }
}

fn is_set(settings: &Settings, key: Key) -> bool {
    match key {
        Key::MaxL2Distance => settings.max_l2_distance.is_some(),
        Key::ReturnN => settings.return_n.is_some(),
        Key::MaxChunksPerDocument => settings.max_chunks_per_document.is_some(),
        Key::ExcerptMaxChars => settings.excerpt_max_chars.is_some(),
        Key::PreciseThreshold => settings.precise_threshold.is_some(),
        Key::HighlyRelevantThreshold => settings.highly_relevant_threshold.is_some(),
        Key::ReferenceThreshold => settings.reference_threshold.is_some(),
        Key::HybridQuality => settings.hybrid_quality.is_some(),
        Key::UseTraceOptions => !settings.use_trace_options,
    }
}

fn key_id(key: Key) -> String {
    format!("knob-{}", key.name())
}

#[component]
pub fn Knobs() -> impl IntoView {
    let state = expect_context::<AppState>();
    // What the knobs show: the core's configuration for the current settings, or
    // the last valid one while the settings are invalid.
    let shown = Memo::new(move |previous: Option<&Config>| {
        match state.settings.with(Config::from_settings) {
            Ok(config) => config,
            Err(_) => previous.copied().unwrap_or_default(),
        }
    });
    let update = move |f: &dyn Fn(&mut Settings)| state.settings.update(|s| f(s));

    let threshold = move |which: Threshold, label: &'static str| {
        let key = which.key();
        let value = Signal::derive(move || {
            let c = shown.get();
            match which {
                Threshold::Precise => c.precise_threshold,
                Threshold::HighlyRelevant => c.highly_relevant_threshold,
                Threshold::Reference => c.reference_threshold,
            }
        });
        let on_set = Callback::new(move |v: f64| {
            let current = shown.get_untracked();
            update(&|s| set_threshold(s, &current, which, v));
        });
        view! {
            <SliderKnob key=key label=label min=0.0 max=1.0 step=0.01 value=value on_set=on_set/>
        }
    };

    let max_l2 = Signal::derive(move || shown.get().max_l2_distance);
    let set_max_l2 = Callback::new(move |v: f64| update(&|s| s.max_l2_distance = Some(v)));

    let stepper = move |key: Key,
                        label: &'static str,
                        get: fn(&Config) -> usize,
                        set: fn(&mut Settings, usize)| {
        let value = Signal::derive(move || get(&shown.get()));
        let on_set = Callback::new(move |v: usize| update(&|s| set(s, v)));
        view! { <StepperKnob key=key label=label value=value on_set=on_set/> }
    };

    view! {
        <section class="panel knobs" aria-labelledby="knobs-title">
            <div class="panel-title-row">
                <h2 id="knobs-title">"Settings"</h2>
                <button
                    type="button"
                    class="quiet"
                    on:click=move |_| state.settings.set(Settings::default())
                >
                    "Reset to defaults"
                </button>
            </div>
            <SliderKnob
                key=Key::MaxL2Distance
                label="maxL2Distance"
                min=0.05
                max=2.0
                step=0.01
                value=max_l2
                on_set=set_max_l2
            />
            {threshold(Threshold::Precise, "preciseThreshold")}
            {threshold(Threshold::HighlyRelevant, "highlyRelevantThreshold")}
            {threshold(Threshold::Reference, "referenceThreshold")}
            {stepper(Key::ReturnN, "returnN", |c| c.return_n, |s, v| s.return_n = Some(v))}
            {stepper(
                Key::MaxChunksPerDocument,
                "maxChunksPerDocument",
                |c| c.max_chunks_per_document,
                |s, v| s.max_chunks_per_document = Some(v),
            )}
            {stepper(
                Key::ExcerptMaxChars,
                "excerptMaxChars",
                |c| c.excerpt_max_chars,
                |s, v| s.excerpt_max_chars = Some(v),
            )}
            <HybridQualityKnob shown=shown/>
            <label class="switch">
                <input
                    type="checkbox"
                    role="switch"
                    id=key_id(Key::UseTraceOptions)
                    prop:checked=move || state.settings.with(|s| s.use_trace_options)
                    on:change=move |ev| {
                        let on = event_target_checked(&ev);
                        state.settings.update(|s| s.use_trace_options = on);
                    }
                />
                <span>"Use each trace's recorded options"</span>
            </label>
            <p class="hint">
                "When on, a trace's own " <code>"options"</code>
                " apply under the settings you change here."
            </p>
            <PinControls/>
        </section>
    }
}

/// A slider with a numeric entry beside it. The slider applies while dragging;
/// the entry applies on Enter or when it loses focus, so half-typed numbers are not applied.
#[component]
fn SliderKnob(
    key: Key,
    label: &'static str,
    min: f64,
    max: f64,
    step: f64,
    #[prop(into)] value: Signal<f64>,
    on_set: Callback<f64>,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    let id = key_id(key);
    let entry_id = format!("{id}-entry");
    let overridden = move || state.settings.with(|s| is_set(s, key));
    view! {
        <div class="knob slider-knob" class:overridden=overridden>
            <label for=id.clone()>{label}</label>
            <div class="knob-controls">
                <input
                    id=id
                    type="range"
                    min=min
                    max=max
                    step=step
                    prop:value=move || value.get().to_string()
                    on:input=move |ev| {
                        if let Ok(v) = event_target_value(&ev).parse::<f64>() {
                            on_set.run(v);
                        }
                    }
                />
                <input
                    id=entry_id
                    class="number"
                    type="number"
                    step=step
                    aria-label=format!("{label} value")
                    prop:value=move || value.get().to_string()
                    on:change=move |ev| {
                        if let Ok(v) = event_target_value(&ev).trim().parse::<f64>() {
                            on_set.run(v);
                        }
                    }
                />
            </div>
        </div>
    }
}

/// An integer >= 1 with − and + buttons and a numeric entry.
#[component]
fn StepperKnob(
    key: Key,
    label: &'static str,
    #[prop(into)] value: Signal<usize>,
    on_set: Callback<usize>,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    let id = key_id(key);
    let overridden = move || state.settings.with(|s| is_set(s, key));
    view! {
        <div class="knob stepper-knob" class:overridden=overridden>
            <label for=id.clone()>{label}</label>
            <div class="knob-controls stepper">
                <button
                    type="button"
                    aria-label=format!("Decrease {label}")
                    disabled=move || { value.get() <= 1 }
                    on:click=move |_| on_set.run(value.get_untracked().saturating_sub(1).max(1))
                >
                    "−"
                </button>
                <input
                    id=id
                    class="number"
                    type="number"
                    min="1"
                    step="1"
                    prop:value=move || value.get().to_string()
                    on:change=move |ev| {
                        if let Ok(v) = event_target_value(&ev).trim().parse::<usize>() {
                            if v >= 1 {
                                on_set.run(v);
                            }
                        }
                    }
                />
                <button
                    type="button"
                    aria-label=format!("Increase {label}")
                    on:click=move |_| on_set.run(value.get_untracked().saturating_add(1))
                >
                    "+"
                </button>
            </div>
        </div>
    }
}

/// A segmented control (radio group) for `hybridQuality`.
#[component]
fn HybridQualityKnob(shown: Memo<Config>) -> impl IntoView {
    let state = expect_context::<AppState>();
    let options = [
        (
            HybridQuality::Rank,
            "rank",
            "The service's behaviour: (n - r + 1) / n",
        ),
        (
            HybridQuality::DenseWhenPresent,
            "dense when present",
            "What-if: the dense formula on denseDistance when a hit carries one",
        ),
        (
            HybridQuality::MaxRankDense,
            "max(rank, dense)",
            "What-if: the larger of rank and dense quality",
        ),
    ];
    let overridden = move || state.settings.with(|s| is_set(s, Key::HybridQuality));
    view! {
        <fieldset class="knob segmented" class:overridden=overridden>
            <legend>"hybridQuality"</legend>
            <div class="segments">
                {options
                    .into_iter()
                    .map(|(mode, text, title)| {
                        view! {
                            <label class="segment" title=title>
                                <input
                                    type="radio"
                                    name="hybridQuality"
                                    value=mode.as_str()
                                    prop:checked=move || shown.get().hybrid_quality == mode
                                    on:change=move |_| {
                                        state.settings.update(|s| s.hybrid_quality = Some(mode))
                                    }
                                />
                                <span>{text}</span>
                            </label>
                        }
                    })
                    .collect_view()}
            </div>
        </fieldset>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dragging_a_threshold_pushes_the_others() {
        let current = Config::default();
        let mut s = Settings::default();
        set_threshold(&mut s, &current, Threshold::Reference, 0.8);
        assert_eq!(s.reference_threshold, Some(0.8));
        assert_eq!(s.highly_relevant_threshold, Some(0.8));
        assert_eq!(s.precise_threshold, None);
        assert!(Config::from_settings(&s).is_ok());

        let mut s = Settings::default();
        set_threshold(&mut s, &current, Threshold::Precise, 0.3);
        assert_eq!(s.highly_relevant_threshold, Some(0.3));
        assert_eq!(s.reference_threshold, Some(0.3));
        assert!(Config::from_settings(&s).is_ok());
    }
}
