//! Benchmarks of the two hot paths a trading cycle and a backtest hit: the technical snapshot
//! over 500 candles, and simulated-market candle generation.
//!
//! cargo bench -p nofxi-venues --bench market -- --warm-up-time 1 --measurement-time 3

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;
use std::sync::Arc;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use nofxi_domain::Interval;
use nofxi_domain::indicators;
use nofxi_domain::market::Symbol;
use nofxi_venues::sim::SimMarket;
use nofxi_venues::{KlineQuery, ManualClock, MarketData};

const NOW: i64 = 1_767_225_600_000;

fn market() -> SimMarket {
    SimMarket::new(42, Arc::new(ManualClock::new(NOW)))
}

fn snapshot(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let btc = Symbol::parse("BTCUSDT").unwrap();
    let candles = rt
        .block_on(market().klines(&btc, Interval::H1, KlineQuery::latest(500)))
        .unwrap();
    assert_eq!(candles.len(), 500);
    c.bench_function("technical snapshot, 500 candles", |b| {
        b.iter(|| indicators::snapshot(black_box(&candles)))
    });
}

fn sim_candles(c: &mut Criterion) {
    let m = market();
    let btc = Symbol::parse("BTCUSDT").unwrap();
    let mut group = c.benchmark_group("simulated market");
    for (interval, n) in [(Interval::M1, 1_000i64), (Interval::H1, 100)] {
        group.throughput(Throughput::Elements(n as u64));
        group.bench_function(format!("{interval} candles"), |b| {
            b.iter(|| {
                let start = NOW - n * interval.millis();
                for i in 0..n {
                    black_box(m.candle(&btc, interval, start + i * interval.millis()));
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, snapshot, sim_candles);
criterion_main!(benches);
