//! Tools: the only way the assistant touches the world. Each is `<resource>.<verb>` with the
//! scope it needs and a risk level. Every call passes one pipeline (goose-style inspectors):
//! scope check → confirmation bound to the task → run → redaction of the result.

mod credentials;
mod current;
mod exec;
mod probes;
mod render;
mod stop_all;
mod trader_detail;
mod trader_figures;

use nofxi_skills::Lang;
use serde_json::{Map, Value};

pub use exec::ToolRunner;

/// How much harm a tool can do; `High` never runs without a confirmation bound to its task.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum RiskLevel {
    Read,
    Write,
    High,
}

/// Scope (`trader:write`) and risk of a tool by name; `None` for unknown tools.
pub fn spec(tool: &str) -> Option<(String, RiskLevel)> {
    let (resource, verb) = tool.split_once('.')?;
    if !matches!(resource, "trader" | "exchange" | "model" | "strategy") {
        return None;
    }
    let (access, risk) = match verb {
        "list" | "get" | "status" | "test" => ("read", RiskLevel::Read),
        "create" | "update" | "restore" | "enable" | "disable" | "activate" | "duplicate" => {
            ("write", RiskLevel::Write)
        }
        "delete" => ("write", RiskLevel::High),
        "start" | "stop" | "stop_all" => ("write", RiskLevel::Write),
        _ => return None,
    };
    Some((format!("{resource}:{access}"), risk))
}

pub struct ToolCall<'a> {
    pub tool: &'a str,
    pub args: Map<String, Value>,
    pub user: &'a str,
    pub lang: Lang,
    /// The skill's scopes.
    pub scopes: &'a [String],
    /// The action's rule said this task needs a confirmation.
    pub needs_confirmation: bool,
    /// The summary the user confirmed for this task, if any.
    pub confirmed: Option<&'a str>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct ToolOutput {
    pub resource_id: Option<String>,
    pub resource_name: Option<String>,
    /// Human text (a rendered list or status), already in the user's language.
    pub text: Option<String>,
    /// Listed resources, for "the first one".
    pub listed: Vec<(String, String)>,
    /// Clamped values, said in the reply.
    pub adjustments: Vec<String>,
    /// Said after the success message, already in the user's language ("binance accounts
    /// do not use passphrase; it was left out").
    pub notes: Vec<String>,
    /// Mutated the store (refreshes the name index).
    pub mutated: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ToolError {
    /// A skill failure code (`not_found`, `exchange_disabled`…) or `error`.
    pub code: String,
    pub message: String,
    /// The resource the failure is about (the disabled exchange's name).
    pub resource: Option<String>,
}

impl ToolError {
    pub fn new(code: &str, message: impl Into<String>) -> ToolError {
        ToolError {
            code: code.into(),
            message: message.into(),
            resource: None,
        }
    }
}

/// The inspectors before a call runs. Denials are errors the reply explains.
pub fn inspect(call: &ToolCall<'_>) -> Result<(), ToolError> {
    let Some((scope, risk)) = spec(call.tool) else {
        return Err(ToolError::new(
            "unknown_tool",
            format!("no tool called {}", call.tool),
        ));
    };
    if !call.scopes.contains(&scope) {
        return Err(ToolError::new(
            "denied",
            format!("{} needs scope {scope}", call.tool),
        ));
    }
    if (risk == RiskLevel::High || call.needs_confirmation) && call.confirmed.is_none() {
        return Err(ToolError::new(
            "denied",
            format!("{} needs a confirmation bound to this task", call.tool),
        ));
    }
    Ok(())
}
