//! `market.price`: a symbol's quote in the chat ("btc price", "比特币多少钱"); a listed
//! security's ("茅台现在多少钱") is the portfolio's simulated quote. A coin's call goes
//! through the market-data skill's constraints runtime, the one every market call passes: the
//! arguments against the function's schema before any request, the rate limits, and retries
//! only on the codes the skill calls retryable. The market is the one the user's own traders
//! see ([`crate::market_data::source::for_user`]): a live account's venue when there is one,
//! else the paper account's market — the venue whose live prices it follows, or its
//! simulated market, labelled simulated so it is never passed off as a live quote.
//!
//! The skill's rate limits are a live source's budget: a quote from the simulated market sends
//! nothing anywhere and is never held by them. A chat turn does not wait a limit out either:
//! when the budget or the venue says "not now", the reply says so and when to ask again.

use async_trait::async_trait;
use nofxi_domain::market::Symbol;
use nofxi_domain::validation::shown_input;
use nofxi_skills::runtime::{CallError, Clock, LimitedBy, Reference, SkillRuntime};
use nofxi_skills::{Catalog, Lang};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

use super::registry::{Tool, ToolContext};
use super::{RiskLevel, ToolError, ToolOutput};
use crate::compose::facts::time_on;
use crate::market_data::call::{self, MarketError, shared_runtime};
use crate::market_data::render::silence_text;
use crate::market_data::source::DataSource;
use crate::tools::market_functions::chosen_market;
use crate::tools::portfolio::stock_quote;

#[derive(Debug, Deserialize, JsonSchema)]
pub struct PriceArgs {
    /// The symbol as said (BTC, 比特币, BTCUSDT); resolved to the canonical pair.
    pub symbol: String,
    /// The market to quote from, as `market.book`'s.
    #[serde(default)]
    pub source: Option<String>,
}

pub struct MarketPrice;

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
        let Some(runtime) = shared_runtime() else {
            return Err(ToolError::new(
                "error",
                "the market-data skill is not loaded",
            ));
        };
        let chosen = chosen_market(cx, args.source.as_deref()).await?;
        Ok(said(
            answer(
                runtime,
                &chosen.source,
                chosen.fallback.as_ref(),
                &symbol,
                lang,
            )
            .await,
        ))
    }
}

/// The quote from `source`; when that is a live venue that cannot be reached (offline, down,
/// refusing the key), its failure is said and then `local`'s quote, labelled simulated, so the
/// user has a figure that is never taken for the live price. A rate limit is only said: the
/// venue answers again in seconds.
async fn answer<C>(
    runtime: &SkillRuntime<C>,
    source: &DataSource,
    local: Option<&DataSource>,
    symbol: &Symbol,
    lang: Lang,
) -> String
where
    C: Clock + Clone,
    C::Instant: Reference,
{
    match (quote(runtime, source, symbol, lang).await, local) {
        (Ok(text), _) => text,
        (Err((text, e)), Some(local)) if e.source_failed() => {
            let (Ok(fallback) | Err((fallback, _))) = quote(runtime, local, symbol, lang).await;
            format!("{text}\n{fallback}")
        }
        (Err((text, _)), _) => text,
    }
}

/// The reply to a quote of `symbol` from `source`, the call made through the market-data
/// skill's runtime ([`call::price`]); a failure is said in its reply too, with the error
/// beside it.
async fn quote<C>(
    runtime: &SkillRuntime<C>,
    source: &DataSource,
    symbol: &Symbol,
    lang: Lang,
) -> Result<String, (String, MarketError)>
where
    C: Clock + Clone,
    C::Instant: Reference,
{
    let c = Catalog::builtin();
    match call::price(runtime, source, &json!({"symbol": symbol.as_str()})).await {
        Ok(t) => Ok(c.text(
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
                    &time_on(t.time_ms, source.sim_clock, lang == Lang::Zh),
                ),
            ],
        )),
        Err(e) => Err((unquoted(lang, symbol.as_str(), &source.label, &e), e)),
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

fn unquoted(lang: Lang, symbol: &str, source: &str, e: &MarketError) -> String {
    let c = Catalog::builtin();
    let why = match e {
        MarketError::Call(CallError::RateLimited { by, retry_in }) => {
            // Whole seconds, rounded up: "ask again in 0 s" would be asked again too soon.
            let seconds = retry_in.as_secs() + u64::from(retry_in.subsec_nanos() > 0);
            let seconds = seconds.max(1).to_string();
            return match by {
                LimitedBy::Budget { per_minute, .. } => c.text(
                    lang,
                    "market-rate-limited",
                    &[
                        ("symbol", symbol),
                        ("source", source),
                        ("limit", &per_minute.to_string()),
                        ("seconds", &seconds),
                    ],
                ),
                LimitedBy::Source { message, .. } => c.text(
                    lang,
                    "market-rate-limited-source",
                    &[
                        ("symbol", symbol),
                        ("source", source),
                        ("error", message),
                        ("seconds", &seconds),
                    ],
                ),
            };
        }
        // The venue's own words: the codes here only steer the retries, so the skill's
        // meaning of a code would name the wrong cause.
        MarketError::Call(CallError::Failed { message, .. }) => message.clone(),
        silent @ (MarketError::NoAnswerWithin { .. } | MarketError::NotAnswering { .. }) => {
            silence_text(silent, lang)
        }
        other => other.to_string(),
    };
    c.text(
        lang,
        "market-unquoted",
        &[("symbol", symbol), ("source", source), ("error", &why)],
    )
}

#[cfg(test)]
mod tests {
    use std::future::Future;
    use std::pin::Pin;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    use nofxi_domain::Interval;
    use nofxi_domain::market::{Candle, FundingRate, OrderBook, Ticker};
    use nofxi_skills::Library;
    use nofxi_skills::runtime::{FakeRelativeClock, Sleeper};
    use nofxi_trader::runtime::connect::DEFAULT_SIM_SEED;
    use nofxi_venues::sim::SimMarket;
    use nofxi_venues::{KlineQuery, MarketData, RejectKind, SystemClock, VenueError};

    use super::*;
    use crate::market_data::call::brief;
    use crate::market_data::source::simulated as simulated_market;
    use crate::market_data::source::{self, Prefer};
    use nofxi_skills::runtime::Reach;

    /// Records every wait and moves the fake clock on by it: nothing really sleeps.
    #[derive(Clone, Default)]
    struct RecordingSleeper {
        waits: Arc<Mutex<Vec<Duration>>>,
        clock: FakeRelativeClock,
    }

    impl Sleeper for RecordingSleeper {
        fn sleep(&self, d: Duration) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
            self.waits.lock().unwrap().push(d);
            self.clock.advance(d);
            Box::pin(async {})
        }
    }

    fn runtime_on(sleeper: &RecordingSleeper) -> SkillRuntime<FakeRelativeClock> {
        let library = Library::builtin().unwrap();
        let skill = library.get("market_data").unwrap();
        brief(SkillRuntime::with_clock(
            skill,
            sleeper.clock.clone(),
            Arc::new(sleeper.clone()),
            7,
        ))
    }

    /// A live venue's market: the simulated prices, each request counted, or the venue's
    /// rate-limit answer with the wait it asks for.
    struct LiveVenue {
        prices: SimMarket,
        requests: AtomicUsize,
        limited: Option<Duration>,
    }

    #[async_trait]
    impl MarketData for LiveVenue {
        fn source(&self) -> &str {
            "binance"
        }
        async fn ticker(&self, symbol: &Symbol) -> Result<Ticker, VenueError> {
            self.requests.fetch_add(1, Ordering::SeqCst);
            if let Some(wait) = self.limited {
                return Err(VenueError::Rejected {
                    venue: "binance".into(),
                    kind: RejectKind::RateLimited,
                    code: -1003,
                    message: "Too many requests; current limit is 2400 requests per minute.".into(),
                    http_status: 429,
                    retry_after: Some(wait),
                });
            }
            self.prices.ticker(symbol).await
        }
        async fn order_book(&self, symbol: &Symbol, depth: usize) -> Result<OrderBook, VenueError> {
            self.prices.order_book(symbol, depth).await
        }
        async fn klines(
            &self,
            symbol: &Symbol,
            interval: Interval,
            query: KlineQuery,
        ) -> Result<Vec<Candle>, VenueError> {
            self.prices.klines(symbol, interval, query).await
        }
        async fn funding_rate(&self, symbol: &Symbol) -> Result<Option<FundingRate>, VenueError> {
            self.prices.funding_rate(symbol).await
        }
    }

    fn live(limited: Option<Duration>) -> (Arc<LiveVenue>, DataSource) {
        let venue = Arc::new(LiveVenue {
            prices: SimMarket::new(DEFAULT_SIM_SEED, Arc::new(SystemClock)),
            requests: AtomicUsize::new(0),
            limited,
        });
        let source = DataSource {
            market: venue.clone(),
            name: "binance".into(),
            label: "main (binance), live".into(),
            simulated: false,
            sim_clock: false,
            reach: Reach::Remote,
        };
        (venue, source)
    }

    /// A long chat of "btc price" against the simulated market: it makes no request, so no
    /// rate limit holds it up (the 31st turn used to wait 2 s, and every one after it).
    #[tokio::test]
    async fn the_simulated_market_is_never_rate_limited() {
        let sleeper = RecordingSleeper::default();
        let rt = runtime_on(&sleeper);
        let source = simulated_market(Lang::En);
        let btc = Symbol::parse("BTC").unwrap();
        for turn in 0..100 {
            let reply = quote(&rt, &source, &btc, Lang::En).await.unwrap();
            assert!(
                reply.contains("BTCUSDT") && reply.contains("last"),
                "{turn}: {reply}"
            );
        }
        assert!(
            sleeper.waits.lock().unwrap().is_empty(),
            "{:?}",
            sleeper.waits
        );
    }

    /// Where a quote comes from decides whether the budget applies: a paper account's and
    /// the fallback's simulated market are local, a live account's venue is not.
    #[tokio::test]
    async fn only_a_live_accounts_market_is_remote() {
        use nofxi_domain::{Actor, Channel, CredentialField, Credentials, ExchangeSpec};
        let ts = nofxi_store::test_support::sqlite_store().await.unwrap();
        let actor = Actor::new("default", Channel::Cli, true);
        let cx = ToolContext {
            store: &ts.store,
            user: "default",
            lang: Lang::En,
            channel: Channel::Cli,
            confirmed: false,
        };
        assert_eq!(
            source::for_user(cx.store, cx.user, Prefer::Live, cx.lang)
                .await
                .unwrap()
                .reach,
            Reach::Local,
            "no account"
        );
        let spec = |kind: &str, name: &str| ExchangeSpec {
            exchange_type: kind.into(),
            account_name: name.into(),
            enabled: true,
            testnet: false,
        };
        ts.store
            .create_exchange(&actor, spec("paper", "sandbox"), Credentials::new())
            .await
            .unwrap();
        assert_eq!(
            source::for_user(cx.store, cx.user, Prefer::Live, cx.lang)
                .await
                .unwrap()
                .reach,
            Reach::Local,
            "paper"
        );
        let keys = Credentials::new()
            .with(CredentialField::ApiKey, "AKlive0123456789")
            .with(CredentialField::SecretKey, "SKlive0123456789");
        ts.store
            .create_exchange(&actor, spec("binance", "main"), keys)
            .await
            .unwrap();
        assert_eq!(
            source::for_user(cx.store, cx.user, Prefer::Live, cx.lang)
                .await
                .unwrap()
                .reach,
            Reach::Remote,
            "live"
        );
        assert_eq!(
            source::for_user(cx.store, cx.user, Prefer::Local, cx.lang)
                .await
                .unwrap()
                .reach,
            Reach::Local,
            "the paper account beside it"
        );
    }

    /// A live venue keeps to the skill's budget (30 quotes a minute); the quote over it is
    /// not waited for inside the turn but answered: the limit, and when to ask again.
    #[tokio::test]
    async fn a_live_source_over_its_budget_says_so_instead_of_waiting() {
        let sleeper = RecordingSleeper::default();
        let rt = runtime_on(&sleeper);
        let (venue, source) = live(None);
        let btc = Symbol::parse("BTC").unwrap();
        for _ in 0..30 {
            let reply = quote(&rt, &source, &btc, Lang::En).await.unwrap();
            assert!(reply.contains("last"), "{reply}");
        }
        let (reply, _) = quote(&rt, &source, &btc, Lang::En).await.unwrap_err();
        assert!(
            reply.contains("30") && reply.contains("main (binance)") && reply.contains("2 s"),
            "{reply}"
        );
        let (reply, _) = quote(&rt, &source, &btc, Lang::Zh).await.unwrap_err();
        assert!(reply.contains("30") && reply.contains("2 秒"), "{reply}");
        assert_eq!(
            venue.requests.load(Ordering::SeqCst),
            30,
            "nothing sent over it"
        );
        assert!(
            sleeper.waits.lock().unwrap().is_empty(),
            "{:?}",
            sleeper.waits
        );
        // Once the wait has passed, the next quote goes through.
        sleeper.clock.advance(Duration::from_secs(2));
        assert!(
            quote(&rt, &source, &btc, Lang::En)
                .await
                .unwrap()
                .contains("last")
        );
    }

    /// A live venue that cannot be reached: its failure, then the paper account's simulated
    /// quote, labelled so.
    #[tokio::test]
    async fn an_unreachable_live_venue_is_said_then_the_simulated_quote() {
        let sleeper = RecordingSleeper::default();
        let rt = runtime_on(&sleeper);
        let (venue, mut source) = live(None);
        source.market = Arc::new(Unreachable);
        // Its own name: a source that cannot be reached is remembered by name, process-wide.
        source.name = "unreachable-in-this-test".into();
        let local = simulated_market(Lang::En);
        let btc = Symbol::parse("BTC").unwrap();
        let reply = answer(&rt, &source, Some(&local), &btc, Lang::En).await;
        let (failed, quoted) = reply.split_once('\n').unwrap();
        assert!(
            failed.contains("main (binance)") && failed.contains("dns"),
            "{reply}"
        );
        assert!(
            quoted.contains(&local.label) && quoted.contains("last"),
            "{reply}"
        );
        assert_eq!(venue.requests.load(Ordering::SeqCst), 0);
        // Without a local source, only the failure.
        let alone = answer(&rt, &source, None, &btc, Lang::En).await;
        assert!(!alone.contains("last"), "{alone}");
    }

    /// A venue whose host does not resolve.
    struct Unreachable;

    fn unresolved() -> VenueError {
        VenueError::Network {
            venue: "binance".into(),
            at: "at https://fapi.binance.com".into(),
            cause: nofxi_domain::transport::TransportCause::Dns,
            detail: "dns error: failed to lookup address".into(),
        }
    }

    #[async_trait]
    impl MarketData for Unreachable {
        fn source(&self) -> &str {
            "binance"
        }
        async fn ticker(&self, _: &Symbol) -> Result<Ticker, VenueError> {
            Err(unresolved())
        }
        async fn order_book(&self, _: &Symbol, _: usize) -> Result<OrderBook, VenueError> {
            Err(unresolved())
        }
        async fn klines(
            &self,
            _: &Symbol,
            _: Interval,
            _: KlineQuery,
        ) -> Result<Vec<Candle>, VenueError> {
            Ok(Vec::new())
        }
        async fn funding_rate(&self, _: &Symbol) -> Result<Option<FundingRate>, VenueError> {
            Ok(None)
        }
    }

    /// The venue's own rate limit (429 with a Retry-After of 30 s) is said with the venue's
    /// words and the wait, not slept through.
    #[tokio::test]
    async fn a_venues_rate_limit_is_said_with_its_wait() {
        let sleeper = RecordingSleeper::default();
        let rt = runtime_on(&sleeper);
        let (venue, source) = live(Some(Duration::from_secs(30)));
        let btc = Symbol::parse("BTC").unwrap();
        let (reply, _) = quote(&rt, &source, &btc, Lang::En).await.unwrap_err();
        assert!(
            reply.contains("Too many requests") && reply.contains("30 s"),
            "{reply}"
        );
        assert_eq!(venue.requests.load(Ordering::SeqCst), 1);
        assert!(
            sleeper.waits.lock().unwrap().is_empty(),
            "{:?}",
            sleeper.waits
        );
    }
}
