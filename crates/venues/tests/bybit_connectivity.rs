//! The Bybit connectivity check against the mock Bybit: each fault a user meets (clock, key,
//! secret, IP whitelist, permission, account and position mode, empty wallet) is found at its
//! step, typed, with Bybit's code and words, and what depends on it is skipped.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion

use std::sync::Arc;
use std::time::Duration;

use nofxi_domain::trading::PositionMode;
use nofxi_testkit::bybit::MockBybit;
use nofxi_venues::SystemClock;
use nofxi_venues::bybit::{
    BybitClient, BybitCredentials, BybitEndpoints, BybitLinear, BybitOptions,
};
use nofxi_venues::connectivity::{Check, Diagnosis, check_bybit};
use rust_decimal_macros::dec;

const KEY: &str = "bybitCheckKey1";
const SECRET: &str = "bybitCheckSecret1";

fn linear(url: &str, key: &str, secret: &str) -> BybitLinear {
    let client = BybitClient::new(
        "bybit",
        BybitEndpoints::at(url, "the test"),
        Some(BybitCredentials::new(key, secret)),
        BybitOptions {
            timeout: Duration::from_millis(500),
            max_retries: 1,
            ..BybitOptions::default()
        },
        Arc::new(SystemClock),
    )
    .unwrap();
    BybitLinear::new(Arc::new(client))
}

async fn mock() -> MockBybit {
    let m = MockBybit::start().await.unwrap();
    m.add_account(KEY, SECRET, dec!(2500));
    m
}

fn found<T>(check: &Check<T>) -> Option<(Diagnosis, Option<i64>)> {
    check.problem().map(|p| (p.diagnosis, p.code))
}

fn skipped<T>(check: &Check<T>) -> bool {
    matches!(check, Check::Skipped { .. })
}

#[tokio::test]
async fn a_healthy_account_passes_every_check() {
    let m = mock().await;
    let r = check_bybit(&linear(&m.url(), KEY, SECRET)).await;
    assert!(r.ok(), "{r:#?}");
    assert!(r.problems().is_empty(), "{r:#?}");
    assert!(matches!(
        r.permissions,
        Check::Passed { value } if value.futures && value.ip_restricted == Some(true)
    ));
    assert!(matches!(
        r.position_mode,
        Check::Passed {
            value: PositionMode::OneWay
        }
    ));
    assert!(matches!(&r.balance, Check::Passed { value } if value.equity == dec!(2500)));
}

#[tokio::test]
async fn clock_faults_are_a_warning_when_compensated_and_a_failure_when_not() {
    let m = mock().await;
    m.set_clock_skew_ms(4_000);
    let r = check_bybit(&linear(&m.url(), KEY, SECRET)).await;
    assert!(r.ok(), "nofxi signs with the server's time: {r:#?}");
    assert_eq!(found(&r.clock), Some((Diagnosis::ClockOffset, None)));

    let m = mock().await;
    // The machine's clock drifts after the offset was measured: Bybit's 10002.
    m.set_client_clock_off_ms(KEY, 20_000);
    let r = check_bybit(&linear(&m.url(), KEY, SECRET)).await;
    assert!(!r.ok());
    assert_eq!(found(&r.clock), Some((Diagnosis::ClockDrift, Some(10002))));
    assert!(skipped(&r.api_key) && skipped(&r.balance), "{r:#?}");
}

#[tokio::test]
async fn key_and_secret_faults_are_told_apart_by_bybits_codes() {
    let m = mock().await;
    let r = check_bybit(&linear(&m.url(), "noSuchBybitKey9", SECRET)).await;
    assert_eq!(
        found(&r.api_key),
        Some((Diagnosis::KeyOrIpRejected, Some(10003)))
    );
    assert!(skipped(&r.permissions) && skipped(&r.balance));

    let r = check_bybit(&linear(&m.url(), KEY, "notTheSecret")).await;
    assert_eq!(
        found(&r.api_key),
        Some((Diagnosis::BadSignature, Some(10004)))
    );
    // Bybit's 10004 quotes the signed text, key included; the report never does.
    let words = r.api_key.problem().unwrap().words();
    assert!(
        words.contains("error sign!") && !words.contains(KEY),
        "{words}"
    );
}

#[tokio::test]
async fn an_ip_off_the_whitelist_fails_its_own_step() {
    let m = mock().await;
    m.set_ip_whitelisted(KEY, false);
    let r = check_bybit(&linear(&m.url(), KEY, SECRET)).await;
    assert_eq!(
        found(&r.ip_whitelist),
        Some((Diagnosis::IpNotWhitelisted, Some(10010)))
    );
    assert!(
        r.ip_whitelist
            .problem()
            .unwrap()
            .message
            .contains("bound IP")
    );
    assert!(skipped(&r.api_key) && skipped(&r.permissions) && skipped(&r.balance));
}

#[tokio::test]
async fn a_read_only_key_is_found_from_its_information() {
    let m = mock().await;
    m.set_trade_permission(KEY, false);
    let r = check_bybit(&linear(&m.url(), KEY, SECRET)).await;
    assert!(matches!(r.api_key, Check::Passed { .. }));
    assert_eq!(
        found(&r.permissions),
        Some((Diagnosis::FuturesPermissionMissing, None))
    );
    assert!(
        r.permissions
            .problem()
            .unwrap()
            .message
            .contains("read-only")
    );
    assert!(skipped(&r.position_mode) && skipped(&r.balance));
}

#[tokio::test]
async fn modes_and_an_empty_wallet_are_said() {
    let m = MockBybit::start().await.unwrap();
    m.add_account(KEY, SECRET, dec!(0));
    m.set_hedge_mode(KEY, true);
    let r = check_bybit(&linear(&m.url(), KEY, SECRET)).await;
    assert!(r.ok(), "{r:#?}");
    // Hedge mode trades, and is told: a trader reads the mode when it starts.
    assert!(matches!(
        r.position_mode,
        Check::Warning {
            value: PositionMode::Hedge,
            ..
        }
    ));
    assert_eq!(found(&r.position_mode), Some((Diagnosis::HedgeMode, None)));
    assert_eq!(found(&r.balance), Some((Diagnosis::NoBalance, None)));

    m.set_unified(KEY, false);
    let r = check_bybit(&linear(&m.url(), KEY, SECRET)).await;
    assert!(!r.ok());
    let problem = r.position_mode.problem().unwrap();
    assert!(
        problem.message.contains("Unified Trading Account"),
        "{problem:?}"
    );
    assert_eq!(problem.diagnosis, Diagnosis::AccountMode);
}

#[tokio::test]
async fn an_unreachable_exchange_is_said_as_such() {
    let r = check_bybit(&linear("http://127.0.0.1:9", KEY, SECRET)).await;
    assert_eq!(found(&r.clock).map(|f| f.0), Some(Diagnosis::Unreachable));
    assert!(skipped(&r.api_key) && skipped(&r.balance));
}
