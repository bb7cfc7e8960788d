//! Graded relevance and TREC files in the page (contract section 12), driven as a user
//! would: trec_eval's own test data (tests/fixtures/trec_eval) as the run and the
//! qrels. The expected values are literal: what `ragtrace eval` and `ragtrace compare`
//! print on the same files (the commands are in each test's comments), and the grades
//! as the qrels file holds them.
#![cfg(target_arch = "wasm32")]

mod common;

use common::*;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// Graded judgments from -1 to 4 for queries 301-303.
const QRELS: &str = include_str!("../../tests/fixtures/trec_eval/qrels.rel_level");
/// A run of 500 documents per query.
const RUN: &str = include_str!("../../tests/fixtures/trec_eval/results.test");

/// The run with every score above 3 lowered to 3: the documents that scored above it
/// now tie, and trec_eval's order breaks ties by docno, descending.
fn capped_run() -> String {
    RUN.lines()
        .map(|line| {
            let f: Vec<&str> = line.split_whitespace().collect();
            let score: f64 = f[4].parse().unwrap();
            format!("{} Q0 {} {} {} CAPPED\n", f[0], f[2], f[3], score.min(3.0))
        })
        .collect()
}

fn file_list(files: &[(&str, &str)]) -> web_sys::DataTransfer {
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
    transfer
}

/// Hands `files` (name, text) to the file input `selector`, as a user picking them.
fn pick(root: &web_sys::Element, selector: &str, files: &[(&str, &str)]) {
    let transfer = file_list(files);
    let input: web_sys::HtmlInputElement = find(root, selector).unchecked_into();
    input.set_files(transfer.files().as_ref());
    fire(&input, "change");
}

/// Drops `files` on the element `selector`, as a user dragging them from the desktop.
fn drop_on(root: &web_sys::Element, selector: &str, files: &[(&str, &str)]) {
    let transfer = file_list(files);
    let init = web_sys::DragEventInit::new();
    init.set_bubbles(true);
    init.set_cancelable(true);
    init.set_data_transfer(Some(&transfer));
    let event = web_sys::DragEvent::new_with_event_init_dict("drop", &init).unwrap();
    find(root, selector).dispatch_event(&event).unwrap();
}

fn shown(root: &web_sys::Element, selector: &str) -> String {
    text(root, selector).trim().to_owned()
}

fn golden_level(root: &web_sys::Element, level: &str) -> String {
    shown(
        root,
        &format!("#golden-levels tr[data-level=\"{level}\"] td"),
    )
}

fn metric(root: &web_sys::Element, key: &str) -> String {
    shown(
        root,
        &format!("#golden-metrics tr[data-metric=\"{key}\"] td"),
    )
}

fn case_cell(root: &web_sys::Element, case: &str, col: &str) -> String {
    shown(
        root,
        &format!("#golden-case-table tr[data-case-id=\"{case}\"] td[data-col=\"{col}\"]"),
    )
}

/// A judged document's cells in the case table: (grade, relevant, found).
fn grade_row(root: &web_sys::Element, case: &str, doc: &str) -> [String; 3] {
    let row = format!("#golden-case-table tr[data-case-id=\"{case}\"] tr[data-doc=\"{doc}\"]");
    ["grade", "relevant", "found"].map(|col| shown(root, &format!("{row} td[data-col=\"{col}\"]")))
}

/// The run loaded as the batch (picked), the Golden tab opened.
async fn load_run(root: &web_sys::Element) {
    pick_files(root, &[("results.test", RUN.as_bytes())]);
    assert!(wait_until(10, || text(root, ".tabs").contains("Batch (3 traces)")).await);
    click(root, "#tab-golden");
    settle().await;
}

#[wasm_bindgen_test]
async fn a_dropped_qrels_file_and_a_picked_run_give_the_cli_s_metrics_and_grades() {
    let (root, _app) = mount_fresh();
    settle().await;
    load_run(&root).await;
    drop_on(&root, ".golden-input", &[("qrels.rel_level", QRELS)]);
    assert!(
        wait_until(10, || root
            .query_selector("#golden-metrics")
            .unwrap()
            .is_some())
        .await
    );
    assert_eq!(shown(&root, "#golden-source"), "qrels.rel_level: 3 cases");

    // `ragtrace eval --cases qrels.rel_level results.test` prints
    //   strong 1, medium 0, weak 0, miss 2
    //   mean recall@k 0.017  precision@k 0.267  MRR 0.333  nDCG@k 0.277  MAP@k 0.015
    //   302: strong (recall 0.052, precision 0.800, RR 1.000, nDCG 0.830, AP 0.046, k 5)
    for (level, n) in [
        ("strong", "1"),
        ("medium", "0"),
        ("weak", "0"),
        ("miss", "2"),
    ] {
        assert_eq!(golden_level(&root, level), n, "{level}");
    }
    assert_eq!(metric(&root, "recall"), "0.017");
    assert_eq!(metric(&root, "precision"), "0.267");
    assert_eq!(metric(&root, "mrr"), "0.333");
    assert_eq!(metric(&root, "ndcg"), "0.277");
    assert_eq!(metric(&root, "map"), "0.015");
    // The page drops trailing zeros: 0.800 shows as 0.8.
    for (col, value) in [
        ("recall", "0.052"),
        ("precision", "0.8"),
        ("rr", "1"),
        ("ndcg", "0.83"),
        ("ap", "0.046"),
        ("k", "5"),
    ] {
        assert_eq!(case_cell(&root, "302", col), value, "{col}");
    }
    assert_eq!(case_cell(&root, "301", "ap"), "0");

    // Query 302: 1061 judged documents, 77 of them graded 1 or more (`awk '$1 == 302'`
    // on the qrels). The run's first five (score descending) are graded 3, 3, 0, 3, 3;
    // the best graded of the others, CR93E-2180 (3), is not among the run's 500.
    let grades = "#golden-case-table tr[data-case-id=\"302\"] [data-evidence=\"grades\"]";
    let summary = shown(&root, &format!("{grades} summary"));
    assert_eq!(summary, "1061 judged documents, 77 relevant (grade ≥ 1)");
    assert_eq!(
        grade_row(&root, "302", "FR940126-2-00106"),
        ["3", "yes", "rank 1"]
    );
    assert_eq!(
        grade_row(&root, "302", "FR940620-2-00118"),
        ["0", "no", "rank 3"]
    );
    assert_eq!(
        grade_row(&root, "302", "LA043090-0036"),
        ["3", "yes", "rank 5"]
    );
    assert_eq!(
        grade_row(&root, "302", "CR93E-2180"),
        ["3", "yes", "not retrieved"]
    );
    let listed = find_all(&root, &format!("{grades} tbody tr"));
    assert_eq!(listed.len(), 30);
    assert_eq!(
        listed[5].get_attribute("data-doc").as_deref(),
        Some("CR93E-2180")
    );
    assert!(text(&root, grades).contains("… and 1031 more judged documents"));
    // Query 303's best graded document (FT921-7107, 2) is in the run, below the five
    // it returns; its -1 documents are judged, never relevant.
    assert_eq!(
        grade_row(&root, "303", "FT921-7107"),
        ["2", "yes", "retrieved, not accepted"]
    );
    assert_eq!(
        grade_row(&root, "303", "LA041690-0035"),
        ["-1", "no", "rank 5"]
    );

    // relevantGrade = 4 through the knob. `ragtrace eval --cases qrels.rel_level
    // results.test --set relevantGrade=4`: every case a miss, recall, precision, MRR and
    // MAP@k 0, nDCG@k still 0.277 (the grade is the gain whatever relevantGrade is).
    set_input(&root, "#knob-relevantGrade", "4", "change");
    assert!(wait_until(10, || metric(&root, "recall") == "0").await);
    assert_eq!(golden_level(&root, "miss"), "3");
    assert_eq!(metric(&root, "precision"), "0");
    assert_eq!(metric(&root, "mrr"), "0");
    assert_eq!(metric(&root, "ndcg"), "0.277");
    assert_eq!(metric(&root, "map"), "0");
    assert_eq!(
        grade_row(&root, "302", "FR940126-2-00106"),
        ["3", "no", "rank 1"]
    );
    assert!(case_cell(&root, "302", "note").contains("relevantGrade 4 is above every grade"));
    // 301 has six documents graded 4.
    let summary = shown(
        &root,
        "#golden-case-table tr[data-case-id=\"301\"] [data-evidence=\"grades\"] summary",
    );
    assert_eq!(summary, "1708 judged documents, 6 relevant (grade ≥ 4)");
}

#[wasm_bindgen_test]
async fn cases_without_grades_show_no_grades() {
    let (root, _app) = mount_fresh();
    settle().await;
    click(&root, "#tab-golden");
    settle().await;
    click(&root, "#golden-sample-with-traces");
    settle().await;
    assert!(!find_all(&root, "#golden-case-table tbody tr").is_empty());
    assert!(root
        .query_selector("#golden-case-table [data-evidence=\"grades\"]")
        .unwrap()
        .is_none());
}

#[wasm_bindgen_test]
async fn two_trec_runs_compare_with_map_and_graded_ndcg_deltas() {
    let (root, _app) = mount_fresh();
    settle().await;
    load_run(&root).await;
    pick(&root, "#golden-file-input", &[("qrels.rel_level", QRELS)]);
    assert!(
        wait_until(10, || root
            .query_selector("#golden-metrics")
            .unwrap()
            .is_some())
        .await
    );
    click(&root, "#tab-compare");
    settle().await;
    let capped = capped_run();
    pick(&root, "#compare-file-input", &[("capped.test", &capped)]);
    assert!(
        wait_until(10, || root
            .query_selector("#compare-metrics tr[data-key=\"map\"]")
            .unwrap()
            .is_some())
        .await
    );
    assert!(
        wait_until(30, || root
            .query_selector("#compare-metrics .pending")
            .unwrap()
            .is_none())
        .await
    );

    // `ragtrace compare --a results.test --b capped.test --cases qrels.rel_level`
    // (capped.test written as `capped_run` writes it):
    //   ndcg  A 0.277  B 0.233  diff -0.044    (0 wins, 2 ties, 1 loss)
    //   map   A 0.015  B 0.012  diff -0.003
    // and in compare.json case 302's deltas: recall -0.013, precision -0.2,
    // nDCG 0.830 -> 0.699 (-0.131), AP 0.046 -> 0.036 (-0.010); 301 and 303 unchanged.
    let row = |key: &str, col: &str| {
        shown(
            &root,
            &format!("#compare-metrics tr[data-key=\"{key}\"] [data-col=\"{col}\"]"),
        )
    };
    assert_eq!(
        shown(&root, "#compare-metrics tr[data-key=\"map\"] th"),
        "MAP@k"
    );
    assert_eq!(
        shown(&root, "#compare-metrics tr[data-key=\"ndcg\"] th"),
        "nDCG@k"
    );
    assert_eq!(
        [
            row("ndcg", "mean-a"),
            row("ndcg", "mean-b"),
            row("ndcg", "delta"),
            row("ndcg", "wtl")
        ],
        ["0.277", "0.233", "-0.044", "0 / 2 / 1"]
    );
    assert_eq!(
        [
            row("map", "mean-a"),
            row("map", "mean-b"),
            row("map", "delta"),
            row("map", "wtl")
        ],
        ["0.015", "0.012", "-0.003", "0 / 2 / 1"]
    );
    assert_eq!(
        shown(&root, "#compare-case-delta-count"),
        "1 case changed from A to B"
    );
    let delta = |col: &str| {
        shown(
            &root,
            &format!("#compare-case-deltas tr[data-key=\"302\"] [data-col=\"{col}\"]"),
        )
    };
    assert_eq!(delta("levels"), "strong → strong");
    assert_eq!(
        [
            "hit",
            "recall",
            "precision",
            "reciprocalRank",
            "ndcg",
            "map"
        ]
        .map(delta),
        ["0", "-0.013", "-0.2", "0", "-0.131", "-0.01"]
    );
    assert_eq!(find_all(&root, "#compare-case-deltas tbody tr").len(), 1);

    // The pair of query 302, side by side: the case's six metrics in both runs and its
    // grades where each run ranked them. The capped run ranks LA082490-0065 (3) first
    // and FR940620-2-00118 (0) fifth (`ragtrace eval` on it: docRanking of 302).
    let pair = find_all(&root, ".ptable [data-pair]")
        .into_iter()
        .find(|row| {
            row.text_content()
                .unwrap_or_default()
                .contains("STANDARD/302")
        })
        .unwrap();
    pair.unchecked_ref::<web_sys::HtmlElement>().click();
    settle().await;
    let metric = |key: &str| {
        ["a", "b", "delta"].map(|col| {
            shown(
                &root,
                &format!("#compare-pair-metrics tr[data-key=\"{key}\"] [data-col=\"{col}\"]"),
            )
        })
    };
    assert_eq!(metric("ndcg"), ["0.83", "0.699", "-0.131"]);
    assert_eq!(metric("map"), ["0.046", "0.036", "-0.01"]);
    let graded = |doc: &str| {
        ["grade", "relevant", "found-a", "found-b"].map(|col| {
            shown(
                &root,
                &format!("#compare-pair-grades tr[data-key=\"{doc}\"] [data-col=\"{col}\"]"),
            )
        })
    };
    assert_eq!(
        graded("FR940126-2-00106"),
        ["3", "yes", "rank 1", "retrieved, not accepted"]
    );
    assert_eq!(
        graded("LA082490-0065"),
        ["3", "yes", "retrieved, not accepted", "rank 1"]
    );
    assert_eq!(graded("FR940620-2-00118"), ["0", "no", "rank 3", "rank 5"]);
    assert!(text(&root, "#compare-pair-case").contains("1061 judged documents, 77 relevant"));
}
