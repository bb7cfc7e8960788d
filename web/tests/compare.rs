//! The Compare tab, driven as a user would. Expected values come from
//! `ragtrace_core::runs` on the same inputs: the page must show what the core computes.
#![cfg(target_arch = "wasm32")]

mod common;

use common::*;
use ragtrace_core::{
    add_significance, case_scores, compare_golden, GoldenComparison, SignificanceOptions,
    DELTA_METRICS,
};
use ragtrace_core::{analyze, parse_document, Analysis, Level, Settings};
use ragtrace_core::{compare_runs, pair_detail, CompareOptions, Pairing, RunComparison};
use ragtrace_core::{evaluate_analysis, parse_cases};
use ragtrace_web::format::{number, optional_number};
use ragtrace_web::samples::{paired_sample, PAIRED_CASES_SOURCE};
use ragtrace_web::test_hooks::golden_evaluation_count;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn run(name: &str, text: &str, settings: &Settings) -> Analysis {
    analyze(&parse_document(name, text), settings, false).unwrap()
}

/// The core's comparison of the paired sample under `settings`.
fn expected(settings: &Settings) -> (Analysis, Analysis, Pairing, RunComparison) {
    let (dense, hybrid, _) = paired_sample();
    let a = run("a", dense, settings);
    let b = run("b", hybrid, settings);
    let (pairing, c) = compare_runs(&a, &b, &CompareOptions::default());
    (a, b, pairing, c)
}

fn expected_golden(a: &Analysis, b: &Analysis) -> GoldenComparison {
    let cases = parse_cases(PAIRED_CASES_SOURCE, &paired_sample().2).unwrap();
    let mut g = compare_golden(
        &case_scores(&evaluate_analysis(&cases, a)),
        &case_scores(&evaluate_analysis(&cases, b)),
    );
    add_significance(&mut g, &SignificanceOptions::default());
    g
}

fn cell(root: &web_sys::Element, selector: &str) -> String {
    text(root, selector).trim().to_owned()
}

/// The A -> B matrix and the counts line show the core's numbers for all pairs.
fn assert_shows(root: &web_sys::Element, (pairing, c): (&Pairing, &RunComparison)) {
    let all = &c.groups[0];
    for (i, level) in Level::ALL.iter().enumerate() {
        let row = find(
            root,
            &format!("#compare-matrix tr[data-key=\"{}\"]", level.as_str()),
        );
        let cells: Vec<String> = find_all(&row, "td")
            .iter()
            .map(|td| td.text_content().unwrap_or_default())
            .collect();
        let want: Vec<String> = all.level_transitions[i]
            .iter()
            .map(|n| n.to_string())
            .collect();
        assert_eq!(cells, want, "{level:?}");
    }
    let counts = cell(root, "#compare-counts");
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
    let distribution = cell(root, "#compare-distribution");
    assert!(
        distribution.contains(&format!(
            "RBO: {} pairs · mean {} · median {}",
            all.rbo_ext.count,
            optional_number(all.rbo_ext.mean),
            optional_number(all.rbo_ext.median)
        )),
        "{distribution}"
    );
    for bin in 0..10 {
        let row = find(root, &format!("#compare-histogram tr[data-key=\"{bin}\"]"));
        let counts: Vec<String> = find_all(&row, "td")
            .iter()
            .map(|td| td.text_content().unwrap_or_default())
            .collect();
        assert_eq!(
            counts,
            [
                all.overlap_docs.histogram[bin].to_string(),
                all.rbo_ext.histogram[bin].to_string()
            ]
        );
    }
    assert_eq!(
        cell(root, "#compare-pair-count"),
        format!("{} of {}", c.pairs.len(), c.pairs.len())
    );
}

/// The golden deltas' table, significance included, equals the core's.
fn assert_golden_shows(root: &web_sys::Element, g: &GoldenComparison) {
    for (m, metric) in DELTA_METRICS.iter().enumerate() {
        let s = &g.metrics[m];
        let row = format!("#compare-metrics tr[data-key=\"{metric}\"]");
        let col = |name: &str| cell(root, &format!("{row} [data-col=\"{name}\"]"));
        assert_eq!(col("cases"), s.cases.to_string());
        assert_eq!(col("mean-a"), optional_number(s.mean_a));
        assert_eq!(col("mean-b"), optional_number(s.mean_b));
        assert_eq!(col("delta"), optional_number(s.mean_difference));
        assert_eq!(
            col("wtl"),
            format!("{} / {} / {}", s.wins, s.ties, s.losses)
        );
        let t = s.significance.clone().unwrap();
        assert_eq!(
            col("perm-p"),
            format!(
                "{} ({})",
                number(t.permutation_p),
                number(t.permutation_p_holm)
            )
        );
        assert_eq!(
            col("ci"),
            format!(
                "[{}, {}]",
                optional_number(t.ci_low),
                optional_number(t.ci_high)
            )
        );
    }
}

/// Waits (at most a few seconds) until the significance is no longer pending.
async fn significance_shown(root: &web_sys::Element) {
    for _ in 0..100 {
        settle().await;
        if root
            .query_selector("#compare-metrics .pending")
            .unwrap()
            .is_none()
        {
            return;
        }
        sleep(30).await;
    }
    panic!("the significance stayed pending");
}

async fn open_sample() -> (web_sys::HtmlElement, Box<dyn std::any::Any>) {
    let (root, app) = mount_fresh();
    settle().await;
    click(&root, "#tab-compare");
    settle().await;
    assert!(root.query_selector("#compare-empty").unwrap().is_some());
    click(&root, "#compare-sample");
    settle().await;
    (root, app)
}

#[wasm_bindgen_test]
async fn the_paired_sample_shows_the_cores_comparison_and_golden_deltas() {
    let (root, _app) = open_sample().await;
    let (a, b, pairing, c) = expected(&Settings::default());
    assert!(c.pairs.len() > 50 && !pairing.unpaired_a.is_empty());
    assert_shows(&root, (&pairing, &c));
    significance_shown(&root).await;
    let g = expected_golden(&a, &b);
    assert_golden_shows(&root, &g);
    let counts = cell(&root, "#compare-golden-counts");
    assert!(
        counts.contains(&format!("regressions {}", g.regressions)),
        "{counts}"
    );
    // The link carries the tab and run B's source (never the traces).
    after_paint().await;
    settle().await;
    let hash = window().location().hash().unwrap();
    assert!(hash.contains("view=compare"), "{hash}");
    assert!(hash.contains("cmp.b=sample"), "{hash}");
}

#[wasm_bindgen_test]
async fn a_knob_recomputes_both_runs() {
    let (root, _app) = open_sample().await;
    let settings = Settings {
        max_l2_distance: Some(0.45),
        ..Settings::default()
    };
    let (_, _, _, before) = expected(&Settings::default());
    let (_, _, pairing, after) = expected(&settings);
    assert_ne!(
        before.groups[0].level_transitions, after.groups[0].level_transitions,
        "the sample must react"
    );
    set_input(&root, "#knob-maxL2Distance", "0.45", "input");
    settle().await;
    assert_shows(&root, (&pairing, &after));
    // The first rows show both recomputed levels.
    for row in find_all(&root, ".ptable .vtable-window .trow")
        .iter()
        .take(5)
    {
        let index: usize = row.get_attribute("data-pair").unwrap().parse().unwrap();
        let p = &after.pairs[index];
        let shown = find(row, "[data-col=\"levels\"]")
            .text_content()
            .unwrap_or_default();
        assert_eq!(
            shown,
            format!("{} → {}", p.level_a.as_str(), p.level_b.as_str())
        );
        assert_eq!(
            find(row, "[data-col=\"rbo\"]").text_content().unwrap(),
            optional_number(p.rbo.map(|r| r.ext))
        );
    }
}

/// The golden deltas follow the accepted lists only: a `maxL2Distance` move (which
/// moves levels and qualities, not the lists) evaluates neither run again and keeps the
/// deltas with their significance; a `returnN` move evaluates both and the deltas follow.
#[wasm_bindgen_test]
async fn only_a_knob_that_changes_an_accepted_list_evaluates_the_runs_again() {
    let (root, _app) = open_sample().await;
    significance_shown(&root).await;
    let evaluations = golden_evaluation_count();
    let farther = Settings {
        max_l2_distance: Some(0.45),
        ..Settings::default()
    };
    let (a, b, _, _) = expected(&farther);
    let golden = expected_golden(&a, &b);
    set_input(&root, "#knob-maxL2Distance", "0.45", "input");
    settle().await;
    assert_eq!(golden_evaluation_count(), evaluations);
    assert!(root
        .query_selector("#compare-metrics .pending")
        .unwrap()
        .is_none());
    assert_golden_shows(&root, &golden);

    let cut = Settings {
        return_n: Some(1),
        ..farther
    };
    let (a, b, _, _) = expected(&cut);
    let cut_golden = expected_golden(&a, &b);
    assert_ne!(
        cut_golden.metrics[1].mean_b, golden.metrics[1].mean_b,
        "the knob must move recall"
    );
    set_input(&root, "#knob-returnN", "1", "change");
    settle().await;
    assert_eq!(golden_evaluation_count(), evaluations + 2);
    significance_shown(&root).await;
    assert_golden_shows(&root, &cut_golden);
}

#[wasm_bindgen_test]
async fn splitting_a_mixed_batch_compares_its_dense_and_hybrid_traces() {
    let (root, _app) = mount_fresh();
    settle().await;
    let (dense, hybrid, _) = paired_sample();
    let traces = |text: &str| -> Vec<serde_json::Value> {
        let value: serde_json::Value = serde_json::from_str(text).unwrap();
        value["traces"].as_array().unwrap().clone()
    };
    let mut mixed = traces(dense);
    mixed.extend(traces(hybrid));
    paste(&root, &serde_json::json!({ "traces": mixed }).to_string()).await;
    settle().await;
    click(&root, "#tab-compare");
    settle().await;
    click(&root, "#compare-split");
    settle().await;
    let (_, _, pairing, c) = expected(&Settings::default());
    assert_shows(&root, (&pairing, &c));
    // Filters: regressions only shows exactly the pairs whose level got worse.
    let worse = c.pairs.iter().filter(|p| p.level_worsened()).count();
    let checkbox = find(&root, "#compare-regressions");
    let input: web_sys::HtmlInputElement = wasm_bindgen::JsCast::unchecked_into(checkbox);
    input.set_checked(true);
    fire(&input, "change");
    settle().await;
    assert_eq!(
        cell(&root, "#compare-pair-count"),
        format!("{worse} of {}", c.pairs.len())
    );
}

#[wasm_bindgen_test]
async fn a_pair_opens_side_by_side() {
    let (root, _app) = open_sample().await;
    let (a, b, _, c) = expected(&Settings::default());
    // The first pair in RBO order (lowest first): the most different lists.
    click(&root, ".ptable button.sort[data-sort=\"rbo\"]");
    settle().await;
    let first = find(&root, ".ptable .vtable-window .trow");
    let index: usize = first.get_attribute("data-pair").unwrap().parse().unwrap();
    let lowest = c
        .pairs
        .iter()
        .filter_map(|p| p.rbo.map(|r| r.ext))
        .fold(f64::INFINITY, f64::min);
    assert_eq!(c.pairs[index].rbo.map(|r| r.ext), Some(lowest));
    let button: web_sys::HtmlElement = wasm_bindgen::JsCast::unchecked_into(find(&first, "button"));
    button.click();
    settle().await;
    let detail = pair_detail(&a, &b, &c.pairs[index]).unwrap();
    let drawing = find(&root, "#compare-pair .pair-drawing");
    // One line per accepted block of A whose document B accepted too.
    let joined = detail
        .accepted_a
        .iter()
        .filter(|x| detail.accepted_b.iter().any(|y| y.doc_id == x.doc_id))
        .count();
    assert_eq!(find_all(&drawing, ".pair-link").len(), joined);
    for only in &detail.only_in_a {
        assert!(
            !find_all(
                &drawing,
                &format!(".pair-block.only[data-doc=\"{}\"]", only.doc_id)
            )
            .is_empty(),
            "{} is not marked as only in A",
            only.doc_id
        );
    }
    let rbo = cell(&root, "#compare-pair-facts [data-fact=\"RBO\"] dd");
    assert!(
        rbo.starts_with(&optional_number(detail.numbers.rbo.map(|r| r.ext))),
        "{rbo}"
    );
    after_paint().await;
    settle().await;
    let hash = window().location().hash().unwrap();
    assert!(hash.contains(&format!("cmp.pair={}", index + 1)), "{hash}");
    assert!(hash.contains("cmp.sort=rbo.asc"), "{hash}");
}

#[wasm_bindgen_test]
async fn runs_without_a_common_query_say_so() {
    let (root, _app) = open_sample().await;
    let other = r#"{"requestId": "other-1", "query": "a question nobody asked", "candidates": [{"evidenceKey": "x#0", "docId": "x", "originalRank": 1, "score": 0.3, "scoreLabel": "dense"}]}"#;
    let area = find(&root, "#compare-b-input");
    let area: web_sys::HtmlTextAreaElement = wasm_bindgen::JsCast::unchecked_into(area);
    area.set_value(other);
    fire(&area, "input");
    settle().await;
    let a = run("a", &paired_sample().0, &Settings::default());
    let b = run("b", other, &Settings::default());
    let (pairing, _) = compare_runs(&a, &b, &CompareOptions::default());
    let message = pairing.no_common_query.unwrap();
    assert_eq!(cell(&root, "#compare-no-common p"), message);
    assert!(root.query_selector(".ptable").unwrap().is_none());
}

/// A link to the tab reopens it as it was: run B's source, the sort and the open pair.
/// The tab's state is created when the tab is first shown (the site loads it then),
/// so the link's `cmp.` parts must survive in the URL until that moment too.
#[wasm_bindgen_test]
async fn a_link_reopens_the_tab_as_it_was() {
    let (root, app) = open_sample().await;
    click(&root, ".ptable button.sort[data-sort=\"rbo\"]");
    settle().await;
    let first = find(&root, ".ptable .vtable-window .trow");
    let pair: usize = first.get_attribute("data-pair").unwrap().parse().unwrap();
    let button: web_sys::HtmlElement = wasm_bindgen::JsCast::unchecked_into(find(&first, "button"));
    button.click();
    settle().await;
    after_paint().await;
    settle().await;
    let link = window().location().hash().unwrap();
    assert!(link.contains(&format!("cmp.pair={}", pair + 1)), "{link}");
    let shown = text(&root, "#compare-pair");
    drop(app);
    root.remove();

    // The same link opened on the Batch tab: the compare parts stay in the URL.
    let (root, app) = open_link(&link.replace("view=compare", "view=batch"));
    settle().await;
    assert!(root.query_selector("#compare-pair").unwrap().is_none());
    after_paint().await;
    settle().await;
    let hash = window().location().hash().unwrap();
    for part in [
        "cmp.b=sample",
        "cmp.sort=rbo.asc",
        &format!("cmp.pair={}", pair + 1),
    ] {
        assert!(hash.contains(part), "{part} was dropped from {hash}");
    }
    drop(app);
    root.remove();

    // Opened on the Compare tab: run B is the sample again and the same pair is open.
    let (root, _app) = open_link(&link);
    settle().await;
    after_paint().await;
    settle().await;
    assert_eq!(
        text(&root, "#compare-pair"),
        shown,
        "the link's pair is not the one open"
    );
}
