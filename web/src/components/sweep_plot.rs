//! The threshold sweep (contract section 4): for each threshold t, the fraction of
//! traces whose top quality is >= t, dense and hybrid as separate lines, with the
//! current thresholds marked. The points come from the core's sweep counts.

use crate::format::number;
use crate::state::AppState;
use leptos::prelude::*;
use ragtrace_core::{Config, SweepPoint};

/// The sweep of one group of traces.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SweepLine {
    pub name: &'static str,
    pub class: &'static str,
    pub points: Vec<SweepPoint>,
}

/// Marked vertical lines: the thresholds in force.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Marker {
    pub name: &'static str,
    pub class: &'static str,
    pub at: f64,
}

#[component]
pub(crate) fn SweepPanel() -> impl IntoView {
    let state = expect_context::<AppState>();
    // From the core's per-scope sweep counts: no pass over the traces here. Compared
    // by value, so moving a threshold (which moves no top quality) redraws nothing.
    let lines = Memo::new(move |_| {
        state.analysis.with(|a| {
            let Some(a) = a.as_ref() else {
                return Vec::new();
            };
            let counts = &a.sweep_counts;
            let by_mode = &a.summary.by_mode;
            let mut lines = Vec::new();
            for (name, class, mode_counts, traces) in [
                ("dense", "line-dense", &counts.dense, by_mode.dense.traces),
                (
                    "hybrid",
                    "line-hybrid",
                    &counts.hybrid,
                    by_mode.hybrid.traces,
                ),
            ] {
                if traces > 0 {
                    lines.push(SweepLine {
                        name,
                        class,
                        points: mode_counts.points(),
                    });
                }
            }
            lines.push(SweepLine {
                name: "all",
                class: "line-all",
                points: a.sweep.clone().unwrap_or_else(|| counts.all.points()),
            });
            lines
        })
    });
    let markers = Memo::new(move |_| {
        let config: Config = state
            .analysis
            .with(|a| a.as_ref().map(|a| a.config).unwrap_or_default());
        vec![
            Marker {
                name: "preciseThreshold",
                class: "marker-precise",
                at: config.precise_threshold,
            },
            Marker {
                name: "highlyRelevantThreshold",
                class: "marker-highly",
                at: config.highly_relevant_threshold,
            },
            Marker {
                name: "referenceThreshold",
                class: "marker-reference",
                at: config.reference_threshold,
            },
        ]
    });
    view! {
        <section class="panel sweep" aria-labelledby="sweep-title">
            <h2 id="sweep-title">"Threshold sweep"</h2>
            <p class="hint">
                "Share of traces with an accepted block whose top quality is at or above each threshold."
            </p>
            <SweepPlot lines=lines markers=markers/>
        </section>
    }
}

/// Plot frame in pixels; the data are drawn in a nested 0..1 × 0..1 coordinate
/// system (SVG does the scaling, the page does no arithmetic on the values).
const LEFT: &str = "44";
const TOP: &str = "12";
const WIDTH: &str = "500";
const HEIGHT: &str = "200";

/// Ticks: (value label, pixel position along the axis).
const X_TICKS: [(&str, &str); 5] = [
    ("0", "44"),
    ("0.25", "169"),
    ("0.5", "294"),
    ("0.75", "419"),
    ("1", "544"),
];
const Y_TICKS: [(&str, &str); 3] = [("0", "212"), ("0.5", "112"), ("1", "12")];

fn points_attr(points: &[SweepPoint]) -> String {
    points
        .iter()
        .map(|p| format!("{},{}", p.threshold, p.fraction))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The axes of a 0..1 x 0..1 plot in the 560 x 250 frame: grid lines, tick labels and
/// the horizontal axis's title. The threshold sweep and the floor sweeps share them.
#[component]
pub(crate) fn PlotAxes(title: &'static str) -> impl IntoView {
    view! {
        <g class="axes">
            {X_TICKS
                .into_iter()
                .map(|(label, x)| {
                    view! {
                        <line class="grid" x1=x x2=x y1="12" y2="212"></line>
                        <text x=x y="230" text-anchor="middle">{label}</text>
                    }
                })
                .collect_view()}
            {Y_TICKS
                .into_iter()
                .map(|(label, y)| {
                    view! {
                        <line class="grid" x1="44" x2="544" y1=y y2=y></line>
                        <text x="38" y=y text-anchor="end" dominant-baseline="middle">{label}</text>
                    }
                })
                .collect_view()}
            <text x="294" y="247" text-anchor="middle" class="axis-title">{title}</text>
        </g>
    }
}

/// The plot's data area inside the axes: a 0..1 x 0..1 coordinate system (SVG does
/// the scaling) whose vertical axis is flipped, 1 at the top.
#[component]
pub(crate) fn PlotArea(children: Children) -> impl IntoView {
    view! {
        <svg
            x=LEFT
            y=TOP
            width=WIDTH
            height=HEIGHT
            viewBox="0 0 1 1"
            preserveAspectRatio="none"
            overflow="visible"
        >
            <g transform="matrix(1 0 0 -1 0 1)">{children()}</g>
        </svg>
    }
}

/// A vertical marker across the data area at `at`, with `title` as its tooltip.
pub(crate) fn marker_line(
    class: &str,
    name: &'static str,
    at: f64,
    title: String,
) -> impl IntoView {
    view! {
        <line
            class=format!("marker {class}")
            data-marker=name
            data-at=at.to_string()
            x1=at
            x2=at
            y1="0"
            y2="1"
            vector-effect="non-scaling-stroke"
        >
            <title>{title}</title>
        </line>
    }
}

#[component]
pub(crate) fn SweepPlot(lines: Memo<Vec<SweepLine>>, markers: Memo<Vec<Marker>>) -> impl IntoView {
    // Which lines and markers exist changes far less often than where they run: the
    // elements stay and a knob change rewrites only their coordinates and labels.
    let line_kinds = Memo::new(move |_| {
        lines.with(|ls| ls.iter().map(|l| (l.name, l.class)).collect::<Vec<_>>())
    });
    let table_open = RwSignal::new(false);
    view! {
        <figure class="sweep-figure">
            <svg
                class="sweep-plot"
                viewBox="0 0 560 250"
                role="img"
                aria-labelledby="sweep-desc"
                preserveAspectRatio="xMidYMid meet"
            >
                <desc id="sweep-desc">
                    "Fraction of traces (vertical, 0 to 1) whose top quality reaches each threshold (horizontal, 0 to 1), per mode, with the current thresholds as vertical lines."
                </desc>
                <PlotAxes title="threshold t"/>
                <PlotArea>
                        {move || {
                            markers
                                .get()
                                .into_iter()
                                .map(|m| {
                                    marker_line(m.class, m.name, m.at, format!("{} = {}", m.name, number(m.at)))
                                })
                                .collect_view()
                        }}
                        {move || {
                            line_kinds
                                .get()
                                .into_iter()
                                .map(|(name, class)| {
                                    let points = move || {
                                        lines.with(|ls| {
                                            ls.iter()
                                                .find(|l| l.name == name)
                                                .map(|l| points_attr(&l.points))
                                                .unwrap_or_default()
                                        })
                                    };
                                    view! {
                                        <polyline
                                            class=format!("sweep-line {class}")
                                            data-line=name
                                            fill="none"
                                            points=points
                                            vector-effect="non-scaling-stroke"
                                        >
                                            <title>{name}</title>
                                        </polyline>
                                    }
                                })
                                .collect_view()
                        }}
                </PlotArea>
            </svg>
            <figcaption class="legend">
                {move || {
                    line_kinds
                        .get()
                        .into_iter()
                        .map(|(name, class)| {
                            view! { <span class=format!("legend-item {class}")>{name}</span> }
                        })
                        .collect_view()
                }}
                {move || {
                    markers
                        .get()
                        .into_iter()
                        .map(|m| {
                            view! {
                                <span class=format!("legend-item {}", m.class)>
                                    {format!("{} {}", m.name, number(m.at))}
                                </span>
                            }
                        })
                        .collect_view()
                }}
            </figcaption>
            <details
                class="sweep-table"
                on:toggle=move |ev| {
                    let details: web_sys::Element = event_target(&ev);
                    table_open.set(details.has_attribute("open"));
                }
            >
                <summary>"Sweep as a table"</summary>
                {move || {
                    // Built only while open: a closed table would be rebuilt on every
                    // knob change for nobody.
                    if !table_open.get() {
                        return None;
                    }
                    let lines = lines.get();
                    let header = lines
                        .iter()
                        .map(|l| view! { <th scope="col">{l.name}</th> })
                        .collect_view();
                    let rows = lines
                        .first()
                        .map(|first| {
                            first
                                .points
                                .iter()
                                .enumerate()
                                .filter(|(i, _)| i % 5 == 0)
                                .map(|(i, p)| {
                                    let cells = lines
                                        .iter()
                                        .map(|l| {
                                            view! {
                                                <td class="num">
                                                    {l.points.get(i).map(|p| number(p.fraction))}
                                                </td>
                                            }
                                        })
                                        .collect_view();
                                    view! {
                                        <tr>
                                            <th scope="row">{number(p.threshold)}</th>
                                            {cells}
                                        </tr>
                                    }
                                })
                                .collect_view()
                        });
                    Some(view! {
                        <table class="counts">
                            <thead>
                                <tr>
                                    <th scope="col">"t"</th>
                                    {header}
                                </tr>
                            </thead>
                            <tbody>{rows}</tbody>
                        </table>
                    })
                }}
            </details>
        </figure>
    }
}
