//! Configuration (contract section 2): defaults, partial overrides, precedence and validation.

use serde::{Deserialize, Serialize};
use std::fmt;

/// How a hybrid hit's quality is computed (contract section 3.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum HybridQuality {
    /// The service's behaviour: `(n - r + 1) / n`.
    #[default]
    Rank,
    /// What-if: the dense formula on `denseDistance` when present, else rank.
    DenseWhenPresent,
    /// What-if: the larger of rank and dense quality when `denseDistance` is present.
    MaxRankDense,
}

impl HybridQuality {
    pub fn as_str(self) -> &'static str {
        match self {
            HybridQuality::Rank => "rank",
            HybridQuality::DenseWhenPresent => "denseWhenPresent",
            HybridQuality::MaxRankDense => "maxRankDense",
        }
    }

    /// Accepts the camelCase names of the contract and their snake_case spellings.
    pub fn parse(text: &str) -> Option<HybridQuality> {
        match text.trim() {
            "rank" => Some(HybridQuality::Rank),
            "denseWhenPresent" | "dense_when_present" => Some(HybridQuality::DenseWhenPresent),
            "maxRankDense" | "max_rank_dense" => Some(HybridQuality::MaxRankDense),
            _ => None,
        }
    }
}

/// A complete, validated configuration.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Config {
    pub max_l2_distance: f64,
    pub return_n: usize,
    pub max_chunks_per_document: usize,
    pub excerpt_max_chars: usize,
    pub precise_threshold: f64,
    pub highly_relevant_threshold: f64,
    pub reference_threshold: f64,
    pub hybrid_quality: HybridQuality,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            max_l2_distance: 1.0,
            return_n: 5,
            max_chunks_per_document: 2,
            excerpt_max_chars: 300,
            precise_threshold: 0.9,
            highly_relevant_threshold: 0.75,
            reference_threshold: 0.5,
            hybrid_quality: HybridQuality::Rank,
        }
    }
}

/// An invalid setting, naming the key (camelCase) when there is one.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ConfigError {
    pub key: Option<String>,
    pub message: String,
}

impl ConfigError {
    fn new(key: Option<&str>, message: impl Into<String>) -> Self {
        ConfigError {
            key: key.map(str::to_owned),
            message: message.into(),
        }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.key {
            Some(key) => write!(f, "{key}: {}", self.message),
            None => write!(f, "{}", self.message),
        }
    }
}

impl std::error::Error for ConfigError {}

/// One configuration key, in the contract's camelCase spelling.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    MaxL2Distance,
    ReturnN,
    MaxChunksPerDocument,
    ExcerptMaxChars,
    PreciseThreshold,
    HighlyRelevantThreshold,
    ReferenceThreshold,
    HybridQuality,
    /// Not a contract key: the page's switch "use each trace's recorded options".
    UseTraceOptions,
}

impl Key {
    /// Both spellings of every key; anything else is unknown.
    pub fn parse(name: &str) -> Option<Key> {
        Some(match name.trim() {
            "maxL2Distance" | "max_l2_distance" => Key::MaxL2Distance,
            "returnN" | "return_n" => Key::ReturnN,
            "maxChunksPerDocument" | "max_chunks_per_document" => Key::MaxChunksPerDocument,
            "excerptMaxChars" | "excerpt_max_chars" => Key::ExcerptMaxChars,
            "preciseThreshold" | "precise_threshold" => Key::PreciseThreshold,
            "highlyRelevantThreshold" | "highly_relevant_threshold" => Key::HighlyRelevantThreshold,
            "referenceThreshold" | "reference_threshold" => Key::ReferenceThreshold,
            "hybridQuality" | "hybrid_quality" => Key::HybridQuality,
            "useTraceOptions" | "use_trace_options" => Key::UseTraceOptions,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Key::MaxL2Distance => "maxL2Distance",
            Key::ReturnN => "returnN",
            Key::MaxChunksPerDocument => "maxChunksPerDocument",
            Key::ExcerptMaxChars => "excerptMaxChars",
            Key::PreciseThreshold => "preciseThreshold",
            Key::HighlyRelevantThreshold => "highlyRelevantThreshold",
            Key::ReferenceThreshold => "referenceThreshold",
            Key::HybridQuality => "hybridQuality",
            Key::UseTraceOptions => "useTraceOptions",
        }
    }
}

/// A partial configuration: the user's overrides, or a trace's recorded `options`.
///
/// Every field may be set directly (the page's sliders do); [`Config::merged`]
/// validates the result.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Settings {
    pub max_l2_distance: Option<f64>,
    pub return_n: Option<usize>,
    pub max_chunks_per_document: Option<usize>,
    pub excerpt_max_chars: Option<usize>,
    pub precise_threshold: Option<f64>,
    pub highly_relevant_threshold: Option<f64>,
    pub reference_threshold: Option<f64>,
    pub hybrid_quality: Option<HybridQuality>,
    /// Whether each trace's own `options` sit between the defaults and these settings.
    /// Meaningless on a trace's own options.
    pub use_trace_options: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            max_l2_distance: None,
            return_n: None,
            max_chunks_per_document: None,
            excerpt_max_chars: None,
            precise_threshold: None,
            highly_relevant_threshold: None,
            reference_threshold: None,
            hybrid_quality: None,
            use_trace_options: true,
        }
    }
}

/// A JSON value as a configuration value, or why it cannot be one.
pub(crate) enum ValueError {
    /// The JSON type is wrong (`"4"` for `returnN`): the key is treated as absent.
    WrongType(&'static str),
    /// The type is right but the value is not allowed (`0`, `2.5` for `returnN`).
    Invalid(String),
}

fn json_type(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "boolean",
        serde_json::Value::Number(_) => "number",
        serde_json::Value::String(_) => "string",
        serde_json::Value::Array(_) => "array",
        serde_json::Value::Object(_) => "object",
    }
}

fn check_count(key: Key, value: f64) -> Result<usize, ConfigError> {
    // u32::MAX bounds the value so it fits every platform's usize, wasm32 included.
    if value.fract() == 0.0 && value >= 1.0 && value <= f64::from(u32::MAX) {
        Ok(value as usize)
    } else {
        Err(ConfigError::new(
            Some(key.name()),
            format!("must be an integer >= 1, got {value}"),
        ))
    }
}

impl Settings {
    /// Settings that override nothing.
    pub fn new() -> Self {
        Self::default()
    }

    /// Reads a `--config` file: a JSON object of keys of section 2 (either spelling).
    /// An unknown key is an error, so a typo does not go unnoticed.
    pub fn from_json_text(text: &str) -> Result<Settings, ConfigError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let value: serde_json::Value = serde_json::from_str(text).map_err(|err| {
            ConfigError::new(
                None,
                format!(
                    "configuration is not valid JSON (line {}, column {}): {err}",
                    err.line(),
                    err.column()
                ),
            )
        })?;
        let object = value.as_object().ok_or_else(|| {
            ConfigError::new(None, "configuration must be a JSON object of settings")
        })?;
        let mut settings = Settings::default();
        for (name, value) in object {
            let key = Key::parse(name)
                .ok_or_else(|| ConfigError::new(Some(name), "unknown configuration key"))?;
            if value.is_null() {
                continue;
            }
            match settings.set_json(key, value) {
                Ok(()) => {}
                Err(ValueError::WrongType(found)) => {
                    return Err(ConfigError::new(
                        Some(key.name()),
                        format!("expected {}, got {found}", expected_type(key)),
                    ))
                }
                Err(ValueError::Invalid(message)) => {
                    return Err(ConfigError::new(Some(key.name()), message))
                }
            }
        }
        Ok(settings)
    }

    /// Applies one `--set key=value` (key in camelCase or snake_case).
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), ConfigError> {
        let parsed = Key::parse(key)
            .ok_or_else(|| ConfigError::new(Some(key), "unknown configuration key"))?;
        let value = value.trim();
        let number = || {
            value
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| {
                    ConfigError::new(
                        Some(parsed.name()),
                        format!("expected a number, got {value:?}"),
                    )
                })
        };
        match parsed {
            Key::MaxL2Distance => self.max_l2_distance = Some(number()?),
            Key::PreciseThreshold => self.precise_threshold = Some(number()?),
            Key::HighlyRelevantThreshold => self.highly_relevant_threshold = Some(number()?),
            Key::ReferenceThreshold => self.reference_threshold = Some(number()?),
            Key::ReturnN => self.return_n = Some(check_count(parsed, number()?)?),
            Key::MaxChunksPerDocument => {
                self.max_chunks_per_document = Some(check_count(parsed, number()?)?)
            }
            Key::ExcerptMaxChars => self.excerpt_max_chars = Some(check_count(parsed, number()?)?),
            Key::HybridQuality => {
                self.hybrid_quality = Some(HybridQuality::parse(value).ok_or_else(|| {
                    ConfigError::new(
                        Some(parsed.name()),
                        format!("expected rank, denseWhenPresent or maxRankDense, got {value:?}"),
                    )
                })?)
            }
            Key::UseTraceOptions => {
                self.use_trace_options = match value {
                    "true" => true,
                    "false" => false,
                    _ => {
                        return Err(ConfigError::new(
                            Some(parsed.name()),
                            format!("expected true or false, got {value:?}"),
                        ))
                    }
                }
            }
        }
        Ok(())
    }

    /// Sets one key from a JSON value; `null` must be filtered out by the caller.
    pub(crate) fn set_json(
        &mut self,
        key: Key,
        value: &serde_json::Value,
    ) -> Result<(), ValueError> {
        use serde_json::Value;
        let number = |value: &Value| {
            value
                .as_f64()
                .ok_or(ValueError::WrongType(json_type(value)))
        };
        let count = |value: &Value| -> Result<usize, ValueError> {
            // Only a JSON integer is a count; 2.5 or 2.0 are numbers of the wrong kind.
            match value {
                Value::Number(n) => match n.as_u64() {
                    Some(v) if v >= 1 && v <= u64::from(u32::MAX) => Ok(v as usize),
                    _ => Err(ValueError::Invalid(format!(
                        "must be an integer >= 1, got {n}"
                    ))),
                },
                other => Err(ValueError::WrongType(json_type(other))),
            }
        };
        match key {
            Key::MaxL2Distance => self.max_l2_distance = Some(number(value)?),
            Key::PreciseThreshold => self.precise_threshold = Some(number(value)?),
            Key::HighlyRelevantThreshold => self.highly_relevant_threshold = Some(number(value)?),
            Key::ReferenceThreshold => self.reference_threshold = Some(number(value)?),
            Key::ReturnN => self.return_n = Some(count(value)?),
            Key::MaxChunksPerDocument => self.max_chunks_per_document = Some(count(value)?),
            Key::ExcerptMaxChars => self.excerpt_max_chars = Some(count(value)?),
            Key::HybridQuality => match value {
                Value::String(s) => {
                    self.hybrid_quality = Some(HybridQuality::parse(s).ok_or_else(|| {
                        ValueError::Invalid(format!(
                            "expected rank, denseWhenPresent or maxRankDense, got {s:?}"
                        ))
                    })?)
                }
                other => return Err(ValueError::WrongType(json_type(other))),
            },
            Key::UseTraceOptions => match value {
                Value::Bool(b) => self.use_trace_options = *b,
                other => return Err(ValueError::WrongType(json_type(other))),
            },
        }
        Ok(())
    }

    /// Layers `other` over `self`: every key `other` sets wins.
    pub fn apply(&mut self, other: &Settings) {
        fn over<T: Copy>(base: &mut Option<T>, top: Option<T>) {
            if top.is_some() {
                *base = top;
            }
        }
        over(&mut self.max_l2_distance, other.max_l2_distance);
        over(&mut self.return_n, other.return_n);
        over(
            &mut self.max_chunks_per_document,
            other.max_chunks_per_document,
        );
        over(&mut self.excerpt_max_chars, other.excerpt_max_chars);
        over(&mut self.precise_threshold, other.precise_threshold);
        over(
            &mut self.highly_relevant_threshold,
            other.highly_relevant_threshold,
        );
        over(&mut self.reference_threshold, other.reference_threshold);
        over(&mut self.hybrid_quality, other.hybrid_quality);
        self.use_trace_options = other.use_trace_options;
    }

    /// True when no configuration key is set.
    pub fn is_empty(&self) -> bool {
        self.max_l2_distance.is_none()
            && self.return_n.is_none()
            && self.max_chunks_per_document.is_none()
            && self.excerpt_max_chars.is_none()
            && self.precise_threshold.is_none()
            && self.highly_relevant_threshold.is_none()
            && self.reference_threshold.is_none()
            && self.hybrid_quality.is_none()
    }

    fn overlay(&self, config: &mut Config) {
        if let Some(v) = self.max_l2_distance {
            config.max_l2_distance = v;
        }
        if let Some(v) = self.return_n {
            config.return_n = v;
        }
        if let Some(v) = self.max_chunks_per_document {
            config.max_chunks_per_document = v;
        }
        if let Some(v) = self.excerpt_max_chars {
            config.excerpt_max_chars = v;
        }
        if let Some(v) = self.precise_threshold {
            config.precise_threshold = v;
        }
        if let Some(v) = self.highly_relevant_threshold {
            config.highly_relevant_threshold = v;
        }
        if let Some(v) = self.reference_threshold {
            config.reference_threshold = v;
        }
        if let Some(v) = self.hybrid_quality {
            config.hybrid_quality = v;
        }
    }
}

fn expected_type(key: Key) -> &'static str {
    match key {
        Key::MaxL2Distance
        | Key::PreciseThreshold
        | Key::HighlyRelevantThreshold
        | Key::ReferenceThreshold => "a number",
        Key::ReturnN | Key::MaxChunksPerDocument | Key::ExcerptMaxChars => "an integer >= 1",
        Key::HybridQuality => "a string",
        Key::UseTraceOptions => "a boolean",
    }
}

impl Config {
    /// Defaults, then the trace's own options, then the user's settings; validated.
    pub fn merged(trace_options: &Settings, user: &Settings) -> Result<Config, ConfigError> {
        let mut config = Config::default();
        trace_options.overlay(&mut config);
        user.overlay(&mut config);
        config.validate()?;
        Ok(config)
    }

    /// Defaults plus the user's settings, validated.
    pub fn from_settings(user: &Settings) -> Result<Config, ConfigError> {
        Self::merged(&Settings::default(), user)
    }

    pub fn validate(&self) -> Result<(), ConfigError> {
        if !(self.max_l2_distance.is_finite() && self.max_l2_distance > 0.0) {
            return Err(ConfigError::new(
                Some("maxL2Distance"),
                format!("must be > 0 and finite, got {}", self.max_l2_distance),
            ));
        }
        for (key, value) in [
            ("returnN", self.return_n),
            ("maxChunksPerDocument", self.max_chunks_per_document),
            ("excerptMaxChars", self.excerpt_max_chars),
        ] {
            if value < 1 {
                return Err(ConfigError::new(
                    Some(key),
                    format!("must be an integer >= 1, got {value}"),
                ));
            }
        }
        for (key, value) in [
            ("preciseThreshold", self.precise_threshold),
            ("highlyRelevantThreshold", self.highly_relevant_threshold),
            ("referenceThreshold", self.reference_threshold),
        ] {
            if !(0.0..=1.0).contains(&value) {
                return Err(ConfigError::new(
                    Some(key),
                    format!("must be in [0, 1], got {value}"),
                ));
            }
        }
        if self.precise_threshold < self.highly_relevant_threshold {
            return Err(ConfigError::new(
                Some("preciseThreshold"),
                format!(
                    "must be >= highlyRelevantThreshold ({} < {})",
                    self.precise_threshold, self.highly_relevant_threshold
                ),
            ));
        }
        if self.highly_relevant_threshold < self.reference_threshold {
            return Err(ConfigError::new(
                Some("highlyRelevantThreshold"),
                format!(
                    "must be >= referenceThreshold ({} < {})",
                    self.highly_relevant_threshold, self.reference_threshold
                ),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
#[allow(clippy::field_reassign_with_default)]
mod tests {
    use super::*;

    #[test]
    fn serialises_in_camel_case() {
        let json = serde_json::to_value(Config::default()).unwrap();
        assert_eq!(json["maxL2Distance"], 1.0);
        assert_eq!(json["returnN"], 5);
        assert_eq!(json["hybridQuality"], "rank");
        let mut config = Config::default();
        config.hybrid_quality = HybridQuality::DenseWhenPresent;
        assert_eq!(
            serde_json::to_value(config).unwrap()["hybridQuality"],
            "denseWhenPresent"
        );
    }

    #[test]
    fn precedence_defaults_trace_user() {
        let mut trace = Settings::default();
        trace.return_n = Some(4);
        trace.max_l2_distance = Some(1.2);
        let mut user = Settings::default();
        user.set("max_l2_distance", "2").unwrap();
        let config = Config::merged(&trace, &user).unwrap();
        assert_eq!(config.return_n, 4);
        assert_eq!(config.max_l2_distance, 2.0);
        assert_eq!(config.max_chunks_per_document, 2);
    }

    #[test]
    fn validation_names_the_key() {
        let mut user = Settings::default();
        user.max_l2_distance = Some(0.0);
        assert_eq!(
            Config::from_settings(&user).unwrap_err().key.as_deref(),
            Some("maxL2Distance")
        );
        let mut user = Settings::default();
        user.reference_threshold = Some(0.8);
        assert_eq!(
            Config::from_settings(&user).unwrap_err().key.as_deref(),
            Some("highlyRelevantThreshold")
        );
        let mut user = Settings::default();
        assert_eq!(
            user.set("returnN", "0").unwrap_err().key.as_deref(),
            Some("returnN")
        );
        assert_eq!(
            user.set("returnN", "2.5").unwrap_err().key.as_deref(),
            Some("returnN")
        );
        assert!(user.set("nope", "1").is_err());
        assert!(user.set("hybridQuality", "max_rank_dense").is_ok());
        assert_eq!(user.hybrid_quality, Some(HybridQuality::MaxRankDense));
    }

    #[test]
    fn config_file_rejects_unknown_keys_and_wrong_types() {
        let settings =
            Settings::from_json_text(r#"{"returnN": 3, "reference_threshold": 0.4}"#).unwrap();
        assert_eq!(settings.return_n, Some(3));
        assert_eq!(settings.reference_threshold, Some(0.4));
        let err = Settings::from_json_text(r#"{"returnN": "3"}"#).unwrap_err();
        assert_eq!(err.key.as_deref(), Some("returnN"));
        assert!(Settings::from_json_text(r#"{"retrunN": 3}"#).is_err());
        assert!(Settings::from_json_text("[1]").is_err());
        assert!(Settings::from_json_text("{").is_err());
    }
}
