//! The connectivity check of one exchange config, for `nofxi exchange test` and the diagnosis
//! skill: Binance's here, OKX's in [`okx`](check_okx); every venue's fills the same typed
//! [`ConnectivityReport`], which the CLI prints and the assistant explains.
//!
//! Checks run in the order REFERENCE §3 recommends (clock → key and secret → IP whitelist →
//! permissions), then read the position mode and the balance. Each result is typed, so the
//! diagnosis skill can pick an explanation, and keeps the exchange's code and message, so the
//! user sees exactly what the exchange said. A failed step skips what depends on it and says so.
//!
//! A check passes only on the fields it judges by. An answer without them (a server that is
//! not Binance, a proxy answering `{}`) makes the check [`Check::Unreadable`], naming the field
//! and the endpoint, never passed: nothing is inferred from an answer nofxi could not read.

mod bitget;
mod bybit;
mod hyperliquid;
mod okx;

use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

use nofxi_domain::market::Symbol;
use nofxi_domain::trading::{AccountSnapshot, PositionMode};
use reqwest::Method;
use rust_decimal::Decimal;
use serde::Serialize;

use crate::binance::{Base, BinanceFutures, Retry};
use crate::error::WHOLE_ANSWER;
use crate::okx::OkxSwap;
use crate::{Exchange, MarketData, RejectKind, VenueError};

pub use bitget::check_bitget;
pub use bybit::check_bybit;
pub use hyperliquid::check_hyperliquid;
pub use okx::check_okx;

/// An exchange account the full check runs against, by venue (a paper account has no key to
/// check, only its prices: see [`ConnectivityReport::for_paper`]).
#[derive(Debug, Clone)]
pub enum LiveAccount {
    Binance(Arc<BinanceFutures>),
    Okx(Arc<OkxSwap>),
    Bitget(Arc<crate::bitget::BitgetFutures>),
    Bybit(Arc<crate::bybit::BybitLinear>),
    Hyperliquid(Arc<crate::hyperliquid::HyperliquidPerp>),
}

impl LiveAccount {
    pub async fn check(&self) -> ConnectivityReport {
        match self {
            LiveAccount::Binance(b) => check_binance(b).await,
            LiveAccount::Okx(o) => check_okx(o).await,
            LiveAccount::Bitget(b) => check_bitget(b).await,
            LiveAccount::Bybit(b) => check_bybit(b).await,
            LiveAccount::Hyperliquid(h) => check_hyperliquid(h).await,
        }
    }
}

/// Past this, the clock is worth fixing even though nofxi compensates.
const CLOCK_WARN_MS: i64 = 1_000;

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Check<T> {
    Passed {
        value: T,
    },
    /// Works, but something is worth fixing.
    Warning {
        value: T,
        problem: Problem,
    },
    Failed {
        problem: Problem,
    },
    Skipped {
        because: String,
    },
    /// The exchange answered, but without the field this check judges by.
    Unreadable {
        /// `GET /fapi/v2/account`.
        endpoint: String,
        /// The field's name, or `(the answer itself)` when the answer has the wrong shape.
        field: String,
        problem: Problem,
    },
}

impl<T> Check<T> {
    pub fn is_failed(&self) -> bool {
        matches!(self, Check::Failed { .. })
    }

    pub fn is_unreadable(&self) -> bool {
        matches!(self, Check::Unreadable { .. })
    }

    /// Neither failed nor unreadable: passed, warned or skipped.
    pub fn holds(&self) -> bool {
        !self.is_failed() && !self.is_unreadable()
    }

    pub fn problem(&self) -> Option<&Problem> {
        match self {
            Check::Warning { problem, .. }
            | Check::Failed { problem }
            | Check::Unreadable { problem, .. } => Some(problem),
            _ => None,
        }
    }

    /// Failed, or unreadable when `e` is an answer without the field read.
    fn from_error(diagnosis: Diagnosis, e: &VenueError) -> Self {
        match e {
            VenueError::Unreadable {
                endpoint, field, ..
            } => Check::Unreadable {
                endpoint: endpoint.clone().unwrap_or_default(),
                field: field.clone(),
                problem: Problem::from_error(Diagnosis::Unreadable, e),
            },
            _ => Check::Failed {
                problem: Problem::from_error(diagnosis, e),
            },
        }
    }

    fn skipped(because: &str) -> Self {
        Check::Skipped {
            because: because.into(),
        }
    }
}

/// What went wrong, named.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Diagnosis {
    Unreachable,
    /// The exchange refused a request's timestamp.
    ClockDrift,
    /// This computer's clock is measurably off the exchange's; nofxi corrects its requests,
    /// so nothing was refused yet.
    ClockOffset,
    BadSignature,
    /// The passphrase sent with the key is not the one set when it was created (OKX, Bitget).
    BadPassphrase,
    BadKeyFormat,
    /// The exchange refused the key and we cannot tell an unknown key from a non-whitelisted IP.
    KeyOrIpRejected,
    /// The exchange said this machine's IP is not on the key's whitelist (OKX 50110, Bybit
    /// 10010, Bitget 40018): the key itself is not in question.
    IpNotWhitelisted,
    /// Hyperliquid does not take the agent (API) wallet as signing for the main wallet: the
    /// agent is not approved (never, replaced, expired) or approved for another wallet, or
    /// the main wallet address is wrong. It has no IP whitelist, so the refused key's advice
    /// would send the user looking for one.
    AgentWallet,
    FuturesPermissionMissing,
    /// The account is in hedge (two-way) position mode: nofxi trades it, naming each order's
    /// side, but reads the mode when a trader starts, so it is told, not failed.
    HedgeMode,
    /// The account is in a mode that cannot trade USDT perpetuals at all (OKX's Spot mode, a
    /// Bybit classic account): fixed in the exchange's account settings.
    AccountMode,
    NoBalance,
    /// The exchange answered without a field a check judges by.
    Unreadable,
    Other,
}

impl Diagnosis {
    pub fn advice(self) -> &'static str {
        match self {
            Diagnosis::Unreachable => {
                "check the network or the proxy, and whether the account is on testnet or mainnet"
            }
            Diagnosis::ClockDrift => "sync the computer's clock (NTP), then test again",
            Diagnosis::ClockOffset => {
                "sync the computer's clock (NTP); nofxi compensates, other tools may not"
            }
            Diagnosis::BadSignature => {
                "the secret key is wrong or swapped with the API key: paste both again"
            }
            Diagnosis::BadPassphrase => {
                "enter the passphrase set when the API key was created (or make a new key)"
            }
            Diagnosis::BadKeyFormat => "the API key is malformed: copy it again without spaces",
            Diagnosis::KeyOrIpRejected => {
                "check the API key is current, and add this machine's IP to the key's whitelist"
            }
            Diagnosis::IpNotWhitelisted => {
                "add this machine's public IP to the key's whitelist (or lift the restriction)"
            }
            Diagnosis::AgentWallet => {
                "approve the agent wallet from the main wallet (Hyperliquid → More → API), use its private key as the API key, and set wallet_addr to the main wallet that approved it"
            }
            Diagnosis::FuturesPermissionMissing => {
                "enable \"Futures\" on the API key in the exchange's API management page"
            }
            Diagnosis::HedgeMode => {
                "nothing to do to trade; switch position modes only with no position or order open, then restart the account's traders"
            }
            Diagnosis::AccountMode => {
                "switch the account to a mode that trades perpetuals in the exchange's account settings"
            }
            Diagnosis::NoBalance => "transfer USDT to the futures wallet before trading",
            Diagnosis::Unreadable => {
                "make sure the exchange's own API answers, not a proxy or a login page in its place"
            }
            Diagnosis::Other => "see the exchange's message",
        }
    }
}

impl fmt::Display for Diagnosis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Diagnosis::Unreachable => "exchange unreachable",
            Diagnosis::ClockDrift => "clock drift",
            Diagnosis::ClockOffset => "clock off",
            Diagnosis::BadSignature => "bad signature",
            Diagnosis::BadPassphrase => "wrong passphrase",
            Diagnosis::BadKeyFormat => "bad API key format",
            Diagnosis::KeyOrIpRejected => "API key invalid or IP not whitelisted",
            Diagnosis::IpNotWhitelisted => "IP not whitelisted",
            Diagnosis::AgentWallet => "agent wallet not accepted for the main wallet",
            Diagnosis::FuturesPermissionMissing => "futures permission missing",
            Diagnosis::HedgeMode => "hedge position mode",
            Diagnosis::AccountMode => "account mode cannot trade perpetuals",
            Diagnosis::NoBalance => "no balance",
            Diagnosis::Unreadable => "unreadable answer",
            Diagnosis::Other => "refused",
        })
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Problem {
    pub diagnosis: Diagnosis,
    /// The exchange's error code, when it gave one.
    pub code: Option<i64>,
    /// The exchange's message, or ours when the exchange said nothing.
    pub message: String,
}

impl Problem {
    /// The exchange's code and message as it gave them (`-2015 Invalid API-key, …`).
    pub fn words(&self) -> String {
        match self.code {
            Some(code) => format!("{code} {}", self.message),
            None => self.message.clone(),
        }
    }

    fn from_error(diagnosis: Diagnosis, e: &VenueError) -> Problem {
        let message = match e {
            VenueError::Rejected { message, .. } => message.clone(),
            other => other.to_string(),
        };
        Problem {
            diagnosis,
            code: e.code(),
            message,
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.diagnosis)?;
        if let Some(code) = self.code {
            write!(f, " ({code})")?;
        }
        write!(f, ": {} — {}", self.message, self.diagnosis.advice())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ClockOffset {
    /// Server time minus local time.
    pub offset_ms: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Permissions {
    pub futures: bool,
    /// Whether the key is restricted to whitelisted IPs (unknown when the spot API is not reachable).
    pub ip_restricted: Option<bool>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConnectivityReport {
    pub venue: String,
    pub clock: Check<ClockOffset>,
    pub api_key: Check<()>,
    pub ip_whitelist: Check<()>,
    pub permissions: Check<Permissions>,
    pub position_mode: Check<PositionMode>,
    pub balance: Check<AccountSnapshot>,
    /// A paper account's prices: the public market data it follows, probed with one ticker
    /// read, or skipped for the offline simulated market. `None` for an exchange account,
    /// whose checks above reach its venue already.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub market: Option<Check<MarketReach>>,
}

impl ConnectivityReport {
    /// No check failed and none was unreadable.
    pub fn ok(&self) -> bool {
        [
            self.clock.holds(),
            self.api_key.holds(),
            self.ip_whitelist.holds(),
            self.permissions.holds(),
            self.position_mode.holds(),
            self.balance.holds(),
            self.market.as_ref().is_none_or(Check::holds),
        ]
        .iter()
        .all(|h| *h)
    }

    /// Every problem found, in check order.
    pub fn problems(&self) -> Vec<&Problem> {
        [
            self.clock.problem(),
            self.api_key.problem(),
            self.ip_whitelist.problem(),
            self.permissions.problem(),
            self.position_mode.problem(),
            self.balance.problem(),
            self.market.as_ref().and_then(Check::problem),
        ]
        .into_iter()
        .flatten()
        .collect()
    }

    /// A paper account: no key to check, its balance and mode, and where its prices come
    /// from. On the simulated market it needs no network and says so; following a venue's
    /// public market data (`follows`), that market is probed with one ticker read, since
    /// every fill and figure of the account rests on it.
    pub async fn for_paper(
        exchange: &dyn Exchange,
        follows: Option<&dyn MarketData>,
    ) -> ConnectivityReport {
        const OFFLINE: &str = "a paper account on the simulated market needs no network";
        const NO_KEY: &str = "a paper account has no API key: its fills are simulated";
        let (signing, market) = match follows {
            None => (
                OFFLINE,
                Check::skipped("the simulated market runs offline: no network needed"),
            ),
            Some(market) => (NO_KEY, probe_market(market, MARKET_PROBE_TIMEOUT).await),
        };
        ConnectivityReport {
            venue: exchange.venue().to_string(),
            clock: Check::skipped(signing),
            api_key: Check::skipped(signing),
            ip_whitelist: Check::skipped(signing),
            permissions: Check::skipped(signing),
            position_mode: match exchange.position_mode().await {
                Ok(value) => Check::Passed { value },
                Err(e) => Check::from_error(Diagnosis::Other, &e),
            },
            balance: balance_check(exchange.account().await),
            market: Some(market),
        }
    }
}

/// How long the probe of a paper account's market waits for its ticker, retries included:
/// a test that hangs on a venue that does not answer says nothing a user can act on.
pub const MARKET_PROBE_TIMEOUT: Duration = Duration::from_secs(5);

/// The symbol the probe reads: every venue nofxi follows lists it.
const PROBE_SYMBOL: &str = "BTCUSDT";

/// What the market probe read: the venue's public ticker answered.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MarketReach {
    /// The venue whose public market data was read (`okx`).
    pub source: String,
    pub symbol: String,
    pub last: Decimal,
    pub latency_ms: u64,
}

/// One ticker read of `market`, within `timeout`: passed with what it read, failed as the
/// venue's error says (unreachable, refused, unreadable), or unreachable when nothing came
/// back in time.
pub async fn probe_market(market: &dyn MarketData, timeout: Duration) -> Check<MarketReach> {
    let source = market.source().to_string();
    let Ok(symbol) = Symbol::parse(PROBE_SYMBOL) else {
        return Check::skipped("no symbol to probe");
    };
    let started = Instant::now();
    match tokio::time::timeout(timeout, market.ticker(&symbol)).await {
        Ok(Ok(ticker)) => Check::Passed {
            value: MarketReach {
                source,
                symbol: symbol.to_string(),
                last: ticker.last,
                latency_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
            },
        },
        Ok(Err(e)) => {
            let diagnosis = match diagnose(&e) {
                Diagnosis::Other if e.kind().is_none() => Diagnosis::Unreachable,
                d => d,
            };
            Check::from_error(diagnosis, &e)
        }
        Err(_) => Check::Failed {
            problem: Problem {
                diagnosis: Diagnosis::Unreachable,
                code: None,
                message: format!(
                    "{source}'s public market data did not answer a {symbol} ticker read within {} s",
                    timeout.as_secs()
                ),
            },
        },
    }
}

fn balance_check(result: Result<AccountSnapshot, VenueError>) -> Check<AccountSnapshot> {
    match result {
        Ok(value) if value.equity.is_zero() => Check::Warning {
            problem: Problem {
                diagnosis: Diagnosis::NoBalance,
                code: None,
                message: "the futures wallet holds no USDT".into(),
            },
            value,
        },
        Ok(value) => Check::Passed { value },
        Err(e) => Check::from_error(Diagnosis::Other, &e),
    }
}

/// The position mode as the check reports it: one-way passes; hedge (long and short held
/// apart) trades too, but is told as a warning, because a trader reads the mode when it starts
/// and a switch while it runs gets its orders refused.
fn mode_found(value: PositionMode) -> Check<PositionMode> {
    match value {
        PositionMode::OneWay => Check::Passed { value },
        PositionMode::Hedge => Check::Warning {
            value,
            problem: Problem {
                diagnosis: Diagnosis::HedgeMode,
                code: None,
                message: "the account is in hedge (two-way) position mode: long and short positions are held apart".into(),
            },
        },
    }
}

/// A failed check of an account in a mode that cannot trade perpetuals, in `message`.
fn account_mode(message: &str) -> Check<PositionMode> {
    Check::Failed {
        problem: Problem {
            diagnosis: Diagnosis::AccountMode,
            code: None,
            message: message.into(),
        },
    }
}

/// Mark every check that has not run as skipped for `because`.
fn skip_rest(mut report: ConnectivityReport, because: &str) -> ConnectivityReport {
    fn fill<T>(c: &mut Check<T>, because: &str) {
        if matches!(c, Check::Skipped { .. }) {
            *c = Check::skipped(because);
        }
    }
    fill(&mut report.api_key, because);
    fill(&mut report.ip_whitelist, because);
    fill(&mut report.permissions, because);
    fill(&mut report.position_mode, because);
    fill(&mut report.balance, because);
    report
}

fn diagnose(e: &VenueError) -> Diagnosis {
    match e.kind() {
        Some(RejectKind::ClockDrift) => Diagnosis::ClockDrift,
        Some(RejectKind::BadSignature) => Diagnosis::BadSignature,
        Some(RejectKind::BadKeyFormat) => Diagnosis::BadKeyFormat,
        Some(RejectKind::KeyIpOrPermission) => Diagnosis::KeyOrIpRejected,
        Some(RejectKind::BadPassphrase) => Diagnosis::BadPassphrase,
        Some(RejectKind::IpNotWhitelisted) => Diagnosis::IpNotWhitelisted,
        Some(RejectKind::PermissionMissing) => Diagnosis::FuturesPermissionMissing,
        _ if e.outcome_unknown() => Diagnosis::Unreachable,
        _ => Diagnosis::Other,
    }
}

/// The clock check from a measured offset (server minus local): a warning past
/// [`CLOCK_WARN_MS`]. False when the time could not be read: every later check is then
/// skipped, and the report is the one to return.
fn clock_step(report: &mut ConnectivityReport, measured: Result<i64, VenueError>) -> bool {
    let offset = match measured {
        Ok(offset_ms) => offset_ms,
        Err(e) => {
            // An answer that refuses (-2015 from a proxy or a locked-down endpoint) is no
            // unreachable exchange: it is said as what it refused.
            let refused = e.kind().is_some();
            let diagnosis = match diagnose(&e) {
                Diagnosis::Other => Diagnosis::Unreachable,
                d => d,
            };
            report.clock = Check::from_error(diagnosis, &e);
            let because = if report.clock.is_unreadable() {
                "the exchange's time could not be read"
            } else if refused {
                "the exchange refused the time request"
            } else {
                "the exchange could not be reached"
            };
            *report = skip_rest(report.clone(), because);
            return false;
        }
    };
    let value = ClockOffset { offset_ms: offset };
    report.clock = if offset.abs() > CLOCK_WARN_MS {
        Check::Warning {
            value,
            problem: Problem {
                diagnosis: Diagnosis::ClockOffset,
                code: None,
                message: format!(
                    "this computer's clock is {:+.1} s off the exchange's",
                    -offset as f64 / 1000.0
                ),
            },
        }
    } else {
        Check::Passed { value }
    };
    true
}

/// Run every check against a Binance account.
pub async fn check_binance(exchange: &BinanceFutures) -> ConnectivityReport {
    let client = exchange.client();
    let mut report = ConnectivityReport {
        venue: exchange.venue().to_string(),
        clock: Check::skipped("not checked"),
        api_key: Check::skipped("the clock check failed"),
        ip_whitelist: Check::skipped("the API key check failed"),
        permissions: Check::skipped("the API key check failed"),
        position_mode: Check::skipped("the API key check failed"),
        balance: Check::skipped("the API key check failed"),
        market: None,
    };

    // 1. Clock: the raw offset between this machine and the exchange.
    if !clock_step(&mut report, client.sync_time().await) {
        return report;
    }

    // 2. Key and secret: one signed futures read, which answers the list of balances.
    let probe = client
        .signed(Method::GET, Base::Futures, BALANCE, &[], 5, Retry::Safe)
        .await;
    let futures_ok = match probe {
        Ok(v) if v.is_array() => {
            report.api_key = Check::Passed { value: () };
            true
        }
        Ok(_) => {
            // Answered, but not with balances: nothing says the key was checked at all.
            report.api_key = unreadable(exchange, BALANCE, WHOLE_ANSWER);
            false
        }
        Err(e) => {
            let d = diagnose(&e);
            let problem = Problem::from_error(d, &e);
            match d {
                Diagnosis::ClockDrift => {
                    report.clock = Check::Failed { problem };
                    return skip_rest(report, "the exchange refused the request's timestamp");
                }
                Diagnosis::KeyOrIpRejected => {}
                _ => {
                    report.api_key = Check::Failed { problem };
                    return report;
                }
            }
            // -2015 is ambiguous: ask the spot API what the key may do.
            report.api_key = Check::Failed { problem };
            false
        }
    };

    // 3. IP whitelist and permissions, from the key's own restrictions.
    let restrictions = client
        .signed(Method::GET, Base::Spot, RESTRICTIONS, &[], 1, Retry::Safe)
        .await;
    match restrictions {
        Ok(r) => read_restrictions(exchange, &mut report, &r, futures_ok),
        Err(_) if futures_ok => {
            // Spot API not reachable (testnets have a separate one): futures worked, that is enough.
            report.ip_whitelist = Check::Passed { value: () };
            report.permissions = Check::Passed {
                value: Permissions {
                    futures: true,
                    ip_restricted: None,
                },
            };
        }
        Err(_) if report.api_key.is_unreadable() => {
            // The IP is judged by the same answer as the key: it could not be read either.
            report.ip_whitelist = report.api_key.clone();
            report.permissions = Check::skipped("the exchange's answers could not be read");
        }
        Err(_) => {
            report.ip_whitelist = Check::skipped(
                "the exchange refused the key; an unknown key and a non-whitelisted IP look the same from here",
            );
            report.permissions = Check::skipped("the exchange refused the key");
            return report;
        }
    }
    if report.permissions.is_failed() {
        report.position_mode = Check::skipped("futures permission missing");
        report.balance = Check::skipped("futures permission missing");
        return report;
    }

    // 4. Position mode and balance.
    report.position_mode = match exchange.position_mode().await {
        Ok(value) => mode_found(value),
        Err(e) => Check::from_error(diagnose(&e), &e),
    };
    report.balance = balance_check(exchange.account().await);
    report
}

const BALANCE: &str = "/fapi/v2/balance";
const RESTRICTIONS: &str = "/sapi/v1/account/apiRestrictions";

/// The check that `GET path` answered without `field`.
fn unreadable<T>(exchange: &BinanceFutures, path: &str, field: &str) -> Check<T> {
    let e = VenueError::unreadable(exchange.venue(), field).in_answer_to(&format!("GET {path}"));
    Check::from_error(Diagnosis::Unreadable, &e)
}

/// Key, IP and permissions from the spot API's `apiRestrictions` answer, which judges by its
/// two flags. A readable answer to a signed call from this IP clears key and IP (so does the
/// futures balance list, `futures_ok`); an answer without the flags clears nothing.
fn read_restrictions(
    exchange: &BinanceFutures,
    report: &mut ConnectivityReport,
    r: &serde_json::Value,
    futures_ok: bool,
) {
    let enable = r["enableFutures"].as_bool();
    let ip_restricted = r["ipRestrict"].as_bool();
    let missing = match (enable, ip_restricted) {
        (None, _) => Some("enableFutures"),
        (_, None) => Some("ipRestrict"),
        _ => None,
    };
    match missing {
        None => {
            report.api_key = Check::Passed { value: () };
            report.ip_whitelist = Check::Passed { value: () };
        }
        Some(_) if futures_ok => report.ip_whitelist = Check::Passed { value: () },
        Some(field) => {
            // A refusal stays as the exchange gave it; an unread key says what was not read.
            if !report.api_key.is_failed() && !report.api_key.is_unreadable() {
                report.api_key = unreadable(exchange, RESTRICTIONS, field);
            }
            report.ip_whitelist = unreadable(exchange, RESTRICTIONS, field);
        }
    }
    report.permissions = match enable {
        Some(true) => Check::Passed {
            value: Permissions {
                futures: true,
                ip_restricted,
            },
        },
        Some(false) => Check::Failed {
            problem: Problem {
                diagnosis: Diagnosis::FuturesPermissionMissing,
                code: if futures_ok { None } else { Some(-2015) },
                message: "the API key does not have futures trading enabled".into(),
            },
        },
        // The futures call itself answered with balances: futures trading is enabled.
        None if futures_ok => Check::Passed {
            value: Permissions {
                futures: true,
                ip_restricted,
            },
        },
        None => unreadable(exchange, RESTRICTIONS, "enableFutures"),
    };
}
