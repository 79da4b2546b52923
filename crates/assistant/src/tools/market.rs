//! `market.price`: a symbol's quote in the chat ("btc price", "比特币多少钱"); a listed
//! security's ("茅台现在多少钱") is the portfolio's simulated quote. A coin's call goes
//! through the market-data skill's constraints runtime, the one every market call passes: the
//! arguments against the function's schema before any request, the rate limits, and retries
//! only on the codes the skill calls retryable. The market is the one the user's own traders
//! see: a live account's venue when there is one, else the paper account's simulated market
//! (labelled simulated, so it is never passed off as a live quote).

use std::sync::{Arc, OnceLock};

use async_trait::async_trait;
use nofxi_domain::market::Symbol;
use nofxi_domain::validation::shown_input;
use nofxi_skills::runtime::{CallError, CallFailure, SkillRuntime};
use nofxi_skills::{Catalog, Lang, Library};
use nofxi_trader::runtime::connect::{DEFAULT_SIM_SEED, PaperAccount, is_live};
use nofxi_trader::runtime::view::open_view;
use nofxi_venues::sim::SimMarket;
use nofxi_venues::{MarketData, SystemClock};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

use super::registry::{Tool, ToolContext};
use super::{RiskLevel, ToolError, ToolOutput};
use crate::compose::facts::time_on;
use crate::tools::exec::store_error;
use crate::tools::portfolio::stock_quote;

/// The market-data skill's function a quote is.
const FUNCTION: &str = "get_realtime_price";
/// A failure the venue says may pass (a timeout, a rate limit): one of the skill's retryable
/// codes, so the runtime retries it; anything else is given up at once.
const RETRYABLE: i64 = 5000;
const NOT_RETRYABLE: i64 = 0;

#[derive(Debug, Deserialize, JsonSchema)]
pub struct PriceArgs {
    /// The symbol as said (BTC, 比特币, BTCUSDT); resolved to the canonical pair.
    pub symbol: String,
}

pub struct MarketPrice;

/// The built-in market-data skill's runtime, one per process: its rate limits are its state.
fn runtime() -> Option<&'static SkillRuntime> {
    static RUNTIME: OnceLock<Option<SkillRuntime>> = OnceLock::new();
    RUNTIME
        .get_or_init(|| {
            let library = Library::builtin().ok()?;
            let skill = library.skills().iter().find(|s| s.name == "market-data")?;
            Some(SkillRuntime::new(skill))
        })
        .as_ref()
}

/// Where the quote comes from, as the reply names it.
struct Source {
    market: Arc<dyn MarketData>,
    label: String,
    simulated: bool,
}

#[async_trait]
impl Tool for MarketPrice {
    type Args = PriceArgs;
    const NAME: &'static str = "market.price";
    const SCOPES: &'static [&'static str] = &["market:read"];
    const RISK: RiskLevel = RiskLevel::Read;

    async fn run(&self, cx: &ToolContext<'_>, args: PriceArgs) -> Result<ToolOutput, ToolError> {
        let c = Catalog::builtin();
        let lang = cx.lang;
        // Forex, metals and indices (`EURUSD.FX`, `SPX.IX`): no source here serves them.
        if serves_no_source(&args.symbol) {
            return Ok(said(c.text(
                lang,
                "market-no-source",
                &[("symbol", &shown_input(&args.symbol))],
            )));
        }
        // A listed security (`600519.SH`, `700.HK`, 成都银行), unless it is a coin we know.
        if Symbol::parse_known(&args.symbol).is_err() {
            match stock_quote(cx, &args.symbol).await {
                Err(e) if e.code == "unknown_stock" => {}
                done => return done,
            }
        }
        let Ok(symbol) = Symbol::parse(&args.symbol) else {
            return Ok(said(c.text(
                lang,
                "market-unknown-symbol",
                &[("symbol", &shown_input(&args.symbol))],
            )));
        };
        let Some(runtime) = runtime() else {
            return Err(ToolError::new(
                "error",
                "the market-data skill is not loaded",
            ));
        };
        let source = source(cx).await?;
        let market = source.market.clone();
        let quoted = runtime
            .invoke(FUNCTION, &json!({"symbol": symbol.as_str()}), |_, _| {
                let market = market.clone();
                let symbol = symbol.clone();
                async move {
                    market.ticker(&symbol).await.map_err(|e| CallFailure {
                        code: if e.is_retryable() {
                            RETRYABLE
                        } else {
                            NOT_RETRYABLE
                        },
                        message: e.to_string(),
                        retry_after: None,
                    })
                }
            })
            .await;
        let text = match quoted {
            Ok(t) => c.text(
                lang,
                "market-quote",
                &[
                    ("symbol", t.symbol.as_str()),
                    ("source", &source.label),
                    ("last", &t.last.to_string()),
                    ("bid", &t.bid.to_string()),
                    ("ask", &t.ask.to_string()),
                    ("volume", &t.volume_24h.round_dp(2).to_string()),
                    (
                        "time",
                        &time_on(t.time_ms, source.simulated, lang == Lang::Zh),
                    ),
                ],
            ),
            Err(e) => unquoted(lang, symbol.as_str(), &source.label, &e),
        };
        Ok(said(text))
    }
}

/// `EURUSD.FX`, `XAUUSD.FX`, `SPX.IX`: the market-data skill's forex, metals and indices.
fn serves_no_source(symbol: &str) -> bool {
    symbol
        .rsplit_once('.')
        .is_some_and(|(_, market)| ["fx", "ix"].contains(&market.to_ascii_lowercase().as_str()))
}

fn said(text: String) -> ToolOutput {
    ToolOutput {
        text: Some(text),
        ..ToolOutput::default()
    }
}

/// The user's live account's market when one is enabled, else their paper account's, else
/// the simulated market on the wall clock.
async fn source(cx: &ToolContext<'_>) -> Result<Source, ToolError> {
    let c = Catalog::builtin();
    let exchanges = cx
        .store
        .list_exchanges(cx.user, false)
        .await
        .map_err(|e| store_error(&e, cx.lang))?;
    let enabled = exchanges.iter().filter(|e| e.spec.enabled);
    let chosen = enabled
        .clone()
        .find(|e| is_live(e))
        .or_else(|| enabled.clone().next());
    if let Some(config) = chosen
        && let Ok(venue) = open_view(
            cx.store.clone(),
            cx.user,
            &config.id,
            PaperAccount::Exchange,
        )
        .await
    {
        let simulated = venue.is_paper();
        let id = if simulated {
            "market-source-paper"
        } else {
            "market-source-live"
        };
        let label = c.text(
            cx.lang,
            id,
            &[("name", &config.spec.account_name), ("kind", &venue.kind)],
        );
        return Ok(Source {
            market: venue.market.clone(),
            label,
            simulated,
        });
    }
    Ok(Source {
        market: Arc::new(SimMarket::new(DEFAULT_SIM_SEED, Arc::new(SystemClock))),
        label: c.text(cx.lang, "market-source-sim", &[]),
        simulated: false,
    })
}

fn unquoted(lang: Lang, symbol: &str, source: &str, e: &CallError) -> String {
    let c = Catalog::builtin();
    // The venue's own words: the codes here only steer the retries, so the skill's meaning
    // of a code would name the wrong cause.
    let why = match e {
        CallError::Failed { message, .. } => message.clone(),
        other => other.to_string(),
    };
    c.text(
        lang,
        "market-unquoted",
        &[("symbol", symbol), ("source", source), ("error", &why)],
    )
}
