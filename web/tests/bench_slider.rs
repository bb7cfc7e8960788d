//! Browser benchmark: with a 100,000-candidate batch loaded, how long from a
//! slider input to the next painted frame. Prints figures; asserts no timings.
//!
//! Run with `bash scripts/bench.sh browser`, which compiles it as the site is
//! (how the figures read: docs/performance.md). Behind the `bench` feature so
//! that the browser test runs of CI do not spend minutes on it.
#![cfg(all(target_arch = "wasm32", feature = "bench"))]

mod common;

use common::*;
use ragtrace_core::input::parse_documents;
use ragtrace_core::{analyze, Settings};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const TRACES: usize = 10_000;
const CANDIDATES_PER_TRACE: usize = 10;
const ROUNDS: usize = 21;

/// Lets every queued microtask run: Leptos runs effects as microtasks, before the
/// browser's next rendering step, so this returns once the page's update is done.
async fn drain_microtasks() {
    for _ in 0..64 {
        let resolved = js_sys::Promise::resolve(&JsValue::NULL);
        wasm_bindgen_futures::JsFuture::from(resolved)
            .await
            .unwrap();
    }
}

#[wasm_bindgen_test]
async fn slider_input_to_next_frame_with_100k_candidates() {
    let json = ragtrace_core::testdata::generate_batch(TRACES, CANDIDATES_PER_TRACE, 7);

    // The core alone, for reference.
    let t = now();
    let batch = parse_documents(&[("bench.json".to_owned(), json.clone())]);
    let parse_ms = now() - t;
    let candidates = batch.candidate_count();
    assert_eq!(candidates, TRACES * CANDIDATES_PER_TRACE);
    let mut analyze_ms = Vec::new();
    let mut reanalyze_ms = Vec::new();
    let mut drop_ms = Vec::new();
    let mut previous = analyze(&batch, &Settings::default(), true).unwrap();
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
    }
    drop(previous);
    drop(batch);

    // The page: load the batch as a file, as a user would.
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
}
