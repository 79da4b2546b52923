//! The incremental indicators must agree with the batch ones in `nofxi_domain::indicators`
//! (which are themselves checked against an independent Python reference).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion

use nofxi_domain::indicators::{atr, ema};
use nofxi_trader::decider::ema_cross::{Cross, EmaCross, EmaCrossParams};
use nofxi_trader::decider::incremental::{Atr, Ema};
use proptest::prelude::*;

fn walk(seed: u64, n: usize) -> Vec<(f64, f64, f64)> {
    // A small deterministic random walk (xorshift) so the test needs no fixture file.
    let mut state = seed.max(1);
    let mut price = 100.0;
    (0..n)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let step = (state % 2001) as f64 / 1000.0 - 1.0;
            price = (price + step).max(1.0);
            let spread = (state % 97) as f64 / 100.0;
            (price + spread, price - spread, price)
        })
        .collect()
}

proptest! {
    #[test]
    fn ema_matches_batch(seed in 1u64..10_000, period in 1usize..40) {
        let bars = walk(seed, 120);
        let closes: Vec<f64> = bars.iter().map(|b| b.2).collect();
        let batch = ema(&closes, period);
        let mut inc = Ema::new(period);
        for (i, c) in closes.iter().enumerate() {
            prop_assert_eq!(inc.update(*c), batch[i]);
        }
    }

    #[test]
    fn atr_matches_batch(seed in 1u64..10_000, period in 1usize..30) {
        let bars = walk(seed, 120);
        let (h, l, c): (Vec<f64>, Vec<f64>, Vec<f64>) = (
            bars.iter().map(|b| b.0).collect(),
            bars.iter().map(|b| b.1).collect(),
            bars.iter().map(|b| b.2).collect(),
        );
        let batch = atr(&h, &l, &c, period);
        let mut inc = Atr::new(period);
        for i in 0..bars.len() {
            let got = inc.update(h[i], l[i], c[i]);
            match (got, batch[i]) {
                (Some(a), Some(b)) => prop_assert!((a - b).abs() < 1e-9, "bar {i}: {a} vs {b}"),
                (a, b) => prop_assert_eq!(a, b),
            }
        }
    }
}

#[test]
fn crosses_alternate_and_stops_straddle_the_price() {
    let mut detector = EmaCross::new(EmaCrossParams::default());
    let mut last = None;
    let mut signals = 0;
    for (h, l, c) in walk(42, 5_000) {
        if let Some(signal) = detector.on_candle(h, l, c) {
            signals += 1;
            assert_ne!(
                Some(signal.cross),
                last,
                "two crosses the same way in a row"
            );
            last = Some(signal.cross);
            match signal.cross {
                Cross::Up => {
                    assert!(signal.stop_loss < signal.price && signal.price < signal.take_profit)
                }
                Cross::Down => {
                    assert!(signal.take_profit < signal.price && signal.price < signal.stop_loss)
                }
            }
            let risk = (signal.price - signal.stop_loss).abs();
            let reward = (signal.take_profit - signal.price).abs();
            assert!((reward / risk - 3.0).abs() < 1e-9);
        }
    }
    assert!(
        signals > 20,
        "a 5,000-bar random walk crosses often; saw {signals}"
    );
}

#[test]
fn no_signal_before_warm_up() {
    let mut detector = EmaCross::new(EmaCrossParams::default());
    for (h, l, c) in walk(7, 26) {
        assert_eq!(detector.on_candle(h, l, c), None);
    }
}
