//! `explain` on hand-worked traces (`explain-traces.json`, `explain-cases.json`).
//!
//! `cap-push` (returnN 3, cap 1 from its options; qualities 1 - d with M = 1):
//! a#1 0.8, a#2 0.7, b#1 0.6, c#1 0.5, d#1 0.4, a#3 0.3. Accepted a#1, b#1, c#1; a#2
//! and a#3 over the cap, d#1 past returnN. Raising the cap to 2 lets a#2 in and pushes
//! c#1 past returnN; a#3 needs cap 3 and returnN 6 together. Top 0.8: HIGHLY_RELEVANT.
//!
//! `at-threshold`: top quality 0.75 exactly (distance 0.25), on the highly-relevant
//! threshold; a duplicate and an invalid rank. The `maxL2Distance` edges are the
//! `f64`s found by bisecting `1 - min(d, M) / M` in IEEE doubles independently of the
//! product (e.g. the least M with `1 - 0.25 / M >= 0.9` is 2.4999999999999996).

use crate::common;

use common::fixture;
use ragtrace_core::{explain, explain_markdown, parse_cases, parse_documents, Settings};
use serde_json::{json, Value};

fn explained() -> Value {
    let batch = parse_documents(&[(
        "explain-traces.json".to_owned(),
        fixture("explain-traces.json"),
    )]);
    assert!(batch.errors.is_empty(), "{:?}", batch.errors);
    let cases = parse_cases("explain-cases.json", &fixture("explain-cases.json"))
        .unwrap_or_else(|e| panic!("{e:?}"));
    let e = explain(&batch, &Settings::default(), Some(&cases)).unwrap_or_else(|e| panic!("{e}"));
    let md = explain_markdown(&e);
    assert!(md.contains("| returnN = 4 | 1 | 3 | 1 | 0 | 0 |"), "{md}");
    serde_json::to_value(&e).unwrap_or_else(|e| panic!("{e}"))
}

fn sets(list: &Value) -> Value {
    Value::Array(
        list.as_array()
            .map(|l| l.iter().map(|x| x["set"].clone()).collect())
            .unwrap_or_default(),
    )
}

#[test]
fn a_cap_change_pushes_a_block_past_return_n() {
    let e = explained();
    let t = &e["traces"][0];
    assert_eq!(t["index"], 0);
    assert_eq!(t["requestId"], "cap-push");
    assert_eq!(t["level"], "HIGHLY_RELEVANT");
    let c = &t["candidates"];
    let row = |i: usize| {
        (
            c[i]["index"].clone(),
            c[i]["status"].clone(),
            sets(&c[i]["acceptedIf"]),
            sets(&c[i]["droppedIf"]),
        )
    };
    assert_eq!(row(0), (json!(0), json!("accepted"), json!([]), json!([])));
    assert_eq!(
        c[0]["reason"],
        "the first block of the walk is kept under every setting"
    );
    assert_eq!(
        row(1),
        (
            json!(1),
            json!("doc_cap"),
            json!([{"maxChunksPerDocument": 2}]),
            json!([])
        )
    );
    assert_eq!(
        row(2),
        (
            json!(2),
            json!("accepted"),
            json!([]),
            json!([{"returnN": 1}])
        )
    );
    // The cap that lets a#2 in drops c#1: it is pushed past returnN.
    assert_eq!(
        row(3),
        (
            json!(3),
            json!("accepted"),
            json!([]),
            json!([{"returnN": 2}, {"maxChunksPerDocument": 2}])
        )
    );
    assert_eq!(
        row(4),
        (
            json!(4),
            json!("return_n"),
            json!([{"returnN": 4}]),
            json!([])
        )
    );
    // No single setting accepts a#3: the least pair.
    assert_eq!(
        row(5),
        (
            json!(5),
            json!("doc_cap"),
            json!([{"returnN": 6, "maxChunksPerDocument": 3}]),
            json!([])
        )
    );
    assert_eq!(
        t["levelIf"],
        json!([
            {"set": {"maxL2Distance": 1.9999999999999998}, "level": "PRECISE"},
            {"set": {"maxL2Distance": 0.7999999999999997}, "level": "RELEVANT"},
            {"set": {"preciseThreshold": 0.8}, "level": "PRECISE"},
            {"set": {"highlyRelevantThreshold": 0.8000000000000002}, "level": "RELEVANT"}
        ])
    );
    assert_eq!(
        t["lowQualityIf"],
        json!([{"set": {"maxL2Distance": 0.39999999999999997}, "lowQuality": true}])
    );
}

#[test]
fn a_level_exactly_at_a_threshold() {
    let e = explained();
    let t = &e["traces"][1];
    assert_eq!(t["level"], "HIGHLY_RELEVANT");
    assert_eq!(
        t["levelIf"],
        json!([
            {"set": {"maxL2Distance": 2.4999999999999996}, "level": "PRECISE"},
            {"set": {"maxL2Distance": 0.9999999999999997}, "level": "RELEVANT"},
            {"set": {"preciseThreshold": 0.75}, "level": "PRECISE"},
            {"set": {"highlyRelevantThreshold": 0.7500000000000001}, "level": "RELEVANT"}
        ])
    );
    // Raising referenceThreshold above 0.75 would pass highlyRelevantThreshold: invalid.
    assert_eq!(
        t["lowQualityIf"],
        json!([{"set": {"maxL2Distance": 0.49999999999999994}, "lowQuality": true}])
    );
    let c = &t["candidates"];
    assert_eq!(sets(&c[1]["droppedIf"]), json!([{"returnN": 1}]));
    assert_eq!(c[2]["status"], "duplicate");
    assert_eq!(
        c[2]["reason"],
        "duplicate of rank 1: evidence dedup is not a setting, so no setting changes this"
    );
    assert_eq!(c[3]["status"], "invalid");
    assert_eq!(c[3]["index"], 3);
    assert_eq!(sets(&c[3]["acceptedIf"]), json!([]));
}

#[test]
fn cases_are_found_dropped_not_retrieved_or_have_no_trace() {
    let e = explained();
    let cases = &e["cases"];
    let row = |i: usize| {
        (
            cases[i]["caseId"].clone(),
            cases[i]["traceIndex"].clone(),
            cases[i]["hit"].clone(),
            cases[i]["cause"].clone(),
            cases[i]["candidateIndex"].clone(),
            cases[i]["candidateStatus"].clone(),
            cases[i]["foundIf"].clone(),
        )
    };
    assert_eq!(
        row(0),
        (
            json!("case-d"),
            json!(0),
            json!("miss"),
            json!("dropped"),
            json!(4),
            json!("return_n"),
            json!([{"set": {"returnN": 4}, "hit": "strong"}])
        )
    );
    assert_eq!(row(1).3, json!("found"));
    assert_eq!(row(1).2, json!("strong"));
    assert_eq!(row(2).3, json!("not-retrieved"));
    assert_eq!(row(2).6, json!([]));
    assert_eq!(row(3).3, json!("no-trace"));
    assert_eq!(row(3).1, Value::Null);
    assert_eq!(
        e["summary"],
        json!({
            "traces": 2, "cases": 4,
            "causes": {"dropped": 1, "found": 1, "no-trace": 1, "not-retrieved": 1},
            "misses": 3,
            "changes": [{"set": {"returnN": 4}, "recovers": 1, "recoveredCases": ["case-d"],
                         "tracesChanged": 1, "levelTransitions": {}, "hitLevelDrops": 0}]
        })
    );
}

/// Bad input is explained or marked as unchangeable, never a panic: no candidates, only
/// invalid ranks, missing docIds and ties, NaN-like and negative distances, hybrid
/// without denseDistance; a case with no trace and one with no expectations.
#[test]
fn bad_input_is_explained_or_marked_unchangeable() {
    let text = r#"[
      {"requestId": "empty", "candidates": []},
      {"requestId": "all-invalid", "mode": "dense", "candidates": [
        {"originalRank": 0, "score": 0.1}, {"originalRank": "2", "score": 0.2}]},
      {"requestId": "ties", "mode": "dense", "candidates": [
        {"evidenceKey": "k", "originalRank": 1, "score": -0.5},
        {"evidenceKey": "k", "originalRank": 1, "score": 0.3},
        {"evidenceKey": "j", "originalRank": 1, "score": "NaN"},
        {"originalRank": 2}]},
      {"requestId": "hybrid", "mode": "hybrid", "caseId": "h", "candidates": [
        {"docId": "p", "originalRank": 1, "score": 0.02},
        {"docId": "p", "originalRank": 2, "score": 0.01},
        {"docId": "p", "originalRank": 3, "score": 0.01}]}
    ]"#;
    let batch = parse_documents(&[("bad.json".to_owned(), text.to_owned())]);
    let cases = parse_cases(
        "cases.json",
        r#"[{"caseId": "h", "expectedDocIds": []}, {"caseId": "gone", "expectedDocIds": ["p"]}]"#,
    )
    .unwrap_or_else(|e| panic!("{e:?}"));
    let e = explain(&batch, &Settings::default(), Some(&cases)).unwrap_or_else(|e| panic!("{e}"));
    let v = serde_json::to_value(&e).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(v["traces"][0]["level"], "NO_MATCH");
    assert_eq!(v["traces"][0]["levelIf"], json!([]));
    assert!(v["traces"][0]["reason"]
        .as_str()
        .is_some_and(|r| r.contains("no setting changes this")));
    assert_eq!(v["traces"][1]["level"], "NO_MATCH");
    for c in v["traces"][1]["candidates"]
        .as_array()
        .into_iter()
        .flatten()
    {
        assert_eq!(c["status"], "invalid");
        assert_eq!(c["acceptedIf"], json!([]));
        assert!(c["reason"]
            .as_str()
            .is_some_and(|r| r.contains("no setting")));
    }
    // Ties: by evidenceKey, then input position; the negative distance counts as 0.
    let ties = &v["traces"][2];
    assert_eq!(ties["level"], "PRECISE");
    let statuses: Vec<&str> = ties["candidates"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["status"].as_str())
        .collect();
    assert_eq!(statuses, ["accepted", "accepted", "duplicate", "accepted"]);
    // Rank quality reads no distance and no denseDistance is there: only returnN and the
    // cap move anything, and a rank-1 block keeps the top at 1.0.
    let hybrid = &v["traces"][3];
    assert_eq!(hybrid["level"], "PRECISE");
    assert_eq!(hybrid["levelIf"], json!([]));
    assert_eq!(hybrid["reason"], "no setting changes the level alone");
    assert_eq!(
        sets(&hybrid["candidates"][2]["acceptedIf"]),
        json!([{"maxChunksPerDocument": 3}])
    );
    assert_eq!(v["cases"][0]["cause"], "not-retrieved");
    assert_eq!(
        v["cases"][0]["reason"],
        "the case expects no document: no setting finds one"
    );
    assert_eq!(v["cases"][1]["cause"], "no-trace");
}
