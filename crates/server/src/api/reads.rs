//! Read-only views beside the resources: the audit trail, the assistant's traces, the skill
//! library and its exports, market prices, and the tables the forms are built from
//! (providers, exchange types).

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::{Method, StatusCode};
use axum::routing::get;
use nofxi_domain::market::Symbol;
use nofxi_domain::{ExchangeType, MarketSource, PROVIDERS};
use nofxi_skills::export::{Format, export};
use nofxi_store::AuditEntry;
use nofxi_trader::runtime::connect::sim_seed;
use nofxi_venues::sim::SimMarket;
use nofxi_venues::{Clock, MarketData, SystemClock};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::resources::Items;
use super::{Op, Reply, schema};
use crate::access::Caller;
use crate::error::{ApiError, ApiResult, Worded};
use crate::state::AppState;

pub fn operations() -> Vec<Op> {
    vec![
        Op::new(
            Method::GET,
            "/api/audit",
            "audit",
            "Every change, newest first",
            Reply::Json(200, schema::<Items<AuditEntry>>),
            get(audit),
        )
        .query(schema::<Limit>),
        Op::new(
            Method::GET,
            "/api/traces",
            "traces",
            "The assistant's per-turn traces, newest first (redacted)",
            Reply::Json(200, schema::<Items<TraceView>>),
            get(traces),
        )
        .query(schema::<Limit>),
        Op::new(
            Method::GET,
            "/api/traces/{id}",
            "traces",
            "One trace: commands, tool calls, timings, model usage",
            Reply::Json(200, schema::<TraceView>),
            get(trace),
        ),
        Op::new(
            Method::GET,
            "/api/skills",
            "skills",
            "The skill library: each skill's actions and functions",
            Reply::Json(200, schema::<Items<SkillView>>),
            get(skills),
        ),
        Op::new(
            Method::GET,
            "/api/skills/export",
            "skills",
            "The library as tool definitions (`format`: openai, anthropic, gemini, mcp)",
            Reply::Json(200, schema::<serde_json::Value>),
            get(skills_export),
        )
        .query(schema::<ExportQuery>),
        Op::new(
            Method::GET,
            "/api/market/price",
            "market",
            "A symbol's price on the simulated market (offline)",
            Reply::Json(200, schema::<Price>),
            get(price),
        )
        .query(schema::<PriceQuery>),
        Op::new(
            Method::GET,
            "/api/providers",
            "forms",
            "Model providers: defaults and whether a key is needed",
            Reply::Json(200, schema::<Items<ProviderView>>),
            get(providers),
        ),
        Op::new(
            Method::GET,
            "/api/exchange-types",
            "forms",
            "Exchange types and the credentials each needs",
            Reply::Json(200, schema::<Items<ExchangeTypeView>>),
            get(exchange_types),
        ),
    ]
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct Limit {
    /// 1–500, default 50.
    pub limit: Option<i64>,
}

fn limit(l: &Limit) -> i64 {
    l.limit.unwrap_or(50).clamp(1, 500)
}

async fn audit(
    State(state): State<AppState>,
    caller: Caller,
    Query(q): Query<Limit>,
) -> ApiResult<Json<Items<AuditEntry>>> {
    Ok(Json(Items {
        items: state.store.audit_log(&caller.user, limit(&q)).await?,
    }))
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct TraceView {
    pub id: String,
    pub conversation_id: String,
    pub at: i64,
    /// The user's message as stored (secrets masked).
    pub message: String,
    pub record: serde_json::Value,
}

impl From<nofxi_store::TraceRow> for TraceView {
    fn from(t: nofxi_store::TraceRow) -> TraceView {
        TraceView {
            id: t.id,
            conversation_id: t.conversation_id,
            at: t.at,
            message: t.message,
            record: t.record,
        }
    }
}

async fn traces(
    State(state): State<AppState>,
    caller: Caller,
    Query(q): Query<Limit>,
) -> ApiResult<Json<Items<TraceView>>> {
    let rows = state
        .store
        .list_traces(&caller.user, None, limit(&q))
        .await?;
    Ok(Json(Items {
        items: rows.into_iter().map(TraceView::from).collect(),
    }))
}

async fn trace(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<TraceView>> {
    match state.store.get_trace(&caller.user, &id).await? {
        Some(t) => Ok(Json(t.into())),
        None => {
            let path = format!("/api/traces/{id}");
            Err(ApiError::catalog(
                StatusCode::NOT_FOUND,
                "not_found",
                "http-not-found",
                &[("path", &path)],
            ))
        }
    }
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct SkillView {
    pub id: String,
    pub name: String,
    pub description: String,
    pub actions: Vec<NamedRisk>,
    pub functions: Vec<String>,
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct NamedRisk {
    pub name: String,
    pub description: String,
    /// How risky the action is (what confirmation it needs).
    pub risk: String,
}

async fn skills(State(state): State<AppState>) -> Json<Items<SkillView>> {
    let lang = crate::lang::current();
    let items = state
        .library
        .skills()
        .iter()
        .map(|s| SkillView {
            id: s.id.clone(),
            name: s.name.clone(),
            description: s.description.clone(),
            actions: s
                .actions
                .iter()
                .map(|a| NamedRisk {
                    name: a.name.clone(),
                    description: a.description.get(lang).to_string(),
                    risk: serde_json::to_value(a.risk)
                        .ok()
                        .and_then(|v| v.as_str().map(str::to_string))
                        .unwrap_or_default(),
                })
                .collect(),
            functions: s.functions.iter().map(|f| f.name.clone()).collect(),
        })
        .collect();
    Json(Items { items })
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct ExportQuery {
    /// `openai`, `anthropic`, `gemini` or `mcp`.
    pub format: String,
}

async fn skills_export(
    State(state): State<AppState>,
    Query(q): Query<ExportQuery>,
) -> ApiResult<Json<serde_json::Value>> {
    let Some(format) = Format::parse(&q.format) else {
        return Err(ApiError::field(
            "format",
            Worded::new(
                format!(
                    "unknown export format {:?}: use openai, anthropic, gemini or mcp",
                    q.format
                ),
                format!(
                    "未知的导出格式 {:?}：请用 openai、anthropic、gemini 或 mcp",
                    q.format
                ),
            ),
        ));
    };
    let skills = state.library.skills().to_vec();
    Ok(Json(export(&skills, format, crate::lang::current())))
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct PriceQuery {
    /// `BTC`, `btcusdt`, `比特币`.
    pub symbol: String,
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct Price {
    pub symbol: String,
    pub last: Decimal,
    pub bid: Decimal,
    pub ask: Decimal,
    pub time_ms: i64,
    /// Always true: the simulated market, not a live quote.
    pub simulated: bool,
}

async fn price(Query(q): Query<PriceQuery>) -> ApiResult<Json<Price>> {
    let symbol = Symbol::parse_known(&q.symbol).map_err(|e| {
        ApiError::field(
            "symbol",
            Worded::new(format!("`symbol`: {e}"), format!("`symbol`：{e}")),
        )
    })?;
    let clock: std::sync::Arc<dyn Clock> = std::sync::Arc::new(SystemClock);
    let market = SimMarket::new(sim_seed(), clock);
    let t = market.ticker(&symbol).await.map_err(ApiError::internal)?;
    Ok(Json(Price {
        symbol: t.symbol.to_string(),
        last: t.last,
        bid: t.bid,
        ask: t.ask,
        time_ms: t.time_ms,
        simulated: true,
    }))
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct ProviderView {
    pub id: String,
    pub name: String,
    pub default_base_url: Option<String>,
    pub default_model: Option<String>,
    pub needs_api_key: bool,
}

async fn providers() -> Json<Items<ProviderView>> {
    Json(Items {
        items: PROVIDERS
            .iter()
            .map(|p| ProviderView {
                id: p.id.into(),
                name: p.display_name.into(),
                default_base_url: p.default_base_url.map(str::to_string),
                default_model: p.default_model.map(str::to_string),
                needs_api_key: p.needs_api_key,
            })
            .collect(),
    })
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct ExchangeTypeView {
    pub id: String,
    /// Credential fields an account of this type needs.
    pub credentials: Vec<String>,
    /// Whether nofxi trades on it today.
    pub can_trade: bool,
    /// Whether a new account of this type may be made (the create form lists only these;
    /// accounts of the others made by an earlier nofxi are kept and cannot trade).
    pub offered: bool,
    /// The market sources an account of this type may name (`market`): the simulated market
    /// and the venues whose live prices a paper account can follow; empty for a type that
    /// trades on its own venue's prices.
    pub markets: Vec<String>,
}

async fn exchange_types() -> Json<Items<ExchangeTypeView>> {
    Json(Items {
        items: ExchangeType::ALL
            .iter()
            .map(|t| ExchangeTypeView {
                id: t.as_str().into(),
                credentials: t
                    .required_credentials()
                    .iter()
                    .map(|f| f.as_str().to_string())
                    .collect(),
                can_trade: t.can_trade(),
                offered: t.offered(),
                markets: match t {
                    ExchangeType::Paper => MarketSource::names(),
                    _ => Vec::new(),
                },
            })
            .collect(),
    })
}
