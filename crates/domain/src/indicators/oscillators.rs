//! Momentum, volatility and range indicators: RSI, MACD, ATR, support/resistance, volume ratio.

use serde::{Deserialize, Serialize};

use super::averages::{ema, ema_of};

/// Wilder's RSI over `period` changes. 100 when there were no losses (50 when nothing moved).
pub fn rsi(closes: &[f64], period: usize) -> Vec<Option<f64>> {
    let mut out = vec![None; closes.len()];
    if period == 0 || closes.len() <= period {
        return out;
    }
    let change = |i: usize| closes[i] - closes[i - 1];
    let (mut gain, mut loss) = (0.0, 0.0);
    for i in 1..=period {
        let c = change(i);
        gain += c.max(0.0);
        loss += (-c).max(0.0);
    }
    gain /= period as f64;
    loss /= period as f64;
    let value = |g: f64, l: f64| {
        if l == 0.0 {
            if g == 0.0 { 50.0 } else { 100.0 }
        } else {
            100.0 - 100.0 / (1.0 + g / l)
        }
    };
    out[period] = Some(value(gain, loss));
    let n = period as f64;
    for (i, slot) in out.iter_mut().enumerate().skip(period + 1) {
        let c = change(i);
        gain = (gain * (n - 1.0) + c.max(0.0)) / n;
        loss = (loss * (n - 1.0) + (-c).max(0.0)) / n;
        *slot = Some(value(gain, loss));
    }
    out
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct MacdPoint {
    pub dif: f64,
    pub dea: f64,
    /// `(dif − dea) × 2`, as Chinese charting tools draw it.
    pub hist: f64,
}

/// MACD(fast, slow, signal), usually (12, 26, 9). A point exists once DEA is warm.
pub fn macd(closes: &[f64], fast: usize, slow: usize, signal: usize) -> Vec<Option<MacdPoint>> {
    let f = ema(closes, fast);
    let s = ema(closes, slow);
    let dif: Vec<Option<f64>> = f.iter().zip(&s).map(|(a, b)| Some((*a)? - (*b)?)).collect();
    let dea = ema_of(&dif, signal);
    dif.iter()
        .zip(&dea)
        .map(|(d, e)| {
            let (dif, dea) = ((*d)?, (*e)?);
            Some(MacdPoint {
                dif,
                dea,
                hist: (dif - dea) * 2.0,
            })
        })
        .collect()
}

/// Wilder's average true range. The first bar has no previous close, so true ranges start at
/// the second bar and the first ATR is the mean of the first `period` of them.
pub fn atr(high: &[f64], low: &[f64], close: &[f64], period: usize) -> Vec<Option<f64>> {
    let len = close.len().min(high.len()).min(low.len());
    let mut out = vec![None; len];
    if period == 0 || len <= period {
        return out;
    }
    let tr = |i: usize| {
        let prev = close[i - 1];
        (high[i] - low[i])
            .max((high[i] - prev).abs())
            .max((low[i] - prev).abs())
    };
    let mut avg = (1..=period).map(tr).sum::<f64>() / period as f64;
    out[period] = Some(avg);
    let n = period as f64;
    for (i, slot) in out.iter_mut().enumerate().skip(period + 1) {
        avg = (avg * (n - 1.0) + tr(i)) / n;
        *slot = Some(avg);
    }
    out
}

/// Lowest low and highest high of the last `period` bars (the current one included):
/// the support and resistance of REFERENCE §4. `None` with fewer bars than `period`.
pub fn support_resistance(high: &[f64], low: &[f64], period: usize) -> Option<(f64, f64)> {
    if period == 0 || high.len() < period || low.len() < period {
        return None;
    }
    let support = low[low.len() - period..]
        .iter()
        .copied()
        .fold(f64::INFINITY, f64::min);
    let resistance = high[high.len() - period..]
        .iter()
        .copied()
        .fold(f64::NEG_INFINITY, f64::max);
    Some((support, resistance))
}

/// Current volume over the mean volume of the `period` bars before it; 2.0 means "twice the
/// usual". `None` while warming up or when the earlier bars traded nothing.
pub fn volume_ratio(volume: &[f64], period: usize) -> Vec<Option<f64>> {
    (0..volume.len())
        .map(|i| {
            if period == 0 || i < period {
                return None;
            }
            let mean = volume[i - period..i].iter().sum::<f64>() / period as f64;
            (mean > 0.0).then(|| volume[i] / mean)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rsi_of_a_rising_series_is_100_and_of_a_flat_one_50() {
        let up: Vec<f64> = (0..20).map(f64::from).collect();
        assert_eq!(rsi(&up, 14)[14], Some(100.0));
        assert_eq!(rsi(&[3.0; 20], 14)[19], Some(50.0));
        assert_eq!(rsi(&up, 14)[13], None);
    }

    #[test]
    fn atr_by_hand() {
        // Every bar spans 2 and closes mid-range: every true range is 2.
        let h = [11.0, 11.0, 11.0, 11.0];
        let l = [9.0, 9.0, 9.0, 9.0];
        let c = [10.0, 10.0, 10.0, 10.0];
        assert_eq!(atr(&h, &l, &c, 2), vec![None, None, Some(2.0), Some(2.0)]);
    }

    #[test]
    fn volume_ratio_compares_with_the_bars_before() {
        let v = [1.0, 1.0, 4.0];
        assert_eq!(volume_ratio(&v, 2), vec![None, None, Some(4.0)]);
        assert_eq!(
            support_resistance(&[5.0, 7.0], &[1.0, 2.0], 2),
            Some((1.0, 7.0))
        );
    }
}
