//! `analyze`: the batch analysis of `ragtrace analyze --sweep`, kept in wasm behind a
//! handle so a caller converts only what it shows.

use crate::args::{self, INPUT_SOURCE};
use crate::error::Error;
use crate::to_js::to_js;
use wasm_bindgen::prelude::*;

/// The analysis of a batch under one set of settings (`analyze`'s result). Each
/// method converts one part of the CLI's JSON object; `toJSON()` gives all of it (so
/// `JSON.stringify(analysis)` writes the object `ragtrace analyze --sweep` writes). Call
/// `free()` when done with it to release its memory at once (the garbage collector
/// frees it otherwise, later).
#[wasm_bindgen]
pub struct Analysis {
    inner: ragtrace_core::Analysis,
}

#[wasm_bindgen]
impl Analysis {
    /// Number of traces analysed (`traces` of the whole object).
    #[wasm_bindgen(getter, js_name = traceCount)]
    pub fn trace_count(&self) -> usize {
        self.inner.traces.len()
    }

    /// The batch summary: level counts, transitions, split by mode.
    #[wasm_bindgen(unchecked_return_type = "Summary")]
    pub fn summary(&self) -> Result<JsValue, Error> {
        to_js(&self.inner.summary)
    }

    /// One trace's analysis, or `undefined` past the end.
    #[wasm_bindgen(unchecked_return_type = "TraceAnalysis | undefined")]
    pub fn trace(&self, index: usize) -> Result<JsValue, Error> {
        match self.inner.traces.get(index) {
            Some(trace) => to_js(trace),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// The traces `from..to` as `Array.prototype.slice` would pick them (negative
    /// indices count from the end; both bounds optional).
    #[wasm_bindgen(unchecked_return_type = "TraceAnalysis[]")]
    pub fn traces(&self, from: Option<f64>, to: Option<f64>) -> Result<JsValue, Error> {
        let len = self.inner.traces.len();
        let start = slice_bound(from, len, 0);
        let end = slice_bound(to, len, len).max(start);
        to_js(&self.inner.traces[start..end])
    }

    /// The effective configuration: defaults plus the user's settings.
    #[wasm_bindgen(unchecked_return_type = "Config")]
    pub fn config(&self) -> Result<JsValue, Error> {
        to_js(&self.inner.config)
    }

    /// Fraction of traces at or above each quality threshold 0, 0.01, ..., 1.
    #[wasm_bindgen(unchecked_return_type = "SweepPoint[]")]
    pub fn sweep(&self) -> Result<JsValue, Error> {
        to_js(self.inner.sweep.as_deref().unwrap_or_default())
    }

    /// Notable findings across the batch, one entry per diagnostic code.
    #[wasm_bindgen(unchecked_return_type = "BatchWarning[]")]
    pub fn warnings(&self) -> Result<JsValue, Error> {
        to_js(&self.inner.warnings)
    }

    /// Documents or traces that could not be read: the first 1,000.
    #[wasm_bindgen(js_name = inputErrors, unchecked_return_type = "InputError[]")]
    pub fn input_errors(&self) -> Result<JsValue, Error> {
        to_js(&self.inner.input_errors)
    }

    /// Input errors after the first 1,000, counted by code (empty when all are listed).
    #[wasm_bindgen(
        js_name = inputErrorsOmitted,
        unchecked_return_type = "Record<string, number>"
    )]
    pub fn input_errors_omitted(&self) -> Result<JsValue, Error> {
        to_js(&self.inner.input_errors_omitted)
    }

    /// What each document contributed.
    #[wasm_bindgen(unchecked_return_type = "DocumentSummary[]")]
    pub fn documents(&self) -> Result<JsValue, Error> {
        to_js(&self.inner.documents)
    }

    /// The whole object, as `ragtrace analyze --sweep` writes it.
    #[wasm_bindgen(js_name = toJSON, unchecked_return_type = "AnalysisObject")]
    pub fn to_json(&self) -> Result<JsValue, Error> {
        to_js(&self.inner)
    }
}

/// `Array.prototype.slice`'s reading of one bound.
fn slice_bound(bound: Option<f64>, len: usize, absent: usize) -> usize {
    let Some(bound) = bound else {
        return absent;
    };
    // ToIntegerOrInfinity: NaN is 0, fractions truncate toward zero (-0.5 is 0).
    let whole = if bound.is_nan() { 0.0 } else { bound.trunc() };
    if whole < 0.0 {
        len.saturating_sub((-whole).min(len as f64) as usize)
    } else {
        whole.min(len as f64) as usize
    }
}

fn run(input: JsValue, config: JsValue) -> Result<Analysis, Error> {
    let settings = args::settings(config)?;
    let batch = args::traces(input, INPUT_SOURCE)?;
    let inner = ragtrace_core::analyze(&batch, &settings, true)
        .map_err(|err| Error::Config(err.to_string()))?;
    Ok(Analysis { inner })
}

/// `analyze(input, config?)`: reads the traces (JSON text, JSON lines, or an object)
/// and analyses them under `config` (section 2 keys; the traces' own options apply
/// where the user sets none). Throws when nothing could be read or `config` is invalid.
#[wasm_bindgen]
pub fn analyze(
    #[wasm_bindgen(unchecked_param_type = "string | object")] input: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "Settings | string | null")] config: JsValue,
) -> Result<Analysis, Error> {
    run(input, config)
}

/// `analyzeObject(input, config?)`: `analyze(input, config).toJSON()` in one call, the
/// whole object at once (the API's result before the `Analysis` handle).
#[wasm_bindgen(js_name = analyzeObject, unchecked_return_type = "AnalysisObject")]
pub fn analyze_object(
    #[wasm_bindgen(unchecked_param_type = "string | object")] input: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "Settings | string | null")] config: JsValue,
) -> Result<JsValue, Error> {
    run(input, config)?.to_json()
}

#[cfg(test)]
mod tests {
    use super::slice_bound;

    #[test]
    fn slice_bounds_read_like_array_slice() {
        let picks = |from: Option<f64>, to: Option<f64>| {
            let start = slice_bound(from, 5, 0);
            (start, slice_bound(to, 5, 5).max(start))
        };
        assert_eq!(picks(None, None), (0, 5));
        assert_eq!(picks(Some(1.0), Some(3.0)), (1, 3));
        assert_eq!(picks(Some(-2.0), None), (3, 5));
        assert_eq!(picks(Some(1.9), Some(-1.5)), (1, 4));
        assert_eq!(picks(Some(-9.0), Some(9.0)), (0, 5));
        assert_eq!(picks(Some(4.0), Some(2.0)), (4, 4));
        assert_eq!(picks(Some(f64::NAN), Some(f64::INFINITY)), (0, 5));
        assert_eq!(picks(Some(f64::NEG_INFINITY), Some(-0.0)), (0, 0));
        assert_eq!(picks(Some(-0.5), Some(-0.5)), (0, 0));
    }
}
