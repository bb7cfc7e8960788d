//! The floor sweep (contract section 10.2): every point of both sweeps equals what the
//! pipeline and the golden evaluation give when re-run with that floor, and a
//! hand-worked batch gives the values worked out below.

use crate::common::fixture;
use ragtrace_core::{
    analyze, batch_floor_sweep, calibrate, calibrate_with_floor_sweep, calibration_markdown,
    calibration_summary_text, evaluate_analysis, evaluate_with_floor_sweep, generate_batch,
    generate_cases, golden_markdown, golden_summary_text, parse_cases, parse_document,
    BatchFloorPoint, CaseSet, FloorPoint, FloorSweep, ParsedBatch, Settings, FLOOR_POINTS,
};

const EPS: f64 = 1e-12;

/// One point computed the slow way: the batch re-analysed under `settings` and
/// evaluated; blocks and NO_MATCH over the linked traces, each once.
fn reference_point(batch: &ParsedBatch, cases: &CaseSet, settings: &Settings) -> (f64, f64, usize) {
    let analysis = analyze(batch, settings, false).expect("valid settings");
    let report = evaluate_analysis(cases, &analysis);
    let mut linked: Vec<&str> = report
        .cases
        .iter()
        .filter_map(|c| c.trace_name.as_deref())
        .collect();
    linked.sort_unstable();
    linked.dedup();
    // Trace names are unique in the batches used here (checked below).
    let blocks: Vec<usize> = linked
        .iter()
        .map(|name| {
            let trace = analysis
                .traces
                .iter()
                .find(|t| t.name() == *name)
                .expect("a linked trace");
            trace.accepted_blocks().count()
        })
        .collect();
    let mean_blocks = if blocks.is_empty() {
        0.0
    } else {
        blocks.iter().sum::<usize>() as f64 / blocks.len() as f64
    };
    let no_match = blocks.iter().filter(|&&b| b == 0).count();
    (report.summary.mean_recall, mean_blocks, no_match)
}

fn assert_point(point: &FloorPoint, (recall, blocks, no_match): (f64, f64, usize), what: &str) {
    assert!(
        (point.mean_recall - recall).abs() < EPS,
        "{what}: meanRecall {} against {recall}",
        point.mean_recall
    );
    assert!(
        (point.mean_blocks - blocks).abs() < EPS,
        "{what}: meanBlocks {} against {blocks}",
        point.mean_blocks
    );
    assert_eq!(point.no_match, no_match, "{what}: noMatch");
}

/// Both sweeps of `batch` under `base`, each of the 202 points checked against the
/// re-run, and the suggestions against the rule applied to the re-run's recalls.
fn check_against_reruns(batch: &ParsedBatch, cases: &CaseSet, base: &Settings, what: &str) {
    let analysis = analyze(batch, base, false).expect("valid settings");
    let mut names: Vec<String> = analysis
        .traces
        .iter()
        .map(|t| t.name().into_owned())
        .collect();
    let count = names.len();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), count, "{what}: trace names are unique");

    let report = evaluate_with_floor_sweep(cases, &analysis);
    let sweep: FloorSweep = report.floor_sweep.clone().expect("report.json has a sweep");
    assert_eq!(
        calibrate_with_floor_sweep(cases, &analysis).floor_sweep,
        Some(sweep.clone()),
        "{what}"
    );
    // The evaluations made on every knob move leave it out.
    assert_eq!(
        evaluate_analysis(cases, &analysis).floor_sweep,
        None,
        "{what}"
    );
    assert_eq!(calibrate(cases, &analysis).floor_sweep, None, "{what}");
    assert_eq!(sweep.min_quality.len(), FLOOR_POINTS);
    assert_eq!(sweep.relative_quality.len(), FLOOR_POINTS);
    let mut recalls = [Vec::new(), Vec::new()];
    for i in 0..FLOOR_POINTS {
        let t = i as f64 / 100.0;
        let by_min = Settings {
            min_quality: Some(t),
            ..base.clone()
        };
        let by_relative = Settings {
            relative_quality: Some(t),
            ..base.clone()
        };
        for (kind, points, settings) in [
            (0, &sweep.min_quality, by_min),
            (1, &sweep.relative_quality, by_relative),
        ] {
            let point = &points[i];
            assert_eq!(point.floor, t);
            let expected = reference_point(batch, cases, &settings);
            assert_point(point, expected, &format!("{what}, sweep {kind}, t = {t}"));
            recalls[kind].push(expected.0);
        }
    }
    let suggested = |recalls: &[f64]| {
        let least = recalls[0] - 0.01;
        let last = recalls.iter().rposition(|&r| r >= least).expect("t = 0");
        last as f64 / 100.0
    };
    assert_eq!(
        sweep.suggested.min_quality,
        suggested(&recalls[0]),
        "{what}"
    );
    assert_eq!(
        sweep.suggested.relative_quality,
        suggested(&recalls[1]),
        "{what}"
    );
}

fn settings(pairs: &[(&str, &str)]) -> Settings {
    let mut settings = Settings::default();
    for (key, value) in pairs {
        settings.set(key, value).expect("a valid setting");
    }
    settings
}

#[test]
fn every_point_is_the_rerun_s_on_generated_batches() {
    let bases = [
        settings(&[]),
        settings(&[("returnN", "3"), ("maxChunksPerDocument", "1")]),
        settings(&[("minQuality", "0.3"), ("relativeQuality", "0.45")]),
        settings(&[("hybridQuality", "maxRankDense"), ("returnN", "8")]),
    ];
    for (seed, traces, per_trace) in [(5, 40, 9), (11, 25, 16)] {
        let batch = parse_document("b.json", &generate_batch(traces, per_trace, seed));
        let mut cases =
            parse_cases("c.json", &generate_cases(traces, per_trace, seed)).expect("cases parse");
        // Some cases without a trace (recall 0 at every floor) and a trace two cases share.
        let extra = parse_cases(
            "x.json",
            r#"[{"caseId": "nowhere", "query": "no such query", "expectedDocIds": ["d"]}]"#,
        )
        .expect("cases parse");
        cases.cases.truncate(traces * 2 / 3);
        let shared = cases.cases[0].clone();
        cases.cases.push(shared);
        cases.cases.extend(extra.cases);
        for (b, base) in bases.iter().enumerate() {
            check_against_reruns(&batch, &cases, base, &format!("seed {seed}, base {b}"));
        }
    }
}

#[test]
fn every_point_is_the_rerun_s_on_the_fixtures() {
    for (cases, traces) in [
        ("golden-cases.json", "golden-runs.json"),
        ("golden-cases-sample.json", "dense-trace.json"),
        ("compare-cases.json", "compare-run-a.json"),
        ("explain-cases.json", "explain-traces.json"),
    ] {
        let batch = parse_document(traces, &fixture(traces));
        let cases = parse_cases(cases, &fixture(cases)).expect("the fixture parses");
        for base in [settings(&[]), settings(&[("relativeQuality", "0.5")])] {
            check_against_reruns(&batch, &cases, &base, traces);
        }
    }
}

/// The batch of [`a_hand_worked_batch`].
fn hand_worked_batch() -> ParsedBatch {
    let trace = |id: &str, hits: &[(&str, &str, f64)]| {
        let candidates: Vec<String> = hits
            .iter()
            .enumerate()
            .map(|(i, (key, doc, score))| {
                format!(
                    r#"{{"evidenceKey":"{key}","docId":"{doc}","originalRank":{},"score":{score},"scoreLabel":"dense"}}"#,
                    i + 1
                )
            })
            .collect();
        format!(
            r#"{{"requestId":"{id}","caseId":"{id}","mode":"dense","candidates":[{}]}}"#,
            candidates.join(",")
        )
    };
    let batch_text = format!(
        "[{},{},{}]",
        trace(
            "a",
            &[("a1", "X", 0.5), ("a2", "Y", 0.25), ("a3", "Z", 0.75)]
        ),
        trace(
            "b",
            &[("b1", "P", 0.875), ("b2", "Q", 0.5), ("b3", "R", 0.375)]
        ),
        trace(
            "c",
            &[
                ("c1", "S", 0.5),
                ("c1", "S", 0.0),
                ("c2", "S", 0.25),
                ("c3", "T", 0.75)
            ]
        ),
    );
    parse_document("hand.json", &batch_text)
}

/// Three dense traces under `maxL2Distance` 1 (q = 1 - score, every score dyadic so
/// every quality is exact), `returnN` 2, `maxChunksPerDocument` 1, and four cases (the
/// fourth has no trace: recall 0 at every floor).
///
/// | trace | rank | key | doc | q     | case expects |
/// |-------|------|-----|-----|-------|--------------|
/// | a     | 1    | a1  | X   | 0.5   | Z, Y         |
/// | a     | 2    | a2  | Y   | 0.75  |              |
/// | a     | 3    | a3  | Z   | 0.25  |              |
/// | b     | 1    | b1  | P   | 0.125 | R            |
/// | b     | 2    | b2  | Q   | 0.5   |              |
/// | b     | 3    | b3  | R   | 0.625 |              |
/// | c     | 1    | c1  | S   | 0.5   | T            |
/// | c     | 2    | c1  | S   | 1     | (duplicate)  |
/// | c     | 3    | c2  | S   | 0.75  |              |
/// | c     | 4    | c3  | T   | 0.25  |              |
///
/// Accepted (blocks, recall) by floor f:
/// - a: f <= 0.5: X, Y (Z over returnN) -> (2, 1/2); f <= 0.75: Y -> (1, 1/2); else (0, 0).
/// - b: f <= 0.125: P, Q -> (2, 0); f <= 0.5: Q, R -> (2, 1); f <= 0.625: R -> (1, 1);
///   else (0, 0).
/// - c: f <= 0.25: c1, T (c2 over the cap of S) -> (2, 1); f <= 0.5: c1 -> (1, 0);
///   f <= 0.75: c1 below the floor holds no place, c2 -> (1, 0); else (0, 0).
///
/// minQuality = t (relativeQuality 0, floor = t), mean recall over 4 cases:
/// - t = 0 and t = 0.12: (1/2 + 0 + 1 + 0) / 4 = 0.375, blocks 6/3 = 2, noMatch 0;
/// - t = 0.13 and 0.25: (1/2 + 1 + 1) / 4 = 0.625, blocks 2;
/// - t = 0.26 and 0.5: (1/2 + 1 + 0) / 4 = 0.375, blocks (2 + 2 + 1) / 3 = 5/3;
/// - t = 0.62: 0.375, blocks 1;
/// - t = 0.63: (1/2 + 0 + 0) / 4 = 0.125, blocks 2/3, noMatch 1 (b);
/// - t = 0.76 and 1: 0, blocks 0, noMatch 3.
///
/// Suggested minQuality: the last t with recall >= 0.375 - 0.01 = 0.365 is 0.62.
///
/// relativeQuality = t (floor = t x qMax; qMax is 0.75, 0.625 and 1 (c's duplicate
/// counts: it is valid)):
/// - t = 0.25: floors 0.1875, 0.15625, 0.25 -> (1/2 + 1 + 1) / 4 = 0.625, blocks 2;
/// - t = 0.6: floors 0.45, 0.375, 0.6 -> (1/2 + 1 + 0) / 4 = 0.375, blocks (2 + 2 + 1) / 3;
/// - t = 0.7: floors 0.525, 0.4375, 0.7 -> (1/2 + 1 + 0) / 4 = 0.375, blocks (1 + 2 + 1) / 3;
/// - t = 1: floors 0.75, 0.625, 1 -> a Y, b R, c none: 0.375, blocks 2/3, noMatch 1.
///
/// Recall never falls below 0.375 under this sweep (b's recall is 0 only while c's is 1),
/// so the suggested relativeQuality is 1.
#[test]
fn a_hand_worked_batch() {
    let batch = hand_worked_batch();
    assert_eq!(batch.traces.len(), 3);
    let cases = parse_cases(
        "hand-cases.json",
        r#"[{"caseId": "a", "expectedDocIds": ["Z", "Y"]},
            {"caseId": "b", "expectedDocIds": ["R"]},
            {"caseId": "c", "expectedDocIds": ["T"]},
            {"caseId": "d", "expectedDocIds": ["X"]}]"#,
    )
    .expect("cases parse");
    let base = settings(&[
        ("returnN", "2"),
        ("maxChunksPerDocument", "1"),
        ("maxL2Distance", "1"),
    ]);
    let analysis = analyze(&batch, &base, false).expect("valid settings");
    let sweep = evaluate_with_floor_sweep(&cases, &analysis)
        .floor_sweep
        .expect("an analysis has a sweep");
    let at = |points: &[FloorPoint], i: usize| {
        (
            points[i].mean_recall,
            points[i].mean_blocks,
            points[i].no_match,
        )
    };
    let close = |(r, b, n): (f64, f64, usize), (er, eb, en): (f64, f64, usize), what: &str| {
        assert!(
            (r - er).abs() < EPS && (b - eb).abs() < EPS && n == en,
            "{what}: got ({r}, {b}, {n})"
        );
    };
    let by_min = &sweep.min_quality;
    for (i, expected) in [
        (0, (0.375, 2.0, 0)),
        (12, (0.375, 2.0, 0)),
        (13, (0.625, 2.0, 0)),
        (25, (0.625, 2.0, 0)),
        (26, (0.375, 5.0 / 3.0, 0)),
        (50, (0.375, 5.0 / 3.0, 0)),
        (62, (0.375, 1.0, 0)),
        (63, (0.125, 2.0 / 3.0, 1)),
        (76, (0.0, 0.0, 3)),
        (100, (0.0, 0.0, 3)),
    ] {
        close(at(by_min, i), expected, &format!("minQuality {i}"));
    }
    let by_relative = &sweep.relative_quality;
    for (i, expected) in [
        (0, (0.375, 2.0, 0)),
        (25, (0.625, 2.0, 0)),
        (70, (0.375, 4.0 / 3.0, 0)),
        (100, (0.375, 2.0 / 3.0, 1)),
    ] {
        close(
            at(by_relative, i),
            expected,
            &format!("relativeQuality {i}"),
        );
    }
    assert_eq!(sweep.suggested.min_quality, 0.62);
    assert_eq!(sweep.suggested.relative_quality, 1.0);

    // The compact table has every 0.05 and the suggested rows; both texts name the floors.
    let report = evaluate_with_floor_sweep(&cases, &analysis);
    let markdown = golden_markdown(&report);
    assert!(
        markdown.contains("| 0.60 | 0.375 | 1.000 | 0 | 0.375 | 1.667 | 0 |"),
        "{markdown}"
    );
    assert!(
        markdown.contains("| 0.62 (suggested minQuality) | 0.375 | 1.000 | 0 |"),
        "{markdown}"
    );
    assert!(
        markdown.contains(
            "| 1.00 (suggested relativeQuality) | 0.000 | 0.000 | 3 | 0.375 | 0.667 | 1 |"
        ),
        "{markdown}"
    );
    assert!(!markdown.contains("| 0.61 "), "{markdown}");
    let line = "suggested score floors (recall@k within 0.01 of no floor): minQuality 0.62 \
                (recall@k 0.375, 1.000 blocks per trace), relativeQuality 1 (recall@k 0.375, \
                0.667 blocks per trace)";
    assert!(golden_summary_text(&report).contains(line));
    let calibration = calibrate_with_floor_sweep(&cases, &analysis);
    assert!(calibration_summary_text(&calibration).contains(line));
    assert!(calibration_markdown(&calibration).contains("| 0.62 (suggested minQuality) |"));
    check_against_reruns(&batch, &cases, &base, "hand-worked");
}

/// The sweep without cases over [`a_hand_worked_batch`]'s batch: every trace is linked
/// there, so its blocks and NO_MATCH are those worked out in that test's comment
/// (minQuality 0.26: a X Y, b Q R, c c1 -> 5/3; 0.63: a Y, b none, c c2 -> 2/3, one
/// NO_MATCH).
#[test]
fn the_batch_sweep_without_cases_on_the_hand_worked_batch() {
    let base = settings(&[
        ("returnN", "2"),
        ("maxChunksPerDocument", "1"),
        ("maxL2Distance", "1"),
    ]);
    let analysis = analyze(&hand_worked_batch(), &base, false).expect("valid settings");
    let sweep = batch_floor_sweep(&analysis);
    assert_eq!(sweep.min_quality.len(), FLOOR_POINTS);
    assert_eq!(sweep.relative_quality.len(), FLOOR_POINTS);
    let at = |points: &[BatchFloorPoint], i: usize| {
        (points[i].floor, points[i].mean_blocks, points[i].no_match)
    };
    let close = |(f, b, n): (f64, f64, usize), (ef, eb, en): (f64, f64, usize), what: &str| {
        assert!(
            f == ef && (b - eb).abs() < EPS && n == en,
            "{what}: got ({f}, {b}, {n})"
        );
    };
    for (i, expected) in [
        (0, (0.0, 2.0, 0)),
        (25, (0.25, 2.0, 0)),
        (26, (0.26, 5.0 / 3.0, 0)),
        (62, (0.62, 1.0, 0)),
        (63, (0.63, 2.0 / 3.0, 1)),
        (76, (0.76, 0.0, 3)),
        (100, (1.0, 0.0, 3)),
    ] {
        close(
            at(&sweep.min_quality, i),
            expected,
            &format!("minQuality {i}"),
        );
    }
    for (i, expected) in [
        (0, (0.0, 2.0, 0)),
        (60, (0.6, 5.0 / 3.0, 0)),
        (70, (0.7, 4.0 / 3.0, 0)),
        (100, (1.0, 2.0 / 3.0, 1)),
    ] {
        close(
            at(&sweep.relative_quality, i),
            expected,
            &format!("relativeQuality {i}"),
        );
    }
}

/// Every point of the sweep without cases equals the batch re-analysed at that floor:
/// the mean of every trace's accepted blocks and the traces left without one.
#[test]
fn every_batch_point_is_the_rerun_s() {
    let bases = [
        settings(&[]),
        settings(&[("returnN", "3"), ("maxChunksPerDocument", "1")]),
        settings(&[("minQuality", "0.3"), ("relativeQuality", "0.45")]),
    ];
    for (seed, traces, per_trace) in [(5, 30, 9), (11, 20, 16)] {
        let batch = parse_document("b.json", &generate_batch(traces, per_trace, seed));
        for (b, base) in bases.iter().enumerate() {
            let analysis = analyze(&batch, base, false).expect("valid settings");
            let sweep = batch_floor_sweep(&analysis);
            for i in 0..FLOOR_POINTS {
                let t = i as f64 / 100.0;
                for (kind, points, settings) in [
                    (
                        "minQuality",
                        &sweep.min_quality,
                        Settings {
                            min_quality: Some(t),
                            ..base.clone()
                        },
                    ),
                    (
                        "relativeQuality",
                        &sweep.relative_quality,
                        Settings {
                            relative_quality: Some(t),
                            ..base.clone()
                        },
                    ),
                ] {
                    let rerun = analyze(&batch, &settings, false).expect("valid settings");
                    let blocks: Vec<usize> = rerun
                        .traces
                        .iter()
                        .map(|t| t.accepted_blocks().count())
                        .collect();
                    let mean = blocks.iter().sum::<usize>() as f64 / blocks.len() as f64;
                    let no_match = blocks.iter().filter(|&&b| b == 0).count();
                    let what = format!("seed {seed}, base {b}, {kind} {t}");
                    assert_eq!(points[i].floor, t, "{what}");
                    assert!((points[i].mean_blocks - mean).abs() < EPS, "{what}");
                    assert_eq!(points[i].no_match, no_match, "{what}");
                }
            }
        }
    }
}
