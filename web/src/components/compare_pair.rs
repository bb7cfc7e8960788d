//! The Compare tab's pair table (virtualised like the trace list, `virtual_rows`) and the side-by-side
//! view of one pair: the two traces' blocks with lines joining the same document.

use crate::components::dom;
use crate::components::grades::{grades, grades_table, relevant_grade_of, RunOfCase};
use crate::components::sort_header::{self, ColumnSort};
use crate::components::virtual_rows::{row_window_view, RowWindow};
use crate::format::{level_class, number, optional_number};
use crate::state::compare::{visible_pairs, CompareState, PairSort};
use crate::state::golden::GoldenState;
use crate::state::Shared;
use leptos::prelude::*;
use ragtrace_core::{pair_detail, OnlyOneSide, PairComparison, PairDetail};
use ragtrace_core::{GoldenComparison, GoldenReport, Level, TraceAnalysis, METRIC_LABELS};
use web_sys::Element;

/// `f` of the pair at `index` in the current comparison: a row reads its numbers
/// through this, so a knob move updates them in place.
fn read_pair<T>(
    compare: CompareState,
    index: usize,
    f: impl FnOnce(&PairComparison) -> T,
) -> Option<T> {
    compare
        .comparison
        .with(|c| c.as_ref().and_then(|c| c.pairs.get(index)).map(f))
}

/// `PRECISE → NO_MATCH` as two badges, following the pair at `index` across knob moves.
fn levels(compare: CompareState, index: usize) -> impl IntoView {
    let level = move |side: fn(&PairComparison) -> Level| {
        move || read_pair(compare, index, |p| side(p).as_str()).unwrap_or("")
    };
    let (a, b) = (level(|p| p.level_a), level(|p| p.level_b));
    view! {
        <span class=move || level_class(a())>{a}</span>
        " → "
        <span class=move || level_class(b())>{b}</span>
    }
}

fn query_of(t: &TraceAnalysis) -> String {
    match t.trace.query.as_deref() {
        Some(query) => query.to_owned(),
        None => t.name().into_owned(),
    }
}

#[component]
pub(crate) fn PairTable() -> impl IntoView {
    let compare = expect_context::<CompareState>();
    // Compared by content: a knob that leaves the filtered, ordered list as it was
    // keeps the rows' window where it is.
    let rows = Memo::new(move |previous: Option<&Shared<Vec<usize>>>| {
        let rows = compare.comparison.with(|c| {
            c.as_ref()
                .map(|c| compare.controls.with(|ctl| visible_pairs(c, ctl)))
                .unwrap_or_default()
        });
        match previous {
            Some(previous) if **previous == rows => previous.clone(),
            _ => Shared::new(rows),
        }
    });
    let window = RowWindow::new(rows);
    let total = move || {
        compare
            .comparison
            .with(|c| c.as_ref().map_or(0, |c| c.pairs.len()))
    };
    let set = move |f: fn(&mut crate::state::compare::PairControls, bool), on: bool| {
        compare.controls.update(|c| f(c, on))
    };
    view! {
        <section class="panel compare-pairs" aria-labelledby="compare-pairs-title">
            <div class="panel-title-row">
                <h2 id="compare-pairs-title">"Queries"</h2>
                <span class="hint" id="compare-pair-count">
                    {move || [rows.with(|r| r.len()).to_string(), " of ".to_owned(), total().to_string()].concat()}
                </span>
            </div>
            <div class="filters">
                <label class="check">
                    <input
                        id="compare-regressions"
                        type="checkbox"
                        prop:checked=move || compare.controls.with(|c| c.regressions_only)
                        on:change=move |ev| set(|c, on| c.regressions_only = on, event_target_checked(&ev))
                    />
                    "regressions only (level worse in B)"
                </label>
                <label class="check">
                    <input
                        id="compare-lost"
                        type="checkbox"
                        prop:checked=move || compare.controls.with(|c| c.lost_only)
                        on:change=move |ev| set(|c, on| c.lost_only = on, event_target_checked(&ev))
                    />
                    "B lost all of A's documents"
                </label>
            </div>
            <div class="vtable ptable" role="table" aria-label="Pairs">
                <div role="rowgroup" class="vtable-head">
                    <div role="row" class="trow head">
                        {sort_header(compare, PairSort::Order, "#")}
                        <div role="columnheader" class="tcell">"query"</div>
                        <div role="columnheader" class="tcell">"modes"</div>
                        {sort_header(compare, PairSort::LevelChange, "level A → B")}
                        {sort_header(compare, PairSort::QualityChange, "top quality A → B")}
                        {sort_header(compare, PairSort::Overlap, "overlap@k")}
                        {sort_header(compare, PairSort::Rbo, "RBO")}
                        <div role="columnheader" class="tcell">"τ-b"</div>
                        <div role="columnheader" class="tcell">"notes"</div>
                    </div>
                </div>
                <div
                    class="vtable-viewport"
                    role="rowgroup"
                    tabindex="0"
                    aria-label="Pair rows, scrollable"
                    on:scroll=move |ev| window.scrolled_to(&event_target(&ev))
                >
                    {row_window_view(window, move || {
                                // The rows follow the pairing, the filters and order, and the
                                // window; a knob move that keeps those only updates cells.
                                let (first, last) = window.range();
                                let rows = rows.get();
                                compare.pairing.track();
                                let comparison = compare.comparison.get_untracked();
                                compare.runs.with_untracked(|runs| {
                                    let (Some((a, _)), Some(c), Some(slice)) =
                                        (runs, comparison, rows.get(first..last))
                                    else {
                                        return Vec::new();
                                    };
                                    slice
                                        .iter()
                                        .filter_map(|&i| {
                                            let pair = c.pairs.get(i)?;
                                            Some(pair_row(compare, i, pair, a.traces.get(pair.a)?))
                                        })
                                        .collect::<Vec<_>>()
                                })
                            })}
                </div>
            </div>
        </section>
    }
}

/// The header of a column the pair table can be sorted by; a second click reverses.
fn sort_header(compare: CompareState, sort: PairSort, label: &'static str) -> impl IntoView {
    let sorted = move || {
        compare
            .controls
            .with(|c| ColumnSort::of(c.sort == sort, c.descending))
    };
    let sort_by = move || {
        compare.controls.update(|c| {
            c.descending = c.sort == sort && !c.descending;
            c.sort = sort;
        })
    };
    sort_header::sort_header(label, sort.key(), sorted, sort_by)
}

/// One row of the pair table. Its structure (the pair's queries and modes) is fixed
/// for the pairing; the numbers a knob changes are read by each cell from the current
/// comparison, so a knob move updates text instead of rebuilding rows.
fn pair_row(
    compare: CompareState,
    index: usize,
    pair: &PairComparison,
    a: &TraceAnalysis,
) -> AnyView {
    let field = move |f: fn(&PairComparison) -> String| {
        move || read_pair(compare, index, f).unwrap_or_default()
    };
    let worsened = move || read_pair(compare, index, PairComparison::level_worsened) == Some(true);
    let quality = field(|p| {
        [
            optional_number(p.top_quality_a),
            " → ".to_owned(),
            optional_number(p.top_quality_b),
        ]
        .concat()
    });
    let notes = field(|p| {
        [
            p.b_kept_none.then_some("B lost A's docs"),
            p.config_differs.then_some("settings differ"),
        ]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" · ")
    });
    view! {
        <div
            role="row"
            class="trow"
            class:differs=worsened
            class:open=move || compare.open_pair.get() == Some(index)
            data-pair=index.to_string()
            on:click=move |_| compare.open_pair.set(Some(index))
        >
            <div role="cell" class="tcell num">{index + 1}</div>
            <div role="cell" class="tcell name">
                <button type="button" class="link">{query_of(a)}</button>
            </div>
            <div role="cell" class="tcell">{pair.mode_pair.label()}</div>
            <div role="cell" class="tcell" data-col="levels">{levels(compare, index)}</div>
            <div role="cell" class="tcell num" data-col="quality">{quality}</div>
            <div role="cell" class="tcell num" data-col="overlap">{field(|p| optional_number(p.overlap_docs))}</div>
            <div role="cell" class="tcell num" data-col="rbo">{field(|p| optional_number(p.rbo.map(|r| r.ext)))}</div>
            <div role="cell" class="tcell num" data-col="tau">{field(|p| optional_number(p.kendall_tau_b))}</div>
            <div role="cell" class="tcell gates" data-col="notes">{notes}</div>
        </div>
    }
    .into_any()
}

/// Height of one block's line in the side-by-side drawing (SVG user units).
const LINE: f64 = 22.0;
/// The drawing's width and where the right-hand list starts.
const WIDTH: f64 = 800.0;
const RIGHT: f64 = 480.0;
const LEFT_END: f64 = 320.0;

/// The side-by-side view of the open pair.
#[component]
pub(crate) fn PairView() -> impl IntoView {
    let compare = expect_context::<CompareState>();
    let golden = expect_context::<GoldenState>();
    let build = move || {
        let index = compare.open_pair.get()?;
        let comparison = compare.comparison.get()?;
        let pair = comparison.pairs.get(index)?;
        let reports = compare.golden_reports.map(|r| r.get());
        let deltas = compare.golden.get();
        compare.runs.with(|runs| {
            let (a, b) = runs.as_ref()?;
            let detail = pair_detail(a, b, pair)?;
            let (ta, tb) = (a.traces.get(pair.a)?, b.traces.get(pair.b)?);
            let view = side_by_side(&detail, ta, tb)?;
            let case = detail.case_id.as_deref().and_then(|id| {
                let [Some(ra), Some(rb)] = &reports else {
                    return None;
                };
                case_part(golden, id, [ra, rb], [ta, tb], deltas.as_deref())
            });
            Some(dom::add(view, case))
        })
    };
    view! {
        <Show when=move || compare.open_pair.with(Option::is_some)>
            <section class="panel compare-pair" id="compare-pair" aria-label="One pair side by side">
                <button type="button" class="quiet close" on:click=move |_| compare.open_pair.set(None)>
                    "Close"
                </button>
                {dom::host("pair-detail", build)}
            </section>
        </Show>
    }
}

/// One side's blocks in processing order: text at `x`, quality and status ending at
/// `end`; the documents only this side accepted are marked.
fn side(
    t: &TraceAnalysis,
    x: f64,
    end: f64,
    only: &[OnlyOneSide],
    mark: &str,
    into: &mut Vec<Option<Element>>,
) {
    for (i, b) in t.blocks().enumerate() {
        let doc = &*b.candidate.doc_id;
        let alone = b.accepted_rank.is_some() && only.iter().any(|o| o.doc_id == doc);
        let y = y(i).to_string();
        let label = [
            b.accepted_rank.map_or("–".to_owned(), |r| r.to_string()),
            ". ".to_owned(),
            doc.to_owned(),
        ]
        .concat();
        let fate = [
            if alone { mark } else { "" },
            "q ",
            &number(b.quality_score),
            " · ",
            b.status.as_str(),
        ]
        .concat();
        let class = [
            "pair-block status-",
            b.status.as_str(),
            if alone { " only" } else { "" },
        ]
        .concat();
        let mut g = dom::svg("g", &[("class", &class), ("data-doc", doc)]);
        for (text, at, anchor) in [(label, x, "start"), (fate, end, "end")] {
            let t = dom::svg(
                "text",
                &[("x", &at.to_string()), ("y", &y), ("text-anchor", anchor)],
            );
            if let Some(t) = &t {
                t.set_text_content(Some(&text));
            }
            g = g.map(|g| dom::add(g, t));
        }
        into.push(g);
    }
}

fn y(i: usize) -> f64 {
    (i as f64 + 1.5) * LINE
}

fn side_by_side(detail: &PairDetail, ta: &TraceAnalysis, tb: &TraceAnalysis) -> Option<Element> {
    let p = detail.numbers;
    let rows = ta.blocks().count().max(tb.blocks().count()).max(1);
    let height = ((rows as f64 + 1.0) * LINE).to_string();
    // A line from each accepted block of A to the first accepted block of the same
    // document in B.
    let first_in_b = |doc: &str| {
        tb.blocks()
            .position(|b| b.accepted_rank.is_some() && *b.candidate.doc_id == *doc)
    };
    let mut parts: Vec<Option<Element>> = Vec::new();
    for (label, x) in [("run A", 4.0), ("run B", RIGHT)] {
        let head = dom::svg(
            "text",
            &[
                ("class", "pair-head"),
                ("x", &x.to_string()),
                ("y", &(LINE * 0.8).to_string()),
            ],
        );
        if let Some(head) = &head {
            head.set_text_content(Some(label));
        }
        parts.push(head);
    }
    for (i, b) in ta
        .blocks()
        .enumerate()
        .filter(|(_, b)| b.accepted_rank.is_some())
    {
        if let Some(j) = first_in_b(&b.candidate.doc_id) {
            parts.push(dom::svg(
                "line",
                &[
                    ("class", "pair-link"),
                    ("x1", &(LEFT_END + 6.0).to_string()),
                    ("y1", &(y(i) - 5.0).to_string()),
                    ("x2", &(RIGHT - 6.0).to_string()),
                    ("y2", &(y(j) - 5.0).to_string()),
                ],
            ));
        }
    }
    side(
        ta,
        4.0,
        LEFT_END,
        &detail.only_in_a,
        "only A · ",
        &mut parts,
    );
    side(
        tb,
        RIGHT,
        WIDTH - 4.0,
        &detail.only_in_b,
        "only B · ",
        &mut parts,
    );
    let view_box = ["0 0 ", &WIDTH.to_string(), " ", &height].concat();
    let mut drawing = dom::svg(
        "svg",
        &[
            ("class", "pair-drawing"),
            ("viewBox", &view_box),
            ("role", "img"),
            (
                "aria-label",
                "Run A's blocks on the left, run B's on the right; lines join the same document",
            ),
        ],
    )?;
    for part in parts {
        drawing = dom::add(drawing, part);
    }

    let rbo = p.rbo.map_or_else(
        || "—".to_owned(),
        |r| {
            [
                number(r.ext),
                " (bounds ".to_owned(),
                number(r.min),
                "–".to_owned(),
                number(r.min + r.residual),
                ")".to_owned(),
            ]
            .concat()
        },
    );
    let facts = [
        (
            "level",
            [p.level_a.as_str(), " → ", p.level_b.as_str()].concat(),
        ),
        (
            "top quality",
            [
                optional_number(p.top_quality_a),
                " → ".to_owned(),
                optional_number(p.top_quality_b),
            ]
            .concat(),
        ),
        ("k", p.k.to_string()),
        ("overlap@k (docs)", optional_number(p.overlap_docs)),
        ("overlap@k (evidence keys)", optional_number(p.overlap_keys)),
        ("Jaccard", optional_number(p.jaccard)),
        ("RBO", rbo),
        ("Kendall τ-b", optional_number(p.kendall_tau_b)),
        (
            "only in A / only in B",
            [
                detail.only_in_a.len().to_string(),
                " / ".to_owned(),
                detail.only_in_b.len().to_string(),
            ]
            .concat(),
        ),
    ];
    let mut list = dom::el("dl", "pair-facts", "")?;
    dom::set(&list, "id", "compare-pair-facts");
    for (name, value) in facts {
        let item = dom::el("div", "", "")?;
        dom::set(&item, "data-fact", name);
        list = dom::add(
            list,
            Some(dom::add(
                dom::add(item, dom::el("dt", "", name)),
                dom::el("dd", "", &value),
            )),
        );
    }
    let title = detail
        .query
        .clone()
        .unwrap_or_else(|| detail.name_a.clone());
    let mut names = ["A: ", &detail.name_a, " · B: ", &detail.name_b].concat();
    if let Some(case) = &detail.case_id {
        names = [names.as_str(), " · case ", case].concat();
    }
    let mut out = dom::add(
        dom::add(
            dom::add(dom::el("div", "", "")?, dom::el("h2", "", &title)),
            dom::el("p", "hint", &names),
        ),
        Some(list),
    );
    if !detail.config_differences.is_empty() {
        let mut warning = dom::el(
            "div",
            "finding finding-warning",
            "The two traces ran with different settings (their own options): ",
        )?;
        dom::set(&warning, "id", "compare-pair-settings");
        for d in &detail.config_differences {
            let text = [
                d.key.as_str(),
                ": A ",
                &d.a.to_string(),
                ", B ",
                &d.b.to_string(),
                "; ",
            ]
            .concat();
            warning = dom::add(warning, dom::el("code", "", &text));
        }
        out = dom::add(out, Some(warning));
    }
    Some(dom::add(out, Some(drawing)))
}

/// The open pair's golden case: its metrics in both runs with their deltas (every
/// metric of the comparison, graded nDCG and MAP@k included) and, for a graded case,
/// its judged documents with where each run put them.
fn case_part(
    golden: GoldenState,
    case_id: &str,
    reports: [&GoldenReport; 2],
    traces: [&TraceAnalysis; 2],
    deltas: Option<&GoldenComparison>,
) -> Option<Element> {
    let mut out = dom::el("div", "compare-pair-case", "")?;
    dom::set(&out, "id", "compare-pair-case");
    out = dom::add(out, dom::el("h3", "", &["Golden case ", case_id].concat()));
    if let Some(delta) = deltas.and_then(|d| d.cases.iter().find(|c| c.case_id == case_id)) {
        let levels = [
            "level ",
            delta.level_a.as_str(),
            " → ",
            delta.level_b.as_str(),
        ]
        .concat();
        out = dom::add(out, dom::el("p", "hint", &levels));
        let rows = delta
            .metrics
            .iter()
            .zip(METRIC_LABELS)
            .zip(ragtrace_core::DELTA_METRICS)
            .map(|((v, label), key)| {
                (
                    key.to_owned(),
                    vec![
                        (label.to_owned(), "", ""),
                        (number(v.a), "", "a"),
                        (number(v.b), "", "b"),
                        (number(v.delta), "", "delta"),
                    ],
                )
            })
            .collect();
        out = dom::add(
            out,
            dom::table(
                "compare-pair-metrics",
                "counts",
                &["metric", "A", "B", "Δ (B − A)"],
                rows,
            ),
        );
    }
    let shown = reports.map(|r| r.cases.iter().position(|c| c.case_id == case_id));
    let graded = golden.cases().with_untracked(|cases| {
        let Some(Ok(cases)) = cases else {
            return None;
        };
        let [Some(i), Some(j)] = shown else {
            return None;
        };
        let (case_a, case_b) = (reports[0].cases.get(i)?, reports[1].cases.get(j)?);
        let case = cases.cases.get(i).filter(|c| c.case_id == case_id)?;
        let relevant_grade = relevant_grade_of(reports[0]);
        let runs = [(case_a, traces[0]), (case_b, traces[1])].map(|(c, t)| RunOfCase {
            ranking: &c.doc_ranking,
            k: c.k,
            trace: Some(t),
        });
        grades(case, relevant_grade, &runs)
    });
    if let Some(graded) = graded {
        out = dom::add(out, grades_table(&graded));
    }
    Some(out)
}
