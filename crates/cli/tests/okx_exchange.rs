//! An OKX account through the real `nofxi` binary, against the testkit's mock OKX (pointed at
//! by `NOFXI_OKX_BASE_URL`): it is offered for trading, `exchange test` passes on a healthy
//! account and names an injected fault (IP whitelist, passphrase) with OKX's code, the chat
//! explains the same faults as what happened / why / what now, and a trader started on it
//! places its entry, stop-loss and take-profit on the mock.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use nofxi_testkit::llm::{MockLlm, Reply};
use nofxi_testkit::okx::MockOkx;
use rust_decimal_macros::dec;
use serde_json::Value;
use support::{add_deepseek_model, home, nofxi, output_async, text, with_input};

const KEY: &str = "okxCliKey0123456789";
const SECRET: &str = "okxCliSecret0123456789";
const PASSPHRASE: &str = "okxCliPass42";
const MODEL_KEY: &str = "sk-okxtrader0123456789abcdef";

/// The binary, pointed at the mock OKX when `url` is given.
async fn run(home: &Path, url: Option<&str>, args: &[&str]) -> Output {
    let mut cmd = nofxi(home, args);
    if let Some(url) = url {
        cmd.env("NOFXI_OKX_BASE_URL", url);
    }
    output_async(cmd).await
}

async fn ok(home: &Path, url: Option<&str>, args: &[&str]) -> String {
    let out = run(home, url, args).await;
    assert!(out.status.success(), "nofxi {args:?}: {}", text(&out));
    text(&out)
}

async fn add_okx(home: &Path, name: &str, passphrase: &str) -> String {
    ok(
        home,
        None,
        &[
            "exchange",
            "add",
            "--type",
            "okx",
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

async fn mock() -> MockOkx {
    let m = MockOkx::start().await.unwrap();
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
    cmd.env("NOFXI_OKX_BASE_URL", url);
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
async fn an_okx_account_is_offered_tested_and_its_faults_named() {
    let (_dir, home) = home();
    let mock = mock().await;
    let url = mock.url();

    let added = add_okx(&home, "ok1", PASSPHRASE).await;
    assert!(!added.contains("cannot trade"), "{added}");
    let types = ok(&home, None, &["exchange", "types"]).await;
    let okx = types.lines().find(|l| l.starts_with("okx")).unwrap();
    assert!(okx.contains("yes"), "{types}");

    let healthy = ok(&home, Some(&url), &["exchange", "test", "ok1"]).await;
    assert!(healthy.contains("8765.4"), "{healthy}");
    assert!(healthy.contains("one-way"), "{healthy}");
    no_secret(&healthy);

    mock.set_ip_whitelisted(KEY, false);
    let refused = run(&home, Some(&url), &["exchange", "test", "ok1"]).await;
    assert!(!refused.status.success());
    let said = text(&refused);
    let row = said
        .lines()
        .find(|l| l.starts_with("ip whitelist"))
        .unwrap();
    assert!(row.contains("FAILED") && row.contains("50110"), "{said}");
    assert!(row.contains("IP whitelist"), "{row}");
    no_secret(&said);
    let json = run(&home, Some(&url), &["exchange", "test", "ok1", "--json"]).await;
    let v: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["ip_whitelist"]["status"], "failed", "{v}");
    assert_eq!(v["ip_whitelist"]["problem"]["code"], 50110);
    assert_eq!(v["api_key"]["status"], "skipped");
    mock.set_ip_whitelisted(KEY, true);

    // The passphrase stored is not the one the key was created with.
    add_okx(&home, "ok2", "wrongPass9").await;
    let wrong = run(&home, Some(&url), &["exchange", "test", "ok2"]).await;
    assert!(!wrong.status.success());
    let said = text(&wrong);
    let row = said.lines().find(|l| l.starts_with("api key")).unwrap();
    assert!(
        row.contains("50105") && row.contains("PASSPHRASE"),
        "{said}"
    );
    assert!(!said.contains("wrongPass9"), "{said}");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_chat_explains_an_okx_fault_as_what_why_and_what_now() {
    let (_dir, home) = home();
    let mock = mock().await;
    let url = mock.url();
    add_okx(&home, "ok1", PASSPHRASE).await;
    add_okx(&home, "ok2", "wrongPass9").await;

    mock.set_ip_whitelisted(KEY, false);
    let reply = chat(&home, &url, "why can't ok1 connect?").await;
    assert!(
        reply.contains("ok1") && reply.contains("whitelist"),
        "{reply}"
    );
    assert!(
        reply.contains("50110"),
        "OKX's own words are shown: {reply}"
    );
    no_secret(&reply);
    mock.set_ip_whitelisted(KEY, true);

    let reply = chat(&home, &url, "why can't ok2 connect?").await;
    assert!(
        reply.contains("ok2") && reply.contains("passphrase"),
        "{reply}"
    );
    assert!(reply.contains("50105"), "{reply}");
    assert!(!reply.contains("wrongPass9"), "{reply}");
    let reply = chat(&home, &url, "ok2 为什么连不上").await;
    assert!(reply.contains("密码短语"), "{reply}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_trader_started_on_okx_places_its_orders_on_the_mock() {
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
    add_okx(&home, "ok1", PASSPHRASE).await;
    add_deepseek_model(&home, &format!("{}/v1", llm.base_url()), MODEL_KEY).await;
    for args in [
        &["strategy", "add", "--name", "default"][..],
        &[
            "trader",
            "add",
            "--name",
            "okbot",
            "--model",
            "ds",
            "--exchange",
            "ok1",
            "--strategy",
            "default",
        ],
        &["trader", "start", "okbot", "--confirm-live"],
    ] {
        ok(&home, Some(&url), args).await;
    }

    let mut engine = nofxi(&home, &["run", "--cycle-seconds", "60"]);
    let child = engine
        .env("NOFXI_OKX_BASE_URL", &url)
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The first cycle runs at once; wait (boundedly) until its three orders are on the mock.
    let placed = |m: &MockOkx| {
        m.orders(KEY).iter().any(|o| o.state == "filled") && m.algo_orders(KEY).len() == 2
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
            entry.inst_id.as_str(),
            entry.side.as_str(),
            entry.ord_type.as_str(),
            entry.td_mode.as_str()
        ),
        ("BTC-USDT-SWAP", "buy", "market", "cross")
    );
    // About 300 USDT at 60 000 is 0.005 BTC: half a contract of 0.01 BTC, to the lot.
    assert!(entry.sz > dec!(0.4) && entry.sz <= dec!(0.5), "{entry:?}");
    assert!(entry.cl_ord_id.starts_with("nx"), "{entry:?}");
    let algos = mock.algo_orders(KEY);
    let stop = algos.iter().find(|a| a.sl_trigger.is_some()).unwrap();
    let target = algos.iter().find(|a| a.tp_trigger.is_some()).unwrap();
    assert_eq!(
        (stop.sl_trigger, target.tp_trigger),
        (Some(dec!(58800)), Some(dec!(64800)))
    );
    for a in [stop, target] {
        assert_eq!((a.side.as_str(), a.state.as_str()), ("sell", "live"));
        assert!(a.reduce_only && a.cxl_on_close_pos, "{a:?}");
    }
    let positions = run(
        &home,
        Some(&url),
        &["exchange", "positions", "ok1", "--json"],
    )
    .await;
    assert!(positions.status.success(), "{}", text(&positions));
    let rows: Value = serde_json::from_slice(&positions.stdout).unwrap();
    assert_eq!(rows[0]["symbol"], "BTCUSDT", "{rows}");
    // The position in coins is the entry's contracts of 0.01 BTC, exactly.
    let coins = (entry.sz * dec!(0.01)).normalize().to_string();
    assert_eq!(rows[0]["quantity"], coins.as_str(), "{rows}");
}
