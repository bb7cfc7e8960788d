//! A strict check of a JSON value against the JSON Schemas ragtrace prints: the
//! keywords schemars writes, and an object may hold only the keys its schema lists
//! (a key the schema forgot fails, as does a required key the output lacks, a wrong
//! type or a null where none is allowed). Every keyword it does not know fails too,
//! so a schema cannot pass by using one it skips.
#![allow(dead_code)] // each test file uses a part

use serde_json::{Map, Value};
use std::collections::BTreeSet;

/// Keywords that only annotate.
const ANNOTATIONS: &[&str] = &[
    "$schema",
    "$defs",
    "title",
    "description",
    "format",
    "default",
];

pub struct Checker<'a> {
    root: &'a Value,
    /// The definitions some value was checked against.
    pub reached: BTreeSet<String>,
}

impl<'a> Checker<'a> {
    pub fn new(root: &'a Value) -> Self {
        Checker {
            root,
            reached: BTreeSet::new(),
        }
    }

    /// The definitions of the root schema.
    pub fn definitions(&self) -> BTreeSet<String> {
        self.root["$defs"]
            .as_object()
            .map(|defs| defs.keys().cloned().collect())
            .unwrap_or_default()
    }

    /// `Err` names the place of the first mismatch (a JSON pointer) and what is wrong.
    pub fn check(&mut self, value: &Value) -> Result<(), String> {
        self.check_at(self.root, value, "")
    }

    fn check_at(&mut self, schema: &Value, value: &Value, at: &str) -> Result<(), String> {
        let schema = match schema {
            Value::Bool(true) => return Ok(()),
            Value::Bool(false) => return Err(format!("{at}: no value is allowed here")),
            Value::Object(schema) => schema,
            other => return Err(format!("{at}: the schema is not a schema: {other}")),
        };
        for (keyword, rule) in schema {
            match keyword.as_str() {
                k if ANNOTATIONS.contains(&k) => {}
                "$ref" => {
                    let name = rule
                        .as_str()
                        .and_then(|r| r.strip_prefix("#/$defs/"))
                        .ok_or_else(|| format!("{at}: a $ref outside #/$defs: {rule}"))?;
                    let target = self.root["$defs"]
                        .get(name)
                        .ok_or_else(|| format!("{at}: $ref to a missing definition {name}"))?;
                    self.reached.insert(name.to_owned());
                    self.check_at(target, value, at)
                        .map_err(|e| format!("{e} (in {name})"))?;
                }
                "type" => check_type(rule, value, at)?,
                "enum" => {
                    let allowed = rule.as_array().ok_or("enum is not an array")?;
                    if !allowed.contains(value) {
                        return Err(format!("{at}: {value} is not one of {rule}"));
                    }
                }
                "const" => {
                    if rule != value {
                        return Err(format!("{at}: {value} is not {rule}"));
                    }
                }
                "minimum" => {
                    if let (Some(min), Some(v)) = (rule.as_f64(), value.as_f64()) {
                        if v < min {
                            return Err(format!("{at}: {v} is below the minimum {min}"));
                        }
                    }
                }
                "maximum" => {
                    if let (Some(max), Some(v)) = (rule.as_f64(), value.as_f64()) {
                        if v > max {
                            return Err(format!("{at}: {v} is above the maximum {max}"));
                        }
                    }
                }
                "anyOf" | "oneOf" => {
                    let options = rule.as_array().ok_or("anyOf/oneOf is not an array")?;
                    let mut errors = Vec::new();
                    let mut matched = 0;
                    for option in options {
                        // A failed branch must not count the definitions it reached.
                        let before = self.reached.clone();
                        match self.check_at(option, value, at) {
                            Ok(()) => matched += 1,
                            Err(e) => {
                                self.reached = before;
                                errors.push(e);
                            }
                        }
                    }
                    if matched == 0 {
                        return Err(format!("{at}: matches none of {keyword}: {errors:?}"));
                    }
                    if keyword == "oneOf" && matched > 1 {
                        return Err(format!("{at}: matches {matched} branches of oneOf"));
                    }
                }
                "allOf" => {
                    for option in rule.as_array().ok_or("allOf is not an array")? {
                        self.check_at(option, value, at)?;
                    }
                }
                "items" => {
                    if let Some(items) = value.as_array() {
                        for (i, item) in items.iter().enumerate() {
                            self.check_at(rule, item, &format!("{at}/{i}"))?;
                        }
                    }
                }
                "minItems" | "maxItems" => {
                    if let (Some(bound), Some(items)) = (rule.as_u64(), value.as_array()) {
                        let n = items.len() as u64;
                        if (keyword == "minItems" && n < bound)
                            || (keyword == "maxItems" && n > bound)
                        {
                            return Err(format!("{at}: {n} items, {keyword} {bound}"));
                        }
                    }
                }
                "minProperties" | "maxProperties" => {
                    if let (Some(bound), Some(object)) = (rule.as_u64(), value.as_object()) {
                        let n = object.len() as u64;
                        if (keyword == "minProperties" && n < bound)
                            || (keyword == "maxProperties" && n > bound)
                        {
                            return Err(format!("{at}: {n} keys, {keyword} {bound}"));
                        }
                    }
                }
                "required" => {
                    if let Some(object) = value.as_object() {
                        for key in rule.as_array().ok_or("required is not an array")? {
                            let key = key.as_str().ok_or("a required key is not text")?;
                            if !object.contains_key(key) {
                                return Err(format!("{at}: the required key {key} is missing"));
                            }
                        }
                    }
                }
                // One pass over the keys for both keywords, made from `properties` when
                // there is one.
                "additionalProperties" if schema.contains_key("properties") => {}
                "properties" | "additionalProperties" => {
                    if let Some(object) = value.as_object() {
                        self.check_keys(schema, object, at)?;
                    }
                }
                other => {
                    return Err(format!(
                        "{at}: the schema uses {other}, which this check does not know"
                    ))
                }
            }
        }
        Ok(())
    }

    /// Each key against its property's schema; a key without one only where
    /// `additionalProperties` allows it (absent counts as not allowed: strict).
    fn check_keys(
        &mut self,
        schema: &Map<String, Value>,
        object: &Map<String, Value>,
        at: &str,
    ) -> Result<(), String> {
        let properties = schema.get("properties").and_then(Value::as_object);
        let additional = schema.get("additionalProperties");
        for (key, item) in object {
            let place = format!("{at}/{key}");
            match (properties.and_then(|p| p.get(key)), additional) {
                (Some(property), _) => self.check_at(property, item, &place)?,
                (None, Some(extra)) if extra != &Value::Bool(false) => {
                    self.check_at(extra, item, &place)?
                }
                (None, _) => return Err(format!("{place}: a key the schema does not list")),
            }
        }
        Ok(())
    }
}

fn check_type(rule: &Value, value: &Value, at: &str) -> Result<(), String> {
    let names: Vec<&str> = match rule {
        Value::String(name) => vec![name.as_str()],
        Value::Array(names) => names.iter().filter_map(Value::as_str).collect(),
        _ => return Err(format!("{at}: type is {rule}")),
    };
    let fits = |name: &str| match name {
        "null" => value.is_null(),
        "boolean" => value.is_boolean(),
        "string" => value.is_string(),
        "number" => value.is_number(),
        "integer" => value.is_i64() || value.is_u64(),
        "array" => value.is_array(),
        "object" => value.is_object(),
        _ => false,
    };
    if names.iter().any(|name| fits(name)) {
        Ok(())
    } else {
        Err(format!("{at}: {value} is not of type {rule}"))
    }
}

/// Checks `value` against `schema`, panicking with the place of the mismatch.
pub fn assert_valid(what: &str, schema: &Value, value: &Value) {
    if let Err(err) = Checker::new(schema).check(value) {
        panic!("{what} does not match its schema: {err}");
    }
}
