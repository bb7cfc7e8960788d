//! Results into Python and arguments out of it, as JSON data: dicts, lists, floats,
//! ints, strings, booleans and None, shaped exactly as the CLI's JSON (serde_json's
//! reading of the same `Serialize` implementations: tuples and arrays become lists,
//! map keys strings, floats that are not finite None, enums their variant names).
//!
//! Built straight from the results' serde form, once, with no JSON text in between;
//! struct field names, the same few dozen across a result, are made into Python
//! strings once per conversion. (`pythonize` was tried first: it makes Rust tuples
//! and arrays Python tuples, which the CLI's JSON has as lists.)

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde::ser::{self, Serialize};
use std::collections::HashMap;
use std::fmt;

pub(crate) fn to_py<'py, T: Serialize + ?Sized>(
    py: Python<'py>,
    value: &T,
) -> PyResult<Bound<'py, PyAny>> {
    let mut keys = KeyCache::default();
    value
        .serialize(ToPy {
            py,
            keys: &mut keys,
        })
        .map_err(|err| PyValueError::new_err(format!("cannot convert the result: {err}")))
}

/// Python strings of the struct field names met so far (`&'static str`s, so their
/// address names them).
#[derive(Default)]
struct KeyCache<'py> {
    made: HashMap<(usize, usize), Bound<'py, PyString>>,
}

impl<'py> KeyCache<'py> {
    fn get(&mut self, py: Python<'py>, key: &'static str) -> Bound<'py, PyString> {
        self.made
            .entry((key.as_ptr() as usize, key.len()))
            .or_insert_with(|| PyString::intern(py, key))
            .clone()
    }
}

/// Why a value could not be converted (not expected: results are plain data).
#[derive(Debug)]
pub(crate) struct ConvertError(String);

impl fmt::Display for ConvertError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ConvertError {}

impl ser::Error for ConvertError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        ConvertError(msg.to_string())
    }
}

impl From<PyErr> for ConvertError {
    fn from(err: PyErr) -> Self {
        ConvertError(err.to_string())
    }
}

type Out<'py> = Result<Bound<'py, PyAny>, ConvertError>;

struct ToPy<'a, 'py> {
    py: Python<'py>,
    keys: &'a mut KeyCache<'py>,
}

impl<'a, 'py> ToPy<'a, 'py> {
    fn reborrow(&mut self) -> ToPy<'_, 'py> {
        ToPy {
            py: self.py,
            keys: self.keys,
        }
    }

    fn wrap(&mut self, variant: &'static str, value: Bound<'py, PyAny>) -> Out<'py> {
        let dict = PyDict::new(self.py);
        dict.set_item(self.keys.get(self.py, variant), value)?;
        Ok(dict.into_any())
    }
}

impl<'a, 'py> ser::Serializer for ToPy<'a, 'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = ConvertError;
    type SerializeSeq = Seq<'a, 'py>;
    type SerializeTuple = Seq<'a, 'py>;
    type SerializeTupleStruct = Seq<'a, 'py>;
    type SerializeTupleVariant = Seq<'a, 'py>;
    type SerializeMap = Map<'a, 'py>;
    type SerializeStruct = Map<'a, 'py>;
    type SerializeStructVariant = Map<'a, 'py>;

    fn serialize_bool(self, v: bool) -> Out<'py> {
        Ok(PyBool::new(self.py, v).to_owned().into_any())
    }
    fn serialize_i8(self, v: i8) -> Out<'py> {
        self.serialize_i64(v.into())
    }
    fn serialize_i16(self, v: i16) -> Out<'py> {
        self.serialize_i64(v.into())
    }
    fn serialize_i32(self, v: i32) -> Out<'py> {
        self.serialize_i64(v.into())
    }
    fn serialize_i64(self, v: i64) -> Out<'py> {
        Ok(PyInt::new(self.py, v).into_any())
    }
    fn serialize_i128(self, v: i128) -> Out<'py> {
        let Ok(number) = v.into_pyobject(self.py);
        Ok(number.into_any())
    }
    fn serialize_u8(self, v: u8) -> Out<'py> {
        self.serialize_u64(v.into())
    }
    fn serialize_u16(self, v: u16) -> Out<'py> {
        self.serialize_u64(v.into())
    }
    fn serialize_u32(self, v: u32) -> Out<'py> {
        self.serialize_u64(v.into())
    }
    fn serialize_u64(self, v: u64) -> Out<'py> {
        Ok(PyInt::new(self.py, v).into_any())
    }
    fn serialize_u128(self, v: u128) -> Out<'py> {
        let Ok(number) = v.into_pyobject(self.py);
        Ok(number.into_any())
    }
    fn serialize_f32(self, v: f32) -> Out<'py> {
        self.serialize_f64(v.into())
    }
    fn serialize_f64(self, v: f64) -> Out<'py> {
        // serde_json writes a float that is not finite as null.
        if v.is_finite() {
            Ok(PyFloat::new(self.py, v).into_any())
        } else {
            Ok(self.py.None().into_bound(self.py))
        }
    }
    fn serialize_char(self, v: char) -> Out<'py> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_str(self, v: &str) -> Out<'py> {
        Ok(PyString::new(self.py, v).into_any())
    }
    fn serialize_bytes(self, v: &[u8]) -> Out<'py> {
        Ok(PyList::new(self.py, v)?.into_any())
    }
    fn serialize_none(self) -> Out<'py> {
        Ok(self.py.None().into_bound(self.py))
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Out<'py> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Out<'py> {
        self.serialize_none()
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Out<'py> {
        self.serialize_none()
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _i: u32,
        variant: &'static str,
    ) -> Out<'py> {
        Ok(self.keys.get(self.py, variant).into_any())
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Out<'py> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        mut self,
        _name: &'static str,
        _i: u32,
        variant: &'static str,
        value: &T,
    ) -> Out<'py> {
        let inner = value.serialize(self.reborrow())?;
        self.wrap(variant, inner)
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Seq<'a, 'py>, ConvertError> {
        Ok(Seq {
            to: self,
            items: Vec::with_capacity(len.unwrap_or(0)),
            variant: None,
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<Seq<'a, 'py>, ConvertError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<Seq<'a, 'py>, ConvertError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _i: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Seq<'a, 'py>, ConvertError> {
        let mut seq = self.serialize_seq(Some(len))?;
        seq.variant = Some(variant);
        Ok(seq)
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Map<'a, 'py>, ConvertError> {
        Ok(Map {
            dict: PyDict::new(self.py),
            to: self,
            key: None,
            variant: None,
        })
    }
    fn serialize_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<Map<'a, 'py>, ConvertError> {
        self.serialize_map(Some(len))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _i: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Map<'a, 'py>, ConvertError> {
        let mut map = self.serialize_map(Some(len))?;
        map.variant = Some(variant);
        Ok(map)
    }
}

struct Seq<'a, 'py> {
    to: ToPy<'a, 'py>,
    items: Vec<Bound<'py, PyAny>>,
    /// A tuple variant's name: the list is wrapped in `{variant: [...]}`.
    variant: Option<&'static str>,
}

impl<'py> Seq<'_, 'py> {
    fn push<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), ConvertError> {
        let item = value.serialize(self.to.reborrow())?;
        self.items.push(item);
        Ok(())
    }

    fn finish(mut self) -> Out<'py> {
        let list = PyList::new(self.to.py, self.items)?.into_any();
        match self.variant {
            Some(variant) => self.to.wrap(variant, list),
            None => Ok(list),
        }
    }
}

impl<'py> ser::SerializeSeq for Seq<'_, 'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = ConvertError;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), ConvertError> {
        self.push(value)
    }
    fn end(self) -> Out<'py> {
        self.finish()
    }
}

impl<'py> ser::SerializeTuple for Seq<'_, 'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = ConvertError;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), ConvertError> {
        self.push(value)
    }
    fn end(self) -> Out<'py> {
        self.finish()
    }
}

impl<'py> ser::SerializeTupleStruct for Seq<'_, 'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = ConvertError;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), ConvertError> {
        self.push(value)
    }
    fn end(self) -> Out<'py> {
        self.finish()
    }
}

impl<'py> ser::SerializeTupleVariant for Seq<'_, 'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = ConvertError;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), ConvertError> {
        self.push(value)
    }
    fn end(self) -> Out<'py> {
        self.finish()
    }
}

struct Map<'a, 'py> {
    to: ToPy<'a, 'py>,
    dict: Bound<'py, PyDict>,
    /// A map's key waiting for its value.
    key: Option<Bound<'py, PyAny>>,
    /// A struct variant's name: the dict is wrapped in `{variant: {...}}`.
    variant: Option<&'static str>,
}

impl<'py> Map<'_, 'py> {
    fn finish(mut self) -> Out<'py> {
        let dict = self.dict.into_any();
        match self.variant {
            Some(variant) => self.to.wrap(variant, dict),
            None => Ok(dict),
        }
    }

    fn field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), ConvertError> {
        let value = value.serialize(self.to.reborrow())?;
        self.dict
            .set_item(self.to.keys.get(self.to.py, key), value)?;
        Ok(())
    }
}

impl<'py> ser::SerializeMap for Map<'_, 'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = ConvertError;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<(), ConvertError> {
        // JSON object keys are strings: serde_json writes numbers and booleans as text.
        let text = match serde_json::to_value(key).map_err(|err| ConvertError(err.to_string()))? {
            serde_json::Value::String(text) => text,
            other @ (serde_json::Value::Number(_) | serde_json::Value::Bool(_)) => {
                other.to_string()
            }
            other => {
                return Err(ConvertError(format!(
                    "a map key must be a string, got {other}"
                )))
            }
        };
        self.key = Some(PyString::new(self.to.py, &text).into_any());
        Ok(())
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), ConvertError> {
        let key = self
            .key
            .take()
            .ok_or_else(|| ConvertError("a map value without its key".to_owned()))?;
        let value = value.serialize(self.to.reborrow())?;
        self.dict.set_item(key, value)?;
        Ok(())
    }
    fn end(self) -> Out<'py> {
        self.finish()
    }
}

impl<'py> ser::SerializeStruct for Map<'_, 'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = ConvertError;
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), ConvertError> {
        self.field(key, value)
    }
    fn end(self) -> Out<'py> {
        self.finish()
    }
}

impl<'py> ser::SerializeStructVariant for Map<'_, 'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = ConvertError;
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), ConvertError> {
        self.field(key, value)
    }
    fn end(self) -> Out<'py> {
        self.finish()
    }
}

/// A Python value (a dict of settings, parsed traces or cases) as JSON data: dicts
/// with string keys, lists and tuples, str, int, float, bool and None; and what
/// pandas' `to_dict("records")` rows hold besides: NaN as null, dates as ISO text.
pub(crate) fn from_py(value: &Bound<'_, PyAny>) -> PyResult<serde_json::Value> {
    use serde_json::Value;
    if value.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(flag) = value.cast::<PyBool>() {
        return Ok(Value::Bool(flag.is_true()));
    }
    if let Ok(number) = value.cast::<PyInt>() {
        if let Ok(n) = number.extract::<i64>() {
            return Ok(n.into());
        }
        if let Ok(n) = number.extract::<u64>() {
            return Ok(n.into());
        }
        return Ok(Value::from(number.extract::<f64>()?));
    }
    if let Ok(number) = value.cast::<PyFloat>() {
        let v = number.value();
        // pandas' missing value: a `to_dict("records")` row has every column, NaN
        // where it has no value (as `DataFrame.to_json` writes null).
        if v.is_nan() {
            return Ok(Value::Null);
        }
        return serde_json::Number::from_f64(v)
            .map(Value::Number)
            .ok_or_else(|| PyValueError::new_err(format!("{v} is not a JSON number")));
    }
    if let Ok(text) = value.cast::<PyString>() {
        return Ok(Value::String(text.to_cow()?.into_owned()));
    }
    if let Ok(dict) = value.cast::<PyDict>() {
        let mut map = serde_json::Map::with_capacity(dict.len());
        for (key, item) in dict.iter() {
            let key = key.cast::<PyString>().map_err(|_| {
                PyTypeError::new_err(format!("a JSON object's keys are strings, got {key:?}"))
            })?;
            map.insert(key.to_cow()?.into_owned(), from_py(&item)?);
        }
        return Ok(Value::Object(map));
    }
    if value.is_instance_of::<PyList>() || value.is_instance_of::<PyTuple>() {
        return value
            .try_iter()?
            .map(|item| from_py(&item?))
            .collect::<PyResult<Vec<_>>>()
            .map(Value::Array);
    }
    // A date and time (`datetime`, pandas' `Timestamp`) as ISO 8601 text, as
    // `DataFrame.to_json(date_format="iso")` writes it; pandas' missing one (`NaT`) as null.
    if value.hasattr("isoformat")? {
        let text: String = value.call_method0("isoformat")?.extract()?;
        return Ok(if text == "NaT" {
            Value::Null
        } else {
            Value::String(text)
        });
    }
    Err(PyTypeError::new_err(format!(
        "not JSON data: a {} (expected dict, list, str, int, float, bool or None)",
        value.get_type().name()?
    )))
}
