//! OTLP's AnyValue in its JSON mapping: `stringValue`, `boolValue`, `intValue` (a
//! decimal string or a number), `doubleValue` (a number, or `"NaN"`, `"Infinity"`,
//! `"-Infinity"` as protobuf's JSON mapping writes them), `arrayValue.values`,
//! `kvlistValue.values`, `bytesValue`, and the empty AnyValue `{}` (no value set).
//!
//! It is decoded as it is read, from the text or from a parsed JSON value alike:
//! strings stay borrowed from the text where they have no escapes, and an array (an
//! embedding's vector, say) is one allocation, not one map per element. Reading never
//! fails: what is not an AnyValue is [`AnyValue::Bad`], saying what it is instead.

use crate::lenient::{Lenient, Listed, MapVisitor, ObjectOr, Text};
use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

/// A string value: borrowed from the text where it has no escapes, else unescaped once
/// into the shared string a trace keeps (a chunk's text is copied once, not twice).
#[derive(Debug, Clone)]
pub enum Chars<'a> {
    Borrowed(&'a str),
    Shared(Arc<str>),
}

impl Chars<'_> {
    /// The string as a trace keeps it.
    pub fn shared(&self) -> Arc<str> {
        match self {
            Chars::Borrowed(s) => Arc::from(*s),
            Chars::Shared(s) => Arc::clone(s),
        }
    }
}

/// Two strings are equal by their text, however each is held.
impl PartialEq for Chars<'_> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl Deref for Chars<'_> {
    type Target = str;
    fn deref(&self) -> &str {
        match self {
            Chars::Borrowed(s) => s,
            Chars::Shared(s) => s,
        }
    }
}

/// One decoded AnyValue.
#[derive(Debug, Clone, PartialEq)]
pub enum AnyValue<'a> {
    Str(Chars<'a>),
    Bool(bool),
    Int(i64),
    /// A double; `written_as_text` when protobuf's JSON mapping wrote it as a string
    /// (`"NaN"`, `"Infinity"`, `"-Infinity"`).
    Double {
        value: f64,
        written_as_text: bool,
    },
    Array(Vec<AnyValue<'a>>),
    Kvlist(Vec<KeyValue<'a>>),
    Bytes(Chars<'a>),
    /// `{}`: no value set.
    Empty,
    /// Not an AnyValue; what it is instead.
    Bad(String),
    /// An embedding vector (OpenInference's `embedding.embeddings.<i>.embedding.vector`),
    /// skipped unread: no view shows one, and reading its numbers cost a sixth of a
    /// span file's time.
    Skipped,
}

/// The attribute OpenInference writes an embedding's vector in.
fn is_embedding_vector(key: &str) -> bool {
    key.starts_with("embedding.embeddings.") && key.ends_with(".embedding.vector")
}

/// An attribute, or an entry of a kvlist: `{"key": ..., "value": AnyValue}`. A key that
/// is not a string is `None` (the entry is skipped); a missing value is the empty one.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyValue<'a> {
    pub key: Option<Cow<'a, str>>,
    pub value: AnyValue<'a>,
}

impl AnyValue<'_> {
    /// The JSON type a person would call it, for messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            AnyValue::Str(_) => "a string (stringValue)",
            AnyValue::Bool(_) => "a boolean (boolValue)",
            AnyValue::Int(_) => "an integer (intValue)",
            AnyValue::Double { .. } => "a double (doubleValue)",
            AnyValue::Array(_) => "an array (arrayValue)",
            AnyValue::Kvlist(_) => "a key-value list (kvlistValue)",
            AnyValue::Bytes(_) => "bytes (bytesValue)",
            AnyValue::Empty => "an empty value",
            AnyValue::Bad(_) => "not an AnyValue",
            AnyValue::Skipped => "an embedding vector (not read)",
        }
    }

    /// The value as plain JSON, to be shown (an unknown attribute, a kvlist's value).
    pub fn to_json(&self) -> Value {
        match self {
            AnyValue::Str(s) | AnyValue::Bytes(s) => Value::String(s.to_string()),
            AnyValue::Bool(b) => Value::Bool(*b),
            AnyValue::Int(i) => Value::from(*i),
            AnyValue::Double { value, .. } => serde_json::Number::from_f64(*value)
                .map_or_else(|| Value::String(value.to_string()), Value::Number),
            AnyValue::Array(values) => Value::Array(values.iter().map(AnyValue::to_json).collect()),
            AnyValue::Kvlist(entries) => Value::Object(kvlist_to_json(entries)),
            AnyValue::Empty => Value::Null,
            AnyValue::Bad(why) => Value::String(why.clone()),
            AnyValue::Skipped => Value::String("(an embedding vector, not read)".to_owned()),
        }
    }

    /// A plain JSON value (the GenAI conventions' documents written as JSON text) as the
    /// AnyValue holding it; an object becomes the JSON text OpenInference writes for
    /// metadata.
    pub fn of_plain(plain: &Value) -> AnyValue<'static> {
        match plain {
            Value::String(s) => AnyValue::Str(Chars::Shared(Arc::from(s.as_str()))),
            Value::Bool(b) => AnyValue::Bool(*b),
            Value::Number(n) => match n.as_i64() {
                Some(i) => AnyValue::Int(i),
                None => AnyValue::Double {
                    value: n.as_f64().unwrap_or(f64::NAN),
                    written_as_text: false,
                },
            },
            Value::Array(items) => AnyValue::Array(items.iter().map(AnyValue::of_plain).collect()),
            Value::Object(_) => AnyValue::Str(Chars::Shared(Arc::from(plain.to_string()))),
            Value::Null => AnyValue::Empty,
        }
    }
}

/// A kvlist's entries as a JSON object.
pub fn kvlist_to_json(entries: &[KeyValue]) -> Map<String, Value> {
    entries
        .iter()
        .filter_map(|entry| Some((entry.key.as_deref()?.to_owned(), entry.value.to_json())))
        .collect()
}

impl<'de> Deserialize<'de> for AnyValue<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ObjectOr(AnyValueVisitor))
    }
}

impl<'de> Deserialize<'de> for KeyValue<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ObjectOr(KeyValueVisitor))
    }
}

struct AnyValueVisitor;

/// The AnyValue's members by name, in the order a JSON object's keys sort: when more
/// than one is set, the first of them is the value (as a parsed JSON object, whose
/// keys are sorted, gives it).
const MEMBERS: [&str; 7] = [
    "arrayValue",
    "boolValue",
    "bytesValue",
    "doubleValue",
    "intValue",
    "kvlistValue",
    "stringValue",
];

impl<'de> MapVisitor<'de> for AnyValueVisitor {
    type Value = AnyValue<'de>;
    fn other(self, found: &'static str) -> AnyValue<'de> {
        match found {
            "null" => AnyValue::Empty,
            found => AnyValue::Bad(format!("expected an AnyValue object, got {found}")),
        }
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        // The last of a repeated member counts, as in a parsed object; null is unset.
        let mut members: [Option<AnyValue<'de>>; 7] = Default::default();
        let mut unknown: Option<(Cow<'de, str>, AnyValue<'de>)> = None;
        while let Some(Text(key)) = map.next_key::<Text>()? {
            match MEMBERS.iter().position(|name| *name == key) {
                Some(slot) => members[slot] = map.next_value_seed(Member(slot))?,
                None => {
                    let found = map.next_value_seed(KindOnly)?;
                    if let Some(found) = found {
                        if unknown.as_ref().is_none_or(|(name, _)| key <= *name) {
                            let why = AnyValue::Bad(format!("{key} holds {found}"));
                            unknown = Some((key, why));
                        }
                    }
                }
            }
        }
        let known = MEMBERS
            .iter()
            .zip(members)
            .find_map(|(name, member)| Some((*name, member?)));
        Ok(match (known, unknown) {
            (Some((name, value)), Some((other, why))) => {
                if *other < *name {
                    why
                } else {
                    value
                }
            }
            (Some((_, value)), None) => value,
            (None, Some((_, why))) => why,
            (None, None) => AnyValue::Empty,
        })
    }
}

/// One member of an AnyValue, by its slot in [`MEMBERS`]; `None` for null.
struct Member(usize);

impl<'de> DeserializeSeed<'de> for Member {
    type Value = Option<AnyValue<'de>>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl Member {
    fn name(&self) -> &'static str {
        MEMBERS.get(self.0).copied().unwrap_or("value")
    }

    fn holds(&self, found: &str) -> Option<AnyValue<'static>> {
        Some(AnyValue::Bad(format!("{} holds {found}", self.name())))
    }

    fn text<'de>(&self, s: Chars<'de>) -> Option<AnyValue<'de>> {
        match self.name() {
            "stringValue" => Some(AnyValue::Str(s)),
            "bytesValue" => Some(AnyValue::Bytes(s)),
            "intValue" => Some(match s.trim().parse::<i64>() {
                Ok(i) => AnyValue::Int(i),
                Err(_) => AnyValue::Bad(format!("intValue {s:?} is not a 64-bit integer")),
            }),
            "doubleValue" => Some(match s.as_ref() {
                "NaN" => double_text(f64::NAN),
                "Infinity" => double_text(f64::INFINITY),
                "-Infinity" => double_text(f64::NEG_INFINITY),
                other => match other.parse::<f64>() {
                    Ok(value) => double_text(value),
                    Err(_) => AnyValue::Bad(format!("doubleValue {other:?} is not a number")),
                },
            }),
            _ => self.holds("a string"),
        }
    }

    fn number(
        &self,
        value: f64,
        integer: Option<i64>,
        written: &dyn fmt::Display,
    ) -> Option<AnyValue<'static>> {
        match self.name() {
            "doubleValue" => Some(AnyValue::Double {
                value,
                written_as_text: false,
            }),
            "intValue" => Some(match integer {
                Some(i) => AnyValue::Int(i),
                None => AnyValue::Bad(format!("intValue {written} is not a 64-bit integer")),
            }),
            _ => self.holds("a number"),
        }
    }
}

fn double_text(value: f64) -> AnyValue<'static> {
    AnyValue::Double {
        value,
        written_as_text: true,
    }
}

impl<'de> Visitor<'de> for Member {
    type Value = Option<AnyValue<'de>>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an AnyValue member")
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_none<E>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_bool<E>(self, v: bool) -> Result<Self::Value, E> {
        Ok(match self.name() {
            "boolValue" => Some(AnyValue::Bool(v)),
            _ => self.holds("a boolean"),
        })
    }
    fn visit_u64<E>(self, v: u64) -> Result<Self::Value, E> {
        Ok(self.number(v as f64, i64::try_from(v).ok(), &v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Self::Value, E> {
        Ok(self.number(v as f64, Some(v), &v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Self::Value, E> {
        Ok(self.number(v, None, &v))
    }
    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(self.text(Chars::Borrowed(v)))
    }
    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(self.text(Chars::Shared(Arc::from(v))))
    }
    fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
        Ok(self.text(Chars::Shared(Arc::from(v))))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(self.holds("an array"))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let name = self.name();
        if name != "arrayValue" && name != "kvlistValue" {
            while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
            return Ok(self.holds("an object"));
        }
        // `{"values": [...]}`; anything else reads as no values.
        let mut values = None;
        while let Some(Text(key)) = map.next_key::<Text>()? {
            if key == "values" {
                values = Some(if name == "arrayValue" {
                    AnyValue::Array(items(map.next_value::<Listed<AnyValue>>()?))
                } else {
                    AnyValue::Kvlist(items(map.next_value::<Listed<KeyValue>>()?))
                });
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(Some(values.unwrap_or_else(|| {
            if name == "arrayValue" {
                AnyValue::Array(Vec::new())
            } else {
                AnyValue::Kvlist(Vec::new())
            }
        })))
    }
}

/// A list's elements; anything that is not an array has none.
fn items<T>(listed: Listed<T>) -> Vec<T> {
    match listed {
        Listed::Items(items) => items,
        _ => Vec::new(),
    }
}

/// Only what JSON type a value is (`None` for null), its contents skipped.
struct KindOnly;

impl<'de> DeserializeSeed<'de> for KindOnly {
    type Value = Option<&'static str>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(ObjectOr(self))
    }
}

impl<'de> MapVisitor<'de> for KindOnly {
    type Value = Option<&'static str>;
    fn other(self, found: &'static str) -> Self::Value {
        Some(found).filter(|found| *found != "null")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Some("an object"))
    }
}

struct KeyValueVisitor;

impl<'de> MapVisitor<'de> for KeyValueVisitor {
    type Value = KeyValue<'de>;
    fn other(self, _: &'static str) -> KeyValue<'de> {
        KeyValue {
            key: None,
            value: AnyValue::Empty,
        }
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut entry = KeyValue {
            key: None,
            value: AnyValue::Empty,
        };
        while let Some(Text(name)) = map.next_key::<Text>()? {
            match name.as_ref() {
                "key" => entry.key = map.next_value::<Lenient<Text>>()?.0.map(|Text(key)| key),
                // Known by its key, which encoders write before the value.
                "value" if entry.key.as_deref().is_some_and(is_embedding_vector) => {
                    map.next_value::<IgnoredAny>()?;
                    entry.value = AnyValue::Skipped;
                }
                "value" => entry.value = map.next_value()?,
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(entry)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn decode(value: &Value) -> AnyValue<'_> {
        AnyValue::deserialize(value).unwrap_or(AnyValue::Empty)
    }

    fn from_text(text: &str) -> AnyValue<'_> {
        serde_json::from_str(text).unwrap_or(AnyValue::Empty)
    }

    #[test]
    fn every_kind_of_any_value_decodes() {
        assert_eq!(
            decode(&json!({"stringValue": "q"})),
            AnyValue::Str(Chars::Borrowed("q"))
        );
        assert_eq!(decode(&json!({"boolValue": true})), AnyValue::Bool(true));
        assert_eq!(decode(&json!({"intValue": "3"})), AnyValue::Int(3));
        assert_eq!(decode(&json!({"intValue": 3})), AnyValue::Int(3));
        assert_eq!(
            decode(&json!({"doubleValue": 0.5})),
            AnyValue::Double {
                value: 0.5,
                written_as_text: false
            }
        );
        assert!(matches!(
            decode(&json!({"doubleValue": "NaN"})),
            AnyValue::Double { value, written_as_text: true } if value.is_nan()
        ));
        assert_eq!(decode(&json!({})), AnyValue::Empty);
        assert_eq!(
            decode(&json!({"arrayValue": {"values": [{"intValue": "1"}, {"stringValue": "a"}]}}))
                .to_json(),
            json!([1, "a"])
        );
        assert_eq!(
            decode(
                &json!({"kvlistValue": {"values": [{"key": "k", "value": {"boolValue": false}}]}})
            )
            .to_json(),
            json!({"k": false})
        );
        assert!(matches!(
            decode(&json!({"intValue": "x"})),
            AnyValue::Bad(_)
        ));
        assert_eq!(
            decode(&json!("plain")),
            AnyValue::Bad("expected an AnyValue object, got a string".into())
        );
        assert_eq!(
            decode(&json!({"stringValue": 5})),
            AnyValue::Bad("stringValue holds a number".into())
        );
        assert_eq!(
            decode(&json!({"intValue": 9_223_372_036_854_775_808u64})),
            AnyValue::Bad("intValue 9223372036854775808 is not a 64-bit integer".into())
        );
        assert_eq!(
            decode(&json!({"textValue": "t"})),
            AnyValue::Bad("textValue holds a string".into())
        );
    }

    /// The text and its parsed JSON value decode alike, where a repeated or second
    /// member makes them differ in order.
    #[test]
    fn text_and_parsed_value_decode_alike() {
        for text in [
            r#"{"stringValue": "a", "intValue": 3}"#,
            r#"{"intValue": 3, "stringValue": "a"}"#,
            r#"{"stringValue": "a", "stringValue": "b"}"#,
            r#"{"stringValue": null, "boolValue": true}"#,
            r#"{"zValue": 1, "stringValue": "a"}"#,
            r#"{"aValue": 1, "stringValue": "a"}"#,
            r#"{"arrayValue": {"values": [{"doubleValue": "-Infinity"}, 2]}}"#,
            r#"{"kvlistValue": {"values": [{"key": 1}, {"key": "k"}]}}"#,
            r#"{"stringValue": "tab\tand \"quotes\""}"#,
        ] {
            let parsed: Value = serde_json::from_str(text).unwrap_or(Value::Null);
            assert_eq!(from_text(text), decode(&parsed), "{text}");
        }
        assert_eq!(
            from_text(r#"{"stringValue": "a", "intValue": 3}"#),
            AnyValue::Int(3)
        );
    }

    /// Strings without escapes are borrowed from the text, not copied.
    #[test]
    fn plain_strings_are_borrowed() {
        assert!(matches!(
            from_text(r#"{"stringValue": "plain"}"#),
            AnyValue::Str(Chars::Borrowed("plain"))
        ));
        assert!(matches!(
            from_text(r#"{"stringValue": "line\nbreak"}"#),
            AnyValue::Str(Chars::Shared(_))
        ));
    }
}
