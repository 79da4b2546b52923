//! The connectivity check names each problem the mock is told to produce.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion

use std::sync::Arc;
use std::time::Duration;

use nofxi_domain::trading::PositionMode;
use nofxi_testkit::binance::{Fault, MockBinance, Route};
use nofxi_venues::SystemClock;
use nofxi_venues::binance::{
    ApiCredentials, BinanceClient, BinanceEndpoints, BinanceFutures, BinanceOptions,
};
use nofxi_venues::connectivity::{Check, Diagnosis, check_binance};
use rust_decimal_macros::dec;

const KEY: &str = "connKey";
const SECRET: &str = "connSecret";

async fn mock() -> MockBinance {
    let m = MockBinance::start().await.unwrap();
    m.add_account(KEY, SECRET, dec!(2500));
    m
}

fn exchange(url: &str, secret: &str) -> BinanceFutures {
    let opts = BinanceOptions {
        timeout: Duration::from_millis(500),
        max_retries: 1,
        ..BinanceOptions::default()
    };
    let client = BinanceClient::new(
        "binance",
        BinanceEndpoints::single(url),
        Some(ApiCredentials::new(KEY, secret)),
        opts,
        Arc::new(SystemClock),
    )
    .unwrap();
    BinanceFutures::new(Arc::new(client))
}

fn diagnosis<T>(c: &Check<T>) -> Option<Diagnosis> {
    c.problem().map(|p| p.diagnosis)
}

#[tokio::test]
async fn a_healthy_account_passes_every_check() {
    let m = mock().await;
    let r = check_binance(&exchange(&m.url(), SECRET)).await;
    assert!(r.ok(), "{r:?}");
    assert!(r.problems().is_empty());
    assert!(matches!(
        r.position_mode,
        Check::Passed {
            value: PositionMode::OneWay
        }
    ));
    let Check::Passed { value } = &r.balance else {
        panic!("{r:?}")
    };
    assert_eq!(value.wallet_balance, dec!(2500));
}

#[tokio::test]
async fn clock_drift_is_named_whether_compensated_or_refused() {
    let m = mock().await;
    m.set_clock_skew_ms(45_000);
    let r = check_binance(&exchange(&m.url(), SECRET)).await;
    assert!(matches!(r.clock, Check::Warning { .. }), "{r:?}");
    assert_eq!(diagnosis(&r.clock), Some(Diagnosis::ClockOffset));
    assert!(r.ok(), "compensated drift is a warning, not a failure");

    let m = mock().await;
    m.inject(Route::Signed, Fault::binance(-1021));
    m.inject(Route::Signed, Fault::binance(-1021));
    let r = check_binance(&exchange(&m.url(), SECRET)).await;
    assert!(r.clock.is_failed());
    assert_eq!(r.clock.problem().unwrap().code, Some(-1021));
    assert_eq!(diagnosis(&r.clock), Some(Diagnosis::ClockDrift));
}

#[tokio::test]
async fn a_wrong_secret_is_a_bad_signature() {
    let m = mock().await;
    let r = check_binance(&exchange(&m.url(), "swapped-with-the-key")).await;
    assert_eq!(diagnosis(&r.api_key), Some(Diagnosis::BadSignature));
    assert_eq!(r.api_key.problem().unwrap().code, Some(-1022));
    assert!(matches!(r.balance, Check::Skipped { .. }));
    assert!(!r.ok());
}

#[tokio::test]
async fn a_key_without_futures_permission_is_named() {
    let m = mock().await;
    m.set_futures_enabled(KEY, false);
    let r = check_binance(&exchange(&m.url(), SECRET)).await;
    assert!(matches!(r.api_key, Check::Passed { .. }), "{r:?}");
    assert_eq!(
        diagnosis(&r.permissions),
        Some(Diagnosis::FuturesPermissionMissing)
    );
    assert!(!r.ok());
}

#[tokio::test]
async fn an_ip_off_the_whitelist_is_named_with_the_exchange_words() {
    let m = mock().await;
    m.set_ip_whitelisted(KEY, false);
    let r = check_binance(&exchange(&m.url(), SECRET)).await;
    let p = r.api_key.problem().unwrap();
    assert_eq!(
        (p.diagnosis, p.code),
        (Diagnosis::KeyOrIpRejected, Some(-2015))
    );
    assert!(p.message.contains("request ip"));
    assert!(matches!(r.ip_whitelist, Check::Skipped { .. }));
}

#[tokio::test]
async fn an_unreachable_exchange_stops_at_the_first_check() {
    let r = check_binance(&exchange("http://127.0.0.1:9", SECRET)).await;
    assert_eq!(diagnosis(&r.clock), Some(Diagnosis::Unreachable));
    assert!(matches!(r.api_key, Check::Skipped { .. }));
}

/// A server that answers `{}` (or a bare `serverTime`) to everything but the clock proves
/// nothing about key, IP, permissions, mode or balance: each check is unreadable, naming the
/// field it judges by and the endpoint that lacked it, and the report is not ok.
#[tokio::test]
async fn a_server_answering_empty_objects_passes_no_check() {
    for body in [serde_json::json!({}), serde_json::json!({"serverTime": 1})] {
        let m = mock().await;
        m.hollow_answers(Some(body.clone()));
        let r = check_binance(&exchange(&m.url(), SECRET)).await;
        assert!(!r.ok(), "{body}: {r:?}");
        let json = serde_json::to_value(&r).unwrap();
        let expect = [
            (
                "api_key",
                "GET /fapi/v2/balance",
                "(the answer itself: not a JSON array)",
            ),
            (
                "ip_whitelist",
                "GET /sapi/v1/account/apiRestrictions",
                "enableFutures",
            ),
            (
                "permissions",
                "GET /sapi/v1/account/apiRestrictions",
                "enableFutures",
            ),
            (
                "position_mode",
                "GET /fapi/v1/positionSide/dual",
                "dualSidePosition",
            ),
            ("balance", "GET /fapi/v2/account", "totalWalletBalance"),
        ];
        for (check, endpoint, field) in expect {
            let c = &json[check];
            assert_eq!(c["status"], "unreadable", "{body}: {check}: {c}");
            assert_eq!(c["endpoint"], endpoint, "{body}: {check}: {c}");
            assert_eq!(c["field"], field, "{body}: {check}: {c}");
            let message = c["problem"]["message"].as_str().unwrap();
            let names_field = field.starts_with('(') || message.contains(field);
            assert!(
                message.contains(endpoint) && names_field,
                "{check}: {message}"
            );
        }
        assert_eq!(
            json["clock"]["status"], "passed",
            "{body}: the clock answered"
        );
    }
}

/// A server that refuses every request with -2015 (a proxy in front of Binance, or an IP ban
/// on every endpoint) answered: it was reported as "exchange unreachable", sending the user to
/// check the network instead of the key, IP whitelist and permissions.
#[tokio::test]
async fn a_refused_time_request_is_a_refusal_not_an_unreachable_exchange() {
    use nofxi_testkit::binance::EchoRequests;
    let m = mock().await;
    m.echo_requests(Some(EchoRequests {
        route: Route::Any,
        http_status: 401,
        code: -2015,
    }));
    let r = check_binance(&exchange(&m.url(), SECRET)).await;
    assert_eq!(diagnosis(&r.clock), Some(Diagnosis::KeyOrIpRejected));
    match &r.api_key {
        Check::Skipped { because } => assert!(because.contains("refused"), "{because}"),
        other => panic!("{other:?}"),
    }
}
