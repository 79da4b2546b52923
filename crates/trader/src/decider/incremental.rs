//! Indicators updated one candle at a time, O(1) per candle.
//!
//! The batch functions in `nofxi_domain::indicators` recompute a whole series, which is right for
//! a snapshot shown to a user and wrong for a decider that sees millions of candles in a
//! backtest. These keep exactly the batch definitions (SMA-seeded EMA, Wilder ATR seeded with
//! the mean true range) so both agree to the last bit on the same input; a test holds them to it.

/// EMA with alpha = 2 / (period + 1), seeded with the SMA of the first `period` values.
#[derive(Debug, Clone, Copy)]
pub struct Ema {
    period: usize,
    alpha: f64,
    seen: usize,
    sum: f64,
    value: Option<f64>,
}

impl Ema {
    pub fn new(period: usize) -> Ema {
        let period = period.max(1);
        Ema {
            period,
            alpha: 2.0 / (period as f64 + 1.0),
            seen: 0,
            sum: 0.0,
            value: None,
        }
    }

    /// The value `update(x)` would give once warm, without taking `x` in.
    pub fn peek(&self, x: f64) -> Option<f64> {
        self.value
            .map(|prev| self.alpha * x + (1.0 - self.alpha) * prev)
    }

    /// Take in the `x` whose [`Ema::peek`] gave `peeked`: `update(x)` without computing the
    /// value twice.
    pub fn accept(&mut self, peeked: f64) {
        self.value = Some(peeked);
    }

    pub fn update(&mut self, x: f64) -> Option<f64> {
        self.value = match self.value {
            Some(prev) => Some(self.alpha * x + (1.0 - self.alpha) * prev),
            None => {
                self.seen += 1;
                self.sum += x;
                (self.seen == self.period).then(|| self.sum / self.period as f64)
            }
        };
        self.value
    }

    pub fn value(&self) -> Option<f64> {
        self.value
    }
}

/// Wilder's ATR: true range averaged with alpha = 1 / period, seeded with the mean of the first
/// `period` true ranges. The first bar has no previous close, so it only provides one.
#[derive(Debug, Clone, Copy)]
pub struct Atr {
    period: usize,
    prev_close: Option<f64>,
    seen: usize,
    sum: f64,
    value: Option<f64>,
}

impl Atr {
    pub fn new(period: usize) -> Atr {
        Atr {
            period: period.max(1),
            prev_close: None,
            seen: 0,
            sum: 0.0,
            value: None,
        }
    }

    pub fn update(&mut self, high: f64, low: f64, close: f64) -> Option<f64> {
        let pc = self.prev_close.replace(close)?;
        let range = (high - low).max((high - pc).abs()).max((low - pc).abs());
        let n = self.period as f64;
        self.value = match self.value {
            Some(prev) => Some((prev * (n - 1.0) + range) / n),
            None => {
                self.seen += 1;
                self.sum += range;
                (self.seen == self.period).then(|| self.sum / n)
            }
        };
        self.value
    }

    pub fn value(&self) -> Option<f64> {
        self.value
    }
}
