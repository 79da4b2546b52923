//! Controls and trade history over HTTP, as the web app uses them: a paper trader starts at
//! once and its stop is asked first (the chat's rule); one of its positions is closed through
//! the confirmation while the engine in the server runs it, and shows in its closed trades as
//! a manual exit; "stop and close all" leaves it stopped and flat; the trade list agrees with
//! the stats, and a backtest's result carries its own. Real loopback HTTP, a real SQLite file.

use std::time::Duration;

use nofxi_store::test_support::sqlite_store;
use rust_decimal::Decimal;
use serde_json::{Value, json};

mod support;

use support::api::Api;
use support::{TestResult, fast_engine, start_server};

impl Api {
    /// The first call of a two-step action: its summary and token, nothing done.
    async fn asked(&self, path: &str, body: Value) -> TestResult<Value> {
        let (status, first) = self.post(path, body).await?;
        assert_eq!(status, 200, "{path}: {first}");
        assert_eq!(
            first["confirm_required"], true,
            "{path} acted at once: {first}"
        );
        Ok(first)
    }

    /// Closes one of the trader's positions through its confirmation: the summary names it,
    /// the token closes it. The trader may close the position itself between the question
    /// and the answer (an opposite cross, a stop): that is refused in words, and the next
    /// position is closed instead. The position closed and the answer.
    async fn close_a_position(&self, id: &str, close: &str) -> TestResult<(Value, Value)> {
        for _ in 0..5 {
            let position = self.a_position(id).await?;
            let which = json!({"symbol": position["symbol"], "side": position["side"]});
            let (status, first) = self.post(close, which.clone()).await?;
            if status == 409 {
                continue;
            }
            assert_eq!(
                first["confirm_required"], true,
                "{close} acted at once: {first}"
            );
            let summary = first["summary"].as_str().unwrap_or_default();
            let symbol = position["symbol"].as_str().unwrap_or_default();
            assert!(
                summary.contains("bot") && summary.contains(symbol) && summary.contains("paper"),
                "{summary}"
            );
            let mut body = which;
            body["confirm"] = first["token"].clone();
            let (status, done) = self.post(close, body).await?;
            if status == 409 {
                let said = done["error"]["message"].as_str().unwrap_or_default();
                assert!(said.contains("holds no"), "{done}");
                continue;
            }
            assert_eq!((status, &done["done"]), (200, &json!(true)), "{done}");
            return Ok((position, done));
        }
        Err("every position closed itself before its close was confirmed".into())
    }

    /// The trader's open positions once it holds one (the builtin model opens on an EMA
    /// cross; paper time runs 600× faster here).
    async fn a_position(&self, id: &str) -> TestResult<Value> {
        for _ in 0..600 {
            let held = self.get(&format!("/api/traders/{id}/positions")).await?;
            if let Some(p) = held["items"].as_array().and_then(|items| items.first()) {
                return Ok(p.clone());
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        Err("the trader opened no position within 120 s".into())
    }
}

fn dec(v: &Value) -> Decimal {
    v.as_str().and_then(|s| s.parse().ok()).unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_position_closed_over_http_is_a_manual_exit_in_the_trade_list() -> TestResult {
    let ts = sqlite_store().await?;
    let running = start_server(ts.store.clone(), Some(fast_engine("controls"))).await?;
    let api = Api::new(&running.base).await?;
    for (path, body) in [
        (
            "/api/exchanges",
            json!({"exchange_type": "paper", "account_name": "main"}),
        ),
        (
            "/api/models",
            json!({"name": "rules", "provider": "builtin"}),
        ),
        ("/api/strategies", json!({"name": "s1"})),
        (
            "/api/traders",
            json!({"name": "bot", "exchange": "main", "model": "rules", "strategy": "s1", "initial_balance": "1000"}),
        ),
    ] {
        let (status, made) = api.post(path, body).await?;
        assert_eq!(status, 201, "{path}: {made}");
    }
    let id = api.get("/api/traders/bot").await?["id"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let base = format!("/api/traders/{id}");

    // Never started: closing all finds nothing, and opens no account to find it in.
    let stop_close = format!("{base}/stop-and-close");
    let first = api.asked(&stop_close, json!({})).await?;
    let summary = first["summary"].as_str().unwrap_or_default();
    assert!(summary.contains("no open position"), "{summary}");
    let (status, done) = api
        .post(&stop_close, json!({"confirm": first["token"]}))
        .await?;
    assert_eq!(status, 200, "{done}");
    assert_eq!(done["object"]["report"]["nothing_open"], true, "{done}");
    let held = api.get(&format!("{base}/positions")).await?;
    assert_eq!(held["equity"], Value::Null, "an account was opened: {held}");
    let journal = api.get(&format!("{base}/journal")).await?;
    assert_eq!(journal["items"], json!([]), "{journal}");

    // A paper start needs no yes, as in the chat.
    let (status, started) = api.post(&format!("{base}/start"), json!({})).await?;
    assert_eq!((status, &started["done"]), (200, &json!(true)), "{started}");

    // Close the position the engine opened: asked first, naming it; then closed, by the
    // engine running the trader.
    let close = format!("{base}/positions/close");
    let (position, done) = api.close_a_position(&id, &close).await?;
    let (symbol, side) = (position["symbol"].clone(), position["side"].clone());
    let which = json!({"symbol": symbol, "side": side});
    let report = &done["object"]["report"];
    assert_eq!(done["object"]["waiting"], false, "{done}");
    assert_eq!(report["closed"][0]["symbol"], symbol, "{done}");
    let closed = dec(&report["closed"][0]["quantity"]);
    assert_eq!(closed, dec(&position["quantity"]), "{done}");
    assert_eq!(
        done["object"]["trader"]["is_running"], true,
        "a close is no stop"
    );
    // A position not held is refused at once, before any question.
    let other = if side == "LONG" { "SHORT" } else { "LONG" };
    let (status, _) = api
        .post(&close, json!({"symbol": symbol, "side": other}))
        .await?;
    assert_eq!(status, 409, "a close of a position not held is refused");
    // Closed once: the same close again finds nothing to close (unless the trader has
    // opened that position again since).
    let (status, again) = api.post(&close, which).await?;
    if status != 409 {
        let held = api.get(&format!("{base}/positions")).await?;
        let reopened = held["items"].as_array().is_some_and(|items| {
            items
                .iter()
                .any(|p| p["symbol"] == symbol && p["side"] == side)
        });
        assert!(reopened, "a closed position was offered again: {again}");
    }

    // The journal holds the close as a cycle of its own; the trade list shows the exit.
    let cycle = report["cycle"].as_u64().unwrap_or_default();
    let journal = api.get(&format!("{base}/journal?limit=50")).await?;
    let record = journal["items"]
        .as_array()
        .and_then(|items| items.iter().find(|c| c["cycle_number"] == cycle))
        .cloned()
        .unwrap_or_default();
    assert_eq!(record["decider"], "user", "{record}");
    // Made by the engine running the trader, under its lease, between two of its cycles.
    let engine = record["engine"].as_str().unwrap_or_default();
    assert!(engine.starts_with("controls-"), "closed by {engine}");
    let trades = api.get(&format!("{base}/trades")).await?;
    let manual = trades["items"]
        .as_array()
        .and_then(|items| items.iter().find(|t| t["exit_reason"] == "manual"))
        .cloned()
        .unwrap_or_default();
    assert_eq!(manual["symbol"], symbol, "{trades}");
    assert_eq!(manual["side"], side, "{trades}");
    assert_eq!(
        dec(&manual["quantity"]),
        dec(&position["quantity"]),
        "{trades}"
    );
    assert_eq!(
        dec(&manual["entry_price"]),
        dec(&position["entry_price"]),
        "{trades}"
    );
    assert_eq!(dec(&manual["remaining"]), Decimal::ZERO, "{trades}");
    assert!(dec(&manual["fees"]) > Decimal::ZERO, "{manual}");
    assert!(manual["exit_time_ms"].as_i64() >= manual["entry_time_ms"].as_i64());
    let pnl = dec(&manual["realized_pnl"]) - dec(&manual["fees"]);
    assert_eq!(dec(&manual["pnl"]), pnl, "{manual}");

    // Stop and close all: asked first, naming what it closes; then stopped and flat.
    api.a_position(&id).await?;
    // The token is bound to the positions the summary listed: one the trader opened or
    // closed in between makes it stale, and the question is asked again.
    let mut done = Value::Null;
    for _ in 0..3 {
        let first = api.asked(&stop_close, json!({})).await?;
        let summary = first["summary"].as_str().unwrap_or_default();
        assert!(summary.contains("Stop trader bot"), "{summary}");
        let (status, answer) = api
            .post(&stop_close, json!({"confirm": first["token"]}))
            .await?;
        if status != 409 {
            assert_eq!((status, &answer["done"]), (200, &json!(true)), "{answer}");
            done = answer;
            break;
        }
    }
    assert_eq!(done["object"]["trader"]["is_running"], false, "{done}");
    let held = api.get(&format!("{base}/positions")).await?;
    assert_eq!(
        held["items"],
        json!([]),
        "still open after stop and close: {done}"
    );
    // Once the engine let it go, the close took the trader's lease itself.
    let cycle = done["object"]["report"]["cycle"]
        .as_u64()
        .unwrap_or_default();
    let journal = api.get(&format!("{base}/journal?limit=5")).await?;
    let record = journal["items"]
        .as_array()
        .and_then(|items| items.iter().find(|c| c["cycle_number"] == cycle))
        .cloned()
        .unwrap_or_default();
    let engine = record["engine"].as_str().unwrap_or_default();
    assert!(engine.starts_with("close-"), "closed by {engine}: {record}");
    assert!(
        !done["object"]["report"]["closed"]
            .as_array()
            .is_some_and(Vec::is_empty),
        "{done}"
    );

    // The list and the stats count the same trades, to the last decimal.
    let trades = api.get(&format!("{base}/trades")).await?;
    let stats = api.get(&format!("{base}/stats")).await?;
    let items = trades["items"].as_array().cloned().unwrap_or_default();
    assert_eq!(trades["total"], items.len(), "{trades}");
    assert_eq!(stats["stats"]["total_trades"], items.len(), "{stats}");
    let wins = items
        .iter()
        .filter(|t| dec(&t["pnl"]) > Decimal::ZERO)
        .count();
    assert_eq!(stats["stats"]["wins"], wins, "{stats}");
    let fees: Decimal = items.iter().map(|t| dec(&t["fees"])).sum();
    assert_eq!(
        fees,
        dec(&stats["stats"]["total_fee"]),
        "every fee is a closed trade's"
    );
    let times: Vec<i64> = items
        .iter()
        .filter_map(|t| t["exit_time_ms"].as_i64())
        .collect();
    assert!(
        times.windows(2).all(|w| w[0] >= w[1]),
        "newest first: {times:?}"
    );

    // A running trader's stop is asked first, paper included.
    let (status, restarted) = api.post(&format!("{base}/start"), json!({})).await?;
    assert_eq!(status, 200, "{restarted}");
    api.asked(&format!("{base}/stop"), json!({})).await?;

    // The document lists the new routes.
    let doc = api.get("/api/openapi.json").await?;
    for path in [
        "/api/traders/{id}/trades",
        "/api/traders/{id}/positions/close",
        "/api/traders/{id}/stop-and-close",
    ] {
        assert!(doc["paths"][path].is_object(), "{path} missing");
    }

    running.stop().await?;
    ts.cleanup().await?;
    Ok(())
}

/// A backtest's result lists its closed trades, newest first, and they are the trades its
/// stats count.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backtest_result_lists_the_trades_its_stats_count() -> TestResult {
    let ts = sqlite_store().await?;
    let running = start_server(ts.store.clone(), None).await?;
    let api = Api::new(&running.base).await?;
    let (status, made) = api.post("/api/strategies", json!({"name": "s1"})).await?;
    assert_eq!(status, 201, "{made}");
    let body = json!({"strategy": "s1", "symbols": ["BTCUSDT"], "interval": "15m", "start": "2026-01-01", "end": "2026-01-15", "initial_balance": "1000"});
    let (status, started) = api.post("/api/backtests", body).await?;
    assert_eq!(status, 202, "{started}");
    let job_path = format!(
        "/api/backtests/{}",
        started["id"].as_str().unwrap_or_default()
    );
    let mut result = Value::Null;
    for _ in 0..600 {
        let job = api.get(&job_path).await?;
        if job["status"] != "running" {
            result = job["result"].clone();
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let trades = result["trades"].as_array().cloned().unwrap_or_default();
    assert!(
        !trades.is_empty(),
        "no trades in two weeks of 15m candles: {result}"
    );
    assert_eq!(result["stats"]["total_trades"], trades.len());
    let wins = trades
        .iter()
        .filter(|t| dec(&t["pnl"]) > Decimal::ZERO)
        .count();
    assert_eq!(result["stats"]["wins"], wins);
    let times: Vec<i64> = trades
        .iter()
        .filter_map(|t| t["exit_time_ms"].as_i64())
        .collect();
    assert!(
        times.windows(2).all(|w| w[0] >= w[1]),
        "newest first: {times:?}"
    );
    for t in &trades {
        // A replay books no funding: none is shown.
        assert!(t.get("funding").is_none(), "{t}");
        assert!(dec(&t["entry_price"]) > Decimal::ZERO && dec(&t["exit_price"]) > Decimal::ZERO);
        let reason = t["exit_reason"].as_str().unwrap_or_default();
        assert!(
            ["signal", "stop_loss", "take_profit", "liquidation"].contains(&reason),
            "an exit nofxi sent says why: {t}"
        );
    }
    running.stop().await?;
    ts.cleanup().await?;
    Ok(())
}
