//! The Golden tab: a cases file (contract section 6) evaluated against the
//! current analysis. The page computes nothing itself: the report is a memo
//! over (the cases, the analysis memo) calling `golden::evaluate_analysis`, the
//! same entry point the CLI and the JS API use, so every knob move re-evaluates.

use crate::browser;
use crate::components::calibration::CalibrationPanel;
use crate::components::error_panel::InputErrorItem;
use crate::components::finding::DiagnosticLine;
use crate::components::grades::{case_grades, Grades, GradesList};
use crate::components::why_missed::WhyMissedSection;
use crate::format::{count, number, optional_number};
use crate::samples::{generated_cases, Sample, GENERATED_CASES_SOURCE};
use crate::state::golden::{GoldenState, CASE_PAGE, PASTED_CASES_SOURCE};
use crate::state::{AppState, Origin, Shared, View};
use leptos::html;
use leptos::prelude::*;
use ragtrace_core::golden_markdown;
use ragtrace_core::{CaseReport, GoldenLevel, GoldenReport, LinkedBy};

/// The built-in cases: the contract's example cases plus one whose document is
/// found only below rank 3, so moving `returnN` visibly changes the levels.
pub const SAMPLE_GOLDEN_CASES: &str = include_str!("../../../samples/golden-cases-sample.json");
/// The source name the sample cases are reported under.
pub const SAMPLE_GOLDEN_SOURCE: &str = "golden-cases-sample.json";
const GOLDEN_LEVELS: [GoldenLevel; 4] = [
    GoldenLevel::Strong,
    GoldenLevel::Medium,
    GoldenLevel::Weak,
    GoldenLevel::Miss,
];

/// The cases file is read as UTF-8 text; only the first picked file is used.
fn read_cases_file(golden: GoldenState, state: AppState, files: web_sys::FileList) {
    let Some(file) = files.get(0) else {
        return;
    };
    crate::state::loading::read_text(state, file, move |name, text| golden.load(name, text));
}

#[component]
pub fn GoldenView() -> impl IntoView {
    let golden = expect_context::<GoldenState>();
    view! {
        <div class="golden-view">
            <GoldenInput/>
            <CasesErrors/>
            {move || {
                golden
                    .report()
                    .get()
                    .map(|report| view! { <GoldenResults report=report/> })
            }}
            <WhyMissed/>
            <crate::components::floor_sweep::FloorSweepPanel/>
            <CalibrationSection/>
        </div>
    }
}

#[component]
fn WhyMissed() -> impl IntoView {
    let golden = expect_context::<GoldenState>();
    // Outside the report's closure: the panel stays open across knob moves.
    view! {
        <Show when=move || golden.report().with(Option::is_some)>
            <WhyMissedSection/>
        </Show>
    }
}

#[component]
fn CalibrationSection() -> impl IntoView {
    let golden = expect_context::<GoldenState>();
    // Outside the report's closure: the panel keeps its links across knob moves.
    view! {
        <Show when=move || golden.report().with(Option::is_some)>
            <CalibrationPanel/>
        </Show>
    }
}

#[component]
fn GoldenInput() -> impl IntoView {
    let state = expect_context::<AppState>();
    let golden = expect_context::<GoldenState>();
    let file_input = NodeRef::<html::Input>::new();
    let on_file = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        if let Some(files) = input.files() {
            read_cases_file(golden, state, files);
        }
        input.set_value("");
    };
    let open_picker = move |_| {
        if let Some(input) = file_input.get() {
            input.click();
        }
    };
    let case_count = move || {
        golden.cases().with(|c| match c {
            Some(Ok(cases)) => Some(cases.cases.len()),
            _ => None,
        })
    };
    view! {
        <section
            class="panel golden-input"
            aria-labelledby="golden-input-title"
            on:drop=crate::components::panel_files::on_dropped(
                state,
                move |files| read_cases_file(golden, state, files),
            )
        >
            <h2 id="golden-input-title">"Golden cases"</h2>
            <label for="golden-input">
                "Paste a cases file: a JSON array of "
                <code>"{caseId, query, expectedDocIds, expectedBreadcrumbs, expectedKeywords}"</code>
                " or " <code>"{\"cases\": [...]}"</code>
                ", or a TREC qrels file (" <code>"qid iter docno grade"</code>
                "); or drop one on this panel"
            </label>
            <textarea
                id="golden-input"
                spellcheck="false"
                autocomplete="off"
                placeholder="[{\"caseId\": \"...\", \"query\": \"...\", \"expectedDocIds\": [...]}]"
                prop:value=move || golden.text.get()
                on:input=move |ev| {
                    golden.source.set(PASTED_CASES_SOURCE.to_owned());
                    golden.text.set(event_target_value(&ev));
                }
            ></textarea>
            <div class="row">
                <button type="button" on:click=open_picker>"Open cases file…"</button>
                <input
                    id="golden-file-input"
                    node_ref=file_input
                    class="visually-hidden"
                    type="file"
                    tabindex="-1"
                    aria-label="Cases file"
                    on:change=on_file
                />
                <button
                    type="button"
                    class="quiet"
                    id="golden-sample"
                    title="Cases for the Dense trace, Hybrid trace and LookupResults samples"
                    on:click=move |_| {
                        golden.load(SAMPLE_GOLDEN_SOURCE.to_owned(), SAMPLE_GOLDEN_CASES.to_owned())
                    }
                >
                    "Sample cases"
                </button>
                <button
                    type="button"
                    class="quiet"
                    id="golden-sample-with-traces"
                    title="The sample cases and the three example traces they were written for (replaces the opening sample)"
                    on:click=move |_| {
                        for sample in [Sample::DenseTrace, Sample::HybridLegacyTrace, Sample::LookupResults] {
                            state.add_sample(sample);
                        }
                        golden.load(SAMPLE_GOLDEN_SOURCE.to_owned(), SAMPLE_GOLDEN_CASES.to_owned());
                        // Loading traces returns the page to the batch view; stay here.
                        state.view.set(View::Golden);
                    }
                >
                    "…with their traces"
                </button>
                <button
                    type="button"
                    class="quiet"
                    id="golden-generated"
                    title="Cases written for the generated 500-trace batch (loaded too if it is not)"
                    on:click=move |_| {
                        let loaded = state
                            .documents
                            .with_untracked(|docs| {
                                docs.iter()
                                    .any(|d| {
                                        matches!(
                                            d.origin, Origin::Sample { sample : Sample::Generated, .. }
                                        )
                                    })
                            });
                        if !loaded {
                            state.add_sample(Sample::Generated);
                        }
                        golden.load(GENERATED_CASES_SOURCE.to_owned(), generated_cases().to_string());
                        state.view.set(View::Golden);
                    }
                >
                    "Cases for the generated batch"
                </button>
                <span class="hint" id="golden-source">
                    {move || {
                        case_count()
                            .map(|n| format!("{}: {}", golden.source.get(), count(n, "case", "cases")))
                    }}
                </span>
            </div>
        </section>
    }
}

/// A cases file that could not be read, located like any other input error.
#[component]
fn CasesErrors() -> impl IntoView {
    let golden = expect_context::<GoldenState>();
    let errors = Memo::new(move |_| {
        golden.cases().with(|c| match c {
            Some(Err(errors)) => errors.clone(),
            _ => Vec::new(),
        })
    });
    view! {
        <Show when=move || errors.with(|e| !e.is_empty())>
            <section class="panel error-panel golden-errors" role="alert" aria-labelledby="golden-errors-title">
                <h2 id="golden-errors-title">
                    {move || {
                        count(
                            errors.with(Vec::len),
                            "problem in the cases file",
                            "problems in the cases file",
                        )
                    }}
                </h2>
                <ul class="input-errors">
                    {move || {
                        errors
                            .get()
                            .into_iter()
                            .map(|error| view! { <InputErrorItem error=error/> })
                            .collect_view()
                    }}
                </ul>
            </section>
        </Show>
    }
}

fn linked_by(linked: Option<LinkedBy>) -> &'static str {
    match linked {
        Some(LinkedBy::CaseId) => "by caseId",
        Some(LinkedBy::Query) => "by query",
        None => "",
    }
}

fn download_report(state: AppState, golden: GoldenState, markdown: bool) {
    let Some(report) = golden.report_to_write(state) else {
        return;
    };
    let result = if markdown {
        browser::download("report.md", "text/markdown", &golden_markdown(&report))
    } else {
        serde_json::to_string_pretty(&report)
            .map_err(|e| e.to_string())
            .and_then(|json| browser::download("report.json", "application/json", &json))
    };
    if let Err(error) = result {
        state
            .notice
            .set(Some(format!("The download failed: {error}")));
    }
}

#[component]
fn GoldenResults(report: Shared<GoldenReport>) -> impl IntoView {
    let state = expect_context::<AppState>();
    let golden = expect_context::<GoldenState>();
    let summary = report.summary.clone();
    let levels = summary.levels;
    let metrics = [
        ("recall", "mean recall@k", summary.mean_recall),
        ("precision", "mean precision@k", summary.mean_precision),
        ("mrr", "MRR", summary.mean_reciprocal_rank),
        ("ndcg", "mean nDCG@k", summary.mean_ndcg),
        ("map", "MAP@k", summary.mean_average_precision),
    ];
    let rows = {
        let report = report.clone();
        move || {
            let shown: Vec<usize> = cases_at(&report, golden.filter.get())
                .take(golden.shown_cases.get())
                .collect();
            let grades = case_grades(state, golden, &report, &shown);
            shown
                .into_iter()
                .zip(grades)
                .filter_map(|(i, grades)| report.cases.get(i).cloned().map(|case| (case, grades)))
                .map(|(case, grades)| view! { <CaseRow case=case grades=grades/> })
                .collect_view()
        }
    };
    let matching = {
        let report = report.clone();
        move || cases_at(&report, golden.filter.get()).count()
    };
    let filter_by = move |level: Option<GoldenLevel>| {
        golden.filter.set(level);
        golden.shown_cases.set(CASE_PAGE);
    };
    let unlinked = report.unlinked_traces.clone();
    let diagnostics = report.diagnostics.clone();
    view! {
        <section class="panel golden-summary" aria-labelledby="golden-summary-title">
            <div class="panel-title-row">
                <h2 id="golden-summary-title">
                    {format!("Golden evaluation: {}", count(summary.cases, "case", "cases"))}
                </h2>
                <div class="header-actions">
                    <button
                        type="button"
                        id="golden-download-json"
                        on:click=move |_| download_report(state, golden, false)
                    >
                        "Download report.json"
                    </button>
                    <button
                        type="button"
                        id="golden-download-md"
                        on:click=move |_| download_report(state, golden, true)
                    >
                        "Download report.md"
                    </button>
                </div>
            </div>
            <div class="grid-2">
                <table class="counts" id="golden-levels">
                    <thead>
                        <tr>
                            <th scope="col">"Level"</th>
                            <th scope="col">"Cases"</th>
                        </tr>
                    </thead>
                    <tbody>
                        {GOLDEN_LEVELS
                            .into_iter()
                            .map(|level| {
                                view! {
                                    <tr data-level=level.as_str()>
                                        <th scope="row">
                                            <span class=format!("golden-level golden-{}", level.as_str())>
                                                {level.as_str()}
                                            </span>
                                        </th>
                                        <td class="count">{levels.get(level)}</td>
                                    </tr>
                                }
                            })
                            .collect_view()}
                    </tbody>
                </table>
                <table class="counts" id="golden-metrics">
                    <thead>
                        <tr>
                            <th scope="col">"Metric (over all cases)"</th>
                            <th scope="col">"Value"</th>
                        </tr>
                    </thead>
                    <tbody>
                        {metrics
                            .into_iter()
                            .map(|(key, label, value)| {
                                view! {
                                    <tr data-metric=key>
                                        <th scope="row">{label}</th>
                                        <td class="value">{number(value)}</td>
                                    </tr>
                                }
                            })
                            .collect_view()}
                    </tbody>
                </table>
            </div>
            {(!unlinked.is_empty())
                .then(|| {
                    view! {
                        <details class="golden-unlinked" id="golden-unlinked">
                            <summary id="golden-unlinked-count">
                                {count(unlinked.len(), "trace no case links to", "traces no case links to")}
                            </summary>
                            {unlinked
                                .iter()
                                .map(|name| view! { <code class="trace-name">{name.clone()}</code> " " })
                                .collect_view()}
                        </details>
                    }
                })}
            {(!diagnostics.is_empty())
                .then(|| {
                    view! {
                        <ul class="golden-diagnostics" id="golden-diagnostics">
                            {diagnostics
                                .iter()
                                .map(|d| view! { <DiagnosticLine diagnostic=d.clone()/> })
                                .collect_view()}
                        </ul>
                    }
                })}
        </section>
        <section class="panel golden-cases" aria-labelledby="golden-cases-title">
            <div class="panel-title-row">
                <h2 id="golden-cases-title">"Cases"</h2>
                <div class="segments" role="group" aria-label="Filter cases by level" id="golden-filter">
                    <button
                        type="button"
                        class="segment-button"
                        data-filter="all"
                        aria-pressed=move || golden.filter.get().is_none().to_string()
                        on:click=move |_| filter_by(None)
                    >
                        {format!("all ({})", summary.cases)}
                    </button>
                    {GOLDEN_LEVELS
                        .into_iter()
                        .map(|level| {
                            view! {
                                <button
                                    type="button"
                                    class="segment-button"
                                    data-filter=level.as_str()
                                    aria-pressed=move || (golden.filter.get() == Some(level)).to_string()
                                    on:click=move |_| filter_by(Some(level))
                                >
                                    {format!("{} ({})", level.as_str(), levels.get(level))}
                                </button>
                            }
                        })
                        .collect_view()}
                </div>
            </div>
            <div class="table-scroll">
                <table class="block-table" id="golden-case-table">
                    <thead>
                        <tr>
                            <th scope="col">"Case"</th>
                            <th scope="col">"Level"</th>
                            <th scope="col">"Trace"</th>
                            <th scope="col">"k"</th>
                            <th scope="col">"Recall"</th>
                            <th scope="col">"Precision"</th>
                            <th scope="col">"RR"</th>
                            <th scope="col">"nDCG"</th>
                            <th scope="col">"AP"</th>
                            <th scope="col">"Coverage"</th>
                            <th scope="col">"Evidence"</th>
                            <th scope="col">"Note"</th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
            {move || {
                let (shown, total) = (golden.shown_cases.get(), matching());
                (total > shown)
                    .then(|| {
                        view! {
                            <p class="golden-more">
                                <span id="golden-shown">{format!("Showing {shown} of {total} cases.")}</span>
                                " "
                                <button
                                    type="button"
                                    id="golden-more"
                                    on:click=move |_| golden.shown_cases.update(|n| *n += CASE_PAGE)
                                >
                                    {format!("Show {} more", CASE_PAGE.min(total - shown))}
                                </button>
                            </p>
                        }
                    })
            }}
        </section>
    }
}

/// The positions of the report's cases at `level` (all of them for `None`), in the
/// cases file's order.
fn cases_at(report: &GoldenReport, level: Option<GoldenLevel>) -> impl Iterator<Item = usize> + '_ {
    report
        .cases
        .iter()
        .enumerate()
        .filter(move |(_, case)| level.is_none_or(|l| case.level == l))
        .map(|(i, _)| i)
}

/// A labelled list of values (documents, breadcrumbs, keywords); nothing when empty.
fn evidence(kind: &'static str, label: &'static str, values: &[String]) -> impl IntoView {
    (!values.is_empty()).then(|| {
        let values = values.join(", ");
        view! {
            <div class="golden-evidence" data-evidence=kind>
                <span class="hint">{label} ": "</span>
                <span class="evidence-values">{values}</span>
            </div>
        }
    })
}

#[component]
fn CaseRow(case: CaseReport, grades: Option<Grades>) -> impl IntoView {
    let level = case.level.as_str();
    let trace = case.trace_name.clone().map(|name| {
        view! {
            <code class="trace-name">{name}</code>
            " "
            <span class="hint">{linked_by(case.linked_by)}</span>
        }
    });
    let decision = format!(
        "docHit {} · breadcrumbHit {} · evidenceHit {}",
        crate::format::yes_no(case.doc_hit),
        crate::format::yes_no(case.breadcrumb_hit),
        crate::format::yes_no(case.evidence_hit),
    );
    view! {
        <tr data-case-id=case.case_id.clone() data-level=level>
            <td data-col="case">
                <strong>{case.case_id.clone()}</strong>
                {case.query.clone().map(|q| view! { <div class="hint">{q}</div> })}
            </td>
            <td data-col="level">
                <span class=format!("golden-level golden-{level}")>{level}</span>
            </td>
            <td data-col="trace">
                {trace}
                {case.trace_name.is_none().then_some("no trace")}
            </td>
            <td data-col="k">{case.k}</td>
            <td data-col="recall">{number(case.recall)}</td>
            <td data-col="precision">{number(case.precision)}</td>
            <td data-col="rr">{number(case.reciprocal_rank)}</td>
            <td data-col="ndcg">{number(case.ndcg)}</td>
            <td data-col="ap">{number(case.average_precision)}</td>
            <td data-col="coverage">{optional_number(case.coverage)}</td>
            <td data-col="evidence">
                <div class="hint">{decision}</div>
                {grades.map(|grades| view! { <GradesList grades=grades/> })}
                {evidence("matched-docs", "matched docs", &case.matched_doc_ids)}
                {evidence("missing-docs", "missing docs", &case.missing_doc_ids)}
                {evidence("unexpected-docs", "unexpected docs", &case.unexpected_doc_ids)}
                {evidence("matched-breadcrumbs", "matched breadcrumbs", &case.matched_breadcrumbs)}
                {evidence("matched-keywords", "matched keywords", &case.matched_keywords)}
                {evidence("missing-keywords", "missing keywords", &case.missing_keywords)}
                {evidence("ranking", "ranking", &case.doc_ranking)}
            </td>
            <td data-col="note">
                {case.note.clone()}
                {case.notes.clone().map(|n| view! { <div class="hint">{n}</div> })}
            </td>
        </tr>
    }
}
