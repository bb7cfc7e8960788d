//! TREC files read where cases and traces are read (contract section 12.3): the
//! `--trec` export read back gives the same metrics, and the CLI's eval and compare
//! take a qrels file and run files directly.

use ragtrace_core::{
    analyze, evaluate_analysis, generate_batch, generate_cases, parse_cases, parse_document,
    trec_qrels, trec_run, Metric, Settings,
};
use std::process::{Command, Output};

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

fn ragtrace(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ragtrace"))
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{e}"))
}

fn fixture(name: &str) -> String {
    format!(
        "{}/../tests/fixtures/trec_eval/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// `ragtrace eval --cases qrels run` and `ragtrace compare --run a=run --run b=run
/// --cases qrels` read the TREC files as they are.
#[test]
fn eval_and_compare_read_qrels_and_run_files() {
    let out = std::env::temp_dir().join(format!("ragtrace-trec-{}", std::process::id()));
    let out_dir = out.to_string_lossy().into_owned();
    let qrels = fixture("qrels.rel_level");
    let run = fixture("results.test");
    let eval = ragtrace(&[
        "eval",
        "--cases",
        &qrels,
        "--set",
        "returnN=10",
        "--set",
        "maxChunksPerDocument=1000",
        "--out-dir",
        &out_dir,
        &run,
    ]);
    assert_eq!(
        eval.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&eval.stderr)
    );
    let report: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("report.json")).unwrap_or_else(|e| panic!("{e}")),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    // Query 302 at k = 10, trec_eval -l 1: nDCG@10 0.752969406552648, P@10 0.7.
    let q302 = &report["cases"][1];
    assert_eq!(q302["caseId"], "302");
    assert_eq!(q302["traceName"], "STANDARD/302");
    assert!((q302["ndcg"].as_f64().unwrap_or(0.0) - 0.752969406552648).abs() < 1e-12);
    assert!((q302["precision"].as_f64().unwrap_or(0.0) - 0.7).abs() < 1e-12);

    let compare = ragtrace(&[
        "compare",
        "--run",
        &format!("bm25={run}"),
        "--run",
        &format!("again={run}"),
        "--cases",
        &qrels,
        "--out-dir",
        &out_dir,
    ]);
    assert_eq!(
        compare.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&compare.stderr)
    );
    let json: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("compare.json")).unwrap_or_else(|e| panic!("{e}")),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(json["cases"]["common"], 3);
    let metrics: Vec<&str> = json["metrics"]
        .as_array()
        .map(|m| m.iter().filter_map(|m| m["metric"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(
        metrics,
        [
            "hit",
            "recall",
            "precision",
            "reciprocalRank",
            "ndcg",
            "map"
        ]
    );
    let _ = std::fs::remove_dir_all(&out);
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
    let read = |name: &str| {
        std::fs::read_to_string(fixture(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
    };
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
