//! Performance statistics from fills and the equity curve (REFERENCE §2's stats).
//!
//! A *trade* is one closing order: its P&L is the realized P&L of its fills, minus its own fees
//! and the share of the entry fees of the quantity it closed. Ratios come from exact decimals;
//! only the Sharpe ratio, a statistic of returns, is computed in floating point.

use std::collections::HashMap;

use nofxi_domain::market::{Symbol, decimal_to_f64};
use nofxi_domain::trading::{Fill, Side};
use rust_decimal::Decimal;

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    pub total_trades: usize,
    pub wins: usize,
    pub losses: usize,
    /// Share of trades with positive net P&L, 0–1; `None` with no trades.
    pub win_rate: Option<Decimal>,
    /// Gross profit / gross loss; `None` when nothing was lost.
    pub profit_factor: Option<Decimal>,
    /// Mean / standard deviation of per-period equity returns, times √(periods per year).
    pub sharpe_ratio: Option<f64>,
    /// Net of fees: final equity − initial equity when an equity curve is given.
    pub total_pnl: Decimal,
    pub total_fee: Decimal,
    pub avg_win: Option<Decimal>,
    pub avg_loss: Option<Decimal>,
    /// Largest peak-to-trough fall of equity, in percent of the peak.
    pub max_drawdown_pct: Decimal,
}

/// Net P&L per trade from fills in time order. A fill against an open position of the other
/// direction is part of a closing trade; any other fill adds to a position.
pub fn trades_from_fills(fills: &[Fill]) -> Vec<Decimal> {
    // Open quantity and not-yet-allocated entry fees per (symbol, side that opened it).
    let mut open: HashMap<(Symbol, Side), (Decimal, Decimal)> = HashMap::new();
    let mut by_order: Vec<(&str, Decimal)> = Vec::new();
    for fill in fills {
        let symbol = fill.symbol.clone();
        let against = open
            .get_mut(&(symbol.clone(), fill.side.opposite()))
            .filter(|(quantity, _)| *quantity > Decimal::ZERO);
        match against {
            Some((quantity, fees)) => {
                let closed = fill.quantity.min(*quantity);
                let entry_fee = *fees * closed / *quantity;
                *quantity -= closed;
                *fees -= entry_fee;
                let net = fill.realized_pnl - fill.fee - entry_fee;
                match by_order.last_mut() {
                    Some((order, pnl)) if *order == fill.order_id => *pnl += net,
                    _ => by_order.push((&fill.order_id, net)),
                }
            }
            None => {
                let entry = open.entry((symbol, fill.side)).or_default();
                entry.0 += fill.quantity;
                entry.1 += fill.fee;
            }
        }
    }
    by_order
        .into_iter()
        .map(|(_, pnl)| pnl.round_dp(8))
        .collect()
}

/// Stats over trades, total fees and an equity curve sampled once per period. The curve is
/// an iterator so a backtest's million points are read where they lie, not copied.
pub fn compute<E>(trades: &[Decimal], total_fee: Decimal, equity: E, periods_per_year: f64) -> Stats
where
    E: DoubleEndedIterator<Item = Decimal> + Clone,
{
    let wins: Vec<Decimal> = trades
        .iter()
        .copied()
        .filter(|p| *p > Decimal::ZERO)
        .collect();
    let losses: Vec<Decimal> = trades
        .iter()
        .copied()
        .filter(|p| *p < Decimal::ZERO)
        .collect();
    let gross_win: Decimal = wins.iter().sum();
    let gross_loss: Decimal = -losses.iter().sum::<Decimal>();
    let mean = |xs: &[Decimal]| {
        (!xs.is_empty()).then(|| (xs.iter().sum::<Decimal>() / Decimal::from(xs.len())).round_dp(8))
    };
    let total_pnl = match (equity.clone().next(), equity.clone().next_back()) {
        (Some(first), Some(last)) => last - first,
        _ => trades.iter().sum(),
    };
    Stats {
        total_trades: trades.len(),
        wins: wins.len(),
        losses: losses.len(),
        win_rate: (!trades.is_empty())
            .then(|| (Decimal::from(wins.len()) / Decimal::from(trades.len())).round_dp(4)),
        profit_factor: (gross_loss > Decimal::ZERO).then(|| (gross_win / gross_loss).round_dp(4)),
        sharpe_ratio: sharpe(equity.clone(), periods_per_year),
        total_pnl,
        total_fee,
        avg_win: mean(&wins),
        avg_loss: mean(&losses),
        max_drawdown_pct: max_drawdown_pct(equity),
    }
}

pub fn max_drawdown_pct(equity: impl Iterator<Item = Decimal>) -> Decimal {
    // For one peak the deepest drawdown is at the lowest equity before the next peak, so one
    // division per peak does, not one per point (a backtest has a million points).
    let drawdown = |peak: Decimal, trough: Decimal| {
        if peak > Decimal::ZERO {
            (peak - trough) / peak * Decimal::ONE_HUNDRED
        } else {
            Decimal::ZERO
        }
    };
    let mut peak = Decimal::ZERO;
    let mut trough = Decimal::ZERO;
    let mut worst = Decimal::ZERO;
    for e in equity {
        if e > peak {
            worst = worst.max(drawdown(peak, trough));
            (peak, trough) = (e, e);
        } else {
            trough = trough.min(e);
        }
    }
    worst.max(drawdown(peak, trough)).round_dp(4)
}

fn sharpe(equity: impl Iterator<Item = Decimal>, periods_per_year: f64) -> Option<f64> {
    // One pass (Welford's running mean and variance): the returns are never collected.
    let mut values = equity.map(decimal_to_f64).filter(|v| v.is_finite());
    let mut previous = values.next()?;
    let (mut n, mut mean, mut m2) = (0.0f64, 0.0f64, 0.0f64);
    for v in values {
        if previous > 0.0 {
            let r = v / previous - 1.0;
            n += 1.0;
            let delta = r - mean;
            mean += delta / n;
            m2 += delta * (r - mean);
        }
        previous = v;
    }
    if n < 2.0 {
        return None;
    }
    let sd = (m2 / (n - 1.0)).sqrt();
    (sd > 0.0).then(|| mean / sd * periods_per_year.sqrt())
}
