//! An offline market: a made-up but steady price for any instrument of any market, FUND
//! included, so the portfolio can be shown, valued and demonstrated without a network.
//!
//! The price is a pure function of the instrument and the minute: a level per market picked by
//! a hash of the symbol (A-shares 3–300 CNY, Hong Kong 0.5–600 HKD, US 5–800 USD, funds a NAV of
//! 0.8–4, crypto 0.1–60 000), moved up to ±3 % per UTC day and then by a small random walk each
//! minute of that day (at most ±0.08 % a step; funds keep one NAV all day). Asking twice in the
//! same minute gives the same quote; every quote says `simulated: true` and is never stale.
//!
//! The hash is FNV-1a then SplitMix64, written out here because std's `DefaultHasher` may change
//! between Rust releases, and the same symbol must price the same everywhere.

use async_trait::async_trait;
use jiff::Timestamp;
use nofxi_portfolio::domain::{Instrument, Market};
use rust_decimal::Decimal;

use crate::error::QuoteError;
use crate::quote::{Quote, SourceKind, change_pct};
use crate::source::QuoteSource;

const MINUTES_PER_DAY: i64 = 24 * 60;
/// Parts per million, the unit the walk is computed in (integers, so it is exact).
const PPM: i64 = 1_000_000;
const DAY_MOVE_PPM: i64 = 30_000;
const MINUTE_STEP_PPM: i64 = 800;

#[derive(Debug, Clone, Copy, Default)]
pub struct SimulatedSource;

/// How a market's simulated prices look: the range of levels, in minor units, and the decimals.
struct Level {
    min_minor: i64,
    max_minor: i64,
    decimals: u32,
    moves_intraday: bool,
}

fn level(market: Market) -> Level {
    let (min_minor, max_minor, decimals, moves_intraday) = match market {
        Market::Sh | Market::Sz | Market::Bj => (300, 30_000, 2, true),
        Market::Hk => (500, 600_000, 3, true),
        Market::Us => (500, 80_000, 2, true),
        Market::Fund => (8_000, 40_000, 4, false),
        Market::Crypto => (1_000, 600_000_000, 4, true),
    };
    Level {
        min_minor,
        max_minor,
        decimals,
        moves_intraday,
    }
}

impl SimulatedSource {
    /// The quote for `instrument` in the minute that contains `now`.
    pub fn quote_at(&self, instrument: &Instrument, now: Timestamp) -> Quote {
        let seed = fnv1a(format!("{}:{}", instrument.market, instrument.symbol).as_bytes());
        let level = level(instrument.market);
        let minute = now.as_second().div_euclid(60);
        let day = minute.div_euclid(MINUTES_PER_DAY);
        let minute_of_day = minute.rem_euclid(MINUTES_PER_DAY);

        let today = Walk::new(seed, &level, day, minute_of_day);
        let yesterday = Walk::new(seed, &level, day - 1, MINUTES_PER_DAY - 1);
        let price = |ppm: i64| price(seed, &level, ppm);

        let last = price(today.last);
        let previous_close = price(yesterday.last);
        let as_of = Timestamp::from_second(minute * 60).unwrap_or(now);
        Quote {
            instrument: instrument.clone(),
            name: None,
            last,
            previous_close: Some(previous_close),
            open: Some(price(today.open)),
            high: Some(price(today.high)),
            low: Some(price(today.low)),
            change_pct: change_pct(last, Some(previous_close)),
            as_of,
            source: SourceKind::Simulated,
            simulated: true,
            stale: false,
        }
    }
}

/// One UTC day of the simulated market: the walk's open, extremes and close.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DailyBar {
    /// Midnight UTC that starts the day.
    pub day_start: Timestamp,
    pub open: Decimal,
    pub high: Decimal,
    pub low: Decimal,
    pub close: Decimal,
}

impl SimulatedSource {
    /// The `days` whole UTC days before the one that contains `now`, oldest first: the same
    /// walk the quotes take, so the last bar's close is today's quote's previous close.
    pub fn daily_bars(
        &self,
        instrument: &Instrument,
        days: usize,
        now: Timestamp,
    ) -> Vec<DailyBar> {
        let seed = fnv1a(format!("{}:{}", instrument.market, instrument.symbol).as_bytes());
        let level = level(instrument.market);
        let today = now.as_second().div_euclid(60 * MINUTES_PER_DAY);
        let days = i64::try_from(days).unwrap_or(0);
        (today - days..today)
            .filter_map(|day| {
                let walk = Walk::new(seed, &level, day, MINUTES_PER_DAY - 1);
                let price = |ppm: i64| price(seed, &level, ppm);
                Some(DailyBar {
                    day_start: Timestamp::from_second(day * 60 * MINUTES_PER_DAY).ok()?,
                    open: price(walk.open),
                    high: price(walk.high),
                    low: price(walk.low),
                    close: price(walk.last),
                })
            })
            .collect()
    }
}

#[async_trait]
impl QuoteSource for SimulatedSource {
    fn kind(&self) -> SourceKind {
        SourceKind::Simulated
    }

    async fn quote(&self, instrument: &Instrument, now: Timestamp) -> Result<Quote, QuoteError> {
        Ok(self.quote_at(instrument, now))
    }
}

/// One day's walk up to a minute, as multipliers in parts per million of the base level.
struct Walk {
    open: i64,
    last: i64,
    high: i64,
    low: i64,
}

impl Walk {
    fn new(seed: u64, level: &Level, day: i64, up_to_minute: i64) -> Walk {
        let open = PPM + uniform(mix(seed, 1, day), DAY_MOVE_PPM);
        let mut walk = Walk {
            open,
            last: open,
            high: open,
            low: open,
        };
        if level.moves_intraday {
            for minute in 1..=up_to_minute {
                let step = uniform(mix(seed, day, minute), MINUTE_STEP_PPM);
                walk.last += walk.last * step / PPM;
                walk.high = walk.high.max(walk.last);
                walk.low = walk.low.min(walk.last);
            }
        }
        walk
    }
}

fn price(seed: u64, level: &Level, ppm: i64) -> Decimal {
    let span = u64::try_from(level.max_minor - level.min_minor)
        .unwrap_or(1)
        .max(1);
    let minor = level.min_minor + i64::try_from(splitmix(seed) % span).unwrap_or(0);
    let base = Decimal::new(minor, level.decimals);
    (base * Decimal::from(ppm) / Decimal::from(PPM)).round_dp(level.decimals)
}

/// A value in `[-bound, bound]` from a hash.
fn uniform(hash: u64, bound: i64) -> i64 {
    let width = u64::try_from(2 * bound + 1).unwrap_or(1);
    i64::try_from(hash % width).unwrap_or(0) - bound
}

fn mix(seed: u64, a: i64, b: i64) -> u64 {
    splitmix(seed ^ splitmix(a as u64 ^ splitmix(b as u64)))
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> Timestamp {
        text.parse().unwrap()
    }

    #[test]
    fn the_hash_is_fixed_across_builds() {
        // FNV-1a's published test vector: a change here would move every simulated price.
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn every_market_has_a_plausible_price() {
        let now = at("2025-01-10T06:30:00Z");
        let cases = [
            (Market::Sh, "600519", 2, 330),
            (Market::Sz, "000001", 2, 330),
            (Market::Bj, "430047", 2, 330),
            (Market::Hk, "00700", 0, 700),
            (Market::Us, "AAPL", 4, 900),
            (Market::Fund, "110022", 0, 5),
            (Market::Crypto, "BTC", 0, 70_000),
        ];
        for (market, symbol, low, high) in cases {
            let quote = SimulatedSource.quote_at(&Instrument::new(market, symbol).unwrap(), now);
            assert!(quote.simulated && !quote.stale);
            assert_eq!(quote.source, SourceKind::Simulated);
            assert!(
                quote.last > Decimal::from(low) && quote.last < Decimal::from(high),
                "{market} {symbol}: {}",
                quote.last
            );
            let (lo, hi) = (quote.low.unwrap(), quote.high.unwrap());
            assert!(lo <= quote.last && quote.last <= hi, "{quote:?}");
        }
    }

    #[test]
    fn same_minute_same_quote_and_the_price_moves_with_time() {
        let aapl = Instrument::new(Market::Us, "AAPL").unwrap();
        let a = SimulatedSource.quote_at(&aapl, at("2025-01-10T15:00:05Z"));
        let b = SimulatedSource.quote_at(&aapl, at("2025-01-10T15:00:55Z"));
        assert_eq!(a, b);
        assert_eq!(a.as_of, at("2025-01-10T15:00:00Z"));
        let later = SimulatedSource.quote_at(&aapl, at("2025-01-10T17:00:00Z"));
        assert_ne!(a.last, later.last);
        // A small walk: within a few percent over two hours.
        let moved = ((later.last - a.last) / a.last).abs();
        assert!(moved < Decimal::new(5, 2), "{moved}");
    }

    #[test]
    fn daily_bars_end_yesterday_and_close_where_today_opens_from() {
        let aapl = Instrument::new(Market::Us, "AAPL").unwrap();
        let now = at("2025-01-10T15:00:05Z");
        let bars = SimulatedSource.daily_bars(&aapl, 30, now);
        assert_eq!(bars.len(), 30);
        assert_eq!(bars[29].day_start, at("2025-01-09T00:00:00Z"));
        assert_eq!(bars[0].day_start, at("2024-12-11T00:00:00Z"));
        let quote = SimulatedSource.quote_at(&aapl, now);
        assert_eq!(Some(bars[29].close), quote.previous_close);
        for bar in &bars {
            assert!(bar.low <= bar.open && bar.open <= bar.high, "{bar:?}");
            assert!(bar.low <= bar.close && bar.close <= bar.high, "{bar:?}");
        }
    }

    #[test]
    fn a_fund_keeps_one_nav_all_day() {
        let fund = Instrument::new(Market::Fund, "110022").unwrap();
        let morning = SimulatedSource.quote_at(&fund, at("2025-01-10T01:00:00Z"));
        let evening = SimulatedSource.quote_at(&fund, at("2025-01-10T13:00:00Z"));
        assert_eq!(morning.last, evening.last);
        assert_eq!(morning.last.scale(), 4);
    }
}
