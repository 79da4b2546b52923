//! Moving averages and the Bollinger band built on one.

use serde::{Deserialize, Serialize};

/// Simple moving average of the last `period` values.
pub fn sma(values: &[f64], period: usize) -> Vec<Option<f64>> {
    let mut out = vec![None; values.len()];
    if period == 0 || values.len() < period {
        return out;
    }
    // A running sum keeps this O(n); the window is re-summed every `period` bars would be
    // cleaner numerically, but for 2-decimal prices the drift stays far below 1e-9.
    let mut sum: f64 = values[..period].iter().sum();
    out[period - 1] = Some(sum / period as f64);
    for i in period..values.len() {
        sum += values[i] - values[i - period];
        out[i] = Some(sum / period as f64);
    }
    out
}

/// Exponential moving average, alpha = 2 / (period + 1), seeded with the SMA of the first
/// `period` values. Leading `None`s in `values` (a series that is itself warming up, such as
/// MACD's DIF) are skipped, so the EMA starts `period` bars after the first real value.
pub fn ema_of(values: &[Option<f64>], period: usize) -> Vec<Option<f64>> {
    let mut out = vec![None; values.len()];
    let Some(start) = values.iter().position(Option::is_some) else {
        return out;
    };
    if period == 0 || values.len() - start < period {
        return out;
    }
    let seed: f64 = values[start..start + period].iter().flatten().sum::<f64>() / period as f64;
    let alpha = 2.0 / (period as f64 + 1.0);
    let mut prev = seed;
    out[start + period - 1] = Some(prev);
    for i in start + period..values.len() {
        if let Some(v) = values[i] {
            prev = alpha * v + (1.0 - alpha) * prev;
        }
        out[i] = Some(prev);
    }
    out
}

pub fn ema(values: &[f64], period: usize) -> Vec<Option<f64>> {
    let wrapped: Vec<Option<f64>> = values.iter().copied().map(Some).collect();
    ema_of(&wrapped, period)
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Bands {
    pub upper: f64,
    pub middle: f64,
    pub lower: f64,
}

/// Bollinger bands: SMA(`period`) ± `k` population standard deviations.
pub fn bollinger(values: &[f64], period: usize, k: f64) -> Vec<Option<Bands>> {
    let mid = sma(values, period);
    mid.iter()
        .enumerate()
        .map(|(i, m)| {
            let m = (*m)?;
            let window = &values[i + 1 - period..=i];
            let var = window.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / period as f64;
            let sd = var.sqrt();
            Some(Bands {
                upper: m + k * sd,
                middle: m,
                lower: m - k * sd,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sma_and_ema_by_hand() {
        let v = [1.0, 2.0, 3.0, 4.0, 5.0];
        assert_eq!(
            sma(&v, 3),
            vec![None, None, Some(2.0), Some(3.0), Some(4.0)]
        );
        // alpha = 0.5; seed 2.0 at index 2; then 0.5*4+0.5*2 = 3; 0.5*5+0.5*3 = 4.
        assert_eq!(
            ema(&v, 3),
            vec![None, None, Some(2.0), Some(3.0), Some(4.0)]
        );
        assert_eq!(sma(&v, 6), vec![None; 5]);
    }

    #[test]
    fn bollinger_of_a_flat_series_has_zero_width() {
        let b = bollinger(&[5.0; 20], 20, 2.0);
        assert_eq!(
            b[19],
            Some(Bands {
                upper: 5.0,
                middle: 5.0,
                lower: 5.0
            })
        );
    }
}
