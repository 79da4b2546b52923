//! Times a backtest reads are bounded (issue 47, item 8): candle timestamps near `i64::MAX`
//! were accepted as year 292 million, and the end one candle after the last overflowed into a
//! negative `--from/--to` the user never gave. Times outside 1970..9999 are refused by where
//! they were given (the file's line and column, or the flag), with the fix. What such an
//! error quotes is escaped and cut (item 10).
#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion

mod support;

use support::{home, refused, run, text};

const HEAD: &str = "timestamp_ms,open,high,low,close,volume\n";

#[test]
fn a_candle_timestamp_near_the_end_of_i64_is_refused_by_its_line() {
    let (_guard, home) = home();
    let path = home.join("btc.csv");
    let body = format!(
        "{HEAD}1600000000000,10,12,9,11,5\n{},10,12,9,11,5\n",
        i64::MAX - 1
    );
    std::fs::write(&path, body).unwrap();
    let spec = format!("btc={}", path.display());
    let err = refused(&home, &["backtest", "--quiet", "--csv", &spec]);
    assert!(
        err.contains("line 3")
            && err.contains("timestamp_ms")
            && err.contains("after 9999-12-30")
            && err.contains("nanoseconds")
            && err.contains("divide by 1000000"),
        "{err}"
    );
    assert!(!err.contains("--from/--to") && !err.contains("-2"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn a_time_flag_outside_1970_to_9999_is_refused_by_its_name() {
    let (_guard, home) = home();
    let cases = [
        vec!["--to", "9223372036854775807"],
        vec!["--to", "253402207200001"],
        vec!["--from=-9223372036854775808", "--to", "2026-01-01"],
        vec!["--from=-1", "--to", "2026-01-01"],
    ];
    for flags in cases {
        let mut args = vec!["backtest", "--quiet", "--symbols", "btc"];
        args.extend(&flags);
        let err = refused(&home, &args);
        let flag = if flags[0].starts_with("--from") {
            "--from"
        } else {
            "--to"
        };
        assert!(
            err.contains(flag) && err.contains("1970-01-01 to 9999-12-30"),
            "{flags:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{flags:?}: {err}");
    }
}

/// `--to` a few days after 1970 with no `--from`: the default start, 30 days earlier, was a
/// negative time; it starts at the epoch instead.
#[test]
fn a_default_start_before_1970_starts_at_1970() {
    let (_guard, home) = home();
    let out = run(
        &home,
        &[
            "backtest",
            "--json",
            "--symbols",
            "btc",
            "--interval",
            "1h",
            "--to",
            "1970-01-03",
        ],
    );
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(summary["cycles"], 48, "{said}");
}

/// A flag's text quoted back is escaped and cut: `--from` of an ESC sequence cannot rewrite
/// the terminal through the error that repeats it.
#[test]
fn a_flag_quoted_back_is_escaped_and_cut() {
    let (_guard, home) = home();
    let hostile = format!("2026\u{1b}]0;pwned\u{7}{}", "9".repeat(2000));
    let err = refused(&home, &["backtest", "--quiet", "--from", &hostile]);
    assert!(
        err.contains("--from \"2026\\u{1b}]0;pwned\\u{7}999") && err.contains("…\""),
        "{err}"
    );
    let hidden = |c: char| c != '\n' && nofxi_domain::validation::hidden_character(c);
    assert!(!err.chars().any(hidden), "{err:?}");
    assert!(err.len() < 400, "{} bytes: {err}", err.len());
    // A space after the sequence: run into it, the letters would make a key-shaped word,
    // which is masked whole rather than cut.
    let spec = format!("btc\u{1b}[2J {}", "x".repeat(2000));
    let err = refused(&home, &["backtest", "--quiet", "--csv", &spec]);
    assert!(
        err.contains("btc\\u{1b}[2J xxx") && err.len() < 400,
        "{err}"
    );
}
