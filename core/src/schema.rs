//! The JSON Schemas of the outputs (`ragtrace schema NAME`), derived from the types
//! that serialise them (feature `schema`): a field added to an output's type is in its
//! schema with no second edit. The schemas describe what ragtrace writes (schemars'
//! serialise contract): a key is required unless it is left out when empty.

use crate::analysis::{Analysis, BatchView};
use crate::calibration::Calibration;
use crate::explain::Explanation;
use crate::golden::GoldenReport;
use crate::runs::{CompareReport, GoldenComparison, ManyRunComparison};
use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde_json::Value;

/// Every output that has a schema, by the name `ragtrace schema` takes, with what it
/// describes.
pub const OUTPUT_SCHEMAS: &[(&str, &str)] = &[
    (
        "analysis",
        "analyze's JSON (with --format jsonl, each line but the last is one of its traces)",
    ),
    (
        "report",
        "eval's report.json (with `comparison` under --baseline)",
    ),
    (
        "compare",
        "compare's compare.json, of two runs (--a, --b) or of many (--run)",
    ),
    ("calibration", "calibrate's calibration.json"),
    ("explain", "explain's explain.json"),
    (
        "partial",
        "the batch view of partials, as merge prints it (and analyze --summary)",
    ),
];

/// report.json: the evaluation, with the comparison against a baseline when there is one.
#[derive(JsonSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
struct ReportFile {
    #[serde(flatten)]
    report: GoldenReport,
    #[serde(skip_serializing_if = "Option::is_none")]
    comparison: Option<GoldenComparison>,
}

/// compare.json: two runs side by side, or many at once.
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum CompareFile {
    TwoRuns(Box<CompareReport>),
    ManyRuns(Box<ManyRunComparison>),
}

/// The JSON Schema (draft 2020-12) of the output `name` (one of [`OUTPUT_SCHEMAS`]),
/// or `None` for a name that is not an output.
pub fn output_schema(name: &str) -> Option<Value> {
    let generator = SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator();
    let schema = match name {
        "analysis" => root::<Analysis>(generator),
        "report" => root::<ReportFile>(generator),
        "compare" => root::<CompareFile>(generator),
        "calibration" => root::<Calibration>(generator),
        "explain" => root::<Explanation>(generator),
        "partial" => root::<BatchView>(generator),
        _ => return None,
    };
    let mut value = schema.to_value();
    if let Some(object) = value.as_object_mut() {
        object.insert("title".to_owned(), Value::from(name));
    }
    Some(value)
}

fn root<T: JsonSchema>(generator: SchemaGenerator) -> Schema {
    generator.into_root_schema_for::<T>()
}
