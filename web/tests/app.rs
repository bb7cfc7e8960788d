//! The real `App`, driven as a user would drive it. Expected values come from
//! `ragtrace_core` itself: the page must show what the core computes.
#![cfg(target_arch = "wasm32")]

mod common;

use common::*;
use ragtrace_core::{analyze, parse_documents, Analysis, SettingKey, Settings, SweepPoint};
use ragtrace_core::{block_changes, BlockChange};
use ragtrace_web::samples::Sample;
use ragtrace_web::test_hooks::list_walk_count;
use ragtrace_web::{SAMPLE_DENSE_TRACE, SAMPLE_LOOKUP_RESULTS};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn expected(docs: &[(&str, &str)], settings: &Settings) -> Analysis {
    let docs: Vec<(String, String)> = docs
        .iter()
        .map(|(n, t)| (n.to_string(), t.to_string()))
        .collect();
    analyze(&parse_documents(&docs), settings, false).unwrap()
}

fn stage_count(root: &web_sys::Element, stage: &str) -> usize {
    text(root, &format!("[data-stage=\"{stage}\"] .stage-count"))
        .trim()
        .parse()
        .unwrap()
}

#[wasm_bindgen_test]
async fn opens_with_a_full_analysis_of_the_sample() {
    let (root, _app) = mount_fresh();
    settle().await;
    assert_eq!(text(&root, "h1"), "ragtrace");
    let generated = Sample::Generated.text();
    let want = expected(&[("generated-500.json", &generated)], &Settings::default());
    assert!(want.traces.len() > 100);
    assert!(text(&root, ".tabs").contains(&format!("Batch ({} traces)", want.traces.len())));
    for (level, n) in &want.summary.all.levels {
        assert_eq!(shown_level_count(&root, level.as_str()), *n, "{level:?}");
    }
    // The list is virtualised: far fewer rows in the DOM than traces.
    let rows = find_all(&root, ".vtable-window .trow");
    assert!(
        !rows.is_empty() && rows.len() < 60,
        "{} rows rendered",
        rows.len()
    );
}

#[wasm_bindgen_test]
async fn pasting_a_trace_shows_its_blocks_as_the_core_computes_them() {
    let (root, _app) = mount_fresh();
    settle().await;
    paste(&root, SAMPLE_DENSE_TRACE).await;
    settle().await;
    let want = expected(&[("pasted text", SAMPLE_DENSE_TRACE)], &Settings::default());
    let trace = &want.traces[0];
    // One trace: the trace view opens by itself.
    assert!(text(&root, "#trace-title").contains("req-dense-001"));
    let rows = find_all(&root, "#block-table tbody tr");
    assert_eq!(rows.len(), trace.blocks().count());
    for (row, block) in rows.iter().zip(trace.blocks()) {
        let row_text = row.text_content().unwrap_or_default();
        assert!(
            row_text.contains(&*block.candidate.evidence_key),
            "{row_text}"
        );
        assert!(row_text.contains(block.status.as_str()), "{row_text}");
    }
    let level = text(&root, "#outcome-table tr[data-row=\"relevanceLevel\"] td");
    assert_eq!(level.trim(), trace.relevance_level.as_str());
}

#[wasm_bindgen_test]
async fn moving_max_l2_distance_recomputes_every_trace() {
    let (root, _app) = mount_fresh();
    settle().await;
    let generated = Sample::Generated.text();
    let docs = [("generated-500.json", &*generated)];
    let before = expected(&docs, &Settings::default());
    let settings = Settings {
        max_l2_distance: Some(0.6),
        ..Settings::default()
    };
    let after = expected(&docs, &settings);
    assert_ne!(
        before.summary.all.levels, after.summary.all.levels,
        "the sample must react"
    );

    set_input(&root, "#knob-maxL2Distance", "0.6", "input");
    settle().await;
    for level in ragtrace_web::format::LEVELS {
        let n = after.summary.all.levels.get(&level).copied().unwrap_or(0);
        assert_eq!(shown_level_count(&root, level.as_str()), n, "{level:?}");
    }
    // So do the change column and the recorded -> recomputed matrix (all traces).
    for level in ragtrace_web::format::LEVELS {
        let change = after.summary.all.change(level.as_str());
        let cell = find(
            &root,
            &format!(
                "#distribution-table tr[data-level=\"{}\"] td.delta",
                level.as_str()
            ),
        );
        assert_eq!(cell.class_list().contains("up"), change > 0, "{level:?}");
        assert_eq!(cell.class_list().contains("down"), change < 0, "{level:?}");
    }
    let matrix_rows = find_all(&root, "#transition-matrix tbody tr");
    assert!(!matrix_rows.is_empty(), "the sample must record levels");
    for row in &matrix_rows {
        let recorded = row
            .query_selector("th")
            .unwrap()
            .unwrap()
            .text_content()
            .unwrap();
        let cells = row.query_selector_all("td").unwrap();
        for (i, to) in ragtrace_core::Level::ALL.into_iter().enumerate() {
            let shown = cells.item(i as u32).unwrap().text_content().unwrap();
            let want = after.summary.all.transition(&recorded, to);
            assert_eq!(shown, want.to_string(), "{recorded} -> {to:?}");
        }
    }
    // The first rows of the list show the recomputed levels too.
    for row in find_all(&root, ".vtable-window .trow").iter().take(5) {
        let index: usize = row.get_attribute("data-index").unwrap().parse().unwrap();
        let cell = row.query_selector("[data-col=\"level\"]").unwrap().unwrap();
        let shown = cell.text_content().unwrap_or_default();
        assert!(
            shown.contains(after.traces[index].relevance_level.as_str()),
            "{shown}"
        );
    }
    // The link reproduces the view (written after the next paint).
    after_paint().await;
    settle().await;
    let hash = window().location().hash().unwrap();
    assert!(hash.contains("maxL2Distance=0.6"), "{hash}");
}

#[wasm_bindgen_test]
async fn thresholds_keep_their_order_while_dragging() {
    let (root, _app) = mount_fresh();
    settle().await;
    set_input(&root, "#knob-referenceThreshold", "0.8", "input");
    settle().await;
    let highly: web_sys::HtmlInputElement =
        find(&root, "#knob-highlyRelevantThreshold").unchecked_into();
    assert_eq!(highly.value(), "0.8");
    assert!(root.query_selector(".error-panel").unwrap().is_none());
}

#[wasm_bindgen_test]
async fn malformed_input_is_located_and_the_last_analysis_stays() {
    let (root, _app) = mount_fresh();
    settle().await;
    let tab_before = text(&root, ".tabs");
    paste(&root, "{\n  \"candidates\": [1,, 2]\n}").await;
    settle().await;
    let location = text(&root, ".error-location");
    assert!(location.contains("pasted text"), "{location}");
    assert!(location.contains("line 2"), "{location}");
    assert!(location.contains("column"), "{location}");
    let shown = text(&root, ".error-line code");
    assert_eq!(shown, "  \"candidates\": [1,, 2]");
    // The caret sits under the second comma, where the JSON breaks.
    let under = shown.find(",,").map(|at| at + 1);
    assert_eq!(text(&root, ".caret").find('^'), under);
    // The last good analysis is still there, and marked as such.
    assert_eq!(text(&root, ".tabs"), tab_before);
    assert!(text(&root, ".stale-banner").contains("last good analysis"));
    assert!(root.query_selector(".results.stale").unwrap().is_some());
}

#[wasm_bindgen_test]
async fn a_wrong_type_is_reported_with_its_json_path() {
    let (root, _app) = mount_fresh();
    settle().await;
    paste(
        &root,
        r#"{"requestId": "typed", "mode": "dense", "candidates": [{"evidenceKey": "a", "originalRank": 1, "score": "0.3"}]}"#,
    ).await;
    settle().await;
    let paths: Vec<String> = find_all(&root, ".diagnostics .json-path")
        .iter()
        .filter_map(|e| e.text_content())
        .collect();
    assert!(
        paths.iter().any(|p| p == "/candidates/0/score"),
        "{paths:?}"
    );
}

#[wasm_bindgen_test]
async fn trace_text_is_never_markup() {
    let (root, _app) = mount_fresh();
    settle().await;
    paste(&root, SAMPLE_LOOKUP_RESULTS).await;
    settle().await;
    // Two traces: the batch view; open the one with markup in its text.
    let rows = find_all(&root, ".vtable-window .trow");
    assert_eq!(rows.len(), 2);
    let row: web_sys::HtmlElement = rows[1].clone().unchecked_into();
    row.click();
    settle().await;
    assert!(text(&root, ".trace-header").contains("<script>alert('x')</script>"));
    assert!(text(&root, "#block-table").contains("<img src=x onerror=alert(1)>"));
    assert!(root.query_selector("img").unwrap().is_none());
    assert!(root.query_selector("script").unwrap().is_none());
    assert!(root.query_selector("[onerror]").unwrap().is_none());
}

#[wasm_bindgen_test]
async fn the_trace_view_waterfall_shows_the_core_stages() {
    let (root, _app) = mount_fresh();
    settle().await;
    click(&root, "button[data-sample=\"dense\"]");
    settle().await;
    let want = expected(
        &[("dense-trace.json", SAMPLE_DENSE_TRACE)],
        &Settings::default(),
    );
    let stages = want.traces[0].stages;
    assert_eq!(stage_count(&root, "candidates"), stages.candidates);
    assert_eq!(stage_count(&root, "invalid"), stages.invalid);
    assert_eq!(stage_count(&root, "duplicates"), stages.duplicates);
    assert_eq!(stage_count(&root, "docCap"), stages.doc_capped);
    assert_eq!(stage_count(&root, "returnN"), stages.return_n_cut);
    assert_eq!(stage_count(&root, "accepted"), stages.accepted);
    assert!(stages.duplicates > 0 && stages.accepted > 0);
}

#[wasm_bindgen_test]
async fn the_trace_view_lists_every_setting_of_the_core() {
    let (root, _app) = mount_fresh();
    settle().await;
    click(&root, "button[data-sample=\"dense\"]");
    settle().await;
    let want = expected(
        &[("dense-trace.json", SAMPLE_DENSE_TRACE)],
        &Settings::default(),
    );
    let config = want.traces[0].config;
    // Every key of the core's configuration (all but the page's own switch, which
    // the line's note says), with the value the trace was analysed under.
    let keys: Vec<(&str, String)> = SettingKey::ALL
        .iter()
        .filter_map(|&key| Some((key.name(), config.value(key)?.to_string())))
        .collect();
    assert_eq!(keys.len(), SettingKey::ALL.len() - 1);
    assert_eq!(
        find_all(&root, "#trace-settings [data-setting]").len(),
        keys.len()
    );
    for (name, value) in &keys {
        assert_eq!(
            text(&root, &format!("#trace-settings [data-setting=\"{name}\"]")),
            format!("{name} {value}")
        );
    }
}

#[wasm_bindgen_test]
async fn a_pinned_baseline_shows_what_changed() {
    let (root, _app) = mount_fresh();
    settle().await;
    click(&root, "#pin-baseline");
    settle().await;
    set_input(&root, "#knob-maxL2Distance", "0.6", "input");
    settle().await;
    let generated = Sample::Generated.text();
    let docs = [("generated-500.json", &*generated)];
    let before = expected(&docs, &Settings::default());
    let settings = Settings {
        max_l2_distance: Some(0.6),
        ..Settings::default()
    };
    let after = expected(&docs, &settings);
    let changed = before
        .traces
        .iter()
        .zip(&after.traces)
        .filter(|(b, a)| b.relevance_level != a.relevance_level)
        .count();
    assert!(changed > 0);
    let heading = text(&root, ".baseline h3");
    assert!(heading.starts_with(&changed.to_string()), "{heading}");
    click(&root, "#unpin-baseline");
    settle().await;
    assert!(root.query_selector(".baseline").unwrap().is_none());
}

/// In the trace view, a pinned baseline marks the blocks that entered, left or
/// moved in the accepted list, as the core's `baseline::block_changes` has it.
#[wasm_bindgen_test]
async fn a_pinned_baseline_marks_blocks_that_entered_left_or_moved() {
    let (root, _app) = mount_fresh();
    settle().await;
    click(&root, "button[data-sample=\"dense\"]");
    settle().await;
    click(&root, "#pin-baseline");
    settle().await;
    set_input(&root, "#knob-maxChunksPerDocument", "1", "change");
    settle().await;
    // Both analyses of one parsed batch: the core compares nothing else.
    let batch = parse_documents(&[("dense-trace.json".to_owned(), SAMPLE_DENSE_TRACE.to_owned())]);
    let baseline = analyze(&batch, &Settings::default(), false).unwrap();
    let current = analyze(
        &batch,
        &Settings {
            max_chunks_per_document: Some(1),
            ..Settings::default()
        },
        false,
    )
    .unwrap();
    let changes = block_changes(&baseline.traces[0], &current.traces[0]).unwrap();
    assert!(changes
        .iter()
        .any(|c| matches!(c, BlockChange::Moved { .. })));
    assert!(changes
        .iter()
        .any(|c| matches!(c, BlockChange::Left { .. })));
    let rows = find_all(&root, "#block-table tbody tr");
    assert_eq!(rows.len(), changes.len());
    for (row, change) in rows.iter().zip(&changes) {
        let class = row.class_name();
        let cell = row
            .query_selector(".baseline-change")
            .unwrap()
            .and_then(|c| c.text_content())
            .unwrap_or_default();
        match change {
            BlockChange::Same => assert_eq!(cell, "", "{class}"),
            BlockChange::Entered { accepted_rank } => {
                assert!(class.contains("entered"), "{class}");
                assert!(cell.contains(&format!("#{accepted_rank}")), "{cell}");
            }
            BlockChange::Left { was_rank } => {
                assert!(class.contains("left"), "{class}");
                assert!(cell.contains(&format!("#{was_rank}")), "{cell}");
            }
            BlockChange::Moved {
                was_rank,
                accepted_rank,
            } => {
                assert!(class.contains("moved"), "{class}");
                assert!(
                    cell.contains(&format!("#{was_rank} → #{accepted_rank}")),
                    "{cell}"
                );
            }
        }
    }
}

#[wasm_bindgen_test]
fn the_fatal_banner_is_visible_text() {
    ragtrace_web::browser::show_fatal_banner("ragtrace hit an internal error <b>x</b>");
    let banner = find(
        &leptos::prelude::document().body().unwrap(),
        ".fatal-banner",
    );
    assert_eq!(banner.get_attribute("role").as_deref(), Some("alert"));
    assert!(banner.text_content().unwrap().contains("<b>x</b>"));
    assert!(banner.query_selector("b").unwrap().is_none());
    banner.remove();
}

#[wasm_bindgen_test]
async fn the_file_list_says_what_each_document_held_and_removes_one() {
    let (root, _app) = mount_fresh();
    settle().await;
    click(&root, "button[data-sample=\"dense\"]");
    click(&root, "button[data-sample=\"lookup\"]");
    settle().await;
    let want = expected(
        &[
            ("dense-trace.json", SAMPLE_DENSE_TRACE),
            ("lookup-result.jsonl", SAMPLE_LOOKUP_RESULTS),
        ],
        &Settings::default(),
    );
    let rows = find_all(&root, ".file-row");
    // The opening sample made way for the user's choice.
    assert_eq!(rows.len(), 2);
    for (row, doc) in rows.iter().zip(&want.documents) {
        let held = row
            .query_selector(".file-held")
            .unwrap()
            .unwrap()
            .text_content()
            .unwrap();
        assert!(row.text_content().unwrap().contains(&doc.source));
        assert!(held.starts_with(&format!("{} trace", doc.traces)), "{held}");
        assert!(
            held.contains(&format!("{} candidate", doc.candidates)),
            "{held}"
        );
    }
    click(&root, "button[aria-label=\"Remove dense-trace.json\"]");
    settle().await;
    assert_eq!(find_all(&root, ".file-row").len(), 1);
    let tabs = text(&root, ".tabs");
    assert!(
        tabs.contains(&format!("Batch ({} traces)", want.documents[1].traces)),
        "{tabs}"
    );
}

#[wasm_bindgen_test]
async fn input_and_knobs_survive_a_reload_until_cleared() {
    let (root, app) = mount_fresh();
    settle().await;
    set_input(&root, "#knob-maxL2Distance", "0.7", "input");
    paste(&root, SAMPLE_DENSE_TRACE).await;
    settle().await;
    drop(app);
    root.remove();

    let (root, _app) = mount_again();
    settle().await;
    let knob: web_sys::HtmlInputElement = find(&root, "#knob-maxL2Distance").unchecked_into();
    assert_eq!(knob.value(), "0.7");
    assert!(text(&root, ".file-list").contains("pasted text"));
    assert!(text(&root, "#trace-title").contains("req-dense-001"));

    click(&root, ".header-actions button.quiet");
    settle().await;
    assert_eq!(stored("ragtrace.v1.paste"), None);
    assert_eq!(stored("ragtrace.v1.documents"), None);
    assert_eq!(stored("ragtrace.v1.settings").unwrap_or_default(), "");
    let knob: web_sys::HtmlInputElement = find(&root, "#knob-maxL2Distance").unchecked_into();
    assert_eq!(knob.value(), "1");
}

#[wasm_bindgen_test]
async fn the_list_sorts_by_a_column() {
    let (root, _app) = mount_fresh();
    settle().await;
    let header = "button[data-sort=\"topQuality\"]";
    click(&root, header);
    settle().await;
    let cell = find(&root, header).parent_element().unwrap();
    assert_eq!(
        cell.get_attribute("aria-sort").as_deref(),
        Some("ascending")
    );
    let generated = Sample::Generated.text();
    let want = expected(&[("generated-500.json", &generated)], &Settings::default());
    // Ascending: traces without a top quality first, then the lowest.
    let lowest = want
        .traces
        .iter()
        .map(|t| t.top_quality)
        .min_by(|a, b| match (a, b) {
            (Some(x), Some(y)) => x.total_cmp(y),
            (x, y) => x.is_some().cmp(&y.is_some()),
        })
        .unwrap();
    let first = find(&root, ".vtable-window .trow");
    let index: usize = first.get_attribute("data-index").unwrap().parse().unwrap();
    assert_eq!(want.traces[index].top_quality, lowest);
    click(&root, header);
    settle().await;
    let cell = find(&root, header).parent_element().unwrap();
    assert_eq!(
        cell.get_attribute("aria-sort").as_deref(),
        Some("descending")
    );
}

#[wasm_bindgen_test]
async fn the_trace_list_follows_a_knob_only_when_its_rows_depend_on_one() {
    let (root, _app) = mount_fresh();
    settle().await;
    let generated = Sample::Generated.text();
    let docs = [("generated-500.json", &*generated)];

    // Batch order and no filter: no setting can change the rows, so a knob move does
    // not walk the list; the cells still show the new analysis.
    let walks = list_walk_count();
    set_input(&root, "#knob-maxL2Distance", "0.6", "input");
    settle().await;
    assert_eq!(
        list_walk_count(),
        walks,
        "a knob walked rows it cannot change"
    );
    let at_06 = expected(
        &docs,
        &Settings {
            max_l2_distance: Some(0.6),
            ..Settings::default()
        },
    );
    let first = find(&root, ".vtable-window .trow");
    assert_eq!(first.get_attribute("data-index").as_deref(), Some("0"));
    let level = first
        .query_selector("[data-col=\"level\"]")
        .unwrap()
        .unwrap();
    assert!(level
        .text_content()
        .unwrap_or_default()
        .contains(at_06.traces[0].relevance_level.as_str()));

    // Filtered by a level, the rows are the traces the core puts at that level under
    // each setting.
    let filter = find(&root, "#filter-level");
    js_sys::Reflect::set(&filter, &"value".into(), &"LOW_RELEVANCE".into()).unwrap();
    fire(&filter, "change");
    settle().await;
    let low_relevance = |a: &Analysis| {
        a.traces
            .iter()
            .filter(|t| t.relevance_level == ragtrace_core::Level::LowRelevance)
            .count()
    };
    let shown = |root: &web_sys::Element| text(root, "#trace-list-count");
    let total = at_06.traces.len();
    assert_eq!(
        shown(&root),
        format!("{} of {total}", low_relevance(&at_06))
    );
    let at_14 = expected(
        &docs,
        &Settings {
            max_l2_distance: Some(1.4),
            ..Settings::default()
        },
    );
    assert_ne!(
        low_relevance(&at_06),
        low_relevance(&at_14),
        "the sample must react"
    );
    set_input(&root, "#knob-maxL2Distance", "1.4", "input");
    settle().await;
    assert_eq!(
        shown(&root),
        format!("{} of {total}", low_relevance(&at_14))
    );
}

/// The "all" column of the sweep table (the last one), one cell per fifth threshold.
fn shown_sweep_all(root: &web_sys::Element) -> Vec<String> {
    find_all(root, ".sweep-table tbody tr")
        .iter()
        .map(|row| {
            row.query_selector("td:last-child")
                .unwrap()
                .and_then(|cell| cell.text_content())
                .unwrap_or_default()
        })
        .collect()
}

#[wasm_bindgen_test]
async fn the_sweep_follows_max_l2_distance() {
    let (root, _app) = mount_fresh();
    settle().await;
    let generated = Sample::Generated.text();
    let docs = [("generated-500.json".to_owned(), generated.to_string())];
    let sweep_of = |settings: &Settings| -> Vec<SweepPoint> {
        analyze(&parse_documents(&docs), settings, true)
            .unwrap()
            .sweep
            .unwrap()
    };
    let table_cells = |sweep: &[SweepPoint]| -> Vec<String> {
        sweep
            .iter()
            .step_by(5)
            .map(|p| ragtrace_web::format::number(p.fraction))
            .collect()
    };
    let polyline_points = |sweep: &[SweepPoint]| -> String {
        sweep
            .iter()
            .map(|p| format!("{},{}", p.threshold, p.fraction))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let shown_points = |root: &web_sys::Element| {
        find(root, "polyline[data-line='all']")
            .get_attribute("points")
            .unwrap_or_default()
    };
    let before = sweep_of(&Settings::default());
    let after = sweep_of(&Settings {
        max_l2_distance: Some(0.6),
        ..Settings::default()
    });
    assert_ne!(before, after, "the sample's sweep must react");
    assert_eq!(shown_points(&root), polyline_points(&before));
    // The table is built when opened, not before.
    assert!(shown_sweep_all(&root).is_empty());
    click(&root, ".sweep-table summary");
    settle().await;
    assert_eq!(shown_sweep_all(&root), table_cells(&before));

    set_input(&root, "#knob-maxL2Distance", "0.6", "input");
    settle().await;
    assert_eq!(shown_sweep_all(&root), table_cells(&after));
    assert_eq!(shown_points(&root), polyline_points(&after));
    // The marker follows its threshold.
    set_input(&root, "#knob-preciseThreshold", "0.95", "input");
    settle().await;
    assert_eq!(
        find(&root, "line[data-marker='preciseThreshold']")
            .get_attribute("x1")
            .as_deref(),
        Some("0.95")
    );
}

/// The JSON download is the CLI's output for the batch on screen; the CSV is the
/// trace list as the page's `csv` writes it.
#[wasm_bindgen_test]
async fn the_downloads_hold_the_analysis_and_the_trace_list() {
    let (root, _app) = mount_fresh();
    settle().await;
    set_input(&root, "#knob-returnN", "3", "change");
    settle().await;
    let generated = Sample::Generated.text();
    let docs = vec![("generated-500.json".to_owned(), generated.to_string())];
    let settings = Settings {
        return_n: Some(3),
        ..Settings::default()
    };
    let want = analyze(&parse_documents(&docs), &settings, true).unwrap();

    let captured = CapturedDownloads::start();
    click(&root, "#download-json");
    click(&root, "#download-csv");
    let (name, mime, json) = captured.get(0).await;
    assert_eq!(name, "ragtrace-analysis.json");
    assert_eq!(mime, "application/json");
    assert_eq!(json, serde_json::to_string_pretty(&want).unwrap());
    let (name, mime, csv) = captured.get(1).await;
    assert_eq!(name, "ragtrace-traces.csv");
    assert_eq!(mime, "text/csv");
    assert_eq!(csv, ragtrace_web::components::trace_list::csv(&want));
    assert_eq!(csv.lines().count(), want.traces.len() + 1);
}
