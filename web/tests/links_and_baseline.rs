//! Links and baselines, driven through the real `App`:
//! a link whose settings are partly invalid, and a baseline that must describe
//! the same batch as the analysis it is compared with.
#![cfg(target_arch = "wasm32")]

mod common;

use common::*;
use ragtrace_core::parse_documents;
use ragtrace_core::{analyze, Analysis, Settings};
use ragtrace_web::samples::Sample;
use ragtrace_web::SAMPLE_LOOKUP_RESULTS;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn sample_under(settings: &Settings) -> Analysis {
    let docs = [(
        "generated-500.json".to_owned(),
        Sample::Generated.text().to_string(),
    )];
    analyze(&parse_documents(&docs), settings, false).unwrap()
}

fn knob_value(root: &web_sys::Element, selector: &str) -> String {
    let input: web_sys::HtmlInputElement = find(root, selector).unchecked_into();
    input.value()
}

#[wasm_bindgen_test]
async fn a_link_with_invalid_settings_applies_its_valid_part_and_says_what_it_ignored() {
    let (root, _app) = open_link("#maxL2Distance=-1&returnN=0&maxChunksPerDocument=1");
    settle().await;
    let want = sample_under(&Settings {
        max_chunks_per_document: Some(1),
        ..Settings::default()
    });
    let tabs = text(&root, ".tabs");
    assert!(
        tabs.contains(&format!("Batch ({} traces)", want.traces.len())),
        "{tabs}"
    );
    for level in ragtrace_web::format::LEVELS {
        let n = want.summary.all.levels.get(&level).copied().unwrap_or(0);
        assert_eq!(shown_level_count(&root, level.as_str()), n, "{level:?}");
    }
    // The knobs show what is in effect: the defaults for the ignored keys.
    assert_eq!(knob_value(&root, "#knob-maxL2Distance"), "1");
    assert_eq!(knob_value(&root, "#knob-returnN"), "5");
    assert_eq!(knob_value(&root, "#knob-maxChunksPerDocument"), "1");
    assert!(root.query_selector(".error-panel").unwrap().is_none());
    // Which keys were ignored, and why.
    let notice = text(&root, ".notice");
    assert!(notice.contains("maxL2Distance"), "{notice}");
    assert!(notice.contains("must be > 0"), "{notice}");
    assert!(notice.contains("returnN"), "{notice}");
    assert!(notice.contains("integer >= 1"), "{notice}");
    assert!(!notice.contains("maxChunksPerDocument"), "{notice}");
    // The link the page writes back holds what is in effect.
    after_paint().await;
    settle().await;
    let hash = window().location().hash().unwrap();
    assert_eq!(hash, "#maxChunksPerDocument=1");
}

/// A drag writes the link once its frames leave the browser idle, with the value it
/// ended on: moves made before the link is written replace the one waiting, also a
/// move back to the value the link already holds.
#[wasm_bindgen_test]
async fn a_drag_leaves_the_link_of_the_value_it_ended_on() {
    let (root, _app) = open_link("#maxL2Distance=0.9");
    settle().await;
    after_paint().await;
    assert_eq!(window().location().hash().unwrap(), "#maxL2Distance=0.9");
    // Moves within one frame, as a fast drag makes them: the page updates for each
    // (its effects run as microtasks) with no frame painted in between.
    for value in ["0.8", "0.7", "0.6"] {
        set_input(&root, "#knob-maxL2Distance", value, "input");
        drain_microtasks().await;
        assert_eq!(knob_value(&root, "#knob-maxL2Distance"), value);
    }
    after_paint().await;
    settle().await;
    assert_eq!(window().location().hash().unwrap(), "#maxL2Distance=0.6");
    // Away and back before the link is written: the link keeps the value shown.
    next_frame().await;
    set_input(&root, "#knob-maxL2Distance", "0.5", "input");
    drain_microtasks().await;
    set_input(&root, "#knob-maxL2Distance", "0.6", "input");
    drain_microtasks().await;
    after_paint().await;
    settle().await;
    assert_eq!(knob_value(&root, "#knob-maxL2Distance"), "0.6");
    assert_eq!(window().location().hash().unwrap(), "#maxL2Distance=0.6");
}

/// The baseline column and the current column of the "all" scope, summed over the levels.
fn baseline_totals(root: &web_sys::Element) -> (usize, usize) {
    let mut totals = (0, 0);
    for row in find_all(root, "#baseline-table tbody tr") {
        let cells = find_all(&row, "td");
        let count = |i: usize| -> usize {
            cells[i]
                .text_content()
                .unwrap_or_default()
                .trim()
                .parse()
                .unwrap()
        };
        totals.0 += count(0);
        totals.1 += count(1);
    }
    totals
}

#[wasm_bindgen_test]
async fn a_baseline_is_compared_only_with_an_analysis_of_its_own_batch() {
    let (root, _app) = mount_fresh();
    settle().await;
    click(&root, "#pin-baseline");
    settle().await;
    // Invalid settings: the page keeps showing the last valid analysis...
    set_input(&root, "#knob-maxL2Distance-entry", "-1", "change");
    settle().await;
    assert!(text(&root, ".error-panel").contains("maxL2Distance"));
    // ...of the sample, while the batch becomes two other traces.
    paste(&root, SAMPLE_LOOKUP_RESULTS).await;
    settle().await;
    let traces = sample_under(&Settings::default()).traces.len();
    let tabs = text(&root, ".tabs");
    assert!(tabs.contains(&format!("Batch ({traces} traces)")), "{tabs}");
    // The baseline (the pinned defaults) is of the batch shown, under the same
    // settings as the shown analysis: the same counts, and no trace changed level.
    assert_eq!(baseline_totals(&root), (traces, traces));
    let heading = text(&root, ".baseline h3");
    assert!(heading.starts_with("0 "), "{heading}");
}
