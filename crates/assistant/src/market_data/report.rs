//! What a market-data call returns, labelled with its source and time: one shape for the chat,
//! the CLI's `--json`, the HTTP API and MCP. The figures a reader asks of a book (spread,
//! pressure ratio) and of candles (change, high, low) are worked out here, once, in exact
//! decimals.

use nofxi_domain::Interval;
use nofxi_domain::market::{BookLevel, Candle, OrderBook, Ticker};
use rust_decimal::Decimal;
use schemars::JsonSchema;
use serde::Serialize;

use super::source::DataSource;

/// Where the data came from.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct SourceView {
    /// `simulated`, or the venue whose data it is (`okx`, `binance`, …).
    pub name: String,
    /// What the source is, in the reply's language ("okx public market data (live)").
    pub label: String,
    /// nofxi's simulated market, not a live venue's data.
    pub simulated: bool,
    /// The times are a paper account's simulated timeline, not UTC.
    pub simulated_clock: bool,
}

impl From<&DataSource> for SourceView {
    fn from(s: &DataSource) -> SourceView {
        SourceView {
            name: s.name.clone(),
            label: s.label.clone(),
            simulated: s.simulated,
            simulated_clock: s.sim_clock,
        }
    }
}

/// `get_realtime_price`: the last trade and best prices.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct PriceReport {
    pub symbol: String,
    pub source: SourceView,
    /// When the source quoted it, epoch milliseconds.
    pub time_ms: i64,
    pub last: Decimal,
    pub bid: Decimal,
    pub ask: Decimal,
    /// The price futures venues mark positions at (the last price where there is none).
    pub mark: Decimal,
    pub volume_24h: Decimal,
}

impl PriceReport {
    pub fn new(t: &Ticker, source: &DataSource) -> PriceReport {
        PriceReport {
            symbol: t.symbol.to_string(),
            source: source.into(),
            time_ms: t.time_ms,
            last: t.last,
            bid: t.bid,
            ask: t.ask,
            mark: t.mark,
            volume_24h: t.volume_24h,
        }
    }
}

/// One price level: its price and the size resting there.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, JsonSchema)]
pub struct Level {
    pub price: Decimal,
    pub size: Decimal,
}

impl From<&BookLevel> for Level {
    fn from(l: &BookLevel) -> Level {
        Level {
            price: l.price,
            size: l.quantity,
        }
    }
}

/// `get_order_book`: the top levels of both sides and what they say together.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct BookReport {
    pub symbol: String,
    pub source: SourceView,
    /// When the source took the book, epoch milliseconds.
    pub time_ms: i64,
    /// Levels asked per side (a side may have fewer).
    pub depth: usize,
    /// Best (highest) first.
    pub bids: Vec<Level>,
    /// Best (lowest) first.
    pub asks: Vec<Level>,
    /// Best ask − best bid; none when a side is empty.
    pub spread: Option<Decimal>,
    /// The spread as a percentage of the mid price.
    pub spread_pct: Option<Decimal>,
    /// Σ bid size over the levels shown.
    pub bid_size: Decimal,
    /// Σ ask size over the levels shown.
    pub ask_size: Decimal,
    /// Σ bid size / Σ ask size over the levels shown (> 1: bids outweigh asks); none without
    /// asks.
    pub pressure_ratio: Option<Decimal>,
}

impl BookReport {
    pub fn new(book: &OrderBook, depth: usize, source: &DataSource) -> BookReport {
        let bids: Vec<Level> = book.bids.iter().take(depth).map(Level::from).collect();
        let asks: Vec<Level> = book.asks.iter().take(depth).map(Level::from).collect();
        let spread = match (book.best_bid(), book.best_ask()) {
            (Some(bid), Some(ask)) => Some((ask - bid, (ask + bid) / Decimal::TWO)),
            _ => None,
        };
        let spread_pct = spread
            .filter(|(_, mid)| !mid.is_zero())
            .map(|(s, mid)| (s / mid * Decimal::ONE_HUNDRED).round_dp(4));
        BookReport {
            symbol: book.symbol.to_string(),
            source: source.into(),
            time_ms: book.time_ms,
            depth,
            bid_size: bids.iter().map(|l| l.size).sum(),
            ask_size: asks.iter().map(|l| l.size).sum(),
            pressure_ratio: book.pressure_ratio(depth).map(|r| r.round_dp(3)),
            spread: spread.map(|(s, _)| s),
            spread_pct,
            bids,
            asks,
        }
    }
}

/// One candle.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, JsonSchema)]
pub struct CandleView {
    /// When its interval opens, epoch milliseconds.
    pub open_time_ms: i64,
    pub open: Decimal,
    pub high: Decimal,
    pub low: Decimal,
    pub close: Decimal,
    pub volume: Decimal,
}

impl From<&Candle> for CandleView {
    fn from(c: &Candle) -> CandleView {
        CandleView {
            open_time_ms: c.open_time_ms,
            open: c.open,
            high: c.high,
            low: c.low,
            close: c.close,
            volume: c.volume,
        }
    }
}

/// The candles taken together: from the first open to the last close.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, JsonSchema)]
pub struct KlineSummary {
    pub count: usize,
    pub first_open: Decimal,
    pub last_close: Decimal,
    /// (last close − first open) / first open, in percent; none when the first open is 0.
    pub change_pct: Option<Decimal>,
    pub high: Decimal,
    pub low: Decimal,
}

impl KlineSummary {
    fn of(candles: &[Candle]) -> Option<KlineSummary> {
        let (first, last) = (candles.first()?, candles.last()?);
        let change_pct = (!first.open.is_zero())
            .then(|| ((last.close - first.open) / first.open * Decimal::ONE_HUNDRED).round_dp(2));
        Some(KlineSummary {
            count: candles.len(),
            first_open: first.open,
            last_close: last.close,
            change_pct,
            high: candles.iter().map(|c| c.high).max()?,
            low: candles.iter().map(|c| c.low).min()?,
        })
    }
}

/// `get_kline`: candles oldest first, and their summary.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct KlineReport {
    pub symbol: String,
    /// `1m` … `1w`.
    pub interval: String,
    pub source: SourceView,
    /// When the last candle opens, epoch milliseconds; none without candles.
    pub time_ms: Option<i64>,
    pub candles: Vec<CandleView>,
    /// None without candles.
    pub summary: Option<KlineSummary>,
}

impl KlineReport {
    pub fn new(
        symbol: &str,
        interval: Interval,
        candles: &[Candle],
        source: &DataSource,
    ) -> KlineReport {
        KlineReport {
            symbol: symbol.to_string(),
            interval: interval.as_str().to_string(),
            source: source.into(),
            time_ms: candles.last().map(|c| c.open_time_ms),
            candles: candles.iter().map(CandleView::from).collect(),
            summary: KlineSummary::of(candles),
        }
    }
}

#[cfg(test)]
mod tests {
    use nofxi_domain::market::Symbol;

    use super::*;
    use crate::market_data::source::simulated;

    fn d(n: i64) -> Decimal {
        Decimal::from(n)
    }

    fn level(price: Decimal, quantity: Decimal) -> BookLevel {
        BookLevel { price, quantity }
    }

    #[test]
    fn a_book_has_its_spread_and_pressure_over_the_levels_shown() {
        let book = OrderBook {
            symbol: Symbol::parse("BTC").unwrap(),
            bids: vec![level(d(99), d(3)), level(d(98), d(1)), level(d(97), d(50))],
            asks: vec![
                level(d(101), d(1)),
                level(d(102), d(1)),
                level(d(103), d(9)),
            ],
            time_ms: 7,
        };
        let r = BookReport::new(&book, 2, &simulated(nofxi_skills::Lang::En));
        assert_eq!((r.bids.len(), r.asks.len()), (2, 2));
        assert_eq!(r.pressure_ratio, Some(d(2)));
        assert_eq!((r.bid_size, r.ask_size), (d(4), d(2)));
        assert_eq!(r.spread, Some(d(2)));
        assert_eq!(r.spread_pct, Some(d(2)));
        assert!(r.source.simulated);
    }

    #[test]
    fn candles_are_summed_up_from_the_first_open_to_the_last_close() {
        let candle = |t, open, high, low, close| Candle {
            open_time_ms: t,
            open,
            high,
            low,
            close,
            volume: d(1),
        };
        let candles = [
            candle(0, d(100), d(104), d(99), d(103)),
            candle(60, d(103), d(110), d(95), d(105)),
        ];
        let r = KlineReport::new(
            "BTCUSDT",
            Interval::M1,
            &candles,
            &simulated(nofxi_skills::Lang::En),
        );
        let s = r.summary.unwrap();
        assert_eq!(s.change_pct, Some(d(5)));
        assert_eq!((s.high, s.low, s.count), (d(110), d(95), 2));
        assert_eq!(r.time_ms, Some(60));
        assert!(
            KlineReport::new(
                "BTCUSDT",
                Interval::M1,
                &[],
                &simulated(nofxi_skills::Lang::En)
            )
            .summary
            .is_none()
        );
    }
}
