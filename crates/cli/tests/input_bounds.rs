//! Input the CLI reads with bounds (issue 23 follow-up, items 2, 3 and 5): amounts a trading
//! engine can compute with, candle files read as bounded streams from regular files only,
//! one file per symbol, holes said, and names that are no keys.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion

mod support;

use std::time::{Duration, Instant};

use support::{home, json, ok, refused, run, text};

const HEAD: &str = "timestamp_ms,open,high,low,close,volume\n";

fn basics(home: &std::path::Path) {
    ok(home, &["exchange", "add", "--type", "paper", "--name", "p"]);
    ok(
        home,
        &["model", "add", "--name", "b", "--provider", "builtin"],
    );
    ok(home, &["strategy", "add", "--name", "s"]);
}

#[test]
fn an_initial_balance_outside_the_domain_bounds_is_refused_at_every_flag() {
    let (_guard, home) = home();
    basics(&home);
    let add = [
        "trader",
        "add",
        "--name",
        "t",
        "--exchange",
        "p",
        "--model",
        "b",
        "--strategy",
        "s",
    ];
    for bad in ["70000000000000000000000000000", "0.0000001"] {
        let args = [&add[..], &["--initial-balance", bad]].concat();
        let err = refused(&home, &args);
        assert!(
            err.contains("--initial-balance")
                && err.contains("0.01")
                && err.contains("1000000000000"),
            "{bad}: {err}"
        );
        let err = refused(&home, &["backtest", "--quiet", "--initial-balance", bad]);
        assert!(
            err.contains("--initial-balance") && err.contains("1000000000000"),
            "{bad}: {err}"
        );
    }
    // The largest balance allowed runs a backtest without overflowing.
    let out = run(
        &home,
        &[
            "backtest",
            "--quiet",
            "--initial-balance",
            "1000000000000",
            "--from",
            "2026-01-01",
            "--to",
            "2026-01-03",
        ],
    );
    assert!(out.status.success(), "{}", text(&out));
    assert!(!text(&out).contains("panicked"), "{}", text(&out));
}

#[test]
fn a_candle_path_that_is_no_regular_file_is_refused_at_once() {
    let (_guard, home) = home();
    let started = Instant::now();
    let err = refused(&home, &["backtest", "--quiet", "--csv", "btc=/dev/zero"]);
    assert!(
        err.contains("--csv") && err.contains("not a regular file"),
        "{err}"
    );
    let fifo = home.join("fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let spec = format!("btc={}", fifo.display());
    let err = refused(&home, &["backtest", "--quiet", "--csv", &spec]);
    assert!(err.contains("--csv") && err.contains("FIFO"), "{err}");
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn a_huge_line_is_refused_by_its_number_and_a_symbol_given_twice_is_refused() {
    let (_guard, home) = home();
    let long = home.join("long.csv");
    std::fs::write(&long, vec![0u8; 20 * 1024 * 1024]).unwrap();
    let spec = format!("btc={}", long.display());
    let err = refused(&home, &["backtest", "--quiet", "--csv", &spec]);
    assert!(err.contains("line 1 is longer than"), "{err}");
    let good = home.join("good.csv");
    std::fs::write(&good, format!("{HEAD}1600000000000,10,12,9,11,5\n")).unwrap();
    let a = format!("btc={}", good.display());
    let b = format!("BTCUSDT={}", good.display());
    let err = refused(&home, &["backtest", "--quiet", "--csv", &a, "--csv", &b]);
    assert!(err.contains("given twice"), "{err}");
}

#[test]
fn a_gap_in_the_candles_is_said_with_where_it_is() {
    let (_guard, home) = home();
    let q: i64 = 15 * 60_000;
    let start: i64 = 1_600_000_000_000;
    let mut body = HEAD.to_string();
    let mut t = start;
    for i in 0..200 {
        if i == 100 {
            t += 75 * 60 * 60_000;
        }
        body.push_str(&format!("{t},10,12,9,11,5\n"));
        t += q;
    }
    let path = home.join("gap.csv");
    std::fs::write(&path, body).unwrap();
    let spec = format!("btc={}", path.display());
    let out = run(
        &home,
        &["backtest", "--quiet", "--interval", "15m", "--csv", &spec],
    );
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains("warning") && said.contains("after line 101"),
        "{said}"
    );
}

#[test]
fn a_key_shaped_name_is_refused_as_the_chat_would() {
    let (_guard, home) = home();
    let err = refused(
        &home,
        &[
            "model",
            "add",
            "--name",
            "sk-abcdefghijklmnopqrstu",
            "--provider",
            "builtin",
        ],
    );
    assert!(
        err.contains("--name") && err.contains("looks like an API key"),
        "{err}"
    );
    assert!(!err.contains("abcdefghijklmnopqrstu"), "{err}");
}

/// A key in `--model-name` (an easy swap with `--api-key`) or in a strategy's description was
/// stored and listed in clear. Every free-text field follows the key rule names follow, in the
/// domain, so the CLI, the HTTP API, the chat and MCP refuse it alike, without repeating it.
#[test]
fn a_key_in_a_free_text_field_is_refused_without_repeating_it() {
    let (_guard, home) = home();
    let key = "sk-proj-ZZSECRETabcdefghijklmnopqrstuvwx";
    let err = refused(
        &home,
        &[
            "model",
            "add",
            "--name",
            "m",
            "--provider",
            "builtin",
            "--model-name",
            key,
        ],
    );
    assert!(
        err.contains("--model-name") && err.contains("looks like an API key"),
        "{err}"
    );
    assert!(!err.contains("ZZSECRET"), "{err}");
    let description = format!("uses {key}");
    let err = refused(
        &home,
        &[
            "strategy",
            "add",
            "--name",
            "s",
            "--description",
            &description,
        ],
    );
    assert!(
        err.contains("--description") && err.contains("looks like an API key"),
        "{err}"
    );
    assert!(!err.contains("ZZSECRET"), "{err}");
    let listed = json(&home, &["model", "list"]);
    assert_eq!(listed, serde_json::json!([]), "nothing was stored");
}

/// `--from 1970 --to 2100` at 1m (68 million candles a symbol) ran for hours with nothing said: refused up front, with the
/// size and the ways to shrink it.
#[test]
fn a_backtest_range_too_large_to_replay_is_refused() {
    let (_guard, home) = home();
    let err = refused(
        &home,
        &[
            "backtest",
            "--quiet",
            "--interval",
            "1m",
            "--from",
            "1970-01-01",
            "--to",
            "2100-01-01",
        ],
    );
    assert!(
        err.contains("candles per symbol") && err.contains("--interval"),
        "{err}"
    ); // At 1d the candles are few, but the simulated market builds every minute of them.
    let err = refused(
        &home,
        &[
            "backtest",
            "--quiet",
            "--interval",
            "1d",
            "--from",
            "1970-01-01",
            "--to",
            "2100-01-01",
        ],
    );
    assert!(err.contains("simulated minutes"), "{err}");
}

/// Past the CSV's last candle the replay held the last price: a flat stretch passed off as
/// history. The range is cut to the data, and said; a range with no data at all is refused.
#[test]
fn a_backtest_range_past_the_csv_is_cut_to_the_data_and_said() {
    let (_guard, home) = home();
    let start: i64 = 1_600_000_000_000;
    let mut body = HEAD.to_string();
    for i in 0..100 {
        body.push_str(&format!("{},10,12,9,11,5\n", start + i * 60_000));
    }
    let path = home.join("btc.csv");
    std::fs::write(&path, body).unwrap();
    let spec = format!("btc={}", path.display());
    let args = |from: &str, to: &str| {
        vec![
            "backtest".to_string(),
            "--json".into(),
            "--interval".into(),
            "1m".into(),
            "--csv".into(),
            spec.clone(),
            "--from".into(),
            from.into(),
            "--to".into(),
            to.into(),
        ]
    };
    let long = args("2020-09-13", "2020-12-31");
    let long: Vec<&str> = long.iter().map(String::as_str).collect();
    let out = run(&home, &long);
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains("past the CSV's last candle") && said.contains("before the CSV's first"),
        "{said}"
    );
    let summary: serde_json::Value =
        serde_json::from_slice(&out.stdout).expect("the summary is JSON");
    assert_eq!(summary["candles"], 100, "{said}");
    let none = args("2021-01-01", "2021-02-01");
    let none: Vec<&str> = none.iter().map(String::as_str).collect();
    let err = refused(&home, &none);
    assert!(err.contains("hold none of the CSV's candles"), "{err}");
}
