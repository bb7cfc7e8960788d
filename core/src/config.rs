//! Configuration (contract section 2): defaults, partial overrides, precedence and validation.
//!
//! Every key is declared once, in the `settings!` table below: its names, type, default
//! and bounds. [`Config`], [`Settings`], [`SettingKey`] and everything that reads, names, sets,
//! overlays, validates or lists a key are generated from that table, so adding a setting
//! is one row here (plus its knob on the page, which iterates [`SettingKey::ALL`]).

use serde::{Deserialize, Serialize};
use std::fmt;

mod link;

pub use link::{
    decode_component, encode_component, encode_settings, link_pairs, settings_from_pairs,
    settings_from_text,
};

/// How a hybrid hit's quality is computed (contract section 3.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
    /// Every choice, in the contract's order.
    pub const ALL: [HybridQuality; 3] = [
        HybridQuality::Rank,
        HybridQuality::DenseWhenPresent,
        HybridQuality::MaxRankDense,
    ];

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

/// What a dense candidate's `score`, and a hybrid candidate's `denseDistance`, is
/// (contract section 10.1); [`crate::score_kind`] turns it into an L2 distance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum ScoreKind {
    /// The L2 distance itself (the service's own scores).
    #[default]
    L2,
    /// The squared L2 distance.
    L2Squared,
    /// `1 - cos`.
    CosineDistance,
    /// `cos`, or the inner product of unit vectors.
    CosineSimilarity,
    /// `-(u . v)` of unit vectors.
    NegativeInnerProduct,
    /// `(1 + cos) / 2`.
    ElasticCosine,
    /// `1 / (1 + L2^2)`.
    InverseL2Squared,
}

impl ScoreKind {
    /// Every kind, in the contract's order.
    pub const ALL: [ScoreKind; 7] = [
        ScoreKind::L2,
        ScoreKind::L2Squared,
        ScoreKind::CosineDistance,
        ScoreKind::CosineSimilarity,
        ScoreKind::NegativeInnerProduct,
        ScoreKind::ElasticCosine,
        ScoreKind::InverseL2Squared,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ScoreKind::L2 => "l2",
            ScoreKind::L2Squared => "l2Squared",
            ScoreKind::CosineDistance => "cosineDistance",
            ScoreKind::CosineSimilarity => "cosineSimilarity",
            ScoreKind::NegativeInnerProduct => "negativeInnerProduct",
            ScoreKind::ElasticCosine => "elasticCosine",
            ScoreKind::InverseL2Squared => "inverseL2Squared",
        }
    }

    /// The snake_case spelling, which [`ScoreKind::parse`] also accepts.
    pub fn snake_str(self) -> &'static str {
        match self {
            ScoreKind::L2 => "l2",
            ScoreKind::L2Squared => "l2_squared",
            ScoreKind::CosineDistance => "cosine_distance",
            ScoreKind::CosineSimilarity => "cosine_similarity",
            ScoreKind::NegativeInnerProduct => "negative_inner_product",
            ScoreKind::ElasticCosine => "elastic_cosine",
            ScoreKind::InverseL2Squared => "inverse_l2_squared",
        }
    }

    /// Accepts the camelCase names of the contract and their snake_case spellings.
    pub fn parse(text: &str) -> Option<ScoreKind> {
        let text = text.trim();
        ScoreKind::ALL
            .into_iter()
            .find(|kind| kind.as_str() == text || kind.snake_str() == text)
    }
}

/// One row per configuration key of the contract, in its order:
/// `Variant field: type = default, "camelCaseName", bounds;`
/// (the snake_case spelling is the field's name).
macro_rules! settings {
    ($( $key:ident $field:ident: $ty:ty = $default:expr, $name:literal, $bounds:expr; )*) => {
        /// A complete, validated configuration.
        #[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
        #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
        #[serde(rename_all = "camelCase")]
        pub struct Config {
            $( pub $field: $ty, )*
        }

        impl Default for Config {
            fn default() -> Self {
                Config { $( $field: $default, )* }
            }
        }

        /// One configuration key, in the contract's camelCase spelling.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum SettingKey {
            $( $key, )*
            /// Not a contract key: the page's switch "use each trace's recorded options".
            UseTraceOptions,
        }

        impl SettingKey {
            /// Every key, in the contract's order (the order of overrides when listed,
            /// and of the checks when validating).
            pub const ALL: &'static [SettingKey] = &[$( SettingKey::$key, )* SettingKey::UseTraceOptions];

            pub fn name(self) -> &'static str {
                match self {
                    $( SettingKey::$key => $name, )*
                    SettingKey::UseTraceOptions => "useTraceOptions",
                }
            }

            /// The snake_case spelling a `--config` file or `--set` may use.
            pub fn snake_name(self) -> &'static str {
                match self {
                    $( SettingKey::$key => stringify!($field), )*
                    SettingKey::UseTraceOptions => "use_trace_options",
                }
            }

            /// What kind of value the key takes.
            pub fn kind(self) -> SettingKind {
                match self {
                    $( SettingKey::$key => <$ty as SettingType>::KIND, )*
                    SettingKey::UseTraceOptions => SettingKind::Switch,
                }
            }

            /// The range a value must lie in; `None` for a key without one.
            pub fn bounds(self) -> Option<SettingBounds> {
                match self {
                    $( SettingKey::$key => $bounds, )*
                    SettingKey::UseTraceOptions => None,
                }
            }
        }

        /// A partial configuration: the user's overrides, or a trace's recorded `options`.
        ///
        /// Every field may be set directly (the page's sliders do); [`Config::merged`]
        /// validates the result.
        #[derive(Debug, Clone, PartialEq, Serialize)]
        #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
        #[serde(rename_all = "camelCase")]
        pub struct Settings {
            $( pub $field: Option<$ty>, )*
            /// Whether each trace's own `options` sit between the defaults and these settings.
            /// Meaningless on a trace's own options.
            pub use_trace_options: bool,
        }

        impl Default for Settings {
            fn default() -> Self {
                Settings { $( $field: None, )* use_trace_options: true }
            }
        }

        impl Settings {
            /// The value `key` overrides; `useTraceOptions` counts as overridden when off.
            pub fn value(&self, key: SettingKey) -> Option<SettingValue> {
                match key {
                    $( SettingKey::$key => self.$field.map(SettingType::into_value), )*
                    SettingKey::UseTraceOptions => {
                        (!self.use_trace_options).then_some(SettingValue::Switch(false))
                    }
                }
            }

            /// Overrides `key` with `value`; `false` (nothing changes) when the value is
            /// not of the key's kind.
            pub fn put(&mut self, key: SettingKey, value: SettingValue) -> bool {
                match (key, value) {
                    $( (SettingKey::$key, value) => match <$ty as SettingType>::from_value(value) {
                        Some(v) => self.$field = Some(v),
                        None => return false,
                    }, )*
                    (SettingKey::UseTraceOptions, SettingValue::Switch(on)) => self.use_trace_options = on,
                    (SettingKey::UseTraceOptions, _) => return false,
                }
                true
            }

            /// True when no configuration key is set.
            pub fn is_empty(&self) -> bool {
                true $( && self.$field.is_none() )*
            }

            /// Writes into `config` each key whose value here differs from `before`'s.
            /// `false` when one of them is no longer set here: its value then comes
            /// from beneath the settings (a trace's options, the defaults), which
            /// `config` does not tell.
            pub(crate) fn overlay_changes(&self, before: &Settings, config: &mut Config) -> bool {
                $( if self.$field != before.$field {
                    match self.$field {
                        Some(v) => config.$field = v,
                        None => return false,
                    }
                } )*
                true
            }

            fn overlay(&self, config: &mut Config) {
                $( if let Some(v) = self.$field {
                    config.$field = v;
                } )*
            }

            fn set_text(&mut self, key: SettingKey, text: &str) -> Result<(), String> {
                match key {
                    $( SettingKey::$key => self.$field = Some(<$ty as SettingType>::from_text(text)?), )*
                    SettingKey::UseTraceOptions => self.use_trace_options = bool::from_text(text)?,
                }
                Ok(())
            }

            /// Sets one key from a JSON value; `null` must be filtered out by the caller.
            pub(crate) fn set_json(
                &mut self,
                key: SettingKey,
                value: &serde_json::Value,
            ) -> Result<(), SettingValueError> {
                match key {
                    $( SettingKey::$key => self.$field = Some(<$ty as SettingType>::from_json(value)?), )*
                    SettingKey::UseTraceOptions => self.use_trace_options = bool::from_json(value)?,
                }
                Ok(())
            }
        }

        impl Config {
            /// The value of `key`; `None` for `useTraceOptions`, which is not part of it.
            pub fn value(&self, key: SettingKey) -> Option<SettingValue> {
                match key {
                    $( SettingKey::$key => Some(self.$field.into_value()), )*
                    SettingKey::UseTraceOptions => None,
                }
            }

            /// Each key's own bounds, in [`SettingKey::ALL`] order.
            fn check_bounds(&self) -> Result<(), ConfigError> {
                $( if let Some(bounds) = $bounds {
                    self.$field
                        .check(bounds)
                        .map_err(|message| ConfigError::new(Some($name), message))?;
                } )*
                Ok(())
            }
        }
    };
}

settings! {
    MaxL2Distance max_l2_distance: f64 = 1.0, "maxL2Distance", Some(SettingBounds::Positive);
    ReturnN return_n: usize = 5, "returnN", Some(SettingBounds::AtLeastOne);
    MaxChunksPerDocument max_chunks_per_document: usize = 2, "maxChunksPerDocument", Some(SettingBounds::AtLeastOne);
    ExcerptMaxChars excerpt_max_chars: usize = 300, "excerptMaxChars", Some(SettingBounds::AtLeastOne);
    PreciseThreshold precise_threshold: f64 = 0.9, "preciseThreshold", Some(SettingBounds::Unit);
    HighlyRelevantThreshold highly_relevant_threshold: f64 = 0.75, "highlyRelevantThreshold", Some(SettingBounds::Unit);
    ReferenceThreshold reference_threshold: f64 = 0.5, "referenceThreshold", Some(SettingBounds::Unit);
    HybridQuality hybrid_quality: HybridQuality = HybridQuality::Rank, "hybridQuality", None;
    ScoreKind score_kind: ScoreKind = ScoreKind::L2, "scoreKind", None;
    MinQuality min_quality: f64 = 0.0, "minQuality", Some(SettingBounds::Unit);
    RelativeQuality relative_quality: f64 = 0.0, "relativeQuality", Some(SettingBounds::Unit);
    RelevantGrade relevant_grade: usize = 1, "relevantGrade", Some(SettingBounds::AtLeastOne);
}

/// What kind of value a [`SettingKey`] takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SettingKind {
    /// A finite number.
    Number,
    /// An integer >= 1.
    Count,
    /// One of [`HybridQuality::ALL`].
    HybridQuality,
    /// One of [`ScoreKind::ALL`].
    ScoreKind,
    /// `true` or `false`.
    Switch,
}

/// The range a key's value must lie in (contract section 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SettingBounds {
    /// > 0 and finite.
    Positive,
    /// In [0, 1].
    Unit,
    /// An integer >= 1.
    AtLeastOne,
}

/// One key's value, whatever its kind.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SettingValue {
    Number(f64),
    Count(usize),
    HybridQuality(HybridQuality),
    ScoreKind(ScoreKind),
    Switch(bool),
}

impl fmt::Display for SettingValue {
    /// As `--set` and the page's URL write it, and [`Settings::set`] reads it back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SettingValue::Number(v) => write!(f, "{v}"),
            SettingValue::Count(v) => write!(f, "{v}"),
            SettingValue::HybridQuality(v) => f.write_str(v.as_str()),
            SettingValue::ScoreKind(v) => f.write_str(v.as_str()),
            SettingValue::Switch(v) => write!(f, "{v}"),
        }
    }
}

/// A JSON value as a configuration value, or why it cannot be one.
pub(crate) enum SettingValueError {
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

/// How one type of setting is read, written and checked.
trait SettingType: Copy + Sized {
    const KIND: SettingKind;
    /// What a `--config` file must hold, for its error message.
    const EXPECTED: &'static str;
    /// From `--set` text (already trimmed); the error is the message after the key.
    fn from_text(text: &str) -> Result<Self, String>;
    fn from_json(value: &serde_json::Value) -> Result<Self, SettingValueError>;
    fn into_value(self) -> SettingValue;
    fn from_value(value: SettingValue) -> Option<Self>;
    /// Within `bounds`, or the message after the key.
    fn check(self, _bounds: SettingBounds) -> Result<(), String> {
        Ok(())
    }
}

fn number_from_text(text: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .ok_or_else(|| format!("expected a number, got {text:?}"))
}

impl SettingType for f64 {
    const KIND: SettingKind = SettingKind::Number;
    const EXPECTED: &'static str = "a number";
    fn from_text(text: &str) -> Result<Self, String> {
        number_from_text(text)
    }
    fn from_json(value: &serde_json::Value) -> Result<Self, SettingValueError> {
        value
            .as_f64()
            .ok_or(SettingValueError::WrongType(json_type(value)))
    }
    fn into_value(self) -> SettingValue {
        SettingValue::Number(self)
    }
    fn from_value(value: SettingValue) -> Option<Self> {
        match value {
            SettingValue::Number(v) => Some(v),
            _ => None,
        }
    }
    fn check(self, bounds: SettingBounds) -> Result<(), String> {
        match bounds {
            SettingBounds::Positive if !(self.is_finite() && self > 0.0) => {
                Err(format!("must be > 0 and finite, got {self}"))
            }
            SettingBounds::Unit if !(0.0..=1.0).contains(&self) => {
                Err(format!("must be in [0, 1], got {self}"))
            }
            _ => Ok(()),
        }
    }
}

impl SettingType for usize {
    const KIND: SettingKind = SettingKind::Count;
    const EXPECTED: &'static str = "an integer >= 1";
    fn from_text(text: &str) -> Result<Self, String> {
        let value = number_from_text(text)?;
        // u32::MAX bounds the value so it fits every platform's usize, wasm32 included.
        if value.fract() == 0.0 && value >= 1.0 && value <= f64::from(u32::MAX) {
            Ok(value as usize)
        } else {
            Err(format!("must be an integer >= 1, got {value}"))
        }
    }
    fn from_json(value: &serde_json::Value) -> Result<Self, SettingValueError> {
        // Only a JSON integer is a count; 2.5 or 2.0 are numbers of the wrong kind.
        match value {
            serde_json::Value::Number(n) => match n.as_u64() {
                Some(v) if v >= 1 && v <= u64::from(u32::MAX) => Ok(v as usize),
                _ => Err(SettingValueError::Invalid(format!(
                    "must be an integer >= 1, got {n}"
                ))),
            },
            other => Err(SettingValueError::WrongType(json_type(other))),
        }
    }
    fn into_value(self) -> SettingValue {
        SettingValue::Count(self)
    }
    fn from_value(value: SettingValue) -> Option<Self> {
        match value {
            SettingValue::Count(v) => Some(v),
            _ => None,
        }
    }
    fn check(self, bounds: SettingBounds) -> Result<(), String> {
        match bounds {
            SettingBounds::AtLeastOne if self < 1 => {
                Err(format!("must be an integer >= 1, got {self}"))
            }
            _ => Ok(()),
        }
    }
}

fn hybrid_quality_message(text: &str) -> String {
    format!("expected rank, denseWhenPresent or maxRankDense, got {text:?}")
}

impl SettingType for HybridQuality {
    const KIND: SettingKind = SettingKind::HybridQuality;
    const EXPECTED: &'static str = "a string";
    fn from_text(text: &str) -> Result<Self, String> {
        HybridQuality::parse(text).ok_or_else(|| hybrid_quality_message(text))
    }
    fn from_json(value: &serde_json::Value) -> Result<Self, SettingValueError> {
        match value {
            serde_json::Value::String(s) => HybridQuality::parse(s)
                .ok_or_else(|| SettingValueError::Invalid(hybrid_quality_message(s))),
            other => Err(SettingValueError::WrongType(json_type(other))),
        }
    }
    fn into_value(self) -> SettingValue {
        SettingValue::HybridQuality(self)
    }
    fn from_value(value: SettingValue) -> Option<Self> {
        match value {
            SettingValue::HybridQuality(v) => Some(v),
            _ => None,
        }
    }
}

fn score_kind_message(text: &str) -> String {
    let names: Vec<&str> = ScoreKind::ALL.iter().map(|k| k.as_str()).collect();
    format!("expected one of {}, got {text:?}", names.join(", "))
}

impl SettingType for ScoreKind {
    const KIND: SettingKind = SettingKind::ScoreKind;
    const EXPECTED: &'static str = "a string";
    fn from_text(text: &str) -> Result<Self, String> {
        ScoreKind::parse(text).ok_or_else(|| score_kind_message(text))
    }
    fn from_json(value: &serde_json::Value) -> Result<Self, SettingValueError> {
        match value {
            serde_json::Value::String(s) => {
                ScoreKind::parse(s).ok_or_else(|| SettingValueError::Invalid(score_kind_message(s)))
            }
            other => Err(SettingValueError::WrongType(json_type(other))),
        }
    }
    fn into_value(self) -> SettingValue {
        SettingValue::ScoreKind(self)
    }
    fn from_value(value: SettingValue) -> Option<Self> {
        match value {
            SettingValue::ScoreKind(v) => Some(v),
            _ => None,
        }
    }
}

impl SettingType for bool {
    const KIND: SettingKind = SettingKind::Switch;
    const EXPECTED: &'static str = "a boolean";
    fn from_text(text: &str) -> Result<Self, String> {
        match text {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(format!("expected true or false, got {text:?}")),
        }
    }
    fn from_json(value: &serde_json::Value) -> Result<Self, SettingValueError> {
        match value {
            serde_json::Value::Bool(b) => Ok(*b),
            other => Err(SettingValueError::WrongType(json_type(other))),
        }
    }
    fn into_value(self) -> SettingValue {
        SettingValue::Switch(self)
    }
    fn from_value(value: SettingValue) -> Option<Self> {
        match value {
            SettingValue::Switch(v) => Some(v),
            _ => None,
        }
    }
}

impl SettingKind {
    fn expected(self) -> &'static str {
        match self {
            SettingKind::Number => f64::EXPECTED,
            SettingKind::Count => usize::EXPECTED,
            SettingKind::HybridQuality => HybridQuality::EXPECTED,
            SettingKind::ScoreKind => ScoreKind::EXPECTED,
            SettingKind::Switch => bool::EXPECTED,
        }
    }
}

impl SettingKey {
    /// Both spellings of every key; anything else is unknown.
    pub fn parse(name: &str) -> Option<SettingKey> {
        let name = name.trim();
        SettingKey::ALL
            .iter()
            .copied()
            .find(|key| key.name() == name || key.snake_name() == name)
    }
}

/// An invalid setting, naming the key (camelCase) when there is one.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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

impl Settings {
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
            let key = SettingKey::parse(name)
                .ok_or_else(|| ConfigError::new(Some(name), "unknown configuration key"))?;
            if value.is_null() {
                continue;
            }
            match settings.set_json(key, value) {
                Ok(()) => {}
                Err(SettingValueError::WrongType(found)) => {
                    return Err(ConfigError::new(
                        Some(key.name()),
                        format!("expected {}, got {found}", key.kind().expected()),
                    ))
                }
                Err(SettingValueError::Invalid(message)) => {
                    return Err(ConfigError::new(Some(key.name()), message))
                }
            }
        }
        Ok(settings)
    }

    /// Applies one `--set key=value` (key in camelCase or snake_case).
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), ConfigError> {
        let parsed = SettingKey::parse(key)
            .ok_or_else(|| ConfigError::new(Some(key), "unknown configuration key"))?;
        self.set_text(parsed, value.trim())
            .map_err(|message| ConfigError::new(Some(parsed.name()), message))
    }

    /// The keys these settings override, in [`SettingKey::ALL`] order, with their values
    /// (written as [`Settings::set`] reads them back).
    pub fn overrides(&self) -> impl Iterator<Item = (SettingKey, SettingValue)> + '_ {
        SettingKey::ALL
            .iter()
            .filter_map(|&key| self.value(key).map(|value| (key, value)))
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

    /// Each key within its bounds, then the thresholds in order.
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.check_bounds()?;
        if self.precise_threshold < self.highly_relevant_threshold {
            return Err(ConfigError::new(
                Some(SettingKey::PreciseThreshold.name()),
                format!(
                    "must be >= highlyRelevantThreshold ({} < {})",
                    self.precise_threshold, self.highly_relevant_threshold
                ),
            ));
        }
        if self.highly_relevant_threshold < self.reference_threshold {
            return Err(ConfigError::new(
                Some(SettingKey::HighlyRelevantThreshold.name()),
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

    /// Every key reads back what it lists, in both spellings, and `put`/`value` agree.
    #[test]
    fn every_key_round_trips_through_its_text() {
        let settings = Settings {
            max_l2_distance: Some(0.6),
            return_n: Some(3),
            max_chunks_per_document: Some(1),
            excerpt_max_chars: Some(40),
            precise_threshold: Some(0.95),
            highly_relevant_threshold: Some(0.7),
            reference_threshold: Some(0.25),
            hybrid_quality: Some(HybridQuality::DenseWhenPresent),
            score_kind: Some(ScoreKind::NegativeInnerProduct),
            min_quality: Some(0.2),
            relative_quality: Some(0.5),
            relevant_grade: Some(2),
            use_trace_options: false,
        };
        let listed: Vec<(SettingKey, SettingValue)> = settings.overrides().collect();
        assert_eq!(listed.len(), SettingKey::ALL.len());
        let mut camel = Settings::default();
        let mut snake = Settings::default();
        let mut put = Settings::default();
        for (key, value) in listed {
            camel.set(key.name(), &value.to_string()).unwrap();
            snake.set(key.snake_name(), &value.to_string()).unwrap();
            assert!(put.put(key, value));
            assert_eq!(SettingKey::parse(key.snake_name()), Some(key));
        }
        assert_eq!(camel, settings);
        assert_eq!(snake, settings);
        assert_eq!(put, settings);
        assert_eq!(Settings::default().overrides().count(), 0);
        assert!(!put.put(SettingKey::ReturnN, SettingValue::Number(2.0)));
        assert_eq!(
            Config::default().value(SettingKey::ExcerptMaxChars),
            Some(SettingValue::Count(300))
        );
        assert_eq!(Config::default().value(SettingKey::UseTraceOptions), None);
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
