//! A Hyperliquid account through the real `nofxi` binary, against the testkit's mock
//! Hyperliquid (pointed at by `NOFXI_HYPERLIQUID_BASE_URL`): it is offered for trading,
//! `exchange test` passes on a healthy account and names the agent-wallet faults (an agent
//! not approved, the agent's own address entered as the main wallet's), the chat explains the
//! same faults as what happened / why / what now in both languages, and a trader started on
//! it places its entry, stop-loss and take-profit on the mock, signed by the agent wallet.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use nofxi_testkit::hyperliquid::{MockHyperliquid, address_of_key};
use nofxi_testkit::llm::{MockLlm, Reply};
use rust_decimal_macros::dec;
use serde_json::Value;
use support::{add_deepseek_model, home, nofxi, output_async, text, with_input};

/// The agent wallet's private key (a test key) and the main wallet that approved it.
const AGENT_KEY: &str = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";
const WALLET: &str = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc";
const MODEL_KEY: &str = "sk-hltrader0123456789abcdef";

/// The binary, pointed at the mock Hyperliquid when `url` is given.
async fn run(home: &Path, url: Option<&str>, args: &[&str]) -> Output {
    let mut cmd = nofxi(home, args);
    if let Some(url) = url {
        cmd.env("NOFXI_HYPERLIQUID_BASE_URL", url);
    }
    output_async(cmd).await
}

async fn ok(home: &Path, url: Option<&str>, args: &[&str]) -> String {
    let out = run(home, url, args).await;
    assert!(out.status.success(), "nofxi {args:?}: {}", text(&out));
    text(&out)
}

async fn add_hyperliquid(home: &Path, name: &str, wallet: &str) -> String {
    ok(
        home,
        None,
        &[
            "exchange",
            "add",
            "--type",
            "hyperliquid",
            "--name",
            name,
            "--api-key",
            AGENT_KEY,
            "--wallet-addr",
            wallet,
        ],
    )
    .await
}

fn agent() -> String {
    address_of_key(AGENT_KEY).unwrap()
}

async fn mock() -> MockHyperliquid {
    let m = MockHyperliquid::start().await.unwrap();
    m.add_user(WALLET, dec!(8765.4));
    m.approve_agent(WALLET, &agent(), "nofxi");
    m
}

fn no_secret(said: &str) {
    assert!(
        !said.contains(&AGENT_KEY[2..]),
        "the agent key shown: {said}"
    );
    assert!(
        !said.contains(&AGENT_KEY[2..18]),
        "part of the agent key shown: {said}"
    );
}

/// One `nofxi chat --json --new` turn; its reply.
async fn chat(home: &Path, url: &str, message: &str) -> String {
    let mut cmd = nofxi(home, &["chat", "--json", "--new"]);
    cmd.env("NOFXI_HYPERLIQUID_BASE_URL", url);
    let line = format!("{message}\n");
    let out = tokio::task::spawn_blocking(move || with_input(&mut cmd, &line))
        .await
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let first = String::from_utf8_lossy(&out.stdout)
        .lines()
        .next()
        .unwrap()
        .to_string();
    let v: Value = serde_json::from_str(&first).unwrap();
    v["reply"].as_str().unwrap().to_string()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_hyperliquid_account_is_offered_tested_and_its_agent_wallet_faults_named() {
    let (_dir, home) = home();
    let mock = mock().await;
    let url = mock.url();

    let added = add_hyperliquid(&home, "hl1", WALLET).await;
    assert!(!added.contains("cannot trade"), "{added}");
    no_secret(&added);
    let types = ok(&home, None, &["exchange", "types"]).await;
    let line = types
        .lines()
        .find(|l| l.starts_with("hyperliquid"))
        .unwrap();
    assert!(line.contains("yes"), "{types}");
    let listed = run(&home, None, &["exchange", "types", "--json"]).await;
    let listed: Value = serde_json::from_slice(&listed.stdout).unwrap();
    assert_eq!(listed["hyperliquid"]["can_trade"], true, "{listed}");

    let healthy = ok(&home, Some(&url), &["exchange", "test", "hl1"]).await;
    assert!(
        healthy.contains("8765.4") && healthy.contains("USDC"),
        "{healthy}"
    );
    let mode = healthy
        .lines()
        .find(|l| l.starts_with("position mode"))
        .unwrap();
    assert!(mode.contains("one-way only"), "{healthy}");
    no_secret(&healthy);

    // The agent wallet is no longer approved (another unnamed agent replaced it).
    mock.revoke_agent(&agent());
    let refused = run(&home, Some(&url), &["exchange", "test", "hl1"]).await;
    assert!(!refused.status.success());
    let said = text(&refused);
    let row = said.lines().find(|l| l.starts_with("api key")).unwrap();
    assert!(
        row.contains("FAILED") && row.contains("agent wallet not approved"),
        "{said}"
    );
    // Its one-line advice is the agent wallet's, not Binance's IP whitelist.
    assert!(
        row.contains("wallet_addr") && !row.contains("whitelist"),
        "{said}"
    );
    no_secret(&said);
    let json = run(&home, Some(&url), &["exchange", "test", "hl1", "--json"]).await;
    let v: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["api_key"]["status"], "failed", "{v}");
    assert_eq!(v["api_key"]["problem"]["diagnosis"], "agent_wallet");
    assert_eq!(v["balance"]["status"], "skipped");
    mock.approve_agent(WALLET, &agent(), "nofxi");

    // The agent's own address where the main wallet's belongs.
    add_hyperliquid(&home, "hl2", &agent()).await;
    let wrong = run(&home, Some(&url), &["exchange", "test", "hl2"]).await;
    assert!(!wrong.status.success());
    let said = text(&wrong);
    let row = said.lines().find(|l| l.starts_with("api key")).unwrap();
    assert!(row.contains("wrong main wallet address"), "{said}");
    no_secret(&said);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_chat_explains_an_agent_wallet_fault_as_what_why_and_what_now() {
    let (_dir, home) = home();
    let mock = mock().await;
    let url = mock.url();
    add_hyperliquid(&home, "hl1", WALLET).await;
    add_hyperliquid(&home, "hl2", &agent()).await;

    mock.revoke_agent(&agent());
    let reply = chat(&home, &url, "why can't hl1 connect?").await;
    assert!(
        reply.contains("hl1") && reply.contains("agent wallet not approved"),
        "{reply}"
    );
    assert!(reply.contains("More → API"), "what to do now: {reply}");
    // Explained as an agent wallet fault, not with Binance's IP whitelist texts.
    assert!(reply.contains("agent (API) wallet"), "{reply}");
    assert!(!reply.contains("whitelist"), "{reply}");
    no_secret(&reply);
    let reply = chat(&home, &url, "hl1 为什么连不上").await;
    assert!(
        reply.contains("API Key") && reply.contains("agent wallet not approved"),
        "{reply}"
    );
    assert!(reply.contains("agent（API）钱包"), "{reply}");
    assert!(!reply.contains("白名单"), "{reply}");
    no_secret(&reply);
    mock.approve_agent(WALLET, &agent(), "nofxi");

    let reply = chat(&home, &url, "why can't hl2 connect?").await;
    assert!(
        reply.contains("hl2") && reply.contains("wrong main wallet address"),
        "{reply}"
    );
    assert!(
        reply.contains("wallet_addr holds the agent's own address"),
        "{reply}"
    );
    no_secret(&reply);
    let reply = chat(&home, &url, "hl2 为什么连不上").await;
    assert!(reply.contains("wrong main wallet address"), "{reply}");
    assert!(
        reply.contains("wallet_addr 填成了 agent 钱包自己的地址"),
        "{reply}"
    );
    no_secret(&reply);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_trader_started_on_hyperliquid_places_its_orders_on_the_mock() {
    let (_dir, home) = home();
    let mock = mock().await;
    let url = mock.url();
    let llm = MockLlm::start().await;
    // REFERENCE §2's answer: a BTC long at about the mock's 60 000, with its stop and target.
    llm.set_default(Reply::Text(
        "Trend up.\n```json\n[{\"symbol\":\"BTCUSDT\",\"action\":\"open_long\",\"leverage\":3,\
         \"position_size_usd\":300,\"stop_loss\":58800,\"take_profit\":64800,\"confidence\":85,\
         \"reasoning\":\"trend up\"},{\"symbol\":\"ETHUSDT\",\"action\":\"wait\"}]\n```"
            .into(),
    ));
    add_hyperliquid(&home, "hl1", WALLET).await;
    add_deepseek_model(&home, &format!("{}/v1", llm.base_url()), MODEL_KEY).await;
    for args in [
        &["strategy", "add", "--name", "default"][..],
        &[
            "trader",
            "add",
            "--name",
            "hlbot",
            "--model",
            "ds",
            "--exchange",
            "hl1",
            "--strategy",
            "default",
        ],
        &["trader", "start", "hlbot", "--confirm-live"],
    ] {
        ok(&home, Some(&url), args).await;
    }

    let mut engine = nofxi(&home, &["run", "--cycle-seconds", "60"]);
    let child = engine
        .env("NOFXI_HYPERLIQUID_BASE_URL", &url)
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The first cycle runs at once; wait (boundedly) until its three orders are on the mock.
    let placed = |m: &MockHyperliquid| {
        let orders = m.orders(WALLET);
        orders.iter().any(|o| o.status == "filled")
            && orders.iter().filter(|o| o.trigger_px.is_some()).count() == 2
    };
    for _ in 0..600 {
        if placed(&mock) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    let out = tokio::task::spawn_blocking(move || child.wait_with_output().unwrap())
        .await
        .unwrap();
    let log = text(&out);
    assert!(placed(&mock), "no orders on the mock: {log}");
    no_secret(&log);

    let orders = mock.orders(WALLET);
    let entry = &orders[0];
    assert_eq!(
        (
            entry.coin.as_str(),
            entry.side.as_str(),
            entry.tif.as_deref()
        ),
        ("BTC", "B", Some("Ioc"))
    );
    // About 300 USDC at 60 000 is 0.005 BTC, to BTC's five size decimals.
    assert!(
        entry.orig_sz > dec!(0.004) && entry.orig_sz <= dec!(0.005),
        "{entry:?}"
    );
    assert!(entry.cloid.is_some(), "{entry:?}");
    let stop = orders
        .iter()
        .find(|o| o.tpsl.as_deref() == Some("sl"))
        .unwrap();
    let target = orders
        .iter()
        .find(|o| o.tpsl.as_deref() == Some("tp"))
        .unwrap();
    assert_eq!(
        (stop.trigger_px, target.trigger_px),
        (Some(dec!(58800)), Some(dec!(64800)))
    );
    for o in [stop, target] {
        assert_eq!((o.side.as_str(), o.status.as_str()), ("A", "open"));
        assert!(o.reduce_only && o.orig_sz == entry.orig_sz, "{o:?}");
    }
    let positions = run(
        &home,
        Some(&url),
        &["exchange", "positions", "hl1", "--json"],
    )
    .await;
    assert!(positions.status.success(), "{}", text(&positions));
    let rows: Value = serde_json::from_slice(&positions.stdout).unwrap();
    assert_eq!(rows[0]["symbol"], "BTCUSDT", "{rows}");
    assert_eq!(
        rows[0]["quantity"],
        entry.orig_sz.normalize().to_string().as_str(),
        "{rows}"
    );
}
