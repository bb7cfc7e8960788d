//! The knobs: every configuration key of the contract, bound to the user's
//! [`Settings`]. Each change re-runs the analysis of every loaded trace (the
//! analysis memo in `state`), never the parse.
//!
//! The panel walks the core's [`SettingKey::ALL`] and picks a control by the key's kind, so
//! a new setting gets a knob without an edit here unless it needs a control of its own.

use crate::components::baseline::PinControls;
use crate::state::AppState;
use leptos::prelude::*;
use ragtrace_core::{distance_as_score_text, quality_floor_as_score_text};
use ragtrace_core::{Config, HybridQuality, ScoreKind, Settings};
use ragtrace_core::{SettingBounds, SettingKey, SettingKind, SettingValue};

/// The three thresholds, best level first; they must stay in this order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Threshold {
    Precise,
    HighlyRelevant,
    Reference,
}

impl Threshold {
    fn of(key: SettingKey) -> Option<Threshold> {
        match key {
            SettingKey::PreciseThreshold => Some(Threshold::Precise),
            SettingKey::HighlyRelevantThreshold => Some(Threshold::HighlyRelevant),
            SettingKey::ReferenceThreshold => Some(Threshold::Reference),
            _ => None,
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

fn is_set(settings: &Settings, key: SettingKey) -> bool {
    settings.value(key).is_some()
}

/// A slider's (min, max, step) for a number within `bounds`.
fn slider_range(bounds: Option<SettingBounds>) -> (f64, f64, f64) {
    match bounds {
        Some(SettingBounds::Unit) => (0.0, 1.0, 0.01),
        _ => (0.05, 2.0, 0.01),
    }
}

fn number_of(config: &Config, key: SettingKey) -> f64 {
    match config.value(key) {
        Some(SettingValue::Number(v)) => v,
        _ => 0.0,
    }
}

fn count_of(config: &Config, key: SettingKey) -> usize {
    match config.value(key) {
        Some(SettingValue::Count(v)) => v,
        _ => 1,
    }
}

fn key_id(key: SettingKey) -> String {
    format!("knob-{}", key.name())
}

#[component]
pub(crate) fn Knobs() -> impl IntoView {
    let state = expect_context::<AppState>();
    // What the knobs show: the core's configuration for the current settings, or
    // the last valid one while the settings are invalid.
    let shown = Memo::new(move |previous: Option<&Config>| {
        match state.settings.with(Config::from_settings) {
            Ok(config) => config,
            Err(_) => previous.copied().unwrap_or_default(),
        }
    });
    let knob = move |key: SettingKey| match key.kind() {
        SettingKind::Number => {
            let (min, max, step) = slider_range(key.bounds());
            let value = Signal::derive(move || number_of(&shown.get(), key));
            let on_set = Callback::new(move |v: f64| {
                let current = shown.get_untracked();
                state.settings.update(|s| match Threshold::of(key) {
                    Some(which) => set_threshold(s, &current, which, v),
                    None => {
                        s.put(key, SettingValue::Number(v));
                    }
                });
            });
            let meaning = meaning_of(key, shown);
            view! {
                <SliderKnob key=key min=min max=max step=step value=value on_set=on_set/>
                {meaning}
            }
            .into_any()
        }
        SettingKind::Count => {
            let value = Signal::derive(move || count_of(&shown.get(), key));
            let on_set = Callback::new(move |v: usize| {
                state.settings.update(|s| {
                    s.put(key, SettingValue::Count(v));
                })
            });
            view! { <StepperKnob key=key value=value on_set=on_set/> }.into_any()
        }
        SettingKind::HybridQuality => view! { <HybridQualityKnob shown=shown/> }.into_any(),
        SettingKind::ScoreKind => view! { <ScoreKindKnob shown=shown/> }.into_any(),
        SettingKind::Switch => view! { <TraceOptionsSwitch key=key/> }.into_any(),
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
            {SettingKey::ALL.iter().map(|&key| knob(key)).collect_view()}
            <PinControls/>
        </section>
    }
}

/// What a number knob's value means, under its slider: `maxL2Distance` and `minQuality`
/// in the declared score kind ("1.00 = cosine similarity 0.50", "0.40 = cosine
/// similarity >= 0.82"), both converted by the core; `relativeQuality` as the share of
/// each trace's best quality it asks for (its score follows the best hit, so no one
/// score can be named). `None` for the other knobs.
fn meaning_of(key: SettingKey, shown: Memo<Config>) -> Option<AnyView> {
    let text: fn(&Config) -> Option<String> = match key {
        SettingKey::MaxL2Distance => |config| {
            distance_as_score_text(config.score_kind, config.max_l2_distance)
                .map(|text| format!("{:.2} = {text}", config.max_l2_distance))
        },
        SettingKey::MinQuality => |config| {
            quality_floor_as_score_text(
                config.score_kind,
                config.min_quality,
                config.max_l2_distance,
            )
            .map(|text| format!("{:.2} = {text}", config.min_quality))
        },
        SettingKey::RelativeQuality => |config| {
            (config.relative_quality > 0.0).then(|| {
                format!(
                    "{:.2} x each trace's best quality: a candidate below it is cut",
                    config.relative_quality
                )
            })
        },
        _ => return None,
    };
    let id = format!("{}-meaning", key_id(key));
    Some(view! { <p class="hint knob-hint" id=id>{move || shown.with(text)}</p> }.into_any())
}

/// A slider with a numeric entry beside it. The slider applies while dragging;
/// the entry applies on Enter or when it loses focus, so half-typed numbers are not applied.
#[component]
fn SliderKnob(
    key: SettingKey,
    min: f64,
    max: f64,
    step: f64,
    #[prop(into)] value: Signal<f64>,
    on_set: Callback<f64>,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    let label = key.name();
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
    key: SettingKey,
    #[prop(into)] value: Signal<usize>,
    on_set: Callback<usize>,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    let label = key.name();
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

/// The switch "use each trace's recorded options".
#[component]
fn TraceOptionsSwitch(key: SettingKey) -> impl IntoView {
    let state = expect_context::<AppState>();
    view! {
        <label class="switch">
            <input
                type="checkbox"
                role="switch"
                id=key_id(key)
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
    }
}

/// A choice's label and tooltip.
fn describe(mode: HybridQuality) -> (&'static str, &'static str) {
    match mode {
        HybridQuality::Rank => ("rank", "The service's behaviour: (n - r + 1) / n"),
        HybridQuality::DenseWhenPresent => (
            "dense when present",
            "What-if: the dense formula on denseDistance when a hit carries one",
        ),
        HybridQuality::MaxRankDense => (
            "max(rank, dense)",
            "What-if: the larger of rank and dense quality",
        ),
    }
}

/// A segmented control (radio group) for `hybridQuality`.
#[component]
fn HybridQualityKnob(shown: Memo<Config>) -> impl IntoView {
    let state = expect_context::<AppState>();
    let overridden = move || {
        state
            .settings
            .with(|s| is_set(s, SettingKey::HybridQuality))
    };
    view! {
        <fieldset class="knob segmented" class:overridden=overridden>
            <legend>"hybridQuality"</legend>
            <div class="segments">
                {HybridQuality::ALL
                    .into_iter()
                    .map(|mode| {
                        let (text, title) = describe(mode);
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

/// What a dense score is: seven kinds, too many for segments, so a select.
#[component]
fn ScoreKindKnob(shown: Memo<Config>) -> impl IntoView {
    let state = expect_context::<AppState>();
    let id = key_id(SettingKey::ScoreKind);
    let overridden = move || state.settings.with(|s| is_set(s, SettingKey::ScoreKind));
    view! {
        <div class="knob select-knob" class:overridden=overridden>
            <label for=id.clone()>"scoreKind"</label>
            <select
                id=id
                on:change=move |ev| {
                    if let Some(kind) = ScoreKind::parse(&event_target_value(&ev)) {
                        state.settings.update(|s| s.score_kind = Some(kind));
                    }
                }
            >
                {ScoreKind::ALL
                    .into_iter()
                    .map(|kind| {
                        view! {
                            <option
                                value=kind.as_str()
                                prop:selected=move || shown.get().score_kind == kind
                            >
                                {kind.as_str()}
                            </option>
                        }
                    })
                    .collect_view()}
            </select>
        </div>
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
