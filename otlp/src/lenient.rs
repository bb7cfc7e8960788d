//! Reading JSON leniently: a value of an unexpected type is read as what it is (a
//! list that is not an array, a string that is a number), never as an error, so that
//! a span reader reports each such value where it is and reads the rest.

use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

/// A string, borrowed from the text when it has no escapes; any other JSON value is
/// refused (`Lenient<Text>` reads it as `None`).
pub(crate) struct Text<'a>(pub(crate) Cow<'a, str>);

impl<'de> Deserialize<'de> for Text<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_str(TextVisitor)
    }
}

struct TextVisitor;

impl<'de> Visitor<'de> for TextVisitor {
    type Value = Text<'de>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string")
    }
    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(Text(Cow::Borrowed(v)))
    }
    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Text(Cow::Owned(v.to_owned())))
    }
    fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
        Ok(Text(Cow::Owned(v)))
    }
}

/// What a list field holds: its elements, nothing (null), or a value of another type.
pub enum Listed<T> {
    Null,
    Items(Vec<T>),
    /// The JSON type found instead ("a number").
    Wrong(&'static str),
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Listed<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ListedVisitor(PhantomData))
    }
}

struct ListedVisitor<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for ListedVisitor<T> {
    type Value = Listed<T>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an array")
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(Listed::Null)
    }
    fn visit_none<E>(self) -> Result<Self::Value, E> {
        Ok(Listed::Null)
    }
    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(Listed::Wrong("a boolean"))
    }
    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(Listed::Wrong("a number"))
    }
    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(Listed::Wrong("a number"))
    }
    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(Listed::Wrong("a number"))
    }
    fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
        Ok(Listed::Wrong("a string"))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Listed::Wrong("an object"))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1024));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Listed::Items(items))
    }
}

/// A value read leniently: `None` when it is not what `T` reads (a number where a
/// string is expected), instead of an error.
pub(crate) struct Lenient<T>(pub(crate) Option<T>);

impl<'de> Deserialize<'de> for Lenient<Text<'de>> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(LenientText)
    }
}

struct LenientText;

impl<'de> Visitor<'de> for LenientText {
    type Value = Lenient<Text<'de>>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(Lenient(Some(Text(Cow::Borrowed(v)))))
    }
    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Lenient(Some(Text(Cow::Owned(v.to_owned())))))
    }
    fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
        Ok(Lenient(Some(Text(Cow::Owned(v)))))
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(Lenient(None))
    }
    fn visit_none<E>(self) -> Result<Self::Value, E> {
        Ok(Lenient(None))
    }
    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(Lenient(None))
    }
    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(Lenient(None))
    }
    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(Lenient(None))
    }
    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(Lenient(None))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Lenient(None))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Lenient(None))
    }
}

/// A visitor of objects, with one value for anything that is not an object.
pub(crate) trait MapVisitor<'de>: Sized {
    type Value;
    /// The value for anything that is not an object: `found` is its JSON type ("a
    /// string", "null").
    fn other(self, found: &'static str) -> Self::Value;
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error>;
}

pub(crate) struct ObjectOr<V>(pub(crate) V);

impl<'de, V: MapVisitor<'de>> Visitor<'de> for ObjectOr<V> {
    type Value = V::Value;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object")
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        self.0.visit_map(map)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(self.0.other("an array"))
    }
    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(self.0.other("a boolean"))
    }
    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(self.0.other("a number"))
    }
    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(self.0.other("a number"))
    }
    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(self.0.other("a number"))
    }
    fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
        Ok(self.0.other("a string"))
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(self.0.other("null"))
    }
    fn visit_none<E>(self) -> Result<Self::Value, E> {
        Ok(self.0.other("null"))
    }
}
