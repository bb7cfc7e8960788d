//! The Golden tab's Calibration panel (issue 10): do the levels and the
//! low-quality gate agree with the golden outcomes, and which settings would make
//! them agree. Every figure comes from `ragtrace_core::calibration`: the cases are
//! linked to the traces once per batch and cases file (`link`), and each knob move
//! calibrates from those links (`calibrate_linked`, one pass and one sort).

use crate::format::{count, level_class, number, optional_number};
use crate::state::{AppState, Shared};
use leptos::prelude::*;
use ragtrace_core::calibration::{
    calibrate, calibrate_linked, link, top_quality_histogram, Calibration, CaseLinks, CurveStatus,
    OutcomeCounts, RocPoint, SettingChange, ThresholdPoint, TopQualityHistogram,
};
use ragtrace_core::golden::CaseSet;
use ragtrace_core::ParsedBatch;

use super::golden::GoldenState;

/// Bars of the top-quality histogram over [0, 1].
const HISTOGRAM_BINS: usize = 20;

/// The links and what they were made from: a knob move keeps them.
type Linked = (Shared<ParsedBatch>, Shared<CaseSet>, Shared<CaseLinks>);

/// The panel's memos, made when the panel mounts (nothing runs while the Golden tab
/// is closed).
#[derive(Clone, Copy)]
struct Memos {
    current: Memo<Option<Shared<Calibration>>>,
    baseline: Memo<Option<Shared<Calibration>>>,
    /// Each scope's ROC curve (all, dense, hybrid; empty without a curve), compared by
    /// value: moving `referenceThreshold` moves no vertex, so the polylines stay.
    roc: Memo<[Vec<RocPoint>; 3]>,
    histogram: Memo<Option<TopQualityHistogram>>,
}

fn memos(state: AppState, golden: GoldenState) -> Memos {
    let links = Memo::new(move |previous: Option<&Option<Linked>>| {
        let Some(Ok(cases)) = golden.cases.get() else {
            return None;
        };
        let batch = state.analysed_batch.get();
        if let Some(Some(kept)) = previous {
            if kept.0 == batch && kept.1 == cases {
                return Some(kept.clone());
            }
        }
        // Links depend on the batch only; any valid analysis of it will do.
        let analysis = state.computed.get().ok()?;
        let links = Shared::new(link(&cases, &analysis));
        Some((batch, cases, links))
    });
    let current = Memo::new(move |_| {
        let (_, cases, links) = links.get()?;
        let report = golden.report.get()?;
        state.analysis.with(|analysis| {
            let analysis = analysis.as_ref()?;
            Some(Shared::new(calibrate_linked(
                &links, &cases, &report, analysis,
            )))
        })
    });
    let baseline = Memo::new(move |_| {
        let Some(Ok(cases)) = golden.cases.get() else {
            return None;
        };
        let analysis = state.baseline_analysis.get()?.ok()?;
        Some(Shared::new(calibrate(&cases, &analysis)))
    });
    let roc = Memo::new(move |_| {
        current.with(|c| {
            c.as_ref().map_or_else(Default::default, |c| {
                [&c.gate.all, &c.gate.dense, &c.gate.hybrid].map(|g| g.roc.clone())
            })
        })
    });
    let histogram = Memo::new(move |_| {
        current.with(|c| {
            c.as_ref()
                .map(|c| top_quality_histogram(&c.gate.all, HISTOGRAM_BINS))
        })
    });
    Memos {
        current,
        baseline,
        roc,
        histogram,
    }
}

/// Pins the current settings as the baseline when none is pinned (so the change
/// can be seen and undone), then applies the suggestion's settings together.
fn apply_suggestion(state: AppState, changes: &[SettingChange]) {
    if state.baseline.with_untracked(Option::is_none) {
        state.baseline.set(Some(state.settings.get_untracked()));
    }
    let mut settings = state.settings.get_untracked();
    for change in changes {
        if let Err(error) = settings.set(change.key, &change.suggested.to_string()) {
            state.notice.set(Some(error.to_string()));
            return;
        }
    }
    state.settings.set(settings);
}

#[component]
pub fn CalibrationPanel() -> impl IntoView {
    let state = expect_context::<AppState>();
    let golden = expect_context::<GoldenState>();
    let m = memos(state, golden);
    let current = m.current;
    let heading = move || {
        current.with(|c| {
            c.as_ref().map_or_else(String::new, |c| {
                format!(
                    "Calibration: {} of {} linked",
                    c.linked,
                    count(c.cases, "case", "cases")
                )
            })
        })
    };
    view! {
        <section class="panel calibration" id="calibration" aria-labelledby="calibration-title">
            <h2 id="calibration-title">{heading}</h2>
            <p class="hint">
                "Does the low-quality gate flag the cases whose golden hit is weak or miss (not found), and do the levels rise with the outcomes? "
                "Flagged = top quality below referenceThreshold; a trace without an accepted block is always flagged."
            </p>
            {move || current.get().map(|c| notes(&c))}
            {move || current.get().map(|c| level_table(&c))}
            <div class="grid-2">
                <RocFigure memos=m/>
                <HistogramFigure memos=m/>
            </div>
            {move || current.get().map(|c| gate_table(&c))}
            {move || current.get().map(|c| suggestions(state, &c))}
            {move || {
                let now = current.get()?;
                m.baseline.get().map(|pinned| baseline_table(&pinned, &now))
            }}
        </section>
    }
}

/// The sentences about the whole set: no link and why, anecdotal, unlinked cases.
fn notes(c: &Calibration) -> impl IntoView {
    let unlinked = c.unlinked.reason.clone().map(|reason| {
        let first = c
            .unlinked
            .first
            .iter()
            .map(|u| match &u.query {
                Some(query) => format!("{} ({query:?})", u.case_id),
                None => u.case_id.clone(),
            })
            .collect::<Vec<_>>()
            .join(", ");
        view! { <li data-note="unlinked">{reason} ". First: " {first}</li> }
    });
    view! {
        <ul class="calibration-notes" id="calibration-notes">
            {c.notes.iter().map(|n| view! { <li>{n.clone()}</li> }).collect_view()}
            {unlinked}
        </ul>
    }
}

/// strong, medium, weak, miss, n.
fn outcome_cells(counts: &OutcomeCounts) -> impl IntoView {
    [
        counts.strong,
        counts.medium,
        counts.weak,
        counts.miss,
        counts.n,
    ]
    .map(|v| view! { <td class="num">{v}</td> })
}

fn level_table(c: &Calibration) -> impl IntoView {
    let outcomes =
        || ["strong", "medium", "weak", "miss", "n"].map(|h| view! { <th scope="col">{h}</th> });
    let rows = c
        .levels
        .rows
        .iter()
        .map(|row| {
            let name = row.level.as_str();
            view! {
                <tr data-level=name>
                    <th scope="row"><span class=level_class(name)>{name}</span></th>
                    {outcome_cells(&row.recomputed)}
                    {outcome_cells(&row.recorded)}
                </tr>
            }
        })
        .collect_view();
    let table = &c.levels;
    view! {
        <div class="scroll-x">
            <table class="counts" id="calibration-levels">
                <caption>"Level vs golden outcome"</caption>
                <thead>
                    <tr>
                        <th scope="col" rowspan="2">"level"</th>
                        <th scope="colgroup" colspan="5">"recomputed"</th>
                        <th scope="colgroup" colspan="5">"recorded"</th>
                    </tr>
                    <tr>{outcomes()} {outcomes()}</tr>
                </thead>
                <tbody>
                    {rows}
                    <tr data-level="unknown">
                        <th scope="row">"no recorded level"</th>
                        <td colspan="5"></td>
                        {outcome_cells(&table.recorded_unknown)}
                    </tr>
                </tbody>
            </table>
        </div>
        <p class="hint" id="calibration-discordant">
            {format!(
                "Discordant pairs (a higher level with a worse outcome): {} recomputed, {} recorded.",
                table.discordant_pairs,
                table.recorded_discordant_pairs,
            )}
        </p>
    }
}

/// Precision, recall, false-positive rate, F1 and J at one threshold, with its n.
fn point_text(p: &ThresholdPoint) -> String {
    format!(
        "t {}: flags {} of {} (TP {}, FP {}); recall {}, FPR {}, precision {}, F1 {}, J {}",
        number(p.threshold),
        p.flagged,
        p.n,
        p.true_positives,
        p.false_positives,
        optional_number(p.recall),
        optional_number(p.false_positive_rate),
        optional_number(p.precision),
        optional_number(p.f1),
        optional_number(p.youden_j),
    )
}

/// The gate per scope: n, classes, AUC and the confusion at the current threshold.
fn gate_table(c: &Calibration) -> impl IntoView {
    let rows = [&c.gate.all, &c.gate.dense, &c.gate.hybrid].map(|g| {
        let ok = g.status == CurveStatus::Ok;
        view! {
            <tr data-scope=g.scope>
                <th scope="row">{g.scope}</th>
                <td class="num">{g.n}</td>
                <td class="num">{g.positives}</td>
                <td class="num">{g.negatives}</td>
                <td class="num" data-col="auc">{optional_number(g.auc)}</td>
                <td data-col="current">{ok.then(|| point_text(&g.current))}</td>
                <td class="hint">{g.message.clone()}</td>
            </tr>
        }
    });
    view! {
        <div class="scroll-x">
            <table class="counts" id="calibration-gate">
                <caption>"The gate as a classifier of not-found cases"</caption>
                <thead>
                    <tr>
                        <th scope="col">"scope"</th>
                        <th scope="col">"n"</th>
                        <th scope="col">"not found"</th>
                        <th scope="col">"found"</th>
                        <th scope="col">"AUC"</th>
                        <th scope="col">"at referenceThreshold"</th>
                        <th scope="col">"note"</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}

fn suggestions(state: AppState, c: &Calibration) -> impl IntoView {
    let items = c
        .suggestions
        .iter()
        .map(|s| {
            let changes = s.settings.clone();
            let settings = s
                .settings
                .iter()
                .map(|change| {
                    view! {
                        <li data-key=change.key>
                            <code>{change.key}</code>
                            " " {number(change.current)} " → " {number(change.suggested)}
                        </li>
                    }
                })
                .collect_view();
            let figures = s.after.filter(|_| !changes.is_empty()).map(|after| {
                view! {
                    <div class="hint">"now: " {s.before.as_ref().map(point_text)}</div>
                    <div class="hint">"then: " {point_text(&after)}</div>
                }
            });
            let apply = (!changes.is_empty()).then(|| {
                view! {
                    <button
                        type="button"
                        class="apply-suggestion"
                        data-rule=s.rule
                        on:click=move |_| apply_suggestion(state, &changes)
                    >
                        "Apply suggestion"
                    </button>
                }
            });
            view! {
                <li data-rule=s.rule>
                    <strong>{s.rule}</strong>
                    {format!(" ({}, n = {}{})", s.scope, s.n, if s.anecdotal { ", anecdotal" } else { "" })}
                    <p class="suggestion-message">{s.message.clone()}</p>
                    <ul class="suggestion-settings">{settings}</ul>
                    {figures}
                    {apply}
                </li>
            }
        })
        .collect_view();
    view! {
        <h3>"Suggestions"</h3>
        <p class="hint">
            "Apply pins the current settings as the baseline first (when none is pinned): the Batch tab then shows what the suggestion changes, and the pin is the way back."
        </p>
        <ul class="calibration-suggestions" id="calibration-suggestions">{items}</ul>
    }
}

/// The same figures under the pinned baseline, beside the current ones.
fn baseline_table(pinned: &Calibration, now: &Calibration) -> impl IntoView {
    let row = |label: &'static str, f: fn(&Calibration) -> String| {
        view! {
            <tr>
                <th scope="row">{label}</th>
                <td class="num">{f(pinned)}</td>
                <td class="num">{f(now)}</td>
            </tr>
        }
    };
    view! {
        <table class="counts" id="calibration-baseline">
            <caption>"Baseline vs current (all linked cases)"</caption>
            <thead>
                <tr>
                    <th scope="col"></th>
                    <th scope="col">"baseline"</th>
                    <th scope="col">"current"</th>
                </tr>
            </thead>
            <tbody>
                {row("n", |c| c.linked.to_string())}
                {row("referenceThreshold", |c| number(c.config.reference_threshold))}
                {row("maxL2Distance", |c| number(c.config.max_l2_distance))}
                {row("AUC", |c| optional_number(c.gate.all.auc))}
                {row("recall at the threshold", |c| optional_number(c.gate.all.current.recall))}
                {row("false-positive rate", |c| optional_number(c.gate.all.current.false_positive_rate))}
                {row("F1", |c| optional_number(c.gate.all.current.f1))}
                {row("Youden's J", |c| optional_number(c.gate.all.current.youden_j))}
                {row("discordant pairs", |c| c.levels.discordant_pairs.to_string())}
            </tbody>
        </table>
    }
}

fn roc_points(roc: &[RocPoint]) -> String {
    roc.iter()
        .map(|p| format!("{},{}", p.false_positive_rate, p.true_positive_rate))
        .collect::<Vec<_>>()
        .join(" ")
}

const SCOPES: [(&str, &str); 3] = [
    ("all", "line-all"),
    ("dense", "line-dense"),
    ("hybrid", "line-hybrid"),
];

/// Axis ticks of the square ROC plot: (label, pixel position).
const ROC_TICKS: [(&str, &str, &str); 3] = [
    ("0", "44", "212"),
    ("0.5", "144", "112"),
    ("1", "244", "12"),
];

/// The ROC curves (all traces and per mode) in a 0..1 square, with the gate at the
/// current `referenceThreshold` and at the Youden-best threshold as points.
#[component]
fn RocFigure(memos: Memos) -> impl IntoView {
    let current = memos.current;
    let roc = memos.roc;
    let all = move || current.with(|c| c.as_ref().map(|c| c.gate.all.clone()));
    let point =
        move |which: fn(&ragtrace_core::calibration::GateCurve) -> Option<ThresholdPoint>,
              axis: fn(&ThresholdPoint) -> Option<f64>| {
            move || all().and_then(|g| which(&g)).and_then(|p| axis(&p))
        };
    let status = move || {
        all().map(|g| match g.status {
            CurveStatus::Ok => format!(
                "AUC {} (n = {}: {} not found, {} found; trapezoid rule, ties as one diagonal step)",
                optional_number(g.auc),
                g.n,
                g.positives,
                g.negatives
            ),
            _ => g.message.unwrap_or_default(),
        })
    };
    let has_curve = move || roc.with(|r| !r[0].is_empty());
    view! {
        <figure class="sweep-figure roc-figure">
            <p id="calibration-auc">{status}</p>
            <Show when=has_curve>
                <svg
                    class="sweep-plot roc-plot"
                    id="calibration-roc"
                    viewBox="0 0 260 250"
                    role="img"
                    aria-labelledby="roc-desc"
                >
                    <desc id="roc-desc">
                        "ROC curve of the low-quality gate: the share of found cases flagged (horizontal) against the share of not-found cases flagged (vertical), one vertex per threshold."
                    </desc>
                    <g class="axes">
                        {ROC_TICKS
                            .into_iter()
                            .map(|(label, x, y)| {
                                view! {
                                    <line class="grid" x1=x x2=x y1="12" y2="212"></line>
                                    <line class="grid" x1="44" x2="244" y1=y y2=y></line>
                                    <text x=x y="228" text-anchor="middle">{label}</text>
                                    <text x="38" y=y text-anchor="end" dominant-baseline="middle">{label}</text>
                                }
                            })
                            .collect_view()}
                        <text x="144" y="246" text-anchor="middle" class="axis-title">"found flagged (FPR)"</text>
                    </g>
                    <svg x="44" y="12" width="200" height="200" viewBox="0 0 1 1" overflow="visible">
                        <g transform="matrix(1 0 0 -1 0 1)">
                            <line class="grid" x1="0" y1="0" x2="1" y2="1" vector-effect="non-scaling-stroke"></line>
                            {SCOPES
                                .into_iter()
                                .enumerate()
                                .map(|(i, (name, class))| {
                                    view! {
                                        <polyline
                                            class=format!("sweep-line {class}")
                                            data-line=name
                                            fill="none"
                                            points=move || roc.with(|r| roc_points(&r[i]))
                                            vector-effect="non-scaling-stroke"
                                        >
                                            <title>{name}</title>
                                        </polyline>
                                    }
                                })
                                .collect_view()}
                            <circle
                                class="roc-point roc-suggested"
                                data-point="youden"
                                r="0.025"
                                cx=point(|g| g.best_youden, |p| p.false_positive_rate)
                                cy=point(|g| g.best_youden, |p| p.recall)
                            >
                                <title>"Youden-best threshold"</title>
                            </circle>
                            <circle
                                class="roc-point roc-current"
                                data-point="current"
                                r="0.03"
                                cx=point(|g| Some(g.current), |p| p.false_positive_rate)
                                cy=point(|g| Some(g.current), |p| p.recall)
                            >
                                <title>"referenceThreshold now"</title>
                            </circle>
                        </g>
                    </svg>
                </svg>
                <figcaption class="legend">
                    {SCOPES
                        .into_iter()
                        .map(|(name, class)| view! { <span class=format!("legend-item {class}")>{name}</span> })
                        .collect_view()}
                    <span class="legend-dot roc-current">"referenceThreshold now"</span>
                    <span class="legend-dot roc-suggested">"Youden-best"</span>
                </figcaption>
            </Show>
        </figure>
    }
}

/// Bars from the axis at 0: up for found (negative y, SVG's y grows down), down for
/// not found, one path per class; the no-block bar sits left of 0.
fn bars(h: &TopQualityHistogram, found: bool) -> String {
    let pick =
        |s: &ragtrace_core::calibration::FoundSplit| if found { s.found } else { s.not_found };
    let sign = if found { "-" } else { "" };
    std::iter::once((-0.06, -0.01, pick(&h.no_block)))
        .chain(h.bins.iter().map(|b| (b.from, b.to, pick(&b.cases))))
        .filter(|(_, _, n)| *n > 0)
        .map(|(from, to, n)| format!("M{from} 0V{sign}{n}H{to}V0Z"))
        .collect()
}

/// Linked cases by top quality, found above the axis and not found below, with the
/// reference threshold: what lies left of it is flagged.
#[component]
fn HistogramFigure(memos: Memos) -> impl IntoView {
    let histogram = memos.histogram;
    let current = memos.current;
    let tallest = move || histogram.with(|h| h.as_ref().map(|h| h.tallest).unwrap_or_default());
    // Scaled by SVG: the data box is 1 wide and as tall as the tallest bars.
    let view_box = move || {
        let t = tallest();
        format!(
            "0 -{} 1 {}",
            t.found.max(1),
            t.found.max(1) + t.not_found.max(1)
        )
    };
    let reference =
        move || current.with(|c| c.as_ref().map_or(0.0, |c| c.config.reference_threshold));
    view! {
        <figure class="sweep-figure histogram-figure">
            <p class="hint">
                "Linked cases by top quality: found (strong, medium) above the line, not found (weak, miss) below; left of referenceThreshold is flagged. The bar left of 0: no accepted block."
            </p>
            <svg class="sweep-plot" id="calibration-histogram" viewBox="0 0 560 220" role="img" aria-labelledby="histogram-desc">
                <desc id="histogram-desc">"Histogram of top quality, found cases up and not-found cases down, with the reference threshold."</desc>
                <g class="axes">
                    <text x="38" y="12" text-anchor="end" dominant-baseline="middle">{move || tallest().found.max(1)}</text>
                    <text x="38" y="192" text-anchor="end" dominant-baseline="middle">{move || tallest().not_found.max(1)}</text>
                    <text x="44" y="210" text-anchor="middle">"0"</text>
                    <text x="294" y="210" text-anchor="middle">"0.5"</text>
                    <text x="544" y="210" text-anchor="middle">"1"</text>
                </g>
                <svg x="44" y="12" width="500" height="180" viewBox=view_box preserveAspectRatio="none" overflow="visible">
                    <path class="bars-found" d=move || histogram.with(|h| h.as_ref().map(|h| bars(h, true)))></path>
                    <path class="bars-not-found" d=move || histogram.with(|h| h.as_ref().map(|h| bars(h, false)))></path>
                    <line class="grid" x1="-0.06" x2="1" y1="0" y2="0" vector-effect="non-scaling-stroke"></line>
                    <line
                        class="marker marker-reference"
                        data-marker="referenceThreshold"
                        x1=reference
                        x2=reference
                        y1=move || -(tallest().found.max(1) as f64)
                        y2=move || tallest().not_found.max(1)
                        vector-effect="non-scaling-stroke"
                    ></line>
                </svg>
            </svg>
        </figure>
    }
}
