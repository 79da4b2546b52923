//! What a backtest prints: stats, speed, and the equity curve as a terminal sparkline, CSV or
//! SVG.

use std::fmt::Write as _;
use std::time::Duration;

use nofxi_domain::market::decimal_to_f64;
use nofxi_domain::trading::{AccountSnapshot, Fill};

use super::EquityCurve;
use crate::stats::Stats;

#[derive(Debug, Clone)]
pub struct BacktestReport {
    pub stats: Stats,
    /// `(time, equity)` at every cycle.
    pub equity: EquityCurve,
    pub cycles: u64,
    /// Candles replayed: cycles × symbols.
    pub candles: u64,
    pub elapsed: Duration,
    pub refused: usize,
    pub fills: usize,
    /// Every fill, in time order.
    pub fill_log: Vec<Fill>,
    /// Cycles that took the idle fast path (see `cycle::idle`): the rest ran in full.
    pub idle_cycles: u64,
    pub final_account: AccountSnapshot,
}

impl BacktestReport {
    pub fn candles_per_second(&self) -> f64 {
        self.candles as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// The equity curve in `width` block characters, lowest to highest.
    pub fn sparkline(&self, width: usize) -> String {
        const BARS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
        let values = self.sampled(width);
        let (lo, hi) = bounds(&values);
        values
            .iter()
            .map(|v| {
                let level = if hi > lo {
                    ((v - lo) / (hi - lo) * 7.0).round() as usize
                } else {
                    3
                };
                BARS[level.min(7)]
            })
            .collect()
    }

    pub fn equity_csv(&self) -> String {
        let mut out = String::from("timestamp_ms,equity\n");
        for (t, e) in self.equity.points() {
            let _ = writeln!(out, "{t},{e}");
        }
        out
    }

    /// A self-contained SVG line chart of the equity curve.
    pub fn equity_svg(&self) -> String {
        let (w, h, pad) = (800.0, 300.0, 20.0);
        let values = self.sampled(800);
        let (lo, hi) = bounds(&values);
        let span = if hi > lo { hi - lo } else { 1.0 };
        let n = values.len().max(2) - 1;
        let points: Vec<String> = values
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let x = pad + (w - 2.0 * pad) * i as f64 / n as f64;
                let y = h - pad - (h - 2.0 * pad) * (v - lo) / span;
                format!("{x:.1},{y:.1}")
            })
            .collect();
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\
             <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\
             <text x=\"{pad}\" y=\"14\" font-family=\"sans-serif\" font-size=\"12\">equity {lo:.2} – {hi:.2} USDT</text>\
             <polyline fill=\"none\" stroke=\"#2563eb\" stroke-width=\"1.5\" points=\"{}\"/></svg>\n",
            points.join(" ")
        )
    }

    /// `width` points of the curve, evenly spaced, as floats; all of them if fewer. Only the
    /// points picked are converted: a million-point curve is walked, not converted.
    fn sampled(&self, width: usize) -> Vec<f64> {
        let len = self.equity.len();
        let values = self.equity.points().map(|(_, e)| e);
        if len <= width || width == 0 {
            return values.map(decimal_to_f64).collect();
        }
        // Point i * (len - 1) / (width - 1) for each i: increasing, so one walk picks them.
        let mut wanted = (0..width)
            .map(|i| i * (len - 1) / (width - 1).max(1))
            .peekable();
        let mut out = Vec::with_capacity(width);
        for (k, v) in values.enumerate() {
            while wanted.next_if_eq(&k).is_some() {
                out.push(decimal_to_f64(v));
            }
        }
        out
    }
}

fn bounds(values: &[f64]) -> (f64, f64) {
    values
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(*v), hi.max(*v))
        })
}
