//! Turning a model's free-text answer into decisions.
//!
//! Models are asked for "reasoning, then a JSON array of decisions", and they answer in every
//! variation of that: a fenced ```json block, `<decision>` tags, prose with stray brackets,
//! numbers as strings, `"10x"`-free but `"10"` leverage. We accept the first JSON array of
//! objects in the text, and convert each object field by field so that one bad decision is
//! rejected with its reason while its neighbours still count. Nothing in here panics on any
//! input: the answer comes from outside.

use std::str::FromStr;

use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;
use serde_json::{Map, Value};

use super::{Decision, DecisionAction};

/// Answers longer than this are refused instead of scanned; a real answer is a few KiB.
const MAX_ANSWER_BYTES: usize = 512 * 1024;

#[derive(Debug, Clone, PartialEq)]
pub struct ModelAnswer {
    /// The prose before the decision array (tags and fences stripped).
    pub reasoning: String,
    pub decisions: Vec<Decision>,
    /// Objects that were in the array but are not valid decisions, with the reason.
    pub rejected: Vec<RejectedDecision>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RejectedDecision {
    pub index: usize,
    pub raw: Value,
    pub error: DecisionParseError,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecisionParseError {
    #[error("the model answer is empty")]
    Empty,
    #[error("the model answer is {0} bytes, over the {MAX_ANSWER_BYTES}-byte limit")]
    TooLarge(usize),
    #[error(
        "the model answer holds no JSON array of decisions; it must end with e.g. \
         [{{\"symbol\":\"BTCUSDT\",\"action\":\"wait\"}}]"
    )]
    NoDecisionArray,
    #[error("decision {index}: field `{field}` {problem}")]
    Field {
        index: usize,
        field: &'static str,
        problem: String,
    },
}

pub fn parse_model_answer(raw: &str) -> Result<ModelAnswer, DecisionParseError> {
    if raw.trim().is_empty() {
        return Err(DecisionParseError::Empty);
    }
    if raw.len() > MAX_ANSWER_BYTES {
        return Err(DecisionParseError::TooLarge(raw.len()));
    }
    let (start, items) = first_object_array(raw).ok_or(DecisionParseError::NoDecisionArray)?;
    let mut answer = ModelAnswer {
        reasoning: clean_reasoning(&raw[..start]),
        decisions: Vec::new(),
        rejected: Vec::new(),
    };
    for (index, item) in items.into_iter().enumerate() {
        match decision_from_value(index, &item) {
            Ok(decision) => answer.decisions.push(decision),
            Err(error) => answer.rejected.push(RejectedDecision {
                index,
                raw: item,
                error,
            }),
        }
    }
    Ok(answer)
}

/// The byte offset and elements of the first `[...]` that parses as an array of objects.
/// Arrays of numbers in the prose ("EMA [20, 50]") are skipped.
fn first_object_array(text: &str) -> Option<(usize, Vec<Value>)> {
    text.match_indices('[').find_map(|(start, _)| {
        let mut stream = serde_json::Deserializer::from_str(&text[start..]).into_iter::<Value>();
        match stream.next() {
            Some(Ok(Value::Array(items))) if items.iter().all(Value::is_object) => {
                Some((start, items))
            }
            _ => None,
        }
    })
}

fn clean_reasoning(prefix: &str) -> String {
    let mut text = prefix.trim_end();
    for suffix in ["```json", "```JSON", "```", "<decision>"] {
        text = text.strip_suffix(suffix).unwrap_or(text).trim_end();
    }
    text.replace("<reasoning>", "")
        .replace("</reasoning>", "")
        .trim()
        .to_string()
}

fn decision_from_value(index: usize, value: &Value) -> Result<Decision, DecisionParseError> {
    let fields = Fields {
        index,
        map: value
            .as_object()
            .ok_or(DecisionParseError::NoDecisionArray)?,
    };
    Ok(Decision {
        symbol: fields.symbol()?,
        action: fields.action()?,
        leverage: fields.whole("leverage", 1, 1_000)?,
        position_size_usd: fields.decimal("position_size_usd")?,
        stop_loss: fields.decimal("stop_loss")?,
        take_profit: fields.decimal("take_profit")?,
        confidence: fields.whole("confidence", 0, 100)?,
        risk_usd: fields.decimal("risk_usd")?,
        reasoning: fields.text("reasoning"),
    })
}

struct Fields<'a> {
    index: usize,
    map: &'a Map<String, Value>,
}

impl Fields<'_> {
    fn error(&self, field: &'static str, problem: impl Into<String>) -> DecisionParseError {
        DecisionParseError::Field {
            index: self.index,
            field,
            problem: problem.into(),
        }
    }

    /// Present and not null; models write `null` for "not applicable".
    fn get(&self, field: &str) -> Option<&Value> {
        self.map.get(field).filter(|v| !v.is_null())
    }

    fn symbol(&self) -> Result<String, DecisionParseError> {
        let symbol = self
            .get("symbol")
            .and_then(Value::as_str)
            .map(str::trim)
            .unwrap_or("");
        if symbol.is_empty() {
            return Err(self.error("symbol", "is missing; give the symbol, e.g. \"BTCUSDT\""));
        }
        Ok(symbol.to_ascii_uppercase())
    }

    fn action(&self) -> Result<DecisionAction, DecisionParseError> {
        let given = self
            .get("action")
            .and_then(Value::as_str)
            .map(str::trim)
            .unwrap_or("");
        DecisionAction::ALL
            .into_iter()
            .find(|a| a.as_str().eq_ignore_ascii_case(given))
            .ok_or_else(|| {
                self.error(
                    "action",
                    format!(
                        "is {given:?}; use one of open_long, open_short, close_long, \
                         close_short, hold, wait"
                    ),
                )
            })
    }

    fn decimal(&self, field: &'static str) -> Result<Option<Decimal>, DecisionParseError> {
        let Some(value) = self.get(field) else {
            return Ok(None);
        };
        let text = match value {
            // Number's Display is the shortest round-trip form, so 0.1 stays 0.1.
            Value::Number(n) => n.to_string(),
            Value::String(s) => s.trim().to_string(),
            _ => return Err(self.error(field, format!("is {value}, not a number"))),
        };
        Decimal::from_str(&text)
            .or_else(|_| Decimal::from_scientific(&text))
            .map(Some)
            .map_err(|_| self.error(field, format!("is {text:?}, not a decimal number")))
    }

    fn whole(
        &self,
        field: &'static str,
        min: u32,
        max: u32,
    ) -> Result<Option<u32>, DecisionParseError> {
        let Some(number) = self.decimal(field)? else {
            return Ok(None);
        };
        match number.round().to_u32().filter(|n| (min..=max).contains(n)) {
            Some(n) => Ok(Some(n)),
            None => Err(self.error(
                field,
                format!("is {number}; it must be a whole number {min}–{max}"),
            )),
        }
    }

    fn text(&self, field: &str) -> String {
        self.get(field)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .trim()
            .to_string()
    }
}
