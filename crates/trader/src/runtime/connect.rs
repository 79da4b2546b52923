//! From an exchange config in the store to a live venue: the one place that decides which
//! adapter serves which `exchange_type`, and the only caller of the store's credential
//! decryption for trading.
//!
//! Paper accounts fill against the simulated market or a venue's public prices and keep their
//! state in the store's state documents (scope `paper`), so a restart loses nothing. Exchange
//! accounts use the stored credentials; each venue's `NOFXI_<VENUE>_BASE_URL` points it
//! elsewhere (a proxy, or the mock server in tests), and only an explanation of an account on
//! that venue names it, only when it is set ([`BaseUrlOverride`]). An OKX account's `testnet`
//! flag is OKX's demo trading (same URL, `x-simulated-trading: 1`); a Bitget account's is
//! Bitget's (same URL, a demo key and `paptrading: 1`).

use std::sync::Arc;

use async_trait::async_trait;
use nofxi_domain::base_url::check_base_url;
use nofxi_domain::exchange::Exchange as ExchangeConfig;
use nofxi_domain::{CredentialField, Credentials, FieldProblem, Secret};
use nofxi_store::{Store, StoreError};
use nofxi_venues::binance::{
    ApiCredentials, BinanceClient, BinanceEndpoints, BinanceFutures, BinanceMarket, BinanceOptions,
};
use nofxi_venues::bitget::{
    BitgetClient, BitgetCredentials, BitgetEndpoints, BitgetFutures, BitgetMarket, BitgetOptions,
};
use nofxi_venues::bybit::{
    BybitClient, BybitCredentials, BybitEndpoints, BybitLinear, BybitMarket, BybitOptions,
};
use nofxi_venues::connectivity::{ConnectivityReport, LiveAccount};
use nofxi_venues::hyperliquid::{
    HyperliquidClient, HyperliquidCredentials, HyperliquidEndpoints, HyperliquidMarket,
    HyperliquidOptions, HyperliquidPerp,
};
use nofxi_venues::okx::{OkxClient, OkxCredentials, OkxEndpoints, OkxMarket, OkxOptions, OkxSwap};
use nofxi_venues::paper::{PaperConfig, PaperExchange, PaperStateRepo};
use nofxi_venues::sim::SimMarket;
use nofxi_venues::{Clock, Exchange, MarketData, VenueError};

use super::lease_guard::LeaseGuard;
use rust_decimal::Decimal;
use serde_json::Value;

/// Paper account state lives under this state-document scope.
pub const PAPER_SCOPE: &str = "paper";
/// Replaces Binance's base URLs (a proxy, or the mock server in tests).
pub const BINANCE_BASE_URL_ENV: &str = "NOFXI_BINANCE_BASE_URL";
/// Replaces OKX's base URL (a proxy, or the mock server in tests).
pub const OKX_BASE_URL_ENV: &str = "NOFXI_OKX_BASE_URL";
/// Replaces Bybit's base URL, mainnet and testnet alike (a proxy, or the mock in tests).
pub const BYBIT_BASE_URL_ENV: &str = "NOFXI_BYBIT_BASE_URL";
/// Replaces Bitget's base URL (a proxy, or the mock server in tests).
pub const BITGET_BASE_URL_ENV: &str = "NOFXI_BITGET_BASE_URL";
/// Replaces Hyperliquid's base URL, mainnet and testnet alike (a proxy, or the mock in tests).
pub const HYPERLIQUID_BASE_URL_ENV: &str = "NOFXI_HYPERLIQUID_BASE_URL";
/// A venue's base URL replaced through its variable (`NOFXI_OKX_BASE_URL`): a proxy, a
/// gateway, or a mock in tests. An explanation of a venue that cannot be reached, or answers
/// without what nofxi reads, names it; when none is set, no explanation names any variable,
/// since a user who set none has none to change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BaseUrlOverride {
    /// `okx`.
    pub venue: &'static str,
    /// `NOFXI_OKX_BASE_URL`.
    pub variable: &'static str,
    /// Its value, trimmed.
    pub url: String,
}

/// Each venue's variable that replaces its base URL.
const BASE_URL_VARIABLES: [(&str, &str); 5] = [
    ("binance", BINANCE_BASE_URL_ENV),
    ("okx", OKX_BASE_URL_ENV),
    ("bybit", BYBIT_BASE_URL_ENV),
    ("bitget", BITGET_BASE_URL_ENV),
    ("hyperliquid", HYPERLIQUID_BASE_URL_ENV),
];

/// `venue`'s base URL override (`binance`, `okx`, `bybit`, `bitget`, `hyperliquid`), when
/// its variable is set to something.
pub fn base_url_override(venue: &str) -> Option<BaseUrlOverride> {
    let (venue, variable) = BASE_URL_VARIABLES.into_iter().find(|(v, _)| *v == venue)?;
    let url = std::env::var(variable).ok()?;
    let url = url.trim();
    (!url.is_empty()).then(|| BaseUrlOverride {
        venue,
        variable,
        url: url.to_string(),
    })
}

/// The simulated market's default seed; `NOFXI_SIM_SEED` changes it.
pub const DEFAULT_SIM_SEED: u64 = 42;

/// A venue to trade on and the market data that goes with it.
pub struct Venue {
    pub exchange: Arc<dyn Exchange>,
    pub market: Arc<dyn MarketData>,
    /// `paper`, `binance`, `binance-testnet`, `okx`, `okx-demo`, `bybit`, `bybit-testnet`: whether
    /// orders move real money is decided here.
    pub kind: String,
    /// What its prices are, for every place a price or P&L of the account is shown:
    /// `simulated market (offline)`, `binance live prices (paper fills)`, `binance`.
    pub prices: String,
    /// The exchange adapter itself, for the checks only an exchange account has (clock, key,
    /// IP whitelist, permissions); `None` for paper.
    live: Option<LiveAccount>,
    /// The venue whose public market data a paper account follows: its check probes
    /// [`Venue::market`]. `None` for the simulated market and for exchange accounts.
    follows: Option<&'static str>,
}

impl Venue {
    pub fn is_paper(&self) -> bool {
        self.kind == "paper"
    }

    /// The base URL the user set in place of this account's venue's own, if any: an account
    /// of the venue, or a paper account following its prices. `None` for the simulated market.
    pub fn base_url_override(&self) -> Option<BaseUrlOverride> {
        let venue = match self.follows {
            Some(venue) => venue,
            None if self.is_paper() => return None,
            None => self.kind.split('-').next().unwrap_or(&self.kind),
        };
        base_url_override(venue)
    }

    /// The connectivity check of `nofxi exchange test` and of "test main" in the chat: every
    /// step REFERENCE §3 lists for an exchange account; the balance and mode for paper, and
    /// a probe of the public market a paper account follows.
    pub async fn check(&self) -> ConnectivityReport {
        match &self.live {
            Some(live) => live.check().await,
            None => {
                let follows = self.follows.map(|_| self.market.as_ref());
                ConnectivityReport::for_paper(self.exchange.as_ref(), follows).await
            }
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ConnectError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Venue(#[from] VenueError),
    #[error(
        "exchange {name} has no {field}: add it with `nofxi exchange update {name} --{flag} -`",
        field = .field.as_str(),
        flag = .field.as_str().replace('_', "-")
    )]
    MissingCredential {
        name: String,
        field: CredentialField,
    },
    /// `NOFXI_BINANCE_BASE_URL` or `NOFXI_OKX_BASE_URL` is set to something no request can go to.
    #[error("{fix}; or unset {variable} to use the exchange's own URLs")]
    BadBaseUrl { fix: String, variable: &'static str },
    /// An account of a type nofxi cannot trade on (one an older nofxi made: no new one is
    /// offered), or a market no venue serves: nothing is tested or traded.
    #[error(
        "trading on {kind} accounts is not available: nofxi trades on {} only and cannot connect to {kind}, so it can neither check the account's credentials nor start a trader on it (the account is kept as a config: update or delete it)",
        nofxi_domain::ExchangeType::tradable()
    )]
    Unsupported { kind: String },
}

/// Which paper account to open: an exchange config's own, or a trader's sub-account (each
/// paper trader gets a wallet funded with its own initial balance).
#[derive(Debug, Clone)]
pub enum PaperAccount {
    Exchange,
    Trader {
        trader_id: String,
        initial_balance: Decimal,
    },
}

/// Whether what happens on a paper account is kept: a trader's venue saves every change, a
/// reader's view (see [`super::view`]) saves none, and a trader run by the engine saves only
/// while its lease holds (a stale engine's fills are refused by the store).
#[derive(Debug, Clone)]
pub enum Persistence {
    Save,
    ReadOnly,
    Fenced(Arc<LeaseGuard>),
}

pub async fn connect(
    store: Arc<Store>,
    user: &str,
    exchange_ref: &str,
    paper_account: PaperAccount,
    clock: Arc<dyn Clock>,
) -> Result<Venue, ConnectError> {
    connect_with(
        store,
        user,
        exchange_ref,
        paper_account,
        clock,
        Persistence::Save,
    )
    .await
}

/// [`connect`], saying whether a paper account's changes are kept.
pub async fn connect_with(
    store: Arc<Store>,
    user: &str,
    exchange_ref: &str,
    paper_account: PaperAccount,
    clock: Arc<dyn Clock>,
    persistence: Persistence,
) -> Result<Venue, ConnectError> {
    let (config, credentials) = store.credentials_for_signing(user, exchange_ref).await?;
    match config.spec.exchange_type.as_str() {
        "paper" => {
            let source = config.market;
            let (market, fees_of): (Arc<dyn MarketData>, Option<&str>) = match source.venue() {
                None => (Arc::new(SimMarket::new(sim_seed(), clock.clone())), None),
                Some(venue) => {
                    let market = super::public_market::public_market(venue, clock.clone())?
                        .ok_or_else(|| ConnectError::Unsupported { kind: venue.into() })?;
                    (market, Some(venue))
                }
            };
            let (key, paper_config) = match paper_account {
                PaperAccount::Exchange => (config.id.clone(), PaperConfig::default()),
                PaperAccount::Trader {
                    trader_id,
                    initial_balance,
                } => (
                    format!("{}:{trader_id}", config.id),
                    PaperConfig::with_balance(initial_balance),
                ),
            };
            let repo = Arc::new(StorePaperRepo {
                store,
                user: user.to_string(),
                persistence,
            });
            let paper_config = match fees_of {
                Some(venue) => paper_config.following(venue),
                None => paper_config,
            };
            let paper =
                PaperExchange::open(&key, paper_config, market.clone(), clock, repo).await?;
            Ok(Venue {
                exchange: Arc::new(paper),
                market,
                kind: "paper".into(),
                prices: source.label(),
                live: None,
                follows: fees_of,
            })
        }
        "binance" => {
            let key = required(&credentials, &config, CredentialField::ApiKey)?;
            let secret = required(&credentials, &config, CredentialField::SecretKey)?;
            let kind = if config.spec.testnet {
                "binance-testnet"
            } else {
                "binance"
            };
            let client = Arc::new(BinanceClient::new(
                kind,
                binance_endpoints(config.spec.testnet)?,
                Some(ApiCredentials::new(key.expose(), secret.expose())),
                BinanceOptions::default(),
                clock,
            )?);
            let futures = Arc::new(BinanceFutures::new(client.clone()));
            Ok(Venue {
                exchange: futures.clone(),
                market: Arc::new(BinanceMarket::new(client)),
                kind: kind.into(),
                prices: kind.into(),
                live: Some(LiveAccount::Binance(futures)),
                follows: None,
            })
        }
        "okx" => {
            let key = required(&credentials, &config, CredentialField::ApiKey)?;
            let secret = required(&credentials, &config, CredentialField::SecretKey)?;
            let passphrase = required(&credentials, &config, CredentialField::Passphrase)?;
            let demo = config.spec.testnet;
            let kind = if demo { "okx-demo" } else { "okx" };
            let client = Arc::new(OkxClient::new(
                kind,
                okx_endpoints()?,
                Some(OkxCredentials::new(
                    key.expose(),
                    secret.expose(),
                    passphrase.expose(),
                )),
                OkxOptions {
                    demo,
                    ..OkxOptions::default()
                },
                clock,
            )?);
            let swap = Arc::new(OkxSwap::new(client.clone()));
            Ok(Venue {
                exchange: swap.clone(),
                market: Arc::new(OkxMarket::new(client, swap.contracts().clone())),
                kind: kind.into(),
                prices: kind.into(),
                live: Some(LiveAccount::Okx(swap)),
                follows: None,
            })
        }
        // Bybit v5 USDT perpetuals; `testnet` is Bybit's testnet URL.
        "bybit" => {
            let key = required(&credentials, &config, CredentialField::ApiKey)?;
            let secret = required(&credentials, &config, CredentialField::SecretKey)?;
            let testnet = config.spec.testnet;
            let kind = if testnet { "bybit-testnet" } else { "bybit" };
            let client = Arc::new(BybitClient::new(
                kind,
                bybit_endpoints(testnet)?,
                Some(BybitCredentials::new(key.expose(), secret.expose())),
                BybitOptions::default(),
                clock,
            )?);
            let linear = Arc::new(BybitLinear::new(client.clone()));
            Ok(Venue {
                exchange: linear.clone(),
                market: Arc::new(BybitMarket::new(client, linear.instruments().clone())),
                kind: kind.into(),
                prices: kind.into(),
                live: Some(LiveAccount::Bybit(linear)),
                follows: None,
            })
        }
        "bitget" => {
            let key = required(&credentials, &config, CredentialField::ApiKey)?;
            let secret = required(&credentials, &config, CredentialField::SecretKey)?;
            let passphrase = required(&credentials, &config, CredentialField::Passphrase)?;
            let demo = config.spec.testnet;
            let kind = if demo { "bitget-demo" } else { "bitget" };
            let client = Arc::new(BitgetClient::new(
                kind,
                bitget_endpoints()?,
                Some(BitgetCredentials::new(
                    key.expose(),
                    secret.expose(),
                    passphrase.expose(),
                )),
                BitgetOptions {
                    demo,
                    ..BitgetOptions::default()
                },
                clock,
            )?);
            let futures = Arc::new(BitgetFutures::new(client.clone()));
            Ok(Venue {
                exchange: futures.clone(),
                market: Arc::new(BitgetMarket::new(client, futures.contracts().clone())),
                kind: kind.into(),
                prices: kind.into(),
                live: Some(LiveAccount::Bitget(futures)),
                follows: None,
            })
        }
        // Hyperliquid perpetuals: the agent wallet's key signs for the main wallet; `testnet`
        // is Hyperliquid's testnet (its URL and its signatures).
        "hyperliquid" => {
            let key = required(&credentials, &config, CredentialField::ApiKey)?;
            let wallet = required(&credentials, &config, CredentialField::WalletAddr)?;
            let testnet = config.spec.testnet;
            let kind = if testnet {
                "hyperliquid-testnet"
            } else {
                "hyperliquid"
            };
            let client = Arc::new(HyperliquidClient::new(
                kind,
                hyperliquid_endpoints(testnet)?,
                Some(HyperliquidCredentials::new(key.expose(), wallet.expose())?),
                HyperliquidOptions::default(),
                clock,
            )?);
            let perp = Arc::new(HyperliquidPerp::new(client.clone()));
            Ok(Venue {
                exchange: perp.clone(),
                market: Arc::new(HyperliquidMarket::new(client, perp.assets().clone())),
                kind: kind.into(),
                prices: kind.into(),
                live: Some(LiveAccount::Hyperliquid(perp)),
                follows: None,
            })
        }
        other => Err(ConnectError::Unsupported {
            kind: other.to_string(),
        }),
    }
}

/// The account's stored credential `field`, or the error saying how to add it.
fn required<'c>(
    credentials: &'c Credentials,
    config: &ExchangeConfig,
    field: CredentialField,
) -> Result<&'c Secret, ConnectError> {
    credentials
        .get(field)
        .ok_or_else(|| ConnectError::MissingCredential {
            name: config.spec.account_name.clone(),
            field,
        })
}

/// Whether an exchange config trades real money (anything but paper, testnet included: a
/// testnet start is still confirmed, since the user may have mixed the flag up).
pub fn is_live(config: &ExchangeConfig) -> bool {
    config.spec.exchange_type != "paper"
}

/// The Binance endpoints to use: the override variable wins, then testnet or mainnet. A value
/// that is no usable base URL is refused here, naming the variable, before any request (it
/// would otherwise fail later as a bare "builder error"); the rule is the one model base URLs
/// follow (https, or http to this machine; no credentials or query).
pub fn binance_endpoints(testnet: bool) -> Result<BinanceEndpoints, ConnectError> {
    match std::env::var(BINANCE_BASE_URL_ENV) {
        Ok(url) if !url.trim().is_empty() => {
            let url = checked_base_url(BINANCE_BASE_URL_ENV, &url)?;
            Ok(BinanceEndpoints::single(url).from_origin(BINANCE_BASE_URL_ENV))
        }
        _ => Ok(BinanceEndpoints::for_testnet(testnet)),
    }
}

/// OKX's endpoint: the override variable wins, then OKX's own URL (live and demo alike).
pub fn okx_endpoints() -> Result<OkxEndpoints, ConnectError> {
    match std::env::var(OKX_BASE_URL_ENV) {
        Ok(url) if !url.trim().is_empty() => Ok(OkxEndpoints::at(
            checked_base_url(OKX_BASE_URL_ENV, &url)?,
            OKX_BASE_URL_ENV,
        )),
        _ => Ok(OkxEndpoints::official()),
    }
}

/// Bitget's endpoint: the override variable wins, then Bitget's own URL (live and demo alike).
pub fn bitget_endpoints() -> Result<BitgetEndpoints, ConnectError> {
    match std::env::var(BITGET_BASE_URL_ENV) {
        Ok(url) if !url.trim().is_empty() => Ok(BitgetEndpoints::at(
            checked_base_url(BITGET_BASE_URL_ENV, &url)?,
            BITGET_BASE_URL_ENV,
        )),
        _ => Ok(BitgetEndpoints::official()),
    }
}

/// Bybit's endpoint: the override variable wins, then Bybit's testnet or mainnet URL.
pub fn bybit_endpoints(testnet: bool) -> Result<BybitEndpoints, ConnectError> {
    match std::env::var(BYBIT_BASE_URL_ENV) {
        Ok(url) if !url.trim().is_empty() => Ok(BybitEndpoints::at(
            checked_base_url(BYBIT_BASE_URL_ENV, &url)?,
            BYBIT_BASE_URL_ENV,
        )),
        _ => Ok(BybitEndpoints::official(testnet)),
    }
}

/// Hyperliquid's endpoint: the override variable wins, then Hyperliquid's testnet or mainnet
/// URL; either way it signs for the network the account is on.
pub fn hyperliquid_endpoints(testnet: bool) -> Result<HyperliquidEndpoints, ConnectError> {
    match std::env::var(HYPERLIQUID_BASE_URL_ENV) {
        Ok(url) if !url.trim().is_empty() => Ok(HyperliquidEndpoints::at(
            checked_base_url(HYPERLIQUID_BASE_URL_ENV, &url)?,
            HYPERLIQUID_BASE_URL_ENV,
            testnet,
        )),
        _ => Ok(HyperliquidEndpoints::official(testnet)),
    }
}

/// `url` from the override `variable`, trimmed, or the refusal naming the variable.
fn checked_base_url<'a>(variable: &'static str, url: &'a str) -> Result<&'a str, ConnectError> {
    match check_base_url(url) {
        Some(problem) => Err(ConnectError::BadBaseUrl {
            fix: FieldProblem::new(variable, problem).fix(),
            variable,
        }),
        None => Ok(url.trim()),
    }
}

pub fn sim_seed() -> u64 {
    std::env::var("NOFXI_SIM_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(DEFAULT_SIM_SEED)
}

/// The store as the paper exchange's persistence.
pub struct StorePaperRepo {
    pub store: Arc<Store>,
    pub user: String,
    /// `ReadOnly` loads but never saves: a reader's view must not race the engine's saves,
    /// nor keep what working the account's orders at the reader's moment did.
    pub persistence: Persistence,
}

#[async_trait]
impl PaperStateRepo for StorePaperRepo {
    async fn load(&self, account: &str) -> Result<Option<Value>, VenueError> {
        self.store
            .get_state(&self.user, PAPER_SCOPE, account)
            .await
            .map_err(|e| VenueError::Storage(e.to_string()))
    }

    async fn save(&self, account: &str, state: &Value) -> Result<(), VenueError> {
        let saved = match &self.persistence {
            Persistence::ReadOnly => return Ok(()),
            Persistence::Save => {
                self.store
                    .put_state(&self.user, PAPER_SCOPE, account, state)
                    .await
            }
            Persistence::Fenced(guard) => self
                .store
                .put_state_fenced(guard.fence(), &self.user, PAPER_SCOPE, account, state)
                .await
                .map_err(|e| guard.seen(e)),
        };
        saved.map_err(|e| match e {
            StoreError::Fenced { .. } => VenueError::Fenced(e.to_string()),
            e => VenueError::Storage(e.to_string()),
        })
    }
}
