//! Runtime argument validation: a tool call's arguments against a function's JSON Schema, or a
//! task's slot values against an action's slot rules (pattern, enum, min/max, clamp, required).
//! Every rejection carries a message in Chinese and English that tells the user what to change;
//! every clamp is reported as an `Adjustment` so the reply can say what was changed and why.

mod schema;
mod slot;

pub use slot::{INTERVALS, is_filler};

use serde::Serialize;
use serde_json::{Map, Value};

use crate::text::{Lang, Text};

/// Why one argument was not accepted.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Problem {
    Missing,
    Unknown { expected: Vec<String> },
    WrongType { expected: String },
    Pattern { pattern: String },
    NotAllowed { allowed: Vec<String> },
    OutOfRange { min: Option<f64>, max: Option<f64> },
    Invalid { reason: String },
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ArgError {
    pub field: String,
    pub problem: Problem,
    pub message: Text,
}

/// A value that was accepted after being changed (clamped into range).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Adjustment {
    pub field: String,
    pub from: Value,
    pub to: Value,
    pub message: Text,
}

/// Arguments that passed: normalized values (canonical enum values, upper-cased symbols,
/// clamped numbers, schema defaults filled) and what was adjusted on the way.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Validated {
    pub args: Map<String, Value>,
    pub adjustments: Vec<Adjustment>,
}

/// One or more arguments were rejected; nothing may be sent.
#[derive(Debug, Clone, PartialEq, Serialize, thiserror::Error)]
#[error("{}", self.message(Lang::En))]
pub struct InvalidArguments {
    pub errors: Vec<ArgError>,
}

impl InvalidArguments {
    /// All problems in one message, in the user's language.
    pub fn message(&self, lang: Lang) -> String {
        let sep = match lang {
            Lang::Zh => "；",
            Lang::En => "; ",
        };
        self.errors
            .iter()
            .map(|e| e.message.get(lang).to_string())
            .collect::<Vec<_>>()
            .join(sep)
    }
}

pub(crate) fn show(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn num(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        format!("{n}")
    }
}

pub(crate) fn range_text(min: Option<f64>, max: Option<f64>) -> String {
    match (min, max) {
        (Some(a), Some(b)) => format!("{}–{}", num(a), num(b)),
        (Some(a), None) => format!("≥ {}", num(a)),
        (None, Some(b)) => format!("≤ {}", num(b)),
        (None, None) => String::new(),
    }
}

impl ArgError {
    pub(crate) fn missing(field: &str) -> ArgError {
        ArgError {
            field: field.into(),
            problem: Problem::Missing,
            message: Text::new(
                format!("缺少必填参数「{field}」"),
                format!("`{field}` is required but missing"),
            ),
        }
    }

    pub(crate) fn unknown(field: &str, expected: Vec<String>) -> ArgError {
        let list = expected.join(", ");
        ArgError {
            field: field.into(),
            message: Text::new(
                format!("不认识的参数「{field}」，可用参数：{list}"),
                format!("unknown argument `{field}`; expected one of: {list}"),
            ),
            problem: Problem::Unknown { expected },
        }
    }

    pub(crate) fn wrong_type(field: &str, value: &Value, expected: &str) -> ArgError {
        let (zh, en) = match expected {
            "integer" => ("整数", "an integer"),
            "number" | "decimal" => ("数字", "a number"),
            "boolean" => ("是/否", "true or false"),
            "array" | "list" => ("列表", "a list"),
            "object" => ("对象", "an object"),
            _ => ("文本", "text"),
        };
        let shown = show(value);
        ArgError {
            field: field.into(),
            problem: Problem::WrongType {
                expected: expected.into(),
            },
            message: Text::new(
                format!("「{field}」应为{zh}，收到 “{shown}”"),
                format!("`{field}` must be {en}, got \"{shown}\""),
            ),
        }
    }

    pub(crate) fn pattern(field: &str, value: &str, pattern: &str, hint: Option<&str>) -> ArgError {
        let (hint_zh, hint_en) = match hint {
            Some(h) => (format!("，例如 {h}"), format!(", e.g. {h}")),
            None => (String::new(), String::new()),
        };
        ArgError {
            field: field.into(),
            problem: Problem::Pattern {
                pattern: pattern.into(),
            },
            message: Text::new(
                format!("「{field}」的值 “{value}” 格式不对：需要匹配 {pattern}{hint_zh}"),
                format!(
                    "`{field}` \"{value}\" does not match the required pattern {pattern}{hint_en}"
                ),
            ),
        }
    }

    pub(crate) fn not_allowed(field: &str, value: &Value, allowed: Vec<String>) -> ArgError {
        let shown = show(value);
        ArgError {
            field: field.into(),
            message: Text::new(
                format!(
                    "「{field}」不支持 “{shown}”，可选值：{}",
                    allowed.join("、")
                ),
                format!(
                    "`{field}` \"{shown}\" is not allowed; choose one of: {}",
                    allowed.join(", ")
                ),
            ),
            problem: Problem::NotAllowed { allowed },
        }
    }

    /// `label` is what the message calls the field: a slot's label for a user, the
    /// identifier for a tool call.
    pub(crate) fn out_of_range(
        field: &str,
        label: &Text,
        value: &Value,
        min: Option<f64>,
        max: Option<f64>,
    ) -> ArgError {
        let shown = show(value);
        let (zh, en) = match (min, max) {
            (Some(a), Some(b)) => (
                format!("在 {}–{} 之间", num(a), num(b)),
                format!("between {} and {}", num(a), num(b)),
            ),
            (Some(a), None) => (format!("不小于 {}", num(a)), format!("at least {}", num(a))),
            (None, Some(b)) => (format!("不大于 {}", num(b)), format!("at most {}", num(b))),
            (None, None) => (String::new(), String::new()),
        };
        ArgError {
            field: field.into(),
            problem: Problem::OutOfRange { min, max },
            message: Text::new(
                format!("「{}」必须{zh}，收到 {shown}", label.zh),
                format!("{} must be {en}, got {shown}", label.en),
            ),
        }
    }

    pub(crate) fn invalid(field: &str, zh: String, en: String) -> ArgError {
        ArgError {
            field: field.into(),
            problem: Problem::Invalid { reason: en.clone() },
            message: Text::new(zh, en),
        }
    }
}

impl Adjustment {
    pub(crate) fn clamped(
        field: &str,
        label: &Text,
        from: Value,
        to: Value,
        min: Option<f64>,
        max: Option<f64>,
    ) -> Adjustment {
        let range = range_text(min, max);
        let (f, t) = (show(&from), show(&to));
        Adjustment {
            field: field.into(),
            message: Text::new(
                format!("{}的值 {f} 超出允许范围 {range}，已调整为 {t}", label.zh),
                format!(
                    "{} {f} is outside the allowed range {range}; adjusted to {t}",
                    label.en
                ),
            ),
            from,
            to,
        }
    }
}
