//! Structure-aware traces: RerankTraces and LookupResults built from the fuzzer's
//! bytes with `arbitrary` (ranks valid, missing, duplicated or of the wrong type;
//! scores, labels, docIds, recorded options and user settings of every kind), so the
//! mutations exercise ordering, dedup, the caps and the levels rather than the JSON
//! syntax. Each must read as exactly one trace and keep the pipeline's invariants.
#![no_main]

mod common;

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use ragtrace_core::{HybridQuality, Settings, analyze, parse_document};
use serde_json::{json, Map, Value};

#[derive(Arbitrary, Debug)]
enum Label {
    Dense,
    Hybrid,
    L2Distance,
    RrfFused,
    Bm25Only,
    Cased,
    Other(u8),
}

impl Label {
    fn json(&self) -> Value {
        json!(match self {
            Label::Dense => "dense".to_owned(),
            Label::Hybrid => "hybrid".to_owned(),
            Label::L2Distance => "l2_distance".to_owned(),
            Label::RrfFused => "rrf_fused".to_owned(),
            Label::Bm25Only => "bm25_only_fallback".to_owned(),
            Label::Cased => " Dense ".to_owned(),
            Label::Other(n) => format!("label{n}"),
        })
    }
}

/// A JSON value of the kind a field should hold, or of a wrong kind.
#[derive(Arbitrary, Debug)]
enum Field<T> {
    Absent,
    Null,
    Value(T),
    Text(u8),
    Flag(bool),
}

fn put<T>(object: &mut Map<String, Value>, name: &str, field: &Field<T>, to: impl Fn(&T) -> Value) {
    let value = match field {
        Field::Absent => return,
        Field::Null => Value::Null,
        Field::Value(v) => to(v),
        Field::Text(n) => json!(format!("{n}")),
        Field::Flag(b) => json!(b),
    };
    object.insert(name.to_owned(), value);
}

/// A float that JSON can hold (non-finite ones would be written as null).
fn number(v: &f64) -> Value {
    serde_json::Number::from_f64(*v).map_or(Value::Null, Value::Number)
}

#[derive(Arbitrary, Debug)]
struct Candidate {
    key: Option<u8>,
    doc: Option<u8>,
    rank: Field<i16>,
    fractional_rank: bool,
    score: Field<f64>,
    dense_distance: Field<f64>,
    final_score: Field<f64>,
    label: Option<Label>,
    excerpt: Option<String>,
}

impl Candidate {
    fn json(&self) -> Value {
        let mut c = Map::new();
        if let Some(key) = self.key {
            c.insert("evidenceKey".into(), json!(format!("k{}", key % 8)));
        }
        if let Some(doc) = self.doc {
            c.insert("docId".into(), json!(format!("d{}", doc % 4)));
        }
        let fractional = self.fractional_rank;
        put(&mut c, "originalRank", &self.rank, |r| {
            if fractional {
                json!(f64::from(*r) + 0.5)
            } else {
                json!(r)
            }
        });
        put(&mut c, "score", &self.score, number);
        put(&mut c, "denseDistance", &self.dense_distance, number);
        put(&mut c, "finalScore", &self.final_score, number);
        if let Some(label) = &self.label {
            c.insert("scoreLabel".into(), label.json());
        }
        if let Some(excerpt) = &self.excerpt {
            c.insert("excerpt".into(), json!(excerpt));
        }
        Value::Object(c)
    }
}

#[derive(Arbitrary, Debug)]
struct Options {
    return_n: Field<i64>,
    cap: Field<i64>,
    max_l2: Field<f64>,
    reference: Field<f64>,
    hybrid_quality: Option<u8>,
}

#[derive(Arbitrary, Debug)]
struct Trace {
    lookup: bool,
    mode: Option<Label>,
    candidates: Vec<Candidate>,
    recorded_level: Option<u8>,
    category_filter: Option<bool>,
    options: Option<Options>,
    /// The user's settings (valid ones: invalid settings are the settings target's).
    return_n: Option<u8>,
    cap: Option<u8>,
    max_l2: Option<u16>,
    hybrid_quality: Option<u8>,
    use_trace_options: bool,
}

impl Trace {
    fn json(&self) -> Value {
        let mut t = Map::new();
        if let Some(mode) = &self.mode {
            t.insert("mode".into(), mode.json());
        }
        let list: Vec<Value> = self.candidates.iter().map(Candidate::json).collect();
        t.insert(
            if self.lookup {
                "evidence"
            } else {
                "candidates"
            }
            .into(),
            Value::Array(list),
        );
        if let Some(level) = self.recorded_level {
            let names = [
                "PRECISE",
                "highly relevant",
                "Relevant",
                "LOW_RELEVANCE",
                "no-match",
                "weird",
            ];
            t.insert(
                "relevanceLevel".into(),
                json!(names[usize::from(level) % names.len()]),
            );
        }
        if let Some(filtered) = self.category_filter {
            t.insert(
                "categoryFilter".into(),
                json!(if filtered { "faq" } else { " " }),
            );
        }
        if let Some(o) = &self.options {
            let mut options = Map::new();
            put(&mut options, "returnN", &o.return_n, |v| json!(v));
            put(&mut options, "maxChunksPerDocument", &o.cap, |v| json!(v));
            put(&mut options, "maxL2Distance", &o.max_l2, number);
            put(&mut options, "referenceThreshold", &o.reference, number);
            if let Some(q) = o.hybrid_quality {
                options.insert(
                    "hybridQuality".into(),
                    json!(HybridQuality::ALL[usize::from(q) % 3].as_str()),
                );
            }
            t.insert("options".into(), Value::Object(options));
        }
        Value::Object(t)
    }

    fn settings(&self) -> Settings {
        Settings {
            return_n: self.return_n.map(|n| usize::from(n % 12) + 1),
            max_chunks_per_document: self.cap.map(|n| usize::from(n % 4) + 1),
            max_l2_distance: self.max_l2.map(|v| f64::from(v % 400 + 1) / 100.0),
            hybrid_quality: self
                .hybrid_quality
                .map(|q| HybridQuality::ALL[usize::from(q) % 3]),
            use_trace_options: self.use_trace_options,
            ..Settings::default()
        }
    }
}

fuzz_target!(|trace: Trace| {
    let text = trace.json().to_string();
    let batch = parse_document("fuzz", &text);
    assert!(batch.errors.is_empty(), "{:?} from {text}", batch.errors);
    assert_eq!(batch.traces.len(), 1, "{text}");
    assert_eq!(batch.traces[0].candidates().len(), trace.candidates.len());
    let analysis = match analyze(&batch, &trace.settings(), true) {
        Ok(analysis) => analysis,
        Err(err) => panic!("valid settings refused: {err}"),
    };
    common::check_analysis(&analysis);
});
