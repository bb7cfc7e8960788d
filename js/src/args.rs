//! Reading the arguments every export shares: traces, settings and cases, each given
//! as JSON text or as an already-parsed JS object.

use crate::error::Error;
use ragtrace_core::CompareOptions;
use ragtrace_core::{parse_cases, parse_cases_value, CaseSet};
use ragtrace_core::{parse_document, parse_value, ParsedBatch, Settings};
use wasm_bindgen::JsValue;

/// The name given to the traces of `analyze` in located error messages.
pub(crate) const INPUT_SOURCE: &str = "input";
/// The name given to the traces of `evaluate`.
pub(crate) const RUNS_SOURCE: &str = "runs";
const CASES_SOURCE: &str = "cases";

fn is_absent(value: &JsValue) -> bool {
    value.is_undefined() || value.is_null()
}

fn to_json(value: JsValue, what: &'static str) -> Result<serde_json::Value, Error> {
    serde_wasm_bindgen::from_value(value).map_err(|err| Error::NotJsonLike {
        what,
        detail: err.to_string(),
    })
}

/// Traces from a string or an object. Fails only when nothing at all could be read;
/// partial failures are reported in the result's `inputErrors`.
pub(crate) fn traces(input: JsValue, source: &'static str) -> Result<ParsedBatch, Error> {
    let batch = match input.as_string() {
        Some(text) => {
            crate::memory::reserve_for_parse(text.len());
            parse_document(source, &text)
        }
        None if is_absent(&input) => return Err(Error::Missing { what: source }),
        None => parse_value(source, &to_json(input, source)?),
    };
    if batch.traces.is_empty() {
        if let Some(first) = batch.errors.first() {
            return Err(Error::Unreadable(first.to_string()));
        }
    }
    Ok(batch)
}

/// One run of the many-run `compareRuns`: traces named `name` in located messages;
/// `at` (`runs[2].input`) says where the argument is missing or unreadable.
pub(crate) fn named_traces(input: JsValue, name: &str, at: &str) -> Result<ParsedBatch, Error> {
    let batch = match input.as_string() {
        Some(text) => {
            crate::memory::reserve_for_parse(text.len());
            parse_document(name, &text)
        }
        None if is_absent(&input) => {
            return Err(Error::ManyRuns {
                at: at.to_owned(),
                message: "expected a JSON string or an object of traces, got nothing".to_owned(),
            })
        }
        None => {
            let json = serde_wasm_bindgen::from_value(input).map_err(|err| Error::ManyRuns {
                at: at.to_owned(),
                message: format!("not JSON-like data: {err}"),
            })?;
            parse_value(name, &json)
        }
    };
    if batch.traces.is_empty() {
        if let Some(first) = batch.errors.first() {
            return Err(Error::Unreadable(first.to_string()));
        }
    }
    Ok(batch)
}

/// User settings from an optional object (or JSON text) of section 2 keys, either spelling.
pub(crate) fn settings(config: JsValue) -> Result<Settings, Error> {
    if is_absent(&config) {
        return Ok(Settings::default());
    }
    let text = match config.as_string() {
        Some(text) => text,
        None => to_json(config, "config")?.to_string(),
    };
    Settings::from_json_text(&text).map_err(|err| Error::Config(err.to_string()))
}

/// A golden cases file (contract section 6) from text or an object.
pub(crate) fn cases(cases: JsValue) -> Result<CaseSet, Error> {
    let parsed = match cases.as_string() {
        Some(text) => parse_cases(CASES_SOURCE, &text),
        None => parse_cases_value(CASES_SOURCE, &to_json(cases, CASES_SOURCE)?),
    };
    parsed.map_err(|errors| Error::Cases(errors.iter().map(ToString::to_string).collect()))
}

/// A whole number >= 1 from a JS number (`rank`, `batchSize`).
pub(crate) fn count(value: f64, name: &'static str) -> Result<u64, Error> {
    if value.is_finite() && value.fract() == 0.0 && value >= 1.0 && value <= f64::from(u32::MAX) {
        Ok(value as u64)
    } else {
        Err(Error::NotACount { name, value })
    }
}

/// The names given to the two runs of `compareRuns` in located error messages.
pub(crate) const RUN_A_SOURCE: &str = "a";
pub(crate) const RUN_B_SOURCE: &str = "b";
const OPTIONS: &str = "options";

/// Cases when given, `None` for `undefined` or `null`.
pub(crate) fn optional_cases(cases: JsValue) -> Result<Option<CaseSet>, Error> {
    if is_absent(&cases) {
        Ok(None)
    } else {
        self::cases(cases).map(Some)
    }
}

/// `compareRuns`' options, `{ rboP?: number }`, the defaults for what is absent.
pub(crate) fn compare_options(options: JsValue) -> Result<CompareOptions, Error> {
    let mut read = CompareOptions::default();
    if is_absent(&options) {
        return Ok(read);
    }
    let invalid = |message: String| Error::Options(message);
    let json = to_json(options, OPTIONS)?;
    let object = json.as_object().ok_or_else(|| {
        invalid(format!(
            "expected an object such as {{\"rboP\": 0.9}}, found {json}"
        ))
    })?;
    for (key, value) in object {
        match key.as_str() {
            "rboP" => {
                read.rbo_p = value
                    .as_f64()
                    .ok_or_else(|| invalid(format!("rboP must be a number, found {value}")))?;
            }
            other => {
                return Err(invalid(format!(
                    "unknown key {other:?}; the one key is rboP"
                )))
            }
        }
    }
    read.validate().map_err(invalid)?;
    Ok(read)
}
