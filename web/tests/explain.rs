//! What would it take, in the real `App`: the trace view's hints beside dropped
//! candidates and the level, their Try buttons, and the Golden tab's Why missed panel.
//! Expected values come from `ragtrace_core::explain` on the same input: the page
//! shows what the core computes, and Try gives what the hint says.
#![cfg(target_arch = "wasm32")]

mod common;

use common::*;
use ragtrace_core::{analyze, explain, explain_one, parse_cases, parse_documents};
use ragtrace_core::{Cause, ExplainSummary, Settings, Status, TraceExplanation};
use ragtrace_web::components::golden::{SAMPLE_GOLDEN_CASES, SAMPLE_GOLDEN_SOURCE};
use ragtrace_web::format::count;
use ragtrace_web::{SAMPLE_DENSE_TRACE, SAMPLE_HYBRID_LEGACY_TRACE, SAMPLE_LOOKUP_RESULTS};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// The core's explanation of the dense sample's one trace under `settings`.
fn dense_explained(settings: &Settings) -> TraceExplanation {
    let batch = parse_documents(&[("dense-trace.json".to_owned(), SAMPLE_DENSE_TRACE.to_owned())]);
    let analysis = analyze(&batch, settings, false).unwrap();
    explain_one(0, &analysis.traces[0], settings)
}

/// The page showing the dense sample's trace, its hints arrived.
async fn dense_trace_view() -> (web_sys::HtmlElement, Box<dyn std::any::Any>) {
    let (root, app) = mount_fresh();
    settle().await;
    click(&root, "button[data-sample=\"dense\"]");
    settle().await;
    assert!(
        wait_until(10, || root
            .query_selector("#level-what-if")
            .unwrap()
            .is_some())
        .await,
        "the trace's hints did not arrive"
    );
    (root, app)
}

fn row(input_index: usize) -> String {
    format!("#block-table tr[data-input-index=\"{input_index}\"]")
}

fn status_of(root: &web_sys::Element, input_index: usize) -> String {
    text(root, &format!("{} .status", row(input_index)))
        .trim()
        .to_owned()
}

fn shown_level(root: &web_sys::Element) -> String {
    text(root, "#outcome-table tr[data-row=\"relevanceLevel\"] td")
        .trim()
        .to_owned()
}

fn shown_setting(root: &web_sys::Element, name: &str) -> String {
    text(root, &format!("#trace-settings [data-setting=\"{name}\"]"))
}

#[wasm_bindgen_test]
async fn a_dropped_candidate_shows_what_accepts_it_and_try_does_it() {
    let (root, _app) = dense_trace_view().await;
    let want = dense_explained(&Settings::default());
    // A candidate the sample drops that a single returnN accepts.
    let (candidate, change) = want
        .candidates
        .iter()
        .filter(|c| c.status != Status::Accepted)
        .find_map(|c| {
            c.accepted_if
                .iter()
                .find(|s| s.set.count(ragtrace_core::SettingKey::ReturnN).is_some())
                .map(|s| (c, s.set))
        })
        .expect("the dense sample drops a candidate that returnN accepts");
    let value = change.count(ragtrace_core::SettingKey::ReturnN).unwrap();
    let hint = text(
        &root,
        &format!("{} .candidate-what-if", row(candidate.index)),
    );
    assert!(
        hint.contains(&format!("accepted with returnN >= {value}")),
        "{hint}"
    );
    assert_eq!(status_of(&root, candidate.index), candidate.status.as_str());
    // Every candidate not accepted that has a change shows it; accepted ones show what drops them.
    for c in &want.candidates {
        let shown = root
            .query_selector(&format!("{} .candidate-what-if", row(c.index)))
            .unwrap();
        let listed = if c.accepted_if.is_empty() {
            &c.dropped_if
        } else {
            &c.accepted_if
        };
        assert_eq!(shown.is_some(), !listed.is_empty(), "candidate {}", c.index);
    }
    let before = shown_setting(&root, "returnN");

    // Try: the baseline is pinned first, then the knob moves and the candidate is accepted.
    assert!(root.query_selector("#unpin-baseline").unwrap().is_none());
    click(
        &root,
        &format!(
            "{} li[data-change=\"{change}\"] button",
            row(candidate.index)
        ),
    );
    settle().await;
    assert!(root.query_selector("#unpin-baseline").unwrap().is_some());
    assert_eq!(shown_setting(&root, "returnN"), format!("returnN {value}"));
    assert_eq!(status_of(&root, candidate.index), "accepted");
    let after = dense_explained(&change.applied_to(&Settings::default()));
    let now = after
        .candidates
        .iter()
        .find(|c| c.index == candidate.index)
        .unwrap();
    assert_eq!(now.status, Status::Accepted);
    // The block table compares against the pinned settings: the candidate entered.
    assert!(text(&root, &row(candidate.index)).contains("entered"));

    // One click puts the knobs back.
    click(&root, "#restore-baseline");
    settle().await;
    assert_eq!(shown_setting(&root, "returnN"), before);
    assert_eq!(status_of(&root, candidate.index), candidate.status.as_str());
}

#[wasm_bindgen_test]
async fn the_level_hint_s_try_gives_the_stated_level() {
    let (root, _app) = dense_trace_view().await;
    let want = dense_explained(&Settings::default());
    assert!(
        !want.level_if.is_empty(),
        "the dense sample's level can move"
    );
    assert_eq!(shown_level(&root), want.level.as_str());
    let shown = find_all(&root, "#level-what-if li");
    assert_eq!(shown.len(), want.level_if.len() + want.low_quality_if.len());
    // Each level hint, tried from the same start, gives the level it states.
    for level_if in &want.level_if {
        let item = format!("#level-what-if li[data-change=\"{}\"]", level_if.set);
        assert!(
            text(&root, &item).contains(level_if.level.as_str()),
            "{}",
            level_if.set
        );
        click(&root, &format!("{item} button"));
        settle().await;
        assert_eq!(
            shown_level(&root),
            level_if.level.as_str(),
            "{}",
            level_if.set
        );
        click(&root, "#restore-baseline");
        settle().await;
        assert_eq!(shown_level(&root), want.level.as_str());
        assert!(
            wait_until(10, || root.query_selector(&item).unwrap().is_some()).await,
            "the hints did not come back"
        );
    }
}

/// The core's summary for the three spec-example samples and the sample cases.
fn summary_under(settings: &Settings) -> ExplainSummary {
    let docs: Vec<(String, String)> = [
        ("dense-trace.json", SAMPLE_DENSE_TRACE),
        ("hybrid-legacy-trace.json", SAMPLE_HYBRID_LEGACY_TRACE),
        ("lookup-result.jsonl", SAMPLE_LOOKUP_RESULTS),
    ]
    .iter()
    .map(|(n, t)| (n.to_string(), t.to_string()))
    .collect();
    let cases = parse_cases(SAMPLE_GOLDEN_SOURCE, SAMPLE_GOLDEN_CASES).unwrap();
    explain(&parse_documents(&docs), settings, Some(&cases))
        .unwrap()
        .summary
}

fn assert_panel_shows(root: &web_sys::Element, want: &ExplainSummary) {
    for cause in Cause::ALL {
        let shown = text(
            root,
            &format!(
                "#why-missed-causes tr[data-cause=\"{}\"] td",
                cause.as_str()
            ),
        );
        assert_eq!(
            shown.trim(),
            want.causes[cause.as_str()].to_string(),
            "{cause:?}"
        );
    }
    let headline = text(root, "#why-missed-headline");
    assert!(
        headline.starts_with(&count(want.misses, "case", "cases")),
        "{headline}"
    );
    let rows = find_all(root, "#why-missed-changes tbody tr");
    assert_eq!(rows.len(), want.changes.len().min(20));
    for (row, impact) in rows.iter().zip(&want.changes) {
        let change = impact.set.to_string();
        assert_eq!(row.get_attribute("data-change").as_deref(), Some(&*change));
        let cell = |col: &str| {
            text(row, &format!("td[data-col=\"{col}\"]"))
                .trim()
                .to_owned()
        };
        assert_eq!(cell("recovers"), impact.recovers.to_string(), "{change}");
        assert_eq!(
            cell("traces-changed"),
            impact.traces_changed.to_string(),
            "{change}"
        );
        assert_eq!(
            cell("hit-level-drops"),
            impact.hit_level_drops.to_string(),
            "{change}"
        );
    }
}

/// The panel shows `want`'s cause counts (it may still show an older result).
fn panel_matches(root: &web_sys::Element, want: &ExplainSummary) -> bool {
    root.query_selector("#why-missed-causes").unwrap().is_some()
        && Cause::ALL.iter().all(|cause| {
            text(
                root,
                &format!(
                    "#why-missed-causes tr[data-cause=\"{}\"] td",
                    cause.as_str()
                ),
            )
            .trim()
                == want.causes[cause.as_str()].to_string()
        })
}

async fn open_why_missed(root: &web_sys::Element) {
    find(root, "#why-missed").set_attribute("open", "").unwrap();
    assert!(
        wait_until(10, || root
            .query_selector("#why-missed-causes")
            .unwrap()
            .is_some())
        .await,
        "the Why missed panel did not show its result"
    );
}

#[wasm_bindgen_test]
async fn why_missed_counts_the_core_s_causes_and_its_try_recovers_cases() {
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
    // Folded: nothing is computed until it is opened.
    assert!(root.query_selector("#why-missed-causes").unwrap().is_none());
    assert!(root
        .query_selector("#why-missed-pending")
        .unwrap()
        .is_none());

    let want = summary_under(&Settings::default());
    open_why_missed(&root).await;
    assert_panel_shows(&root, &want);

    // returnN = 1 through the real knob: the session-store case's document is then
    // retrieved and dropped, a settings problem, and the panel follows.
    let one = Settings {
        return_n: Some(1),
        ..Settings::default()
    };
    let want = summary_under(&one);
    assert!(
        want.causes["dropped"] > 0 && !want.changes.is_empty(),
        "returnN = 1 drops a case a change recovers"
    );
    set_input(&root, "#knob-returnN", "1", "change");
    assert!(
        wait_until(10, || panel_matches(&root, &want)).await,
        "the panel did not follow the knob"
    );
    assert_panel_shows(&root, &want);

    // Try the change that recovers the most: pinned, applied, and it recovers what it said.
    let best = &want.changes[0];
    click(
        &root,
        &format!(
            "#why-missed-changes tr[data-change=\"{}\"] button",
            best.set
        ),
    );
    settle().await;
    assert!(root.query_selector("#unpin-baseline").unwrap().is_some());
    let after = summary_under(&best.set.applied_to(&one));
    assert_eq!(after.misses, want.misses - best.recovers);
    assert!(
        wait_until(10, || panel_matches(&root, &after)).await,
        "the panel did not follow Try"
    );
    assert_panel_shows(&root, &after);
}

#[wasm_bindgen_test]
async fn the_traces_no_case_links_to_are_folded_under_their_count() {
    let (root, _app) = mount_fresh();
    settle().await;
    click(&root, "button[data-sample=\"generated\"]");
    settle().await;
    click(&root, "#tab-golden");
    settle().await;
    click(&root, "#golden-sample");
    settle().await;
    let unlinked = find(&root, "#golden-unlinked");
    assert_eq!(unlinked.tag_name().to_lowercase(), "details");
    assert!(!unlinked.has_attribute("open"), "the list starts folded");
    let names = find_all(&root, "#golden-unlinked code.trace-name");
    assert!(names.len() > 100, "{} unlinked traces", names.len());
    assert_eq!(
        text(&root, "#golden-unlinked-count").trim(),
        count(
            names.len(),
            "trace no case links to",
            "traces no case links to"
        )
    );
}
