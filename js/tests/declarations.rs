//! The hand-written TypeScript declarations (types/ragtrace.d.ts) against real output:
//! every interface lists exactly the keys the JSON has (a key declared optional, `key?:`,
//! may be absent), and a key typed without `null` is never null. Native: the JSON is the core's, which the API hands over as is.
#![cfg(not(target_arch = "wasm32"))]

use ragtrace_core::{
    analyze, calibrate_with_floor_sweep, evaluate_with_floor_sweep, parse_cases, parse_document,
    Settings,
};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};

const DECLARATIONS: &str = include_str!("../types/ragtrace.d.ts");
const DENSE_TRACE: &str = include_str!("../../samples/dense-trace.json");
const HYBRID_TRACE: &str = include_str!("../../samples/hybrid-legacy-trace.json");
const LOOKUPS: &str = include_str!("../../samples/lookup-result.jsonl");
const CASES: &str = include_str!("../../tests/fixtures/golden-cases.json");
const SAMPLE_CASES: &str = include_str!("../../samples/golden-cases-sample.json");
const CALIBRATION_CASES: &str = include_str!("../../tests/fixtures/calibration/cases.json");
const CALIBRATION_TRACES: &str = include_str!("../../tests/fixtures/calibration/traces.json");

/// A key's declared type, and whether the key may be absent (`key?:`).
#[derive(Clone)]
struct Declared {
    ty: String,
    optional: bool,
}

/// Interface name -> (key -> its declaration), `extends` resolved.
fn interfaces() -> BTreeMap<String, BTreeMap<String, Declared>> {
    let mut found: BTreeMap<String, BTreeMap<String, Declared>> = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in DECLARATIONS.lines() {
        if let Some(head) = line.strip_prefix("export interface ") {
            let mut words = head.split_whitespace();
            let name = words.next().unwrap().to_owned();
            let mut fields = BTreeMap::new();
            if words.next() == Some("extends") {
                fields = found[words.next().unwrap()].clone();
            }
            found.insert(name.clone(), fields);
            current = Some(name);
        } else if line == "}" {
            current = None;
        } else if let (Some(name), Some(field)) = (&current, line.strip_prefix("  ")) {
            if let Some((key, ty)) = field.split_once(": ") {
                if !key.starts_with(['/', '*', ' ']) {
                    let declared = Declared {
                        ty: ty.to_owned(),
                        optional: key.ends_with('?'),
                    };
                    let key = key.trim_end_matches('?').to_owned();
                    found.get_mut(name).unwrap().insert(key, declared);
                }
            }
        }
    }
    found
}

struct Checker {
    interfaces: BTreeMap<String, BTreeMap<String, Declared>>,
    checked: BTreeSet<String>,
}

impl Checker {
    fn check(&mut self, interface: &str, value: &Value) {
        let fields = &self.interfaces[interface];
        let object: &Map<String, Value> = value.as_object().unwrap();
        let declared: BTreeSet<&str> = fields.keys().map(String::as_str).collect();
        let actual: BTreeSet<&str> = object.keys().map(String::as_str).collect();
        let required: BTreeSet<&str> = fields
            .iter()
            .filter(|(_, d)| !d.optional)
            .map(|(key, _)| key.as_str())
            .collect();
        let undeclared: Vec<&&str> = actual.difference(&declared).collect();
        let missing: Vec<&&str> = required.difference(&actual).collect();
        assert!(
            undeclared.is_empty() && missing.is_empty(),
            "keys of {interface}: undeclared {undeclared:?}, required but absent {missing:?}"
        );
        for (key, declared) in fields {
            if object.get(key).is_some_and(Value::is_null) {
                assert!(
                    declared.ty.contains("null"),
                    "{interface}.{key} is null, declared {}",
                    declared.ty
                );
            }
        }
        self.checked.insert(interface.to_owned());
    }

    fn check_all<'a>(&mut self, interface: &str, values: impl IntoIterator<Item = &'a Value>) {
        let mut any = false;
        for value in values {
            self.check(interface, value);
            any = true;
        }
        assert!(any, "no sample of {interface} in the fixtures");
    }
}

fn array(value: &Value) -> &Vec<Value> {
    value.as_array().unwrap()
}

#[test]
fn every_interface_matches_the_json_the_api_returns() {
    let mut checker = Checker {
        interfaces: interfaces(),
        checked: BTreeSet::new(),
    };
    let text = format!(
        "{}\n{}\n{LOOKUPS}\n{{\"candidates\": [}}\n",
        DENSE_TRACE.replace('\n', " "),
        HYBRID_TRACE.replace('\n', " ")
    );
    let batch = parse_document("input", &text);
    let analysis = analyze(&batch, &Settings::default(), true).unwrap();
    let whole = serde_json::to_value(&analysis).unwrap();
    checker.check("AnalysisObject", &whole);
    checker.check("Config", &whole["config"]);
    checker.check("Summary", &whole["summary"]);
    checker.check("ModeSummary", &whole["summary"]["byMode"]["dense"]);
    checker.check("ModeSummary", &whole["summary"]["byMode"]["hybrid"]);
    checker.check_all("SweepPoint", array(&whole["sweep"]));
    checker.check_all("BatchWarning", array(&whole["warnings"]));
    checker.check_all("InputError", array(&whole["inputErrors"]));
    checker.check_all("DocumentSummary", array(&whole["documents"]));
    let traces = array(&whole["traces"]);
    checker.check_all("TraceAnalysis", traces);
    checker.check_all("Stages", traces.iter().map(|t| &t["stages"]));
    checker.check_all("Config", traces.iter().map(|t| &t["config"]));
    checker.check_all("Block", traces.iter().flat_map(|t| array(&t["blocks"])));
    checker.check_all(
        "Diagnostic",
        traces.iter().flat_map(|t| array(&t["diagnostics"])),
    );
    checker.check_all(
        "LegacySummary",
        traces.iter().map(|t| &t["legacy"]).filter(|v| !v.is_null()),
    );
    checker.check_all(
        "EvidenceComparison",
        traces
            .iter()
            .map(|t| &t["evidenceComparison"])
            .filter(|v| !v.is_null()),
    );

    let cases = parse_cases("cases", CASES).unwrap();
    let runs = parse_document("runs", &format!("[{DENSE_TRACE}, {HYBRID_TRACE}]"));
    let run_analysis = analyze(&runs, &Settings::default(), false).unwrap();
    let report = serde_json::to_value(evaluate_with_floor_sweep(&cases, &run_analysis)).unwrap();
    checker.check("GoldenReport", &report);
    let sweep = &report["floorSweep"];
    checker.check("FloorSweep", sweep);
    checker.check("SuggestedFloors", &sweep["suggested"]);
    checker.check_all(
        "FloorPoint",
        array(&sweep["minQuality"])
            .iter()
            .chain(array(&sweep["relativeQuality"])),
    );
    checker.check("Config", &report["config"]);
    checker.check("GoldenSummary", &report["summary"]);
    checker.check("LevelCounts", &report["summary"]["levels"]);
    checker.check_all("CaseReport", array(&report["cases"]));

    // Calibration: the 6-case fixture has a curve (every point kind), the sample
    // cases against the example traces an unlinked case.
    let calibration_cases = parse_cases("cases", CALIBRATION_CASES).unwrap();
    let calibration_batch = parse_document("input", CALIBRATION_TRACES);
    let settings = Settings {
        reference_threshold: Some(0.3),
        ..Settings::default()
    };
    let c = analyze(&calibration_batch, &settings, false).unwrap();
    let with_curve =
        serde_json::to_value(calibrate_with_floor_sweep(&calibration_cases, &c)).unwrap();
    let sample_cases = parse_cases("cases", SAMPLE_CASES).unwrap();
    let with_unlinked =
        serde_json::to_value(calibrate_with_floor_sweep(&sample_cases, &analysis)).unwrap();
    let both = [&with_curve, &with_unlinked];
    checker.check_all("Calibration", both);
    checker.check_all("Config", both.map(|c| &c["config"]));
    checker.check_all("Unlinked", both.map(|c| &c["unlinked"]));
    checker.check_all(
        "UnlinkedCase",
        both.iter().flat_map(|c| array(&c["unlinked"]["first"])),
    );
    checker.check_all("LevelTable", both.map(|c| &c["levels"]));
    let rows: Vec<&Value> = both
        .iter()
        .flat_map(|c| array(&c["levels"]["rows"]))
        .collect();
    checker.check_all("LevelRow", rows.iter().copied());
    checker.check_all(
        "OutcomeCounts",
        rows.iter()
            .flat_map(|r| [&r["recomputed"], &r["recorded"]])
            .chain(both.map(|c| &c["levels"]["recordedUnknown"])),
    );
    checker.check_all("GateScopes", both.map(|c| &c["gate"]));
    let curves: Vec<&Value> = both
        .iter()
        .flat_map(|c| ["all", "dense", "hybrid"].map(|scope| &c["gate"][scope]))
        .collect();
    checker.check_all("GateCurve", curves.iter().copied());
    checker.check_all(
        "ThresholdPoint",
        curves.iter().flat_map(|g| {
            array(&g["points"])
                .iter()
                .chain([&g["current"], &g["bestYouden"], &g["bestF1"]])
                .filter(|v| !v.is_null())
        }),
    );
    checker.check_all("RocPoint", curves.iter().flat_map(|g| array(&g["roc"])));
    let suggestions: Vec<&Value> = both.iter().flat_map(|c| array(&c["suggestions"])).collect();
    checker.check_all("Suggestion", suggestions.iter().copied());
    checker.check_all(
        "SettingChange",
        suggestions.iter().flat_map(|s| array(&s["settings"])),
    );
    checker.check_all(
        "ThresholdPoint",
        suggestions
            .iter()
            .flat_map(|s| [&s["before"], &s["after"]])
            .filter(|v| !v.is_null()),
    );

    // Settings, the one argument type: the configuration's keys plus the page's switch.
    let settings = &checker.interfaces["Settings"];
    let mut expected: BTreeSet<&str> = checker.interfaces["Config"]
        .keys()
        .map(String::as_str)
        .collect();
    expected.insert("useTraceOptions");
    assert_eq!(
        settings.keys().map(String::as_str).collect::<BTreeSet<_>>(),
        expected
    );
    for key in settings.keys() {
        let value = if key == "hybridQuality" {
            "\"maxRankDense\""
        } else if key == "scoreKind" {
            "\"cosineSimilarity\""
        } else if key == "useTraceOptions" {
            "false"
        } else {
            "1"
        };
        Settings::from_json_text(&format!("{{\"{key}\": {value}}}"))
            .unwrap_or_else(|err| panic!("{key}: {err}"));
    }
    checker.checked.insert("Settings".to_owned());
    check_compare_report(&mut checker);
    check_many_run_comparison(&mut checker);
    check_explanation(&mut checker);

    let declared: BTreeSet<String> = checker.interfaces.keys().cloned().collect();
    assert_eq!(declared, checker.checked, "interfaces without a check");
}

const RUN_A: &str = include_str!("../../tests/fixtures/compare-run-a.json");
const RUN_B: &str = include_str!("../../tests/fixtures/compare-run-b.json");
const COMPARE_CASES: &str = include_str!("../../tests/fixtures/compare-cases.json");

/// The many-run `compareRuns`' result: three generated runs (one query missing from
/// the last, so a case is partial) through the core's one entry point.
fn check_many_run_comparison(checker: &mut Checker) {
    use ragtrace_core::{compare_many_batches, generate_many_runs, ManyRunOptions};
    let (runs, cases) = generate_many_runs(3, 100, 8, 5);
    let cases = parse_cases("cases", &cases).unwrap();
    let batches: Vec<_> = runs.iter().map(|r| parse_document("run", r)).collect();
    let names = ["dense", "hybrid", "rerank"];
    let named: Vec<_> = names.iter().copied().zip(&batches).collect();
    let options = ManyRunOptions {
        significance: ragtrace_core::SignificanceOptions {
            permutations: 200,
            resamples: 200,
            ..Default::default()
        },
        baseline: Some("hybrid".to_owned()),
    };
    let comparison = compare_many_batches(&named, &Settings::default(), &cases, &options).unwrap();
    let whole = serde_json::to_value(&comparison).unwrap();
    checker.check("ManyRunComparison", &whole);
    checker.check("ManyRunCases", &whole["cases"]);
    let partial = array(&whole["partialCases"]);
    assert!(!partial.is_empty());
    checker.check_all("PartialCase", partial);
    let metrics = array(&whole["metrics"]);
    checker.check_all("ManyRunMetric", metrics);
    checker.check_all("TukeyHsd", metrics.iter().map(|m| &m["tukey"]));
    // Arguments, not results: what the API reads.
    checker.checked.insert("NamedRun".to_owned());
    checker.checked.insert("ManyRunOptions".to_owned());
}

/// `compareRuns`' result: the compare fixtures through the core's one entry point.
fn check_compare_report(checker: &mut Checker) {
    use ragtrace_core::{compare_batches, CompareOptions};
    let a = parse_document("a", RUN_A);
    // B's first trace ran with its own returnN, so its pair lists a configuration difference.
    let mut run_b: Value = serde_json::from_str(RUN_B).unwrap();
    run_b["traces"][0]["options"] = serde_json::json!({"returnN": 2});
    let b = ragtrace_core::parse_value("b", &run_b);
    let cases = parse_cases("cases", COMPARE_CASES).unwrap();
    let report = compare_batches(
        &a,
        &b,
        &Settings::default(),
        Some(&cases),
        &CompareOptions::default(),
    )
    .unwrap();
    // PairDetail extends PairComparison: the numbers alone, as the core serialises them.
    checker.check_all(
        "PairComparison",
        report
            .pairs
            .iter()
            .map(|pair| serde_json::to_value(pair.numbers).unwrap())
            .collect::<Vec<_>>()
            .iter(),
    );
    let whole = serde_json::to_value(&report).unwrap();
    checker.check("CompareReport", &whole);
    checker.check("CompareOptions", &whole["options"]);
    checker.check("Config", &whole["config"]);
    checker.check("RunSizes", &whole["runs"]);
    let groups = array(&whole["groups"]);
    checker.check_all("GroupSummary", groups);
    for key in ["overlapDocs", "overlapKeys", "jaccard", "rboExt"] {
        checker.check_all("Distribution", groups.iter().map(|g| &g[key]));
    }
    let pairs = array(&whole["pairs"]);
    checker.check_all("PairDetail", pairs);
    checker.check_all(
        "Rbo",
        pairs.iter().map(|p| &p["rbo"]).filter(|v| !v.is_null()),
    );
    for key in ["acceptedA", "acceptedB"] {
        checker.check_all("AcceptedItem", pairs.iter().flat_map(|p| array(&p[key])));
    }
    for key in ["onlyInA", "onlyInB"] {
        checker.check_all("OnlyOneSide", pairs.iter().flat_map(|p| array(&p[key])));
    }
    checker.check_all(
        "ConfigDifference",
        pairs.iter().flat_map(|p| array(&p["configDifferences"])),
    );
    checker.check_all(
        "UnpairedTrace",
        array(&whole["unpairedA"])
            .iter()
            .chain(array(&whole["unpairedB"])),
    );

    let delta = &whole["golden"];
    checker.check("GoldenComparison", delta);
    checker.check("SignificanceOptions", &delta["significanceOptions"]);
    let deltas = array(&delta["cases"]);
    checker.check_all("CaseDelta", deltas);
    checker.check_all(
        "ValuePair",
        deltas.iter().flat_map(|c| array(&c["metrics"])),
    );
    let metrics = array(&delta["metrics"]);
    checker.check_all("MetricSummary", metrics);
    let significance: Vec<&Value> = metrics
        .iter()
        .map(|m| &m["significance"])
        .filter(|v| !v.is_null())
        .collect();
    checker.check_all("Significance", significance.iter().copied());
    checker.check_all(
        "TTest",
        significance
            .iter()
            .map(|s| &s["tTest"])
            .filter(|v| !v.is_null()),
    );
}

const EXPLAIN_TRACES: &str = include_str!("../../tests/fixtures/explain-traces.json");
const EXPLAIN_CASES: &str = include_str!("../../tests/fixtures/explain-cases.json");

/// `explain`'s result: the explain fixtures (every cause, a least pair, a level edge).
fn check_explanation(checker: &mut Checker) {
    let batch = parse_document("input", EXPLAIN_TRACES);
    let cases = ragtrace_core::parse_cases("cases", EXPLAIN_CASES).unwrap();
    let explained = ragtrace_core::explain(&batch, &Settings::default(), Some(&cases)).unwrap();
    let whole = serde_json::to_value(&explained).unwrap();
    checker.check("Explanation", &whole);
    checker.check("Config", &whole["config"]);
    checker.check("ExplainSummary", &whole["summary"]);
    checker.check_all("ChangeImpact", array(&whole["summary"]["changes"]));
    let traces = array(&whole["traces"]);
    checker.check_all("TraceExplanation", traces);
    checker.check_all("LevelIf", traces.iter().flat_map(|t| array(&t["levelIf"])));
    checker.check_all(
        "LowQualityIf",
        traces.iter().flat_map(|t| array(&t["lowQualityIf"])),
    );
    let candidates: Vec<&Value> = traces
        .iter()
        .flat_map(|t| array(&t["candidates"]))
        .collect();
    checker.check_all("CandidateExplanation", candidates.iter().copied());
    checker.check_all(
        "SetIf",
        candidates
            .iter()
            .flat_map(|c| array(&c["acceptedIf"]).iter().chain(array(&c["droppedIf"]))),
    );
    let cases = array(&whole["cases"]);
    checker.check_all("CaseExplanation", cases);
    checker.check_all("FoundIf", cases.iter().flat_map(|c| array(&c["foundIf"])));
}
