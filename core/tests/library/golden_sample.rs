//! The page's built-in cases against the spec-example traces: moving returnN
//! changes the hit levels (checked by hand from contract sections 3 and 6).

use crate::common;

use common::fixture;
use ragtrace_core::{analyze, parse_documents, Settings};
use ragtrace_core::{evaluate_analysis, parse_cases, GoldenLevel, GoldenReport};

fn report(settings: &Settings) -> GoldenReport {
    let docs: Vec<(String, String)> = [
        "dense-trace.json",
        "hybrid-legacy-trace.json",
        "lookup-result.jsonl",
    ]
    .iter()
    .map(|name| (name.to_string(), fixture(name)))
    .collect();
    let analysis = analyze(&parse_documents(&docs), settings, false).unwrap();
    let cases = parse_cases(
        "golden-cases-sample.json",
        &fixture("golden-cases-sample.json"),
    )
    .unwrap();
    evaluate_analysis(&cases, &analysis)
}

fn level_of(report: &GoldenReport, case_id: &str) -> GoldenLevel {
    report
        .cases
        .iter()
        .find(|c| c.case_id == case_id)
        .map(|c| c.level)
        .unwrap()
}

#[test]
fn session_store_is_strong_under_the_traces_own_return_n() {
    // Dense trace options: returnN 4, cap 2 -> accepted chunks 3 and 4 of kb-redis,
    // chunk 1 of the session-store document (3rd) and chunk 2 of kb-mysql: docHit,
    // breadcrumb "Apps > Session store" hit.
    let r = report(&Settings::default());
    assert_eq!(level_of(&r, "session-store"), GoldenLevel::Strong);
    let case = r
        .cases
        .iter()
        .find(|c| c.case_id == "session-store")
        .unwrap();
    assert_eq!(case.doc_ranking, ["kb-redis", "kb-session", "kb-mysql"]);
    assert_eq!(case.reciprocal_rank, 0.5);
    assert_eq!(case.coverage, Some(1.0));
    assert_eq!(
        (r.summary.levels.strong, r.summary.levels.miss),
        (4, 1),
        "the redis, session-store, pay and gateway cases strong; no-run a miss"
    );
}

#[test]
fn return_n_1_turns_session_store_into_a_miss() {
    // Only kb-redis#3 is accepted: no kb-session, no breadcrumb, "30 minute TTL" absent.
    let settings = Settings {
        return_n: Some(1),
        ..Settings::default()
    };
    let r = report(&settings);
    assert_eq!(level_of(&r, "session-store"), GoldenLevel::Miss);
    assert_eq!(level_of(&r, "redis-eviction"), GoldenLevel::Strong);
    assert_eq!((r.summary.levels.strong, r.summary.levels.miss), (3, 2));
}
