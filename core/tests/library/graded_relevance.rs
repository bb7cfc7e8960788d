//! Graded judgments and `relevantGrade` (contract section 12.1) through every place the
//! golden evaluation runs: eval, the comparisons, calibration, explain's golden cases and
//! the partial case matches. The values are computed by hand in the comments.

use ragtrace_core::{
    analyze, case_metrics, evaluate_analysis, explain_golden_cases, parse_cases, parse_document,
    CaseMatches, CaseSet, Metric, Settings,
};

/// One trace ranking d3, d1, d4, d5, x (every candidate accepted at returnN 5).
fn trace() -> String {
    serde_json::json!({"caseId": "g", "query": "graded", "candidates": [
        {"docId": "d3", "originalRank": 1, "score": 0.10},
        {"docId": "d1", "originalRank": 2, "score": 0.20},
        {"docId": "d4", "originalRank": 3, "score": 0.30},
        {"docId": "d5", "originalRank": 4, "score": 0.40},
        {"docId": "x", "originalRank": 5, "score": 0.50}
    ]})
    .to_string()
}

/// Grades d1 3, d2 2, d3 0, d4 -1, d5 1 (d2 not retrieved).
const CASES: &str =
    r#"[{"caseId": "g", "judgments": {"d1": 3, "d2": 2, "d3": 0, "d4": -1, "d5": 1}}]"#;

fn cases(text: &str) -> CaseSet {
    match parse_cases("cases.json", text) {
        Ok(set) => set,
        Err(errors) => panic!("the cases parse: {errors:?}"),
    }
}

fn settings(relevant_grade: usize, return_n: usize) -> Settings {
    let mut s = Settings::default();
    s.set("relevantGrade", &relevant_grade.to_string())
        .unwrap_or_else(|e| panic!("{e:?}"));
    s.set("returnN", &return_n.to_string())
        .unwrap_or_else(|e| panic!("{e:?}"));
    s.set("maxL2Distance", "10")
        .unwrap_or_else(|e| panic!("{e:?}"));
    s
}

fn analysis(relevant_grade: usize, return_n: usize) -> ragtrace_core::Analysis {
    let batch = parse_document("run.json", &trace());
    analyze(&batch, &settings(relevant_grade, return_n), false).unwrap_or_else(|e| panic!("{e:?}"))
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

/// Ranking grades [0, 3, -1, 1, 0], k = 5; ideal gains 3, 2, 1.
/// nDCG = (3/log2 3 + 1/log2 5) / (3/log2 2 + 2/log2 3 + 1/log2 4) = 0.4879324590115489
/// (gains as grades, trec_eval ndcg_cut), whatever relevantGrade is.
/// relevantGrade 1: relevant d1, d2, d5: recall 2/3, P@5 2/5, RR 1/2, hit,
/// AP (relevant at 2 and 4) = (1/2 + 2/4) / 3 = 1/3.
/// relevantGrade 2: relevant d1, d2: recall 1/2, P@5 1/5, RR 1/2, hit, AP (1/2) / 2.
/// relevantGrade 4: none relevant: 0 everywhere but nDCG, with a note.
#[test]
fn graded_metrics_by_hand_at_each_relevant_grade() {
    let set = cases(CASES);
    for (grade, hit, recall, precision, rr, ap) in [
        (1, true, 2.0 / 3.0, 0.4, 0.5, 1.0 / 3.0),
        (2, true, 0.5, 0.2, 0.5, 0.25),
        (4, false, 0.0, 0.0, 0.0, 0.0),
    ] {
        let report = evaluate_analysis(&set, &analysis(grade, 5));
        let c = &report.cases[0];
        assert_eq!(c.doc_hit, hit, "relevantGrade {grade}");
        assert!(close(c.recall, recall), "{grade}: recall {}", c.recall);
        assert!(close(c.precision, precision), "{grade}: P {}", c.precision);
        assert!(
            close(c.reciprocal_rank, rr),
            "{grade}: RR {}",
            c.reciprocal_rank
        );
        assert!(
            close(c.average_precision, ap),
            "{grade}: AP {}",
            c.average_precision
        );
        assert!(
            close(c.ndcg, 0.4879324590115489),
            "{grade}: nDCG {}",
            c.ndcg
        );
        // The many-run path computes the same values.
        let values = case_metrics(&set, &analysis(grade, 5));
        let Some(Some(v)) = values.first() else {
            panic!("the case links");
        };
        for m in Metric::ALL {
            assert!(close(v[m.index()], m.of_case(c)), "{grade}: {}", m.key());
        }
    }
    let report = evaluate_analysis(&set, &analysis(4, 5));
    let note = report.cases[0].note.clone().unwrap_or_default();
    assert!(
        note.contains("relevantGrade 4 is above every grade of the case (the highest is 3)"),
        "{note}"
    );
    // report.json carries the judgments as read, and the relevant documents as expected.
    let json = serde_json::to_value(&report).unwrap_or_default();
    assert_eq!(
        json["cases"][0]["judgments"],
        serde_json::json!({"d1": 3, "d2": 2, "d3": 0, "d4": -1, "d5": 1})
    );
    let at_two = serde_json::to_value(evaluate_analysis(&set, &analysis(2, 5))).unwrap_or_default();
    assert_eq!(
        at_two["cases"][0]["expectedDocIds"],
        serde_json::json!(["d1", "d2"])
    );
    assert_eq!(
        at_two["cases"][0]["missingDocIds"],
        serde_json::json!(["d2"])
    );
}

/// k = 2 (returnN 2): the ranking is d3, d1. Ideal gains 3, 2 at positions 1, 2:
/// nDCG@2 = (3/log2 3) / (3 + 2/log2 3) = 0.44412286644879784.
#[test]
fn the_ideal_ranking_is_cut_at_k() {
    let report = evaluate_analysis(&cases(CASES), &analysis(1, 2));
    let c = &report.cases[0];
    assert_eq!(c.k, 2);
    assert!(close(c.ndcg, 0.44412286644879784), "{}", c.ndcg);
    assert!(close(c.precision, 0.5));
    assert!(close(c.recall, 1.0 / 3.0));
}

/// A docId in expectedDocIds and not judged has grade 1; a judgment overrides it.
#[test]
fn expected_documents_are_grade_one_unless_judged() {
    // d1 expected and judged 0: not relevant; d5 expected only: grade 1.
    let set = cases(r#"[{"caseId": "g", "expectedDocIds": ["d1", "d5"], "judgments": {"d1": 0}}]"#);
    let report = evaluate_analysis(&set, &analysis(1, 5));
    let c = &report.cases[0];
    // Relevant: d5 only, at rank 4. RR 1/4, recall 1, P@5 1/5, nDCG (1/log2 5) / 1.
    assert!(close(c.reciprocal_rank, 0.25));
    assert!(close(c.recall, 1.0));
    assert!(close(c.precision, 0.2));
    assert!(close(c.ndcg, 1.0 / 5f64.log2()), "{}", c.ndcg);
    assert_eq!(c.expected_doc_ids, ["d5"]);
}

#[test]
fn bad_grades_are_located_errors() {
    for (judgments, pointer, says) in [
        (r#"{"d1": 2.5}"#, "/0/judgments/d1", "must be an integer"),
        (r#"{"d1": "3"}"#, "/0/judgments/d1", "found a string"),
        (
            r#"{"d1": 1, "d~2": 3000000000}"#,
            "/0/judgments/d~02",
            "3000000000",
        ),
        (r#"[["d1", 1]]"#, "/0/judgments", "must be an object"),
    ] {
        let text = format!(r#"[{{"caseId": "g", "judgments": {judgments}}}]"#);
        let Err(errors) = parse_cases("cases.json", &text) else {
            panic!("{judgments} is refused");
        };
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!(errors[0].path.as_deref(), Some(pointer), "{judgments}");
        assert!(errors[0].message.contains(says), "{}", errors[0].message);
    }
}

/// A whole number written as a float (how a JavaScript number arrives) is a grade.
#[test]
fn a_whole_float_is_a_grade() {
    let set = cases(r#"[{"caseId": "g", "judgments": {"d1": 2.0, "d2": -1.0}}]"#);
    let judgments = set.cases[0].judgments.clone().unwrap_or_default();
    assert_eq!(judgments.0, [("d1".to_owned(), 2), ("d2".to_owned(), -1)]);
}

#[test]
fn a_docid_judged_twice_keeps_the_last_grade_with_a_warning() {
    let set = cases(r#"{"cases": [{"caseId": "g", "judgments": {"d1": 0, "d2": 1, "d1": 3}}]}"#);
    let warning = set
        .diagnostics
        .iter()
        .find(|d| d.code == "repeated-judgment")
        .unwrap_or_else(|| panic!("a warning: {:?}", set.diagnostics));
    assert_eq!(warning.path.as_deref(), Some("/cases/0/judgments/d1"));
    assert!(warning.message.contains("case 1"), "{}", warning.message);
    let judgments = set.cases[0].judgments.clone().unwrap_or_default();
    assert_eq!(judgments.0, [("d1".to_owned(), 3), ("d2".to_owned(), 1)]);
}

#[test]
fn a_case_with_only_negative_grades_is_noted() {
    let set = cases(r#"[{"caseId": "g", "judgments": {"d1": -1, "d4": -2}}]"#);
    let report = evaluate_analysis(&set, &analysis(1, 5));
    let c = &report.cases[0];
    assert_eq!((c.doc_hit, c.ndcg, c.recall), (false, 0.0, 0.0));
    let note = c.note.clone().unwrap_or_default();
    assert!(
        note.contains("every judged document has a negative grade"),
        "{note}"
    );
}

/// Explain's golden cases read the relevant documents: at relevantGrade 1 the case is
/// found (d1 is accepted); at 2 only d2 is relevant, which no trace retrieved.
#[test]
fn explain_reads_the_relevant_documents() {
    let set = cases(r#"[{"caseId": "g", "judgments": {"d1": 1, "d2": 2}}]"#);
    for (grade, cause) in [(1, "found"), (2, "not-retrieved")] {
        let a = analysis(grade, 5);
        let (explained, _) =
            explain_golden_cases(&a, &settings(grade, 5), &set).unwrap_or_else(|e| panic!("{e:?}"));
        let json = serde_json::to_value(&explained[0]).unwrap_or_default();
        assert_eq!(json["cause"], cause, "relevantGrade {grade}: {json}");
    }
}

/// The partial case matches evaluate as the whole batch does, under relevantGrade 2.
#[test]
fn partial_case_matches_use_the_relevant_grade() {
    let set = cases(CASES);
    let s = settings(2, 5);
    let matches = CaseMatches::from_document(&s, &set, "run.json", trace().as_bytes())
        .unwrap_or_else(|e| panic!("{e:?}"));
    let merged = matches.evaluate(&set).unwrap_or_else(|e| panic!("{e:?}"));
    let whole = evaluate_analysis(&set, &analysis(2, 5));
    assert_eq!(merged.cases, whole.cases);
    assert!(close(merged.cases[0].recall, 0.5));
}

/// Calibration's golden outcome follows relevantGrade: at 4 nothing is relevant, so
/// the case is not found.
#[test]
fn calibration_reads_the_graded_outcome() {
    let set = cases(CASES);
    for (grade, found) in [(1, true), (4, false)] {
        let calibration = ragtrace_core::calibrate(&set, &analysis(grade, 5));
        let json = serde_json::to_value(&calibration).unwrap_or_default();
        let gate = &json["gate"]["all"];
        assert_eq!(gate["positives"], u64::from(!found), "{grade}: {gate}");
    }
}
