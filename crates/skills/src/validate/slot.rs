//! Slot rules: one value against one slot, and a task's values against an action.

use std::str::FromStr;

use serde_json::{Map, Number, Value};

use super::{Adjustment, ArgError, InvalidArguments, Validated, show};
use crate::ir::{Action, Slot, SlotType};

/// The candle intervals nofxi knows: `nofxi_domain::Interval`'s, the one list (a slot narrows
/// them with `values:`; the market-data skill's `get_kline` schema lists the same, checked by
/// a test).
pub const INTERVALS: &[&str] = &nofxi_domain::Interval::NAMES;

/// Words said instead of an answer ("later", "稍后"): no secret, not even a made-up one.
const FILLERS: &[&str] = &[
    "later",
    "wait",
    "tomorrow",
    "skip",
    "not now",
    "no",
    "none",
    "n/a",
    "idk",
    "dunno",
    "稍后",
    "等等",
    "等一下",
    "明天",
    "跳过",
    "没有",
    "不知道",
    "待会",
];

/// Whether `value` is a word said instead of an answer ("later", "稍后"), not a secret.
pub fn is_filler(value: &str) -> bool {
    FILLERS.contains(&value.trim().to_lowercase().as_str())
}

/// Whether a value can be a generated credential (API key, secret, private key): one word
/// of 8+ characters with a digit, mixed case or a `-`/`_`, or 16+ characters. "later",
/// "wait" or "tomorrow" said while a key is asked are no key, and storing them would make a
/// broken account that fails only when it trades.
fn key_shaped(value: &str) -> bool {
    let n = value.chars().count();
    let has_digit = value.chars().any(|c| c.is_ascii_digit());
    let mixed = value.chars().any(|c| c.is_ascii_uppercase())
        && value.chars().any(|c| c.is_ascii_lowercase());
    let joined = value.contains(['-', '_']);
    !value.contains(char::is_whitespace) && (n >= 16 || (n >= 8 && (has_digit || mixed || joined)))
}

impl Slot {
    /// Secrets the user makes up (passphrases, passwords) have no shape to check.
    fn chosen_by_user(&self) -> bool {
        ["passphrase", "password"]
            .iter()
            .any(|w| self.name.contains(w))
    }

    /// Check and normalize one value: canonical enum value (aliases resolved), upper-cased
    /// symbol, numbers parsed from text, clamped numbers (reported), lists item by item.
    pub fn check_value(&self, value: &Value) -> Result<(Value, Option<Adjustment>), ArgError> {
        if self.list {
            let items: Vec<Value> = match value {
                Value::Array(items) => items.clone(),
                Value::String(s) => s
                    .split([',', '，', '、', ' '])
                    .filter(|p| !p.trim().is_empty())
                    .map(|p| Value::String(p.trim().to_string()))
                    .collect(),
                other => return Err(ArgError::wrong_type(&self.name, other, "list")),
            };
            let mut out = Vec::with_capacity(items.len());
            for item in &items {
                out.push(self.check_scalar(item)?.0);
            }
            return Ok((Value::Array(out), None));
        }
        self.check_scalar(value)
    }

    fn check_scalar(&self, value: &Value) -> Result<(Value, Option<Adjustment>), ArgError> {
        let name = self.name.as_str();
        let text = || -> Result<String, ArgError> {
            match value {
                Value::String(s) => Ok(s.trim().to_string()),
                Value::Number(n) => Ok(n.to_string()),
                other => Err(ArgError::wrong_type(name, other, "string")),
            }
        };
        let normalized = match self.ty {
            SlotType::String | SlotType::Secret | SlotType::Instrument => {
                let s = text()?;
                if s.is_empty() {
                    return Err(ArgError::invalid(
                        name,
                        format!("「{name}」不能为空"),
                        format!("`{name}` must not be empty"),
                    ));
                }
                let filler = is_filler(&s);
                if self.ty == SlotType::Secret
                    && (filler || !self.chosen_by_user() && !key_shaped(&s))
                {
                    // Never the value itself: it may be a secret after all.
                    return Err(ArgError::invalid(
                        name,
                        format!(
                            "这不像是「{}」：交易所和模型的密钥是一长串字母和数字。请直接粘贴它，或者说“取消”。",
                            self.label().get(crate::Lang::Zh)
                        ),
                        format!(
                            "That does not look like the {}: exchange and model keys are long strings of letters and digits. Paste it as it is, or say cancel.",
                            self.label().get(crate::Lang::En)
                        ),
                    ));
                }
                Value::String(s)
            }
            SlotType::Ref => match value {
                Value::Number(n) => Value::String(n.to_string()),
                _ => Value::String(text()?),
            },
            SlotType::Symbol => Value::String(text()?.to_uppercase()),
            SlotType::Date => {
                let s = text()?;
                let word = self.canonical_value(&s).map(str::to_string);
                match word.or_else(|| iso_date(&s)) {
                    Some(day) => Value::String(day),
                    None => {
                        return Err(ArgError::invalid(
                            name,
                            format!("「{s}」不是日期：请写成 YYYY-MM-DD，或说“今天”“昨天”"),
                            format!(
                                "`{s}` is not a date: write it as YYYY-MM-DD, or say today or yesterday"
                            ),
                        ));
                    }
                }
            }
            SlotType::Boolean => Value::Bool(
                parse_bool(value).ok_or_else(|| ArgError::wrong_type(name, value, "boolean"))?,
            ),
            SlotType::Enum => {
                let s = text()?;
                match self.canonical_value(&s) {
                    Some(v) => Value::String(v.to_string()),
                    None => {
                        return Err(ArgError::not_allowed(
                            name,
                            value,
                            self.values.iter().map(|v| v.value.clone()).collect(),
                        ));
                    }
                }
            }
            SlotType::Interval => {
                let s = text()?;
                let allowed: Vec<String> = if self.values.is_empty() {
                    INTERVALS.iter().map(|i| (*i).to_string()).collect()
                } else {
                    self.values.iter().map(|v| v.value.clone()).collect()
                };
                match allowed.iter().find(|a| **a == s) {
                    Some(i) => Value::String(i.clone()),
                    None => return Err(ArgError::not_allowed(name, value, allowed)),
                }
            }
            SlotType::Url => {
                let s = text()?;
                // The rule every entry point shares; its message never repeats a URL that
                // carries credentials.
                if let Some(problem) = nofxi_domain::base_url::check_base_url(&s) {
                    let problem = nofxi_domain::FieldProblem::new(name, problem);
                    return Err(ArgError::invalid(name, problem.to_zh(), problem.fix()));
                }
                Value::String(s)
            }
            SlotType::Integer | SlotType::Decimal => return self.check_number(value),
        };
        if let (Some(re), Value::String(s)) = (self.compiled_pattern(), &normalized)
            && !re.is_match(s)
        {
            let hint = self.default.as_ref().map(show);
            return Err(ArgError::pattern(name, s, re.as_str(), hint.as_deref()));
        }
        Ok((normalized, None))
    }

    fn check_number(&self, value: &Value) -> Result<(Value, Option<Adjustment>), ArgError> {
        let name = self.name.as_str();
        let integer = self.ty == SlotType::Integer;
        let expected = if integer { "integer" } else { "decimal" };
        let parsed: f64 = match value {
            Value::Number(n) => n
                .as_f64()
                .ok_or_else(|| ArgError::wrong_type(name, value, expected))?,
            Value::String(s) => s
                .trim()
                .parse::<f64>()
                .map_err(|_| ArgError::wrong_type(name, value, expected))?,
            other => return Err(ArgError::wrong_type(name, other, expected)),
        };
        if !parsed.is_finite() || (integer && parsed.fract() != 0.0) {
            return Err(ArgError::wrong_type(name, value, expected));
        }
        let below = self.min.is_some_and(|m| parsed < m);
        let above = self.max.is_some_and(|m| parsed > m);
        let to_json = |n: f64| -> Value {
            if integer || (n.fract() == 0.0 && n.abs() < 1e15) {
                Value::Number(Number::from(n as i64))
            } else {
                // Keep the user's exact decimal text when there is one.
                match value {
                    Value::String(s) => Number::from_str(s.trim())
                        .map(Value::Number)
                        .unwrap_or(Value::Null),
                    Value::Number(n) => Value::Number(n.clone()),
                    _ => Value::Null,
                }
            }
        };
        if below || above {
            if !self.clamp {
                return Err(ArgError::out_of_range(
                    name,
                    &self.label(),
                    value,
                    self.min,
                    self.max,
                ));
            }
            let bound = if below { self.min } else { self.max };
            let to = to_json(bound.unwrap_or(parsed));
            let from = to_json(parsed);
            let label = self.label();
            let adj = Adjustment::clamped(name, &label, from, to.clone(), self.min, self.max);
            return Ok((to, Some(adj)));
        }
        Ok((to_json(parsed), None))
    }
}

fn parse_bool(value: &Value) -> Option<bool> {
    match value {
        Value::Bool(b) => Some(*b),
        Value::String(s) => match s.trim().to_lowercase().as_str() {
            "true" | "yes" | "y" | "on" | "是" | "开" | "开启" | "启用" | "要" => Some(true),
            "false" | "no" | "n" | "off" | "否" | "关" | "关闭" | "停用" | "不要" => {
                Some(false)
            }
            _ => None,
        },
        _ => None,
    }
}

/// REFERENCE §1: a custom base URL must be https, except loopback (local models). A trailing
/// `#` ("use the URL as is") is allowed.
impl Action {
    /// Required slots that have no value yet, given the values so far (`required_when` is
    /// evaluated against them): what the engine asks for, all in one message.
    pub fn missing_slots(&self, slots: &Map<String, Value>) -> Vec<&Slot> {
        self.slots
            .iter()
            .filter(|s| s.is_required(slots) && slots.get(&s.name).is_none_or(Value::is_null))
            .collect()
    }

    /// Check a complete set of slot values before the steps run: unknown names, every value's
    /// rules, and required slots. Clamped values come back as adjustments.
    pub fn validate_args(&self, slots: &Map<String, Value>) -> Result<Validated, InvalidArguments> {
        let mut errors = Vec::new();
        let mut out = Validated::default();
        for (name, value) in slots {
            if value.is_null() {
                continue;
            }
            let Some(slot) = self.slot(name) else {
                errors.push(ArgError::unknown(
                    name,
                    self.slots.iter().map(|s| s.name.clone()).collect(),
                ));
                continue;
            };
            match slot.check_value(value) {
                Ok((v, adj)) => {
                    out.args.insert(name.clone(), v);
                    out.adjustments.extend(adj);
                }
                Err(e) => errors.push(e),
            }
        }
        for slot in self.missing_slots(&out.args) {
            if slots.get(&slot.name).is_none_or(|v| v.is_null()) {
                errors.push(ArgError::missing(&slot.name));
            }
        }
        if errors.is_empty() {
            Ok(out)
        } else {
            Err(InvalidArguments { errors })
        }
    }
}

/// `2026-03-05`, `2026/3/5`, `2026年3月5日` as `2026-03-05`, when it is a real day.
fn iso_date(text: &str) -> Option<String> {
    let parts: Vec<&str> = text
        .trim_end_matches('日')
        .split(['-', '/', '年', '月'])
        .collect();
    let [y, m, d] = parts.as_slice() else {
        return None;
    };
    let (y, m, d): (i16, i8, i8) = (y.parse().ok()?, m.parse().ok()?, d.parse().ok()?);
    jiff::civil::Date::new(y, m, d)
        .ok()
        .map(|day| day.to_string())
}
