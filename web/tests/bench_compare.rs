//! Browser benchmark of the Compare tab: run A and run B of about 100,000 candidates
//! each (the paired generator's dense and hybrid runs), a knob moved, the time to the
//! next painted frame. Prints figures; asserts no timings.
//!
//! Run it as `bash scripts/bench.sh browser` runs the slider benchmark, with
//! `--test bench_compare`.
#![cfg(all(target_arch = "wasm32", feature = "bench"))]

mod common;

use common::*;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const QUERIES: usize = 10_000;
const CANDIDATES_PER_TRACE: usize = 10;
const ROUNDS: usize = 21;

/// Hands `text` to a file input as the file `name`.
fn pick_file(root: &web_sys::Element, selector: &str, name: &str, text: &str) {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let file = web_sys::File::new_with_str_sequence_and_options(
        &parts,
        name,
        &web_sys::FilePropertyBag::new(),
    )
    .unwrap();
    let transfer = web_sys::DataTransfer::new().unwrap();
    transfer.items().add_with_file(&file).unwrap();
    let input: web_sys::HtmlInputElement = find(root, selector).unchecked_into();
    input.set_files(transfer.files().as_ref());
    fire(&input, "change");
}

async fn wait_for(root: &web_sys::Element, selector: &str, contains: &str) {
    for _ in 0..1200 {
        sleep(50).await;
        if root
            .query_selector(selector)
            .unwrap()
            .is_some_and(|e| e.text_content().unwrap_or_default().contains(contains))
        {
            return;
        }
    }
    panic!("{selector} never showed {contains}");
}

#[wasm_bindgen_test]
async fn knob_to_next_frame_on_the_compare_tab() {
    let (dense, hybrid, _) =
        ragtrace_core::testdata::generate_paired_runs(QUERIES, CANDIDATES_PER_TRACE, 7);
    // The core alone, for reference: what one knob move asks of it.
    let settings = ragtrace_core::Settings::default();
    let parse = |name: &str, text: &str| ragtrace_core::parse_document(name, text);
    let (batch_a, batch_b) = (parse("a", &dense), parse("b", &hybrid));
    let t = now();
    let a = ragtrace_core::analyze(&batch_a, &settings, true).unwrap();
    let analyze_a = now() - t;
    let t = now();
    let b = ragtrace_core::analyze(&batch_b, &settings, false).unwrap();
    let analyze_b = now() - t;
    let t = now();
    let pairing = ragtrace_core::runs::pair_runs(&batch_a.traces, &batch_b.traces);
    let pair_ms = now() - t;
    let t = now();
    let compared = ragtrace_core::runs::compare_paired(&a, &b, &pairing, &Default::default());
    let compare_ms = now() - t;
    assert!(compared.pairs.len() > QUERIES / 2);
    drop((a, b, compared, pairing, batch_a, batch_b));
    console_log!(
        "bench: core: analyze A (with sweep) {analyze_a:.1} ms, analyze B {analyze_b:.1} ms, pair_runs (once per batch) {pair_ms:.1} ms, compare_paired {compare_ms:.1} ms"
    );

    let (root, _app) = mount_fresh();
    settle().await;
    pick_file(&root, "#file-input", "dense.json", &dense);
    wait_for(&root, ".tabs", &format!("Batch ({QUERIES} traces)")).await;
    click(&root, "#tab-compare");
    settle().await;
    pick_file(&root, "#compare-file-input", "hybrid.json", &hybrid);
    wait_for(&root, "#compare-counts", "pairs").await;
    next_frame().await;

    let idle_ms = idle_frames(ROUNDS).await;
    let mut frame_ms = Vec::new();
    for i in 0..ROUNDS {
        let value = if i % 2 == 0 { "0.8" } else { "1.1" };
        let t = now();
        set_input(&root, "#knob-maxL2Distance", value, "input");
        next_frame().await;
        sleep(0).await;
        frame_ms.push(now() - t);
    }
    let floor = median(idle_ms);
    let frame = median(frame_ms);
    console_log!(
        "bench: compare tab, {} + {} candidates: maxL2Distance input -> next painted frame median {frame:.1} ms = {:.2}x the floor ({floor:.1} ms)",
        QUERIES * CANDIDATES_PER_TRACE,
        (QUERIES - QUERIES / 10) * CANDIDATES_PER_TRACE,
        frame / floor
    );
}
