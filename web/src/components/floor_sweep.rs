//! The score floors' sweep (contract section 10.2) drawn: on the Golden tab, mean
//! recall@k and mean blocks per linked trace against `minQuality` or `relativeQuality`,
//! with the floor in force and the suggested one (and a button that tries it); on the
//! Batch tab, without cases, blocks per trace and `NO_MATCH` traces over every trace.
//!
//! Every figure comes from the core (`floor_sweep_of`, `batch_floor_sweep`). A sweep
//! walks every trace once per distinct quality, longer than a frame on a large batch,
//! so it runs after the paint of the knob move that asked for it, never in its frame;
//! the chart shows the last one meanwhile, marked as pending.

use crate::components::sweep_plot::{marker_line, PlotArea, PlotAxes};
use crate::format::{count, number};
use crate::state::golden::GoldenState;
use crate::state::{AppState, Shared};
use leptos::prelude::*;
use ragtrace_core::{batch_floor_sweep, floor_sweep_of, Analysis, CaseSet};
use ragtrace_core::{BatchFloorSweep, FloorSweep, SettingKey, SettingValue};

/// A result of `compute` over the latest `input`, computed after the paint of each
/// change of it, while the caller lives: `(result, of the latest input)`, the last
/// one kept while the next is pending.
fn computed_after_paint<I, O>(
    input: Memo<Option<I>>,
    compute: fn(&I) -> O,
) -> Signal<Option<(O, bool)>>
where
    I: Clone + PartialEq + Send + Sync + 'static,
    O: Clone + Send + Sync + 'static,
{
    let made = RwSignal::new(None::<(I, O)>);
    Effect::new(move |_| {
        let Some(asked) = input.get() else {
            return;
        };
        crate::browser::after_paint(move || {
            // A newer input has replaced this one meanwhile: it has its own turn.
            if input.with_untracked(|now| now.as_ref() != Some(&asked)) {
                return;
            }
            let result = compute(&asked);
            made.set(Some((asked, result)));
        });
    });
    Signal::derive(move || {
        let current = input.with(|now| now.clone());
        made.with(|made| {
            made.as_ref()
                .map(|(of, result)| (result.clone(), current.as_ref() == Some(of)))
        })
    })
}

/// The floors a chart can move.
const FLOOR_KEYS: [SettingKey; 2] = [SettingKey::MinQuality, SettingKey::RelativeQuality];

/// A floor's value in the analysis shown.
fn floor_in_force(state: AppState, key: SettingKey) -> f64 {
    state
        .analysis
        .with(|a| match a.as_ref().and_then(|a| a.config.value(key)) {
            Some(SettingValue::Number(v)) => v,
            _ => 0.0,
        })
}

/// One drawn line: `(floor, y)` with y in [0, 1].
#[derive(Debug, Clone, PartialEq)]
struct ChartLine {
    name: &'static str,
    class: &'static str,
    label: String,
    points: Vec<(f64, f64)>,
}

/// A vertical line at a floor.
#[derive(Debug, Clone, PartialEq)]
struct ChartMarker {
    name: &'static str,
    class: &'static str,
    label: String,
    at: f64,
}

/// `values` scaled to [0, 1] by their largest (all 0 stay 0), and that largest.
fn scaled(values: impl Iterator<Item = (f64, f64)> + Clone) -> (Vec<(f64, f64)>, f64) {
    let top = values.clone().map(|(_, y)| y).fold(0.0f64, f64::max);
    let points = values
        .map(|(x, y)| (x, if top > 0.0 { y / top } else { 0.0 }))
        .collect();
    (points, top)
}

/// The floor chooser: a segmented pair of radios.
#[component]
fn FloorChoice(name: &'static str, chosen: RwSignal<SettingKey>) -> impl IntoView {
    view! {
        <fieldset class="segmented floor-choice">
            <legend>"Floor"</legend>
            <div class="segments">
                {FLOOR_KEYS
                    .into_iter()
                    .map(|key| {
                        view! {
                            <label class="segment">
                                <input
                                    type="radio"
                                    name=name
                                    value=key.name()
                                    prop:checked=move || chosen.get() == key
                                    on:change=move |_| chosen.set(key)
                                />
                                <span>{key.name()}</span>
                            </label>
                        }
                    })
                    .collect_view()}
            </div>
        </fieldset>
    }
}

/// The Golden tab's floor sweep over the linked traces and the cases.
#[component]
pub fn FloorSweepPanel() -> impl IntoView {
    let state = expect_context::<AppState>();
    let golden = expect_context::<GoldenState>();
    let input = Memo::new(move |_| -> Option<(Shared<CaseSet>, Shared<Analysis>)> {
        let Some(Ok(cases)) = golden.cases().get() else {
            return None;
        };
        Some((cases, state.analysis.get()?))
    });
    let sweep = computed_after_paint(input, |(cases, analysis)| {
        Shared::new(floor_sweep_of(cases, analysis))
    });
    let chosen = RwSignal::new(SettingKey::MinQuality);
    let points_of = |sweep: &FloorSweep, key: SettingKey| match key {
        SettingKey::RelativeQuality => sweep.relative_quality.clone(),
        _ => sweep.min_quality.clone(),
    };
    let suggested_of = |sweep: &FloorSweep, key: SettingKey| match key {
        SettingKey::RelativeQuality => sweep.suggested.relative_quality,
        _ => sweep.suggested.min_quality,
    };
    let lines = Memo::new(move |_| {
        let Some((sweep, _)) = sweep.get() else {
            return Vec::new();
        };
        let points = points_of(&sweep, chosen.get());
        let (blocks, top) = scaled(points.iter().map(|p| (p.floor, p.mean_blocks)));
        vec![
            ChartLine {
                name: "recall",
                class: "line-dense",
                label: "mean recall@k".to_owned(),
                points: points.iter().map(|p| (p.floor, p.mean_recall)).collect(),
            },
            ChartLine {
                name: "blocks",
                class: "line-hybrid",
                label: format!("blocks per linked trace (top = {})", number(top)),
                points: blocks,
            },
        ]
    });
    let markers = Memo::new(move |_| {
        let key = chosen.get();
        let current = floor_in_force(state, key);
        let mut markers = vec![ChartMarker {
            name: "current",
            class: "marker-precise",
            label: format!("{} {}", key.name(), number(current)),
            at: current,
        }];
        if let Some((sweep, _)) = sweep.get() {
            let at = suggested_of(&sweep, key);
            markers.push(ChartMarker {
                name: "suggested",
                class: "marker-reference",
                label: format!("suggested {}", number(at)),
                at,
            });
        }
        markers
    });
    let suggested = move || {
        let (sweep, _) = sweep.get()?;
        let key = chosen.get();
        let at = suggested_of(&sweep, key);
        let point = points_of(&sweep, key).into_iter().find(|p| p.floor == at)?;
        Some(view! {
            <p class="row" id="floor-sweep-suggested">
                <span>
                    {format!(
                        "Suggested {} {}: recall@k {}, {} blocks per linked trace, {} NO_MATCH.",
                        key.name(),
                        number(at),
                        number(point.mean_recall),
                        number(point.mean_blocks),
                        point.no_match,
                    )}
                </span>
                <button
                    type="button"
                    id="floor-sweep-try"
                    data-floor=at.to_string()
                    on:click=move |_| {
                        state.settings.update(|s| {
                            s.put(key, SettingValue::Number(at));
                        })
                    }
                >
                    {format!("Try {} {}", key.name(), number(at))}
                </button>
            </p>
        })
    };
    let has_cases = move || input.with(Option::is_some);
    view! {
        <Show when=has_cases>
        <section class="panel floor-sweep" id="floor-sweep" aria-labelledby="floor-sweep-title">
            <h2 id="floor-sweep-title">"Score floors"</h2>
            <p class="hint">
                "What a floor costs: mean recall@k over the cases and the blocks each linked trace keeps, at every floor from 0 to 1 (the other floor as set). The suggested floor is the highest within 0.01 of the recall@k without a floor."
            </p>
            <FloorChoice name="floor-sweep-kind" chosen=chosen/>
            <Pending of=sweep id="floor-sweep-pending"/>
            <FloorChart lines=lines markers=markers desc="Mean recall@k and blocks per linked trace (scaled to their largest) against the floor, with the floor in force and the suggested one as vertical lines."/>
            {suggested}
        </section>
        </Show>
    }
}

/// "Computing…" while the sweep shown is of older input (or none is yet).
#[component]
fn Pending<O>(of: Signal<Option<(O, bool)>>, id: &'static str) -> impl IntoView
where
    O: Clone + Send + Sync + 'static,
{
    view! {
        <Show when=move || of.with(|s| !s.as_ref().is_some_and(|(_, current)| *current))>
            <p class="hint" id=id>"Computing the sweep…"</p>
        </Show>
    }
}

/// The Batch tab's floor sweep over every trace: blocks per trace and the share of
/// traces left `NO_MATCH`, against the floor.
#[component]
pub fn BatchFloorSweepPanel() -> impl IntoView {
    let state = expect_context::<AppState>();
    let input = Memo::new(move |_| state.analysis.get());
    let sweep = computed_after_paint(input, |analysis| -> (Shared<BatchFloorSweep>, usize) {
        (
            Shared::new(batch_floor_sweep(analysis)),
            analysis.traces.len(),
        )
    });
    let chosen = RwSignal::new(SettingKey::MinQuality);
    let lines = Memo::new(move |_| {
        let Some(((sweep, traces), _)) = sweep.get() else {
            return Vec::new();
        };
        let points = match chosen.get() {
            SettingKey::RelativeQuality => &sweep.relative_quality,
            _ => &sweep.min_quality,
        };
        let (blocks, top) = scaled(points.iter().map(|p| (p.floor, p.mean_blocks)));
        let share = |n: usize| {
            if traces == 0 {
                0.0
            } else {
                n as f64 / traces as f64
            }
        };
        vec![
            ChartLine {
                name: "blocks",
                class: "line-hybrid",
                label: format!("blocks per trace (top = {})", number(top)),
                points: blocks,
            },
            ChartLine {
                name: "no-match",
                class: "line-all",
                label: format!("NO_MATCH share of {}", count(traces, "trace", "traces")),
                points: points
                    .iter()
                    .map(|p| (p.floor, share(p.no_match)))
                    .collect(),
            },
        ]
    });
    let markers = Memo::new(move |_| {
        let key = chosen.get();
        let current = floor_in_force(state, key);
        vec![ChartMarker {
            name: "current",
            class: "marker-precise",
            label: format!("{} {}", key.name(), number(current)),
            at: current,
        }]
    });
    let at_current = move || {
        let ((sweep, _), _) = sweep.get()?;
        let key = chosen.get();
        let current = floor_in_force(state, key);
        let points = match key {
            SettingKey::RelativeQuality => &sweep.relative_quality,
            _ => &sweep.min_quality,
        };
        // The sweep's point nearest the floor in force (points every 0.01).
        let point = points.iter().min_by(|a, b| {
            (a.floor - current)
                .abs()
                .total_cmp(&(b.floor - current).abs())
        })?;
        Some(format!(
            "At {} {}: {} blocks per trace, {} NO_MATCH.",
            key.name(),
            number(point.floor),
            number(point.mean_blocks),
            point.no_match
        ))
    };
    view! {
        <div class="floor-sweep" id="batch-floor-sweep">
            <p class="hint">
                "What a floor cuts over every trace of the batch, at every floor from 0 to 1 (the other floor as set)."
            </p>
            <FloorChoice name="batch-floor-kind" chosen=chosen/>
            <Pending of=sweep id="batch-floor-pending"/>
            <FloorChart lines=lines markers=markers desc="Blocks per trace (scaled to their largest) and the share of traces left NO_MATCH against the floor, with the floor in force as a vertical line."/>
            <p class="hint" id="batch-floor-at">{at_current}</p>
        </div>
    }
}

/// The Batch tab's section: closed at first, and its chart (code and sweep) loaded and
/// computed only once it is opened. `panel` shows [`BatchFloorSweepPanel`]; the shell
/// passes it so that it can be a split point of the site (`lazy::views`).
#[component]
pub fn BatchFloorSection(panel: fn() -> AnyView) -> impl IntoView {
    let opened = RwSignal::new(false);
    view! {
        <details
            class="panel batch-floors"
            id="batch-floors"
            on:toggle=move |ev| {
                let details: web_sys::Element = event_target(&ev);
                if details.has_attribute("open") {
                    opened.set(true);
                }
            }
        >
            <summary>
                <h2>"Score floors over the batch"</h2>
            </summary>
            <Show when=move || opened.get()>{panel()}</Show>
        </details>
    }
}

// The plot frame is the threshold sweep's (`PlotAxes`): the data are drawn in a nested
// 0..1 x 0..1 coordinate system (SVG does the scaling).

fn points_attr(points: &[(f64, f64)]) -> String {
    points
        .iter()
        .map(|(x, y)| format!("{x},{y}"))
        .collect::<Vec<_>>()
        .join(" ")
}

#[component]
fn FloorChart(
    lines: Memo<Vec<ChartLine>>,
    markers: Memo<Vec<ChartMarker>>,
    desc: &'static str,
) -> impl IntoView {
    view! {
        <figure class="sweep-figure">
            <svg
                class="sweep-plot floor-plot"
                viewBox="0 0 560 250"
                role="img"
                aria-label=desc
                preserveAspectRatio="xMidYMid meet"
            >
                <PlotAxes title="floor"/>
                <PlotArea>
                        {move || {
                            markers
                                .get()
                                .into_iter()
                                .map(|m| marker_line(m.class, m.name, m.at, m.label))
                                .collect_view()
                        }}
                        {move || {
                            lines
                                .get()
                                .into_iter()
                                .map(|l| {
                                    view! {
                                        <polyline
                                            class=format!("sweep-line {}", l.class)
                                            data-line=l.name
                                            fill="none"
                                            points=points_attr(&l.points)
                                            vector-effect="non-scaling-stroke"
                                        >
                                            <title>{l.label}</title>
                                        </polyline>
                                    }
                                })
                                .collect_view()
                        }}
                </PlotArea>
            </svg>
            <figcaption class="legend">
                {move || {
                    let lines = lines.get().into_iter().map(|l| (l.class, l.label));
                    let markers = markers.get().into_iter().map(|m| (m.class, m.label));
                    lines
                        .chain(markers)
                        .map(|(class, label)| {
                            view! { <span class=format!("legend-item {class}")>{label}</span> }
                        })
                        .collect_view()
                }}
            </figcaption>
        </figure>
    }
}
