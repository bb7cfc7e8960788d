//! OTLP's AnyValue in its JSON mapping: `stringValue`, `boolValue`, `intValue` (a
//! decimal string or a number), `doubleValue` (a number, or `"NaN"`, `"Infinity"`,
//! `"-Infinity"` as protobuf's JSON mapping writes them), `arrayValue.values`,
//! `kvlistValue.values`, `bytesValue`, and the empty AnyValue `{}` (no value set).

use serde_json::{Map, Value};

/// One decoded AnyValue.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Any<'a> {
    Str(&'a str),
    Bool(bool),
    Int(i64),
    /// A double; `written_as_text` when protobuf's JSON mapping wrote it as a string
    /// (`"NaN"`, `"Infinity"`, `"-Infinity"`).
    Double {
        value: f64,
        written_as_text: bool,
    },
    Array(&'a [Value]),
    Kvlist(&'a [Value]),
    Bytes(&'a str),
    /// `{}`: no value set.
    Empty,
    /// Not an AnyValue; what it is instead.
    Bad(String),
}

impl Any<'_> {
    /// The JSON type a person would call it, for messages.
    pub(super) fn type_name(&self) -> &'static str {
        match self {
            Any::Str(_) => "a string (stringValue)",
            Any::Bool(_) => "a boolean (boolValue)",
            Any::Int(_) => "an integer (intValue)",
            Any::Double { .. } => "a double (doubleValue)",
            Any::Array(_) => "an array (arrayValue)",
            Any::Kvlist(_) => "a key-value list (kvlistValue)",
            Any::Bytes(_) => "bytes (bytesValue)",
            Any::Empty => "an empty value",
            Any::Bad(_) => "not an AnyValue",
        }
    }
}

pub(super) fn decode(value: &Value) -> Any<'_> {
    let Some(object) = value.as_object() else {
        return match value {
            Value::Null => Any::Empty,
            other => Any::Bad(format!(
                "expected an AnyValue object, got {}",
                json_type(other)
            )),
        };
    };
    let Some((key, inner)) = object.iter().find(|(_, v)| !v.is_null()) else {
        return Any::Empty;
    };
    match (key.as_str(), inner) {
        ("stringValue", Value::String(s)) => Any::Str(s),
        ("boolValue", Value::Bool(b)) => Any::Bool(*b),
        ("intValue", Value::Number(n)) => match n.as_i64() {
            Some(i) => Any::Int(i),
            None => Any::Bad(format!("intValue {n} is not a 64-bit integer")),
        },
        ("intValue", Value::String(s)) => match s.trim().parse::<i64>() {
            Ok(i) => Any::Int(i),
            Err(_) => Any::Bad(format!("intValue {s:?} is not a 64-bit integer")),
        },
        ("doubleValue", Value::Number(n)) => Any::Double {
            value: n.as_f64().unwrap_or(f64::NAN),
            written_as_text: false,
        },
        ("doubleValue", Value::String(s)) => match s.as_str() {
            "NaN" => Any::Double {
                value: f64::NAN,
                written_as_text: true,
            },
            "Infinity" => Any::Double {
                value: f64::INFINITY,
                written_as_text: true,
            },
            "-Infinity" => Any::Double {
                value: f64::NEG_INFINITY,
                written_as_text: true,
            },
            other => match other.parse::<f64>() {
                Ok(value) => Any::Double {
                    value,
                    written_as_text: true,
                },
                Err(_) => Any::Bad(format!("doubleValue {other:?} is not a number")),
            },
        },
        ("arrayValue", Value::Object(array)) => Any::Array(values_of(array)),
        ("kvlistValue", Value::Object(list)) => Any::Kvlist(values_of(list)),
        ("bytesValue", Value::String(s)) => Any::Bytes(s),
        (key, other) => Any::Bad(format!("{key} holds {}", json_type(other))),
    }
}

/// `{"values": [...]}`; anything else reads as no values.
fn values_of(object: &Map<String, Value>) -> &[Value] {
    object
        .get("values")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// An AnyValue as plain JSON, to be shown (an unknown attribute, a kvlist's value).
pub(super) fn to_json(value: &Value) -> Value {
    match decode(value) {
        Any::Str(s) | Any::Bytes(s) => Value::String(s.to_owned()),
        Any::Bool(b) => Value::Bool(b),
        Any::Int(i) => Value::from(i),
        Any::Double { value, .. } => serde_json::Number::from_f64(value)
            .map_or_else(|| Value::String(value.to_string()), Value::Number),
        Any::Array(values) => Value::Array(values.iter().map(to_json).collect()),
        Any::Kvlist(values) => Value::Object(kvlist_to_json(values)),
        Any::Empty => Value::Null,
        Any::Bad(_) => value.clone(),
    }
}

/// A kvlist's `{key, value}` entries as a JSON object.
pub(super) fn kvlist_to_json(values: &[Value]) -> Map<String, Value> {
    values
        .iter()
        .filter_map(|entry| {
            let key = entry.get("key")?.as_str()?;
            Some((
                key.to_owned(),
                entry.get("value").map_or(Value::Null, to_json),
            ))
        })
        .collect()
}

pub(super) fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_kind_of_any_value_decodes() {
        assert_eq!(decode(&json!({"stringValue": "q"})), Any::Str("q"));
        assert_eq!(decode(&json!({"boolValue": true})), Any::Bool(true));
        assert_eq!(decode(&json!({"intValue": "3"})), Any::Int(3));
        assert_eq!(decode(&json!({"intValue": 3})), Any::Int(3));
        assert_eq!(
            decode(&json!({"doubleValue": 0.5})),
            Any::Double {
                value: 0.5,
                written_as_text: false
            }
        );
        assert!(matches!(
            decode(&json!({"doubleValue": "NaN"})),
            Any::Double { value, written_as_text: true } if value.is_nan()
        ));
        assert_eq!(decode(&json!({})), Any::Empty);
        assert_eq!(
            to_json(&json!({"arrayValue": {"values": [{"intValue": "1"}, {"stringValue": "a"}]}})),
            json!([1, "a"])
        );
        assert_eq!(
            to_json(
                &json!({"kvlistValue": {"values": [{"key": "k", "value": {"boolValue": false}}]}})
            ),
            json!({"k": false})
        );
        assert!(matches!(decode(&json!({"intValue": "x"})), Any::Bad(_)));
        assert!(matches!(decode(&json!("plain")), Any::Bad(_)));
    }
}
