//! Loose values: any JSON value, classified, so a wrong type never aborts parsing,
//! and the readers that turn one into a field's value or a located diagnostic.

use super::numbers::{out_of_range_value, OUT_OF_RANGE};
use crate::diagnostic::{pointer_token, Diagnostic};
use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::cell::Cell;
use std::fmt;
use std::sync::Arc;

#[derive(Debug)]
pub(super) enum Scalar {
    Null,
    Bool(bool),
    U64(u64),
    I64(i64),
    F64(f64),
    /// A number beyond a double's range, as written (see `numbers`).
    OutOfRange(Arc<str>),
    Str(Arc<str>),
    Array,
    Object,
}

impl Scalar {
    pub(super) fn type_name(&self) -> &'static str {
        match self {
            Scalar::Null => "null",
            Scalar::Bool(_) => "boolean",
            Scalar::U64(_) | Scalar::I64(_) | Scalar::F64(_) | Scalar::OutOfRange(_) => "number",
            Scalar::Str(_) => "string",
            Scalar::Array => "array",
            Scalar::Object => "object",
        }
    }
}

pub(super) struct ScalarSeed;

impl<'de> DeserializeSeed<'de> for ScalarSeed {
    type Value = Scalar;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Scalar, D::Error> {
        d.deserialize_any(ScalarVisitor)
    }
}

pub(super) struct ScalarVisitor;

impl<'de> Visitor<'de> for ScalarVisitor {
    type Value = Scalar;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Scalar, E> {
        Ok(Scalar::Bool(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Scalar, E> {
        Ok(Scalar::U64(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Scalar, E> {
        Ok(Scalar::I64(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Scalar, E> {
        Ok(Scalar::F64(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Scalar, E> {
        Ok(match v.strip_prefix(OUT_OF_RANGE) {
            Some(literal) => Scalar::OutOfRange(Arc::from(literal)),
            None => Scalar::Str(Arc::from(v)),
        })
    }
    fn visit_unit<E>(self) -> Result<Scalar, E> {
        Ok(Scalar::Null)
    }
    fn visit_none<E>(self) -> Result<Scalar, E> {
        Ok(Scalar::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Scalar, D::Error> {
        d.deserialize_any(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Scalar, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Scalar::Array)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Scalar, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Scalar::Object)
    }
}

/// Collects diagnostics with paths relative to the object being read.
#[derive(Default)]
pub(super) struct Diags(pub(super) Vec<Diagnostic>);

impl Diags {
    pub(super) fn wrong_type(&mut self, field: &str, expected: &str, found: &str) {
        self.0.push(Diagnostic::error(
            "wrong-type",
            format!("{field}: expected {expected}, got {found}; treated as absent"),
            format!("/{}", pointer_token(field)),
        ));
    }

    /// A number beyond a double's range, read as infinite.
    pub(super) fn out_of_range(&mut self, field: &str, literal: &str) {
        self.0.push(Diagnostic::warning(
            "number-out-of-range",
            format!("{field}: {literal} is beyond a double's range; read as infinite (non-finite: quality 0)"),
            format!("/{}", pointer_token(field)),
        ));
    }

    /// An unknown (or loosely read) field whose value nests deeper than [`KEPT_DEPTH`].
    pub(super) fn cut_deep(&mut self, field: &str) {
        self.0.push(Diagnostic::warning(
            "deep-value-cut",
            format!("{field}: nested more than {KEPT_DEPTH} levels deep below the field; the deeper part is skipped, not kept"),
            format!("/{}", pointer_token(field)),
        ));
    }
}

pub(super) fn take_str(value: Scalar, field: &str, diags: &mut Diags) -> Option<Arc<str>> {
    match value {
        Scalar::Str(s) => Some(s),
        Scalar::Null => None,
        other => {
            diags.wrong_type(field, "a string", other.type_name());
            None
        }
    }
}

/// `evidenceKey` and `docId`: a string, or an integer used as its decimal text.
pub(super) fn take_id(value: Scalar, field: &str, diags: &mut Diags) -> Option<Arc<str>> {
    match value {
        Scalar::Str(s) => Some(s),
        Scalar::U64(v) => Some(Arc::from(v.to_string())),
        Scalar::I64(v) => Some(Arc::from(v.to_string())),
        Scalar::Null => None,
        other => {
            diags.wrong_type(field, "a string or an integer", other.type_name());
            None
        }
    }
}

pub(super) fn take_number(value: Scalar, field: &str, diags: &mut Diags) -> Option<f64> {
    match value {
        Scalar::U64(v) => Some(v as f64),
        Scalar::I64(v) => Some(v as f64),
        Scalar::F64(v) => Some(v),
        Scalar::OutOfRange(literal) => {
            diags.out_of_range(field, &literal);
            Some(out_of_range_value(&literal))
        }
        Scalar::Null => None,
        other => {
            diags.wrong_type(field, "a number", other.type_name());
            None
        }
    }
}

pub(super) fn take_integer(value: Scalar, field: &str, diags: &mut Diags) -> Option<i64> {
    match value {
        Scalar::U64(v) => match i64::try_from(v) {
            Ok(v) => Some(v),
            Err(_) => {
                diags.wrong_type(field, "an integer", "an integer out of range");
                None
            }
        },
        Scalar::I64(v) => Some(v),
        Scalar::Null => None,
        Scalar::F64(v) => {
            diags.wrong_type(field, "an integer", &format!("{v:?}"));
            None
        }
        other => {
            diags.wrong_type(field, "an integer", other.type_name());
            None
        }
    }
}

pub(super) fn take_bool(value: Scalar, field: &str, diags: &mut Diags) -> Option<bool> {
    match value {
        Scalar::Bool(b) => Some(b),
        Scalar::Null => None,
        other => {
            diags.wrong_type(field, "a boolean", other.type_name());
            None
        }
    }
}

/// A list of strings; a non-string element is reported and skipped.
pub(super) enum StrList {
    List(Vec<String>, Vec<(usize, &'static str)>),
    Wrong(&'static str),
    Null,
}

pub(super) struct StrListSeed;

impl<'de> DeserializeSeed<'de> for StrListSeed {
    type Value = StrList;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<StrList, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for StrListSeed {
    type Value = StrList;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of strings")
    }
    other_values!(|t| if t == "null" {
        StrList::Null
    } else {
        StrList::Wrong(t)
    });
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<StrList, A::Error> {
        let mut items = Vec::new();
        let mut bad = Vec::new();
        let mut index = 0;
        while let Some(item) = seq.next_element_seed(ScalarSeed)? {
            match item {
                Scalar::Str(s) => items.push(s.to_string()),
                other => bad.push((index, other.type_name())),
            }
            index += 1;
        }
        Ok(StrList::List(items, bad))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<StrList, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(StrList::Wrong("object"))
    }
}

pub(super) fn take_str_list(
    value: StrList,
    field: &str,
    diags: &mut Diags,
) -> Option<Arc<[String]>> {
    match value {
        StrList::List(items, bad) => {
            for (index, found) in bad {
                diags.0.push(Diagnostic::error(
                    "wrong-type",
                    format!("{field}[{index}]: expected a string, got {found}; skipped"),
                    format!("/{}/{index}", pointer_token(field)),
                ));
            }
            Some(Arc::from(items))
        }
        StrList::Wrong(found) => {
            diags.wrong_type(field, "a list of strings", found);
            None
        }
        StrList::Null => None,
    }
}

/// How many levels below its field an unknown field's value is kept. The typed pass
/// above it uses fewer than 10 of serde_json's 128, so a kept value never reaches that
/// limit; deeper parts are skipped without recursion (serde_json skips iteratively),
/// whatever their depth.
pub(super) const KEPT_DEPTH: usize = 64;

/// What stands in a kept value for a part nested deeper than [`KEPT_DEPTH`].
const CUT: &str = "(nested too deep: not kept)";

/// Reads any value as a `serde_json::Value`, down to `left` more levels; a deeper part
/// becomes [`CUT`] and sets `cut`.
#[derive(Clone, Copy)]
pub(super) struct KeptSeed<'a> {
    left: usize,
    cut: &'a Cell<bool>,
}

/// An unknown field's value, and whether a part of it was too deep to keep.
pub(super) fn next_kept<'de, A: MapAccess<'de>>(map: &mut A) -> Result<(Value, bool), A::Error> {
    let cut = Cell::new(false);
    let value = map.next_value_seed(KeptSeed {
        left: KEPT_DEPTH,
        cut: &cut,
    })?;
    Ok((value, cut.get()))
}

impl<'de> DeserializeSeed<'de> for KeptSeed<'_> {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for KeptSeed<'_> {
    type Value = Value;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        // A number beyond a double's range is shown as written.
        Ok(Value::String(
            v.strip_prefix(OUT_OF_RANGE).unwrap_or(v).to_owned(),
        ))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        match v.strip_prefix(OUT_OF_RANGE) {
            Some(literal) => Ok(Value::String(literal.to_owned())),
            None => Ok(Value::String(v)),
        }
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        if self.left == 0 {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            self.cut.set(true);
            return Ok(Value::String(CUT.to_owned()));
        }
        let inner = KeptSeed {
            left: self.left - 1,
            cut: self.cut,
        };
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(item) = seq.next_element_seed(inner)? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        if self.left == 0 {
            while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
            self.cut.set(true);
            return Ok(Value::String(CUT.to_owned()));
        }
        let inner = KeptSeed {
            left: self.left - 1,
            cut: self.cut,
        };
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let value = map.next_value_seed(inner)?;
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}
