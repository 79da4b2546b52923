//! A random-access price path: the log price at any instant is a pure function of
//! (seed, symbol, time), so any candle can be computed without generating the ones before it.
//!
//! The path is a sum of piecewise-linear "value noise" layers, one per time scale (1 minute to
//! ~45 days, each 4× the previous). A layer at scale S holds an independent random value at every
//! multiple of S and interpolates between them; with amplitude ∝ √S the sum moves like a random
//! walk with per-minute volatility σ at every horizon, yet stays bounded, so prices never drift
//! to zero. Two slower layers give regimes: a volatility multiplier that wanders over days
//! (applied to the sub-day layers, calm and stormy stretches) and a trend layer whose linear
//! segments last three days (up, down or sideways legs).

/// Layer scales in minutes: 1, 4, 16, … 65 536 (≈ 45 days).
const SCALES: [u64; 9] = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536];
/// Layers below one day feel the volatility regime.
const INTRADAY_LAYERS: usize = 6;
const VOL_REGIME_SCALE_MIN: u64 = 1440;
const TREND_SCALE_MIN: u64 = 4320;

/// SplitMix64: a fast, well-mixed hash; the same input gives the same output on every machine.
pub(crate) fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A uniform value in [-1, 1) from a key.
pub(crate) fn unit(key: u64) -> f64 {
    (mix(key) >> 11) as f64 / (1u64 << 52) as f64 - 1.0
}

/// FNV-1a of a symbol, so each symbol has its own path under one seed.
pub(crate) fn symbol_key(symbol: &str) -> u64 {
    symbol.bytes().fold(0xCBF2_9CE4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3)
    })
}

fn lattice(key: u64, layer_id: u64, n: f64) -> f64 {
    // Lattice indices are reinterpreted as u64 so negative times (before 1970) still hash.
    unit(key ^ mix(layer_id.wrapping_mul(0x1000_0000_0000_0001) ^ (n as i64 as u64)))
}

/// Slots of the cursor cache: the scale layers, then the volatility and trend layers.
const VOL_SLOT: usize = SCALES.len();
const TREND_SLOT: usize = SCALES.len() + 1;

/// Evaluates a path at increasing times, re-hashing a layer's lattice values only when the time
/// crosses into its next segment (every minute for the finest layer, once in 45 days for the
/// coarsest). The arithmetic is the same as a cold evaluation, so results are bit-identical.
pub(crate) struct Cursor<'a> {
    p: &'a PathParams,
    /// Per layer: (segment index, value at its start, value at its end).
    cache: [(f64, f64, f64); SCALES.len() + 2],
}

impl<'a> Cursor<'a> {
    pub fn new(p: &'a PathParams) -> Self {
        Cursor {
            p,
            // NaN never equals a segment index, so every layer loads on first use.
            cache: [(f64::NAN, 0.0, 0.0); SCALES.len() + 2],
        }
    }

    /// One noise layer at `t_min` minutes (fractional), lattice every `scale` minutes, linear
    /// in between.
    fn layer(&mut self, slot: usize, layer_id: u64, t_min: f64, scale: u64) -> f64 {
        let pos = t_min / scale as f64;
        let i = pos.floor();
        let frac = pos - i;
        let entry = &mut self.cache[slot];
        if entry.0 != i {
            *entry = (
                i,
                lattice(self.p.key, layer_id, i),
                lattice(self.p.key, layer_id, i + 1.0),
            );
        }
        entry.1 + (entry.2 - entry.1) * frac
    }

    /// The volatility regime multiplier at `t_min`: between ~0.55 and ~1.8.
    pub fn vol_multiplier(&mut self, t_min: f64) -> f64 {
        (0.6 * self.layer(VOL_SLOT, 100, t_min, VOL_REGIME_SCALE_MIN)).exp()
    }

    /// Price at `t_min` minutes since the epoch.
    pub fn price(&mut self, t_min: f64) -> f64 {
        let vol = self.vol_multiplier(t_min);
        let mut x = self.p.trend * self.layer(TREND_SLOT, 200, t_min, TREND_SCALE_MIN);
        for (k, &s) in SCALES.iter().enumerate() {
            // Each layer's change over a lag L < S has variance ≈ (2/3)·amp²·(L/S)²; with
            // amp = σ·√S·0.9 the layers add up to a walk with variance ≈ σ²·L.
            let amp = self.p.sigma * (s as f64).sqrt() * 0.9;
            let amp = if k < INTRADAY_LAYERS { amp * vol } else { amp };
            x += amp * self.layer(k, k as u64, t_min, s);
        }
        self.p.base_price * x.exp()
    }
}

/// The parameters of one symbol's path.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PathParams {
    pub key: u64,
    pub base_price: f64,
    /// Per-minute volatility of the log price.
    pub sigma: f64,
    /// Half-range of the trend layer in log price.
    pub trend: f64,
}

impl PathParams {
    pub fn vol_multiplier(&self, t_min: f64) -> f64 {
        Cursor::new(self).vol_multiplier(t_min)
    }

    pub fn price(&self, t_min: f64) -> f64 {
        Cursor::new(self).price(t_min)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params() -> PathParams {
        PathParams {
            key: symbol_key("BTCUSDT") ^ 7,
            base_price: 60_000.0,
            sigma: 0.0009,
            trend: 0.08,
        }
    }

    #[test]
    fn the_path_is_continuous_and_stays_near_its_base() {
        let p = params();
        let a = p.price(29_000_000.0);
        let b = p.price(29_000_000.001);
        assert!((a - b).abs() / a < 1e-5);
        for day in 0..200 {
            let price = p.price(29_000_000.0 + f64::from(day) * 1440.0);
            assert!(price > 30_000.0 && price < 120_000.0, "{price}");
        }
    }

    #[test]
    fn a_cursor_gives_exactly_the_cold_values() {
        let p = params();
        let mut cursor = Cursor::new(&p);
        for m in 0..5_000 {
            let t = 29_000_000.0 + f64::from(m);
            assert_eq!(cursor.price(t).to_bits(), p.price(t).to_bits());
        }
    }

    #[test]
    fn one_minute_moves_have_roughly_the_configured_volatility() {
        let p = params();
        let n = 20_000;
        let mut sum_sq = 0.0;
        for i in 0..n {
            let t = 29_000_000.0 + f64::from(i);
            let r = (p.price(t + 1.0) / p.price(t)).ln();
            sum_sq += r * r;
        }
        let sd = (sum_sq / f64::from(n)).sqrt();
        assert!(sd > 0.0004 && sd < 0.0025, "per-minute sd {sd}");
    }
}
