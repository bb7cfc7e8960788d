//! The score floors in the real `App` (contract section 10.2), driven as a user would:
//! the `minQuality` knob cuts candidates and empties traces, its label speaks the
//! declared score kind, and the floor sweeps of the Golden and Batch tabs.
//!
//! The literal values are the CLI's on the same input: the page's opening batch is
//! `generate_batch(500, 8, 42)` (`generated-500.json`), and
//! `ragtrace analyze --set minQuality=0.5 generated-500.json` puts 67 traces at
//! NO_MATCH with 1,729 accepted blocks (3.458 per trace); at 0.7, 146 with 985.
//! `ragtrace analyze --set minQuality=0.5 samples/dense-trace.json` turns 4 of its 7
//! candidates `below_floor` (qualities 0.358, 0.225, 0 and 0 under a floor of 0.5),
//! leaving 2 accepted. `ragtrace eval --cases samples/golden-cases-sample.json
//! samples/dense-trace.json samples/hybrid-legacy-trace.json samples/lookup-result.jsonl`
//! writes `floorSweep.suggested` = `{"minQuality": 0.22, "relativeQuality": 0.34}`.
#![cfg(target_arch = "wasm32")]

mod common;

use common::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn choose(root: &web_sys::Element, selector: &str, value: &str) {
    let select = find(root, selector);
    js_sys::Reflect::set(&select, &"value".into(), &value.into()).unwrap();
    fire(&select, "change");
}

fn value_of(root: &web_sys::Element, selector: &str) -> String {
    find(root, selector)
        .unchecked_into::<web_sys::HtmlInputElement>()
        .value()
}

fn stage_count(root: &web_sys::Element, stage: &str) -> usize {
    text(root, &format!("[data-stage=\"{stage}\"] .stage-count"))
        .trim()
        .parse()
        .unwrap()
}

fn marker_at(root: &web_sys::Element, scope: &str, marker: &str) -> String {
    find(root, &format!("{scope} line[data-marker=\"{marker}\"]"))
        .get_attribute("data-at")
        .unwrap_or_default()
}

fn has(root: &web_sys::Element, selector: &str) -> bool {
    root.query_selector(selector).unwrap().is_some()
}

#[wasm_bindgen_test]
async fn min_quality_cuts_candidates_and_changes_the_trace_list() {
    let (root, _app) = mount_fresh();
    settle().await;
    assert_eq!(shown_level_count(&root, "NO_MATCH"), 0);
    assert_eq!(shown_level_count(&root, "LOW_RELEVANCE"), 67);

    set_input(&root, "#knob-minQuality", "0.5", "input");
    settle().await;
    // The 67 LOW_RELEVANCE traces had no candidate reaching 0.5: they are NO_MATCH now.
    assert_eq!(shown_level_count(&root, "NO_MATCH"), 67);
    assert_eq!(shown_level_count(&root, "LOW_RELEVANCE"), 0);
    choose(&root, "#filter-level", "NO_MATCH");
    settle().await;
    assert_eq!(text(&root, "#trace-list-count"), "67 of 500");

    set_input(&root, "#knob-minQuality", "0.7", "input");
    settle().await;
    assert_eq!(shown_level_count(&root, "NO_MATCH"), 146);
    assert_eq!(text(&root, "#trace-list-count"), "146 of 500");
}

#[wasm_bindgen_test]
async fn min_quality_turns_one_trace_s_candidates_below_the_floor() {
    let (root, _app) = mount_fresh();
    settle().await;
    click(&root, "button[data-sample=\"dense\"]");
    settle().await;
    assert_eq!(stage_count(&root, "accepted"), 4);
    assert!(!has(&root, "[data-stage=\"belowFloor\"]"));
    set_input(&root, "#knob-minQuality", "0.5", "input");
    settle().await;
    assert_eq!(stage_count(&root, "belowFloor"), 4);
    assert_eq!(stage_count(&root, "accepted"), 2);
    let statuses = text(&root, ".block-table");
    assert!(statuses.contains("below_floor"), "{statuses}");
}

#[wasm_bindgen_test]
async fn the_floor_knobs_speak_the_declared_score_kind() {
    let (root, _app) = mount_fresh();
    settle().await;
    let meaning = |root: &web_sys::Element| text(root, "#knob-minQuality-meaning");
    set_input(&root, "#knob-minQuality", "0.4", "input");
    settle().await;
    // l2: the score is the distance the quality reads; nothing to translate.
    assert_eq!(meaning(&root), "");
    choose(&root, "#knob-scoreKind", "cosineSimilarity");
    settle().await;
    // maxL2Distance 1 (the default): quality >= 0.4 is d <= 0.6, cos >= 1 - 0.36 / 2.
    assert_eq!(meaning(&root), "0.40 = cosine similarity >= 0.82");
    assert_eq!(
        text(&root, "#knob-maxL2Distance-meaning"),
        "1.00 = cosine similarity 0.50"
    );
    set_input(&root, "#knob-maxL2Distance", "1.2", "input");
    settle().await;
    // d <= 0.6 x 1.2 = 0.72: cos >= 1 - 0.5184 / 2 = 0.7408.
    assert_eq!(meaning(&root), "0.40 = cosine similarity >= 0.74");
    set_input(&root, "#knob-maxL2Distance", "1", "input");
    settle().await;
    // A distance kind: at most.
    choose(&root, "#knob-scoreKind", "cosineDistance");
    settle().await;
    assert_eq!(meaning(&root), "0.40 = cosine distance <= 0.18");

    let relative = |root: &web_sys::Element| text(root, "#knob-relativeQuality-meaning");
    assert_eq!(relative(&root), "");
    set_input(&root, "#knob-relativeQuality", "0.5", "input");
    settle().await;
    assert_eq!(
        relative(&root),
        "0.50 x each trace's best quality: a candidate below it is cut"
    );
}

#[wasm_bindgen_test]
async fn the_golden_floor_sweep_marks_the_floor_and_tries_the_suggestion() {
    let (root, _app) = mount_fresh();
    settle().await;
    for sample in ["dense", "hybrid-legacy", "lookup"] {
        click(&root, &format!("button[data-sample=\"{sample}\"]"));
        settle().await;
    }
    click(&root, "#tab-golden");
    settle().await;
    click(&root, "#golden-sample");
    settle().await;
    assert!(
        wait_until(10, || has(&root, "#floor-sweep-try")).await,
        "the sweep did not show"
    );
    let scope = "#floor-sweep";
    for line in ["recall", "blocks"] {
        let points = find(&root, &format!("{scope} polyline[data-line=\"{line}\"]"))
            .get_attribute("points")
            .unwrap_or_default();
        assert_eq!(points.split(' ').count(), 101, "{line}");
    }
    // Mean recall@k at a floor of 0 is the report's: 0.7 (3.5 of 5 cases).
    let recall = find(&root, &format!("{scope} polyline[data-line=\"recall\"]"))
        .get_attribute("points")
        .unwrap_or_default();
    assert!(recall.starts_with("0,0.7 "), "{recall}");
    assert_eq!(marker_at(&root, scope, "current"), "0");
    assert_eq!(marker_at(&root, scope, "suggested"), "0.22");
    assert_eq!(text(&root, "#floor-sweep-try"), "Try minQuality 0.22");

    // The other floor's sweep (minQuality still 0).
    choose_radio(&root, "floor-sweep-kind", "relativeQuality");
    settle().await;
    assert_eq!(marker_at(&root, scope, "suggested"), "0.34");
    assert_eq!(text(&root, "#floor-sweep-try"), "Try relativeQuality 0.34");
    choose_radio(&root, "floor-sweep-kind", "minQuality");
    settle().await;

    click(&root, "#floor-sweep-try");
    settle().await;
    assert_eq!(value_of(&root, "#knob-minQuality"), "0.22");
    assert_eq!(value_of(&root, "#knob-minQuality-entry"), "0.22");
    assert_eq!(marker_at(&root, scope, "current"), "0.22");

    // The sweep waits for the paint: in the knob's own update it is pending.
    set_input(&root, "#knob-minQuality", "0.3", "input");
    drain_microtasks().await;
    assert!(has(&root, "#floor-sweep-pending"));
    after_paint().await;
    assert!(
        wait_until(10, || !has(&root, "#floor-sweep-pending")).await,
        "the sweep did not follow the knob"
    );
    assert_eq!(marker_at(&root, scope, "current"), "0.3");
    // The minQuality sweep holds relativeQuality, which did not move: the same suggestion.
    assert_eq!(marker_at(&root, scope, "suggested"), "0.22");
}

fn choose_radio(root: &web_sys::Element, name: &str, value: &str) {
    let radio = find(root, &format!("input[name=\"{name}\"][value=\"{value}\"]"));
    radio
        .clone()
        .unchecked_into::<web_sys::HtmlInputElement>()
        .set_checked(true);
    fire(&radio, "change");
}

#[wasm_bindgen_test]
async fn the_batch_floor_sweep_counts_what_a_floor_cuts_over_every_trace() {
    let (root, _app) = mount_fresh();
    settle().await;
    // Closed, nothing of it is computed or drawn.
    assert!(!has(&root, "#batch-floor-sweep"));
    set_input(&root, "#knob-minQuality", "0.5", "input");
    settle().await;
    let details = find(&root, "#batch-floors");
    details.set_attribute("open", "").unwrap();
    assert!(
        wait_until(10, || has(&root, "#batch-floor-sweep")
            && !has(&root, "#batch-floor-pending"))
        .await,
        "the batch sweep did not show"
    );
    assert_eq!(
        text(&root, "#batch-floor-at"),
        "At minQuality 0.5: 3.458 blocks per trace, 67 NO_MATCH."
    );
    assert_eq!(marker_at(&root, "#batch-floor-sweep", "current"), "0.5");
    // NO_MATCH as a share of the 500 traces: 67 / 500 at 0.5.
    let no_match = find(&root, "#batch-floor-sweep polyline[data-line=\"no-match\"]")
        .get_attribute("points")
        .unwrap_or_default();
    assert!(no_match.starts_with("0,0 "), "{no_match}");
    assert!(no_match.contains(" 0.5,0.134 "), "{no_match}");

    set_input(&root, "#knob-minQuality", "0.7", "input");
    settle().await;
    assert!(
        wait_until(10, || text(&root, "#batch-floor-at")
            == "At minQuality 0.7: 1.97 blocks per trace, 146 NO_MATCH.")
        .await,
        "{}",
        text(&root, "#batch-floor-at")
    );
}
