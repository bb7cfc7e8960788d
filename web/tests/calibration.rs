//! The Golden tab's Calibration panel in the real `App`, driven as a user would.
//! Expected values come from `ragtrace_core::calibrate` on the same
//! input: the page must show what the core computes.
#![cfg(target_arch = "wasm32")]

mod common;

use common::*;
use ragtrace_core::parse_cases;
use ragtrace_core::parse_documents;
use ragtrace_core::{analyze, Settings};
use ragtrace_core::{calibrate, Calibration, CurveStatus, OutcomeCounts};
use ragtrace_web::components::golden::{SAMPLE_GOLDEN_CASES, SAMPLE_GOLDEN_SOURCE};
use ragtrace_web::format::{number, optional_number};
use ragtrace_web::samples::{generated_cases, Sample, GENERATED_CASES_SOURCE};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// The core's calibration of `cases` against the samples, in the order the page loads them.
fn expected(samples: &[Sample], source: &str, cases: &str, settings: &Settings) -> Calibration {
    let docs: Vec<(String, String)> = samples
        .iter()
        .map(|s| (s.file_name().to_owned(), s.text().to_string()))
        .collect();
    let analysis = analyze(&parse_documents(&docs), settings, true).unwrap();
    calibrate(&parse_cases(source, cases).unwrap(), &analysis)
}

const WITH_TRACES: [Sample; 3] = [
    Sample::DenseTrace,
    Sample::HybridLegacyTrace,
    Sample::LookupResults,
];

fn sample_expected(settings: &Settings) -> Calibration {
    expected(
        &WITH_TRACES,
        SAMPLE_GOLDEN_SOURCE,
        SAMPLE_GOLDEN_CASES,
        settings,
    )
}

fn generated_expected(settings: &Settings) -> Calibration {
    expected(
        &[Sample::Generated],
        GENERATED_CASES_SOURCE,
        &generated_cases(),
        settings,
    )
}

fn cells(counts: &OutcomeCounts) -> Vec<String> {
    [
        counts.strong,
        counts.medium,
        counts.weak,
        counts.miss,
        counts.n,
    ]
    .iter()
    .map(ToString::to_string)
    .collect()
}

/// The level table, the AUC of every scope and the notes equal the core's.
fn assert_shows(root: &web_sys::Element, want: &Calibration) {
    assert!(
        text(root, "#calibration-title").contains(&format!("{} of {}", want.linked, want.cases)),
        "{}",
        text(root, "#calibration-title")
    );
    for row in &want.levels.rows {
        let name = row.level.as_str();
        let shown: Vec<String> = find_all(
            root,
            &format!("#calibration-levels tr[data-row=\"{name}\"] td"),
        )
        .iter()
        .map(|td| td.text_content().unwrap_or_default().trim().to_owned())
        .collect();
        let mut expected = cells(&row.recomputed);
        expected.extend(cells(&row.recorded));
        assert_eq!(shown, expected, "{name}");
    }
    let unknown: Vec<String> = find_all(
        root,
        "#calibration-levels tr[data-row=\"no recorded level\"] td",
    )
    .iter()
    .skip(5) // no recomputed counts on this row
    .map(|td| td.text_content().unwrap_or_default())
    .collect();
    assert_eq!(unknown, cells(&want.levels.recorded_unknown));
    for gate in [&want.gate.all, &want.gate.dense, &want.gate.hybrid] {
        // n, not found, found, AUC, ...
        let shown: Vec<String> = find_all(
            root,
            &format!("#calibration-gate tr[data-row=\"{}\"] td", gate.scope),
        )
        .iter()
        .take(4)
        .map(|td| td.text_content().unwrap_or_default())
        .collect();
        let expected = [
            gate.n.to_string(),
            gate.positives.to_string(),
            gate.negatives.to_string(),
            optional_number(gate.auc),
        ];
        assert_eq!(shown, expected, "{}", gate.scope);
    }
    let auc = text(root, "#calibration-auc");
    match want.gate.all.auc {
        Some(value) => {
            assert!(auc.contains(&format!("AUC {}", number(value))), "{auc}");
            assert!(auc.contains(&format!("n = {}", want.gate.all.n)), "{auc}");
        }
        None => assert_eq!(Some(auc), want.gate.all.message.clone()),
    }
    let notes = text(root, "#calibration-notes");
    for note in &want.notes {
        assert!(notes.contains(note.as_str()), "{notes}");
    }
    let suggestions = find_all(root, "#calibration-suggestions > li");
    assert_eq!(suggestions.len(), want.suggestions.len());
    for (li, s) in suggestions.iter().zip(&want.suggestions) {
        assert_eq!(li.get_attribute("data-rule").as_deref(), Some(s.rule));
        assert!(li.text_content().unwrap().contains(&s.message));
    }
}

fn attribute(root: &web_sys::Element, selector: &str, name: &str) -> String {
    find(root, selector).get_attribute(name).unwrap_or_default()
}

/// The current point's (cx, cy) on the ROC plot.
fn current_point(root: &web_sys::Element) -> (String, String) {
    let circle = "#calibration-roc circle[data-point=\"current\"]";
    (attribute(root, circle, "cx"), attribute(root, circle, "cy"))
}

#[wasm_bindgen_test]
async fn the_panel_shows_the_core_calibration_of_the_sample() {
    let (root, _app) = mount_fresh();
    settle().await;
    click(&root, "#tab-golden");
    settle().await;
    click(&root, "#golden-sample-with-traces");
    settle().await;
    let want = sample_expected(&Settings::default());
    assert!(want.linked > 0);
    assert!(want.anecdotal, "the sample has fewer than 10 cases");
    assert_shows(&root, &want);
    // The sample's edge cases, as sentences: anecdotal, an unlinked case named,
    // one outcome class (no curve), the hybrid trace's inert gate.
    let notes = text(&root, "#calibration-notes");
    assert!(notes.contains("anecdotal"), "{notes}");
    assert_eq!(want.unlinked.first[0].case_id, "no-run");
    assert!(
        notes.contains("no-run (\"a case with no retrieval run\")"),
        "{notes}"
    );
    assert_eq!(want.gate.all.status, CurveStatus::OneClass);
    assert!(root.query_selector("#calibration-roc").unwrap().is_none());
    assert!(text(&root, "#calibration-auc").contains("cannot be judged"));
    assert_eq!(want.gate.hybrid.status, CurveStatus::Inert);
    assert!(text(&root, "#calibration-gate tr[data-row=\"hybrid\"]").contains("cannot fire"));

    // A knob the calibration depends on: the table and the figures follow it.
    let settings = Settings {
        return_n: Some(1),
        ..Settings::default()
    };
    set_input(&root, "#knob-returnN", "1", "change");
    settle().await;
    assert_shows(&root, &sample_expected(&settings));
}

#[wasm_bindgen_test]
async fn the_reference_slider_moves_the_roc_point_and_apply_pins_first() {
    let (root, _app) = mount_fresh();
    settle().await;
    click(&root, "#tab-golden");
    settle().await;
    click(&root, "#golden-generated");
    settle().await;
    let want = generated_expected(&Settings::default());
    assert_eq!(want.gate.all.status, CurveStatus::Ok);
    assert!(!want.anecdotal);
    assert_shows(&root, &want);
    let polyline = attribute(
        &root,
        "#calibration-roc polyline[data-line=\"all\"]",
        "points",
    );
    assert_eq!(
        polyline.split(' ').count(),
        want.gate.all.roc.len(),
        "one vertex per ROC point"
    );
    let shown = current_point(&root);
    let at = want.gate.all.current;
    assert_eq!(
        shown,
        (
            at.false_positive_rate.unwrap().to_string(),
            at.recall.unwrap().to_string()
        )
    );

    // Drag referenceThreshold: the marker goes where the core puts the gate now,
    // the histogram's line with it; the curve itself stays.
    let settings = Settings {
        reference_threshold: Some(0.7),
        ..Settings::default()
    };
    let moved = generated_expected(&settings);
    let then = moved.gate.all.current;
    assert_ne!(then.flagged, at.flagged, "0.7 must flag other traces");
    set_input(&root, "#knob-referenceThreshold", "0.7", "input");
    settle().await;
    assert_eq!(
        current_point(&root),
        (
            then.false_positive_rate.unwrap().to_string(),
            then.recall.unwrap().to_string()
        )
    );
    assert_ne!(current_point(&root), shown);
    assert_eq!(
        attribute(&root, "#calibration-histogram line[data-marker]", "x1"),
        "0.7"
    );
    assert_eq!(
        attribute(
            &root,
            "#calibration-roc polyline[data-line=\"all\"]",
            "points"
        ),
        polyline
    );
    assert_shows(&root, &moved);

    // Apply the Youden suggestion: the baseline pins the settings of the moment,
    // then the knobs take the suggested values.
    let youden = moved
        .suggestions
        .iter()
        .find(|s| s.rule == "youden")
        .unwrap();
    assert!(!youden.settings.is_empty(), "{}", youden.message);
    assert!(root.query_selector("#unpin-baseline").unwrap().is_none());
    click(
        &root,
        "#calibration-suggestions button[data-rule=\"youden\"]",
    );
    settle().await;
    let mut applied = settings.clone();
    for change in &youden.settings {
        // The number entry beside the slider: a range input snaps to its step.
        let knob: web_sys::HtmlInputElement = wasm_bindgen::JsCast::unchecked_into(find(
            &root,
            &format!("#knob-{}-entry", change.key),
        ));
        assert_eq!(knob.value(), change.suggested.to_string(), "{}", change.key);
        applied
            .set(change.key, &change.suggested.to_string())
            .unwrap();
    }
    let pin = text(&root, ".pin-controls");
    assert!(
        pin.contains("referenceThreshold=0.7"),
        "the pin holds the settings before the suggestion: {pin}"
    );
    // The side-by-side: the baseline column is the pinned settings' calibration.
    let after = generated_expected(&applied);
    assert_eq!(
        after.gate.all.current.youden_j,
        youden.after.unwrap().youden_j,
        "the suggestion applied gives the J it promised"
    );
    let side = text(&root, "#calibration-baseline");
    assert!(
        side.contains(&optional_number(then.youden_j))
            && side.contains(&optional_number(after.gate.all.current.youden_j)),
        "{side}"
    );
    assert_shows(&root, &after);

    // A second Apply keeps the first pin: it is the way back.
    click(&root, "#calibration-suggestions button[data-rule=\"f1\"]");
    settle().await;
    assert!(text(&root, ".pin-controls").contains("referenceThreshold=0.7"));
}

#[wasm_bindgen_test]
async fn unlinked_and_one_class_sets_say_so() {
    let (root, _app) = mount_fresh();
    settle().await;
    click(&root, "#tab-golden");
    settle().await;
    let area: web_sys::HtmlTextAreaElement =
        wasm_bindgen::JsCast::unchecked_into(find(&root, "#golden-input"));
    area.set_value(
        r#"[{"caseId": "nobody-1", "query": "no trace asked this"}, {"caseId": "nobody-2"}]"#,
    );
    fire(&area, "input");
    settle().await;
    let notes = text(&root, "#calibration-notes");
    assert!(notes.contains("no case is linked"), "{notes}");
    assert!(
        notes.contains("nobody-1 (\"no trace asked this\")"),
        "{notes}"
    );
    assert!(root.query_selector("#calibration-roc").unwrap().is_none());
    assert!(text(&root, "#calibration-auc").contains("no linked case"));
    assert!(root
        .query_selector("#calibration-suggestions button")
        .unwrap()
        .is_none());
}
