//! The JS API, exercised in headless browsers by `wasm-pack test`.
#![cfg(target_arch = "wasm32")]

use js_sys::{Array, Error, Object, Reflect, JSON};
use ragtrace_js as wasm;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const DENSE_TRACE: &str = include_str!("../../samples/dense-trace.json");
const HYBRID_TRACE: &str = include_str!("../../samples/hybrid-legacy-trace.json");
const LOOKUPS: &str = include_str!("../../samples/lookup-result.jsonl");
const CASES: &str = include_str!("../../tests/fixtures/golden-cases.json");
const CALIBRATION_CASES: &str = include_str!("../../tests/fixtures/calibration/cases.json");
const CALIBRATION_TRACES: &str = include_str!("../../tests/fixtures/calibration/traces.json");

fn get(value: &JsValue, key: &str) -> JsValue {
    Reflect::get(value, &JsValue::from_str(key)).unwrap()
}

fn at(value: &JsValue, index: u32) -> JsValue {
    value.dyn_ref::<Array>().expect("an array").get(index)
}

fn thrown_message<T>(result: Result<T, wasm::Error>) -> String {
    let Err(error) = result else {
        panic!("expected a thrown Error");
    };
    let error = JsValue::from(error);
    let error: Error = error.dyn_into().expect("a JS Error object");
    error.message().into()
}

#[wasm_bindgen_test]
fn canonical_label_maps_aliases_and_rejects_unknown() {
    assert_eq!(
        wasm::canonical_label("rrf_fused").as_deref(),
        Some("hybrid")
    );
    assert_eq!(
        wasm::canonical_label(" L2_DISTANCE").as_deref(),
        Some("dense")
    );
    assert_eq!(wasm::canonical_label("cosine"), None);
}

#[wasm_bindgen_test]
fn analyze_a_string_returns_the_cli_shape_with_nulls() {
    let out = wasm::analyze_object(JsValue::from_str(DENSE_TRACE), JsValue::UNDEFINED).unwrap();
    let trace = at(&get(&out, "traces"), 0);
    assert_eq!(
        get(&trace, "name").as_string().as_deref(),
        Some("req-dense-001")
    );
    // The trace's options (maxL2Distance 1.2) apply: top quality 1 - 0.41 / 1.2.
    let top = get(&trace, "topQuality").as_f64().unwrap();
    assert!((top - (1.0 - 0.41 / 1.2)).abs() < 1e-12, "{top}");
    assert_eq!(
        get(&trace, "relevanceLevel").as_string().as_deref(),
        Some("RELEVANT")
    );
    // Absent values are null, not undefined.
    let third = at(&get(&trace, "blocks"), 2);
    assert_eq!(
        get(&third, "status").as_string().as_deref(),
        Some("duplicate")
    );
    assert!(get(&third, "acceptedRank").is_null());
    assert!(get(&out, "sweep").is_object());
}

#[wasm_bindgen_test]
fn analyze_an_object_with_a_config_override() {
    let object = JSON::parse(HYBRID_TRACE).unwrap();
    let config =
        JSON::parse(r#"{"hybridQuality": "denseWhenPresent", "maxL2Distance": 2}"#).unwrap();
    let out = wasm::analyze_object(object, config).unwrap();
    let trace = at(&get(&out, "traces"), 0);
    let first = at(&get(&trace, "blocks"), 0);
    // denseWhenPresent: the dense formula on denseDistance 0.72 with M = 2.
    let q = get(&first, "qualityScore").as_f64().unwrap();
    assert!((q - (1.0 - 0.72 / 2.0)).abs() < 1e-12, "{q}");
    assert_eq!(get(&trace, "mode").as_string().as_deref(), Some("hybrid"));
}

#[wasm_bindgen_test]
fn analyze_json_lines_keeps_text_as_data() {
    let out = wasm::analyze_object(JsValue::from_str(LOOKUPS), JsValue::NULL).unwrap();
    let traces = get(&out, "traces");
    assert_eq!(traces.dyn_ref::<Array>().unwrap().length(), 2);
    let xss = at(&traces, 1);
    // The embedded trace supplies the trace fields; it has no query of its own.
    assert!(get(&xss, "query").is_null());
    assert_eq!(
        get(&xss, "lookupQuery").as_string().as_deref(),
        Some("<script>alert('x')</script> payroll export")
    );
    assert_eq!(get(&xss, "name").as_string().as_deref(), Some("req-xss-1"));
}

#[wasm_bindgen_test]
fn malformed_json_throws_an_error_with_line_and_column() {
    let message = thrown_message(wasm::analyze_object(
        JsValue::from_str("{\n  \"candidates\": [\n    {\"originalRank\": 1,}\n  ]\n}"),
        JsValue::UNDEFINED,
    ));
    assert!(message.contains("input:3:"), "{message}");
}

#[wasm_bindgen_test]
fn invalid_config_throws_an_error_naming_the_key() {
    let config = JSON::parse(r#"{"maxL2Distance": 0}"#).unwrap();
    let message = thrown_message(wasm::analyze_object(JsValue::from_str(DENSE_TRACE), config));
    assert!(message.contains("maxL2Distance"), "{message}");
}

#[wasm_bindgen_test]
fn default_config_lists_every_key() {
    let config = wasm::default_config().unwrap();
    assert_eq!(get(&config, "maxL2Distance").as_f64(), Some(1.0));
    assert_eq!(get(&config, "returnN").as_f64(), Some(5.0));
    assert_eq!(get(&config, "maxChunksPerDocument").as_f64(), Some(2.0));
    assert_eq!(get(&config, "excerptMaxChars").as_f64(), Some(300.0));
    assert_eq!(
        get(&config, "hybridQuality").as_string().as_deref(),
        Some("rank")
    );
    assert_eq!(get(&config, "scoreKind").as_string().as_deref(), Some("l2"));
    assert_eq!(get(&config, "minQuality").as_f64(), Some(0.0));
    assert_eq!(get(&config, "relativeQuality").as_f64(), Some(0.0));
    assert_eq!(get(&config, "relevantGrade").as_f64(), Some(1.0));
    assert_eq!(Object::keys(config.unchecked_ref::<Object>()).length(), 12);
}

#[wasm_bindgen_test]
fn quality_score_follows_both_formulas() {
    let dense = wasm::quality_score(
        "l2_distance",
        Some(0.25),
        1.0,
        4.0,
        JsValue::UNDEFINED,
        None,
    );
    assert_eq!(dense.unwrap(), 0.75);
    let hybrid = wasm::quality_score("hybrid", None, 3.0, 5.0, JsValue::UNDEFINED, None);
    assert!((hybrid.unwrap() - 0.6).abs() < 1e-12);
    let unknown = wasm::quality_score("cosine", Some(0.1), 1.0, 1.0, JsValue::UNDEFINED, None);
    assert_eq!(unknown.unwrap(), 0.0);
    let bad_rank = wasm::quality_score("hybrid", None, 0.0, 5.0, JsValue::UNDEFINED, None);
    assert!(thrown_message(bad_rank).contains("rank"));
}

#[wasm_bindgen_test]
fn evaluate_links_cases_and_reports_levels() {
    let runs = format!("[{DENSE_TRACE}, {HYBRID_TRACE}]");
    let report = wasm::evaluate(
        JsValue::from_str(CASES),
        JsValue::from_str(&runs),
        JsValue::UNDEFINED,
    )
    .unwrap();
    let summary = get(&report, "summary");
    assert_eq!(get(&summary, "cases").as_f64(), Some(4.0));
    let first = at(&get(&report, "cases"), 0);
    assert_eq!(
        get(&first, "caseId").as_string().as_deref(),
        Some("redis-eviction")
    );
    assert_eq!(get(&first, "level").as_string().as_deref(), Some("strong"));
    let last = at(&get(&report, "cases"), 3);
    assert_eq!(get(&last, "level").as_string().as_deref(), Some("miss"));
}

#[wasm_bindgen_test]
fn evaluate_with_a_malformed_cases_file_throws() {
    let message = thrown_message(wasm::evaluate(
        JsValue::from_str("{\"cases\": [}"),
        JsValue::from_str(DENSE_TRACE),
        JsValue::UNDEFINED,
    ));
    assert!(message.contains("cases:1:"), "{message}");
}

fn stringify(value: &JsValue) -> String {
    JSON::stringify(value).unwrap().into()
}

/// 1,500 lines `{}` and one good trace: the first 1,000 input errors are listed and
/// the other 500 counted under their code, in the getter and in `toJSON()` alike.
#[wasm_bindgen_test]
fn input_errors_past_the_bound_are_counted_by_code() {
    let text = format!(
        "{}{}\n",
        "{}\n".repeat(1_500),
        DENSE_TRACE.replace('\n', " ")
    );
    let analysis = wasm::analyze(JsValue::from_str(&text), JsValue::UNDEFINED).unwrap();
    assert_eq!(analysis.trace_count(), 1);
    let listed = analysis.input_errors().unwrap();
    assert_eq!(listed.dyn_ref::<Array>().unwrap().length(), 1_000);
    let omitted = r#"{"missing-candidates":500}"#;
    assert_eq!(
        stringify(&analysis.input_errors_omitted().unwrap()),
        omitted
    );
    let whole = analysis.to_json().unwrap();
    assert_eq!(stringify(&get(&whole, "inputErrorsOmitted")), omitted);
}

#[wasm_bindgen_test]
fn the_handle_hands_out_the_parts_of_the_whole_object() {
    // JSON lines: one trace per line, then the two LookupResults.
    let batch = format!(
        "{}\n{}\n{LOOKUPS}",
        DENSE_TRACE.replace('\n', " "),
        HYBRID_TRACE.replace('\n', " ")
    );
    let config = JSON::parse(r#"{"returnN": 3}"#).unwrap();
    let analysis = wasm::analyze(JsValue::from_str(&batch), config).unwrap();
    let whole = analysis.to_json().unwrap();
    let traces = get(&whole, "traces");
    assert_eq!(analysis.trace_count(), 4);
    assert_eq!(traces.dyn_ref::<Array>().unwrap().length(), 4);
    for key in ["summary", "config", "sweep", "warnings", "documents"] {
        let part = match key {
            "summary" => analysis.summary(),
            "config" => analysis.config(),
            "sweep" => analysis.sweep(),
            "warnings" => analysis.warnings(),
            _ => analysis.documents(),
        };
        assert_eq!(
            stringify(&part.unwrap()),
            stringify(&get(&whole, key)),
            "{key}"
        );
    }
    assert_eq!(
        stringify(&analysis.input_errors().unwrap()),
        stringify(&get(&whole, "inputErrors"))
    );
    assert_eq!(get(&get(&whole, "config"), "returnN").as_f64(), Some(3.0));
    assert_eq!(get(&get(&whole, "summary"), "traces").as_f64(), Some(4.0));
    for index in 0..4 {
        assert_eq!(
            stringify(&analysis.trace(index).unwrap()),
            stringify(&at(&traces, index as u32)),
            "trace {index}"
        );
    }
    assert!(analysis.trace(4).unwrap().is_undefined());
    let middle = analysis.traces(Some(1.0), Some(-1.0)).unwrap();
    assert_eq!(middle.dyn_ref::<Array>().unwrap().length(), 2);
    assert_eq!(stringify(&at(&middle, 0)), stringify(&at(&traces, 1)));
    assert_eq!(stringify(&at(&middle, 1)), stringify(&at(&traces, 2)));
    let all = analysis.traces(None, None).unwrap();
    assert_eq!(stringify(&all), stringify(&traces));
}

#[wasm_bindgen_test]
fn json_stringify_of_the_handle_writes_the_whole_object() {
    // `toJSON` is what `JSON.stringify` calls: the handle serialises as the CLI's object.
    let analysis: JsValue = wasm::analyze(JsValue::from_str(DENSE_TRACE), JsValue::NULL)
        .unwrap()
        .into();
    let text = stringify(&analysis);
    let whole = wasm::analyze_object(JsValue::from_str(DENSE_TRACE), JsValue::NULL).unwrap();
    assert_eq!(text, stringify(&whole));
    assert!(text.starts_with("{\"config\":"), "{text}");
}

#[wasm_bindgen_test]
fn the_handle_reports_unreadable_documents_beside_the_readable_ones() {
    let batch = format!(
        "{}\n{{\"candidates\": [}}\n",
        DENSE_TRACE.replace('\n', " ")
    );
    let analysis = wasm::analyze(JsValue::from_str(&batch), JsValue::UNDEFINED).unwrap();
    assert_eq!(analysis.trace_count(), 1);
    let errors = analysis.input_errors().unwrap();
    assert_eq!(errors.dyn_ref::<Array>().unwrap().length(), 1);
    assert_eq!(get(&at(&errors, 0), "line").as_f64(), Some(2.0));
    assert_eq!(
        get(&at(&errors, 0), "source").as_string().as_deref(),
        Some("input")
    );
}

#[wasm_bindgen_test]
fn missing_input_throws_an_error_saying_so() {
    let message = thrown_message(wasm::analyze(JsValue::UNDEFINED, JsValue::UNDEFINED));
    assert_eq!(
        message,
        "input: expected a JSON string or an object, got nothing"
    );
    let message = thrown_message(wasm::evaluate(
        JsValue::from_str(CASES),
        JsValue::NULL,
        JsValue::UNDEFINED,
    ));
    assert!(message.starts_with("runs: "), "{message}");
}

// compareRuns: two runs side by side, the object of `compare.json`.

const RUN_A: &str = include_str!("../../tests/fixtures/compare-run-a.json");
const RUN_B: &str = include_str!("../../tests/fixtures/compare-run-b.json");
const COMPARE_CASES: &str = include_str!("../../tests/fixtures/compare-cases.json");

/// What the core's `compare_batches` reports for the compare fixtures.
fn core_compare_report(
    settings: &ragtrace_core::Settings,
    with_cases: bool,
    rbo_p: f64,
) -> serde_json::Value {
    use ragtrace_core::{compare_batches, CompareOptions};
    let a = ragtrace_core::parse_document("a", RUN_A);
    let b = ragtrace_core::parse_document("b", RUN_B);
    let cases = with_cases.then(|| ragtrace_core::parse_cases("cases", COMPARE_CASES).unwrap());
    let report =
        compare_batches(&a, &b, settings, cases.as_ref(), &CompareOptions { rbo_p }).unwrap();
    // Through JSON.parse, so that as_json reads it as it reads the API's result.
    as_json(&JSON::parse(&serde_json::to_string(&report).unwrap()).unwrap())
}

/// A result as JavaScript writes it, read back as JSON: both sides of a comparison go
/// through `JSON.stringify`, so numbers are written the same way (the float 1.0 as `1`,
/// every other one as its shortest round-trip text). Reading one side's Rust text
/// directly would not do: serde_json's default float parser may miss by one ulp.
fn as_json(value: &JsValue) -> serde_json::Value {
    serde_json::from_str(&stringify(value)).unwrap()
}

#[wasm_bindgen_test]
fn compare_runs_equals_the_cores_compare_json() {
    let out = wasm::compare_runs(
        JsValue::from_str(RUN_A),
        JSON::parse(RUN_B).unwrap(),
        JsValue::from_str(COMPARE_CASES),
        JsValue::UNDEFINED,
        JsValue::UNDEFINED,
    )
    .unwrap();
    let expected = core_compare_report(&ragtrace_core::Settings::default(), true, 0.9);
    assert!(!expected["golden"].is_null() && !expected["pairs"].as_array().unwrap().is_empty());
    assert_eq!(as_json(&out), expected);
}

#[wasm_bindgen_test]
fn compare_runs_passes_settings_and_rbo_p_and_no_cases_means_no_golden() {
    let config = r#"{"returnN": 2}"#;
    let out = wasm::compare_runs(
        JsValue::from_str(RUN_A),
        JsValue::from_str(RUN_B),
        JsValue::NULL,
        JsValue::from_str(config),
        JSON::parse(r#"{"rboP": 0.5}"#).unwrap(),
    )
    .unwrap();
    let settings = ragtrace_core::Settings::from_json_text(config).unwrap();
    let expected = core_compare_report(&settings, false, 0.5);
    assert!(expected["golden"].is_null());
    assert_eq!(expected["options"]["rboP"], 0.5);
    assert_eq!(expected["config"]["returnN"], 2);
    assert_eq!(as_json(&out), expected);
}

#[wasm_bindgen_test]
fn compare_runs_locates_an_unreadable_side() {
    let bad = JsValue::from_str("{\"traces\": [");
    let message = thrown_message(wasm::compare_runs(
        bad.clone(),
        JsValue::from_str(RUN_B),
        JsValue::UNDEFINED,
        JsValue::UNDEFINED,
        JsValue::UNDEFINED,
    ));
    assert!(message.starts_with("a:1:"), "{message}");
    let message = thrown_message(wasm::compare_runs(
        JsValue::from_str(RUN_A),
        bad,
        JsValue::UNDEFINED,
        JsValue::UNDEFINED,
        JsValue::UNDEFINED,
    ));
    assert!(message.starts_with("b:1:"), "{message}");
    let message = thrown_message(wasm::compare_runs(
        JsValue::from_str(RUN_A),
        JsValue::UNDEFINED,
        JsValue::UNDEFINED,
        JsValue::UNDEFINED,
        JsValue::UNDEFINED,
    ));
    assert!(message.starts_with("b: expected"), "{message}");
}

#[wasm_bindgen_test]
fn compare_runs_rejects_a_bad_rbo_p_naming_it() {
    let not_a_number = Object::new();
    Reflect::set(&not_a_number, &"rboP".into(), &JsValue::from_f64(f64::NAN)).unwrap();
    let options = [
        r#"{"rboP": 1}"#,
        r#"{"rboP": 0}"#,
        r#"{"rboP": -0.5}"#,
        r#"{"rboP": "high"}"#,
        r#"{"rbo": 0.5}"#,
        "[0.5]",
    ]
    .map(|text| JSON::parse(text).unwrap())
    .into_iter()
    .chain([JsValue::from(not_a_number)]);
    for options in options {
        let shown = stringify(&options);
        let message = thrown_message(wasm::compare_runs(
            JsValue::from_str(RUN_A),
            JsValue::from_str(RUN_B),
            JsValue::UNDEFINED,
            JsValue::UNDEFINED,
            options,
        ));
        assert!(message.starts_with("options: "), "{shown}: {message}");
        assert!(message.contains("rboP"), "{shown}: {message}");
    }
}

/// The hand-computed 6-case set of core/tests/library/calibration.rs: AUC 17/18, the Youden
/// cut at 0.6, and the config argument reaching the calibration.
#[wasm_bindgen_test]
fn calibrate_returns_the_core_calibration() {
    let config = JSON::parse(r#"{"referenceThreshold": 0.3}"#).unwrap();
    let c = wasm::calibrate(
        JsValue::from_str(CALIBRATION_CASES),
        JsValue::from_str(CALIBRATION_TRACES),
        config,
    )
    .unwrap();
    assert_eq!(get(&c, "linked").as_f64(), Some(6.0));
    let all = get(&get(&c, "gate"), "all");
    assert_eq!(get(&all, "status").as_string().as_deref(), Some("ok"));
    let auc = get(&all, "auc").as_f64().unwrap();
    assert!((auc - 17.0 / 18.0).abs() < 1e-12, "{auc}");
    assert_eq!(
        get(&get(&all, "bestYouden"), "threshold").as_f64(),
        Some(0.6)
    );
    assert_eq!(get(&get(&all, "current"), "threshold").as_f64(), Some(0.3));
    let youden = at(&get(&c, "suggestions"), 0);
    assert_eq!(get(&youden, "rule").as_string().as_deref(), Some("youden"));
    // No config: the default referenceThreshold 0.5.
    let default = wasm::calibrate(
        JsValue::from_str(CALIBRATION_CASES),
        JsValue::from_str(CALIBRATION_TRACES),
        JsValue::UNDEFINED,
    )
    .unwrap();
    let current = get(&get(&get(&default, "gate"), "all"), "current");
    assert_eq!(get(&current, "threshold").as_f64(), Some(0.5));
}

#[wasm_bindgen_test]
fn calibrate_with_bad_arguments_throws_located_errors() {
    let message = thrown_message(wasm::calibrate(
        JsValue::from_str("[{\"caseId\": }]"),
        JsValue::from_str(CALIBRATION_TRACES),
        JsValue::UNDEFINED,
    ));
    assert!(message.contains("cases:1:"), "{message}");
    let message = thrown_message(wasm::calibrate(
        JsValue::from_str(CALIBRATION_CASES),
        JsValue::from_str(CALIBRATION_TRACES),
        JsValue::from_str(r#"{"maxL2Distance": -1}"#),
    ));
    assert!(message.contains("maxL2Distance"), "{message}");
}

// compareRuns with many runs: the many-run `compare.json`.

/// `[{name, input}, ...]` of generated runs: the first as text, the others as objects.
fn named_runs(names: &[&str], texts: &[String]) -> JsValue {
    let runs = Array::new();
    for (i, (name, text)) in names.iter().zip(texts).enumerate() {
        let run = Object::new();
        Reflect::set(&run, &"name".into(), &JsValue::from_str(name)).unwrap();
        let input = if i == 0 {
            JsValue::from_str(text)
        } else {
            JSON::parse(text).unwrap()
        };
        Reflect::set(&run, &"input".into(), &input).unwrap();
        runs.push(&run);
    }
    runs.into()
}

#[wasm_bindgen_test]
fn compare_runs_with_many_runs_equals_the_cores_comparison() {
    use ragtrace_core::{compare_many_batches, generate_many_runs, ManyRunOptions};
    let names = ["dense", "hybrid", "rerank"];
    let (texts, cases) = generate_many_runs(3, 60, 8, 5);
    let options = JSON::parse(r#"{"baseline": "rerank"}"#).unwrap();
    let out = wasm::compare_runs(
        named_runs(&names, &texts),
        JsValue::from_str(&cases),
        JSON::parse(r#"{"returnN": 3}"#).unwrap(),
        options,
        JsValue::UNDEFINED,
    )
    .unwrap();
    let batches: Vec<_> = texts
        .iter()
        .map(|t| ragtrace_core::parse_document("run", t))
        .collect();
    let named: Vec<_> = names.iter().copied().zip(&batches).collect();
    let settings = ragtrace_core::Settings::from_json_text(r#"{"returnN": 3}"#).unwrap();
    let expected = compare_many_batches(
        &named,
        &settings,
        &ragtrace_core::parse_cases("cases", &cases).unwrap(),
        &ManyRunOptions {
            baseline: Some("rerank".to_owned()),
            ..ManyRunOptions::default()
        },
    )
    .unwrap();
    let expected = as_json(&JSON::parse(&serde_json::to_string(&expected).unwrap()).unwrap());
    let got = as_json(&out);
    assert_eq!(got, expected);
    assert_eq!(got["runs"], serde_json::json!(names));
    assert_eq!(got["baseline"], "rerank");
    assert_eq!(got["config"]["returnN"], 3);
    assert_eq!(
        got["metrics"][0]["tukey"]["p"][0].as_array().unwrap().len(),
        3
    );
}

#[wasm_bindgen_test]
fn compare_runs_with_many_runs_locates_bad_runs() {
    use ragtrace_core::generate_many_runs;
    let (texts, cases) = generate_many_runs(2, 20, 5, 5);
    let cases = JsValue::from_str(&cases);
    let twice = named_runs(&["dense", "dense"], &texts);
    let message = thrown_message(wasm::compare_runs(
        twice,
        cases.clone(),
        JsValue::UNDEFINED,
        JsValue::UNDEFINED,
        JsValue::UNDEFINED,
    ));
    assert!(
        message.starts_with("runs[1].name: the name \"dense\" is given to runs 1 and 2"),
        "{message}"
    );
    let one = named_runs(&["dense"], &texts);
    let message = thrown_message(wasm::compare_runs(
        one,
        cases.clone(),
        JsValue::UNDEFINED,
        JsValue::UNDEFINED,
        JsValue::UNDEFINED,
    ));
    assert!(message.starts_with("runs: only one run given"), "{message}");
    let message = thrown_message(wasm::compare_runs(
        named_runs(&["dense", "hybrid"], &texts),
        JsValue::UNDEFINED,
        JsValue::UNDEFINED,
        JsValue::UNDEFINED,
        JsValue::UNDEFINED,
    ));
    assert!(message.starts_with("cases: expected"), "{message}");
    let message = thrown_message(wasm::compare_runs(
        named_runs(&["dense", "hybrid"], &texts),
        cases.clone(),
        JsValue::UNDEFINED,
        JSON::parse(r#"{"baseline": "other"}"#).unwrap(),
        JsValue::UNDEFINED,
    ));
    assert!(
        message.starts_with("options.baseline: the baseline \"other\" is not one of the runs"),
        "{message}"
    );
    let empty = named_runs(&["dense", "empty"], &[texts[0].clone(), "[]".to_owned()]);
    let message = thrown_message(wasm::compare_runs(
        empty,
        cases,
        JsValue::UNDEFINED,
        JsValue::UNDEFINED,
        JsValue::UNDEFINED,
    ));
    assert!(
        message.starts_with("runs[1]: run \"empty\" has no trace"),
        "{message}"
    );
}
