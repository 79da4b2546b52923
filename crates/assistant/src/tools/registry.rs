//! Typed tools and their one registry. A tool is a type with a name, the scopes and risk it
//! needs, and typed arguments (`Deserialize + JsonSchema`): the registry decodes a call's
//! arguments into them before the tool runs, so a tool never reads a loose map, and the skills
//! test checks every skill step against the registry (its tool exists, its `with` slots are
//! the tool's arguments). The HTTP API and MCP reuse the same registry.
//!
//! Tools written before the registry still run from `exec.rs`'s match (listed by
//! `exec::LEGACY_TOOLS`); they move here one by one.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use async_trait::async_trait;
use nofxi_domain::validation::shown_input;
use nofxi_domain::{Actor, Channel};
use nofxi_skills::Lang;
use nofxi_store::Store;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};

use super::{RiskLevel, ToolError, ToolOutput};

/// What a tool runs with: the store, whose objects, the reply language, where the request
/// came from and whether the user confirmed it (both recorded with every change).
pub struct ToolContext<'a> {
    pub store: &'a Arc<Store>,
    pub user: &'a str,
    pub lang: Lang,
    pub channel: Channel,
    pub confirmed: bool,
}

impl ToolContext<'_> {
    /// Who a change is made by, for the audit trail.
    pub fn actor(&self) -> Actor {
        Actor::new(self.user, self.channel, self.confirmed)
    }
}

#[async_trait]
pub trait Tool: Send + Sync + 'static {
    /// Its typed arguments; ref slots arrive resolved to ids.
    type Args: DeserializeOwned + JsonSchema + Send;
    /// `<resource>.<verb>`, as skill steps name it.
    const NAME: &'static str;
    /// Every scope the caller must hold (`trader:read`).
    const SCOPES: &'static [&'static str];
    const RISK: RiskLevel;

    async fn run(&self, cx: &ToolContext<'_>, args: Self::Args) -> Result<ToolOutput, ToolError>;

    /// Asked before the confirmation: an error when the call would be refused whatever the
    /// user says (an instrument that is two, a portfolio that does not exist), else the values
    /// to set on the task so the confirmation shows and binds them (the computed fees).
    async fn precheck(
        &self,
        _cx: &ToolContext<'_>,
        _args: Self::Args,
    ) -> Result<Map<String, Value>, ToolError> {
        Ok(Map::new())
    }
}

/// A tool behind the registry, its arguments still JSON.
#[async_trait]
pub trait RegisteredTool: Send + Sync {
    fn name(&self) -> &'static str;
    fn scopes(&self) -> &'static [&'static str];
    fn risk(&self) -> RiskLevel;
    /// The JSON Schema of its arguments.
    fn schema(&self) -> Value;
    async fn call(
        &self,
        cx: &ToolContext<'_>,
        args: Map<String, Value>,
    ) -> Result<ToolOutput, ToolError>;
    /// [`Tool::precheck`] on JSON arguments.
    async fn precheck(
        &self,
        cx: &ToolContext<'_>,
        args: Map<String, Value>,
    ) -> Result<Map<String, Value>, ToolError>;
}

#[async_trait]
impl<T: Tool> RegisteredTool for T {
    fn name(&self) -> &'static str {
        T::NAME
    }
    fn scopes(&self) -> &'static [&'static str] {
        T::SCOPES
    }
    fn risk(&self) -> RiskLevel {
        T::RISK
    }
    fn schema(&self) -> Value {
        serde_json::to_value(schemars::schema_for!(T::Args)).unwrap_or(Value::Null)
    }
    async fn call(
        &self,
        cx: &ToolContext<'_>,
        args: Map<String, Value>,
    ) -> Result<ToolOutput, ToolError> {
        self.run(cx, decode::<T>(args)?).await
    }
    async fn precheck(
        &self,
        cx: &ToolContext<'_>,
        args: Map<String, Value>,
    ) -> Result<Map<String, Value>, ToolError> {
        Tool::precheck(self, cx, decode::<T>(args)?).await
    }
}

/// A call's arguments as the tool's type. A bad argument is the caller's mistake (a skill step
/// or a model), named as such.
fn decode<T: Tool>(args: Map<String, Value>) -> Result<T::Args, ToolError> {
    serde_json::from_value::<T::Args>(Value::Object(args))
        .map_err(|e| ToolError::new("invalid_arguments", format!("{}: {e}", T::NAME)))
}

/// Every typed tool, by name.
pub struct Registry {
    tools: BTreeMap<&'static str, Box<dyn RegisteredTool>>,
}

impl Registry {
    /// The built-in tools, registered once.
    pub fn builtin() -> &'static Registry {
        static REGISTRY: OnceLock<Registry> = OnceLock::new();
        REGISTRY.get_or_init(|| {
            let mut r = Registry {
                tools: BTreeMap::new(),
            };
            r.add(super::journal::TraderJournal);
            r.add(super::performance::TraderStats);
            r.add(super::trades::TraderTrades);
            r.add(super::account::ExchangeBalance);
            r.add(super::account::ExchangePositions);
            r.add(super::trash::TrashList);
            r.add(super::market::MarketPrice);
            r.add(super::market_functions::MarketBook);
            r.add(super::market_functions::MarketKlines);
            r.add(super::trader_diagnosis::TraderDiagnose);
            r.add(super::portfolio::PortfolioShow);
            r.add(super::portfolio::PortfolioRecord);
            r.add(super::portfolio::PortfolioTrades);
            r.add(super::portfolio::PortfolioTechnical);
            r
        })
    }

    fn add(&mut self, tool: impl RegisteredTool + 'static) {
        self.tools.insert(tool.name(), Box::new(tool));
    }

    pub fn get(&self, name: &str) -> Option<&dyn RegisteredTool> {
        self.tools.get(name).map(|t| t.as_ref())
    }

    pub fn tools(&self) -> impl Iterator<Item = &dyn RegisteredTool> {
        self.tools.values().map(|t| t.as_ref())
    }
}

/// A count argument said as a number or as text ("10"), as slot values arrive.
pub fn count_or_text<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Either {
        Number(u32),
        Text(String),
    }
    match Option::<Either>::deserialize(d)? {
        None => Ok(None),
        Some(Either::Number(n)) => Ok(Some(n)),
        Some(Either::Text(t)) => t.trim().parse().map(Some).map_err(|_| {
            serde::de::Error::custom(format!("\"{}\" is not a whole number", shown_input(&t)))
        }),
    }
}
