//! `compareRuns`: two runs side by side (contract section 6.2's `compare.json`), or
//! many runs at once (the many-run `compare.json`).

use crate::args::{self, RUN_A_SOURCE, RUN_B_SOURCE};
use crate::error::Error;
use crate::to_js::to_js;
use js_sys::{Array, Reflect};
use ragtrace_core::{compare_batches, compare_many_batches, ManyRunOptions, ParsedBatch};
use wasm_bindgen::prelude::*;

/// `compareRuns(a, b, cases?, config?, options?)`: the object `ragtrace compare`
/// writes as `compare.json`, from the core's one entry point so both report the same
/// numbers. `a` and `b` are read like `analyze`'s input (errors located in `a` or `b`);
/// with `cases`, both runs are evaluated and the golden deltas are in `golden`.
///
/// `compareRuns([{name, input}, ...], cases, config?, options?)`: two or more runs at
/// once, as `ragtrace compare --run NAME=FILE ...` (the core's `compare_many_batches`);
/// `options` is `{ baseline?: string }`. The declarations of both forms are
/// hand-written in types/ragtrace.d.ts (overloads).
#[wasm_bindgen(js_name = compareRuns, skip_typescript)]
pub fn compare_runs(
    a: JsValue,
    b: JsValue,
    cases: JsValue,
    config: JsValue,
    options: JsValue,
) -> Result<JsValue, Error> {
    if is_named_runs(&a) {
        return compare_many(&a, b, cases, config);
    }
    let settings = args::settings(config)?;
    let options = args::compare_options(options)?;
    let cases = args::optional_cases(cases)?;
    let batch_a = args::traces(a, RUN_A_SOURCE)?;
    let batch_b = args::traces(b, RUN_B_SOURCE)?;
    let report = compare_batches(&batch_a, &batch_b, &settings, cases.as_ref(), &options)
        .map_err(|err| Error::Config(err.to_string()))?;
    to_js(&report)
}

/// A non-empty array of objects that each have `name` and `input`: the many-run form (a
/// trace has neither key, and an empty array stays an empty run A).
fn is_named_runs(value: &JsValue) -> bool {
    if !Array::is_array(value) {
        return false;
    }
    let runs = Array::from(value);
    runs.length() > 0
        && runs.iter().all(|run| {
            run.is_object()
                && Reflect::has(&run, &JsValue::from_str("name")).unwrap_or(false)
                && Reflect::has(&run, &JsValue::from_str("input")).unwrap_or(false)
        })
}

/// A core error's JSON pointer as the JS argument it points into: `/runs/2/name` is
/// `runs[2].name`, `/baseline` is `options.baseline`.
fn js_place(path: &str) -> String {
    let mut parts = path.trim_start_matches('/').split('/');
    match parts.next() {
        Some("baseline") => "options.baseline".to_owned(),
        Some("config") => "config".to_owned(),
        Some(first) => {
            let mut place = first.to_owned();
            for part in parts {
                if part.bytes().all(|b| b.is_ascii_digit()) {
                    place.push_str(&format!("[{part}]"));
                } else {
                    place.push('.');
                    place.push_str(part);
                }
            }
            place
        }
        None => "runs".to_owned(),
    }
}

fn compare_many(
    runs: &JsValue,
    cases: JsValue,
    config: JsValue,
    options: JsValue,
) -> Result<JsValue, Error> {
    let settings = args::settings(config)?;
    let options = many_options(options)?;
    if cases.is_undefined() || cases.is_null() {
        return Err(Error::Missing { what: "cases" });
    }
    let cases = args::cases(cases)?;
    let mut names = Vec::new();
    let mut batches: Vec<ParsedBatch> = Vec::new();
    for (i, run) in Array::from(runs).iter().enumerate() {
        let name = Reflect::get(&run, &JsValue::from_str("name"))
            .ok()
            .and_then(|n| n.as_string())
            .ok_or_else(|| Error::ManyRuns {
                at: format!("runs[{i}].name"),
                message: "expected a string: the run's name".to_owned(),
            })?;
        let input = Reflect::get(&run, &JsValue::from_str("input")).unwrap_or(JsValue::NULL);
        batches.push(args::named_traces(
            input,
            &name,
            &format!("runs[{i}].input"),
        )?);
        names.push(name);
    }
    let named: Vec<(&str, &ParsedBatch)> = names.iter().map(String::as_str).zip(&batches).collect();
    let comparison = compare_many_batches(&named, &settings, &cases, &options).map_err(|err| {
        Error::ManyRuns {
            at: js_place(&err.path),
            message: err.message,
        }
    })?;
    to_js(&comparison)
}

/// The many-run form's options, `{ baseline?: string }`.
fn many_options(options: JsValue) -> Result<ManyRunOptions, Error> {
    let mut read = ManyRunOptions::default();
    if options.is_undefined() || options.is_null() {
        return Ok(read);
    }
    let json: serde_json::Value =
        serde_wasm_bindgen::from_value(options).map_err(|err| Error::NotJsonLike {
            what: "options",
            detail: err.to_string(),
        })?;
    let object = json.as_object().ok_or_else(|| {
        Error::Options(format!(
            "expected an object such as {{\"baseline\": \"dense\"}}, found {json}"
        ))
    })?;
    for (key, value) in object {
        match (key.as_str(), value) {
            ("baseline", serde_json::Value::String(name)) => read.baseline = Some(name.clone()),
            ("baseline", serde_json::Value::Null) => {}
            ("baseline", other) => {
                return Err(Error::Options(format!(
                    "baseline must be a run's name, found {other}"
                )))
            }
            (other, _) => {
                return Err(Error::Options(format!(
                    "unknown key {other:?}; with many runs the one key is baseline"
                )))
            }
        }
    }
    Ok(read)
}
