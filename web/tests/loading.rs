//! Loading documents: files are read in slices through the core's
//! `DocumentReader` with a progress bar and a Cancel button; each document is
//! parsed once, when added; typing re-parses only the pasted text. Expected values
//! come from `ragtrace_core` itself.
#![cfg(target_arch = "wasm32")]

mod common;

use common::*;
use ragtrace_core::{analyze, ParsedBatch, Settings};
use ragtrace_core::{parse_document_bytes, parse_documents};
use ragtrace_web::test_hooks::{
    blocks_read_by_worker, memo_analysis_count, parse_count, set_slice_bytes, set_task_budget_ms,
};
use ragtrace_web::{SAMPLE_DENSE_TRACE, SLICES_PER_READ, SLICE_BYTES, TASK_BUDGET_MS};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn tab_count(root: &web_sys::Element) -> String {
    text(root, ".tabs")
}

fn batch_tab(traces: usize) -> String {
    format!("Batch ({traces} traces)")
}

#[wasm_bindgen_test]
async fn typing_in_the_paste_box_parses_only_the_pasted_text() {
    let (root, _app) = mount_fresh();
    settle().await;
    let first = ragtrace_core::generate_batch(40, 5, 1);
    let second = ragtrace_core::generate_batch(30, 5, 2);
    pick_files(
        &root,
        &[
            ("first.json", first.as_bytes()),
            ("second.json", second.as_bytes()),
        ],
    );
    assert!(wait_until(20, || tab_count(&root).contains(&batch_tab(70))).await);
    settle().await;

    // Keystrokes closer together than the pause parse nothing at all.
    let before = parse_count();
    let typed = SAMPLE_DENSE_TRACE;
    for end in [1, typed.len() / 2, typed.len()] {
        type_into_paste_box(&root, &typed[..end]);
        next_frame().await;
    }
    assert_eq!(parse_count(), before, "a keystroke waited on a parse");
    // After the pause, the pasted text alone is parsed: once.
    sleep(ragtrace_web::PASTE_PAUSE.as_millis() as i32 + 20).await;
    settle().await;
    assert_eq!(parse_count(), before + 1);
    let want = analyze(
        &parse_documents(&[
            ("first.json".to_owned(), first.clone()),
            ("second.json".to_owned(), second.clone()),
            ("pasted text".to_owned(), typed.to_owned()),
        ]),
        &Settings::default(),
        false,
    )
    .unwrap();
    assert!(tab_count(&root).contains(&batch_tab(want.traces.len())));
    assert_eq!(want.traces.len(), 71);
    let last_row_name = want.traces[70].name().into_owned();
    assert_eq!(last_row_name, "req-dense-001");

    // Removing documents removes their traces without parsing anything.
    click(&root, "button[aria-label=\"Remove first.json\"]");
    settle().await;
    assert!(
        tab_count(&root).contains(&batch_tab(31)),
        "{}",
        tab_count(&root)
    );
    click(&root, "button[aria-label=\"Remove pasted text\"]");
    sleep(ragtrace_web::PASTE_PAUSE.as_millis() as i32 + 20).await;
    settle().await;
    assert!(
        tab_count(&root).contains(&batch_tab(30)),
        "{}",
        tab_count(&root)
    );
    assert_eq!(parse_count(), before + 1);
}

/// `sample::generate_batch`'s traces as JSON Lines, one trace per line.
fn generated_lines(traces: usize, candidates: usize, seed: u64) -> String {
    let batch: serde_json::Value =
        serde_json::from_str(&ragtrace_core::generate_batch(traces, candidates, seed)).unwrap();
    batch["traces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|trace| trace.to_string() + "\n")
        .collect()
}

/// The analysis the page offers as its JSON download, which is the CLI's JSON.
async fn downloaded_analysis(root: &web_sys::Element) -> String {
    let captured = CapturedDownloads::start();
    click(root, "#download-json");
    captured.get(0).await.2
}

fn expected_json(batch: &ParsedBatch) -> String {
    serde_json::to_string_pretty(&analyze(batch, &Settings::default(), true).unwrap()).unwrap()
}

/// Loads `content` as one picked file through the streamed path, in slices of
/// `slice` bytes, and waits until the page shows `traces` traces.
async fn load_in_slices(
    root: &web_sys::Element,
    name: &str,
    content: &[u8],
    slice: usize,
    traces: usize,
) {
    set_slice_bytes(slice);
    pick_files(root, &[(name, content)]);
    // Done when the file is listed (the batch before may already have as many traces).
    let listed = || {
        find_all(root, ".file-row .file-name")
            .iter()
            .any(|row| row.text_content().unwrap_or_default().contains(name))
    };
    let loaded = wait_until(60, || {
        root.query_selector("#load-bar").unwrap().is_none()
            && listed()
            && tab_count(root).contains(&batch_tab(traces))
    })
    .await;
    set_slice_bytes(SLICE_BYTES);
    assert!(loaded, "{name} did not load: {}", tab_count(root));
    settle().await;
}

#[wasm_bindgen_test]
async fn a_file_read_in_slices_gives_the_one_shot_analysis() {
    let (root, _app) = mount_fresh();
    settle().await;
    let mut lines = generated_lines(300, 6, 11);
    // A line that is not JSON in the middle: reported, every other line loaded.
    let middle = lines.len() / 2;
    let cut = lines[middle..].find('\n').unwrap() + middle + 1;
    lines.insert_str(
        cut,
        "{\"requestId\": \"broken\", \"candidates\": [1,, 2]}\n",
    );
    let bytes = lines.as_bytes();
    assert!(bytes.len() > 20 * 4096, "{} bytes", bytes.len());
    let analyses = memo_analysis_count();
    let worker_blocks = blocks_read_by_worker();
    load_in_slices(&root, "day.jsonl", bytes, 4096, 300).await;
    // Every block was read on the worker thread.
    assert_eq!(
        blocks_read_by_worker() - worker_blocks,
        bytes.len().div_ceil(4096 * SLICES_PER_READ as usize)
    );
    // Made in pieces between the load's tasks, not in one task when the file joined.
    assert_eq!(
        memo_analysis_count(),
        analyses,
        "the first analysis ran in one task"
    );

    let one_shot = parse_documents(&[("day.jsonl".to_owned(), lines.clone())]);
    assert_eq!(one_shot.traces.len(), 300);
    assert_eq!(one_shot.errors.len(), 1);
    assert_eq!(downloaded_analysis(&root).await, expected_json(&one_shot));
    let location = text(&root, ".error-location");
    assert!(location.contains("day.jsonl"), "{location}");
    let line = lines[..cut].matches('\n').count() + 1;
    assert!(location.contains(&format!("line {line}")), "{location}");
}

#[wasm_bindgen_test]
async fn a_line_split_at_every_offset_reads_as_the_whole_file() {
    let (root, _app) = mount_fresh();
    settle().await;
    // Slices of one byte split every line (and every multi-byte character) at
    // every offset; one line is not UTF-8.
    let mut bytes = Vec::new();
    bytes.extend_from_slice(
        br#"{"requestId": "caf\u00e9", "mode": "dense", "candidates": [{"evidenceKey": "k1", "originalRank": 1, "score": 0.4}]}"#,
    );
    bytes.extend_from_slice("\n{\"requestId\": \"日本\", \"mode\": \"hybrid\", \"candidates\": [{\"evidenceKey\": \"ü\", \"originalRank\": 1, \"score\": 0.03}]}\n".as_bytes());
    bytes.extend_from_slice(b"{\"requestId\": \"bad \xff byte\", \"candidates\": []}\n");
    bytes.extend_from_slice(b"\r\n{\"requestId\": \"last\", \"mode\": \"dense\", \"candidates\": [{\"evidenceKey\": \"k2\", \"originalRank\": 1, \"score\": 0.9}]}");
    load_in_slices(&root, "small.jsonl", &bytes, 1, 3).await;

    let one_shot = parse_document_bytes("small.jsonl", &bytes);
    assert_eq!(one_shot.traces.len(), 3);
    assert_eq!(one_shot.errors.len(), 1);
    assert_eq!(downloaded_analysis(&root).await, expected_json(&one_shot));
    let location = text(&root, ".error-location");
    assert!(location.contains("line 3"), "{location}");
}

#[wasm_bindgen_test]
async fn the_progress_bar_appears_and_completes() {
    let (root, _app) = mount_fresh();
    settle().await;
    let lines = generated_lines(800, 5, 3);
    // Every slice in a task of its own, so that the bar can be watched between them
    // (the watch looks every 10 ms; Firefox reads 200 traces' 0.4 MB in about three
    // looks, so the file is four times that).
    set_slice_bytes(2048);
    set_task_budget_ms(0);
    pick_files(&root, &[("progress.jsonl", lines.as_bytes())]);
    let mut seen = Vec::new();
    let done = wait_until(60, || match root.query_selector("#load-bar").unwrap() {
        Some(bar) => {
            let value: f64 = bar.get_attribute("value").unwrap().parse().unwrap();
            let max: f64 = bar.get_attribute("max").unwrap().parse().unwrap();
            seen.push((value, max, text(&root, ".load-status")));
            false
        }
        None => tab_count(&root).contains(&batch_tab(800)),
    })
    .await;
    set_slice_bytes(SLICE_BYTES);
    set_task_budget_ms(TASK_BUDGET_MS);
    assert!(done, "{}", tab_count(&root));
    assert!(seen.len() > 2, "{seen:?}");
    assert!(seen.iter().all(|(_, max, _)| *max == lines.len() as f64));
    assert!(seen.windows(2).all(|w| w[0].0 <= w[1].0), "{seen:?}");
    let (value, _, status) = seen.iter().find(|(v, _, _)| *v > 0.0).unwrap();
    assert!(*value < lines.len() as f64);
    assert!(
        status.contains("traces read") || status.contains("trace read"),
        "{status}"
    );
    assert!(status.contains("s left"), "{status}");
    // Done: the bar is gone and the file is listed with what it held.
    assert!(text(&root, ".file-list").contains("800 traces"));
}

#[wasm_bindgen_test]
async fn cancel_stops_the_load_and_keeps_the_previous_batch() {
    let (root, _app) = mount_fresh();
    settle().await;
    let first = generated_lines(20, 4, 5);
    load_in_slices(&root, "first.jsonl", first.as_bytes(), SLICE_BYTES, 20).await;
    let before = downloaded_analysis(&root).await;

    let second = generated_lines(400, 6, 6);
    set_slice_bytes(1024);
    set_task_budget_ms(0);
    pick_files(&root, &[("second.jsonl", second.as_bytes())]);
    let started = wait_until(20, || {
        root.query_selector("#load-bar").unwrap().is_some()
            && text(&root, ".load-status").contains("trace")
    })
    .await;
    assert!(started);
    click(&root, "#load-cancel");
    settle().await;
    set_slice_bytes(SLICE_BYTES);
    set_task_budget_ms(TASK_BUDGET_MS);
    assert!(root.query_selector("#load-bar").unwrap().is_none());
    // Long enough for the rest of the file to have loaded, had it not stopped.
    sleep(1500).await;
    assert!(!text(&root, ".file-list").contains("second.jsonl"));
    assert!(tab_count(&root).contains(&batch_tab(20)));
    assert_eq!(downloaded_analysis(&root).await, before);
}

#[wasm_bindgen_test]
async fn a_file_that_is_not_json_is_refused_and_the_analysis_stays() {
    let (root, _app) = mount_fresh();
    settle().await;
    let tabs_before = tab_count(&root);
    let not_json = "Just some notes, not JSON.\n".repeat(20_000);
    load_in_slices(&root, "notes.txt", not_json.as_bytes(), 4096, 500).await;
    let location = text(&root, ".error-location");
    assert!(location.contains("notes.txt"), "{location}");
    assert!(location.contains("line 1"), "{location}");
    assert_eq!(tab_count(&root), tabs_before);
    assert!(text(&root, ".stale-banner").contains("last good analysis"));
}
