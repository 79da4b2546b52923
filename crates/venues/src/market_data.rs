//! The market-data trait: what a trading cycle and the market skill read.

use async_trait::async_trait;
use nofxi_domain::Interval;
use nofxi_domain::market::{Candle, FundingRate, OrderBook, Symbol, Ticker};

use crate::VenueError;

/// Which candles to return. With no `end_ms` the series ends at the current candle; with no
/// `start_ms` it is the last `limit` candles up to the end. Limits follow REFERENCE §5: 1–1000.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KlineQuery {
    pub start_ms: Option<i64>,
    pub end_ms: Option<i64>,
    pub limit: usize,
}

impl KlineQuery {
    pub const MAX_LIMIT: usize = 1000;

    pub fn latest(limit: usize) -> KlineQuery {
        KlineQuery {
            start_ms: None,
            end_ms: None,
            limit,
        }
    }

    pub fn ending_at(end_ms: i64, limit: usize) -> KlineQuery {
        KlineQuery {
            start_ms: None,
            end_ms: Some(end_ms),
            limit,
        }
    }

    pub fn validate(&self) -> Result<(), VenueError> {
        if self.limit == 0 || self.limit > Self::MAX_LIMIT {
            return Err(VenueError::InvalidRequest(format!(
                "limit {} is out of range: use 1 to {}",
                self.limit,
                Self::MAX_LIMIT
            )));
        }
        if let (Some(s), Some(e)) = (self.start_ms, self.end_ms)
            && s > e
        {
            return Err(VenueError::InvalidRequest(
                "start time is after end time: swap them".into(),
            ));
        }
        Ok(())
    }

    /// Open times of the candles this query selects, oldest first, given the current time:
    /// the shared arithmetic of every source whose candles sit on aligned boundaries.
    pub fn open_times(&self, interval: Interval, now_ms: i64) -> Vec<i64> {
        let step = interval.millis();
        let align = |t: i64| align_open_time(interval, t);
        let last = align(self.end_ms.unwrap_or(now_ms).min(now_ms));
        let limit = i64::try_from(self.limit).unwrap_or(0);
        // With a start, Binance returns the first `limit` candles from it; without, the last.
        let first = match self.start_ms {
            Some(s) => align(s + step - 1),
            None => last - (limit - 1) * step,
        };
        let mut out = Vec::with_capacity(self.limit);
        let mut t = first;
        while t <= last && out.len() < self.limit {
            out.push(t);
            t += step;
        }
        out
    }
}

/// The refusal of an interval `venue` has no candles of, naming those it serves: `served`
/// says whether the venue's own mapping of nofxi's intervals has one.
pub fn unserved_interval(
    venue: &str,
    interval: Interval,
    served: impl Fn(Interval) -> bool,
) -> VenueError {
    let names: Vec<&str> = Interval::ALL
        .into_iter()
        .filter(|i| served(*i))
        .map(Interval::as_str)
        .collect();
    VenueError::Unsupported {
        venue: venue.into(),
        what: format!(
            "{interval} candles: it serves {}; ask for one of those",
            names.join(", ")
        ),
    }
}

/// The refusal of more order-book levels per side than `venue` serves (`most`).
pub fn unserved_depth(venue: &str, depth: usize, most: usize) -> VenueError {
    VenueError::Unsupported {
        venue: venue.into(),
        what: format!(
            "{depth} order-book levels per side: its book has at most {most}; ask for 1 to {most}"
        ),
    }
}

/// 1970-01-01 was a Thursday; weeks open on Monday 00:00 UTC, as on Binance.
const WEEK_ORIGIN_MS: i64 = 4 * 86_400_000;

/// The open time of the `interval` candle that contains `t_ms`. Everything up to a day aligns
/// to the epoch; weeks align to Mondays.
pub fn align_open_time(interval: Interval, t_ms: i64) -> i64 {
    let step = interval.millis();
    let origin = if interval == Interval::W1 {
        WEEK_ORIGIN_MS
    } else {
        0
    };
    (t_ms - origin).div_euclid(step) * step + origin
}

#[async_trait]
pub trait MarketData: Send + Sync {
    /// A short name for messages: `sim`, `csv`, `binance`.
    fn source(&self) -> &str;

    async fn ticker(&self, symbol: &Symbol) -> Result<Ticker, VenueError>;
    /// `depth` levels per side (the market-data skill allows 1–100; a venue whose book has
    /// fewer refuses more with [`unserved_depth`]).
    async fn order_book(&self, symbol: &Symbol, depth: usize) -> Result<OrderBook, VenueError>;
    async fn klines(
        &self,
        symbol: &Symbol,
        interval: Interval,
        query: KlineQuery,
    ) -> Result<Vec<Candle>, VenueError>;
    /// `Ok(None)` where the market has no funding (spot, CSV replays).
    async fn funding_rate(&self, symbol: &Symbol) -> Result<Option<FundingRate>, VenueError>;
}

#[cfg(test)]
mod tests {
    use super::*;

    const H: i64 = 3_600_000;

    #[test]
    fn latest_candles_end_at_the_current_one() {
        let q = KlineQuery::latest(3);
        assert_eq!(
            q.open_times(Interval::H1, 10 * H + 5),
            vec![8 * H, 9 * H, 10 * H]
        );
    }

    #[test]
    fn an_end_time_in_the_past_fixes_the_window() {
        let q = KlineQuery::ending_at(5 * H + 1, 2);
        assert_eq!(q.open_times(Interval::H1, 100 * H), vec![4 * H, 5 * H]);
    }

    #[test]
    fn a_start_time_counts_forward_and_stops_at_now() {
        let q = KlineQuery {
            start_ms: Some(2 * H - 10),
            end_ms: None,
            limit: 10,
        };
        assert_eq!(q.open_times(Interval::H1, 4 * H), vec![2 * H, 3 * H, 4 * H]);
        assert!(KlineQuery::latest(0).validate().is_err());
        // 2026-01-01 is a Thursday; its week opened on Monday 2025-12-29.
        assert_eq!(
            align_open_time(Interval::W1, 1_767_225_600_000),
            1_766_966_400_000
        );
        assert!(KlineQuery::latest(1001).validate().is_err());
    }
}
