//! The OKX connectivity check against the mock OKX: each fault a user meets (clock, key,
//! secret, passphrase, IP whitelist, permission, account and position mode, empty wallet) is
//! found at its step, typed, with OKX's code and words, and what depends on it is skipped.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion

use std::sync::Arc;
use std::time::Duration;

use nofxi_domain::trading::PositionMode;
use nofxi_testkit::okx::MockOkx;
use nofxi_venues::SystemClock;
use nofxi_venues::connectivity::{Check, Diagnosis, check_okx};
use nofxi_venues::okx::{OkxClient, OkxCredentials, OkxEndpoints, OkxOptions, OkxSwap};
use rust_decimal_macros::dec;

const KEY: &str = "okxCheckKey1";
const SECRET: &str = "okxCheckSecret1";
const PASSPHRASE: &str = "okxCheckPass1";

fn swap(url: &str, key: &str, secret: &str, passphrase: &str) -> OkxSwap {
    let client = OkxClient::new(
        "okx",
        OkxEndpoints::at(url, "the test"),
        Some(OkxCredentials::new(key, secret, passphrase)),
        OkxOptions {
            timeout: Duration::from_millis(500),
            max_retries: 1,
            ..OkxOptions::default()
        },
        Arc::new(SystemClock),
    )
    .unwrap();
    OkxSwap::new(Arc::new(client))
}

async fn mock() -> MockOkx {
    let m = MockOkx::start().await.unwrap();
    m.add_account(KEY, SECRET, PASSPHRASE, dec!(2500));
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
    let r = check_okx(&swap(&m.url(), KEY, SECRET, PASSPHRASE)).await;
    assert!(r.ok(), "{r:#?}");
    assert!(r.problems().is_empty(), "{r:#?}");
    assert!(matches!(r.permissions, Check::Passed { value } if value.futures));
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
    m.set_clock_skew_ms(5_000);
    let r = check_okx(&swap(&m.url(), KEY, SECRET, PASSPHRASE)).await;
    assert!(r.ok(), "compensated: {r:#?}");
    assert_eq!(found(&r.clock), Some((Diagnosis::ClockOffset, None)));

    m.set_clock_skew_ms(0);
    m.set_client_clock_off_ms(KEY, 45_000);
    let r = check_okx(&swap(&m.url(), KEY, SECRET, PASSPHRASE)).await;
    assert!(!r.ok());
    assert_eq!(found(&r.clock), Some((Diagnosis::ClockDrift, Some(50102))));
    assert!(skipped(&r.api_key) && skipped(&r.balance));
}

#[tokio::test]
async fn key_secret_and_passphrase_faults_are_told_apart_by_okxs_codes() {
    let m = mock().await;
    for (key, secret, passphrase, expected) in [
        (
            KEY,
            "swapped-with-key",
            PASSPHRASE,
            (Diagnosis::BadSignature, Some(50113)),
        ),
        (
            KEY,
            SECRET,
            "the login password",
            (Diagnosis::BadPassphrase, Some(50105)),
        ),
        (
            "unknownKey9",
            SECRET,
            PASSPHRASE,
            (Diagnosis::KeyOrIpRejected, Some(50111)),
        ),
    ] {
        let r = check_okx(&swap(&m.url(), key, secret, passphrase)).await;
        assert!(!r.ok());
        assert!(matches!(r.clock, Check::Passed { .. }), "{r:#?}");
        assert_eq!(found(&r.api_key), Some(expected), "{r:#?}");
        assert!(skipped(&r.ip_whitelist) && skipped(&r.permissions) && skipped(&r.balance));
        let words = r.api_key.problem().unwrap().words();
        assert!(
            words.starts_with(&expected.1.unwrap().to_string()),
            "{words}"
        );
        assert!(!words.contains("the login password"), "{words}");
    }
}

#[tokio::test]
async fn an_ip_off_the_whitelist_fails_its_own_step() {
    let m = mock().await;
    m.set_ip_whitelisted(KEY, false);
    let r = check_okx(&swap(&m.url(), KEY, SECRET, PASSPHRASE)).await;
    assert!(!r.ok());
    assert!(skipped(&r.api_key), "{r:#?}");
    assert_eq!(
        found(&r.ip_whitelist),
        Some((Diagnosis::IpNotWhitelisted, Some(50110)))
    );
    assert!(
        r.ip_whitelist
            .problem()
            .unwrap()
            .message
            .contains("IP whitelist")
    );
}

#[tokio::test]
async fn a_key_without_trade_permission_is_found_from_its_configuration() {
    let m = mock().await;
    m.set_trade_permission(KEY, false);
    let r = check_okx(&swap(&m.url(), KEY, SECRET, PASSPHRASE)).await;
    assert!(!r.ok());
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
            .contains("read_only")
    );
    assert!(skipped(&r.balance));
}

#[tokio::test]
async fn modes_and_an_empty_wallet_are_said() {
    let m = mock().await;
    m.set_long_short_mode(KEY, true);
    let r = check_okx(&swap(&m.url(), KEY, SECRET, PASSPHRASE)).await;
    // Hedge mode trades, and is told: a trader reads the mode when it starts.
    assert!(matches!(
        r.position_mode,
        Check::Warning {
            value: PositionMode::Hedge,
            ..
        }
    ));
    assert_eq!(found(&r.position_mode), Some((Diagnosis::HedgeMode, None)));
    m.set_account_mode(KEY, "1");
    let r = check_okx(&swap(&m.url(), KEY, SECRET, PASSPHRASE)).await;
    assert!(!r.ok());
    let problem = r.position_mode.problem().unwrap();
    assert!(problem.message.contains("Spot mode"), "{problem}");
    assert_eq!(problem.diagnosis, Diagnosis::AccountMode);

    m.add_account("emptyKey1", SECRET, PASSPHRASE, dec!(0));
    let r = check_okx(&swap(&m.url(), "emptyKey1", SECRET, PASSPHRASE)).await;
    assert!(r.ok(), "a warning, not a failure: {r:#?}");
    assert_eq!(found(&r.balance), Some((Diagnosis::NoBalance, None)));
}

#[tokio::test]
async fn an_unreachable_exchange_is_said_as_such() {
    let r = check_okx(&swap("http://127.0.0.1:9", KEY, SECRET, PASSPHRASE)).await;
    assert!(!r.ok());
    assert_eq!(found(&r.clock).map(|f| f.0), Some(Diagnosis::Unreachable));
    assert!(skipped(&r.api_key));
}
