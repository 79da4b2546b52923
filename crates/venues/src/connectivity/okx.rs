//! The connectivity check of an OKX account, in the order REFERENCE §3 gives (clock → key and
//! secret → passphrase → IP whitelist → permissions), then the position and account modes and
//! the balance.
//!
//! One signed read, `GET /api/v5/account/config`, judges key, secret and passphrase together
//! (OKX signs with the secret and checks the passphrase on every private request), and its
//! answer says the rest: `perm` ("read_only,withdraw,trade"), `ip` (the IPs bound to the key,
//! "" when none), `posMode` and `acctLv` (OKX API v5 docs, "Trading Account" → "Get account
//! configuration", https://www.okx.com/docs-v5/en/#trading-account-rest-api-get-account-configuration).
//! OKX checks the whitelist on every private request too, so an accepted read from this
//! machine proves its IP is allowed.

use nofxi_domain::trading::PositionMode;
use serde_json::Value;

use super::{
    Check, ConnectivityReport, Diagnosis, Permissions, Problem, account_mode, balance_check,
    clock_step, diagnose, mode_found, skip_rest,
};
use crate::okx::OkxSwap;
use crate::{Exchange, RejectKind, VenueError};

const CONFIG: &str = "GET /api/v5/account/config";

/// Run every check against an OKX account.
pub async fn check_okx(swap: &OkxSwap) -> ConnectivityReport {
    let mut report = ConnectivityReport {
        venue: swap.venue().to_string(),
        clock: Check::skipped("not checked"),
        api_key: Check::skipped("the clock check failed"),
        ip_whitelist: Check::skipped("the API key check failed"),
        permissions: Check::skipped("the API key check failed"),
        position_mode: Check::skipped("the API key check failed"),
        balance: Check::skipped("the API key check failed"),
        market: None,
    };
    if !clock_step(&mut report, swap.client().sync_time().await) {
        return report;
    }
    let config = match swap.config().await {
        Ok(config) => config,
        Err(e) => return refused(report, &e),
    };
    report.api_key = Check::Passed { value: () };
    report.ip_whitelist = Check::Passed { value: () };
    report.permissions = permissions(&config);
    if report.permissions.is_failed() || report.permissions.is_unreadable() {
        report.position_mode = Check::skipped("the key may not trade");
        report.balance = Check::skipped("the key may not trade");
        return report;
    }
    report.position_mode = position_mode(&config);
    report.balance = balance_check(swap.account().await);
    report
}

/// The report for a refused (or unanswered) configuration read: the check it fails, the
/// later ones skipped.
fn refused(mut report: ConnectivityReport, e: &VenueError) -> ConnectivityReport {
    let problem = Problem::from_error(diagnose(e), e);
    match e.kind() {
        Some(RejectKind::ClockDrift) => {
            report.clock = Check::Failed { problem };
            skip_rest(report, "the exchange refused the request's timestamp")
        }
        Some(RejectKind::IpNotWhitelisted) => {
            report.ip_whitelist = Check::Failed { problem };
            let mut report = skip_rest(report, "this machine's IP is not on the key's whitelist");
            report.api_key = Check::skipped(
                "OKX refused this machine's IP; the key is judged once the IP is allowed",
            );
            report
        }
        Some(RejectKind::PermissionMissing) => {
            report.api_key = Check::Passed { value: () };
            report.ip_whitelist = Check::Passed { value: () };
            report.permissions = Check::Failed { problem };
            skip_rest(report, "the key may not read the account")
        }
        _ => {
            report.api_key = Check::from_error(diagnose(e), e);
            skip_rest(report, "the exchange refused the key")
        }
    }
}

/// The key's permissions from `perm`; trading swaps needs `trade`.
fn permissions(config: &Value) -> Check<Permissions> {
    let Some(perm) = config["perm"].as_str() else {
        return unreadable("perm");
    };
    let ip_restricted = config["ip"].as_str().map(|ips| !ips.trim().is_empty());
    let trades = perm.split(',').any(|p| p.trim() == "trade");
    if !trades {
        return Check::Failed {
            problem: Problem {
                diagnosis: Diagnosis::FuturesPermissionMissing,
                code: None,
                message: format!(
                    "the API key has no Trade permission (its permissions: {perm}): edit it on OKX's API page and tick Trade"
                ),
            },
        };
    }
    Check::Passed {
        value: Permissions {
            futures: true,
            ip_restricted,
        },
    }
}

/// `posMode`, and the account mode: an account in Spot mode (`acctLv` 1) cannot trade swaps
/// at all, whatever the position mode says.
fn position_mode(config: &Value) -> Check<PositionMode> {
    if config["acctLv"].as_str() == Some("1") {
        return account_mode(
            "the OKX account is in Spot mode, which cannot trade perpetual swaps: switch it to Futures mode on OKX (Trade → Settings → Account mode)",
        );
    }
    match config["posMode"].as_str() {
        Some("long_short_mode") => mode_found(PositionMode::Hedge),
        Some("net_mode") => mode_found(PositionMode::OneWay),
        _ => unreadable("posMode"),
    }
}

fn unreadable<T>(field: &str) -> Check<T> {
    let e = VenueError::unreadable("okx", field).in_answer_to(CONFIG);
    Check::from_error(Diagnosis::Unreadable, &e)
}
