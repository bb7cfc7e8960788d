//! Score kinds (contract section 10.1): the distance each kind's score stands for, the
//! quality it gives, the warnings of out-of-range scores, and how the setting is set.

use ragtrace_core::{
    analyze, parse_document, Analysis, MergeError, Partial, ScoreKind, SettingKey, Settings,
};
use serde_json::Value;

/// A dense trace of cosine similarities: 0.875 (d = sqrt(2 - 1.75) = 0.5), 0.5 (d = 1),
/// 1.2 (out of range: read as 1, d = 0) and -0.3 (in range: d = sqrt(2.6)).
const COSINE: &str = r#"{"requestId":"cos","mode":"dense","candidates":[
 {"evidenceKey":"a#1","docId":"a","originalRank":1,"score":0.875,"scoreLabel":"dense"},
 {"evidenceKey":"b#1","docId":"b","originalRank":2,"score":0.5,"scoreLabel":"dense"},
 {"evidenceKey":"c#1","docId":"c","originalRank":3,"score":1.2,"scoreLabel":"dense"},
 {"evidenceKey":"d#1","docId":"d","originalRank":4,"score":-0.3,"scoreLabel":"dense"}]}"#;

fn analysed(text: &str, settings: &Settings) -> Value {
    let batch = parse_document("t.json", text);
    let analysis: Analysis = analyze(&batch, settings, false).expect("valid settings");
    serde_json::to_value(&analysis).expect("serialises")
}

fn with(key: &str, value: &str) -> Settings {
    let mut settings = Settings::default();
    settings.set(key, value).expect("a valid setting");
    settings
}

/// `(score, distance, qualityScore)` of each block, in processing order.
fn blocks(trace: &Value) -> Vec<(Value, Value, f64)> {
    trace["blocks"]
        .as_array()
        .expect("blocks")
        .iter()
        .map(|b| {
            (
                b["score"].clone(),
                b["distance"].clone(),
                b["qualityScore"].as_f64().expect("a quality"),
            )
        })
        .collect()
}

fn codes(trace: &Value) -> Vec<String> {
    trace["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| d["code"].as_str().unwrap_or("").to_owned())
        .collect()
}

#[test]
fn cosine_similarities_read_as_distances() {
    let json = analysed(COSINE, &with("scoreKind", "cosineSimilarity"));
    let trace = &json["traces"][0];
    let d4 = (2.6f64).sqrt();
    assert_eq!(
        blocks(trace),
        [
            // q = 1 - 0.5 / 1 = 0.5
            (0.875.into(), 0.5.into(), 0.5),
            // q = 1 - 1 / 1 = 0
            (0.5.into(), 1.0.into(), 0.0),
            // 1.2 read as 1: d = 0, q = 1
            (1.2.into(), 0.0.into(), 1.0),
            // d = sqrt(2.6) > 1: q = 0
            ((-0.3).into(), d4.into(), 0.0),
        ]
    );
    assert_eq!(trace["topQuality"], 1.0);
    assert_eq!(trace["config"]["scoreKind"], "cosineSimilarity");
    // One warning, on the out-of-range candidate, naming the kind; the negative
    // similarity is in range (no negative-distance warning).
    assert_eq!(codes(trace), ["score-out-of-range"]);
    let message = trace["diagnostics"][0]["message"].as_str().unwrap_or("");
    assert!(
        message.contains("candidate 2 (c#1)")
            && message.contains("cosineSimilarity")
            && message.contains("[-1, 1]"),
        "{message}"
    );
    // maxL2Distance 2: q = 1 - 0.5 / 2 = 0.75, 1 - 1 / 2 = 0.5, 1 - sqrt(2.6) / 2.
    let mut wider = with("score_kind", "cosine_similarity");
    wider.set("maxL2Distance", "2").expect("valid");
    let qualities: Vec<f64> = blocks(&analysed(COSINE, &wider)["traces"][0])
        .into_iter()
        .map(|b| b.2)
        .collect();
    assert_eq!(qualities, [0.75, 0.5, 1.0, 1.0 - d4 / 2.0]);
}

/// Under the default kind the same scores are L2 distances, as before: the negative
/// one counts as 0 with its own warning, and nothing is out of range.
#[test]
fn l2_reads_the_scores_as_before() {
    let json = analysed(COSINE, &Settings::default());
    let trace = &json["traces"][0];
    assert_eq!(
        blocks(trace),
        [
            (0.875.into(), 0.875.into(), 1.0 - 0.875),
            (0.5.into(), 0.5.into(), 0.5),
            (1.2.into(), 1.2.into(), 0.0),
            ((-0.3).into(), 0.0.into(), 1.0),
        ]
    );
    assert_eq!(codes(trace), ["negative-distance"]);
}

#[test]
fn inverse_l2_squared_zero_gives_no_distance_and_quality_0() {
    let text = r#"{"mode":"dense","candidates":[
     {"evidenceKey":"a#1","docId":"a","originalRank":1,"score":0.8,"scoreLabel":"dense"},
     {"evidenceKey":"b#1","docId":"b","originalRank":2,"score":0,"scoreLabel":"dense"},
     {"evidenceKey":"c#1","docId":"c","originalRank":3,"scoreLabel":"dense"}]}"#;
    let json = analysed(text, &with("scoreKind", "inverseL2Squared"));
    let trace = &json["traces"][0];
    assert_eq!(
        blocks(trace),
        [
            // sqrt(1 / 0.8 - 1) = 0.5: q = 0.5
            (0.8.into(), 0.5.into(), 0.5),
            (0.0.into(), Value::Null, 0.0),
            (Value::Null, Value::Null, 0.0),
        ]
    );
    assert_eq!(codes(trace), ["score-out-of-range"]);
    let message = trace["diagnostics"][0]["message"].as_str().unwrap_or("");
    assert!(message.ends_with("quality 0"), "{message}");
}

/// A hybrid hit's `denseDistance` is read under the kind too, when the hybrid quality
/// reads it: elasticCosine 0.9375 is d = sqrt(4 - 3.75) = 0.5.
#[test]
fn a_dense_distance_is_read_under_the_kind() {
    let text = r#"{"mode":"hybrid","candidates":[
     {"evidenceKey":"a#1","docId":"a","originalRank":2,"score":0.016,"scoreLabel":"hybrid","denseDistance":0.9375},
     {"evidenceKey":"b#1","docId":"b","originalRank":1,"score":0.017,"scoreLabel":"hybrid","denseDistance":1.5}]}"#;
    let mut settings = with("scoreKind", "elastic_cosine");
    settings
        .set("hybridQuality", "denseWhenPresent")
        .expect("valid");
    let json = analysed(text, &settings);
    let trace = &json["traces"][0];
    // Rank 1 first: 1.5 is out of [0, 1], read as 1 (d = 0, q = 1).
    assert_eq!(
        blocks(trace),
        [
            (0.017.into(), 0.0.into(), 1.0),
            (0.016.into(), 0.5.into(), 0.5)
        ]
    );
    assert_eq!(codes(trace), ["score-out-of-range"]);
    // Under rank quality the distance is not read: no distance, no warning (the one
    // left says rank quality makes the gate inert).
    let json = analysed(text, &with("scoreKind", "elasticCosine"));
    let trace = &json["traces"][0];
    assert_eq!(blocks(trace)[0].1, Value::Null);
    assert_eq!(codes(trace), ["low-quality-gate-inert"]);
}

/// Set from a config file, `--set` (both spellings), and a trace's own options; a bad
/// value is an error naming the key.
#[test]
fn the_kind_is_set_like_every_setting() {
    let file = Settings::from_json_text(r#"{"score_kind": "l2_squared"}"#).expect("valid");
    assert_eq!(file.score_kind, Some(ScoreKind::L2Squared));
    for (text, kind) in [
        ("negativeInnerProduct", ScoreKind::NegativeInnerProduct),
        ("negative_inner_product", ScoreKind::NegativeInnerProduct),
        ("inverse_l2_squared", ScoreKind::InverseL2Squared),
        ("l2", ScoreKind::L2),
    ] {
        assert_eq!(with("scoreKind", text).score_kind, Some(kind));
    }
    let err = Settings::default()
        .set("scoreKind", "cosine")
        .expect_err("not a kind");
    assert_eq!(err.key.as_deref(), Some("scoreKind"));
    let err = Settings::from_json_text(r#"{"scoreKind": 3}"#).expect_err("not a string");
    assert_eq!(err.key.as_deref(), Some("scoreKind"));
    assert_eq!(SettingKey::parse("score_kind"), Some(SettingKey::ScoreKind));
    // A trace's own options: cosineDistance 0.125 is d = sqrt(0.25) = 0.5, q = 0.5.
    let own = r#"{"mode":"dense","options":{"scoreKind":"cosineDistance"},"candidates":[
     {"evidenceKey":"a#1","docId":"a","originalRank":1,"score":0.125,"scoreLabel":"dense"}]}"#;
    let json = analysed(own, &Settings::default());
    assert_eq!(
        blocks(&json["traces"][0]),
        [(0.125.into(), 0.5.into(), 0.5)]
    );
    // The user's settings win over the trace's.
    let json = analysed(own, &with("scoreKind", "l2"));
    assert_eq!(
        blocks(&json["traces"][0]),
        [(0.125.into(), 0.125.into(), 0.875)]
    );
}

/// Partials made under different kinds do not merge, and say which key differs.
#[test]
fn partials_of_different_kinds_do_not_merge() {
    let lines = [COSINE.replace('\n', "")];
    let one = Partial::from_lines(&Settings::default(), "a", 1, &lines).expect("valid");
    let other =
        Partial::from_lines(&with("scoreKind", "cosineSimilarity"), "a", 2, &lines).expect("valid");
    assert_eq!(
        Partial::merge([one.clone(), other]).err(),
        Some(MergeError::Settings {
            key: "scoreKind".to_owned(),
            one: "not set".to_owned(),
            another: "cosineSimilarity".to_owned(),
        })
    );
    let same =
        Partial::from_lines(&with("scoreKind", "l2"), "a", 2, &lines).expect("valid settings");
    // Setting the default explicitly is still a different setting, as for every key.
    assert!(Partial::merge([one, same]).is_err());
}

/// A dense trace with scores in the order of the ranks 1, 2, 3.
fn dense_trace(id: &str, scores: [f64; 3]) -> String {
    format!(
        r#"{{"requestId":"{id}","mode":"dense","candidates":[{}]}}"#,
        scores
            .iter()
            .enumerate()
            .map(|(i, s)| format!(
                r#"{{"evidenceKey":"{id}-{i}","docId":"{id}-{i}","originalRank":{},"score":{s},"scoreLabel":"dense"}}"#,
                i + 1
            ))
            .collect::<Vec<_>>()
            .join(",")
    )
}

/// Five traces: three whose scores fall along the rank (similarities), one that rises,
/// one flat (no direction), and one with a single scored candidate (none either).
fn mostly_similarities() -> Vec<String> {
    vec![
        dense_trace("fall-1", [0.92, 0.85, 0.61]),
        dense_trace("fall-2", [0.88, 0.90, 0.70]),
        dense_trace("rise-1", [0.30, 0.45, 0.80]),
        dense_trace("flat", [0.50, 0.20, 0.50]),
        dense_trace("fall-3", [0.75, 0.74, 0.73]),
        r#"{"requestId":"one","mode":"dense","candidates":[{"evidenceKey":"x","originalRank":1,"score":0.9,"scoreLabel":"dense"}]}"#.to_owned(),
    ]
}

fn batch_warnings(lines: &[String], settings: &Settings) -> Vec<(String, usize, String)> {
    let batch = parse_document("b.jsonl", &lines.join("\n"));
    analyze(&batch, settings, false)
        .expect("valid settings")
        .warnings
        .into_iter()
        .map(|w| (w.code, w.traces, w.message))
        .collect()
}

/// Four traces have a direction; three fall, which contradicts l2 (a distance): more
/// than half, so the batch says so in one line. Declared as cosine similarities, only
/// the rising one contradicts: 1 of 4 is not most, and nothing is said.
#[test]
fn the_batch_says_when_the_scores_contradict_the_kind() {
    let lines = mostly_similarities();
    let fit: Vec<_> = batch_warnings(&lines, &Settings::default())
        .into_iter()
        .filter(|w| w.0 == "score-kind-mismatch")
        .collect();
    assert_eq!(
        fit,
        [(
            "score-kind-mismatch".to_owned(),
            3,
            "scores fall along the rank in 3 of 4 traces: these look like similarities, but scoreKind is l2".to_owned()
        )]
    );
    let declared = batch_warnings(&lines, &with("scoreKind", "cosineSimilarity"));
    assert!(
        declared.iter().all(|w| w.0 != "score-kind-mismatch"),
        "{declared:?}"
    );
    // Two of four contradicting is half, not most.
    let half = [
        dense_trace("fall-1", [0.9, 0.8, 0.7]),
        dense_trace("fall-2", [0.9, 0.8, 0.7]),
        dense_trace("rise-1", [0.1, 0.2, 0.3]),
        dense_trace("rise-2", [0.1, 0.2, 0.3]),
    ];
    assert!(batch_warnings(&half, &Settings::default())
        .iter()
        .all(|w| w.0 != "score-kind-mismatch"));
    // Distances declared as similarities: "rise ... look like distances".
    let rising = [
        dense_trace("a", [0.1, 0.2, 0.3]),
        dense_trace("b", [0.4, 0.5, 0.6]),
    ];
    let lines = batch_warnings(&rising, &with("scoreKind", "elasticCosine"));
    assert!(lines.contains(&(
        "score-kind-mismatch".to_owned(),
        2,
        "scores rise along the rank in 2 of 2 traces: these look like distances, but scoreKind is elasticCosine".to_owned()
    )));
}

/// Scores of 1 + cos (in [0, 2]) read as elasticCosine ([0, 1]): 5 of the 6 scores
/// read are above 1, more than half, so the batch says so in one line.
#[test]
fn the_batch_says_when_most_scores_are_out_of_range() {
    let lines = [
        dense_trace("a", [1.9, 1.7, 1.2]),
        dense_trace("b", [1.5, 1.1, 0.9]),
    ];
    let warnings = batch_warnings(&lines, &with("scoreKind", "elasticCosine"));
    assert!(
        warnings.contains(&(
            "scores-out-of-range".to_owned(),
            2,
            "5 of 6 scores are outside the range [0, 1] of scoreKind elasticCosine: the scores are of another kind".to_owned()
        )),
        "{warnings:?}"
    );
    // As cosine distances ([0, 2]) every score is in range.
    let warnings = batch_warnings(&lines, &with("scoreKind", "cosineDistance"));
    assert!(warnings.iter().all(|w| w.0 != "scores-out-of-range"));
}

/// The fit counts add up: the batch's lines are the same from partials of it merged,
/// and from the streaming analyzer fed a trace at a time.
#[test]
fn the_fit_check_merges_exactly_in_partials() {
    let lines = mostly_similarities();
    let settings = Settings::default();
    let whole = batch_warnings(&lines, &settings);
    let parts: Vec<Partial> = lines
        .iter()
        .enumerate()
        .map(|(i, line)| {
            Partial::from_lines(&settings, "b.jsonl", i + 1, std::slice::from_ref(line))
                .expect("valid settings")
        })
        .collect();
    let merged = Partial::merge(parts.into_iter().rev()).expect("same settings");
    let merged = Partial::from_bytes(&merged.to_bytes()).expect("its own bytes");
    let view: Vec<_> = merged
        .finish(false)
        .warnings
        .into_iter()
        .map(|w| (w.code, w.traces, w.message))
        .collect();
    let fit = |w: &[(String, usize, String)]| -> Vec<(String, usize, String)> {
        w.iter()
            .filter(|w| w.0 == "score-kind-mismatch")
            .cloned()
            .collect()
    };
    assert_eq!(fit(&view), fit(&whole));
    assert_eq!(fit(&view).len(), 1);
    let mut analyzer = ragtrace_core::BatchAnalyzer::new(&settings, false).expect("valid");
    for line in &lines {
        analyzer.analyze_part(parse_document("b.jsonl", line), drop);
    }
    let streamed: Vec<_> = analyzer
        .finish()
        .warnings
        .into_iter()
        .map(|w| (w.code, w.traces, w.message))
        .collect();
    assert_eq!(fit(&streamed), fit(&whole));
}
