//! The connectivity check of a Bybit account, in the order REFERENCE §3 gives (clock → key
//! and secret → IP whitelist → permissions), then the account and position modes and the
//! balance.
//!
//! One signed read, `GET /v5/user/query-api` ("Any permission can access this endpoint"),
//! judges key and secret together, and its answer says the rest: `readOnly` (0 read-write, 1
//! read-only), `permissions.ContractTrade` (`Order`, `Position`: what trading USDT
//! perpetuals needs), `ips` (the IPs bound to the key) and `uta` (whether the account is a
//! Unified Trading Account) (Bybit API v5 docs, "User" → "Get API Key Information",
//! https://bybit-exchange.github.io/docs/v5/user/apikey-info). Bybit checks the bound IPs on
//! every private request (10010), so an accepted read from this machine proves its IP is
//! allowed.

use serde_json::Value;

use super::{
    Check, ConnectivityReport, Diagnosis, Permissions, Problem, account_mode, balance_check,
    clock_step, diagnose, mode_found, skip_rest,
};
use crate::bybit::BybitLinear;
use crate::{Exchange, RejectKind, VenueError};

const API_KEY: &str = "GET /v5/user/query-api";
/// What trading USDT perpetuals needs of `permissions.ContractTrade`.
const TRADE: [&str; 2] = ["Order", "Position"];

/// Run every check against a Bybit account.
pub async fn check_bybit(linear: &BybitLinear) -> ConnectivityReport {
    let mut report = ConnectivityReport {
        venue: linear.venue().to_string(),
        clock: Check::skipped("not checked"),
        api_key: Check::skipped("the clock check failed"),
        ip_whitelist: Check::skipped("the API key check failed"),
        permissions: Check::skipped("the API key check failed"),
        position_mode: Check::skipped("the API key check failed"),
        balance: Check::skipped("the API key check failed"),
        market: None,
    };
    if !clock_step(&mut report, linear.client().sync_time().await) {
        return report;
    }
    let key = match linear.api_key_info().await {
        Ok(key) => key,
        Err(e) => return refused(report, &e),
    };
    report.api_key = Check::Passed { value: () };
    report.ip_whitelist = Check::Passed { value: () };
    report.permissions = permissions(&key);
    if report.permissions.is_failed() || report.permissions.is_unreadable() {
        report.position_mode = Check::skipped("the key may not trade");
        report.balance = Check::skipped("the key may not trade");
        return report;
    }
    report.position_mode = match key["uta"].as_i64() {
        Some(0) => account_mode(
            "the Bybit account is a classic account: nofxi trades USDT perpetuals on a Unified Trading Account, so upgrade it on Bybit (Assets → Unified Trading Account → Upgrade)",
        ),
        Some(_) => match linear.position_mode().await {
            Ok(value) => mode_found(value),
            Err(e) => Check::from_error(diagnose(&e), &e),
        },
        None => unreadable("uta"),
    };
    report.balance = balance_check(linear.account().await);
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
            let mut report = skip_rest(report, "this machine's IP is not bound to the key");
            report.api_key = Check::skipped(
                "Bybit refused this machine's IP; the key is judged once the IP is allowed",
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

/// The key's permissions: read-write, with `Order` and `Position` under `ContractTrade`.
fn permissions(key: &Value) -> Check<Permissions> {
    let (Some(read_only), Some(contract)) = (
        key["readOnly"].as_i64(),
        key["permissions"]["ContractTrade"].as_array(),
    ) else {
        let field = if key["readOnly"].is_i64() {
            "permissions.ContractTrade"
        } else {
            "readOnly"
        };
        return unreadable(field);
    };
    let granted: Vec<&str> = contract.iter().filter_map(Value::as_str).collect();
    let missing: Vec<&str> = TRADE
        .iter()
        .copied()
        .filter(|p| !granted.contains(p))
        .collect();
    let refuse = |message: String| Check::Failed {
        problem: Problem {
            diagnosis: Diagnosis::FuturesPermissionMissing,
            code: None,
            message,
        },
    };
    if read_only != 0 {
        return refuse(
            "this key may only read (read-only): edit it on Bybit's API management page, choose Read-Write and tick Contract (Unified Trading) → Orders and Positions".into(),
        );
    }
    if !missing.is_empty() {
        return refuse(format!(
            "the API key may not trade contracts (missing: {}): edit it on Bybit's API management page and tick Contract (Unified Trading) → Orders and Positions",
            missing.join(", ")
        ));
    }
    let ips: Vec<&str> = key["ips"]
        .as_array()
        .map(|ips| ips.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    Check::Passed {
        value: Permissions {
            futures: true,
            ip_restricted: key["ips"]
                .is_array()
                .then(|| !ips.is_empty() && ips != ["*"]),
        },
    }
}

fn unreadable<T>(field: &str) -> Check<T> {
    let e = VenueError::unreadable("bybit", field).in_answer_to(API_KEY);
    Check::from_error(Diagnosis::Unreadable, &e)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn permissions_are_read_from_the_documented_answer() {
        let mut key = json!({"readOnly": 0, "permissions": {"ContractTrade": ["Order", "Position"]},
            "ips": ["18.181.170.164"], "uta": 1});
        assert!(matches!(
            permissions(&key),
            Check::Passed { value } if value.futures && value.ip_restricted == Some(true)
        ));
        key["ips"] = json!(["*"]);
        assert!(matches!(
            permissions(&key),
            Check::Passed { value } if value.ip_restricted == Some(false)
        ));
        key["permissions"]["ContractTrade"] = json!(["Order"]);
        let p = permissions(&key);
        assert!(
            p.problem().unwrap().message.contains("missing: Position"),
            "{p:?}"
        );
        key["readOnly"] = json!(1);
        assert!(
            permissions(&key)
                .problem()
                .unwrap()
                .message
                .contains("read-only")
        );
        assert!(permissions(&json!({})).is_unreadable());
    }
}
