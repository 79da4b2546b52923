//! A Bitget account through the real `nofxi` binary, against the testkit's mock Bitget
//! (pointed at by `NOFXI_BITGET_BASE_URL`): it is offered for trading, `exchange test` passes
//! on a healthy account and names an injected fault (IP whitelist, passphrase) with Bitget's
//! code, the chat explains the same faults as what happened / why / what now in English and
//! Chinese, and a trader started on it places its entry, stop-loss and take-profit on the
//! mock.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use nofxi_testkit::bitget::MockBitget;
use nofxi_testkit::llm::{MockLlm, Reply};
use rust_decimal_macros::dec;
use serde_json::Value;
use support::{add_deepseek_model, home, nofxi, output_async, text, with_input};

/// Shaped as Bitget's own: `bg_` and 32 hex digits, a 64-digit secret.
const KEY: &str = "bg_0a1b2c3d4e5f60718293a4b5c6d7e8f9";
const SECRET: &str = "5e2f0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7";
const PASSPHRASE: &str = "bitgetCliPass42";
const MODEL_KEY: &str = "sk-bitgettrader0123456789abcdef";

/// The binary, pointed at the mock Bitget when `url` is given.
async fn run(home: &Path, url: Option<&str>, args: &[&str]) -> Output {
    let mut cmd = nofxi(home, args);
    if let Some(url) = url {
        cmd.env("NOFXI_BITGET_BASE_URL", url);
    }
    output_async(cmd).await
}

async fn ok(home: &Path, url: Option<&str>, args: &[&str]) -> String {
    let out = run(home, url, args).await;
    assert!(out.status.success(), "nofxi {args:?}: {}", text(&out));
    text(&out)
}

async fn add_bitget(home: &Path, name: &str, passphrase: &str) -> String {
    ok(
        home,
        None,
        &[
            "exchange",
            "add",
            "--type",
            "bitget",
            "--name",
            name,
            "--api-key",
            KEY,
            "--secret-key",
            SECRET,
            "--passphrase",
            passphrase,
        ],
    )
    .await
}

async fn mock() -> MockBitget {
    let m = MockBitget::start().await.unwrap();
    m.add_account(KEY, SECRET, PASSPHRASE, dec!(8765.4));
    m
}

fn no_secret(said: &str) {
    for secret in [KEY, SECRET, PASSPHRASE] {
        assert!(!said.contains(secret), "{secret} shown: {said}");
    }
}

/// One `nofxi chat --json --new` turn; its reply.
async fn chat(home: &Path, url: &str, message: &str) -> String {
    let mut cmd = nofxi(home, &["chat", "--json", "--new"]);
    cmd.env("NOFXI_BITGET_BASE_URL", url);
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
async fn a_bitget_account_is_offered_tested_and_its_faults_named() {
    let (_dir, home) = home();
    let mock = mock().await;
    let url = mock.url();

    let added = add_bitget(&home, "bg1", PASSPHRASE).await;
    assert!(!added.contains("cannot trade"), "{added}");
    let types = ok(&home, None, &["exchange", "types"]).await;
    let bitget = types.lines().find(|l| l.starts_with("bitget")).unwrap();
    assert!(bitget.contains("yes"), "{types}");

    let healthy = ok(&home, Some(&url), &["exchange", "test", "bg1"]).await;
    assert!(healthy.contains("8765.4"), "{healthy}");
    assert!(healthy.contains("one-way"), "{healthy}");
    no_secret(&healthy);

    mock.set_ip_whitelisted(KEY, false);
    let refused = run(&home, Some(&url), &["exchange", "test", "bg1"]).await;
    assert!(!refused.status.success());
    let said = text(&refused);
    let row = said
        .lines()
        .find(|l| l.starts_with("ip whitelist"))
        .unwrap();
    assert!(row.contains("FAILED") && row.contains("40018"), "{said}");
    assert!(row.contains("whitelist"), "{row}");
    no_secret(&said);
    let json = run(&home, Some(&url), &["exchange", "test", "bg1", "--json"]).await;
    let v: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["ip_whitelist"]["status"], "failed", "{v}");
    assert_eq!(v["ip_whitelist"]["problem"]["code"], 40018);
    assert_eq!(v["api_key"]["status"], "skipped");
    mock.set_ip_whitelisted(KEY, true);

    // The passphrase stored is not the one the key was created with.
    add_bitget(&home, "bg2", "wrongPass9").await;
    let wrong = run(&home, Some(&url), &["exchange", "test", "bg2"]).await;
    assert!(!wrong.status.success());
    let said = text(&wrong);
    let row = said.lines().find(|l| l.starts_with("api key")).unwrap();
    assert!(
        row.contains("40012") && row.contains("passphrase"),
        "{said}"
    );
    assert!(!said.contains("wrongPass9"), "{said}");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_chat_explains_a_bitget_fault_as_what_why_and_what_now() {
    let (_dir, home) = home();
    let mock = mock().await;
    let url = mock.url();
    add_bitget(&home, "bg1", PASSPHRASE).await;
    add_bitget(&home, "bg2", "wrongPass9").await;

    mock.set_ip_whitelisted(KEY, false);
    let reply = chat(&home, &url, "why can't bg1 connect?").await;
    assert!(
        reply.contains("bg1") && reply.contains("whitelist"),
        "{reply}"
    );
    assert!(
        reply.contains("40018"),
        "Bitget's own code is shown: {reply}"
    );
    no_secret(&reply);
    let reply = chat(&home, &url, "bg1 为什么连不上").await;
    assert!(
        reply.contains("白名单") && reply.contains("40018"),
        "{reply}"
    );
    mock.set_ip_whitelisted(KEY, true);

    let reply = chat(&home, &url, "why can't bg2 connect?").await;
    assert!(
        reply.contains("bg2") && reply.contains("passphrase"),
        "{reply}"
    );
    assert!(reply.contains("40012"), "{reply}");
    assert!(!reply.contains("wrongPass9"), "{reply}");
    let reply = chat(&home, &url, "bg2 为什么连不上").await;
    assert!(reply.contains("密码短语"), "{reply}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_trader_started_on_bitget_places_its_orders_on_the_mock() {
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
    add_bitget(&home, "bg1", PASSPHRASE).await;
    add_deepseek_model(&home, &format!("{}/v1", llm.base_url()), MODEL_KEY).await;
    for args in [
        &["strategy", "add", "--name", "default"][..],
        &[
            "trader",
            "add",
            "--name",
            "bgbot",
            "--model",
            "ds",
            "--exchange",
            "bg1",
            "--strategy",
            "default",
        ],
        &["trader", "start", "bgbot", "--confirm-live"],
    ] {
        ok(&home, Some(&url), args).await;
    }

    let mut engine = nofxi(&home, &["run", "--cycle-seconds", "60"]);
    let child = engine
        .env("NOFXI_BITGET_BASE_URL", &url)
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The first cycle runs at once; wait (boundedly) until its three orders are on the mock.
    let placed = |m: &MockBitget| {
        m.orders(KEY).iter().any(|o| o.state == "filled") && m.plan_orders(KEY).len() == 2
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

    let entry = &mock.orders(KEY)[0];
    assert_eq!(
        (
            entry.symbol.as_str(),
            entry.side.as_str(),
            entry.order_type.as_str(),
            entry.margin_mode.as_str()
        ),
        ("BTCUSDT", "buy", "market", "crossed")
    );
    // About 300 USDT at 60 000 is 0.005 BTC, to the 0.0001 step.
    assert!(
        entry.size > dec!(0.004) && entry.size <= dec!(0.005),
        "{entry:?}"
    );
    assert!(entry.client_oid.starts_with("nx"), "{entry:?}");
    let plans = mock.plan_orders(KEY);
    let stop = plans.iter().find(|p| p.plan_type == "loss_plan").unwrap();
    let target = plans.iter().find(|p| p.plan_type == "profit_plan").unwrap();
    assert_eq!((stop.trigger, target.trigger), (dec!(58800), dec!(64800)));
    for p in [stop, target] {
        assert_eq!((p.hold.as_str(), p.status.as_str()), ("long", "live"));
        assert_eq!(p.size, entry.size, "{p:?}");
    }
    let positions = run(
        &home,
        Some(&url),
        &["exchange", "positions", "bg1", "--json"],
    )
    .await;
    assert!(positions.status.success(), "{}", text(&positions));
    let rows: Value = serde_json::from_slice(&positions.stdout).unwrap();
    assert_eq!(rows[0]["symbol"], "BTCUSDT", "{rows}");
    assert_eq!(
        rows[0]["quantity"],
        entry.size.normalize().to_string().as_str(),
        "{rows}"
    );
}
