//! Import speed of a broker CSV: 100,000 rows previewed (parsed, validated, fingerprinted
//! against what is stored) and written in one transaction to a SQLite file, then the same
//! file again (every row a duplicate, nothing written). Rows per second for each phase.
//!
//! `cargo bench -p nofxi-store --bench portfolio_import` (ROWS=N to change the size)

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fmt::Write as _;
use std::time::Instant;

use nofxi_domain::{Actor, Channel};
use nofxi_portfolio::csv_io::preview;
use nofxi_store::test_support::{seed_portfolio, sqlite_store};

const USER: &str = "bench";

/// `rows` trades over 50 codes and ten years of days, every one distinct.
fn broker_csv(rows: usize) -> String {
    let mut csv = String::with_capacity(rows * 48);
    csv.push_str("date,code,type,quantity,price,fee,account\n");
    for i in 0..rows {
        let day = jiff::civil::date(2015, 1, 1)
            .checked_add(jiff::Span::new().days((i % 3650) as i64))
            .unwrap();
        let code = 600000 + (i % 50);
        let price = 10 + (i % 97);
        writeln!(
            csv,
            "{day},{code}.SH,BUY,{},{price}.{:02},5,main",
            100 + i / 3650,
            i % 100
        )
        .unwrap();
    }
    csv
}

fn rate(rows: usize, seconds: f64) -> String {
    format!("{seconds:.2} s, {:.0} rows/s", rows as f64 / seconds)
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let rows: usize = std::env::var("ROWS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let test = sqlite_store().await.unwrap();
    let store = &test.store;
    let actor = Actor::new(USER, Channel::Cli, true);
    let portfolio = seed_portfolio(store, USER, "big", "").await.unwrap();
    let csv = broker_csv(rows);
    println!("{rows} rows, {} bytes", csv.len());

    let started = Instant::now();
    let plan = preview(&portfolio, &[], &csv);
    let previewed = started.elapsed().as_secs_f64();
    assert!(plan.errors.is_empty(), "{}", plan.error_report());
    let started = Instant::now();
    let written = store
        .import_transactions(&actor, "big", &plan)
        .await
        .unwrap();
    let write = started.elapsed().as_secs_f64();
    assert_eq!(written, rows);
    println!("preview:         {}", rate(rows, previewed));
    println!("write:           {}", rate(rows, write));
    println!("preview + write: {}", rate(rows, previewed + write));

    let started = Instant::now();
    let existing = store.portfolio_transactions(USER, "big").await.unwrap();
    let again = preview(&portfolio, &existing, &csv);
    let rewritten = store
        .import_transactions(&actor, "big", &again)
        .await
        .unwrap();
    let second = started.elapsed().as_secs_f64();
    assert_eq!(rewritten, 0, "a second import writes nothing");
    println!("re-import (all duplicates): {}", rate(rows, second));
}
