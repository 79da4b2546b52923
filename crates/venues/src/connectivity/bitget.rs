//! The connectivity check of a Bitget account, in the order REFERENCE §3 gives (clock → key
//! and secret → passphrase → IP whitelist → permissions), then the position mode and the
//! balance.
//!
//! One signed read, `GET /api/v2/spot/account/info`, judges key, secret and passphrase
//! together (Bitget checks all three and the IP whitelist on every private request), and its
//! answer says the rest: `authorities` (the key's permissions, `coow` being "futures orders,
//! read and write") and `ips` (the IP whitelist) (Bitget API docs, "Spot" → "Account" → "Get
//! Account Information", https://www.bitget.com/api-doc/spot/account/Get-Account-Info). An
//! accepted read from this machine proves its IP is allowed.

use serde_json::Value;

use super::{
    Check, ConnectivityReport, Diagnosis, Permissions, Problem, balance_check, clock_step,
    diagnose, mode_found, skip_rest,
};
use crate::bitget::BitgetFutures;
use crate::{Exchange, RejectKind, VenueError};

const KEY_INFO: &str = "GET /api/v2/spot/account/info";
/// The permission that places and cancels futures orders; `trade` is its older name, as the
/// docs' own response example still shows it.
const FUTURES_ORDERS: [&str; 2] = ["coow", "trade"];

/// Run every check against a Bitget account.
pub async fn check_bitget(futures: &BitgetFutures) -> ConnectivityReport {
    let mut report = ConnectivityReport {
        venue: futures.venue().to_string(),
        clock: Check::skipped("not checked"),
        api_key: Check::skipped("the clock check failed"),
        ip_whitelist: Check::skipped("the API key check failed"),
        permissions: Check::skipped("the API key check failed"),
        position_mode: Check::skipped("the API key check failed"),
        balance: Check::skipped("the API key check failed"),
        market: None,
    };
    if !clock_step(&mut report, futures.client().sync_time().await) {
        return report;
    }
    let info = match futures.key_info().await {
        Ok(info) => info,
        Err(e) => return refused(report, &e),
    };
    report.api_key = Check::Passed { value: () };
    report.ip_whitelist = Check::Passed { value: () };
    report.permissions = permissions(&info);
    if report.permissions.is_failed() || report.permissions.is_unreadable() {
        report.position_mode = Check::skipped("the key may not trade futures");
        report.balance = Check::skipped("the key may not trade futures");
        return report;
    }
    report.position_mode = match futures.position_mode().await {
        Ok(value) => mode_found(value),
        Err(e) => Check::from_error(diagnose(&e), &e),
    };
    report.balance = balance_check(futures.account().await);
    report
}

/// The report for a refused (or unanswered) key read: the check it fails, the later ones
/// skipped.
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
                "Bitget refused this machine's IP; the key is judged once the IP is allowed",
            );
            report
        }
        Some(RejectKind::BadPassphrase) => {
            // Bitget's words for it ("apikey/password is incorrect") do not name the passphrase.
            let problem = Problem {
                message: format!(
                    "{}: the passphrase is not the one set when this API key was created",
                    problem.message
                ),
                ..problem
            };
            report.api_key = Check::Failed { problem };
            skip_rest(report, "the exchange refused the key")
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

/// The key's permissions from `authorities`; trading futures needs futures orders (`coow`).
fn permissions(info: &Value) -> Check<Permissions> {
    let Some(authorities) = info["authorities"].as_array() else {
        return unreadable("authorities");
    };
    let names: Vec<&str> = authorities.iter().filter_map(Value::as_str).collect();
    let ip_restricted = info["ips"].as_str().map(|ips| !ips.trim().is_empty());
    if !names.iter().any(|n| FUTURES_ORDERS.contains(&n.trim())) {
        return Check::Failed {
            problem: Problem {
                diagnosis: Diagnosis::FuturesPermissionMissing,
                code: None,
                message: format!(
                    "the API key may not place futures orders (its permissions: {}): edit it on Bitget's API page and allow Futures orders (read and write)",
                    names.join(",")
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

fn unreadable<T>(field: &str) -> Check<T> {
    let e = VenueError::unreadable("bitget", field).in_answer_to(KEY_INFO);
    Check::from_error(Diagnosis::Unreadable, &e)
}
