//! What each tool does, over the store and the trading engine. Arguments arrive with ref
//! slots already resolved to ids; errors come back as skill failure codes.

use std::sync::Arc;

use nofxi_domain::trader::INITIAL_BALANCE_DEFAULT;
use nofxi_domain::validation::ValidationError;
use nofxi_domain::validation::shown_input;
use nofxi_domain::{
    Actor, ExchangePatch, ExchangeSpec, MarketSource, ModelPatch, ModelSpec, Problem, ResourceKind,
    Secret, StrategyConfig, StrategyPatch, StrategySpec, TraderPatch, TraderSpec,
};
use nofxi_skills::Lang;
use nofxi_store::{Store, StoreError};
use rust_decimal::Decimal;
use serde_json::{Map, Value};

use super::credentials::{credentials_for, left_out_note};
use super::render::*;
use super::stop_all::{self, Running};
use super::trader_detail::trader_detail;
use super::{ToolCall, ToolError, ToolOutput, inspect};

pub struct ToolRunner {
    pub store: Arc<Store>,
}

/// The strings of the list `k` (none when it is absent or no list).
fn strings(args: &Map<String, Value>, k: &str) -> Vec<String> {
    args.get(k)
        .and_then(Value::as_array)
        .map(|items| {
            items
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

fn s(args: &Map<String, Value>, k: &str) -> Option<String> {
    match args.get(k)? {
        Value::String(v) => Some(v.clone()),
        Value::Null => None,
        other => Some(other.to_string()),
    }
}
fn b(args: &Map<String, Value>, k: &str) -> Option<bool> {
    match args.get(k)? {
        Value::Bool(v) => Some(*v),
        Value::String(v) => v.parse().ok(),
        _ => None,
    }
}
fn dec(args: &Map<String, Value>, k: &str) -> Option<Decimal> {
    s(args, k).and_then(|v| v.parse().ok())
}
fn int(args: &Map<String, Value>, k: &str) -> Option<i64> {
    s(args, k).and_then(|v| v.parse().ok())
}

/// A store error as a skill failure code, in the user's language.
pub fn store_error(e: &StoreError, lang: Lang) -> ToolError {
    let message = match lang {
        Lang::Zh => e.to_zh(),
        Lang::En => e.to_string(),
    };
    let code = match e {
        StoreError::NotFound { .. } => "not_found",
        StoreError::InUse { .. } => "in_use",
        StoreError::Running { .. } => "running",
        StoreError::RunningMove { .. } => "running_move",
        StoreError::Ambiguous { .. } => "ambiguous",
        StoreError::Invalid(v) => {
            if v.problems
                .iter()
                .any(|p| matches!(p.problem, Problem::DuplicateName { .. }))
            {
                "name_taken"
            } else if v.problems.iter().any(|p| {
                matches!(
                    p.problem,
                    Problem::MissingCredential { .. } | Problem::IncompleteCredentials { .. }
                )
            }) {
                "missing_credentials"
            } else {
                "invalid"
            }
        }
        _ => "error",
    };
    let mut err = ToolError::new(code, message);
    // A resource in use names its users: "{resource}" in the skill's message lists them.
    if let StoreError::InUse { traders, .. } = e {
        err.resource = Some(traders.join(", "));
    }
    err
}

/// Sets each slot named like a strategy config field (anywhere in the config tree).
fn patch_config(
    mut config: StrategyConfig,
    args: &Map<String, Value>,
) -> Result<StrategyConfig, ToolError> {
    let mut tree =
        serde_json::to_value(&config).map_err(|e| ToolError::new("error", e.to_string()))?;
    fn set(tree: &mut Value, key: &str, value: &Value) -> bool {
        match tree {
            Value::Object(map) => {
                if let Some(slot) = map.get_mut(key) {
                    *slot = match (&*slot, value) {
                        (Value::String(_), Value::Number(n)) => Value::String(n.to_string()),
                        (Value::Number(_), Value::String(s)) => {
                            s.parse::<i64>().map(Value::from).unwrap_or(value.clone())
                        }
                        _ => value.clone(),
                    };
                    return true;
                }
                map.values_mut().any(|v| set(v, key, value))
            }
            _ => false,
        }
    }
    let mut touched = false;
    for (k, v) in args {
        touched |= set(&mut tree, k, v);
    }
    if touched {
        config =
            serde_json::from_value(tree).map_err(|e| ToolError::new("invalid", e.to_string()))?;
    }
    Ok(config)
}

impl ToolRunner {
    /// The one pipeline: inspectors, then the tool. Results carry no secrets: the store
    /// returns masks only and rendering reads non-secret fields.
    pub async fn call(&self, call: ToolCall<'_>) -> Result<ToolOutput, ToolError> {
        inspect(&call)?;
        if let Some(tool) = super::registry::Registry::builtin().get(call.tool) {
            let cx = super::registry::ToolContext {
                store: &self.store,
                user: call.user,
                lang: call.lang,
                channel: call.channel,
                confirmed: call.confirmed.is_some(),
            };
            return tool.call(&cx, call.args).await;
        }
        let actor = Actor::new(call.user, call.channel, call.confirmed.is_some());
        let lang = call.lang;
        let out = self.run(&call, &actor).await;
        out.map_err(|e| match e {
            Failure::Store(e) => store_error(&e, lang),
            Failure::Tool(t) => t,
        })
    }

    /// Whether `tool` would be refused on these arguments for a reason no confirmation
    /// changes (a strategy in use, a running trader), asked before the confirmation: the
    /// refusal then comes instead of a question whose "yes" could only fail. Tools without
    /// such a check pass.
    ///
    /// A tool may also fix values before the confirmation, returned to be set on the task
    /// (`trader.stop_all` lists the traders it will stop), so the summary shows them and the
    /// confirmation binds to them.
    pub async fn precheck(
        &self,
        tool: &str,
        args: &Map<String, Value>,
        user: &str,
        channel: nofxi_domain::Channel,
        lang: Lang,
    ) -> Result<Map<String, Value>, ToolError> {
        if let Some(typed) = super::registry::Registry::builtin().get(tool) {
            let cx = super::registry::ToolContext {
                store: &self.store,
                user,
                lang,
                channel,
                confirmed: false,
            };
            return typed.precheck(&cx, args.clone()).await;
        }
        let fixed = Map::new();
        if tool == "trader.stop_all" {
            let except = strings(args, "except");
            // Named ones ("stop btc-bot and alpha" read as one stop of both): only those.
            let named = strings(args, "targets");
            return match stop_all::running(&self.store, user, &except, &named).await {
                Ok(Running::Targets(names)) => Ok(Map::from_iter([("targets".to_string(), names)])),
                Ok(Running::None) => Err(ToolError::new("not_running", "no trader is running")),
                Ok(Running::UnknownExcept(name)) => Err(ToolError::new(
                    "unknown_except",
                    crate::msg(
                        lang,
                        "stop-all-unknown-except",
                        &[("name", &shown_input(&name))],
                    ),
                )),
                Err(e) => Err(store_error(&e, lang)),
            };
        }
        if tool == "exchange.update" {
            // "passphrase 8374…" for a bybit account: refused now, not after a confirmation.
            let target = s(args, "target").unwrap_or_default();
            if let Ok(current) = self.store.get_exchange(user, &target).await {
                let (creds, left_out) = credentials_for(args, current.spec.exchange_type());
                let note = left_out_note(lang, &current.spec.exchange_type, &left_out);
                let patch = exchange_patch(args, b(args, "enabled"));
                if let Some(err) = only_unused_credentials(&patch, &creds, note) {
                    return Err(err);
                }
            }
            return Ok(fixed);
        }
        let Some((resource, "delete")) = tool.split_once('.') else {
            return Ok(fixed);
        };
        let Ok(kind) = resource.parse::<ResourceKind>() else {
            return Ok(fixed);
        };
        let target = s(args, "target").unwrap_or_default();
        self.store
            .check_delete(user, kind, &target)
            .await
            .map(|()| fixed)
            .map_err(|e| store_error(&e, lang))
    }

    async fn run(&self, call: &ToolCall<'_>, actor: &Actor) -> Result<ToolOutput, Failure> {
        let a = &call.args;
        let user = call.user;
        let lang = call.lang;
        let st = &self.store;
        let target = s(a, "target").unwrap_or_default();
        let (resource, verb) = call.tool.split_once('.').unwrap_or((call.tool, ""));
        // `inspect` let only the four resources through.
        let kind = resource.parse().unwrap_or(ResourceKind::Strategy);
        let done = |id: String, name: String| ToolOutput {
            resource_id: Some(id),
            resource_name: Some(name),
            mutated: true,
            ..ToolOutput::default()
        };
        match verb {
            "delete" => {
                let r = st.delete(actor, kind, &target).await?;
                return Ok(done(r.id, r.name));
            }
            "restore" => {
                let r = st.restore(actor, kind, &target).await?;
                return Ok(done(r.id, r.name));
            }
            "list" => return self.list(user, lang, kind).await,
            _ => {}
        }
        match call.tool {
            "trader.get" | "trader.status" => {
                let t = st.get_trader(user, &target).await?;
                let text = trader_detail(st, user, lang, &t).await;
                Ok(ToolOutput {
                    resource_id: Some(t.id),
                    resource_name: Some(t.spec.name),
                    text: Some(text),
                    ..Default::default()
                })
            }
            "exchange.get" => {
                let e = st.get_exchange(user, &target).await?;
                Ok(ToolOutput {
                    text: Some(exchange_line(lang, 0, &e)[3..].to_string()),
                    resource_id: Some(e.id),
                    resource_name: Some(e.spec.account_name),
                    ..Default::default()
                })
            }
            "model.get" => {
                let m = st.get_model(user, &target).await?;
                Ok(ToolOutput {
                    text: Some(model_detail(lang, &m)),
                    resource_id: Some(m.id),
                    resource_name: Some(m.spec.name),
                    ..Default::default()
                })
            }
            "strategy.get" => {
                let x = st.get_strategy(user, &target).await?;
                Ok(ToolOutput {
                    text: Some(strategy_detail(lang, &x)),
                    resource_id: Some(x.id),
                    resource_name: Some(x.spec.name),
                    ..Default::default()
                })
            }
            "trader.create" => self.trader_create(actor, a).await,
            "trader.update" => {
                let patch = TraderPatch {
                    name: s(a, "name"),
                    ai_model_id: s(a, "model"),
                    exchange_id: s(a, "exchange"),
                    strategy_id: s(a, "strategy"),
                    initial_balance: dec(a, "initial_balance"),
                    scan_interval_minutes: int(a, "scan_interval_minutes"),
                    is_cross_margin: b(a, "is_cross_margin"),
                };
                let (t, adj) = st.update_trader(actor, &target, patch).await?;
                let mut out = done(t.id, t.spec.name);
                out.adjustments = adj
                    .iter()
                    .map(|x| format!("{}: {} → {} ({})", x.field, x.given, x.applied, x.rule))
                    .collect();
                Ok(out)
            }
            "trader.start" => self.trader_start(actor, &target, lang).await,
            "trader.stop_all" => {
                stop_all::stop_listed(st, actor, a, lang)
                    .await?
                    .ok_or_else(|| {
                        Failure::Tool(ToolError::new("not_running", "no trader is running"))
                    })
            }
            "trader.stop" => {
                let t = st.get_trader(user, &target).await?;
                if !t.is_running {
                    return Err(Failure::Tool(ToolError::new("not_running", "not running")));
                }
                let t = st.set_trader_running(actor, &t.id, false).await?;
                Ok(done(t.id, t.spec.name))
            }
            "exchange.create" => {
                let spec = ExchangeSpec {
                    exchange_type: s(a, "exchange_type").unwrap_or_default(),
                    account_name: s(a, "account_name").unwrap_or_default(),
                    enabled: b(a, "enabled").unwrap_or(true),
                    testnet: b(a, "testnet").unwrap_or(false),
                };
                let kind = spec.exchange_type();
                let (creds, left_out) = credentials_for(a, kind);
                let market = market_of(a)?.unwrap_or_default();
                let e = st
                    .create_exchange_with_market(actor, spec, creds, market)
                    .await?;
                let note = left_out_note(lang, &e.spec.exchange_type, &left_out);
                Ok(ToolOutput {
                    notes: note.into_iter().collect(),
                    ..done(e.id, e.spec.account_name)
                })
            }
            "exchange.update" | "exchange.enable" | "exchange.disable" => {
                let enabled = match call.tool {
                    "exchange.enable" => Some(true),
                    "exchange.disable" => Some(false),
                    _ => b(a, "enabled"),
                };
                let patch = exchange_patch(a, enabled);
                let current = st.get_exchange(user, &target).await?;
                let (creds, left_out) = credentials_for(a, current.spec.exchange_type());
                let note = left_out_note(lang, &current.spec.exchange_type, &left_out);
                if let Some(err) = only_unused_credentials(&patch, &creds, note.clone()) {
                    return Err(Failure::Tool(err));
                }
                let e = update_exchange(st, actor, &current, patch, creds, market_of(a)?).await?;
                Ok(ToolOutput {
                    notes: note.into_iter().collect(),
                    ..done(e.id, e.spec.account_name)
                })
            }
            "exchange.test" => self.exchange_test(user, &target, lang).await,
            "model.create" => {
                let spec = ModelSpec {
                    name: s(a, "name").unwrap_or_default(),
                    provider: s(a, "provider").unwrap_or_default(),
                    enabled: b(a, "enabled").unwrap_or(true),
                    base_url: s(a, "base_url"),
                    model_name: s(a, "model_name"),
                };
                let m = st
                    .create_model(actor, spec, s(a, "api_key").map(Secret::new))
                    .await?;
                Ok(done(m.id, m.spec.name))
            }
            "model.update" | "model.enable" | "model.disable" => {
                let enabled = match call.tool {
                    "model.enable" => Some(true),
                    "model.disable" => Some(false),
                    _ => b(a, "enabled"),
                };
                let patch = ModelPatch {
                    name: s(a, "name"),
                    provider: None,
                    enabled,
                    base_url: s(a, "base_url"),
                    model_name: s(a, "model_name"),
                };
                let m = st
                    .update_model(actor, &target, patch, s(a, "api_key").map(Secret::new))
                    .await?;
                Ok(done(m.id, m.spec.name))
            }
            "model.test" => self.model_test(user, &target, lang).await,
            "strategy.create" => {
                let mut spec = StrategySpec::new(s(a, "name").unwrap_or_default());
                spec.description = s(a, "description").unwrap_or_default();
                spec.config = patch_config(spec.config, a).map_err(Failure::Tool)?;
                let x = st.create_strategy(actor, spec).await?;
                Ok(done(x.id, x.spec.name))
            }
            "strategy.update" => {
                let current = st.get_strategy(user, &target).await?;
                let config = patch_config(current.spec.config.clone(), a).map_err(Failure::Tool)?;
                let patch = StrategyPatch {
                    name: s(a, "name"),
                    description: s(a, "description"),
                    is_active: None,
                    config: Some(config),
                };
                let x = st.update_strategy(actor, &target, patch).await?;
                Ok(done(x.id, x.spec.name))
            }
            "strategy.activate" => {
                let patch = StrategyPatch {
                    is_active: Some(true),
                    ..Default::default()
                };
                let x = st.update_strategy(actor, &target, patch).await?;
                Ok(done(x.id, x.spec.name))
            }
            "strategy.duplicate" => {
                let from = st.get_strategy(user, &target).await?;
                let name = match s(a, "new_name") {
                    Some(name) => name,
                    None => free_copy_name(st, user, lang, &from.spec.name).await?,
                };
                let mut spec = from.spec.clone();
                spec.name = name;
                spec.is_active = false;
                let x = st.create_strategy(actor, spec).await?;
                Ok(done(x.id, x.spec.name))
            }
            other => Err(Failure::Tool(ToolError::new(
                "unknown_tool",
                format!("no tool called {other}"),
            ))),
        }
    }

    async fn list(
        &self,
        user: &str,
        lang: Lang,
        kind: ResourceKind,
    ) -> Result<ToolOutput, Failure> {
        let st = &self.store;
        let (lines, listed): (Vec<String>, Vec<(String, String)>) = match kind {
            ResourceKind::Trader => st
                .list_traders(user, false)
                .await?
                .iter()
                .enumerate()
                .map(|(i, t)| (trader_line(lang, i, t), (t.id.clone(), t.spec.name.clone())))
                .unzip(),
            ResourceKind::Exchange => st
                .list_exchanges(user, false)
                .await?
                .iter()
                .enumerate()
                .map(|(i, e)| {
                    (
                        exchange_line(lang, i, e),
                        (e.id.clone(), e.spec.account_name.clone()),
                    )
                })
                .unzip(),
            ResourceKind::Model => st
                .list_models(user, false)
                .await?
                .iter()
                .enumerate()
                .map(|(i, m)| (model_line(lang, i, m), (m.id.clone(), m.spec.name.clone())))
                .unzip(),
            ResourceKind::Strategy => st
                .list_strategies(user, false)
                .await?
                .iter()
                .enumerate()
                .map(|(i, x)| {
                    (
                        strategy_line(lang, i, x),
                        (x.id.clone(), x.spec.name.clone()),
                    )
                })
                .unzip(),
        };
        let kind_word = match lang {
            Lang::Zh => kind.zh().to_string(),
            Lang::En => kind.as_str().to_string(),
        };
        let text = if lines.is_empty() {
            empty(lang, &kind_word)
        } else {
            lines.join("\n")
        };
        Ok(ToolOutput {
            text: Some(text),
            listed,
            ..Default::default()
        })
    }

    async fn trader_create(
        &self,
        actor: &Actor,
        a: &Map<String, Value>,
    ) -> Result<ToolOutput, Failure> {
        let st = &self.store;
        let user = &actor.user;
        let exchange = st
            .get_exchange(user, &s(a, "exchange").unwrap_or_default())
            .await?;
        if !exchange.spec.enabled {
            return Err(Failure::Tool(ToolError {
                code: "exchange_disabled".into(),
                message: "disabled".into(),
                resource: Some(exchange.spec.account_name),
            }));
        }
        let model = st
            .get_model(user, &s(a, "model").unwrap_or_default())
            .await?;
        if !model.spec.enabled {
            return Err(Failure::Tool(ToolError {
                code: "model_disabled".into(),
                message: "disabled".into(),
                resource: Some(model.spec.name),
            }));
        }
        let strategy_id = match s(a, "strategy") {
            Some(id) => id,
            None => {
                let strategies = st.list_strategies(user, false).await?;
                match strategies.iter().find(|x| x.spec.is_active) {
                    Some(x) => x.id.clone(),
                    // Strategies exist but none is active: which one is the user's to say.
                    None if !strategies.is_empty() => {
                        return Err(Failure::Tool(ToolError::new(
                            "strategy_needed",
                            "no active strategy",
                        )));
                    }
                    None => {
                        return Err(Failure::Tool(ToolError::new(
                            "no_active_strategy",
                            "no strategy",
                        )));
                    }
                }
            }
        };
        let balance = dec(a, "initial_balance").unwrap_or(INITIAL_BALANCE_DEFAULT);
        let mut spec = TraderSpec::new(
            s(a, "name").unwrap_or_default(),
            model.id,
            exchange.id,
            strategy_id,
            balance,
        );
        if let Some(v) = int(a, "scan_interval_minutes") {
            spec.scan_interval_minutes = v;
        }
        if let Some(v) = b(a, "is_cross_margin") {
            spec.is_cross_margin = v;
        }
        let (t, adj) = st.create_trader(actor, spec).await?;
        Ok(ToolOutput {
            resource_id: Some(t.id),
            resource_name: Some(t.spec.name),
            adjustments: adj
                .iter()
                .map(|x| format!("{}: {} → {} ({})", x.field, x.given, x.applied, x.rule))
                .collect(),
            mutated: true,
            ..Default::default()
        })
    }

    async fn trader_start(
        &self,
        actor: &Actor,
        target: &str,
        lang: Lang,
    ) -> Result<ToolOutput, Failure> {
        let st = &self.store;
        let user = &actor.user;
        let t = st.get_trader(user, target).await?;
        if t.is_running {
            return Err(Failure::Tool(ToolError::new(
                "already_running",
                "already running",
            )));
        }
        let tool = |code: &str, message: String, resource: Option<String>| {
            Failure::Tool(ToolError {
                code: code.into(),
                message,
                resource,
            })
        };
        match st.get_exchange(user, &t.spec.exchange_id).await {
            Ok(e) if !e.spec.enabled => {
                return Err(tool(
                    "exchange_disabled",
                    "disabled".into(),
                    Some(e.spec.account_name),
                ));
            }
            Ok(e) if !e.credentials_complete => {
                let missing: Vec<String> = e
                    .has
                    .iter()
                    .filter(|(_, v)| !**v)
                    .map(|(k, _)| k.trim_start_matches("has_").to_string())
                    .collect();
                return Err(tool(
                    "missing_credentials",
                    missing.join(", "),
                    Some(e.spec.account_name),
                ));
            }
            Ok(_) => {}
            Err(err) => return Err(err.into()),
        }
        match st.get_model(user, &t.spec.ai_model_id).await {
            Ok(m) if !m.spec.enabled => {
                return Err(tool("model_disabled", "disabled".into(), Some(m.spec.name)));
            }
            Ok(_) => {}
            Err(err) => return Err(err.into()),
        }
        if st.get_strategy(user, &t.spec.strategy_id).await.is_err() {
            return Err(tool("strategy_missing", "strategy missing".into(), None));
        }
        let (t, _) = nofxi_trader::runtime::preflight::start_trader(st, actor, &t.id)
            .await
            .map_err(|e| tool(e.kind(), e.to_string(), None))?;
        // Started is not trading: only a running engine trades, and none may run.
        let engine = st
            .engine_running(nofxi_trader::runtime::host::ENGINE_BEAT_TTL_MS)
            .await
            .unwrap_or(true);
        let note = (!engine).then(|| no_engine_note(lang));
        Ok(ToolOutput {
            resource_id: Some(t.id),
            resource_name: Some(t.spec.name),
            notes: note.into_iter().collect(),
            mutated: true,
            ..Default::default()
        })
    }
}

/// The name a copy of strategy `of` gets when the user names none: "<of> copy", or "<of> copy
/// 2", 3, … when that is taken, so a second copy does not fail on the first one's name.
async fn free_copy_name(
    st: &Store,
    user: &str,
    lang: Lang,
    of: &str,
) -> Result<String, StoreError> {
    let taken: Vec<String> = st
        .list_strategies(user, false)
        .await?
        .into_iter()
        .map(|x| x.spec.name.to_lowercase())
        .collect();
    let base = crate::msg(lang, "strategy-copy-name", &[("of", of)]);
    let free = std::iter::once(base.clone())
        .chain((2..).map(|n| format!("{base} {n}")))
        .find(|name| !taken.contains(&name.to_lowercase()))
        .unwrap_or(base);
    Ok(free)
}

/// Why a tool did not run: the store refused, or the tool itself did.
pub enum Failure {
    Store(StoreError),
    Tool(ToolError),
}

impl From<StoreError> for Failure {
    fn from(e: StoreError) -> Self {
        Failure::Store(e)
    }
}

/// Said after a start when no engine holds a lease: the trader waits for one.
fn no_engine_note(lang: Lang) -> String {
    crate::msg(lang, "start-no-engine", &[])
}

/// The change an exchange update's arguments ask for, `enabled` as the verb said it.
/// A paper account's `market` argument (`binance`, …), refused under the field's name with
/// the choices when it is none of them.
fn market_of(a: &Map<String, Value>) -> Result<Option<MarketSource>, StoreError> {
    s(a, "market")
        .map(|m| {
            m.parse::<MarketSource>()
                .map_err(|p| ValidationError::single("market", p).into())
        })
        .transpose()
}

/// The account's fields and credentials, then its market source, if one is given: the source
/// is checked against the account's type before anything is written.
async fn update_exchange(
    st: &Store,
    actor: &Actor,
    current: &nofxi_domain::Exchange,
    patch: ExchangePatch,
    creds: nofxi_domain::Credentials,
    market: Option<MarketSource>,
) -> Result<nofxi_domain::Exchange, StoreError> {
    let Some(market) = market else {
        return st.update_exchange(actor, &current.id, patch, creds).await;
    };
    if let Some(problem) = market.problem_for(&current.spec.exchange_type) {
        return Err(ValidationError::single("market", problem).into());
    }
    if patch != ExchangePatch::default() || creds.fields().next().is_some() {
        st.update_exchange(actor, &current.id, patch, creds).await?;
    }
    st.set_exchange_market(actor, &current.id, market).await
}

fn exchange_patch(a: &Map<String, Value>, enabled: Option<bool>) -> ExchangePatch {
    ExchangePatch {
        exchange_type: None,
        account_name: s(a, "account_name"),
        enabled,
        testnet: b(a, "testnet"),
    }
}

/// An update that gives only credentials the account does not use changes nothing: said as a
/// failure (with the note naming them) rather than an "updated" that changed nothing, and
/// before any confirmation is asked for it.
fn only_unused_credentials(
    patch: &ExchangePatch,
    creds: &nofxi_domain::Credentials,
    note: Option<String>,
) -> Option<ToolError> {
    let unchanged = *patch == ExchangePatch::default() && creds.fields().next().is_none();
    note.filter(|_| unchanged)
        .map(|note| ToolError::new("unused_credential", note))
}
