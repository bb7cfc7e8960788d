//! The Compare tab with more than two runs, driven as a user would. Expected values come
//! from the core's `compare_many_batches` (what the CLI, the JS API and Python return)
//! on the same inputs: the page must show what the core computes.
#![cfg(target_arch = "wasm32")]

mod common;

use common::*;
use ragtrace_core::{
    analyze, compare_many_batches, compare_runs, generate_many_runs, parse_cases, parse_document,
    CompareOptions, ManyRunComparison, ManyRunOptions, Settings, DELTA_METRICS,
};
use ragtrace_web::format::number;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// The page's built-in sample runs (five runs of 200 queries, seed 11) and cases.
fn sample() -> (Vec<String>, String) {
    generate_many_runs(5, 200, 8, 11)
}

fn run_name(r: usize) -> String {
    format!("sample-run-{}.json", r + 1)
}

/// The core's comparison of the sample runs under `settings`.
fn expected(settings: &Settings) -> ManyRunComparison {
    let (runs, cases) = sample();
    let batches: Vec<_> = runs
        .iter()
        .enumerate()
        .map(|(r, text)| parse_document(&run_name(r), text))
        .collect();
    let names: Vec<String> = (0..runs.len()).map(run_name).collect();
    let named: Vec<(&str, &ragtrace_core::ParsedBatch)> =
        names.iter().map(String::as_str).zip(&batches).collect();
    let cases = parse_cases("cases.json", &cases).unwrap();
    compare_many_batches(&named, settings, &cases, &ManyRunOptions::default()).unwrap()
}

/// The core's refusal of these runs under the default settings: what the page must say.
fn refusal(
    named: &[(&str, &ragtrace_core::ParsedBatch)],
    cases: &ragtrace_core::CaseSet,
) -> String {
    compare_many_batches(
        named,
        &Settings::default(),
        cases,
        &ManyRunOptions::default(),
    )
    .unwrap_err()
    .message
}

fn cell_text(root: &web_sys::Element, run: usize, metric: &str, part: &str) -> String {
    text(
        root,
        &format!(
            "#compare-many-table .trow[data-run=\"{run}\"] [data-metric=\"{metric}\"] .{part}"
        ),
    )
}

fn pending(root: &web_sys::Element) -> bool {
    root.query_selector("#compare-many-table .pending")
        .unwrap()
        .is_some()
}

/// Every cell's mean; with `tested`, also its letters and interval.
fn assert_table_shows(root: &web_sys::Element, c: &ManyRunComparison, tested: bool) {
    for (m, metric) in c.metrics.iter().enumerate() {
        assert_eq!(metric.metric, DELTA_METRICS[m]);
        for r in 0..c.runs.len() {
            assert_eq!(
                cell_text(root, r, metric.metric, "mean"),
                number(metric.means[r]),
                "mean of {} on {}",
                c.runs[r],
                metric.metric
            );
            if tested {
                assert_eq!(
                    cell_text(root, r, metric.metric, "letters"),
                    metric.letters[r],
                    "letters of {} on {}",
                    c.runs[r],
                    metric.metric
                );
                let ci = metric.ci.as_ref().unwrap()[r];
                assert_eq!(
                    cell_text(root, r, metric.metric, "ci"),
                    format!("[{}, {}]", number(ci[0]), number(ci[1]))
                );
            }
        }
    }
    let counts = text(root, "#compare-many-counts");
    assert!(
        counts.starts_with(&format!("{} cases in common", c.cases.common)),
        "{counts}"
    );
    let notes: Vec<String> = find_all(root, "#compare-many-notes li")
        .iter()
        .map(|li| li.text_content().unwrap_or_default())
        .collect();
    assert_eq!(notes, c.notes);
}

/// The runs in the table's order.
fn row_order(root: &web_sys::Element) -> Vec<usize> {
    find_all(root, "#compare-many-table .trow[data-run]")
        .iter()
        .map(|row| row.get_attribute("data-run").unwrap().parse().unwrap())
        .collect()
}

async fn wait_for_the_test(root: &web_sys::Element) {
    assert!(
        wait_until(170, || !pending(root)).await,
        "the test stayed pending"
    );
    settle().await;
}

/// The sample runs, the table painted with the test pending, then the core's letters
/// and intervals once the test has run after the paint.
async fn open_sample_runs() -> (web_sys::HtmlElement, Box<dyn std::any::Any>) {
    let (root, app) = mount_fresh();
    settle().await;
    click(&root, "#tab-compare");
    settle().await;
    click(&root, "#compare-many-sample");
    drain_microtasks().await;
    next_frame().await;
    // What the first frame paints: the means, the test pending.
    assert!(
        pending(&root),
        "the test was not pending at the first paint"
    );
    (root, app)
}

#[wasm_bindgen_test]
async fn the_sample_runs_show_the_cores_means_letters_and_intervals() {
    let (root, _app) = open_sample_runs().await;
    let c = expected(&Settings::default());
    assert_eq!(c.runs.len(), 5);
    assert!(
        !c.partial_cases.is_empty(),
        "the sample must leave cases out"
    );
    assert_table_shows(&root, &c, false);
    wait_for_the_test(&root).await;
    assert_table_shows(&root, &c, true);
    assert!(
        c.metrics
            .iter()
            .any(|m| m.letters.iter().any(|l| l.len() > 1))
            || c.metrics.iter().any(|m| m
                .letters
                .iter()
                .collect::<std::collections::HashSet<_>>()
                .len()
                > 1),
        "the sample's runs must be told apart on some metric"
    );
    let list: Vec<String> = find_all(&root, "#compare-run-list .run-name")
        .iter()
        .map(|e| e.text_content().unwrap_or_default())
        .collect();
    assert_eq!(list, c.runs);
}

#[wasm_bindgen_test]
async fn a_metric_header_sorts_the_runs_by_its_mean() {
    let (root, _app) = open_sample_runs().await;
    let c = expected(&Settings::default());
    assert_eq!(row_order(&root), vec![0, 1, 2, 3, 4]);
    let ndcg = &c.metrics[4];
    let mut best_first: Vec<usize> = (0..5).collect();
    best_first.sort_by(|&i, &j| ndcg.means[j].total_cmp(&ndcg.means[i]));
    assert_ne!(best_first, vec![0, 1, 2, 3, 4], "the sample must reorder");
    click(&root, "#compare-many-table button.sort[data-sort=\"ndcg\"]");
    settle().await;
    assert_eq!(row_order(&root), best_first);
    // A second click reverses.
    click(&root, "#compare-many-table button.sort[data-sort=\"ndcg\"]");
    settle().await;
    best_first.reverse();
    assert_eq!(row_order(&root), best_first);
}

#[wasm_bindgen_test]
async fn two_picked_runs_open_as_the_pair() {
    let (root, _app) = open_sample_runs().await;
    let (runs, _) = sample();
    let settings = Settings::default();
    let analysed =
        |r: usize| analyze(&parse_document(&run_name(r), &runs[r]), &settings, false).unwrap();
    // Run 4 as A, run 2 as B: the order they are picked in.
    for run in [3, 1] {
        click(&root, &format!(".pick-run[data-run=\"{run}\"]"));
        settle().await;
    }
    let (pairing, c) = compare_runs(&analysed(3), &analysed(1), &CompareOptions::default());
    assert_eq!(
        text(&root, "#compare-summary-title"),
        format!("{} → {}", run_name(3), run_name(1))
    );
    let counts = text(&root, "#compare-counts");
    assert!(
        counts.starts_with(&format!("{} pairs", c.pairs.len())),
        "{counts}"
    );
    assert!(
        counts.contains(&format!(
            "unpaired: {} in A, {} in B",
            pairing.unpaired_a.len(),
            pairing.unpaired_b.len()
        )),
        "{counts}"
    );
    // The first row of the pair table is run 4's first trace beside run 2's.
    let first = find(&root, ".ptable .vtable-window .trow");
    let index: usize = first.get_attribute("data-pair").unwrap().parse().unwrap();
    let p = &c.pairs[index];
    assert_eq!(
        find(&first, "[data-col=\"levels\"]")
            .text_content()
            .unwrap(),
        format!("{} → {}", p.level_a.as_str(), p.level_b.as_str())
    );
    // Unpicking one goes back to runs A and B.
    click(&root, ".pick-run[data-run=\"3\"]");
    settle().await;
    assert_eq!(
        text(&root, "#compare-summary-title"),
        format!("{} → {}", run_name(0), run_name(1))
    );
}

/// A link reopens the sample runs as they were: sorted by a metric, two runs picked
/// and open as the pair. A pick of runs the link does not carry opens nothing.
#[wasm_bindgen_test]
async fn a_link_reopens_the_sample_runs_sorted_and_picked() {
    let (root, app) = open_sample_runs().await;
    click(&root, "#compare-many-table button.sort[data-sort=\"ndcg\"]");
    settle().await;
    for run in [3, 1] {
        click(&root, &format!(".pick-run[data-run=\"{run}\"]"));
        settle().await;
    }
    after_paint().await;
    settle().await;
    let link = window().location().hash().unwrap();
    for part in ["cmp.runs=sample", "cmp.msort=ndcg.desc", "cmp.pick=4.2"] {
        assert!(link.contains(part), "{part} is not in {link}");
    }
    let order = row_order(&root);
    let title = text(&root, "#compare-summary-title");
    assert_eq!(title, format!("{} → {}", run_name(3), run_name(1)));
    drop(app);
    root.remove();

    let (root, app) = open_link(&link);
    settle().await;
    after_paint().await;
    settle().await;
    assert_eq!(
        row_order(&root),
        order,
        "the link's order is not the table's"
    );
    assert_eq!(text(&root, "#compare-summary-title"), title);
    for run in [3, 1] {
        let pick: web_sys::HtmlInputElement =
            find(&root, &format!(".pick-run[data-run=\"{run}\"]")).unchecked_into();
        assert!(pick.checked(), "run {run} is not picked");
    }
    drop(app);
    root.remove();

    // Without the sample's runs the pick names runs that are not there: no pair opens
    // and nothing breaks.
    let (root, _app) = open_link(&link.replace("cmp.runs=sample&", ""));
    settle().await;
    after_paint().await;
    settle().await;
    assert!(root.query_selector("#compare-many").unwrap().is_none());
    assert!(root
        .query_selector("#compare-summary-title")
        .unwrap()
        .is_none());
}

#[wasm_bindgen_test]
async fn a_knob_recomputes_every_run_and_tests_again_after_the_paint() {
    let (root, _app) = open_sample_runs().await;
    wait_for_the_test(&root).await;
    let cut = Settings {
        return_n: Some(2),
        ..Settings::default()
    };
    let after = expected(&cut);
    let before = expected(&Settings::default());
    assert_ne!(
        after.metrics[1].means, before.metrics[1].means,
        "the knob must move recall"
    );
    set_input(&root, "#knob-returnN", "2", "change");
    drain_microtasks().await;
    next_frame().await;
    // The means follow at once; the test is pending in that frame, then catches up.
    assert!(pending(&root), "the test ran before the paint");
    assert_table_shows(&root, &after, false);
    wait_for_the_test(&root).await;
    assert_table_shows(&root, &after, true);
}

/// A newer input cancels the test in progress: only the last table is tested.
#[wasm_bindgen_test]
async fn a_newer_input_replaces_the_running_test() {
    let (root, _app) = open_sample_runs().await;
    for n in ["3", "4", "2"] {
        set_input(&root, "#knob-returnN", n, "change");
        next_frame().await;
        sleep(5).await;
    }
    let after = expected(&Settings {
        return_n: Some(2),
        ..Settings::default()
    });
    wait_for_the_test(&root).await;
    assert_table_shows(&root, &after, true);
}

/// Hands `files` (name, text) to the file input `selector`, as a user picking them.
fn pick(root: &web_sys::Element, selector: &str, files: &[(&str, &str)]) {
    let transfer = web_sys::DataTransfer::new().unwrap();
    for (name, text) in files {
        let parts = js_sys::Array::of1(&JsValue::from_str(text));
        let file = web_sys::File::new_with_str_sequence_and_options(
            &parts,
            name,
            &web_sys::FilePropertyBag::new(),
        )
        .unwrap();
        transfer.items().add_with_file(&file).unwrap();
    }
    let input: web_sys::HtmlInputElement = find(root, selector).unchecked_into();
    input.set_files(transfer.files().as_ref());
    fire(&input, "change");
}

#[wasm_bindgen_test]
async fn without_cases_or_with_bad_runs_the_table_says_why() {
    let (root, _app) = mount_fresh();
    settle().await;
    let (runs, cases) = sample();
    pick_files(&root, &[("same.json", runs[0].as_bytes())]);
    assert!(wait_until(10, || text(&root, ".tabs").contains("Batch (200 traces)")).await);
    click(&root, "#tab-compare");
    settle().await;
    pick(&root, "#compare-file-input", &[("same.json", &runs[1])]);
    sleep(50).await;
    settle().await;
    // Two runs: the two-run view alone.
    assert!(root.query_selector("#compare-many").unwrap().is_none());
    pick(
        &root,
        "#compare-run-input",
        &[("third.json", &runs[2]), ("more.json", &runs[3])],
    );
    sleep(50).await;
    settle().await;
    let names: Vec<String> = find_all(&root, "#compare-run-list .run-name")
        .iter()
        .map(|e| e.text_content().unwrap_or_default())
        .collect();
    assert_eq!(names, ["same.json", "same.json", "third.json"]);
    assert!(root
        .query_selector("#compare-many-no-cases")
        .unwrap()
        .is_some());

    // With cases: the name given twice is what the core reports.
    click(&root, "#tab-golden");
    settle().await;
    pick(&root, "#golden-file-input", &[("cases.json", &cases)]);
    sleep(50).await;
    settle().await;
    click(&root, "#tab-compare");
    settle().await;
    let batches: Vec<_> = [
        ("same.json", &runs[0]),
        ("same.json", &runs[1]),
        ("third.json", &runs[2]),
    ]
    .iter()
    .map(|(name, text)| (*name, parse_document(name, text)))
    .collect();
    let named: Vec<(&str, &ragtrace_core::ParsedBatch)> =
        batches.iter().map(|(n, b)| (*n, b)).collect();
    let case_set = parse_cases("cases.json", &cases).unwrap();
    assert_eq!(
        text(&root, "#compare-many-error"),
        refusal(&named, &case_set)
    );

    // A run with no trace: removing it leaves a comparable set again.
    pick(
        &root,
        "#compare-run-input",
        &[("empty.json", "{\"traces\": []}")],
    );
    sleep(50).await;
    settle().await;
    click(&root, "#compare-clear-b");
    settle().await;
    let empty = parse_document("empty.json", "{\"traces\": []}");
    let named: Vec<(&str, &ragtrace_core::ParsedBatch)> = vec![
        ("same.json", &batches[0].1),
        ("third.json", &batches[2].1),
        ("empty.json", &empty),
    ];
    let error = refusal(&named, &case_set);
    assert!(error.contains("has no trace"), "{error}");
    assert_eq!(text(&root, "#compare-many-error"), error);
    let remove = find_all(&root, "#compare-run-list .remove-run");
    let last: web_sys::HtmlElement = remove.last().unwrap().clone().unchecked_into();
    last.click();
    settle().await;
    // Two runs left: the table is gone, nothing panicked.
    assert!(root.query_selector("#compare-many").unwrap().is_none());
}
