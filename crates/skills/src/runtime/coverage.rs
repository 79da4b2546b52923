//! Coverage exclusions: a function the data source does not serve for a symbol's asset class
//! is refused before any request, with the skill's own reason.

use serde::Serialize;
use serde_json::{Map, Value};

use crate::ir::DataCoverage;
use crate::text::Text;

/// A call refused up front, and why, in both languages.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Refusal {
    pub function: String,
    pub symbol: String,
    pub asset_class: String,
    pub message: Text,
}

impl DataCoverage {
    /// The asset class of a symbol: the first rule that matches.
    pub fn classify(&self, symbol: &str) -> Option<&str> {
        self.asset_classes
            .iter()
            .find(|r| r.matches(symbol))
            .map(|r| r.class.as_str())
    }
}

pub(super) fn check(
    coverage: &DataCoverage,
    function: &str,
    args: &Map<String, Value>,
) -> Result<(), Refusal> {
    let Some(symbol) = args.get("symbol").and_then(Value::as_str) else {
        return Ok(());
    };
    let Some(class) = coverage.classify(symbol) else {
        return Ok(());
    };
    let excluded = coverage.exclusions.iter().find(|e| {
        e.functions.iter().any(|f| f == function) && e.asset_classes.iter().any(|c| c == class)
    });
    match excluded {
        None => Ok(()),
        Some(e) => {
            let fill = |name: &str| match name {
                "symbol" => Some(symbol.to_string()),
                "function" => Some(function.to_string()),
                "class" => Some(class.to_string()),
                _ => None,
            };
            Err(Refusal {
                function: function.to_string(),
                symbol: symbol.to_string(),
                asset_class: class.to_string(),
                message: Text::new(
                    e.reason.render(crate::text::Lang::Zh, fill),
                    e.reason.render(crate::text::Lang::En, fill),
                ),
            })
        }
    }
}
