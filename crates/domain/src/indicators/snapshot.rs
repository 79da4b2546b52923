//! The technical snapshot: every REFERENCE §4 indicator's latest value in one struct, the form a
//! trading prompt and the assistant's `stock.technical_snapshot` answer read.

use serde::{Deserialize, Serialize};

use super::{Bands, MacdPoint, Series, atr, bollinger, ema, last, macd, rsi, sma};
use super::{support_resistance, volume_ratio};
use crate::market::Candle;

/// Latest values; a field is `None` when the series is too short for that indicator, never a
/// made-up number (the assistant must be able to say "not enough data").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TechnicalSnapshot {
    pub bars: usize,
    pub close: Option<f64>,
    pub ma5: Option<f64>,
    pub ma10: Option<f64>,
    pub ma20: Option<f64>,
    pub ema12: Option<f64>,
    pub ema20: Option<f64>,
    pub ema26: Option<f64>,
    pub ema50: Option<f64>,
    pub macd: Option<MacdPoint>,
    pub rsi7: Option<f64>,
    pub rsi14: Option<f64>,
    pub bollinger: Option<Bands>,
    pub atr14: Option<f64>,
    pub support: Option<f64>,
    pub resistance: Option<f64>,
    pub volume_ratio: Option<f64>,
}

/// The last `n` values (or all of them): windowed indicators only need their window for the
/// latest value, which keeps a snapshot cheap on long series. Recursive ones (EMA, RSI, ATR,
/// MACD) read the whole series, because their value depends on all of it.
fn tail(values: &[f64], n: usize) -> &[f64] {
    &values[values.len().saturating_sub(n)..]
}

pub fn snapshot(candles: &[Candle]) -> TechnicalSnapshot {
    let s = Series::from_candles(candles);
    let c = &s.close;
    let sr = support_resistance(&s.high, &s.low, 20);
    TechnicalSnapshot {
        bars: s.len(),
        close: c.last().copied(),
        ma5: last(&sma(tail(c, 5), 5)),
        ma10: last(&sma(tail(c, 10), 10)),
        ma20: last(&sma(tail(c, 20), 20)),
        ema12: last(&ema(c, 12)),
        ema20: last(&ema(c, 20)),
        ema26: last(&ema(c, 26)),
        ema50: last(&ema(c, 50)),
        macd: macd(c, 12, 26, 9).last().copied().flatten(),
        rsi7: last(&rsi(c, 7)),
        rsi14: last(&rsi(c, 14)),
        bollinger: bollinger(tail(c, 20), 20, 2.0).last().copied().flatten(),
        atr14: last(&atr(&s.high, &s.low, c, 14)),
        support: sr.map(|(lo, _)| lo),
        resistance: sr.map(|(_, hi)| hi),
        volume_ratio: last(&volume_ratio(tail(&s.volume, 21), 20)),
    }
}
