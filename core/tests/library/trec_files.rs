//! TREC files read where cases and traces are read (contract section 12.3): the
//! `--trec` export read back gives the same metrics.

use crate::common::fixture;
use ragtrace_core::{
    analyze, evaluate_analysis, generate_batch, generate_cases, parse_cases, parse_document,
    trec_qrels, trec_run, Metric, Settings,
};

fn settings() -> Settings {
    let mut s = Settings::default();
    for (key, value) in [("returnN", "4"), ("useTraceOptions", "false")] {
        s.set(key, value).unwrap_or_else(|e| panic!("{key}: {e:?}"));
    }
    s
}

/// A report's qrels and run, read back as cases and traces, evaluate to the same
/// per-case metrics (every case's k is the global returnN here, as the run file has no
/// per-trace cut-off).
#[test]
fn the_trec_export_reads_back_to_the_same_metrics() {
    let batch = parse_document("t", &generate_batch(80, 12, 5));
    let cases = parse_cases("c", &generate_cases(80, 12, 5)).unwrap_or_else(|e| panic!("{e:?}"));
    let analysis = analyze(&batch, &settings(), false).unwrap_or_else(|e| panic!("{e}"));
    let report = evaluate_analysis(&cases, &analysis);
    let qrels = trec_qrels(&report);
    let run = trec_run(&report, "ragtrace");

    let cases_back = parse_cases("qrels.txt", &qrels).unwrap_or_else(|e| panic!("{e:?}"));
    let batch_back = parse_document("run.txt", &run);
    assert!(batch_back.errors.is_empty(), "{:?}", batch_back.errors);
    let analysis_back = analyze(&batch_back, &settings(), false).unwrap_or_else(|e| panic!("{e}"));
    let back = evaluate_analysis(&cases_back, &analysis_back);

    // Every case with a document judged comes back (qrels cannot hold an empty query).
    let mut compared = 0;
    for case in &report.cases {
        let Some(again) = back.cases.iter().find(|c| c.case_id == case.case_id) else {
            assert!(case.expected_doc_ids.is_empty() && case.doc_ranking.is_empty());
            continue;
        };
        assert_eq!(again.doc_ranking, case.doc_ranking, "{}", case.case_id);
        for m in Metric::ALL {
            assert_eq!(
                m.of_case(again),
                m.of_case(case),
                "{} {}",
                case.case_id,
                m.key()
            );
        }
        compared += 1;
    }
    assert!(compared >= 10, "{compared}");
    assert!(report.cases.iter().any(|c| c.doc_hit) && report.cases.iter().any(|c| !c.doc_hit));
}

/// A qrels line for a query no run has: the case has no trace and says so.
#[test]
fn a_qrels_query_no_run_has_is_a_case_without_a_trace() {
    let cases =
        parse_cases("qrels.txt", "q1 0 d1 1\nq9 0 d2 2\n").unwrap_or_else(|e| panic!("{e:?}"));
    let batch = parse_document("run.txt", "q1 Q0 d1 1 2.0 bm25\n");
    let analysis = analyze(&batch, &Settings::default(), false).unwrap_or_else(|e| panic!("{e}"));
    let report = evaluate_analysis(&cases, &analysis);
    assert_eq!(report.cases[0].reciprocal_rank, 1.0);
    let missing = &report.cases[1];
    assert_eq!(missing.case_id, "q9");
    assert_eq!(missing.trace_name, None);
    assert_eq!(
        missing.note.as_deref(),
        Some("no trace: none has caseId \"q9\"")
    );
}

/// Graded qrels read, evaluated, exported with `--trec` and read back: the same
/// per-case metrics (trec_eval's graded test qrels, grades -1 to 4, at returnN 10).
#[test]
fn graded_qrels_survive_the_trec_export() {
    let read = |name: &str| fixture(&format!("trec_eval/{name}"));
    let mut s = Settings::default();
    for (key, value) in [("returnN", "10"), ("maxChunksPerDocument", "1000")] {
        s.set(key, value).unwrap_or_else(|e| panic!("{key}: {e:?}"));
    }
    let evaluate = |qrels: &str, run: &str| {
        let cases = parse_cases("qrels", qrels).unwrap_or_else(|e| panic!("{e:?}"));
        let batch = parse_document("run", run);
        assert!(batch.errors.is_empty(), "{:?}", batch.errors);
        evaluate_analysis(
            &cases,
            &analyze(&batch, &s, false).unwrap_or_else(|e| panic!("{e}")),
        )
    };
    let report = evaluate(&read("qrels.rel_level"), &read("results.test"));
    assert!(report.cases.iter().all(|c| c.judgments.is_some()));
    let back = evaluate(&trec_qrels(&report), &trec_run(&report, "again"));
    assert_eq!(back.cases.len(), 3);
    for (case, again) in report.cases.iter().zip(&back.cases) {
        assert_eq!(again.case_id, case.case_id);
        assert_eq!(again.judgments, case.judgments);
        for m in Metric::ALL {
            assert_eq!(
                m.of_case(again),
                m.of_case(case),
                "{} {}",
                case.case_id,
                m.key()
            );
        }
    }
}

/// A run file reads the same through every reader: whole text, bytes streamed in
/// chunks of any size (the page and the CLI), and a reader over a byte stream; a qid
/// that JSON cannot start (`q1`) and a leading comment do not refuse it.
#[test]
fn every_reader_reads_a_run_file_alike() {
    use ragtrace_core::{read_batch, DocumentReader};
    let run = "# a comment first\nq1 Q0 d3 1 2.5 bm25\nq1 Q0 d1 2 1.5 bm25\nq2 Q0 d2 1 0.5 bm25\n";
    let whole = parse_document("run.txt", run);
    assert!(whole.errors.is_empty(), "{:?}", whole.errors);
    let names: Vec<Option<&str>> = whole
        .traces
        .iter()
        .map(|t| t.request_id.as_deref())
        .collect();
    assert_eq!(names, [Some("bm25/q1"), Some("bm25/q2")]);
    let analysis = |batch| {
        let a = analyze(&batch, &Settings::default(), false).expect("valid settings");
        serde_json::to_string(&a).expect("serialises")
    };
    let expected = analysis(parse_document("run.txt", run));
    for chunk in [1, 7, run.len()] {
        let mut reader = DocumentReader::new("run.txt");
        let mut batch = ragtrace_core::ParsedBatch::default();
        for part in run.as_bytes().chunks(chunk) {
            reader.push(part);
            assert!(reader.refusal().is_none(), "refused in chunks of {chunk}");
            batch.extend(reader.take_parsed());
        }
        batch.extend(reader.finish());
        assert_eq!(analysis(batch), expected, "chunks of {chunk}");
    }
    let streamed = read_batch("run.txt", run.as_bytes()).expect("reads");
    assert_eq!(analysis(streamed), expected);
}
