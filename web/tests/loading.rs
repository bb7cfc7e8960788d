//! Loading documents: each is parsed once, when added; typing re-parses only
//! the pasted text. Expected values come from `ragtrace_core` itself.
#![cfg(target_arch = "wasm32")]

mod common;

use common::*;
use ragtrace_core::input::parse_documents;
use ragtrace_core::{analyze, Settings};
use ragtrace_web::{parse_count, SAMPLE_DENSE_TRACE};
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
    let first = ragtrace_core::testdata::generate_batch(40, 5, 1);
    let second = ragtrace_core::testdata::generate_batch(30, 5, 2);
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
