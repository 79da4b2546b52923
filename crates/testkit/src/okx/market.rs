//! Public endpoints on the mock, read from its own order books so quotes and fills agree:
//! time, instruments, ticker, mark price, order book, candles and funding rate, in the shapes
//! of OKX's "Response Example"s (OKX API v5 docs, "Public Data" and "Order Book Trading" →
//! "Market Data", https://www.okx.com/docs-v5/en/).

use rust_decimal::Decimal;
use serde_json::{Value, json};

use super::fault::Fault;
use super::state::State;

fn param<'a>(p: &'a [(String, String)], name: &str) -> Option<&'a str> {
    p.iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
        .filter(|v| !v.is_empty())
}

/// A bar's length and the origin its candles align to (weeks open on Mondays, 00:00 UTC).
fn bar_ms(bar: &str) -> Option<(i64, i64)> {
    const MIN: i64 = 60_000;
    Some(match bar {
        "1m" => (MIN, 0),
        "3m" => (3 * MIN, 0),
        "5m" => (5 * MIN, 0),
        "15m" => (15 * MIN, 0),
        "30m" => (30 * MIN, 0),
        "1H" => (60 * MIN, 0),
        "2H" => (120 * MIN, 0),
        "4H" => (240 * MIN, 0),
        "6Hutc" => (360 * MIN, 0),
        "12Hutc" => (720 * MIN, 0),
        "1Dutc" => (1_440 * MIN, 0),
        "1Wutc" => (10_080 * MIN, 4 * 86_400_000),
        _ => return None,
    })
}

/// `candles` serves only the latest 1,440 bars; `history-candles` any.
const RECENT_BARS: i64 = 1_440;

pub(crate) fn handle(
    st: &mut State,
    path: &str,
    p: &[(String, String)],
    now: i64,
) -> Result<Vec<Value>, Fault> {
    if path == "/api/v5/public/time" {
        return Ok(vec![json!({"ts": now.to_string()})]);
    }
    if path == "/api/v5/public/instruments" {
        if param(p, "instType").is_none() {
            return Err(Fault::empty("instType"));
        }
        if param(p, "instType") != Some("SWAP") {
            return Ok(Vec::new());
        }
        return Ok(st
            .instruments
            .iter()
            .filter(|i| param(p, "instId").is_none_or(|id| id == i.inst_id))
            .map(|i| {
                let base = i.inst_id.split('-').next().unwrap_or_default();
                let family = i.inst_id.trim_end_matches("-SWAP");
                json!({
                    "instType": "SWAP", "instId": i.inst_id, "uly": family, "instFamily": family,
                    "baseCcy": "", "quoteCcy": "", "settleCcy": i.settle, "ctVal": i.ct_val.to_string(),
                    "ctMult": "1", "ctValCcy": if i.ct_type == "inverse" { "USD" } else { base },
                    "ctType": i.ct_type, "lotSz": i.lot.to_string(), "minSz": i.min.to_string(),
                    "tickSz": i.tick.to_string(), "lever": "100", "state": "live",
                    "listTime": "1606468572000", "expTime": "", "maxMktSz": "10000",
                })
            })
            .collect());
    }
    let inst_id = param(p, "instId").ok_or_else(|| Fault::empty("instId"))?;
    let inst = st.instrument(inst_id).ok_or_else(|| Fault::okx(51001))?;
    let book = st.book(&inst).clone();
    let best = |levels: &[(Decimal, Decimal)]| {
        levels.first().copied().unwrap_or((book.mid, Decimal::ZERO))
    };
    match path {
        "/api/v5/market/ticker" => {
            let (bid, bid_sz) = best(&book.bids);
            let (ask, ask_sz) = best(&book.asks);
            Ok(vec![json!({
                "instType": "SWAP", "instId": inst_id, "last": book.mid.to_string(), "lastSz": "1",
                "askPx": ask.to_string(), "askSz": ask_sz.to_string(), "bidPx": bid.to_string(),
                "bidSz": bid_sz.to_string(), "open24h": book.mid.to_string(),
                "high24h": book.mid.to_string(), "low24h": book.mid.to_string(),
                "volCcy24h": "12345.678", "vol24h": (Decimal::new(12_345_678, 3) / inst.ct_val).to_string(),
                "sodUtc0": book.mid.to_string(), "sodUtc8": book.mid.to_string(), "ts": now.to_string(),
            })])
        }
        "/api/v5/public/mark-price" => Ok(vec![json!({
            "instType": "SWAP", "instId": inst_id, "markPx": book.mid.to_string(), "ts": now.to_string(),
        })]),
        "/api/v5/market/books" => {
            let depth: usize = param(p, "sz").and_then(|s| s.parse().ok()).unwrap_or(1);
            let side = |levels: &[(Decimal, Decimal)]| {
                levels
                    .iter()
                    .take(depth)
                    .map(|(px, sz)| json!([px.to_string(), sz.to_string(), "0", "1"]))
                    .collect::<Vec<_>>()
            };
            Ok(vec![
                json!({"asks": side(&book.asks), "bids": side(&book.bids),
                           "ts": now.to_string(), "seqId": now}),
            ])
        }
        "/api/v5/market/candles" | "/api/v5/market/history-candles" => {
            let (step, origin) =
                bar_ms(param(p, "bar").unwrap_or("1m")).ok_or_else(|| Fault::parameter("bar"))?;
            let limit: i64 = param(p, "limit")
                .and_then(|l| l.parse().ok())
                .unwrap_or(100);
            let limit = limit.clamp(1, 300);
            let align = |t: i64| (t - origin).div_euclid(step) * step + origin;
            // Newest first: from the last candle before `after` (exclusive), or the current one.
            let newest = match param(p, "after").and_then(|a| a.parse::<i64>().ok()) {
                Some(after) => align(after - 1),
                None => align(now),
            }
            .min(align(now));
            let oldest_served = if path == "/api/v5/market/candles" {
                align(now) - (RECENT_BARS - 1) * step
            } else {
                i64::MIN
            };
            let rows = (0..limit)
                .map(|i| newest - i * step)
                .filter(|t| *t >= oldest_served)
                .map(|t| {
                    // A gentle zig-zag around the mid: enough for indicator and parsing tests.
                    let wiggle = Decimal::from((t / step).rem_euclid(7) - 3) * inst.tick;
                    let (open, close) = (book.mid + wiggle, book.mid - wiggle);
                    let contracts = Decimal::from(10);
                    json!([
                        t.to_string(),
                        open.to_string(),
                        (open.max(close) + inst.tick).to_string(),
                        (open.min(close) - inst.tick).to_string(),
                        close.to_string(),
                        contracts.to_string(),
                        (contracts * inst.ct_val).to_string(),
                        (contracts * inst.ct_val * book.mid).to_string(),
                        if t == align(now) { "0" } else { "1" },
                    ])
                })
                .collect();
            Ok(rows)
        }
        "/api/v5/public/funding-rate" => {
            let next = (now / 28_800_000 + 1) * 28_800_000;
            Ok(vec![json!({
                "instType": "SWAP", "instId": inst_id, "fundingRate": "0.0001",
                "fundingTime": next.to_string(), "nextFundingTime": (next + 28_800_000).to_string(),
                "method": "current_period", "formulaType": "withRate", "minFundingRate": "-0.00375",
                "maxFundingRate": "0.00375", "settState": "settled", "ts": now.to_string(),
            })])
        }
        _ => Err(Fault::Error {
            http_status: 404,
            code: "50005".into(),
            msg: format!("mock: no endpoint GET {path}"),
        }),
    }
}
