//! The cases file: parsing it into [`GoldenCase`]s with located errors and findings.

use super::qrels::{self, MAX_GRADE};
use super::text::normalize_query;
use crate::diagnostic::{json_type, pointer_token, Diagnostic, InputError, InputErrorCode};
use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::HashMap;

/// One golden case: what a good retrieval for `query` must bring back.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct GoldenCase {
    pub case_id: String,
    /// `None` when the file gives no query; such a case links by `caseId` only.
    pub query: Option<String>,
    pub expected_doc_ids: Vec<String>,
    pub expected_breadcrumbs: Vec<String>,
    pub expected_keywords: Vec<String>,
    pub notes: Option<String>,
    /// Graded judgments `{docId: grade}` (contract section 12.1); absent when the file
    /// gives none.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(with = "Judgments"))]
    pub judgments: Option<Judgments>,
}

/// A case's graded judgments, each document once (the last grade given wins), in
/// docId order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Judgments(pub Vec<(String, i64)>);

impl Serialize for Judgments {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (doc, grade) in &self.0 {
            map.serialize_entry(doc, grade)?;
        }
        map.end()
    }
}

#[cfg(feature = "schema")]
impl schemars::JsonSchema for Judgments {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Judgments".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "object",
            "additionalProperties": { "type": "integer" },
        })
    }
}

/// The parsed cases file: the cases in file order plus non-fatal findings
/// (duplicate caseIds, expectations that can never match, ...).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct CaseSet {
    pub cases: Vec<GoldenCase>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Parses a cases file: a JSON array of cases or `{"cases": [...]}`.
///
/// Fatal problems (malformed JSON, a wrong top-level shape, a case that is not
/// an object, a missing `caseId`, a known field of the wrong type) are all
/// collected and returned as located [`InputError`]s. Unlike service traces,
/// a cases file is the hand-written ground truth: silently dropping a
/// mistyped expectation would change every score, so we refuse instead.
pub fn parse_cases(source: &str, text: &str) -> Result<CaseSet, Vec<InputError>> {
    // A leading BOM is ignored, as for every input (contract section 1).
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if qrels::looks_like_qrels(text) {
        let (queries, diagnostics) = qrels::parse_qrels(source, text)?;
        let cases = queries
            .into_iter()
            .map(|(qid, judgments)| GoldenCase {
                case_id: qid,
                judgments: Some(Judgments(judgments)),
                ..GoldenCase::default()
            })
            .collect();
        return Ok(CaseSet { cases, diagnostics });
    }
    match serde_json::from_str::<Value>(text) {
        Ok(value) => {
            let mut set = parse_cases_value(source, &value)?;
            // A JSON object keeps the last of a repeated key: say so where it matters.
            for (case, doc) in super::judgment_scan::repeated_judgments(text) {
                set.diagnostics.push(Diagnostic::warning(
                    "repeated-judgment",
                    format!(
                        "the judgments of case {} name \"{doc}\" more than once; the last grade \
                         is used",
                        case + 1
                    ),
                    format!(
                        "{}/{case}/judgments/{}",
                        cases_base(&value),
                        pointer_token(&doc)
                    ),
                ));
            }
            Ok(set)
        }
        Err(err) => Err(vec![InputError::json_syntax(source, text, &err, 0)]),
    }
}

/// The JSON pointer of the cases' array.
fn cases_base(value: &Value) -> &'static str {
    if value.is_object() {
        "/cases"
    } else {
        ""
    }
}

/// Same as [`parse_cases`] for an already-parsed value (the JS API receives
/// objects, not text). Errors carry JSON pointers but no line/column.
pub fn parse_cases_value(source: &str, value: &Value) -> Result<CaseSet, Vec<InputError>> {
    let mut errors = Vec::new();
    let (items, base) = match value {
        Value::Array(items) => (items, String::new()),
        Value::Object(map) => match map.get("cases") {
            Some(Value::Array(items)) => (items, "/cases".to_owned()),
            Some(Value::Null) | None => {
                return Err(vec![located(
                    source,
                    "",
                    "expected a JSON array of cases or an object with a \"cases\" array",
                )])
            }
            Some(other) => {
                return Err(vec![located(
                    source,
                    "/cases",
                    format!("\"cases\" must be an array, found {}", json_type(other)),
                )])
            }
        },
        other => {
            return Err(vec![located(
                source,
                "",
                format!(
                    "expected a JSON array of cases or an object with a \"cases\" array, found {}",
                    json_type(other)
                ),
            )])
        }
    };

    let mut set = CaseSet::default();
    for (i, item) in items.iter().enumerate() {
        let path = format!("{base}/{i}");
        match item {
            Value::Object(map) => {
                if let Some(case) =
                    parse_case(source, &path, map, &mut errors, &mut set.diagnostics)
                {
                    set.cases.push(case);
                }
            }
            other => errors.push(located(
                source,
                &path,
                format!("a case must be an object, found {}", json_type(other)),
            )),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }

    // Duplicate caseIds make linking ambiguous (both cases link to the same
    // trace) and collide in the TREC files; both cases are still evaluated so
    // the report keeps the order and length of the cases file.
    let mut first_at: HashMap<&str, usize> = HashMap::new();
    for (i, case) in set.cases.iter().enumerate() {
        match first_at.get(case.case_id.as_str()) {
            Some(&first) => set.diagnostics.push(Diagnostic::error(
                "duplicate-case-id",
                format!(
                    "caseId \"{}\" is used by case {} and case {} (1-based); both are evaluated \
                     and link to the same trace",
                    case.case_id,
                    first + 1,
                    i + 1
                ),
                format!("{base}/{i}/caseId"),
            )),
            None => {
                first_at.insert(case.case_id.as_str(), i);
            }
        }
    }
    Ok(set)
}

fn parse_case(
    source: &str,
    path: &str,
    map: &Map<String, Value>,
    errors: &mut Vec<InputError>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<GoldenCase> {
    let before = errors.len();
    let case_id = match field(map, path, "caseId", "case_id", diagnostics) {
        Some((key, v)) => id_text(v).or_else(|| {
            errors.push(located(
                source,
                &format!("{path}/{}", pointer_token(key)),
                format!(
                    "caseId must be a string or an integer, found {}",
                    json_type(v)
                ),
            ));
            None
        }),
        None => {
            errors.push(located(source, path, "a case needs a \"caseId\""));
            None
        }
    };
    let query = optional_string(source, path, map, "query", "query", errors, diagnostics);
    let notes = optional_string(source, path, map, "notes", "notes", errors, diagnostics);
    let expected_doc_ids = string_array(
        source,
        path,
        map,
        ("expectedDocIds", "expected_doc_ids"),
        true,
        errors,
        diagnostics,
    );
    let expected_breadcrumbs = string_array(
        source,
        path,
        map,
        ("expectedBreadcrumbs", "expected_breadcrumbs"),
        false,
        errors,
        diagnostics,
    );
    let expected_keywords = string_array(
        source,
        path,
        map,
        ("expectedKeywords", "expected_keywords"),
        false,
        errors,
        diagnostics,
    );
    let judgments = judgments(source, path, map, errors, diagnostics);
    if errors.len() != before {
        return None;
    }
    // Substring matching of an empty needle would always succeed, which no
    // one writing a case means; such entries are ignored by `evaluate`, and
    // we say so here where the author can fix the file.
    for (key, list) in [
        ("expectedBreadcrumbs", &expected_breadcrumbs),
        ("expectedKeywords", &expected_keywords),
    ] {
        for (j, entry) in list.iter().enumerate() {
            if normalize_query(entry).is_empty() {
                diagnostics.push(Diagnostic::warning(
                    "empty-expectation",
                    format!(
                        "{key} entry {} is empty after normalisation and is ignored",
                        j + 1
                    ),
                    format!("{path}/{key}/{j}"),
                ));
            }
        }
    }
    Some(GoldenCase {
        case_id: case_id?,
        query,
        expected_doc_ids,
        expected_breadcrumbs,
        expected_keywords,
        notes,
        judgments,
    })
}

/// `judgments`: an object of integer grades (contract section 12.1).
fn judgments(
    source: &str,
    path: &str,
    map: &Map<String, Value>,
    errors: &mut Vec<InputError>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Judgments> {
    let (key, v) = field(map, path, "judgments", "judgments", diagnostics)?;
    let field_path = format!("{path}/{}", pointer_token(key));
    let Value::Object(grades) = v else {
        errors.push(located(
            source,
            &field_path,
            format!(
                "judgments must be an object of {{docId: grade}}, found {}",
                json_type(v)
            ),
        ));
        return None;
    };
    let mut out = Vec::with_capacity(grades.len());
    for (doc, grade) in grades {
        // A whole number written as a float (what a JavaScript number arrives as) counts.
        let whole = grade.as_i64().or_else(|| {
            grade
                .as_f64()
                .filter(|f| f.fract() == 0.0 && f.abs() <= MAX_GRADE as f64)
                .map(|f| f as i64)
        });
        match whole.filter(|g| g.abs() <= MAX_GRADE) {
            Some(g) => out.push((doc.clone(), g)),
            None => errors.push(located(
                source,
                &format!("{field_path}/{}", pointer_token(doc)),
                format!(
                    "the grade of \"{doc}\" must be an integer from -{MAX_GRADE} to {MAX_GRADE}, \
                     found {}",
                    match grade {
                        Value::Number(n) => n.to_string(),
                        other => json_type(other).to_owned(),
                    }
                ),
            )),
        }
    }
    Some(Judgments(out))
}

/// Looks a field up under its camelCase and snake_case names; `null` counts
/// as absent (contract section 1). When both spellings are present the
/// camelCase one wins, with a warning.
fn field<'a>(
    map: &'a Map<String, Value>,
    path: &str,
    camel: &'static str,
    snake: &'static str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<(&'static str, &'a Value)> {
    let c = map.get(camel).filter(|v| !v.is_null());
    let s = if camel == snake {
        None
    } else {
        map.get(snake).filter(|v| !v.is_null())
    };
    match (c, s) {
        (Some(c), Some(s)) => {
            if c != s {
                diagnostics.push(Diagnostic::warning(
                    "conflicting-field",
                    format!("both {camel} and {snake} are given; {camel} is used"),
                    format!("{path}/{}", pointer_token(snake)),
                ));
            }
            Some((camel, c))
        }
        (Some(c), None) => Some((camel, c)),
        (None, Some(s)) => Some((snake, s)),
        (None, None) => None,
    }
}

fn optional_string(
    source: &str,
    path: &str,
    map: &Map<String, Value>,
    camel: &'static str,
    snake: &'static str,
    errors: &mut Vec<InputError>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<String> {
    let (key, v) = field(map, path, camel, snake, diagnostics)?;
    match v {
        Value::String(s) => Some(s.clone()),
        other => {
            errors.push(located(
                source,
                &format!("{path}/{}", pointer_token(key)),
                format!("{key} must be a string, found {}", json_type(other)),
            ));
            None
        }
    }
}

/// A missing array is empty. Document ids may be integers (used as their
/// decimal text, as `docId` in traces); breadcrumbs and keywords are text.
fn string_array(
    source: &str,
    path: &str,
    map: &Map<String, Value>,
    (camel, snake): (&'static str, &'static str),
    integers_allowed: bool,
    errors: &mut Vec<InputError>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<String> {
    let Some((key, v)) = field(map, path, camel, snake, diagnostics) else {
        return Vec::new();
    };
    let field_path = format!("{path}/{}", pointer_token(key));
    let Value::Array(items) = v else {
        errors.push(located(
            source,
            &field_path,
            format!("{key} must be an array, found {}", json_type(v)),
        ));
        return Vec::new();
    };
    let mut out = Vec::with_capacity(items.len());
    for (j, item) in items.iter().enumerate() {
        let text = if integers_allowed {
            id_text(item)
        } else {
            item.as_str().map(str::to_owned)
        };
        match text {
            Some(t) => out.push(t),
            None => errors.push(located(
                source,
                &format!("{field_path}/{j}"),
                format!(
                    "{key} entries must be {}, found {}",
                    if integers_allowed {
                        "strings or integers"
                    } else {
                        "strings"
                    },
                    json_type(item)
                ),
            )),
        }
    }
    out
}

/// A string, or an integer used as its decimal text.
fn id_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) if n.is_i64() || n.is_u64() => Some(n.to_string()),
        _ => None,
    }
}

fn located(source: &str, path: &str, message: impl Into<String>) -> InputError {
    InputError {
        source: source.to_owned(),
        line: None,
        column: None,
        path: Some(path.to_owned()),
        code: InputErrorCode::Unusable,
        message: message.into(),
        line_text: None,
        caret: None,
    }
}
