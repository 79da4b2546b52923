//! A trader set up and started on each live venue through the chat alone, against the venue's
//! mock: the account is added with its credentials said in a message, the trader is created
//! on it and started after the live-money confirmation, and the engine then places the
//! trader's entry, stop-loss and take-profit on the mock. No reply shows a credential.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use nofxi_testkit::llm::{MockLlm, Reply};
use serde_json::Value;
use support::live::{self, Live};
use support::{add_deepseek_model, home, nofxi, output_async, text, with_input};

const MODEL_KEY: &str = "sk-chatvenue0123456789abcdef";

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_binance_trader_is_set_up_and_started_by_chat() {
    trades_after_chat(live::binance().await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_okx_trader_is_set_up_and_started_by_chat() {
    trades_after_chat(live::okx().await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_bybit_trader_is_set_up_and_started_by_chat() {
    trades_after_chat(live::bybit().await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_bitget_trader_is_set_up_and_started_by_chat() {
    trades_after_chat(live::bitget().await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_hyperliquid_trader_is_set_up_and_started_by_chat() {
    trades_after_chat(live::hyperliquid().await).await;
}

async fn trades_after_chat(live: Live) {
    let (_dir, home) = home();
    let llm = MockLlm::start().await;
    llm.set_default(Reply::Text(
        "Trend up.\n```json\n[{\"symbol\":\"BTCUSDT\",\"action\":\"open_long\",\"leverage\":3,\
         \"position_size_usd\":300,\"stop_loss\":58800,\"take_profit\":64800,\"confidence\":85,\
         \"reasoning\":\"trend up\"}]\n```"
            .into(),
    ));
    add_deepseek_model(&home, &format!("{}/v1", llm.base_url()), MODEL_KEY).await;
    let out = output_async(nofxi(&home, &["strategy", "add", "--name", "default"])).await;
    assert!(out.status.success(), "{}", text(&out));

    let said = credentials_said(&live);
    let turns = chat(
        &home,
        &live,
        &[
            &format!("add a {} exchange account called acct, {said}", live.kind),
            "create a trader called bot on acct with model ds and strategy default",
            "start bot",
            "yes",
        ],
    )
    .await;
    let replies: Vec<&str> = turns.iter().filter_map(|t| t["reply"].as_str()).collect();
    let all = replies.join("\n");
    for secret in live.credentials.iter().skip(1).step_by(2) {
        assert!(
            !all.contains(secret),
            "{}: a credential shown: {all}",
            live.kind
        );
    }
    assert!(
        executed(&turns[0], "exchange.create") && executed(&turns[1], "trader.create"),
        "{}: {all}",
        live.kind
    );
    assert!(
        !executed(&turns[2], "trader.start") && executed(&turns[3], "trader.start"),
        "{}: a live start must wait for its own confirmation: {all}",
        live.kind
    );

    let mut engine = nofxi(&home, &["run", "--cycle-seconds", "600"]);
    let mut child = engine
        .env(live.url_env, &live.url)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while !((live.entries)() == 1 && (live.protections)() == 2) {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "{}: the trader placed no orders",
            live.kind
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    child.wait().unwrap();
}

/// The account's credentials as a user types them: "api key …, secret key …".
fn credentials_said(live: &Live) -> String {
    live.credentials
        .chunks(2)
        .map(|pair| {
            let words = match pair[0] {
                "--api-key" => "api key",
                "--secret-key" => "secret key",
                "--passphrase" => "passphrase",
                "--wallet-addr" => "wallet address",
                other => other,
            };
            format!("{words} {}", pair[1])
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// One `nofxi chat --json` session of `lines`; each turn's answer.
async fn chat(home: &Path, live: &Live, lines: &[&str]) -> Vec<Value> {
    let mut cmd = nofxi(home, &["chat", "--json", "--new"]);
    cmd.env(live.url_env, &live.url);
    let input = lines.join("\n") + "\n";
    let out = tokio::task::spawn_blocking(move || with_input(&mut cmd, &input))
        .await
        .unwrap();
    let answers: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), lines.len(), "{}", text(&out));
    answers
}

/// Whether the turn ran `tool` successfully.
fn executed(turn: &Value, tool: &str) -> bool {
    turn["events"].as_array().is_some_and(|events| {
        events
            .iter()
            .any(|e| e["type"] == "tool_executed" && e["tool"] == tool)
    })
}
