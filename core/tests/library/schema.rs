//! The outputs' JSON Schemas against real output: every output the fixtures make
//! matches its schema key for key, every definition is reached by some value, and a
//! value changed in any of the ways a schema could hide (a key missing, a key added,
//! a wrong type, a null) fails.

#[path = "../common/mod.rs"]
mod common;
#[path = "../common/schema_check.rs"]
mod schema_check;

use common::fixture;
use ragtrace_core::{
    analyze, calibrate_with_floor_sweep, compare_batches, compare_many_batches,
    evaluate_with_floor_sweep, explain, generate_many_runs, output_schema, parse_cases,
    parse_document, parse_value, Analysis, CompareOptions, ManyRunOptions, Partial,
    ReportWithComparison, Settings, SignificanceOptions, OUTPUT_SCHEMAS,
};
use schema_check::{assert_valid, Checker};
use serde_json::{json, Value};
use std::collections::BTreeSet;

fn schema(name: &str) -> Value {
    output_schema(name).unwrap_or_else(|| panic!("no schema {name}"))
}

fn to_value(value: &impl serde::Serialize) -> Value {
    serde_json::to_value(value).unwrap()
}

/// The analysis of the samples: both trace shapes, a legacy comparison, a recorded
/// evidence list, an input error.
fn sample_text() -> String {
    format!(
        "{}\n{}\n{}\n{{\"candidates\": [}}\n",
        fixture("dense-trace.json").replace('\n', " "),
        fixture("hybrid-legacy-trace.json").replace('\n', " "),
        fixture("lookup-result.jsonl"),
    )
}

fn sample_analysis(sweep: bool) -> Analysis {
    analyze(
        &parse_document("input", &sample_text()),
        &Settings::default(),
        sweep,
    )
    .unwrap()
}

/// What `merge` prints: the partial of the same samples, finished.
fn sample_view(sweep: bool) -> Value {
    let partial =
        Partial::from_document(&Settings::default(), "input", sample_text().as_bytes()).unwrap();
    to_value(&partial.finish(sweep))
}

/// Each output on the fixtures, as the CLI writes it, by schema name.
fn outputs() -> Vec<(&'static str, String, Value)> {
    let mut outputs = Vec::new();
    for sweep in [false, true] {
        let analysis = sample_analysis(sweep);
        outputs.push((
            "analysis",
            format!("analysis (sweep {sweep})"),
            to_value(&analysis),
        ));
        outputs.push((
            "partial",
            format!("batch view (sweep {sweep})"),
            sample_view(sweep),
        ));
    }

    // report.json, alone and with the comparison against a baseline.
    let cases = parse_cases("cases", &fixture("golden-cases.json")).unwrap();
    let runs = parse_document(
        "runs",
        &format!(
            "[{}, {}]",
            fixture("dense-trace.json"),
            fixture("hybrid-legacy-trace.json")
        ),
    );
    let report = evaluate_with_floor_sweep(
        &cases,
        &analyze(&runs, &Settings::default(), false).unwrap(),
    );
    outputs.push(("report", "report".to_owned(), to_value(&report)));
    // A case file with a finding (a caseId used twice) puts it in the report.
    let mut twice: Value = serde_json::from_str(&fixture("golden-cases.json")).unwrap();
    let first = twice["cases"][0].clone();
    twice["cases"].as_array_mut().unwrap().push(first);
    let twice = parse_cases("cases", &twice.to_string()).unwrap();
    assert!(!twice.diagnostics.is_empty());
    let report = evaluate_with_floor_sweep(
        &twice,
        &analyze(&runs, &Settings::default(), false).unwrap(),
    );
    outputs.push((
        "report",
        "report with a finding".to_owned(),
        to_value(&report),
    ));
    // Graded judgments are echoed in the case's report.
    let graded = parse_cases(
        "cases",
        r#"[{"caseId": "g", "query": "q", "judgments": {"d1": 2, "d2": -1}}]"#,
    )
    .unwrap();
    let report = evaluate_with_floor_sweep(
        &graded,
        &analyze(&runs, &Settings::default(), false).unwrap(),
    );
    outputs.push((
        "report",
        "report with judgments".to_owned(),
        to_value(&report),
    ));
    let compare_cases = parse_cases("cases", &fixture("compare-cases.json")).unwrap();
    let evaluate = |run: &str| {
        let batch = parse_document(run, &fixture(run));
        evaluate_with_floor_sweep(
            &compare_cases,
            &analyze(&batch, &Settings::default(), false).unwrap(),
        )
    };
    let (before, after) = (
        evaluate("compare-run-a.json"),
        evaluate("compare-run-b.json"),
    );
    let mut comparison = ragtrace_core::compare_golden(
        &ragtrace_core::case_scores(&before),
        &ragtrace_core::case_scores(&after),
    );
    ragtrace_core::add_significance(&mut comparison, &SignificanceOptions::default());
    let with_comparison = ReportWithComparison {
        report: &after,
        comparison: &comparison,
    };
    outputs.push((
        "report",
        "report with a baseline".to_owned(),
        to_value(&with_comparison),
    ));

    // compare.json of two runs (a pair with a configuration difference), and of many.
    let a = parse_document("a", &fixture("compare-run-a.json"));
    let mut run_b: Value = serde_json::from_str(&fixture("compare-run-b.json")).unwrap();
    run_b["traces"][0]["options"] = json!({"returnN": 2});
    let b = parse_value("b", &run_b);
    for cases in [None, Some(&compare_cases)] {
        let report = compare_batches(
            &a,
            &b,
            &Settings::default(),
            cases,
            &CompareOptions::default(),
        )
        .unwrap();
        let what = format!("two runs (cases {})", cases.is_some());
        outputs.push(("compare", what, to_value(&report)));
    }
    let (runs, cases) = generate_many_runs(3, 100, 8, 5);
    let cases = parse_cases("cases", &cases).unwrap();
    let batches: Vec<_> = runs.iter().map(|r| parse_document("run", r)).collect();
    let named: Vec<_> = ["dense", "hybrid", "rerank"]
        .into_iter()
        .zip(&batches)
        .collect();
    let options = ManyRunOptions {
        significance: SignificanceOptions {
            permutations: 200,
            resamples: 200,
            ..Default::default()
        },
        baseline: Some("hybrid".to_owned()),
    };
    let many = compare_many_batches(&named, &Settings::default(), &cases, &options).unwrap();
    outputs.push(("compare", "many runs".to_owned(), to_value(&many)));

    // calibration.json: a curve with every point kind, and an unlinked case.
    let calibration_cases = parse_cases("cases", &fixture("calibration/cases.json")).unwrap();
    let settings = Settings {
        reference_threshold: Some(0.3),
        ..Settings::default()
    };
    let traces = parse_document("input", &fixture("calibration/traces.json"));
    let calibrated = calibrate_with_floor_sweep(
        &calibration_cases,
        &analyze(&traces, &settings, false).unwrap(),
    );
    outputs.push((
        "calibration",
        "calibration".to_owned(),
        to_value(&calibrated),
    ));
    let sample_cases = parse_cases("cases", &fixture("golden-cases-sample.json")).unwrap();
    let unlinked = calibrate_with_floor_sweep(&sample_cases, &sample_analysis(false));
    outputs.push((
        "calibration",
        "calibration, unlinked".to_owned(),
        to_value(&unlinked),
    ));

    // explain.json: every cause, a least pair, a level edge.
    let batch = parse_document("input", &fixture("explain-traces.json"));
    let cases = parse_cases("cases", &fixture("explain-cases.json")).unwrap();
    let explained = explain(&batch, &Settings::default(), Some(&cases)).unwrap();
    outputs.push(("explain", "explain".to_owned(), to_value(&explained)));
    outputs
}

#[test]
fn every_output_on_the_fixtures_matches_its_schema_and_reaches_every_definition() {
    let outputs = outputs();
    for (name, _) in OUTPUT_SCHEMAS {
        let schema = schema(name);
        let mut checker = Checker::new(&schema);
        let mut checked = 0;
        for (_, what, value) in outputs.iter().filter(|(n, ..)| n == name) {
            if let Err(err) = checker.check(value) {
                panic!("{what} does not match the schema {name}: {err}");
            }
            checked += 1;
        }
        assert!(checked > 0, "no output of {name}");
        let unreached: BTreeSet<String> = checker
            .definitions()
            .difference(&checker.reached)
            .cloned()
            .collect();
        assert!(
            unreached.is_empty(),
            "definitions of {name} no fixture reaches: {unreached:?}"
        );
    }
}

#[test]
fn analyze_jsonl_lines_are_the_analysis_traces_and_its_batch_view() {
    // `--format jsonl`: each trace line is one of `traces`, the last the batch view.
    let schema = schema("analysis");
    let analysis = to_value(&sample_analysis(true));
    let trace = json!({"$ref": "#/$defs/TraceAnalysis", "$defs": schema["$defs"]});
    for line in analysis["traces"].as_array().unwrap() {
        assert_valid("a trace line", &trace, line);
    }
    assert_valid(
        "the last line",
        &self::schema("partial"),
        &sample_view(true),
    );
}

/// Every way a schema could be wrong about a real output is caught.
#[test]
fn a_changed_output_fails_its_schema_with_the_place() {
    let schema = schema("analysis");
    let analysis = to_value(&sample_analysis(false));
    let fails = |changed: Value| Checker::new(&schema).check(&changed).unwrap_err();

    let mut missing = analysis.clone();
    missing["traces"][0]["blocks"][0]
        .as_object_mut()
        .unwrap()
        .remove("qualityScore");
    let err = fails(missing);
    assert!(
        err.contains("/traces/0/blocks/0: the required key qualityScore is missing"),
        "{err}"
    );

    let mut added = analysis.clone();
    added["traces"][1]["averagePrecision"] = json!(0.5);
    let err = fails(added);
    assert!(
        err.starts_with("/traces/1/averagePrecision: a key the schema does not list"),
        "{err}"
    );

    let mut wrong_type = analysis.clone();
    wrong_type["summary"]["byMode"]["dense"]["traces"] = json!("2");
    let err = fails(wrong_type);
    assert!(
        err.starts_with("/summary/byMode/dense/traces: \"2\" is not of type"),
        "{err}"
    );

    let mut null = analysis.clone();
    null["traces"][0]["relevanceLevel"] = Value::Null;
    let err = fails(null);
    assert!(err.starts_with("/traces/0/relevanceLevel: null"), "{err}");

    let mut unknown_level = analysis;
    unknown_level["traces"][0]["relevanceLevel"] = json!("GOOD");
    assert!(fails(unknown_level).starts_with("/traces/0/relevanceLevel: "));
}

#[test]
fn the_schemas_are_json_schema_2020_12_named_by_their_output() {
    let names: Vec<&str> = OUTPUT_SCHEMAS.iter().map(|(name, _)| *name).collect();
    assert_eq!(
        names,
        [
            "analysis",
            "report",
            "compare",
            "calibration",
            "explain",
            "partial"
        ]
    );
    for name in names {
        let schema = schema(name);
        assert_eq!(
            schema["$schema"],
            "https://json-schema.org/draft/2020-12/schema"
        );
        assert_eq!(schema["title"], name);
    }
    assert_eq!(output_schema("summary"), None);
    // A change names one or two settings, never the page's switch.
    let change = &schema("explain")["$defs"]["SettingsChange"];
    assert_eq!(change["minProperties"], 1);
    assert_eq!(change["maxProperties"], 2);
    assert!(change["properties"].get("useTraceOptions").is_none());
    assert_eq!(
        change["properties"]["hybridQuality"]["$ref"],
        "#/$defs/HybridQuality"
    );
    // report.json's comparison is there only with a baseline.
    let report = schema("report");
    let required: Vec<&str> = report["required"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(
        required,
        [
            "config",
            "summary",
            "cases",
            "unlinkedTraces",
            "diagnostics"
        ]
    );
}

/// The declarations the bindings ship, checked field by field against the schemas'
/// definitions: the same object names (Rust's type name, but for [`TS_NAMES`] and
/// [`PY_NAMES`]), the same keys, a key optional exactly when the schema does not
/// require it, `null` allowed exactly when the schema allows it.
mod declarations {
    use super::Value;
    use ragtrace_core::{
        Analysis, BatchView, Calibration, CompareReport, Explanation, GoldenReport,
        ManyRunComparison, PairComparison,
    };
    use schemars::generate::SchemaSettings;
    use std::collections::{BTreeMap, BTreeSet};

    const TYPESCRIPT: &str = include_str!("../../../js/types/ragtrace.d.ts");
    const PYTHON: &str = include_str!("../../../py/python/ragtrace/__init__.pyi");

    /// Rust's name -> the TypeScript interface's, where they differ.
    const TS_NAMES: &[(&str, &str)] = &[("Analysis", "AnalysisObject")];
    /// Rust's name -> the Python TypedDict's, where they differ (`InputError` is the
    /// exception the package raises).
    const PY_NAMES: &[(&str, &str)] = &[
        ("Analysis", "AnalysisObject"),
        ("InputError", "InputErrorRecord"),
    ];
    /// Definitions a binding declares without an interface of their own.
    const TS_INLINE: &[(&str, &str)] = &[
        ("ByMode", "written inline in Summary"),
        ("BatchView", "the JS API has no partials"),
        ("SettingsChange", "the type SettingsChange over Settings"),
    ];
    const PY_INLINE: &[(&str, &str)] = &[("SettingsChange", "typed as Settings")];
    /// Declarations that are not outputs: arguments, and the Python package's own rows.
    const TS_ARGUMENTS: &[&str] = &["Settings", "NamedRun", "ManyRunOptions"];
    const PY_ARGUMENTS: &[&str] = &["Settings", "Row"];
    /// (interface, key): declared required where the CLI may leave the key out,
    /// because the binding always writes it.
    const TS_ALWAYS: &[(&str, &str)] = &[("AnalysisObject", "sweep")];

    /// A declared key: optional (`?`, `NotRequired`, `total=False`) and its type.
    #[derive(Debug, Clone)]
    struct Field {
        optional: bool,
        ty: String,
    }

    type Objects = BTreeMap<String, BTreeMap<String, Field>>;

    /// Every object definition of every output, by name (one name is one shape in all
    /// of them).
    fn definitions() -> BTreeMap<String, Value> {
        let mut generator = SchemaSettings::draft2020_12()
            .for_serialize()
            .into_generator();
        generator.subschema_for::<Analysis>();
        generator.subschema_for::<BatchView>();
        generator.subschema_for::<GoldenReport>();
        generator.subschema_for::<CompareReport>();
        generator.subschema_for::<ManyRunComparison>();
        generator.subschema_for::<Calibration>();
        generator.subschema_for::<Explanation>();
        // PairDetail flattens it; the declarations name it apart.
        generator.subschema_for::<PairComparison>();
        let defs = generator.take_definitions(true);
        for (name, _) in ragtrace_core::OUTPUT_SCHEMAS {
            let schema = ragtrace_core::output_schema(name).unwrap();
            for (def, body) in schema["$defs"].as_object().unwrap() {
                assert_eq!(defs.get(def), Some(body), "{def} of {name} differs");
            }
        }
        defs.into_iter()
            .filter(|(_, body)| body.get("properties").is_some())
            .collect()
    }

    fn typescript(text: &str) -> Objects {
        let mut found = Objects::new();
        let mut current: Option<String> = None;
        for line in text.lines() {
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
                        let optional = key.ends_with('?');
                        let field = Field {
                            optional,
                            ty: ty.trim_end_matches(';').to_owned(),
                        };
                        let key = key.trim_end_matches('?').to_owned();
                        found.get_mut(name).unwrap().insert(key, field);
                    }
                }
            }
        }
        found
    }

    fn python(text: &str) -> Objects {
        let mut found = Objects::new();
        let mut current: Option<(String, bool)> = None;
        let mut in_docstring = false;
        for line in text.lines() {
            if let Some(head) = line.strip_prefix("class ") {
                current = None;
                let Some((name, bases)) = head.split_once('(') else {
                    continue;
                };
                let bases = bases.trim_end_matches("):");
                let mut fields = BTreeMap::new();
                let typed_dict = bases.starts_with("TypedDict");
                if !typed_dict {
                    match found.get(bases) {
                        Some(base) => fields = base.clone(),
                        None => continue, // not a TypedDict (an exception, a class)
                    }
                }
                let total = !bases.contains("total=False");
                found.insert(name.to_owned(), fields);
                current = Some((name.to_owned(), total));
                in_docstring = false;
            } else if !line.starts_with("    ") && !line.is_empty() {
                current = None;
            } else if let (Some((name, total)), Some(field)) = (&current, line.strip_prefix("    "))
            {
                let quotes = field.matches("\"\"\"").count();
                if in_docstring || quotes > 0 {
                    in_docstring ^= quotes % 2 == 1;
                    continue;
                }
                if let Some((key, ty)) = field.split_once(": ") {
                    let not_required = ty.strip_prefix("NotRequired[").map(|t| &t[..t.len() - 1]);
                    let field = Field {
                        optional: !total || not_required.is_some(),
                        ty: not_required.unwrap_or(ty).to_owned(),
                    };
                    found.get_mut(name).unwrap().insert(key.to_owned(), field);
                }
            }
        }
        found
    }

    fn nullable(schema: &Value, defs: &BTreeMap<String, Value>) -> bool {
        let null = Value::from("null");
        match schema.get("type") {
            Some(Value::Array(types)) if types.contains(&null) => return true,
            Some(t) if *t == null => return true,
            _ => {}
        }
        if let Some(name) = schema["$ref"]
            .as_str()
            .and_then(|r| r.strip_prefix("#/$defs/"))
        {
            return defs.get(name).is_some_and(|d| nullable(d, defs));
        }
        ["anyOf", "oneOf"].iter().any(|k| {
            schema[k]
                .as_array()
                .is_some_and(|options| options.iter().any(|o| nullable(o, defs)))
        })
    }

    /// Every mismatch between the definitions and one binding's declarations, each a
    /// sentence that names the object and the key.
    fn mismatches(
        binding: &str,
        declared: &Objects,
        names: &[(&str, &str)],
        inline: &[(&str, &str)],
        arguments: &[&str],
        always: &[(&str, &str)],
        null_word: &str,
    ) -> Vec<String> {
        let defs = definitions();
        let mut problems = Vec::new();
        let mut matched = BTreeSet::new();
        for (rust, schema) in &defs {
            if inline.iter().any(|(name, _)| name == rust) {
                continue;
            }
            let name = names
                .iter()
                .find(|(from, _)| from == rust)
                .map_or(rust.as_str(), |(_, to)| to);
            let Some(fields) = declared.get(name) else {
                problems.push(format!(
                    "{binding}: no declaration of {name} (the output type {rust})"
                ));
                continue;
            };
            matched.insert(name.to_owned());
            let properties = schema["properties"].as_object().unwrap();
            let required: BTreeSet<&str> = schema["required"]
                .as_array()
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            for (key, property) in properties {
                let Some(field) = fields.get(key) else {
                    problems.push(format!("{binding}: {name} lacks the key {key}"));
                    continue;
                };
                let optional =
                    !required.contains(key.as_str()) && !always.contains(&(name, key.as_str()));
                if field.optional != optional {
                    let (is, should) = if optional {
                        ("required", "optional")
                    } else {
                        ("optional", "required")
                    };
                    problems.push(format!(
                        "{binding}: {name}.{key} is declared {is}, the output has it {should}"
                    ));
                }
                if field.ty.contains(null_word) != nullable(property, &defs) {
                    problems.push(format!(
                        "{binding}: {name}.{key} is declared {}, the schema {} null",
                        field.ty,
                        if nullable(property, &defs) {
                            "allows"
                        } else {
                            "never allows"
                        }
                    ));
                }
            }
            for key in fields.keys().filter(|k| !properties.contains_key(*k)) {
                problems.push(format!(
                    "{binding}: {name} declares {key}, which the output does not have"
                ));
            }
        }
        for name in declared.keys() {
            if !matched.contains(name) && !arguments.contains(&name.as_str()) {
                problems.push(format!(
                    "{binding}: {name} is declared but is no output's object"
                ));
            }
        }
        problems
    }

    fn typescript_problems(text: &str) -> Vec<String> {
        mismatches(
            "ragtrace.d.ts",
            &typescript(text),
            TS_NAMES,
            TS_INLINE,
            TS_ARGUMENTS,
            TS_ALWAYS,
            "null",
        )
    }

    fn python_problems(text: &str) -> Vec<String> {
        mismatches(
            "__init__.pyi",
            &python(text),
            PY_NAMES,
            PY_INLINE,
            PY_ARGUMENTS,
            &[],
            "None",
        )
    }

    #[test]
    fn the_typescript_declarations_match_the_schemas_field_by_field() {
        let problems = typescript_problems(TYPESCRIPT);
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    #[test]
    fn the_python_stub_matches_the_schemas_field_by_field() {
        let problems = python_problems(PYTHON);
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    /// `text` with the first `from` replaced (which must be there).
    fn edited(text: &str, from: &str, to: &str) -> String {
        assert!(text.contains(from), "{from}");
        text.replacen(from, to, 1)
    }

    #[test]
    fn a_declaration_that_drifts_is_named_with_its_key() {
        let cases = [
            ("  qualityScore: number;\n", "", "ragtrace.d.ts: Block lacks the key qualityScore"),
            (
                "  excerpt: string | null;\n",
                "  excerpt: string;\n",
                "ragtrace.d.ts: Block.excerpt is declared string, the schema allows null",
            ),
            (
                "  lowQuality: number;\n",
                "  lowQuality?: number;\n",
                "ragtrace.d.ts: ModeSummary.lowQuality is declared optional, the output has it required\n\
                 ragtrace.d.ts: Summary.lowQuality is declared optional, the output has it required",
            ),
            (
                "export interface LevelCounts {\n",
                "export interface LevelCounts {\n  averagePrecision: number;\n",
                "ragtrace.d.ts: LevelCounts declares averagePrecision, which the output does not have",
            ),
            (
                "export interface Rbo {",
                "export interface RboValue {",
                "ragtrace.d.ts: no declaration of Rbo (the output type Rbo)\n\
                 ragtrace.d.ts: RboValue is declared but is no output's object",
            ),
        ];
        for (from, to, problem) in cases {
            let problems = typescript_problems(&edited(TYPESCRIPT, from, to));
            assert_eq!(problems.join("\n"), problem);
        }
        let cases = [
            (
                "    sweep: NotRequired[list[SweepPoint]]\n",
                "    sweep: list[SweepPoint]\n",
                "__init__.pyi: AnalysisObject.sweep is declared required, the output has it optional",
            ),
            (
                "    lineText: str | None\n",
                "",
                "__init__.pyi: InputErrorRecord lacks the key lineText",
            ),
            (
                "class Stages(TypedDict):\n",
                "class Stages(TypedDict):\n    floor: float\n",
                "__init__.pyi: Stages declares floor, which the output does not have",
            ),
        ];
        for (from, to, problem) in cases {
            let problems = python_problems(&edited(PYTHON, from, to));
            assert_eq!(problems.join("\n"), problem);
        }
    }
}
