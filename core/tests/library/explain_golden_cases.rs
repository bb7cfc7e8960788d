//! The golden cases' explanation alone (what the page's Golden tab computes) is the
//! `cases` and `summary` of the whole explanation, under several settings.

use crate::common;

use common::fixture;
use ragtrace_core::{analyze, explain_analysis, explain_golden_cases, parse_cases};
use ragtrace_core::{parse_documents, Settings};

#[test]
fn the_cases_alone_equal_the_whole_explanation_s_cases_and_summary() {
    let docs: Vec<(String, String)> = [
        "dense-trace.json",
        "hybrid-legacy-trace.json",
        "lookup-result.jsonl",
    ]
    .iter()
    .map(|name| (name.to_string(), fixture(name)))
    .collect();
    let batch = parse_documents(&docs);
    let cases = parse_cases(
        "golden-cases-sample.json",
        &fixture("golden-cases-sample.json"),
    )
    .unwrap();
    for return_n in [None, Some(1), Some(3), Some(8)] {
        let settings = Settings {
            return_n,
            ..Settings::default()
        };
        let analysis = analyze(&batch, &settings, false).unwrap();
        let whole = explain_analysis(&analysis, &settings, Some(&cases)).unwrap();
        let (alone, summary) = explain_golden_cases(&analysis, &settings, &cases).unwrap();
        assert_eq!(
            serde_json::to_value(&alone).unwrap(),
            serde_json::to_value(&whole.cases).unwrap()
        );
        assert_eq!(
            serde_json::to_value(&summary).unwrap(),
            serde_json::to_value(&whole.summary).unwrap()
        );
        assert_eq!(summary.cases, cases.cases.len());
    }
}
