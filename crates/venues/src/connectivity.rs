//! The connectivity check of one exchange config, for `nofxi exchange test` and the diagnosis
//! skill.
//!
//! Checks run in the order REFERENCE §3 recommends (clock → key and secret → IP whitelist →
//! permissions), then read the position mode and the balance. Each result is typed, so the
//! diagnosis skill can pick an explanation, and keeps the exchange's code and message, so the
//! user sees exactly what the exchange said. A failed step skips what depends on it and says so.

use std::fmt;

use nofxi_domain::trading::{AccountSnapshot, PositionMode};
use reqwest::Method;
use serde::Serialize;

use crate::binance::{Base, BinanceFutures, Retry};
use crate::{Exchange, RejectKind, VenueError};

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
}

impl<T> Check<T> {
    pub fn is_failed(&self) -> bool {
        matches!(self, Check::Failed { .. })
    }

    pub fn problem(&self) -> Option<&Problem> {
        match self {
            Check::Warning { problem, .. } | Check::Failed { problem } => Some(problem),
            _ => None,
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
    ClockDrift,
    BadSignature,
    BadKeyFormat,
    /// The exchange refused the key and we cannot tell an unknown key from a non-whitelisted IP.
    KeyOrIpRejected,
    FuturesPermissionMissing,
    NoBalance,
    Other,
}

impl Diagnosis {
    pub fn advice(self) -> &'static str {
        match self {
            Diagnosis::Unreachable => {
                "check the network, a proxy, and the base URL (testnet or mainnet?)"
            }
            Diagnosis::ClockDrift => {
                "sync the computer's clock (NTP); nofxi compensates, other tools may not"
            }
            Diagnosis::BadSignature => {
                "the secret key is wrong or swapped with the API key: paste both again"
            }
            Diagnosis::BadKeyFormat => "the API key is malformed: copy it again without spaces",
            Diagnosis::KeyOrIpRejected => {
                "check the API key is current, and add this machine's IP to the key's whitelist"
            }
            Diagnosis::FuturesPermissionMissing => {
                "enable \"Futures\" on the API key in the exchange's API management page"
            }
            Diagnosis::NoBalance => "transfer USDT to the futures wallet before trading",
            Diagnosis::Other => "see the exchange's message",
        }
    }
}

impl fmt::Display for Diagnosis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Diagnosis::Unreachable => "exchange unreachable",
            Diagnosis::ClockDrift => "clock drift",
            Diagnosis::BadSignature => "bad signature",
            Diagnosis::BadKeyFormat => "bad API key format",
            Diagnosis::KeyOrIpRejected => "API key invalid or IP not whitelisted",
            Diagnosis::FuturesPermissionMissing => "futures permission missing",
            Diagnosis::NoBalance => "no balance",
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
}

impl ConnectivityReport {
    pub fn ok(&self) -> bool {
        ![
            self.clock.is_failed(),
            self.api_key.is_failed(),
            self.ip_whitelist.is_failed(),
            self.permissions.is_failed(),
            self.position_mode.is_failed(),
            self.balance.is_failed(),
        ]
        .contains(&true)
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
        ]
        .into_iter()
        .flatten()
        .collect()
    }

    /// A paper account needs no network: only its balance and mode are worth showing.
    pub async fn for_exchange(exchange: &dyn Exchange) -> ConnectivityReport {
        const LOCAL: &str = "a paper account needs no network";
        ConnectivityReport {
            venue: exchange.venue().to_string(),
            clock: Check::skipped(LOCAL),
            api_key: Check::skipped(LOCAL),
            ip_whitelist: Check::skipped(LOCAL),
            permissions: Check::skipped(LOCAL),
            position_mode: match exchange.position_mode().await {
                Ok(value) => Check::Passed { value },
                Err(e) => Check::Failed {
                    problem: Problem::from_error(Diagnosis::Other, &e),
                },
            },
            balance: balance_check(exchange.account().await),
        }
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
        Err(e) => Check::Failed {
            problem: Problem::from_error(Diagnosis::Other, &e),
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
        _ if e.outcome_unknown() => Diagnosis::Unreachable,
        _ => Diagnosis::Other,
    }
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
    };

    // 1. Clock: the raw offset between this machine and the exchange.
    let offset = match client.sync_time().await {
        Ok(offset_ms) => offset_ms,
        Err(e) => {
            report.clock = Check::Failed {
                problem: Problem::from_error(Diagnosis::Unreachable, &e),
            };
            return skip_rest(report, "the exchange could not be reached");
        }
    };
    let value = ClockOffset { offset_ms: offset };
    report.clock = if offset.abs() > CLOCK_WARN_MS {
        Check::Warning {
            value,
            problem: Problem {
                diagnosis: Diagnosis::ClockDrift,
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

    // 2. Key and secret: one signed futures read.
    let probe = client
        .signed(
            Method::GET,
            Base::Futures,
            "/fapi/v2/balance",
            &[],
            5,
            Retry::Safe,
        )
        .await;
    let futures_ok = match probe {
        Ok(_) => {
            report.api_key = Check::Passed { value: () };
            true
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
        .signed(
            Method::GET,
            Base::Spot,
            "/sapi/v1/account/apiRestrictions",
            &[],
            1,
            Retry::Safe,
        )
        .await;
    match restrictions {
        Ok(r) => {
            let perms = Permissions {
                futures: r["enableFutures"].as_bool().unwrap_or(futures_ok),
                ip_restricted: r["ipRestrict"].as_bool(),
            };
            // The spot call went through with this key from this IP: key and IP are fine.
            report.api_key = Check::Passed { value: () };
            report.ip_whitelist = Check::Passed { value: () };
            report.permissions = if perms.futures {
                Check::Passed { value: perms }
            } else {
                Check::Failed {
                    problem: Problem {
                        diagnosis: Diagnosis::FuturesPermissionMissing,
                        code: if futures_ok { None } else { Some(-2015) },
                        message: "the API key does not have futures trading enabled".into(),
                    },
                }
            };
        }
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
        Ok(value) => Check::Passed { value },
        Err(e) => Check::Failed {
            problem: Problem::from_error(diagnose(&e), &e),
        },
    };
    report.balance = balance_check(exchange.account().await);
    report
}
