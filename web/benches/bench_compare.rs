//! Browser benchmark of the Compare tab: run A and run B of about 100,000 candidates
//! each (the paired generator's dense and hybrid runs), a knob moved, the time to the
//! next painted frame; and five runs at once (the many-run test, and a knob move with
//! five runs loaded). Prints figures; asserts no timings.
//!
//! Run it as `bash scripts/bench.sh browser` runs the slider benchmark, with
//! `--test bench_compare`.
#![cfg(all(target_arch = "wasm32", feature = "bench"))]

#[path = "../tests/common/mod.rs"]
mod common;

use common::*;
use ragtrace_core::{
    add_significance, case_scores, compare_golden, SignificanceOptions, DELTA_METRICS,
};
use ragtrace_core::{bootstrap_mean_intervals, paired_t_test, sign_flip_p_values};
use ragtrace_core::{evaluate_analysis, parse_cases};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const QUERIES: usize = 10_000;
const CANDIDATES_PER_TRACE: usize = 10;
const ROUNDS: usize = 21;
/// The significance tests at their goal: 1,000 cases (the paired generator writes one
/// case per third query), 6 metrics, 10,000 permutations, in at most 250 ms.
const SIGNIFICANCE_QUERIES: usize = 3_000;
const SIGNIFICANCE_GOAL_MS: f64 = 250.0;
const SIGNIFICANCE_RUNS: usize = 5;

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

/// The generated cases graded as a qrels file grades them (contract section 12): a
/// case's first expected document 3, the others 1, so nDCG@k's gains differ.
fn graded(cases: &str) -> String {
    let mut file: serde_json::Value = serde_json::from_str(cases).unwrap();
    for case in file["cases"].as_array_mut().unwrap() {
        let judgments: serde_json::Map<String, serde_json::Value> = case["expectedDocIds"]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
            .map(|(i, doc)| {
                let grade = if i == 0 { 3 } else { 1 };
                (doc.as_str().unwrap().to_owned(), grade.into())
            })
            .collect();
        case["judgments"] = judgments.into();
    }
    file.to_string()
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
    let (dense, hybrid, cases) =
        ragtrace_core::generate_paired_runs(QUERIES, CANDIDATES_PER_TRACE, 7);
    let cases = graded(&cases);
    // The core alone, for reference: what one knob move asks of it.
    let settings = ragtrace_core::Settings::default();
    let parse = |name: &str, text: &str| ragtrace_core::parse_document(name, text);
    let (batch_a, batch_b) = (parse("a", &dense), parse("b", &hybrid));
    let t = now();
    let a = ragtrace_core::analyze(&batch_a, &settings, true).unwrap();
    let analyze_a = now() - t;
    let t = now();
    let mut b = ragtrace_core::analyze(&batch_b, &settings, false).unwrap();
    let analyze_b = now() - t;
    let t = now();
    let pairing = ragtrace_core::pair_runs(&batch_a.traces, &batch_b.traces);
    let pair_ms = now() - t;
    // What a knob move asks of the core: analyse B again (A is the other tabs'
    // analysis, reanalysed anyway), compare.
    let (mut analyze_b_ms, mut reanalyze_b_ms, mut compare_ms, mut lists_ms) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut compared = None;
    for i in 0..ROUNDS {
        let settings = ragtrace_core::Settings {
            max_l2_distance: Some(if i % 2 == 0 { 0.8 } else { 1.1 }),
            ..Default::default()
        };
        let t = now();
        drop(ragtrace_core::analyze(&batch_b, &settings, false).unwrap());
        analyze_b_ms.push(now() - t);
        let before = b.accepted_lists();
        let t = now();
        b = b.reanalyze(&batch_b, &settings).unwrap();
        reanalyze_b_ms.push(now() - t);
        // What tells the page that its golden evaluation of B still holds.
        let t = now();
        let same = b.accepted_lists() == before;
        lists_ms.push(now() - t);
        assert!(same, "maxL2Distance changed no accepted list");
        let t = now();
        compared = Some(ragtrace_core::compare_paired(
            &a,
            &b,
            &pairing,
            &Default::default(),
        ));
        compare_ms.push(now() - t);
    }
    let compared = compared.unwrap();
    assert!(compared.pairs.len() > QUERIES / 2);
    // With cases, a knob move that changes an accepted list (returnN,
    // maxChunksPerDocument) also evaluates both runs (the golden deltas).
    let case_set = parse_cases("cases.json", &cases).unwrap();
    let t = now();
    let golden = compare_golden(
        &case_scores(&evaluate_analysis(&case_set, &a)),
        &case_scores(&evaluate_analysis(&case_set, &b)),
    );
    let golden_ms = now() - t;
    drop((a, b, compared, pairing, batch_a, batch_b, golden));
    console_log!(
        "bench: core: analyze A (with sweep) {analyze_a:.1} ms, analyze B {analyze_b:.1} ms (first), pair_runs (once per batch) {pair_ms:.1} ms, golden deltas of {} cases (evaluate both runs, compare_golden) {golden_ms:.1} ms",
        case_set.cases.len()
    );
    console_log!(
        "bench: core, per knob move: analyze B {}, reanalyze B {}, compare_paired {}, B's accepted lists taken and compared {}",
        summary(&analyze_b_ms),
        summary(&reanalyze_b_ms),
        summary(&compare_ms),
        summary(&lists_ms)
    );

    use_site_style();
    let (root, _app) = mount_fresh();
    settle().await;
    pick_file(&root, "#file-input", "dense.json", &dense);
    wait_for(&root, ".tabs", &format!("Batch ({QUERIES} traces)")).await;
    click(&root, "#tab-compare");
    settle().await;
    pick_file(&root, "#compare-file-input", "hybrid.json", &hybrid);
    wait_for(&root, "#compare-counts", "pairs").await;
    next_frame().await;

    let frame_interval_ms = frame_interval(ROUNDS).await;
    let idle_ms = idle_frames(ROUNDS).await;
    let (frame_ms, work_ms) = knob_rounds(&root, MAX_L2, ROUNDS, None).await;
    let floor = median(idle_ms);
    let frame = median(frame_ms.clone());
    let candidates = format!(
        "{} + {} candidates",
        QUERIES * CANDIDATES_PER_TRACE,
        (QUERIES - QUERIES / 10) * CANDIDATES_PER_TRACE
    );
    console_log!(
        "bench: compare tab, {candidates}: maxL2Distance input -> next painted frame {} = {:.2} frames of {frame_interval_ms:.1} ms (goal: at most 2) = {:.2}x the floor ({floor:.1} ms)",
        summary(&frame_ms),
        frame / frame_interval_ms,
        frame / floor
    );
    console_log!(
        "bench: compare tab: maxL2Distance input -> page updated (core and every effect, before the frame) {}",
        summary(&work_ms)
    );

    // With the cases: a maxL2Distance move changes no accepted list, so neither run is
    // evaluated again and the golden deltas and their significance stay; a returnN
    // move evaluates both runs, and the significance follows after the paint.
    click(&root, "#tab-golden");
    settle().await;
    pick_file(&root, "#golden-file-input", "cases.json", &cases);
    wait_for(&root, "#golden-source", "cases").await;
    click(&root, "#tab-compare");
    wait_for(&root, "#compare-metrics", "hit").await;
    let case_count = case_set.cases.len();
    assert!(
        wait_until(60, || no_pending(&root)).await,
        "the significance stayed pending"
    );
    next_frame().await;
    let mut tested = Vec::new();
    let (frame_ms, _) = knob_rounds(&root, MAX_L2, ROUNDS, Some(&mut tested)).await;
    let pending_at_paint = tested.iter().filter(|(pending, _)| *pending).count();
    console_log!(
        "bench: compare tab, {candidates}, {case_count} cases: maxL2Distance input -> next painted frame {} = {:.2} frames (goal: at most 2); significance pending in the first painted frame in {pending_at_paint} of {} moves",
        summary(&frame_ms),
        median(frame_ms.clone()) / frame_interval_ms,
        tested.len()
    );
    let mut tested = Vec::new();
    let (frame_ms, _) = knob_rounds(&root, RETURN_N, RETURN_N_ROUNDS, Some(&mut tested)).await;
    let pending_at_paint = tested.iter().filter(|(pending, _)| *pending).count();
    let tested_ms: Vec<f64> = tested.iter().map(|(_, ms)| *ms).collect();
    console_log!(
        "bench: compare tab, {case_count} cases: returnN (both runs evaluated again) input -> next painted frame {} = {:.2} frames; significance pending in the first painted frame in {pending_at_paint} of {} moves; input -> significance painted {}",
        summary(&frame_ms),
        median(frame_ms.clone()) / frame_interval_ms,
        tested.len(),
        summary(&tested_ms)
    );
}

fn no_pending(root: &web_sys::Element) -> bool {
    root.query_selector("#compare-metrics .pending")
        .unwrap()
        .is_none()
}

/// A knob: its id, the two values it moves between, the event that applies a value.
type Knob = (&'static str, [&'static str; 2], &'static str);
const MAX_L2: Knob = ("maxL2Distance", ["0.8", "1.1"], "input");
const RETURN_N: Knob = ("returnN", ["4", "5"], "change");
/// returnN moves evaluate both runs again: fewer of them.
const RETURN_N_ROUNDS: usize = 7;

/// Moves the knob `rounds` times; the times from the input to the next painted
/// frame, and (without `tested`) to the page updated (every effect run, before the
/// frame). With `tested`, also waits after each move until the significance is shown,
/// and records (was it pending in that first frame, input -> significance painted).
async fn knob_rounds(
    root: &web_sys::Element,
    (knob, values, event): Knob,
    rounds: usize,
    mut tested: Option<&mut Vec<(bool, f64)>>,
) -> (Vec<f64>, Vec<f64>) {
    let (mut frame_ms, mut work_ms) = (Vec::new(), Vec::new());
    for i in 0..rounds {
        let value = values[i % 2];
        let t = now();
        set_input(root, &format!("#knob-{knob}"), value, event);
        if tested.is_none() {
            // Not with the significance: draining first would let the page ask for its
            // animation frame before this test does, and its after-paint task (the
            // significance) would then run before this frame's measurement ends.
            drain_microtasks().await;
            work_ms.push(now() - t);
        }
        next_frame().await;
        // What the animation frame paints: the page updated in microtasks before it.
        let pending = !no_pending(root);
        sleep(0).await;
        frame_ms.push(now() - t);
        if let Some(tested) = tested.as_deref_mut() {
            while !no_pending(root) {
                sleep(0).await;
            }
            next_frame().await;
            tested.push((pending, now() - t));
        }
    }
    (frame_ms, work_ms)
}

/// The core's significance tests (what the page computes after the paint) on 1,000
/// generated cases, in this page's wasm; and its two resampling stages alone.
#[wasm_bindgen_test]
fn significance_of_1000_cases() {
    let (dense, hybrid, cases_text) =
        ragtrace_core::generate_paired_runs(SIGNIFICANCE_QUERIES, CANDIDATES_PER_TRACE, 7);
    let cases_text = graded(&cases_text);
    let cases = parse_cases("cases.json", &cases_text).unwrap();
    let settings = ragtrace_core::Settings::default();
    let scores = |name: &str, text: &str| {
        let batch = ragtrace_core::parse_document(name, text);
        let analysis = ragtrace_core::analyze(&batch, &settings, false).unwrap();
        case_scores(&evaluate_analysis(&cases, &analysis))
    };
    let (a, b) = (scores("a", &dense), scores("b", &hybrid));
    let t = now();
    let golden = compare_golden(&a, &b);
    let deltas_ms = now() - t;
    let options = SignificanceOptions::default();
    let mut whole_ms = Vec::new();
    for _ in 0..SIGNIFICANCE_RUNS {
        let mut tested = golden.clone();
        let t = now();
        add_significance(&mut tested, &options);
        whole_ms.push(now() - t);
        assert!(tested.metrics.iter().all(|m| m.significance.is_some()));
    }
    let diffs: Vec<Vec<f64>> = (0..DELTA_METRICS.len())
        .map(|m| golden.cases.iter().map(|c| c.metrics[m].delta).collect())
        .collect();
    let slices: Vec<&[f64]> = diffs.iter().map(Vec::as_slice).collect();
    let (mut permutation_ms, mut bootstrap_ms, mut t_test_ms) =
        (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..SIGNIFICANCE_RUNS {
        let t = now();
        sign_flip_p_values(&slices, options.permutations, options.permutation_seed);
        permutation_ms.push(now() - t);
        let t = now();
        bootstrap_mean_intervals(
            &slices,
            options.resamples,
            options.confidence,
            options.bootstrap_seed,
        );
        bootstrap_ms.push(now() - t);
        let t = now();
        for d in &slices {
            paired_t_test(d);
        }
        t_test_ms.push(now() - t);
    }
    let whole = median(whole_ms.clone());
    console_log!(
        "bench: significance of {} cases x {} metrics, {} permutations + {} bootstrap resamples (add_significance): {} = {:.2}x the 250 ms goal",
        golden.cases.len(),
        DELTA_METRICS.len(),
        options.permutations,
        options.resamples,
        summary(&whole_ms),
        whole / SIGNIFICANCE_GOAL_MS
    );
    console_log!(
        "bench: of which sign-flip permutation test {}, bootstrap interval {}, t-tests {}; golden deltas without significance (compare_golden) {deltas_ms:.1} ms",
        summary(&permutation_ms),
        summary(&bootstrap_ms),
        summary(&t_test_ms)
    );
}

/// Five runs of the many-run generator: 1,010 queries, of which the last run misses one
/// in 97, so 1,000 cases every run answered.
const MANY_RUNS: usize = 5;
const MANY_QUERIES: usize = 1_010;
const MANY_GOAL_MS: f64 = 250.0;

/// The many-run test (randomised Tukey HSD and bootstrap intervals, what the Compare
/// tab runs after the paint with three or more runs), in this page's wasm.
#[wasm_bindgen_test]
fn many_run_test_of_5_runs_and_1000_cases() {
    let (runs, cases_text) =
        ragtrace_core::generate_many_runs(MANY_RUNS, MANY_QUERIES, CANDIDATES_PER_TRACE, 7);
    let cases_text = graded(&cases_text);
    let cases = parse_cases("cases.json", &cases_text).unwrap();
    let settings = ragtrace_core::Settings::default();
    let names: Vec<String> = (1..=MANY_RUNS).map(|r| format!("run-{r}")).collect();
    let reports: Vec<_> = runs
        .iter()
        .zip(&names)
        .map(|(text, name)| {
            let batch = ragtrace_core::parse_document(name, text);
            let analysis = ragtrace_core::analyze(&batch, &settings, false).unwrap();
            evaluate_analysis(&cases, &analysis)
        })
        .collect();
    let named: Vec<(&str, &ragtrace_core::GoldenReport)> =
        names.iter().map(String::as_str).zip(&reports).collect();
    let t = now();
    let table = ragtrace_core::ManyRunTable::from_reports(&named).unwrap();
    let means = ragtrace_core::compare_many(&table, None, 0);
    let means_ms = now() - t;
    assert_eq!(table.case_ids.len(), 1_000);
    let options = SignificanceOptions::default();
    let mut whole_ms = Vec::new();
    let mut sliced_ms = Vec::new();
    let mut tukey_ms = Vec::new();
    for _ in 0..SIGNIFICANCE_RUNS {
        // The permutations come first: the steps they take are the Tukey test's share.
        let mut test = ragtrace_core::ManyRunTest::new(&table, &options);
        let t = now();
        test.advance(options.permutations);
        tukey_ms.push(now() - t);
        drop(test);
        let t = now();
        let tested = ragtrace_core::ManyRunTest::new(&table, &options).finish();
        whole_ms.push(now() - t);
        assert_eq!(tested.p.len(), DELTA_METRICS.len());
        // As the page advances it: a few steps between looks at the clock.
        let t = now();
        let mut test = ragtrace_core::ManyRunTest::new(&table, &options);
        while !test.advance(32) {}
        drop(test.finish());
        sliced_ms.push(now() - t);
    }
    let whole = median(whole_ms.clone());
    console_log!(
        "bench: many runs {MANY_RUNS} x {} cases x {} metrics, {} permutations + {} bootstrap resamples (ManyRunTest): {} = {:.2} x the {MANY_GOAL_MS:.0} ms goal",
        table.case_ids.len(),
        DELTA_METRICS.len(),
        options.permutations,
        options.resamples,
        summary(&whole_ms),
        whole / MANY_GOAL_MS
    );
    console_log!(
        "bench: of which in steps of 32 (the page's slices, without the pauses between them) {}; the table and its means without the test (from_reports, compare_many) {means_ms:.1} ms",
        summary(&sliced_ms)
    );
    console_log!(
        "bench: of which the randomised Tukey HSD alone (its {} permutations, the bootstrap's resamples the rest) {}",
        options.permutations,
        summary(&tukey_ms)
    );
    drop(means);
}

fn many_pending(root: &web_sys::Element) -> bool {
    root.query_selector("#compare-many-table .pending")
        .unwrap()
        .is_some()
}

/// Five runs loaded in the Compare tab with their cases: a knob move that changes the
/// accepted lists (returnN) re-analyses and re-evaluates every run and shows the new
/// means in the next frame, with the test pending in it; the test follows in slices.
#[wasm_bindgen_test]
async fn knob_to_next_frame_with_5_runs() {
    let (runs, cases) =
        ragtrace_core::generate_many_runs(MANY_RUNS, MANY_QUERIES, CANDIDATES_PER_TRACE, 7);
    let cases = graded(&cases);
    use_site_style();
    let (root, _app) = mount_fresh();
    settle().await;
    pick_file(&root, "#file-input", "run-1.json", &runs[0]);
    wait_for(&root, ".tabs", &format!("Batch ({MANY_QUERIES} traces)")).await;
    click(&root, "#tab-golden");
    settle().await;
    pick_file(&root, "#golden-file-input", "cases.json", &cases);
    wait_for(&root, "#golden-source", "cases").await;
    click(&root, "#tab-compare");
    settle().await;
    pick_file(&root, "#compare-file-input", "run-2.json", &runs[1]);
    wait_for(&root, "#compare-counts", "pairs").await;
    for (r, text) in runs.iter().enumerate().skip(2) {
        pick_file(
            &root,
            "#compare-run-input",
            &format!("run-{}.json", r + 1),
            text,
        );
        wait_for(&root, "#compare-run-list", &format!("run-{}.json", r + 1)).await;
    }
    wait_for(&root, "#compare-many-counts", "1000 cases in common").await;
    assert!(
        wait_until(60, || !many_pending(&root)).await,
        "the many-run test stayed pending"
    );
    next_frame().await;
    let frame_interval_ms = frame_interval(ROUNDS).await;
    let (mut frame_ms, mut tested_ms, mut pending_at_paint) = (Vec::new(), Vec::new(), 0);
    for i in 0..RETURN_N_ROUNDS {
        let value = ["4", "5"][i % 2];
        let t = now();
        set_input(&root, "#knob-returnN", value, "change");
        next_frame().await;
        let pending = many_pending(&root);
        sleep(0).await;
        frame_ms.push(now() - t);
        pending_at_paint += usize::from(pending);
        while many_pending(&root) {
            sleep(0).await;
        }
        next_frame().await;
        tested_ms.push(now() - t);
    }
    console_log!(
        "bench: compare tab, {MANY_RUNS} runs x {MANY_QUERIES} traces of {CANDIDATES_PER_TRACE} candidates, 1000 cases: returnN input -> next painted frame {} = {:.2} frames of {frame_interval_ms:.1} ms; test pending in that frame in {pending_at_paint} of {RETURN_N_ROUNDS} moves; input -> letters and intervals painted {}",
        summary(&frame_ms),
        median(frame_ms.clone()) / frame_interval_ms,
        summary(&tested_ms)
    );
}
