//! The Golden tab of the real `App`, driven as a user would. Expected values
//! come from `ragtrace_core::evaluate_analysis` on the same input: the
//! page must show what the core computes.
#![cfg(target_arch = "wasm32")]

mod common;

use common::*;
use ragtrace_core::parse_documents;
use ragtrace_core::{analyze, Settings};
use ragtrace_core::{calibrate, evaluate_analysis, parse_cases, GoldenLevel, GoldenReport};
use ragtrace_web::components::golden::{SAMPLE_GOLDEN_CASES, SAMPLE_GOLDEN_SOURCE};
use ragtrace_web::format::number;
use ragtrace_web::samples::{generated_cases, Sample, GENERATED_CASES_SOURCE};
use ragtrace_web::test_hooks::golden_evaluation_count;
use ragtrace_web::{SAMPLE_DENSE_TRACE, SAMPLE_HYBRID_LEGACY_TRACE, SAMPLE_LOOKUP_RESULTS};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const LEVELS: [GoldenLevel; 4] = [
    GoldenLevel::Strong,
    GoldenLevel::Medium,
    GoldenLevel::Weak,
    GoldenLevel::Miss,
];

/// The core's report for the three spec-example samples (in the order the test
/// loads them) and the sample cases.
fn expected(settings: &Settings) -> GoldenReport {
    let docs: Vec<(String, String)> = [
        ("dense-trace.json", SAMPLE_DENSE_TRACE),
        ("hybrid-legacy-trace.json", SAMPLE_HYBRID_LEGACY_TRACE),
        ("lookup-result.jsonl", SAMPLE_LOOKUP_RESULTS),
    ]
    .iter()
    .map(|(n, t)| (n.to_string(), t.to_string()))
    .collect();
    let analysis = analyze(&parse_documents(&docs), settings, true).unwrap();
    let cases = parse_cases(SAMPLE_GOLDEN_SOURCE, SAMPLE_GOLDEN_CASES).unwrap();
    evaluate_analysis(&cases, &analysis)
}

fn shown_level(root: &web_sys::Element, level: GoldenLevel) -> usize {
    text(
        root,
        &format!("#golden-levels tr[data-level=\"{}\"] td", level.as_str()),
    )
    .trim()
    .parse()
    .unwrap()
}

fn shown_metric(root: &web_sys::Element, key: &str) -> String {
    text(
        root,
        &format!("#golden-metrics tr[data-metric=\"{key}\"] td"),
    )
    .trim()
    .to_owned()
}

fn shown_cell(root: &web_sys::Element, case_id: &str, col: &str) -> String {
    text(
        root,
        &format!("#golden-case-table tr[data-case-id=\"{case_id}\"] td[data-col=\"{col}\"]"),
    )
}

/// Everything the summary and the case table show equals the core's report.
fn assert_shows(root: &web_sys::Element, want: &GoldenReport) {
    for level in LEVELS {
        assert_eq!(
            shown_level(root, level),
            want.summary.levels.get(level),
            "{level:?}"
        );
    }
    let s = &want.summary;
    assert_eq!(shown_metric(root, "recall"), number(s.mean_recall));
    assert_eq!(shown_metric(root, "precision"), number(s.mean_precision));
    assert_eq!(shown_metric(root, "mrr"), number(s.mean_reciprocal_rank));
    assert_eq!(shown_metric(root, "ndcg"), number(s.mean_ndcg));
    let rows = find_all(root, "#golden-case-table tbody tr");
    assert_eq!(rows.len(), want.cases.len());
    for (row, case) in rows.iter().zip(&want.cases) {
        assert_eq!(
            row.get_attribute("data-case-id").as_deref(),
            Some(&*case.case_id)
        );
        assert_eq!(
            row.get_attribute("data-level").as_deref(),
            Some(case.level.as_str())
        );
        let id = &case.case_id;
        assert_eq!(shown_cell(root, id, "k").trim(), case.k.to_string());
        assert_eq!(
            shown_cell(root, id, "precision").trim(),
            number(case.precision)
        );
        assert_eq!(shown_cell(root, id, "recall").trim(), number(case.recall));
        assert_eq!(shown_cell(root, id, "ndcg").trim(), number(case.ndcg));
        let evidence = shown_cell(root, id, "evidence");
        for doc in case.matched_doc_ids.iter().chain(&case.missing_doc_ids) {
            assert!(evidence.contains(doc.as_str()), "{id}: {evidence}");
        }
        for keyword in case.matched_keywords.iter().chain(&case.missing_keywords) {
            assert!(evidence.contains(keyword.as_str()), "{id}: {evidence}");
        }
        if let Some(trace) = &case.trace_name {
            assert!(shown_cell(root, id, "trace").contains(trace.as_str()));
        }
        if let Some(note) = &case.note {
            assert!(shown_cell(root, id, "note").contains(note.as_str()));
        }
    }
    for name in &want.unlinked_traces {
        assert!(text(root, "#golden-unlinked").contains(name.as_str()));
    }
}

/// As a user would: the three example samples, then the Golden tab's sample cases.
async fn load_examples_and_sample_cases(root: &web_sys::Element) {
    for sample in ["dense", "hybrid-legacy", "lookup"] {
        click(root, &format!("button[data-sample=\"{sample}\"]"));
        settle().await;
    }
    click(root, "#tab-golden");
    settle().await;
    click(root, "#golden-sample");
    settle().await;
}

#[wasm_bindgen_test]
async fn the_golden_tab_shows_the_core_report_and_follows_the_knobs() {
    let (root, _app) = mount_fresh();
    settle().await;
    load_examples_and_sample_cases(&root).await;

    let before = expected(&Settings::default());
    // The sample cases match the samples: not everything is a miss.
    assert!(before.summary.levels.strong > 0);
    assert!(before.summary.levels.miss > 0);
    assert!(!before.unlinked_traces.is_empty());
    assert_shows(&root, &before);
    assert!(text(&root, "#golden-source").contains("golden-cases-sample.json"));

    // returnN = 1 through the real knob: the level counts change (session-store
    // loses its document), and so do precision@k and nDCG@k.
    let settings = Settings {
        return_n: Some(1),
        ..Settings::default()
    };
    let after = expected(&settings);
    assert_ne!(
        before.summary.levels, after.summary.levels,
        "the knob must change the level counts"
    );
    assert_ne!(
        before.summary.mean_precision, after.summary.mean_precision,
        "the knob must change precision"
    );
    let miss_before = shown_level(&root, GoldenLevel::Miss);
    let precision_before = shown_metric(&root, "precision");
    let redis_before = shown_cell(&root, "redis-eviction", "precision");
    set_input(&root, "#knob-returnN", "1", "change");
    settle().await;
    assert!(root.query_selector("#golden-levels").unwrap().is_some());
    assert_ne!(shown_metric(&root, "precision"), precision_before);
    assert_ne!(shown_level(&root, GoldenLevel::Miss), miss_before);
    assert_ne!(
        shown_cell(&root, "redis-eviction", "precision"),
        redis_before
    );
    assert_shows(&root, &after);

    // The level filter narrows the table to what the core put at that level.
    click(&root, "#golden-filter [data-filter=\"miss\"]");
    settle().await;
    let rows = find_all(&root, "#golden-case-table tbody tr");
    assert_eq!(rows.len(), after.summary.levels.miss);
    assert!(rows
        .iter()
        .all(|r| r.get_attribute("data-level").as_deref() == Some("miss")));
    click(&root, "#golden-filter [data-filter=\"all\"]");
    settle().await;
    assert_eq!(
        find_all(&root, "#golden-case-table tbody tr").len(),
        after.cases.len()
    );
}

fn paste_cases(root: &web_sys::Element, value: &str) {
    let area: web_sys::HtmlTextAreaElement = find(root, "#golden-input").unchecked_into();
    area.set_value(value);
    fire(&area, "input");
}

#[wasm_bindgen_test]
async fn a_malformed_cases_file_is_located() {
    let (root, _app) = mount_fresh();
    settle().await;
    click(&root, "#tab-golden");
    settle().await;
    paste_cases(&root, "[\n  {\"caseId\": \"a\",, \"query\": \"q\"}\n]");
    settle().await;
    let location = text(&root, ".golden-errors .error-location");
    assert!(location.contains("pasted cases"), "{location}");
    assert!(location.contains("line 2"), "{location}");
    assert!(location.contains("column"), "{location}");
    assert!(text(&root, ".golden-errors .error-line").contains("{\"caseId\": \"a\",,"));
    assert!(text(&root, ".golden-errors .caret").ends_with('^'));
    assert!(root.query_selector("#golden-levels").unwrap().is_none());

    // Fixed: the error goes, the report comes; case text is text, never markup.
    paste_cases(
        &root,
        r#"[{"caseId": "<img src=x onerror=alert(1)>", "query": "nothing links here", "expectedDocIds": ["x"]}]"#,
    );
    settle().await;
    assert!(root.query_selector(".golden-errors").unwrap().is_none());
    assert_eq!(shown_level(&root, GoldenLevel::Miss), 1);
    assert!(text(&root, "#golden-case-table").contains("<img src=x onerror=alert(1)>"));
    assert!(root
        .query_selector("#golden-case-table img")
        .unwrap()
        .is_none());

    // Findings about the cases file are listed, as the core reports them.
    let duplicated = r#"[{"caseId": "a", "query": "q1"}, {"caseId": "a", "query": "q2"}]"#;
    let want = parse_cases("pasted cases", duplicated).unwrap();
    assert!(!want.diagnostics.is_empty());
    paste_cases(&root, duplicated);
    settle().await;
    let shown = text(&root, "#golden-diagnostics");
    for d in &want.diagnostics {
        assert!(shown.contains(d.code.as_str()), "{shown}");
        assert!(shown.contains(d.message.as_str()), "{shown}");
    }
}

#[wasm_bindgen_test]
async fn sample_cases_with_their_traces_work_from_the_opening_page() {
    let (root, _app) = mount_fresh();
    settle().await;
    click(&root, "#tab-golden");
    settle().await;
    click(&root, "#golden-sample-with-traces");
    settle().await;
    // The page stays on the Golden tab, now over the three example traces only.
    assert!(root.query_selector("#golden-levels").unwrap().is_some());
    assert!(
        text(&root, ".tabs").contains("Batch (4 traces)"),
        "{}",
        text(&root, ".tabs")
    );
    assert_shows(&root, &expected(&Settings::default()));
}

#[wasm_bindgen_test]
async fn the_cases_file_survives_a_reload_until_cleared() {
    let (root, app) = mount_fresh();
    settle().await;
    load_examples_and_sample_cases(&root).await;
    assert!(stored("ragtrace.v1.cases").is_some());
    drop(app);
    root.remove();

    // The tab, the traces and the cases come back: the same report as before.
    let (root, app) = mount_again();
    settle().await;
    assert!(text(&root, "#golden-source").contains("golden-cases-sample.json"));
    assert_shows(&root, &expected(&Settings::default()));

    click(&root, ".header-actions button.quiet");
    settle().await;
    assert_eq!(stored("ragtrace.v1.cases"), None);
    drop(app);
    root.remove();
    let (root, _app) = mount_again();
    settle().await;
    click(&root, "#tab-golden");
    settle().await;
    assert!(find_all(&root, "#golden-case-table tbody tr").is_empty());
}

/// A first visitor's Golden tab: the generated batch the page opens with, and the
/// cases written for it, evaluated as the core evaluates them.
#[wasm_bindgen_test]
async fn the_generated_batch_has_cases_of_its_own() {
    let (root, _app) = mount_fresh();
    settle().await;
    click(&root, "#tab-golden");
    settle().await;
    click(&root, "#golden-generated");
    settle().await;
    let docs = vec![(
        Sample::Generated.file_name().to_owned(),
        Sample::Generated.text().to_string(),
    )];
    let analysis = analyze(&parse_documents(&docs), &Settings::default(), true).unwrap();
    let cases = parse_cases(GENERATED_CASES_SOURCE, &generated_cases()).unwrap();
    let want = evaluate_analysis(&cases, &analysis);
    let levels = &want.summary.levels;
    assert!(levels.strong > 0 && levels.medium > 0 && levels.weak > 0 && levels.miss > 0);
    // More cases than a page: the table shows them a page at a time, in the file's order.
    let total = want.cases.len();
    assert!(total > 100 && total < 200, "{total} cases");
    let shown = || find_all(&root, "#golden-case-table tbody tr").len();
    assert_eq!(shown(), 100);
    assert_eq!(
        text(&root, "#golden-shown"),
        format!("Showing 100 of {total} cases.")
    );
    assert_eq!(
        text(&root, "#golden-more"),
        format!("Show {} more", total - 100)
    );
    click(&root, "#golden-more");
    settle().await;
    assert_eq!(shown(), total);
    assert!(root.query_selector("#golden-more").unwrap().is_none());
    // Another filter starts again from one page.
    click(&root, "#golden-filter button[data-filter=\"miss\"]");
    settle().await;
    assert_eq!(shown(), levels.miss.min(100));
    click(&root, "#golden-filter button[data-filter=\"all\"]");
    settle().await;
    assert_eq!(shown(), 100);
    while root.query_selector("#golden-more").unwrap().is_some() {
        click(&root, "#golden-more");
        settle().await;
    }
    assert_shows(&root, &want);
    // Only the one batch: the button did not load it a second time.
    assert_eq!(find_all(&root, ".file-list li").len(), 1);
}

/// A knob that changes no accepted list (`maxL2Distance`) evaluates no case again: the
/// report stays what the core gives under it, while the Calibration panel, which reads
/// the levels, follows the knob. `returnN` changes the lists: one evaluation, and the
/// report follows.
#[wasm_bindgen_test]
async fn only_a_knob_that_changes_an_accepted_list_evaluates_the_cases_again() {
    let (root, _app) = mount_fresh();
    settle().await;
    click(&root, "#tab-golden");
    settle().await;
    click(&root, "#golden-generated");
    settle().await;
    while root.query_selector("#golden-more").unwrap().is_some() {
        click(&root, "#golden-more");
        settle().await;
    }
    let docs = vec![(
        Sample::Generated.file_name().to_owned(),
        Sample::Generated.text().to_string(),
    )];
    let batch = parse_documents(&docs);
    let cases = parse_cases(GENERATED_CASES_SOURCE, &generated_cases()).unwrap();
    let under = |settings: &Settings| {
        let analysis = analyze(&batch, settings, true).unwrap();
        (
            evaluate_analysis(&cases, &analysis),
            calibrate(&cases, &analysis),
        )
    };
    let (report, calibration) = under(&Settings::default());
    assert_shows(&root, &report);

    let farther = Settings {
        max_l2_distance: Some(0.45),
        ..Settings::default()
    };
    let (farther_report, farther_calibration) = under(&farther);
    assert_ne!(
        farther_calibration.levels, calibration.levels,
        "the knob must move the levels"
    );
    let evaluations = golden_evaluation_count();
    let levels_shown = text(&root, "#calibration-levels");
    set_input(&root, "#knob-maxL2Distance", "0.45", "input");
    settle().await;
    assert_eq!(golden_evaluation_count(), evaluations);
    assert_shows(&root, &farther_report);
    assert_ne!(text(&root, "#calibration-levels"), levels_shown);

    let cut = Settings {
        return_n: Some(1),
        ..farther
    };
    let (cut_report, _) = under(&cut);
    assert_ne!(cut_report.summary, farther_report.summary);
    set_input(&root, "#knob-returnN", "1", "change");
    settle().await;
    assert_eq!(golden_evaluation_count(), evaluations + 1);
    assert_shows(&root, &cut_report);
}
