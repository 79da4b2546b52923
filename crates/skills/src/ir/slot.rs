//! Slots: the values an action needs, with the rules that make a value acceptable.

use serde::{Deserialize, Serialize};

use super::ResourceKind;
use crate::text::Text;

/// What kind of value a slot holds. A `type:` outside this list is a lint error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SlotType {
    String,
    Integer,
    /// A decimal number (money, ratios); kept exact, never through f64 in storage.
    Decimal,
    Boolean,
    /// One of `values`.
    Enum,
    /// A candle interval (`1m` … `1w`), as `nofxi_domain::Interval` spells it.
    Interval,
    /// A market symbol (`BTCUSDT`, `NVDA.US`); upper-cased before checking.
    Symbol,
    /// A credential: never echoed, masked everywhere (`sk-…a1b2`).
    Secret,
    /// A URL; https, or http on loopback for local models.
    Url,
    /// A reference to an existing resource by id, name or alias; `ref:` says which kind.
    Ref,
    /// A security as the user names it (成都银行, Tencent, 600519, AAPL.US); the tool resolves
    /// it by the portfolio's confidence ladder and asks between close candidates.
    Instrument,
    /// A calendar day: `YYYY-MM-DD`, or one of `values` (today, yesterday), said in words.
    Date,
}

impl SlotType {
    pub fn as_str(self) -> &'static str {
        match self {
            SlotType::String => "string",
            SlotType::Integer => "integer",
            SlotType::Decimal => "decimal",
            SlotType::Boolean => "boolean",
            SlotType::Enum => "enum",
            SlotType::Interval => "interval",
            SlotType::Symbol => "symbol",
            SlotType::Secret => "secret",
            SlotType::Url => "url",
            SlotType::Ref => "ref",
            SlotType::Instrument => "instrument",
            SlotType::Date => "date",
        }
    }
}

/// The unit a number is said in; the rule router reads "10倍", "every 5 minutes", "100u" by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    Minutes,
    Usdt,
    /// Leverage multiple: 10x, 10倍.
    Times,
    Percent,
    Count,
}

/// An allowed value of an enum slot and the words users say for it (币安 → binance).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnumValue {
    pub value: String,
    #[serde(default)]
    pub aliases: Vec<String>,
    #[serde(default)]
    pub label: Option<Text>,
}

/// A condition on another slot of the same task. Exactly one of `in`, `equals`, `is_set`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Condition {
    pub slot: String,
    /// The slot's value is one of these.
    #[serde(default, rename = "in", skip_serializing_if = "Option::is_none")]
    pub one_of: Option<Vec<serde_json::Value>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub equals: Option<serde_json::Value>,
    /// The slot has (true) or has not (false) been given a value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_set: Option<bool>,
}

impl Condition {
    /// Evaluate against the task's current slot values.
    pub fn holds(&self, slots: &serde_json::Map<String, serde_json::Value>) -> bool {
        let value = slots.get(&self.slot).filter(|v| !v.is_null());
        if let Some(want) = self.is_set {
            return value.is_some() == want;
        }
        let Some(value) = value else {
            return false;
        };
        if let Some(want) = &self.equals {
            return loosely_equal(value, want);
        }
        if let Some(options) = &self.one_of {
            return options.iter().any(|o| loosely_equal(value, o));
        }
        false
    }
}

/// A question asked for a slot when a condition on the other slots holds.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AskWhen {
    pub when: Condition,
    pub ask: Text,
}

/// `true` equals `"true"`, `5` equals `"5"`: YAML authors and users are not type-precise.
pub(crate) fn loosely_equal(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    fn key(v: &serde_json::Value) -> String {
        match v {
            serde_json::Value::String(s) => s.to_lowercase(),
            other => other.to_string(),
        }
    }
    a == b || key(a) == key(b)
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Slot {
    pub name: String,
    #[serde(rename = "type")]
    pub ty: SlotType,
    /// For `type: ref`: which resource the value names.
    #[serde(default, rename = "ref", skip_serializing_if = "Option::is_none")]
    pub ref_kind: Option<ResourceKind>,
    /// The value is a list of `type` (e.g. a strategy's static coins).
    #[serde(default)]
    pub list: bool,
    #[serde(default)]
    pub description: Option<Text>,
    /// Always required.
    #[serde(default)]
    pub required: bool,
    /// Required only when this holds (credentials per exchange type).
    #[serde(default)]
    pub required_when: Option<Condition>,
    /// Proposed when asking, used when the user accepts defaults.
    #[serde(default)]
    pub default: Option<serde_json::Value>,
    #[serde(default)]
    pub min: Option<f64>,
    #[serde(default)]
    pub max: Option<f64>,
    /// Out-of-range numbers are moved to the nearest bound and the change is reported,
    /// instead of being rejected.
    #[serde(default)]
    pub clamp: bool,
    #[serde(default)]
    pub pattern: Option<String>,
    #[serde(default)]
    pub values: Vec<EnumValue>,
    /// Words that name this slot in a message (杠杆, leverage, 扫描间隔, every).
    #[serde(default)]
    pub phrases: Vec<String>,
    #[serde(default)]
    pub unit: Option<Unit>,
    /// Secret values are masked everywhere; `type: secret` implies it.
    #[serde(default)]
    pub secret: bool,
    /// Free text (a description, prompt instructions): the value is everything after the
    /// phrase, spaces and commas included, not one word.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub text: bool,
    /// A number that no phrase claims fills the first positional slot still empty, in the
    /// order the slots are declared: "bought 10 AAPL at 190" is a quantity, then a price.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub positional: bool,
    /// The question asked when the slot is missing.
    #[serde(default)]
    pub ask: Option<Text>,
    /// Questions asked instead of `ask` when their condition holds: a Hyperliquid "API key"
    /// is an agent-wallet private key, a Binance one is not, and a Binance user must not be
    /// told about Hyperliquid.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ask_when: Vec<AskWhen>,
    #[serde(skip)]
    pub(crate) compiled_pattern: Option<regex::Regex>,
    /// The skill's `labels` entry for this slot, set when the skill is checked.
    #[serde(skip)]
    pub(crate) label: Option<Text>,
}

impl Slot {
    /// What the slot is called in a reply: its label, or its name with spaces for a skill
    /// without labels (a user's own skill; the built-in ones label every slot, a test says so).
    pub fn label(&self) -> Text {
        self.label.clone().unwrap_or_else(|| {
            let spaced = self.name.replace('_', " ");
            Text::new(spaced.clone(), spaced)
        })
    }

    /// The question for this slot given the other slots' values: the first `ask_when` whose
    /// condition holds, else `ask`.
    pub fn question(&self, slots: &serde_json::Map<String, serde_json::Value>) -> Option<&Text> {
        self.ask_when
            .iter()
            .find(|a| a.when.holds(slots))
            .map(|a| &a.ask)
            .or(self.ask.as_ref())
    }

    pub fn is_secret(&self) -> bool {
        self.secret || self.ty == SlotType::Secret
    }

    /// Required given the other slots' current values.
    pub fn is_required(&self, slots: &serde_json::Map<String, serde_json::Value>) -> bool {
        self.required || self.required_when.as_ref().is_some_and(|c| c.holds(slots))
    }

    pub fn compiled_pattern(&self) -> Option<&regex::Regex> {
        self.compiled_pattern.as_ref()
    }

    /// The canonical enum value for what a user wrote: the value itself or one of its aliases,
    /// case-insensitively (币安 → binance, DeepSeek → deepseek).
    pub fn canonical_value(&self, said: &str) -> Option<&str> {
        let said = said.trim().to_lowercase();
        self.values
            .iter()
            .find(|v| {
                v.value.to_lowercase() == said || v.aliases.iter().any(|a| a.to_lowercase() == said)
            })
            .map(|v| v.value.as_str())
    }
}
