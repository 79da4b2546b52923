//! Our indicators against values computed by an independent Python implementation
//! (`fixtures/indicators_reference.py`, output committed as `indicators_reference.json`).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion

use nofxi_domain::indicators::{self, Series};
use nofxi_domain::market::Candle;
use serde_json::Value;

const FIXTURE: &str = include_str!("fixtures/indicators_reference.json");

fn fixture() -> (Vec<Candle>, Value) {
    let v: Value = serde_json::from_str(FIXTURE).unwrap();
    let candles: Vec<Candle> = serde_json::from_value(v["candles"].clone()).unwrap();
    (candles, v)
}

fn reference(v: &Value, name: &str) -> Vec<Option<f64>> {
    v["series"][name]
        .as_array()
        .unwrap_or_else(|| panic!("fixture has no series {name}"))
        .iter()
        .map(Value::as_f64)
        .collect()
}

fn assert_close(name: &str, ours: &[Option<f64>], want: &[Option<f64>]) {
    assert_eq!(ours.len(), want.len(), "{name}: length");
    for (i, (o, w)) in ours.iter().zip(want).enumerate() {
        match (o, w) {
            (None, None) => {}
            (Some(o), Some(w)) => {
                let tol = 1e-9 * w.abs().max(1.0);
                assert!((o - w).abs() <= tol, "{name}[{i}]: ours {o}, reference {w}");
            }
            _ => panic!("{name}[{i}]: ours {o:?}, reference {w:?} (warm-up differs)"),
        }
    }
}

#[test]
fn every_indicator_matches_the_reference_series() {
    let (candles, v) = fixture();
    assert_eq!(candles.len(), 120);
    let s = Series::from_candles(&candles);
    let c = &s.close;
    assert_close("sma5", &indicators::sma(c, 5), &reference(&v, "sma5"));
    assert_close("sma10", &indicators::sma(c, 10), &reference(&v, "sma10"));
    assert_close("sma20", &indicators::sma(c, 20), &reference(&v, "sma20"));
    assert_close("ema12", &indicators::ema(c, 12), &reference(&v, "ema12"));
    assert_close("ema26", &indicators::ema(c, 26), &reference(&v, "ema26"));
    assert_close("rsi7", &indicators::rsi(c, 7), &reference(&v, "rsi7"));
    assert_close("rsi14", &indicators::rsi(c, 14), &reference(&v, "rsi14"));
    let m = indicators::macd(c, 12, 26, 9);
    let dif: Vec<_> = m.iter().map(|p| p.map(|p| p.dif)).collect();
    let dea: Vec<_> = m.iter().map(|p| p.map(|p| p.dea)).collect();
    let hist: Vec<_> = m.iter().map(|p| p.map(|p| p.hist)).collect();
    // Our MACD point exists only once DEA is warm; compare DIF where the reference has DEA.
    let ref_dea = reference(&v, "macd_dea");
    let ref_dif: Vec<_> = reference(&v, "macd_dif")
        .into_iter()
        .zip(&ref_dea)
        .map(|(d, e)| e.and(d))
        .collect();
    assert_close("macd_dif", &dif, &ref_dif);
    assert_close("macd_dea", &dea, &ref_dea);
    assert_close("macd_hist", &hist, &reference(&v, "macd_hist"));
    let b = indicators::bollinger(c, 20, 2.0);
    let up: Vec<_> = b.iter().map(|x| x.map(|x| x.upper)).collect();
    let mid: Vec<_> = b.iter().map(|x| x.map(|x| x.middle)).collect();
    let lo: Vec<_> = b.iter().map(|x| x.map(|x| x.lower)).collect();
    assert_close("boll_upper", &up, &reference(&v, "boll_upper"));
    assert_close("boll_middle", &mid, &reference(&v, "boll_middle"));
    assert_close("boll_lower", &lo, &reference(&v, "boll_lower"));
    let atr = indicators::atr(&s.high, &s.low, c, 14);
    assert_close("atr14", &atr, &reference(&v, "atr14"));
    let vr = indicators::volume_ratio(&s.volume, 20);
    assert_close("volume_ratio20", &vr, &reference(&v, "volume_ratio20"));
}

#[test]
fn the_snapshot_reports_the_last_reference_values() {
    let (candles, v) = fixture();
    let snap = indicators::snapshot(&candles);
    let last = |name: &str| *reference(&v, name).last().unwrap();
    let near = |a: Option<f64>, b: Option<f64>| {
        let (a, b) = (a.unwrap(), b.unwrap());
        assert!((a - b).abs() < 1e-9 * b.abs().max(1.0), "{a} vs {b}");
    };
    near(snap.ma20, last("sma20"));
    near(snap.rsi14, last("rsi14"));
    near(snap.atr14, last("atr14"));
    near(snap.macd.map(|m| m.hist), last("macd_hist"));
    near(snap.bollinger.map(|b| b.upper), last("boll_upper"));
    near(snap.volume_ratio, last("volume_ratio20"));
    near(snap.support, v["last"]["support20"].as_f64());
    near(snap.resistance, v["last"]["resistance20"].as_f64());
    assert_eq!(snap.bars, 120);
}

#[test]
fn a_short_series_leaves_fields_empty_instead_of_inventing_them() {
    let (candles, _) = fixture();
    let snap = indicators::snapshot(&candles[..10]);
    assert!(snap.ma5.is_some());
    assert!(snap.ma20.is_none() && snap.rsi14.is_none() && snap.macd.is_none());
    assert!(snap.support.is_none());
}
