//! The simulated market: offline, deterministic, every interval from 1m to 1w.
//!
//! Each 1-minute candle is a pure function of (seed, symbol, open time) — see [`path`] — and a
//! longer candle is the exact aggregate of the 1-minute candles it spans (open of the first,
//! close of the last, extreme high and low, summed volume). So a 4h candle never disagrees with
//! its 1h candles, and the answer does not depend on what was asked before or in which order.
//!
//! The simulated market serves *closed* candles only: the latest candle is the last one that
//! closed before the clock's now. A query repeated within the same interval answers identically,
//! and a backtest cannot peek into an unfinished bar. The ticker, order book and funding rate are
//! live: they read the path at the clock's current millisecond.

mod path;
mod profile;

use std::sync::Arc;

use async_trait::async_trait;
use nofxi_domain::Interval;
use nofxi_domain::market::{BookLevel, Candle, FundingRate, OrderBook, Symbol, Ticker};
use rust_decimal::Decimal;
use rust_decimal::prelude::FromPrimitive;

pub use profile::SymbolProfile;

use crate::market_data::align_open_time;
use crate::{Clock, KlineQuery, MarketData, VenueError};
use path::{Cursor, PathParams, mix, symbol_key, unit};

const MINUTE_MS: i64 = 60_000;
const FUNDING_PERIOD_MS: i64 = 8 * 3_600_000;

#[derive(Debug, Clone)]
pub struct SimMarket {
    seed: u64,
    clock: Arc<dyn Clock>,
}

impl SimMarket {
    pub fn new(seed: u64, clock: Arc<dyn Clock>) -> SimMarket {
        SimMarket { seed, clock }
    }

    fn params(&self, symbol: &str) -> (PathParams, SymbolProfile) {
        let profile = SymbolProfile::for_symbol(symbol);
        let key = mix(self.seed ^ symbol_key(symbol));
        // The trend layer's reach differs per symbol and seed: some markets trend harder.
        let trend = 0.04 + 0.06 * (unit(key ^ 0x7472_656E_6400) + 1.0) / 2.0;
        let params = PathParams {
            key,
            base_price: profile.base_price,
            sigma: profile.sigma,
            trend,
        };
        (params, profile)
    }

    /// The candle of `interval` opening at `open_time_ms` (aligned down to the interval).
    pub fn candle(&self, symbol: &Symbol, interval: Interval, open_time_ms: i64) -> Candle {
        let (params, profile) = self.params(symbol.as_str());
        let start = align_open_time(interval, open_time_ms);
        aggregate(&params, &profile, start, interval.millis() / MINUTE_MS)
    }

    /// The live price at `time_ms`, rounded to the symbol's tick.
    pub fn price_at(&self, symbol: &Symbol, time_ms: i64) -> Decimal {
        let (params, profile) = self.params(symbol.as_str());
        to_dec(
            params.price(time_ms as f64 / MINUTE_MS as f64),
            profile.price_dp,
        )
    }

    pub fn profile(&self, symbol: &Symbol) -> SymbolProfile {
        SymbolProfile::for_symbol(symbol.as_str())
    }
}

/// Round to `dp` places. Scaling in f64 and building the decimal from an integer is ~20× faster
/// than `Decimal::from_f64` + `round_dp`, and exact for every price the simulator makes
/// (scaled values stay far below 2^53).
fn to_dec(x: f64, dp: u32) -> Decimal {
    let scaled = (x * 10f64.powi(dp as i32)).round();
    if scaled.is_finite() && scaled.abs() < 9e15 {
        Decimal::new(scaled as i64, dp)
    } else {
        Decimal::from_f64(x).unwrap_or_default().round_dp(dp)
    }
}

/// Aggregate `minutes` one-minute candles starting at `start_ms`.
///
/// Extremes are kept in f64 and rounded once: rounding is monotonic, so the rounded maximum is
/// the maximum of the rounded one-minute highs. Volume is summed in thousandths so the total is
/// exactly the sum of the one-minute volumes.
fn aggregate(params: &PathParams, profile: &SymbolProfile, start_ms: i64, minutes: i64) -> Candle {
    let mut path = Cursor::new(params);
    let t0 = start_ms.div_euclid(MINUTE_MS);
    let first_price = path.price(t0 as f64);
    let mut open_price = first_price;
    let (mut high, mut low, mut volume_milli) = (open_price, open_price, 0i64);
    for m in t0..t0 + minutes.max(1) {
        let close_price = path.price((m + 1) as f64);
        let vol = path.vol_multiplier(m as f64);
        let key = params.key ^ mix(m as u64 ^ 0x5749_434B);
        // Wicks beyond the open/close range, scaled by the current volatility regime.
        let wick = profile.sigma * vol * 0.6;
        let hi = open_price.max(close_price) * (wick * unit(key).abs()).exp();
        let lo = open_price.min(close_price) * (-wick * unit(key ^ 1).abs()).exp();
        let ret = (close_price / open_price).ln().abs() / (profile.sigma * vol);
        let v = profile.volume_1m * (0.6 + 0.4 * unit(key ^ 2)) * (0.5 + 0.5 * ret.min(4.0));
        high = high.max(hi);
        low = low.min(lo);
        volume_milli += (v * 1000.0).round() as i64;
        open_price = close_price;
    }
    let open = to_dec(first_price, profile.price_dp);
    let close = to_dec(open_price, profile.price_dp);
    // Rounding can put the close a tick outside the wicks; a candle must contain its close.
    Candle {
        open_time_ms: start_ms,
        open,
        high: to_dec(high, profile.price_dp).max(close).max(open),
        low: to_dec(low, profile.price_dp).min(close).min(open),
        close,
        volume: Decimal::new(volume_milli, 3),
    }
}

#[async_trait]
impl MarketData for SimMarket {
    fn source(&self) -> &str {
        "sim"
    }

    async fn ticker(&self, symbol: &Symbol) -> Result<Ticker, VenueError> {
        let now = self.clock.now_ms();
        let profile = self.profile(symbol);
        let last = self.price_at(symbol, now);
        // The typical day's volume scaled by the current volatility regime. Summing the real
        // 1440 one-minute candles would cost ~0.5 ms per ticker, and the paper exchange reads a
        // ticker on every call; the candles stay the exact record, this is a quote field.
        let (params, _) = self.params(symbol.as_str());
        let volume_24h = to_dec(
            profile.volume_1m * 1440.0 * params.vol_multiplier(now as f64 / MINUTE_MS as f64),
            3,
        );
        Ok(Ticker {
            symbol: symbol.clone(),
            last,
            bid: last - profile.tick(),
            ask: last + profile.tick(),
            mark: last,
            volume_24h,
            time_ms: now,
        })
    }

    async fn order_book(&self, symbol: &Symbol, depth: usize) -> Result<OrderBook, VenueError> {
        let now = self.clock.now_ms();
        let profile = self.profile(symbol);
        let mid = self.price_at(symbol, now);
        let key = mix(self.seed ^ symbol_key(symbol.as_str()) ^ (now / 1000) as u64);
        let level_size = |i: usize, side: u64| {
            let u = (unit(key ^ mix(i as u64 * 2 + side)) + 1.0) / 2.0;
            to_dec(
                profile.volume_1m * 0.05 * (0.2 + u) * (1.0 + i as f64 * 0.3),
                profile.qty_dp,
            )
            .max(profile.step())
        };
        let levels = |side: u64, sign: Decimal| {
            (0..depth)
                .map(|i| BookLevel {
                    price: mid + sign * profile.tick() * Decimal::from(i as u64 + 1),
                    quantity: level_size(i, side),
                })
                .collect::<Vec<_>>()
        };
        Ok(OrderBook {
            symbol: symbol.clone(),
            bids: levels(0, Decimal::NEGATIVE_ONE),
            asks: levels(1, Decimal::ONE),
            time_ms: now,
        })
    }

    async fn klines(
        &self,
        symbol: &Symbol,
        interval: Interval,
        query: KlineQuery,
    ) -> Result<Vec<Candle>, VenueError> {
        query.validate()?;
        // Closed candles only: the newest open time allowed is one interval before now's candle.
        let last_closed = align_open_time(interval, self.clock.now_ms()) - interval.millis();
        Ok(query
            .open_times(interval, last_closed)
            .into_iter()
            .map(|t| self.candle(symbol, interval, t))
            .collect())
    }

    async fn funding_rate(&self, symbol: &Symbol) -> Result<Option<FundingRate>, VenueError> {
        let now = self.clock.now_ms();
        let period = now.div_euclid(FUNDING_PERIOD_MS);
        let key = mix(self.seed ^ symbol_key(symbol.as_str()) ^ period as u64 ^ 0x46554E44);
        // Mostly the 0.01% baseline, sometimes stretched either way, as on real perpetuals.
        let rate = 0.0001 + 0.0002 * unit(key);
        Ok(Some(FundingRate {
            symbol: symbol.clone(),
            rate: to_dec(rate, 6),
            next_funding_time_ms: (period + 1) * FUNDING_PERIOD_MS,
        }))
    }
}

#[cfg(test)]
mod tests;
