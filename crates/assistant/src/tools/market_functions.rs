//! `market.book` and `market.klines`: a symbol's order book ("eth order book", "btc 买卖压力比")
//! and candles ("btc 4小时k线给我看看") in the chat, the market-data skill's `get_order_book`
//! and `get_kline` called through its constraints runtime (see [`crate::market_data`]). The
//! market is the one a quote comes from: the live account's venue when there is one, else the
//! paper account's market, else nofxi's simulated market, each labelled. A live venue that
//! cannot be reached is said, then the paper account's data, labelled as what it is.

use async_trait::async_trait;
use nofxi_domain::Interval;
use nofxi_domain::market::Symbol;
use nofxi_domain::validation::shown_input;
use nofxi_skills::runtime::{Clock, Reference, SkillRuntime};
use nofxi_skills::{Catalog, Lang};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::registry::{Tool, ToolContext};
use super::{RiskLevel, ToolError, ToolOutput};
use crate::market_data::call::{self, GET_BOOK, GET_KLINE, MarketError, shared_runtime};
use crate::market_data::render;
use crate::market_data::source::{self, Chosen, DataSource, SourceError};
use crate::tools::exec::store_error;

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct BookArgs {
    /// The symbol (BTCUSDT, ETH, 比特币); a coin said by a name is resolved to its pair.
    pub symbol: String,
    /// Levels per side, 1–100 (default 5); checked against the skill's schema.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<Value>,
    /// The market to read: one of the user's accounts by name, or a source (binance, okx,
    /// bybit, hyperliquid, bitget, simulated); the user's own account's market when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct KlineArgs {
    /// The symbol (BTCUSDT, ETH, 比特币); a coin said by a name is resolved to its pair.
    pub symbol: String,
    /// 1m, 3m, 5m, 15m, 30m, 1h, 2h, 4h, 6h, 12h, 1d or 1w (default 1h; the domain's
    /// `Interval::NAMES`), checked against the skill's schema.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interval: Option<Value>,
    /// How many candles, 1–1000, newest last.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<Value>,
    /// ISO 8601 start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_time: Option<Value>,
    /// ISO 8601 end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_time: Option<Value>,
    /// The market to read, as `market.book`'s.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

pub struct MarketBook;
pub struct MarketKlines;

#[async_trait]
impl Tool for MarketBook {
    type Args = BookArgs;
    const NAME: &'static str = "market.book";
    const SCOPES: &'static [&'static str] = &["market:read"];
    const RISK: RiskLevel = RiskLevel::Read;

    async fn run(&self, cx: &ToolContext<'_>, args: BookArgs) -> Result<ToolOutput, ToolError> {
        let said = args.source.clone();
        let args = BookArgs {
            symbol: canonical(&args.symbol),
            source: None,
            ..args
        };
        let args = serde_json::to_value(args).unwrap_or_default();
        answer(cx, said.as_deref(), GET_BOOK, args).await
    }
}

#[async_trait]
impl Tool for MarketKlines {
    type Args = KlineArgs;
    const NAME: &'static str = "market.klines";
    const SCOPES: &'static [&'static str] = &["market:read"];
    const RISK: RiskLevel = RiskLevel::Read;

    async fn run(&self, cx: &ToolContext<'_>, args: KlineArgs) -> Result<ToolOutput, ToolError> {
        let said = args.source.clone();
        // "btc candles" says no interval: the skill's default (1h), as the description says;
        // its schema lists the interval as required, so it is filled here, not left out.
        let interval = args
            .interval
            .clone()
            .or_else(|| Some(Value::from(Interval::H1.as_str())));
        let args = KlineArgs {
            symbol: canonical(&args.symbol),
            source: None,
            interval,
            ..args
        };
        let args = serde_json::to_value(args).unwrap_or_default();
        answer(cx, said.as_deref(), GET_KLINE, args).await
    }
}

/// A coin said by a name or a ticker (`btc`, `比特币`) as its pair; anything else as said, for
/// the schema to judge.
fn canonical(said: &str) -> String {
    Symbol::parse_known(said)
        .map(|s| s.to_string())
        .unwrap_or_else(|_| said.trim().to_string())
}

/// `function` on the market `said` names, else the user's own; when the user's own live
/// venue fails, that failure and then the paper account's answer. A rate limit is only said:
/// the venue answers again in seconds.
async fn answer(
    cx: &ToolContext<'_>,
    said: Option<&str>,
    function: &str,
    args: Value,
) -> Result<ToolOutput, ToolError> {
    let Some(runtime) = shared_runtime() else {
        return Err(ToolError::new(
            "error",
            "the market-data skill is not loaded",
        ));
    };
    let lang = cx.lang;
    let chosen = chosen_market(cx, said).await?;
    let text = match run(runtime, &chosen.source, function, &args, lang).await {
        Ok(text) => text,
        Err((text, e)) if e.source_failed() && chosen.fallback.is_some() => {
            let Some(local) = &chosen.fallback else {
                return Err(no_data(text));
            };
            match run(runtime, local, function, &args, lang).await {
                Ok(fallback) => format!("{text}\n{fallback}"),
                Err((fallback, _)) => return Err(no_data(format!("{text}\n{fallback}"))),
            }
        }
        // Refused, rate limited or failed: said, and no data was given.
        Err((text, _)) => return Err(no_data(text)),
    };
    Ok(ToolOutput {
        text: Some(text),
        ..ToolOutput::default()
    })
}

/// The market a chat tool reads ([`source::for_request`]); a name that is no account and no
/// source is said with the ones there are.
pub(crate) async fn chosen_market(
    cx: &ToolContext<'_>,
    said: Option<&str>,
) -> Result<Chosen, ToolError> {
    source::for_request(cx.store, cx.user, said, cx.lang)
        .await
        .map_err(|e| match e {
            SourceError::Unknown(name) => no_data(Catalog::builtin().text(
                cx.lang,
                "market-unknown-source",
                &[
                    ("source", &shown_input(&name)),
                    ("names", &source::source_names_text()),
                ],
            )),
            SourceError::Store(e) => store_error(&e, cx.lang),
            SourceError::Connect(e) => no_data(e.to_string()),
        })
}

/// A call that gave no data, with what the reply says about it.
fn no_data(text: String) -> ToolError {
    ToolError::new("market_data", text)
}

/// The reply to `function` with `args` on `source`; a failure is said too, with its error.
pub(crate) async fn run<C>(
    runtime: &SkillRuntime<C>,
    source: &DataSource,
    function: &str,
    args: &Value,
    lang: Lang,
) -> Result<String, (String, MarketError)>
where
    C: Clock + Clone,
    C::Instant: Reference,
{
    let result = if function == GET_BOOK {
        call::order_book(runtime, source, args)
            .await
            .map(|r| render::book_text(&r, lang))
    } else {
        call::klines(runtime, source, args)
            .await
            .map(|r| render::klines_text(&r, lang))
    };
    result.map_err(|e| {
        let text = render::error_text(&e, function, args, &source.label, lang);
        (text, e)
    })
}
