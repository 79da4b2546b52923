//! Stats by hand-computed cases.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion

use nofxi_domain::market::Symbol;
use nofxi_domain::trading::{Fill, Side};
use nofxi_trader::stats::{
    RATIO_MIN_TRADES, Stats, compute, compute_held, max_drawdown_pct, trades_from_fills,
};
use rust_decimal::Decimal;
use rust_decimal_macros::dec;

fn fill(order: &str, side: Side, qty: Decimal, price: Decimal, fee: Decimal, pnl: Decimal) -> Fill {
    Fill {
        trade_id: format!("{order}-f"),
        order_id: order.into(),
        client_order_id: order.into(),
        symbol: Symbol::parse("BTCUSDT").unwrap(),
        side,
        price,
        quantity: qty,
        fee,
        fee_asset: "USDT".into(),
        realized_pnl: pnl,
        is_maker: false,
        time_ms: 0,
    }
}

#[test]
fn a_round_trip_nets_both_fees() {
    // Buy 0.01 @ 60,000 (fee 0.30), sell 0.01 @ 61,000 (fee 0.305, realized +10).
    let fills = [
        fill(
            "o1",
            Side::Buy,
            dec!(0.01),
            dec!(60000),
            dec!(0.30),
            dec!(0),
        ),
        fill(
            "o2",
            Side::Sell,
            dec!(0.01),
            dec!(61000),
            dec!(0.305),
            dec!(10),
        ),
    ];
    assert_eq!(trades_from_fills(&fills), [dec!(9.395)]);
}

#[test]
fn partial_closes_share_the_entry_fee_and_shorts_count_too() {
    let fills = [
        fill(
            "o1",
            Side::Buy,
            dec!(0.02),
            dec!(60000),
            dec!(0.60),
            dec!(0),
        ),
        fill(
            "o2",
            Side::Sell,
            dec!(0.01),
            dec!(59000),
            dec!(0.295),
            dec!(-10),
        ),
        fill(
            "o3",
            Side::Sell,
            dec!(0.01),
            dec!(62000),
            dec!(0.31),
            dec!(20),
        ),
        // A short: sell opens, buy closes.
        fill(
            "o4",
            Side::Sell,
            dec!(0.01),
            dec!(62000),
            dec!(0.31),
            dec!(0),
        ),
        fill(
            "o5",
            Side::Buy,
            dec!(0.01),
            dec!(61000),
            dec!(0.305),
            dec!(10),
        ),
    ];
    assert_eq!(
        trades_from_fills(&fills),
        [dec!(-10.595), dec!(19.39), dec!(9.385)]
    );
}

#[test]
fn stats_follow_their_definitions() {
    let trades = [dec!(30), dec!(-10), dec!(20), dec!(-20)];
    let equity = [dec!(1000), dec!(1030), dec!(1020), dec!(1040), dec!(1020)];
    let s = compute(&trades, dec!(4.5), equity.into_iter(), 365.0);
    assert_eq!(s.total_trades, 4);
    assert_eq!(s.win_rate, Some(dec!(0.5)));
    assert_eq!(s.profit_factor, Some(dec!(1.6667)));
    assert_eq!(s.avg_win, Some(dec!(25)));
    assert_eq!(s.avg_loss, Some(dec!(-15)));
    assert_eq!(s.total_pnl, dec!(20));
    assert_eq!(s.total_fee, dec!(4.5));
    // Peak 1,040 → 1,020: 1.9231 %.
    assert_eq!(s.max_drawdown_pct, dec!(1.9231));
    // Four returns are no sample for a ratio of returns.
    assert_eq!(s.sharpe_ratio, None);
    let json = serde_json::to_value(&s).unwrap();
    assert_eq!(json["sharpe_na"], "too few returns: 4", "{json}");
}

#[test]
fn no_trades_no_ratios() {
    let s = compute(&[], Decimal::ZERO, [dec!(1000)].into_iter(), 365.0);
    assert_eq!(s.win_rate, None);
    assert_eq!(s.profit_factor, None);
    assert_eq!(s.sharpe_ratio, None);
    assert_eq!(max_drawdown_pct(std::iter::empty()), Decimal::ZERO);
}

/// The one-division-per-peak drawdown equals the definition, point by point, on random
/// curves (some dipping below zero, where no peak counts).
#[test]
fn max_drawdown_matches_its_definition() {
    let naive = |equity: &[Decimal]| {
        let mut peak = Decimal::ZERO;
        let mut worst = Decimal::ZERO;
        for e in equity {
            peak = peak.max(*e);
            if peak > Decimal::ZERO {
                worst = worst.max((peak - e) / peak * Decimal::ONE_HUNDRED);
            }
        }
        worst.round_dp(4)
    };
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    for curve in 0..300 {
        let start = if curve % 5 == 0 { -50 } else { 1_000 };
        let mut equity = random_curve(&mut x, start, 200, 10_000);
        if curve % 3 == 0 {
            equity = with_flat_stretches(&equity);
        }
        assert_eq!(
            max_drawdown_pct(equity.iter().copied()),
            naive(&equity),
            "curve {curve}"
        );
    }
}

/// A random walk of `len` points from `start`, each step up to ±`cents` hundredths
/// (xorshift, so every run sees the same curves).
fn random_curve(x: &mut u64, start: i64, len: usize, cents: i64) -> Vec<Decimal> {
    let mut e = Decimal::from(start);
    (0..len)
        .map(|_| {
            *x ^= *x << 13;
            *x ^= *x >> 7;
            *x ^= *x << 17;
            e += Decimal::new((*x % (2 * cents as u64 + 1)) as i64 - cents, 2);
            e
        })
        .collect()
}

/// The curve with every fifth point held for 20 periods, as a flat account holds its equity.
fn with_flat_stretches(equity: &[Decimal]) -> Vec<Decimal> {
    equity
        .iter()
        .enumerate()
        .flat_map(|(i, e)| std::iter::repeat_n(*e, if i % 5 == 0 { 20 } else { 1 }))
        .collect()
}

/// The one-pass Sharpe ratio equals the two-pass definition (mean and sample standard
/// deviation of the per-period returns, periods at or below zero equity skipped) to float
/// precision, on random curves.
#[test]
fn sharpe_matches_its_definition() {
    let two_pass = |equity: &[Decimal], per_year: f64| {
        let values: Vec<f64> = equity
            .iter()
            .map(|e| e.to_string().parse().unwrap())
            .collect();
        let returns: Vec<f64> = values
            .windows(2)
            .filter(|w| w[0] > 0.0)
            .map(|w| w[1] / w[0] - 1.0)
            .collect();
        let n = returns.len() as f64;
        let mean = returns.iter().sum::<f64>() / n;
        let var = returns.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / (n - 1.0);
        mean / var.sqrt() * per_year.sqrt()
    };
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    for curve in 0..100 {
        // Every seventh curve starts near zero and dips below it now and then.
        let start = if curve % 7 == 0 { 30 } else { 1_000 };
        let mut equity = random_curve(&mut x, start, 500, 1_000);
        if curve % 3 == 0 {
            equity = with_flat_stretches(&equity);
        }
        let ours = compute(
            &enough_trades(),
            Decimal::ZERO,
            equity.iter().copied(),
            525_600.0,
        )
        .sharpe_ratio
        .unwrap();
        let want = two_pass(&equity, 525_600.0);
        assert!(
            (ours - want).abs() <= 1e-9 * want.abs().max(1.0),
            "curve {curve}: {ours} vs {want}"
        );
    }
}

/// A curve given as `(value, periods held)` has the stats of the curve written out point by
/// point: the same drawdown and P&L exactly, the same Sharpe ratio to float precision (a
/// held stretch goes into the running variance as one batch).
#[test]
fn held_stretches_are_the_points_they_stand_for() {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    for curve in 0..50 {
        let start = if curve % 7 == 0 { 30 } else { 1_000 };
        let values = random_curve(&mut x, start, 400, 1_000);
        // Every fourth value held for 1 to 60 periods, the rest for one; now and then a
        // value held zero periods, which is no point at all.
        let held: Vec<(Decimal, u64)> = values
            .iter()
            .enumerate()
            .map(|(i, v)| (*v, if i % 4 == 0 { (i as u64 * 7) % 61 } else { 1 }))
            .collect();
        let points: Vec<Decimal> = held
            .iter()
            .flat_map(|(v, n)| std::iter::repeat_n(*v, *n as usize))
            .collect();
        let trades = enough_trades();
        let ours = compute_held(&trades, dec!(1), held.iter().copied(), 525_600.0);
        let want = compute(&trades, dec!(1), points.iter().copied(), 525_600.0);
        let (a, b) = (ours.sharpe_ratio.unwrap(), want.sharpe_ratio.unwrap());
        assert!(
            (a - b).abs() <= 1e-9 * b.abs().max(1.0),
            "curve {curve}: {a} vs {b}"
        );
        assert_eq!(
            Stats {
                sharpe_ratio: None,
                ..ours
            },
            Stats {
                sharpe_ratio: None,
                ..want
            },
            "curve {curve}"
        );
    }
}

/// Enough closed trades for a Sharpe ratio over fewer than thirty days of returns.
fn enough_trades() -> Vec<Decimal> {
    (0..20)
        .map(|i| if i % 2 == 0 { dec!(5) } else { dec!(-2) })
        .collect()
}

/// Forty three-minute cycles of an account that never traded: its marks wiggle, and the
/// annualised ratio of that noise came out as "sharpe 40.17". Below the minimum sample the
/// ratio is null and the reason is said (checked through the JSON every output shares).
#[test]
fn a_sharpe_ratio_needs_trades_or_a_month_of_returns() {
    let per_year = 365.0 * 24.0 * 60.0 / 3.0;
    let wiggle = |n: usize| -> Vec<Decimal> {
        (0..n)
            .map(|i| {
                dec!(1000)
                    + Decimal::from((i * 7 % 5) as i64) / dec!(100)
                    + Decimal::from(i as i64) / dec!(1000)
            })
            .collect()
    };
    let json = |s: &Stats| serde_json::to_value(s).unwrap();
    let s = compute(&[], Decimal::ZERO, wiggle(40).into_iter(), per_year);
    assert!(json(&s)["sharpe_ratio"].is_null(), "{s:?}");
    assert_eq!(json(&s)["sharpe_na"], "too few trades: 0", "{s:?}");
    let s = compute(&[], Decimal::ZERO, wiggle(12).into_iter(), per_year);
    assert_eq!(json(&s)["sharpe_na"], "too few returns: 11", "{s:?}");
    // Nineteen trades over a day of returns are still too few...
    let nineteen = &enough_trades()[1..];
    let s = compute(nineteen, Decimal::ZERO, wiggle(482).into_iter(), per_year);
    assert_eq!(json(&s)["sharpe_na"], "too few trades: 19", "{s:?}");
    // ...twenty trades, or thirty days of returns (14,401 three-minute cycles), make a sample.
    let s = compute(
        &enough_trades(),
        Decimal::ZERO,
        wiggle(40).into_iter(),
        per_year,
    );
    assert!(json(&s)["sharpe_ratio"].is_number(), "{s:?}");
    let s = compute(&[], Decimal::ZERO, wiggle(14_402).into_iter(), per_year);
    assert!(json(&s)["sharpe_ratio"].is_number(), "{s:?}");
    assert!(json(&s)["sharpe_na"].is_null(), "{s:?}");
}

/// Below twenty closed trades the ratios of trades are still given, but flagged as too small
/// a sample, in the JSON every reader shares (the web app and the chat say "too few trades").
#[test]
fn the_ratios_of_few_trades_are_flagged() {
    let json = |s: &Stats| serde_json::to_value(s).unwrap();
    let few = compute(
        &[dec!(5), dec!(-2), dec!(3)],
        Decimal::ZERO,
        std::iter::empty(),
        365.0,
    );
    let j = json(&few);
    assert_eq!(j["sample_too_small"], true, "{j}");
    assert_eq!(j["sample_min_trades"], RATIO_MIN_TRADES, "{j}");
    assert_eq!(RATIO_MIN_TRADES, 20);
    assert_eq!(j["win_rate"], "0.6667", "{j}");
    let many = compute(&enough_trades(), Decimal::ZERO, std::iter::empty(), 365.0);
    assert_eq!(json(&many)["sample_too_small"], false, "{many:?}");
    let none = compute(&[], Decimal::ZERO, std::iter::empty(), 365.0);
    assert_eq!(json(&none)["sample_too_small"], true, "{none:?}");
}
