//! The part of OTLP's `TracesData` the reader uses, read in one pass from the text (or
//! from a parsed JSON value, alike): `resourceSpans[].scopeSpans[].spans[]`, each span's
//! ids, attributes and `droppedAttributesCount`; everything else (resources, scopes,
//! events, links, status) is skipped unread. Building a general JSON tree of a span
//! file first cost a third of the time spent on it, most of it on the embedding
//! spans' vectors and on maps of a few fields each.
//! A span that is not an object is [`Span::NotObject`], an id that is not a string
//! absent (see `lenient`).

use crate::any_value::KeyValue;
use crate::lenient::{Lenient, Listed, MapVisitor, ObjectOr, Text};
use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::Value;
use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

/// One span of `spans[]`.
pub enum Span<'a> {
    Object(SpanFields<'a>),
    NotObject,
}

/// What the reader uses of a span.
#[derive(Default)]
pub struct SpanFields<'a> {
    pub trace_id: Option<Cow<'a, str>>,
    pub span_id: Option<Cow<'a, str>>,
    pub parent_span_id: Option<Cow<'a, str>>,
    /// `None` when absent or not an array (the span is then skipped).
    pub attributes: Option<Vec<KeyValue<'a>>>,
    /// A number, or a decimal string as the OTLP JSON mapping writes 64-bit integers;
    /// anything else is 0.
    pub dropped_attributes: u64,
}

impl<'de> Deserialize<'de> for Span<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ObjectOr(SpanVisitor))
    }
}

impl Span<'_> {
    /// A span already parsed as JSON (Phoenix's records become one).
    pub fn of_value(value: &Value) -> Span<'_> {
        Span::deserialize(value).unwrap_or(Span::NotObject)
    }
}

struct SpanVisitor;

impl<'de> MapVisitor<'de> for SpanVisitor {
    type Value = Span<'de>;
    fn other(self, _: &'static str) -> Span<'de> {
        Span::NotObject
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Span<'de>, A::Error> {
        let mut span = SpanFields::default();
        let text = |t: Lenient<Text<'de>>| t.0.map(|Text(s)| s);
        while let Some(Text(key)) = map.next_key::<Text>()? {
            match key.as_ref() {
                "traceId" => span.trace_id = text(map.next_value()?),
                "spanId" => span.span_id = text(map.next_value()?),
                "parentSpanId" => span.parent_span_id = text(map.next_value()?),
                "attributes" => {
                    span.attributes = match map.next_value::<Listed<KeyValue>>()? {
                        Listed::Items(items) => Some(items),
                        _ => None,
                    }
                }
                "droppedAttributesCount" => {
                    span.dropped_attributes = map.next_value_seed(Count)?;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(Span::Object(span))
    }
}

/// `droppedAttributesCount`: a whole number, or one written as a decimal string.
struct Count;

impl<'de> DeserializeSeed<'de> for Count {
    type Value = u64;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<u64, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Count {
    type Value = u64;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a count")
    }
    fn visit_u64<E>(self, v: u64) -> Result<u64, E> {
        Ok(v)
    }
    fn visit_i64<E>(self, v: i64) -> Result<u64, E> {
        Ok(u64::try_from(v).unwrap_or(0))
    }
    fn visit_f64<E>(self, _: f64) -> Result<u64, E> {
        Ok(0)
    }
    fn visit_str<E>(self, v: &str) -> Result<u64, E> {
        Ok(v.parse().unwrap_or(0))
    }
    fn visit_bool<E>(self, _: bool) -> Result<u64, E> {
        Ok(0)
    }
    fn visit_unit<E>(self) -> Result<u64, E> {
        Ok(0)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<u64, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(0)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<u64, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(0)
    }
}

/// One element of `resourceSpans[]` or `scopeSpans[]`: its list of the level below
/// (`scopeSpans`, `spans`); an element that is not an object has none.
pub struct Level<T> {
    pub below: Listed<T>,
}

/// `resourceSpans[]`'s element.
pub type ResourceSpans<'a> = Level<ScopeSpans<'a>>;
/// `scopeSpans[]`'s element.
pub type ScopeSpans<'a> = Level<Span<'a>>;

/// The name of the list a level holds.
trait Below {
    const FIELD: &'static str;
}

impl Below for ScopeSpans<'_> {
    const FIELD: &'static str = "scopeSpans";
}

impl Below for Span<'_> {
    const FIELD: &'static str = "spans";
}

impl<'de, T: Deserialize<'de> + Below> Deserialize<'de> for Level<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ObjectOr(LevelVisitor(PhantomData)))
    }
}

struct LevelVisitor<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de> + Below> MapVisitor<'de> for LevelVisitor<T> {
    type Value = Level<T>;
    fn other(self, _: &'static str) -> Level<T> {
        Level {
            below: Listed::Null,
        }
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Level<T>, A::Error> {
        let mut below = Listed::Null;
        while let Some(Text(key)) = map.next_key::<Text>()? {
            if key == T::FIELD {
                below = map.next_value()?;
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(Level { below })
    }
}

/// A document (a JSON Lines line) that is a `TracesData` object and nothing else:
/// `resourceSpans` is its only field. `None` for any other object, which is read as
/// every object is.
pub fn traces_data(text: &str) -> Option<Listed<ResourceSpans<'_>>> {
    let mut de = serde_json::Deserializer::from_str(text);
    let read = (&mut de).deserialize_map(TracesDataVisitor).ok()?;
    de.end().ok()?;
    read
}

struct TracesDataVisitor;

impl<'de> Visitor<'de> for TracesDataVisitor {
    type Value = Option<Listed<ResourceSpans<'de>>>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a TracesData object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut resource_spans = None;
        let mut other = false;
        while let Some(Text(key)) = map.next_key::<Text>()? {
            if key == "resourceSpans" && resource_spans.is_none() {
                resource_spans = Some(map.next_value()?);
            } else {
                other = true;
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(resource_spans.filter(|_| !other))
    }
}
