//! Performance statistics from fills and the equity curve (REFERENCE §2's stats).
//!
//! A *trade* is one closing order: its P&L is the realized P&L of its fills, minus its own fees
//! and the share of the entry fees of the quantity it closed (the closed trades of
//! [`crate::trades`], which the trade lists show). Ratios come from exact decimals; only the
//! Sharpe ratio, a statistic of returns, is computed in floating point.
//!
//! A ratio needs a sample before it means anything: forty three-minute cycles of an account
//! that never traded gave "sharpe 40.17", an annualised figure of mark-to-market noise, and
//! three trades, two of them won, are no "67 % win rate". So:
//!
//! - the ratios of trades (win rate, profit factor, average win and loss) are given, but below
//!   [`RATIO_MIN_TRADES`] closed trades [`Stats::sample_too_small`] is set, as data, and every
//!   reader (the web app, the chat, `trader stats`) flags them "too few trades";
//! - the Sharpe ratio is given only over at least [`SHARPE_MIN_RETURNS`] returns that span at
//!   least [`SHARPE_MIN_TRADES`] closed trades or [`SHARPE_MIN_DAYS`] days of data (a month of
//!   daily returns); below that it is `None` and [`Stats::sharpe_na`] says why ("too few
//!   trades: 0"), for every output that shows it (trader stats, backtest, their JSON).

use nofxi_domain::market::{decimal_to_f64, exceeds};
use nofxi_domain::trading::Fill;
use rust_decimal::Decimal;

use serde::{Deserialize, Serialize};

use crate::trades::{closed_trades, trade_pnls};

/// Closed trades below which the ratios of trades are flagged ([`Stats::sample_too_small`]):
/// with fewer, one trade more or less moves a win rate by five points or more.
pub const RATIO_MIN_TRADES: usize = 20;
/// Returns a Sharpe ratio needs at the least (the usual rule of thumb for a sample mean).
pub const SHARPE_MIN_RETURNS: u64 = 30;
/// Closed trades that make the returns more than the drift of one position's marks...
pub const SHARPE_MIN_TRADES: usize = RATIO_MIN_TRADES;
/// ...or, with fewer trades, the span of data that does: thirty daily returns.
pub const SHARPE_MIN_DAYS: f64 = 30.0;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Stats {
    pub total_trades: usize,
    pub wins: usize,
    pub losses: usize,
    /// Share of trades with positive net P&L, 0–1; `None` with no trades.
    pub win_rate: Option<Decimal>,
    /// Fewer closed trades than `sample_min_trades`: the win rate, profit factor and average
    /// win and loss are too small a sample to rely on, and are shown flagged so.
    #[serde(default)]
    pub sample_too_small: bool,
    /// The closed trades the ratios need before they are not flagged ([`RATIO_MIN_TRADES`]).
    #[serde(default)]
    pub sample_min_trades: usize,
    /// Gross profit / gross loss; `None` when nothing was lost.
    pub profit_factor: Option<Decimal>,
    /// Mean / standard deviation of per-period equity returns, times √(periods per year);
    /// `None` below the minimum sample (see the module) or when returns do not vary.
    pub sharpe_ratio: Option<f64>,
    /// Why `sharpe_ratio` is `None`: `too few trades: 3`, `too few returns: 12`.
    #[serde(default)]
    pub sharpe_na: Option<String>,
    /// Net of fees: final equity − initial equity when an equity curve is given.
    pub total_pnl: Decimal,
    /// The part of `total_pnl` in the wallet: closed trades after every fee and funding paid,
    /// the entry fees of positions still open included (wallet balance − the start). Given
    /// where an account was read (a trader's stats, a backtest's end), absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub realized_pnl: Option<Decimal>,
    /// The part of `total_pnl` on open positions: what they would add closed at their mark
    /// prices (the account's unrealized P&L). `realized_pnl + unrealized_pnl = total_pnl`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unrealized_pnl: Option<Decimal>,
    /// How many positions `unrealized_pnl` is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_positions: Option<usize>,
    pub total_fee: Decimal,
    /// Funding received less funding paid (negative: the account paid), where the account
    /// books funding (a paper account on a venue's live prices); zero elsewhere. Like the
    /// fees, it is inside `total_pnl`. Left out when zero: a replay or the simulated market
    /// settles none, and a zero there would read as a figure.
    #[serde(default, skip_serializing_if = "Decimal::is_zero")]
    pub total_funding: Decimal,
    pub avg_win: Option<Decimal>,
    pub avg_loss: Option<Decimal>,
    /// Largest peak-to-trough fall of equity, in percent of the peak.
    pub max_drawdown_pct: Decimal,
}

/// Net P&L per trade from fills in time order: the P&L of each of their closed trades (see
/// [`crate::trades`], which the trade lists show).
pub fn trades_from_fills(fills: &[Fill]) -> Vec<Decimal> {
    trade_pnls(&closed_trades(fills, None))
}

/// Stats over trades, total fees and an equity curve sampled once per period. The curve is
/// an iterator so a backtest's million points are read where they lie, not copied.
pub fn compute<E>(trades: &[Decimal], total_fee: Decimal, equity: E, periods_per_year: f64) -> Stats
where
    E: DoubleEndedIterator<Item = Decimal> + Clone,
{
    compute_held(trades, total_fee, equity.map(|e| (e, 1)), periods_per_year)
}

/// [`compute`] over a curve given as `(equity, periods held)`: a flat account's stretch is
/// one item however long it lasts. Items held zero periods count as none.
pub fn compute_held<E>(
    trades: &[Decimal],
    total_fee: Decimal,
    equity: E,
    periods_per_year: f64,
) -> Stats
where
    E: DoubleEndedIterator<Item = (Decimal, u64)> + Clone,
{
    let equity = equity.filter(|(_, n)| *n > 0);
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
        (Some((first, _)), Some((last, _))) => last - first,
        _ => trades.iter().sum(),
    };
    // One pass over the curve for both statistics: a backtest's million points are converted
    // to floats once, and the drawdown's exact comparisons are mostly settled by those floats.
    let mut drawdown = Drawdown::default();
    let mut sharpe = Sharpe::default();
    // A flat account repeats its equity, digit for digit, for long stretches: a repeat moves
    // neither peak nor trough and is a zero return.
    let mut previous = None;
    for (e, held) in equity {
        let digits = e.serialize();
        if previous == Some(digits) {
            sharpe.repeat(held);
            continue;
        }
        previous = Some(digits);
        let f = decimal_to_f64(e);
        drawdown.push(e, f);
        sharpe.push(f);
        sharpe.repeat(held - 1);
    }
    let (sharpe_ratio, sharpe_na) = sharpe.gated(periods_per_year, trades.len());
    Stats {
        total_trades: trades.len(),
        wins: wins.len(),
        losses: losses.len(),
        win_rate: (!trades.is_empty())
            .then(|| (Decimal::from(wins.len()) / Decimal::from(trades.len())).round_dp(4)),
        sample_too_small: trades.len() < RATIO_MIN_TRADES,
        sample_min_trades: RATIO_MIN_TRADES,
        profit_factor: (gross_loss > Decimal::ZERO).then(|| (gross_win / gross_loss).round_dp(4)),
        sharpe_ratio,
        sharpe_na,
        total_pnl,
        realized_pnl: None,
        unrealized_pnl: None,
        open_positions: None,
        total_fee,
        total_funding: Decimal::ZERO,
        avg_win: mean(&wins),
        avg_loss: mean(&losses),
        max_drawdown_pct: drawdown.worst_pct(),
    }
}

pub fn max_drawdown_pct(equity: impl Iterator<Item = Decimal>) -> Decimal {
    let mut drawdown = Drawdown::default();
    for e in equity {
        drawdown.push(e, decimal_to_f64(e));
    }
    drawdown.worst_pct()
}

/// The largest peak-to-trough fall, exact. For one peak the deepest drawdown is at the lowest
/// equity before the next peak, so one division per peak does, not one per point.
#[derive(Debug, Default)]
struct Drawdown {
    peak: Decimal,
    trough: Decimal,
    worst: Decimal,
    /// `peak` and `trough` as floats, to settle most comparisons without decimal rescaling.
    peak_f: f64,
    trough_f: f64,
}

impl Drawdown {
    /// `f` is `e` as a float (within a few ulps, see `decimal_to_f64`).
    fn push(&mut self, e: Decimal, f: f64) {
        if exceeds(e, f, self.peak, self.peak_f) {
            self.worst = self.worst.max(self.fall());
            (self.peak, self.trough) = (e, e);
            (self.peak_f, self.trough_f) = (f, f);
        } else if exceeds(self.trough, self.trough_f, e, f) {
            (self.trough, self.trough_f) = (e, f);
        }
    }

    fn fall(&self) -> Decimal {
        if self.peak > Decimal::ZERO {
            (self.peak - self.trough) / self.peak * Decimal::ONE_HUNDRED
        } else {
            Decimal::ZERO
        }
    }

    fn worst_pct(&self) -> Decimal {
        self.worst.max(self.fall()).round_dp(4)
    }
}

/// Mean / sample standard deviation of per-period returns, in one pass (Welford's running
/// mean and variance): the returns are never collected. Periods from zero or negative
/// equity, and non-finite values, are skipped.
#[derive(Debug, Default)]
struct Sharpe {
    previous: Option<f64>,
    n: f64,
    mean: f64,
    m2: f64,
}

impl Sharpe {
    fn push(&mut self, v: f64) {
        if !v.is_finite() {
            return;
        }
        if let Some(previous) = self.previous.replace(v)
            && previous > 0.0
        {
            self.add_return(v / previous - 1.0);
        }
    }

    /// `push` of the value pushed last, `times` times: returns of exactly zero (a finite
    /// positive `v` over itself is exactly 1), added as one batch.
    fn repeat(&mut self, times: u64) {
        if times == 0 || !self.previous.is_some_and(|p| p > 0.0) {
            return;
        }
        if times == 1 {
            self.add_return(0.0);
            return;
        }
        // Chan et al.'s merge of two sets' mean and M2; the batch's own are zero.
        let k = times as f64;
        let n = self.n + k;
        let delta = -self.mean;
        self.mean += delta * k / n;
        self.m2 += delta * delta * self.n * k / n;
        self.n = n;
    }

    fn add_return(&mut self, r: f64) {
        self.n += 1.0;
        let delta = r - self.mean;
        self.mean += delta / self.n;
        self.m2 += delta * (r - self.mean);
    }

    /// The ratio when the sample is large enough (see the module), else why not.
    fn gated(&self, periods_per_year: f64, trades: usize) -> (Option<f64>, Option<String>) {
        let returns = self.n as u64;
        if returns < SHARPE_MIN_RETURNS {
            return (None, Some(format!("too few returns: {returns}")));
        }
        let days = self.n / periods_per_year.max(f64::MIN_POSITIVE) * 365.0;
        if trades < SHARPE_MIN_TRADES && days < SHARPE_MIN_DAYS {
            return (None, Some(format!("too few trades: {trades}")));
        }
        match self.ratio(periods_per_year) {
            Some(r) => (Some(r), None),
            None => (None, Some("returns do not vary".into())),
        }
    }

    fn ratio(&self, periods_per_year: f64) -> Option<f64> {
        if self.n < 2.0 {
            return None;
        }
        let sd = (self.m2 / (self.n - 1.0)).sqrt();
        (sd > 0.0).then(|| self.mean / sd * periods_per_year.sqrt())
    }
}
