//! Tools: the only way the assistant touches the world. Each is `<resource>.<verb>` with the
//! scope it needs and a risk level. Every call passes one pipeline (goose-style inspectors):
//! scope check → confirmation bound to the task → run → redaction of the result.

mod account;
mod check;
mod credentials;
mod current;
mod exec;
mod journal;
mod market;
mod market_functions;
mod performance;
mod portfolio;
mod probes;
pub mod registry;
mod render;
mod stop_all;
mod trader_detail;
mod trader_diagnosis;
mod trader_figures;
mod trades;
mod trash;

use nofxi_skills::Lang;
use serde_json::{Map, Value};

pub use check::step_problems;
pub use portfolio::answer as portfolio_answer;

/// The arguments of a question about one holding, as said.
pub fn portfolio_show_args(said: &str) -> portfolio::ShowArgs {
    portfolio::ShowArgs {
        stock: Some(said.to_string()),
        portfolio: None,
    }
}
pub use exec::ToolRunner;

/// How much harm a tool can do; `High` never runs without a confirmation bound to its task.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum RiskLevel {
    Read,
    Write,
    High,
}

/// Scopes (`trader:write`) and risk of a tool by name, typed tools first; `None` for unknown
/// tools.
pub fn spec(tool: &str) -> Option<(Vec<String>, RiskLevel)> {
    if let Some(t) = registry::Registry::builtin().get(tool) {
        let scopes = t.scopes().iter().map(|s| s.to_string()).collect();
        return Some((scopes, t.risk()));
    }
    legacy_spec(tool).map(|(scope, risk)| (vec![scope], risk))
}

/// The tools still run by `exec.rs`'s match, with the scope and risk each needs: exactly the
/// names that match handles, so a step naming another (`trader.enable`) fails the lint rather
/// than at run time. They move to the typed registry one by one.
pub(crate) const LEGACY_TOOLS: &[&str] = &[
    "trader.list",
    "trader.get",
    "trader.status",
    "trader.create",
    "trader.update",
    "trader.start",
    "trader.stop",
    "trader.stop_all",
    "trader.delete",
    "trader.restore",
    "exchange.list",
    "exchange.get",
    "exchange.create",
    "exchange.update",
    "exchange.enable",
    "exchange.disable",
    "exchange.test",
    "exchange.delete",
    "exchange.restore",
    "model.list",
    "model.get",
    "model.create",
    "model.update",
    "model.enable",
    "model.disable",
    "model.test",
    "model.delete",
    "model.restore",
    "strategy.list",
    "strategy.get",
    "strategy.create",
    "strategy.update",
    "strategy.activate",
    "strategy.duplicate",
    "strategy.delete",
    "strategy.restore",
];

/// Scope and risk of a legacy tool.
fn legacy_spec(tool: &str) -> Option<(String, RiskLevel)> {
    if !LEGACY_TOOLS.contains(&tool) {
        return None;
    }
    let (resource, verb) = tool.split_once('.')?;
    let (access, risk) = match verb {
        "list" | "get" | "status" | "test" => ("read", RiskLevel::Read),
        "delete" => ("write", RiskLevel::High),
        _ => ("write", RiskLevel::Write),
    };
    Some((format!("{resource}:{access}"), risk))
}

pub struct ToolCall<'a> {
    pub tool: &'a str,
    pub args: Map<String, Value>,
    pub user: &'a str,
    /// Where the request came from, recorded in the audit trail with each change.
    pub channel: nofxi_domain::Channel,
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
    /// The kind of the resources it names, when its tool's name does not say it (`trash.list`
    /// names traders, models…): what "restore it" then refers to.
    pub kind: Option<nofxi_skills::ResourceKind>,
    /// Clamped values, said in the reply.
    pub adjustments: Vec<String>,
    /// Said after the success message, already in the user's language ("binance accounts
    /// do not use passphrase; it was left out").
    pub notes: Vec<String>,
    /// Mutated the store (refreshes the name index).
    pub mutated: bool,
    /// A request in the user's words that a yes to this reply runs (the fix a diagnosis
    /// found: "set scalper min confidence to 70"); it runs as if said, confirmation and all.
    pub offer: Option<String>,
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
    let Some((scopes, risk)) = spec(call.tool) else {
        return Err(ToolError::new(
            "unknown_tool",
            format!("no tool called {}", call.tool),
        ));
    };
    if let Some(scope) = scopes.iter().find(|s| !call.scopes.contains(s)) {
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
