//! Browser benchmark: with a 100,000-candidate batch loaded, how long from a
//! slider input to the next painted frame (`maxL2Distance`, `preciseThreshold`, and the
//! score floor `minQuality`); the same on the Golden tab with its
//! Calibration panel over 10,000 cases, and with its Why missed panel open; and one
//! trace's explanation (what the trace view computes). Prints figures; asserts no timings.
//!
//! Run with `bash scripts/bench.sh browser`, which compiles it as the site is
//! (how the figures read: docs/performance.md). A target of its own (web/Cargo.toml)
//! built only with the `bench` feature, so that the browser tests do not spend
//! minutes on it.
#![cfg(all(target_arch = "wasm32", feature = "bench"))]

#[path = "../tests/common/mod.rs"]
mod common;

use common::*;
use ragtrace_core::parse_documents;
use ragtrace_core::{analyze, Settings};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const TRACES: usize = 10_000;
const CANDIDATES_PER_TRACE: usize = 10;
const ROUNDS: usize = 21;
/// `returnN` moves on the Golden tab with 10,000 cases: each evaluates every case
/// again, so fewer.
const GOLDEN_TAB_ROUNDS: usize = 5;

#[wasm_bindgen_test]
async fn slider_input_to_next_frame_with_100k_candidates() {
    let json = ragtrace_core::generate_batch(TRACES, CANDIDATES_PER_TRACE, 7);

    // The core alone, for reference.
    let t = now();
    let batch = parse_documents(&[("bench.json".to_owned(), json.clone())]);
    let parse_ms = now() - t;
    let candidates = batch.candidate_count();
    assert_eq!(candidates, TRACES * CANDIDATES_PER_TRACE);
    let mut analyze_ms = Vec::new();
    let mut reanalyze_ms = Vec::new();
    let mut drop_ms = Vec::new();
    let mut floor_reanalyze_ms = Vec::new();
    let mut previous = analyze(&batch, &Settings::default(), true).unwrap();
    let mut floored_previous = analyze(&batch, &Settings::default(), true).unwrap();
    for i in 0..ROUNDS {
        let settings = Settings {
            max_l2_distance: Some(if i % 2 == 0 { 0.8 } else { 1.1 }),
            ..Settings::default()
        };
        let t = now();
        let analysis = analyze(&batch, &settings, true).unwrap();
        analyze_ms.push(now() - t);
        assert_eq!(analysis.traces.len(), TRACES);
        let t = now();
        drop(analysis);
        drop_ms.push(now() - t);
        // What the page runs for a knob: only the stages the change reaches.
        let t = now();
        let next = previous.reanalyze(&batch, &settings).unwrap();
        reanalyze_ms.push(now() - t);
        previous = next;
        // A floor decides every trace again: what a minQuality move asks of the core.
        let floored = Settings {
            min_quality: Some(if i % 2 == 0 { 0.3 } else { 0.5 }),
            ..Settings::default()
        };
        let t = now();
        let next = floored_previous.reanalyze(&batch, &floored).unwrap();
        floor_reanalyze_ms.push(now() - t);
        floored_previous = next;
    }
    drop((previous, floored_previous));
    drop(batch);

    // The page: load the batch as a file, as a user would.
    use_site_style();
    let (root, _app) = mount_fresh();
    settle().await;
    let parts = js_sys::Array::of1(&JsValue::from_str(&json));
    let file = web_sys::File::new_with_str_sequence_and_options(
        &parts,
        "bench.json",
        &web_sys::FilePropertyBag::new(),
    )
    .unwrap();
    let transfer = web_sys::DataTransfer::new().unwrap();
    transfer.items().add_with_file(&file).unwrap();
    let input: web_sys::HtmlInputElement = find(&root, "#file-input").unchecked_into();
    input.set_files(transfer.files().as_ref());
    let t = now();
    fire(&input, "change");
    let expected_tab = format!("Batch ({TRACES} traces)");
    let mut loaded = false;
    for _ in 0..600 {
        sleep(50).await;
        if text(&root, ".tabs").contains(&expected_tab) {
            loaded = true;
            break;
        }
    }
    assert!(loaded, "the batch did not load");
    next_frame().await;
    let load_ms = now() - t;

    // The floor: the same wait with no input at all. Frames come every ~16.7 ms at
    // 60 Hz, so "next painted frame" cannot read much lower than this.
    let idle_ms = idle_frames(ROUNDS).await;

    // What waiting for the microtasks costs by itself, with nothing queued.
    let mut drain_ms = Vec::new();
    for _ in 0..ROUNDS {
        next_frame().await;
        let t = now();
        drain_microtasks().await;
        drain_ms.push(now() - t);
    }

    let mut frame_ms = Vec::new();
    let mut raf_ms = Vec::new();
    let mut work_ms = Vec::new();
    for i in 0..ROUNDS {
        let value = if i % 2 == 0 { "0.8" } else { "1.1" };
        let t = now();
        set_input(&root, "#knob-maxL2Distance", value, "input");
        drain_microtasks().await;
        work_ms.push(now() - t);
        // Then the frame: rAF, style, layout, paint, then a task after the paint.
        next_frame().await;
        raf_ms.push(now() - t);
        sleep(0).await;
        frame_ms.push(now() - t);
    }

    // A threshold moves no top quality: only levels and counts change.
    let mut threshold_ms = Vec::new();
    for i in 0..ROUNDS {
        let value = if i % 2 == 0 { "0.85" } else { "0.95" };
        let t = now();
        set_input(&root, "#knob-preciseThreshold", value, "input");
        next_frame().await;
        sleep(0).await;
        threshold_ms.push(now() - t);
    }

    // A score floor cuts candidates: every trace is decided again, and the levels, the
    // counts and the trace list follow.
    let (mut floor_work_ms, mut floor_frame_ms) = (Vec::new(), Vec::new());
    for i in 0..ROUNDS {
        let value = if i % 2 == 0 { "0.3" } else { "0.5" };
        let t = now();
        set_input(&root, "#knob-minQuality", value, "input");
        drain_microtasks().await;
        floor_work_ms.push(now() - t);
        next_frame().await;
        sleep(0).await;
        floor_frame_ms.push(now() - t);
    }

    console_log!(
        "bench: {candidates} candidates in {TRACES} traces ({:.1} MB of JSON)",
        json.len() as f64 / 1e6
    );
    console_log!("bench: core parse {parse_ms:.1} ms");
    console_log!("bench: core analyze (with sweep) {}", summary(&analyze_ms));
    console_log!(
        "bench: core reanalyze (maxL2Distance moved, from the previous analysis) {} = {:.2}x analyze",
        summary(&reanalyze_ms),
        median(reanalyze_ms.clone()) / median(analyze_ms.clone())
    );
    console_log!(
        "bench: core reanalyze (minQuality moved: every trace decided again) {}",
        summary(&floor_reanalyze_ms)
    );
    console_log!("bench: core drop of an analysis {}", summary(&drop_ms));
    console_log!("bench: page load (file -> painted analysis) {load_ms:.1} ms");
    console_log!(
        "bench: no input, the wait for the next painted frame (the floor) {}",
        summary(&idle_ms)
    );
    console_log!(
        "bench: maxL2Distance slider input -> next painted frame {} = {:.2}x the floor",
        summary(&frame_ms),
        median(frame_ms.clone()) / median(idle_ms.clone())
    );
    console_log!(
        "bench: maxL2Distance slider input -> page updated (core analysis and every effect, before the frame) {}",
        summary(&work_ms)
    );
    console_log!(
        "bench: of which waiting for the microtasks with nothing queued (the measurement's own cost) {}",
        summary(&drain_ms)
    );
    console_log!(
        "bench: maxL2Distance slider input -> its animation frame (update done, before style, layout and paint) {}",
        summary(&raf_ms)
    );
    console_log!(
        "bench: preciseThreshold slider input -> next painted frame {}",
        summary(&threshold_ms)
    );
    console_log!(
        "bench: minQuality slider input -> page updated (the page's own work, before the frame) {} = {:.2}x the goal of half a frame (8.3 ms)",
        summary(&floor_work_ms),
        median(floor_work_ms.clone()) / 8.3
    );
    console_log!(
        "bench: minQuality slider input -> next painted frame {} = {:.2}x the floor",
        summary(&floor_frame_ms),
        median(floor_frame_ms.clone()) / median(idle_ms.clone())
    );
}

/// The page as the site styles it, the batch picked as a file, the Golden tab shown.
async fn golden_tab_with_batch(json: &str) -> (web_sys::HtmlElement, Box<dyn std::any::Any>) {
    use_site_style();
    let (root, app) = mount_fresh();
    settle().await;
    pick_files(&root, &[("bench.json", json.as_bytes())]);
    let expected_tab = format!("Batch ({TRACES} traces)");
    assert!(
        wait_until(60, || text(&root, ".tabs").contains(&expected_tab)).await,
        "the batch did not load"
    );
    click(&root, "#tab-golden");
    settle().await;
    (root, app)
}

/// One golden case per trace of the generated batch, linked by a `caseId` added to
/// each trace: the batch with the ids, and the cases file. A case expects the trace's
/// first, middle or last candidate's document, or one it never retrieved, so every
/// outcome occurs across the range of top qualities; its grades put the expected
/// document above the second candidate's, so the case table shows graded cases.
fn batch_with_a_case_per_trace(traces: usize) -> (String, String) {
    let json = ragtrace_core::generate_batch(traces, CANDIDATES_PER_TRACE, 7);
    let mut batch: serde_json::Value = serde_json::from_str(&json).unwrap();
    let mut cases = Vec::new();
    for (i, trace) in batch["traces"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .enumerate()
    {
        let case_id = format!("case-{i:05}");
        let candidates = trace["candidates"].as_array().unwrap();
        let doc_of = |at: usize| {
            let c = &candidates[at.min(candidates.len() - 1)];
            c.get("docId").or_else(|| c.get("doc_id")).unwrap().clone()
        };
        let expected = match i % 4 {
            0 => doc_of(0),
            1 => doc_of(candidates.len() / 2),
            2 => doc_of(candidates.len() - 1),
            _ => serde_json::Value::from(format!("doc-absent-{i}")),
        };
        // Graded as a qrels file grades (contract section 12): the expected document 2,
        // the second candidate's 1 (unless the case expects none the trace retrieved).
        let mut judgments = serde_json::Map::new();
        if i % 4 != 3 {
            judgments.insert(doc_of(1).as_str().unwrap_or_default().to_owned(), 1.into());
        }
        judgments.insert(expected.as_str().unwrap_or_default().to_owned(), 2.into());
        cases.push(serde_json::json!({
            "caseId": case_id,
            "query": trace["query"],
            "expectedDocIds": [expected],
            "judgments": judgments,
        }));
        trace["caseId"] = case_id.into();
    }
    (
        batch.to_string(),
        serde_json::json!({ "cases": cases }).to_string(),
    )
}

/// The Golden tab with its Calibration panel over 10,000 cases linked to
/// 10,000 traces (100,000 candidates), a knob moved, the time to the next painted
/// frame; and the core's calibration alone, as the panel calls it on a knob move.
#[wasm_bindgen_test]
async fn calibration_of_10000_cases_when_a_knob_moves() {
    use ragtrace_core::{calibrate_linked, calibration_links, top_quality_histogram};
    use ragtrace_core::{evaluate_analysis, parse_cases};

    let (json, cases_json) = batch_with_a_case_per_trace(TRACES);
    let batch = parse_documents(&[("bench.json".to_owned(), json.clone())]);
    let cases = parse_cases("cases.json", &cases_json).unwrap();
    let mut analysis = analyze(&batch, &Settings::default(), true).unwrap();
    let links = calibration_links(&cases, &analysis);
    let (mut reanalyze_ms, mut evaluate_ms, mut calibrate_ms, mut histogram_ms, mut sort_ms) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut lists_ms = Vec::new();
    let mut linked = 0;
    for i in 0..ROUNDS {
        let settings = Settings {
            max_l2_distance: Some(if i % 2 == 0 { 0.8 } else { 1.1 }),
            ..Settings::default()
        };
        // What a knob move asks of the core on the Golden tab: the analysis, whether
        // its accepted lists changed (when they did, the golden report, which a
        // maxL2Distance move does not ask for), then the panel's calibration.
        let before = analysis.accepted_lists();
        let t = now();
        analysis = analysis.reanalyze(&batch, &settings).unwrap();
        reanalyze_ms.push(now() - t);
        let t = now();
        let same = analysis.accepted_lists() == before;
        lists_ms.push(now() - t);
        assert!(same, "maxL2Distance changed no accepted list");
        let t = now();
        let report = evaluate_analysis(&cases, &analysis);
        evaluate_ms.push(now() - t);
        let t = now();
        let calibration = calibrate_linked(&links, &cases, &report, &analysis);
        calibrate_ms.push(now() - t);
        let t = now();
        top_quality_histogram(&calibration.gate.all, 20);
        histogram_ms.push(now() - t);
        linked = calibration.linked;
        // For scale: a sort of 10,000 numbers, the cost of re-sorting one column.
        let mut tops: Vec<f64> = analysis
            .traces
            .iter()
            .map(|t| t.top_quality.unwrap_or(0.0))
            .collect();
        let t = now();
        tops.sort_by(f64::total_cmp);
        sort_ms.push(now() - t);
    }
    let t = now();
    calibration_links(&cases, &analysis);
    let link_ms = now() - t;
    drop((analysis, links, batch));
    console_log!(
        "bench: calibration core, {} cases ({linked} linked) over {TRACES} traces: calibrate_linked {} (+ histogram {}); golden report (evaluate_analysis, when the accepted lists change) {}; accepted lists taken and compared {}; reanalyze {}; linking (once per batch and cases file) {link_ms:.1} ms; a sort of {TRACES} numbers {}",
        cases.cases.len(),
        summary(&calibrate_ms),
        summary(&histogram_ms),
        summary(&evaluate_ms),
        summary(&lists_ms),
        summary(&reanalyze_ms),
        summary(&sort_ms)
    );

    // The page: the batch as a file, the cases as a file, the Golden tab shown.
    let (root, _app) = golden_tab_with_batch(&json).await;
    let area: web_sys::HtmlTextAreaElement = find(&root, "#golden-input").unchecked_into();
    let t = now();
    area.set_value(&cases_json);
    fire(&area, "input");
    let heading = format!("{linked} of {} cases", cases.cases.len());
    let shown = wait_until(60, || {
        root.query_selector("#calibration-title")
            .unwrap()
            .is_some_and(|h| h.text_content().unwrap_or_default().contains(&heading))
    })
    .await;
    assert!(shown, "the Calibration panel did not show {heading}");
    next_frame().await;
    let shown_ms = now() - t;

    let frame_interval_ms = frame_interval(ROUNDS).await;
    let idle_ms = idle_frames(ROUNDS).await;
    let mut figures = Vec::new();
    // The first two change no accepted list (the report stays, the panel follows);
    // returnN does, and every case is evaluated again.
    for (knob, values, event, rounds) in [
        ("referenceThreshold", ["0.45", "0.55"], "input", ROUNDS),
        ("maxL2Distance", ["0.8", "1.1"], "input", ROUNDS),
        ("returnN", ["4", "5"], "change", GOLDEN_TAB_ROUNDS),
    ] {
        let mut frame_ms = Vec::new();
        for i in 0..rounds {
            let t = now();
            set_input(&root, &format!("#knob-{knob}"), values[i % 2], event);
            next_frame().await;
            sleep(0).await;
            frame_ms.push(now() - t);
            // Let the test runner in.
            sleep(100).await;
        }
        figures.push((knob, frame_ms));
    }
    console_log!(
        "bench: Golden tab, {linked} cases pasted -> report and Calibration panel painted {shown_ms:.0} ms"
    );
    for (knob, frame_ms) in figures {
        console_log!(
            "bench: Golden tab with the Calibration panel, {linked} cases: {knob} input -> next painted frame {} = {:.2} frames of {frame_interval_ms:.1} ms = {:.2}x the floor ({:.1} ms)",
            summary(&frame_ms),
            median(frame_ms.clone()) / frame_interval_ms,
            median(frame_ms.clone()) / median(idle_ms.clone()),
            median(idle_ms.clone())
        );
    }
}

/// What the trace view computes for the trace it shows: the explanation of one
/// 50-candidate trace (`explain_one`), per trace, over the traces of a generated batch.
#[wasm_bindgen_test]
async fn explanation_of_a_50_candidate_trace() {
    use ragtrace_core::explain_one;
    const CANDIDATES: usize = 50;
    const EXPLAINED: usize = 200;
    let json = ragtrace_core::generate_batch(EXPLAINED, CANDIDATES, 7);
    let batch = parse_documents(&[("bench.json".to_owned(), json)]);
    let settings = Settings::default();
    let analysis = analyze(&batch, &settings, false).unwrap();
    assert!(analysis
        .traces
        .iter()
        .all(|t| t.trace.candidates().len() == CANDIDATES));
    let mut per_trace_ms = Vec::new();
    let mut changes = 0;
    for _ in 0..ROUNDS {
        let t = now();
        for (index, trace) in analysis.traces.iter().enumerate() {
            let explained = explain_one(index, trace, &settings);
            changes += explained.level_if.len();
        }
        per_trace_ms.push((now() - t) / EXPLAINED as f64);
    }
    assert!(changes > 0);
    console_log!(
        "bench: trace view explanation (explain_one), a {CANDIDATES}-candidate trace: {} per trace (median of {ROUNDS} rounds over {EXPLAINED} traces; goal < 2 ms)",
        summary(&per_trace_ms)
    );
}

/// The Golden tab over 10,000 cases linked to 10,000 traces with the Why missed panel
/// open: the panel's first result after opening, then a knob moved: the time to the
/// next painted frame (the panel is pending then) and to the panel's new result.
#[wasm_bindgen_test]
async fn why_missed_of_10000_cases_when_a_knob_moves() {
    use ragtrace_core::{explain_golden_cases, parse_cases};

    let (json, cases_json) = batch_with_a_case_per_trace(TRACES);
    let batch = parse_documents(&[("bench.json".to_owned(), json.clone())]);
    let cases = parse_cases("cases.json", &cases_json).unwrap();
    let settings = Settings::default();
    let analysis = analyze(&batch, &settings, false).unwrap();
    let t = now();
    let (_, core_summary) = explain_golden_cases(&analysis, &settings, &cases).unwrap();
    let core_ms = now() - t;
    drop((analysis, batch));
    console_log!(
        "bench: Why missed core (explain_golden_cases), {} cases over {TRACES} traces: {core_ms:.0} ms ({} misses, {} changes tried on the batch)",
        cases.cases.len(),
        core_summary.misses,
        core_summary.changes.len()
    );

    let (root, _app) = golden_tab_with_batch(&json).await;
    let area: web_sys::HtmlTextAreaElement = find(&root, "#golden-input").unchecked_into();
    area.set_value(&cases_json);
    fire(&area, "input");
    assert!(
        wait_until(60, || root
            .query_selector("#golden-levels")
            .unwrap()
            .is_some())
        .await,
        "the golden report did not show"
    );
    let result_shown = |root: &web_sys::Element| {
        root.query_selector("#why-missed-headline")
            .unwrap()
            .is_some()
    };
    let t = now();
    find(&root, "#why-missed")
        .set_attribute("open", "")
        .unwrap();
    assert!(
        wait_until(120, || result_shown(&root)).await,
        "the Why missed panel did not show its result"
    );
    let opened_ms = now() - t;

    let frame_interval_ms = frame_interval(ROUNDS).await;
    let idle_ms = idle_frames(ROUNDS).await;
    let (mut frame_ms, mut result_ms, mut pending_at_frame) = (Vec::new(), Vec::new(), 0);
    for i in 0..GOLDEN_TAB_ROUNDS {
        let t = now();
        set_input(&root, "#knob-maxL2Distance", ["0.8", "1.1"][i % 2], "input");
        next_frame().await;
        sleep(0).await;
        frame_ms.push(now() - t);
        if root
            .query_selector("#why-missed-pending")
            .unwrap()
            .is_some()
        {
            pending_at_frame += 1;
        }
        assert!(
            wait_until(120, || result_shown(&root)).await,
            "the Why missed panel did not follow the knob"
        );
        result_ms.push(now() - t);
        sleep(100).await;
    }
    console_log!(
        "bench: Golden tab, {} cases: Why missed opened -> result painted {opened_ms:.0} ms",
        cases.cases.len()
    );
    console_log!(
        "bench: Golden tab with Why missed open, {} cases: maxL2Distance input -> next painted frame {} = {:.2} frames of {frame_interval_ms:.1} ms = {:.2}x the floor ({:.1} ms); pending at that frame in {pending_at_frame} of {GOLDEN_TAB_ROUNDS}; -> the panel's new result {}",
        cases.cases.len(),
        summary(&frame_ms),
        median(frame_ms.clone()) / frame_interval_ms,
        median(frame_ms.clone()) / median(idle_ms.clone()),
        median(idle_ms.clone()),
        summary(&result_ms)
    );
}
