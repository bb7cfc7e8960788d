//! The Golden tab's Calibration panel: do the levels and the
//! low-quality gate agree with the golden outcomes, and which settings would make
//! them agree. Every figure comes from `ragtrace_core::calibration`: the cases are
//! linked to the traces once per batch and cases file (`link`), and each knob move
//! calibrates from those links (`calibrate_linked`, one pass and one sort).

use crate::format::{count, number, optional_number};
use crate::state::golden::GoldenState;
use crate::state::{AppState, Shared};
use leptos::prelude::*;
use ragtrace_core::CaseSet;
use ragtrace_core::ParsedBatch;
use ragtrace_core::{
    calibrate, calibrate_linked, calibration_links, top_quality_histogram, Calibration, CaseLinks,
    CurveStatus, OutcomeCounts, RocPoint, SettingChange, ThresholdPoint, TopQualityHistogram,
};

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
        let Some(Ok(cases)) = golden.cases().get() else {
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
        let links = Shared::new(calibration_links(&cases, &analysis));
        Some((batch, cases, links))
    });
    let current = Memo::new(move |_| {
        let (_, cases, links) = links.get()?;
        let report = golden.report().get()?;
        state.analysis.with(|analysis| {
            let analysis = analysis.as_ref()?;
            Some(Shared::new(calibrate_linked(
                &links, &cases, &report, analysis,
            )))
        })
    });
    let baseline = Memo::new(move |_| {
        let Some(Ok(cases)) = golden.cases().get() else {
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
            {move || current.get().map(|c| (notes(&c), level_table(&c)))}
            <div class="grid-2">
                <RocFigure memos=m/>
                <HistogramFigure memos=m/>
            </div>
            // One closure for the tables: fewer reactive nodes is less wasm.
            {move || {
                let c = current.get()?;
                let side = m.baseline.get().map(|pinned| baseline_table(&pinned, &c));
                Some((gate_table(&c), suggestions(state, &c), side))
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

/// A table of text: one header row, then rows named by `data-row` whose first
/// cell is a row header. One shape for every table of the panel keeps the wasm small.
fn table(
    id: &'static str,
    caption: &'static str,
    head: &'static [&'static str],
    rows: Vec<(String, Vec<String>)>,
) -> impl IntoView {
    let rows = rows
        .into_iter()
        .map(|(name, cells)| {
            let key = name.clone();
            view! {
                <tr data-row=key>
                    <th scope="row">{name}</th>
                    {cells.into_iter().map(|c| view! { <td>{c}</td> }).collect_view()}
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="scroll-x" tabindex="0">
            <table class="counts" id=id>
                <caption>{caption}</caption>
                <thead>
                    <tr>{head.iter().map(|h| view! { <th scope="col">{*h}</th> }).collect_view()}</tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}

/// strong, medium, weak, miss, n.
fn outcome_cells(counts: &OutcomeCounts, into: &mut Vec<String>) {
    into.extend(
        [
            counts.strong,
            counts.medium,
            counts.weak,
            counts.miss,
            counts.n,
        ]
        .map(|v| v.to_string()),
    );
}

fn level_table(c: &Calibration) -> impl IntoView {
    let table_rows = &c.levels;
    let mut rows: Vec<(String, Vec<String>)> = table_rows
        .rows
        .iter()
        .map(|row| {
            let mut cells = Vec::with_capacity(10);
            outcome_cells(&row.recomputed, &mut cells);
            outcome_cells(&row.recorded, &mut cells);
            (row.level.as_str().to_owned(), cells)
        })
        .collect();
    let mut unknown = vec![String::new(); 5];
    outcome_cells(&table_rows.recorded_unknown, &mut unknown);
    rows.push(("no recorded level".to_owned(), unknown));
    view! {
        {table(
            "calibration-levels",
            "Level vs golden outcome: by recomputed level, then by recorded level",
            &[
                "level", "strong", "medium", "weak", "miss", "n",
                "recorded: strong", "medium", "weak", "miss", "n",
            ],
            rows,
        )}
        <p class="hint" id="calibration-discordant">
            {format!(
                "Discordant pairs (a higher level with a worse outcome): {} recomputed, {} recorded.",
                table_rows.discordant_pairs,
                table_rows.recorded_discordant_pairs,
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
    let rows = [&c.gate.all, &c.gate.dense, &c.gate.hybrid]
        .iter()
        .map(|g| {
            let at = if g.status == CurveStatus::Ok {
                point_text(&g.current)
            } else {
                String::new()
            };
            let cells = vec![
                g.n.to_string(),
                g.positives.to_string(),
                g.negatives.to_string(),
                optional_number(g.auc),
                at,
                g.message.clone().unwrap_or_default(),
            ];
            (g.scope.to_owned(), cells)
        })
        .collect();
    table(
        "calibration-gate",
        "The gate as a classifier of not-found cases",
        &[
            "scope",
            "n",
            "not found",
            "found",
            "AUC",
            "at referenceThreshold",
            "note",
        ],
        rows,
    )
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

/// A row of the side-by-side: its label and how to read it off a calibration.
type Figure = (&'static str, fn(&Calibration) -> String);

/// The same figures under the pinned baseline, beside the current ones.
fn baseline_table(pinned: &Calibration, now: &Calibration) -> impl IntoView {
    let figures: [Figure; 9] = [
        ("n", |c| c.linked.to_string()),
        ("referenceThreshold", |c| {
            number(c.config.reference_threshold)
        }),
        ("maxL2Distance", |c| number(c.config.max_l2_distance)),
        ("AUC", |c| optional_number(c.gate.all.auc)),
        ("recall", |c| optional_number(c.gate.all.current.recall)),
        ("false-positive rate", |c| {
            optional_number(c.gate.all.current.false_positive_rate)
        }),
        ("F1", |c| optional_number(c.gate.all.current.f1)),
        ("Youden's J", |c| {
            optional_number(c.gate.all.current.youden_j)
        }),
        ("discordant pairs", |c| {
            c.levels.discordant_pairs.to_string()
        }),
    ];
    let rows = figures
        .iter()
        .map(|(label, f)| ((*label).to_owned(), vec![f(pinned), f(now)]))
        .collect();
    table(
        "calibration-baseline",
        "Baseline vs current (all linked cases, gate at each one's referenceThreshold)",
        &["", "baseline", "current"],
        rows,
    )
}

fn roc_points(roc: &[RocPoint]) -> String {
    roc.iter()
        .map(|p| format!("{},{}", p.false_positive_rate, p.true_positive_rate))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The square ROC plot's grid, ticks and axis title (the data box is x 44..244, y 12..212).
const ROC_AXES: &str = concat!(
    r#"<path class="grid" d="M44 12V212M144 12V212M244 12V212M44 12H244M44 112H244M44 212H244M44 212L244 12"/>"#,
    r#"<text x="44" y="228" text-anchor="middle">0</text><text x="144" y="228" text-anchor="middle">0.5</text>"#,
    r#"<text x="244" y="228" text-anchor="middle">1</text><text x="38" y="212" text-anchor="end">0</text>"#,
    r#"<text x="38" y="112" text-anchor="end">0.5</text><text x="38" y="16" text-anchor="end">1</text>"#,
    r#"<text x="144" y="246" text-anchor="middle" class="axis-title">found flagged (FPR)</text>"#,
);

const SCOPES: [(&str, &str); 3] = [
    ("all", "sweep-line line-all"),
    ("dense", "sweep-line line-dense"),
    ("hybrid", "sweep-line line-hybrid"),
];

const ROC_LEGEND: &str = concat!(
    r#"<span class="legend-item line-all">all</span><span class="legend-item line-dense">dense</span>"#,
    r#"<span class="legend-item line-hybrid">hybrid</span>"#,
    r#"<span class="legend-dot roc-current">referenceThreshold now</span>"#,
    r#"<span class="legend-dot roc-suggested">Youden-best</span>"#,
);

/// The ROC curves (all traces and per mode) in a 0..1 square, with the gate at the
/// current `referenceThreshold` and at the Youden-best threshold as points.
#[component]
fn RocFigure(memos: Memos) -> impl IntoView {
    let current = memos.current;
    let roc = memos.roc;
    let status = move || {
        current.with(|c| {
            let g = &c.as_ref()?.gate.all;
            Some(match g.status {
                CurveStatus::Ok => format!(
                    "AUC {} (n = {}: {} not found, {} found; trapezoid rule, ties as one diagonal step)",
                    optional_number(g.auc),
                    g.n,
                    g.positives,
                    g.negatives
                ),
                _ => g.message.clone().unwrap_or_default(),
            })
        })
    };
    // The gate now and at the Youden-best threshold, as points on the curve.
    let points = move || {
        current.with(|c| {
            let g = &c.as_ref()?.gate.all;
            let dots = [
                ("current", "roc-point roc-current", "0.03", Some(g.current)),
                ("youden", "roc-point roc-suggested", "0.025", g.best_youden),
            ];
            Some(
                dots.into_iter()
                    .filter_map(|(name, class, r, p)| {
                        let p = p?;
                        let title = point_text(&p);
                        Some(view! {
                            <circle
                                class=class
                                data-point=name
                                r=r
                                cx=p.false_positive_rate
                                cy=p.recall
                            >
                                <title>{title}</title>
                            </circle>
                        })
                    })
                    .collect_view(),
            )
        })
    };
    // Rebuilt only when a vertex moves (the memo compares the curves by value).
    let lines = move || {
        roc.with(|r| {
            SCOPES
                .iter()
                .zip(r)
                .map(|((name, class), roc)| {
                    view! {
                        <polyline
                            class=*class
                            data-line=*name
                            fill="none"
                            points=roc_points(roc)
                            vector-effect="non-scaling-stroke"
                        ></polyline>
                    }
                })
                .collect_view()
        })
    };
    view! {
        <figure class="sweep-figure roc-figure">
            <p id="calibration-auc">{status}</p>
            <Show when=move || roc.with(|r| !r[0].is_empty())>
                <svg
                    class="sweep-plot roc-plot"
                    id="calibration-roc"
                    viewBox="0 0 260 250"
                    role="img"
                    aria-label="ROC curve of the low-quality gate: found cases flagged (horizontal) against not-found cases flagged (vertical), one vertex per threshold."
                >
                    // Constant markup (no data in it): cheaper in wasm than elements built one by one.
                    <g class="axes" inner_html=ROC_AXES></g>
                    <svg x="44" y="12" width="200" height="200" viewBox="0 0 1 1" overflow="visible">
                        <g transform="matrix(1 0 0 -1 0 1)">{lines} {points}</g>
                    </svg>
                </svg>
                <p class="legend" inner_html=ROC_LEGEND></p>
            </Show>
        </figure>
    }
}

/// The histogram's horizontal ticks (the data box is x 44..544).
const HISTOGRAM_AXIS: &str = concat!(
    r#"<text x="44" y="210" text-anchor="middle">0</text><text x="294" y="210" text-anchor="middle">0.5</text>"#,
    r#"<text x="544" y="210" text-anchor="middle">1</text>"#,
);

/// Bars from the axis at 0: up for found (negative y, SVG's y grows down), down for
/// not found, one path per class; the no-block bar sits left of 0.
fn bars(h: &TopQualityHistogram, found: bool) -> String {
    let pick = |s: &ragtrace_core::FoundSplit| if found { s.found } else { s.not_found };
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
    let plot = move || {
        let reference = current.with(|c| c.as_ref().map(|c| c.config.reference_threshold))?;
        histogram.with(|h| {
            let h = h.as_ref()?;
            // Scaled by SVG: the data box is 1 wide and as tall as the tallest bars.
            let (up, down) = (h.tallest.found.max(1), h.tallest.not_found.max(1));
            let view_box = format!("0 -{up} 1 {}", up + down);
            Some(view! {
                <text x="38" y="16" text-anchor="end">{up}</text>
                <text x="38" y="192" text-anchor="end">{down}</text>
                <svg x="44" y="12" width="500" height="180" viewBox=view_box preserveAspectRatio="none" overflow="visible">
                    <path class="bars-found" d=bars(h, true)></path>
                    <path class="bars-not-found" d=bars(h, false)></path>
                    <line class="grid" x1="-0.06" x2="1" y1="0" y2="0" vector-effect="non-scaling-stroke"></line>
                    <line
                        class="marker marker-reference"
                        data-marker="referenceThreshold"
                        x1=reference
                        x2=reference
                        y1=-(up as f64)
                        y2=down
                        vector-effect="non-scaling-stroke"
                    ></line>
                </svg>
            })
        })
    };
    view! {
        <figure class="sweep-figure histogram-figure">
            <p class="hint">
                "Linked cases by top quality: found (strong, medium) above the line, not found (weak, miss) below; left of referenceThreshold is flagged. The bar left of 0: no accepted block."
            </p>
            <svg
                class="sweep-plot"
                id="calibration-histogram"
                viewBox="0 0 560 220"
                role="img"
                aria-label="Histogram of top quality, found cases up and not-found cases down, with the reference threshold."
            >
                <g class="axes" inner_html=HISTOGRAM_AXIS></g>
                <g class="axes">{plot}</g>
            </svg>
        </figure>
    }
}
