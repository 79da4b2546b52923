//! What a decider sees in one cycle: the account, positions and each candidate's market data.

use nofxi_domain::Interval;
use nofxi_domain::market::{Candle, FundingRate, Symbol};
use nofxi_domain::strategy_config::StrategyConfig;
use nofxi_domain::trading::{AccountSnapshot, Position};
use rust_decimal::Decimal;

/// Borrowed from the cycle: the decider reads it, and the cycle still owns the account and the
/// strategy afterwards, for the guard and the record (no copy of the strategy per cycle).
#[derive(Debug, Clone, Copy)]
pub struct CycleInput<'a> {
    pub trader_name: &'a str,
    pub cycle_number: u64,
    pub now_ms: i64,
    pub account: &'a AccountSnapshot,
    pub positions: &'a [Position],
    pub candidates: &'a [CandidateData],
    /// The strategy as it is *now*: edits made while the trader runs count from the next cycle.
    pub strategy: &'a StrategyConfig,
}

/// One symbol's market data. Series hold closed candles only, oldest first: a forming candle's
/// close is not a close, and acting on it is how backtests flatter themselves.
#[derive(Debug, Clone)]
pub struct CandidateData {
    pub symbol: Symbol,
    pub price: Decimal,
    pub series: Vec<(Interval, Vec<Candle>)>,
    pub funding: Option<FundingRate>,
}

impl CandidateData {
    pub fn series(&self, interval: Interval) -> &[Candle] {
        self.series
            .iter()
            .find(|(i, _)| *i == interval)
            .map(|(_, c)| c.as_slice())
            .unwrap_or(&[])
    }
}
