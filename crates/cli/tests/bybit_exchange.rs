//! A Bybit account through the real `nofxi` binary, against the testkit's mock Bybit (pointed
//! at by `NOFXI_BYBIT_BASE_URL`): it is offered for trading, `exchange test` passes on a
//! healthy account and names an injected fault (IP whitelist, secret) with Bybit's code, the
//! chat explains the same faults as what happened / why / what now in both languages, and a
//! trader started on it places its entry, stop-loss and take-profit on the mock.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use nofxi_testkit::bybit::MockBybit;
use nofxi_testkit::llm::{MockLlm, Reply};
use rust_decimal_macros::dec;
use serde_json::Value;
use support::{add_deepseek_model, home, nofxi, output_async, text, with_input};

const KEY: &str = "bybitCliKey0123456789";
const SECRET: &str = "bybitCliSecret0123456789";
const WRONG_SECRET: &str = "bybitWrongSecret987654";
const MODEL_KEY: &str = "sk-bybittrader0123456789abcdef";

/// The binary, pointed at the mock Bybit when `url` is given.
async fn run(home: &Path, url: Option<&str>, args: &[&str]) -> Output {
    let mut cmd = nofxi(home, args);
    if let Some(url) = url {
        cmd.env("NOFXI_BYBIT_BASE_URL", url);
    }
    output_async(cmd).await
}

async fn ok(home: &Path, url: Option<&str>, args: &[&str]) -> String {
    let out = run(home, url, args).await;
    assert!(out.status.success(), "nofxi {args:?}: {}", text(&out));
    text(&out)
}

async fn add_bybit(home: &Path, name: &str, secret: &str) -> String {
    ok(
        home,
        None,
        &[
            "exchange",
            "add",
            "--type",
            "bybit",
            "--name",
            name,
            "--api-key",
            KEY,
            "--secret-key",
            secret,
        ],
    )
    .await
}

async fn mock() -> MockBybit {
    let m = MockBybit::start().await.unwrap();
    m.add_account(KEY, SECRET, dec!(8765.4));
    m
}

fn no_secret(said: &str) {
    for secret in [KEY, SECRET, WRONG_SECRET] {
        assert!(!said.contains(secret), "{secret} shown: {said}");
    }
}

/// One `nofxi chat --json --new` turn; its reply.
async fn chat(home: &Path, url: &str, message: &str) -> String {
    let mut cmd = nofxi(home, &["chat", "--json", "--new"]);
    cmd.env("NOFXI_BYBIT_BASE_URL", url);
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
async fn a_bybit_account_is_offered_tested_and_its_faults_named() {
    let (_dir, home) = home();
    let mock = mock().await;
    let url = mock.url();

    let added = add_bybit(&home, "by1", SECRET).await;
    assert!(!added.contains("cannot trade"), "{added}");
    let types = ok(&home, None, &["exchange", "types"]).await;
    let bybit = types.lines().find(|l| l.starts_with("bybit")).unwrap();
    assert!(bybit.contains("yes"), "{types}");
    let listed = run(&home, None, &["exchange", "types", "--json"]).await;
    let listed: Value = serde_json::from_slice(&listed.stdout).unwrap();
    assert_eq!(listed["bybit"]["can_trade"], true, "{listed}");

    let healthy = ok(&home, Some(&url), &["exchange", "test", "by1"]).await;
    assert!(healthy.contains("8765.4"), "{healthy}");
    assert!(healthy.contains("one-way"), "{healthy}");
    no_secret(&healthy);

    mock.set_ip_whitelisted(KEY, false);
    let refused = run(&home, Some(&url), &["exchange", "test", "by1"]).await;
    assert!(!refused.status.success());
    let said = text(&refused);
    let row = said
        .lines()
        .find(|l| l.starts_with("ip whitelist"))
        .unwrap();
    assert!(row.contains("FAILED") && row.contains("10010"), "{said}");
    assert!(row.contains("bound IP"), "{row}");
    no_secret(&said);
    let json = run(&home, Some(&url), &["exchange", "test", "by1", "--json"]).await;
    let v: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["ip_whitelist"]["status"], "failed", "{v}");
    assert_eq!(v["ip_whitelist"]["problem"]["code"], 10010);
    assert_eq!(v["api_key"]["status"], "skipped");
    mock.set_ip_whitelisted(KEY, true);

    // The secret stored is not the key's: Bybit's 10004 quotes the signed text, key
    // included, and nofxi shows its words without the key.
    add_bybit(&home, "by2", WRONG_SECRET).await;
    let wrong = run(&home, Some(&url), &["exchange", "test", "by2"]).await;
    assert!(!wrong.status.success());
    let said = text(&wrong);
    let row = said.lines().find(|l| l.starts_with("api key")).unwrap();
    assert!(
        row.contains("10004") && row.contains("error sign"),
        "{said}"
    );
    no_secret(&said);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_chat_explains_a_bybit_fault_as_what_why_and_what_now() {
    let (_dir, home) = home();
    let mock = mock().await;
    let url = mock.url();
    add_bybit(&home, "by1", SECRET).await;
    add_bybit(&home, "by2", WRONG_SECRET).await;

    mock.set_ip_whitelisted(KEY, false);
    let reply = chat(&home, &url, "why can't by1 connect?").await;
    assert!(
        reply.contains("by1") && reply.contains("whitelist"),
        "{reply}"
    );
    assert!(
        reply.contains("10010"),
        "Bybit's own words are shown: {reply}"
    );
    no_secret(&reply);
    let reply = chat(&home, &url, "by1 为什么连不上").await;
    assert!(
        reply.contains("白名单") && reply.contains("10010"),
        "{reply}"
    );
    no_secret(&reply);
    mock.set_ip_whitelisted(KEY, true);

    let reply = chat(&home, &url, "why can't by2 connect?").await;
    assert!(
        reply.contains("by2") && reply.contains("signature"),
        "{reply}"
    );
    assert!(reply.contains("10004"), "{reply}");
    no_secret(&reply);
    let reply = chat(&home, &url, "by2 为什么连不上").await;
    assert!(reply.contains("签名"), "{reply}");
    no_secret(&reply);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_trader_started_on_bybit_places_its_orders_on_the_mock() {
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
    add_bybit(&home, "by1", SECRET).await;
    add_deepseek_model(&home, &format!("{}/v1", llm.base_url()), MODEL_KEY).await;
    for args in [
        &["strategy", "add", "--name", "default"][..],
        &[
            "trader",
            "add",
            "--name",
            "bybot",
            "--model",
            "ds",
            "--exchange",
            "by1",
            "--strategy",
            "default",
        ],
        &["trader", "start", "bybot", "--confirm-live"],
    ] {
        ok(&home, Some(&url), args).await;
    }

    let mut engine = nofxi(&home, &["run", "--cycle-seconds", "60"]);
    let child = engine
        .env("NOFXI_BYBIT_BASE_URL", &url)
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The first cycle runs at once; wait (boundedly) until its three orders are on the mock.
    let placed = |m: &MockBybit| {
        let orders = m.orders(KEY);
        orders.iter().any(|o| o.status == "Filled")
            && orders.iter().filter(|o| o.trigger_price.is_some()).count() == 2
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

    let orders = mock.orders(KEY);
    let entry = &orders[0];
    assert_eq!(
        (
            entry.symbol.as_str(),
            entry.side.as_str(),
            entry.order_type.as_str(),
            entry.status.as_str()
        ),
        ("BTCUSDT", "Buy", "Market", "Filled")
    );
    // About 300 USDT at 60 000 is 0.005 BTC, to Bybit's step of 0.001.
    assert!(
        entry.qty > dec!(0.004) && entry.qty <= dec!(0.005),
        "{entry:?}"
    );
    assert!(entry.order_link_id.starts_with("nx"), "{entry:?}");
    let trigger = |t| orders.iter().find(|o| o.trigger_price == Some(t)).unwrap();
    let (stop, target) = (trigger(dec!(58800)), trigger(dec!(64800)));
    // A stop fires on a fall, a take-profit on a rise; both may only close.
    assert_eq!((stop.trigger_direction, target.trigger_direction), (2, 1));
    for o in [stop, target] {
        assert_eq!(
            (o.side.as_str(), o.status.as_str()),
            ("Sell", "Untriggered")
        );
        assert!(o.reduce_only && o.close_on_trigger, "{o:?}");
        assert!(o.order_link_id.starts_with("nx"), "{o:?}");
    }
    let positions = run(
        &home,
        Some(&url),
        &["exchange", "positions", "by1", "--json"],
    )
    .await;
    assert!(positions.status.success(), "{}", text(&positions));
    let rows: Value = serde_json::from_slice(&positions.stdout).unwrap();
    assert_eq!(rows[0]["symbol"], "BTCUSDT", "{rows}");
    assert_eq!(
        rows[0]["quantity"],
        entry.qty.normalize().to_string().as_str(),
        "{rows}"
    );
}
