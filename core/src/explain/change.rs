//! A change of settings: one or two keys with their new values, applied on top of the
//! user's settings exactly as a `--set` would be.

use crate::config::{Config, ConfigError, HybridQuality, SettingKey, SettingValue, Settings};
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use std::fmt;

/// One key set to one value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChangedSetting {
    pub key: SettingKey,
    pub value: SettingValue,
}

/// At most two settings changed at once (a single one, or the least pair).
/// Serialises as the object `{"returnN": 7}` or `{"maxChunksPerDocument": 3, "returnN": 6}`,
/// keys in the contract's order.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Change {
    first: ChangedSetting,
    second: Option<ChangedSetting>,
}

impl Change {
    pub fn single(key: SettingKey, value: SettingValue) -> Change {
        Change {
            first: ChangedSetting { key, value },
            second: None,
        }
    }

    /// Two keys; given in any order, kept in the contract's order.
    pub fn pair(a: ChangedSetting, b: ChangedSetting) -> Change {
        let position = |k: SettingKey| {
            SettingKey::ALL
                .iter()
                .position(|&x| x == k)
                .unwrap_or(usize::MAX)
        };
        let (first, second) = if position(a.key) <= position(b.key) {
            (a, b)
        } else {
            (b, a)
        };
        Change {
            first,
            second: Some(second),
        }
    }

    pub fn return_n(value: usize) -> Change {
        Change::single(SettingKey::ReturnN, SettingValue::Count(value))
    }

    pub fn max_chunks(value: usize) -> Change {
        Change::single(SettingKey::MaxChunksPerDocument, SettingValue::Count(value))
    }

    /// `{"maxChunksPerDocument": cap, "returnN": return_n}`.
    pub fn return_n_and_max_chunks(return_n: usize, cap: usize) -> Change {
        Change::pair(
            ChangedSetting {
                key: SettingKey::ReturnN,
                value: SettingValue::Count(return_n),
            },
            ChangedSetting {
                key: SettingKey::MaxChunksPerDocument,
                value: SettingValue::Count(cap),
            },
        )
    }

    pub fn number(key: SettingKey, value: f64) -> Change {
        Change::single(key, SettingValue::Number(value))
    }

    pub fn hybrid_quality(value: HybridQuality) -> Change {
        Change::single(
            SettingKey::HybridQuality,
            SettingValue::HybridQuality(value),
        )
    }

    /// The settings changed, in the contract's order.
    pub fn settings(&self) -> impl Iterator<Item = ChangedSetting> + '_ {
        std::iter::once(self.first).chain(self.second)
    }

    /// The value this change gives `key`, if it sets it.
    pub fn value(&self, key: SettingKey) -> Option<SettingValue> {
        self.settings().find(|s| s.key == key).map(|s| s.value)
    }

    /// The count this change gives `key` (`returnN`, `maxChunksPerDocument`), if it sets it.
    pub fn count(&self, key: SettingKey) -> Option<usize> {
        match self.value(key) {
            Some(SettingValue::Count(v)) => Some(v),
            _ => None,
        }
    }

    /// `user` with this change on top (later wins, as a later `--set` does).
    pub fn applied_to(&self, user: &Settings) -> Settings {
        let mut settings = user.clone();
        for s in self.settings() {
            settings.put(s.key, s.value);
        }
        settings
    }

    /// The user's settings with this change, and the global configuration they give;
    /// `Err` when the change makes the configuration invalid.
    pub fn apply(&self, user: &Settings) -> Result<(Settings, Config), ConfigError> {
        let settings = self.applied_to(user);
        let global = Config::from_settings(&settings)?;
        Ok((settings, global))
    }
}

impl fmt::Display for Change {
    /// `returnN = 7`, `maxChunksPerDocument = 3, returnN = 6`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut separator = "";
        for s in self.settings() {
            write!(f, "{separator}{} = {}", s.key.name(), s.value)?;
            separator = ", ";
        }
        Ok(())
    }
}

impl Serialize for Change {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(1 + usize::from(self.second.is_some())))?;
        for s in self.settings() {
            match s.value {
                SettingValue::Number(v) => map.serialize_entry(s.key.name(), &v)?,
                SettingValue::Count(v) => map.serialize_entry(s.key.name(), &v)?,
                SettingValue::HybridQuality(v) => map.serialize_entry(s.key.name(), v.as_str())?,
                SettingValue::ScoreKind(v) => map.serialize_entry(s.key.name(), v.as_str())?,
                SettingValue::Switch(v) => map.serialize_entry(s.key.name(), &v)?,
            }
        }
        map.end()
    }
}

/// One or two settings by their camelCase names, each with a value of its kind (the
/// page's switch and `scoreKind` are never a change).
#[cfg(feature = "schema")]
impl schemars::JsonSchema for Change {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "SettingsChange".into()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        use crate::config::SettingKind;
        let mut properties = serde_json::Map::new();
        for key in SettingKey::ALL {
            let value = match key.kind() {
                SettingKind::Number => f64::json_schema(generator),
                SettingKind::Count => usize::json_schema(generator),
                SettingKind::HybridQuality => generator.subschema_for::<HybridQuality>(),
                // Categorical: what the scores are is never a change to suggest.
                SettingKind::ScoreKind | SettingKind::Switch => continue,
            };
            properties.insert(key.name().to_owned(), value.into());
        }
        schemars::json_schema!({
            "type": "object",
            "properties": properties,
            "additionalProperties": false,
            "minProperties": 1,
            "maxProperties": 2,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pair_keeps_the_contract_order_and_applies_like_set() {
        let change = Change::pair(
            ChangedSetting {
                key: SettingKey::ReturnN,
                value: SettingValue::Count(6),
            },
            ChangedSetting {
                key: SettingKey::MaxChunksPerDocument,
                value: SettingValue::Count(3),
            },
        );
        assert_eq!(
            serde_json::to_string(&change).ok().as_deref(),
            Some(r#"{"returnN":6,"maxChunksPerDocument":3}"#)
        );
        assert_eq!(change.to_string(), "returnN = 6, maxChunksPerDocument = 3");
        let applied = change.applied_to(&Settings::default());
        assert_eq!(applied.return_n, Some(6));
        assert_eq!(applied.max_chunks_per_document, Some(3));
        let bad = Change::number(SettingKey::ReferenceThreshold, 0.8);
        assert!(bad.apply(&Settings::default()).is_err());
    }
}
