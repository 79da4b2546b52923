//! The Hyperliquid connectivity check against the mock Hyperliquid: the agent-wallet faults a
//! user meets (an agent never approved or revoked, the agent's own address entered as the
//! main wallet's, another agent's address, an agent approved for another wallet, a main
//! wallet's own key with the wrong address, a testnet switch that does not match) are each
//! told apart at the key step, with what to do; the clock is measured; the report says
//! Hyperliquid has no IP whitelist and no position mode; an empty perp account is a warning.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion

use std::sync::Arc;
use std::time::Duration;

use nofxi_testkit::hyperliquid::{MockHyperliquid, address_of_key};
use nofxi_venues::SystemClock;
use nofxi_venues::connectivity::{Check, ConnectivityReport, Diagnosis, check_hyperliquid};
use nofxi_venues::hyperliquid::{
    HyperliquidClient, HyperliquidCredentials, HyperliquidEndpoints, HyperliquidOptions,
    HyperliquidPerp,
};
use rust_decimal_macros::dec;

const AGENT_KEY: &str = "0x2f0b8f1c4a3e9d7b6c5a4f3e2d1c0b9a8f7e6d5c4b3a29180716f5e4d3c2b1a0";
const MAIN_KEY: &str = "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318";
const OTHER_AGENT_KEY: &str = "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6";
const WALLET: &str = "0x2c7536e3605d9c16a7a3d7b1898e529396a65c23";
const OTHER_WALLET: &str = "0x1d9470d4b963f552e6f671a81619d395877bf409";

fn perp(url: &str, key: &str, wallet: &str, testnet: bool) -> HyperliquidPerp {
    let client = HyperliquidClient::new(
        "hyperliquid",
        HyperliquidEndpoints::at(url, "the test", testnet),
        Some(HyperliquidCredentials::new(key, wallet).unwrap()),
        HyperliquidOptions {
            timeout: Duration::from_millis(500),
            max_retries: 1,
            ..HyperliquidOptions::default()
        },
        Arc::new(SystemClock),
    )
    .unwrap();
    HyperliquidPerp::new(Arc::new(client))
}

fn agent() -> String {
    address_of_key(AGENT_KEY).unwrap()
}

async fn mock() -> MockHyperliquid {
    let m = MockHyperliquid::start().await.unwrap();
    m.add_user(WALLET, dec!(2500));
    m.approve_agent(WALLET, &agent(), "nofxi");
    m
}

/// The key step's failure: its diagnosis and words; every later step skipped.
fn key_failure(r: &ConnectivityReport) -> (Diagnosis, String) {
    assert!(!r.ok());
    let Check::Failed { problem } = &r.api_key else {
        panic!("the key step did not fail: {r:?}");
    };
    assert!(matches!(r.balance, Check::Skipped { .. }), "{r:?}");
    assert!(matches!(r.permissions, Check::Skipped { .. }), "{r:?}");
    assert_eq!(problem.code, None, "Hyperliquid gives no code: {problem:?}");
    (problem.diagnosis, problem.message.clone())
}

#[tokio::test]
async fn a_healthy_account_passes_and_says_what_hyperliquid_has_not() {
    let m = mock().await;
    let r = check_hyperliquid(&perp(&m.url(), AGENT_KEY, WALLET, false)).await;
    assert!(r.ok(), "{r:?}");
    assert!(matches!(r.clock, Check::Passed { .. }));
    assert!(matches!(r.api_key, Check::Passed { .. }));
    let Check::Passed { value } = &r.balance else {
        panic!("{r:?}")
    };
    assert_eq!((value.equity, value.asset.as_str()), (dec!(2500), "USDC"));
    let Check::Skipped { because } = &r.position_mode else {
        panic!("{r:?}")
    };
    assert!(because.contains("one-way only"), "{because}");
    let Check::Skipped { because } = &r.ip_whitelist else {
        panic!("{r:?}")
    };
    assert!(because.contains("no IP whitelist"), "{because}");
    // The main wallet's own key signs for itself.
    m.add_user(WALLET, dec!(2500));
    let own = check_hyperliquid(&perp(&m.url(), MAIN_KEY, WALLET, false)).await;
    assert!(own.ok(), "{own:?}");
}

#[tokio::test]
async fn an_agent_not_approved_is_told_apart_from_a_wrong_address() {
    let m = mock().await;
    m.revoke_agent(&agent());
    let (diagnosis, said) =
        key_failure(&check_hyperliquid(&perp(&m.url(), AGENT_KEY, WALLET, false)).await);
    assert_eq!(diagnosis, Diagnosis::AgentWallet);
    assert!(said.starts_with("agent wallet not approved"), "{said}");
    assert!(
        said.contains("…5c23") && said.contains("More → API"),
        "{said}"
    );
    assert!(!said.contains(&AGENT_KEY[2..10]), "{said}");
}

#[tokio::test]
async fn the_agents_own_address_entered_as_the_main_wallets_is_named() {
    let m = mock().await;
    let (diagnosis, said) =
        key_failure(&check_hyperliquid(&perp(&m.url(), AGENT_KEY, &agent(), false)).await);
    assert_eq!(diagnosis, Diagnosis::AgentWallet);
    assert!(said.starts_with("wrong main wallet address"), "{said}");
    assert!(
        said.contains("this API key signs as") && said.contains("…5c23"),
        "{said}"
    );
    // Another agent's address is a wrong main wallet address too.
    let other_agent = address_of_key(OTHER_AGENT_KEY).unwrap();
    let m2 = MockHyperliquid::start().await.unwrap();
    m2.add_user(WALLET, dec!(10));
    m2.approve_agent(WALLET, &agent(), "nofxi");
    m2.add_user(OTHER_WALLET, dec!(10));
    m2.approve_agent(OTHER_WALLET, &other_agent, "other");
    let (_, said) =
        key_failure(&check_hyperliquid(&perp(&m2.url(), AGENT_KEY, &other_agent, false)).await);
    assert!(
        said.contains("is an agent (API) wallet acting for"),
        "{said}"
    );
}

#[tokio::test]
async fn an_agent_of_another_wallet_and_a_main_key_with_another_address_are_named() {
    let m = mock().await;
    m.add_user(OTHER_WALLET, dec!(10));
    let (_, said) =
        key_failure(&check_hyperliquid(&perp(&m.url(), AGENT_KEY, OTHER_WALLET, false)).await);
    assert!(
        said.starts_with("agent wallet approved for another main wallet"),
        "{said}"
    );
    assert!(said.contains("enter …5c23 as wallet_addr"), "{said}");
    let (_, said) =
        key_failure(&check_hyperliquid(&perp(&m.url(), MAIN_KEY, OTHER_WALLET, false)).await);
    assert!(
        said.contains("is the private key of wallet …5c23"),
        "{said}"
    );
}

#[tokio::test]
async fn a_testnet_switch_that_does_not_match_is_found_by_the_signed_check() {
    let m = mock().await;
    let (diagnosis, said) =
        key_failure(&check_hyperliquid(&perp(&m.url(), AGENT_KEY, WALLET, true)).await);
    assert_eq!(diagnosis, Diagnosis::AgentWallet);
    assert!(said.contains("testnet switch"), "{said}");
    assert!(
        said.contains("does not exist"),
        "Hyperliquid's words are quoted: {said}"
    );
}

#[tokio::test]
async fn a_skewed_clock_is_measured_and_an_empty_account_is_a_warning() {
    let m = mock().await;
    m.set_clock_skew_ms(5_000);
    m.set_balance(WALLET, dec!(0));
    let r = check_hyperliquid(&perp(&m.url(), AGENT_KEY, WALLET, false)).await;
    assert!(r.ok(), "a warning is no failure: {r:?}");
    let Check::Warning { value, problem } = &r.clock else {
        panic!("{r:?}")
    };
    assert!(value.offset_ms > 4_000, "{value:?}");
    assert_eq!(problem.diagnosis, Diagnosis::ClockOffset);
    let Check::Warning { problem, .. } = &r.balance else {
        panic!("{r:?}")
    };
    assert_eq!(problem.diagnosis, Diagnosis::NoBalance);
    assert!(problem.message.contains("USDC"), "{problem:?}");
    drop(m);
    let gone = check_hyperliquid(&perp("http://127.0.0.1:9", AGENT_KEY, WALLET, false)).await;
    assert!(
        matches!(gone.clock, Check::Failed { .. }) && !gone.ok(),
        "{gone:?}"
    );
}
