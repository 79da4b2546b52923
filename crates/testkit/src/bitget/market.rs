//! Public endpoints on the mock, read from its own order books so quotes and fills agree:
//! server time, contract config, ticker, merged depth, candles and the current funding rate,
//! in the shapes of Bitget's "Response Example"s (Bitget API docs, "Common" → "Get Server
//! Time" and "Futures" → "Market", https://www.bitget.com/api-doc/contract/market/…).
//!
//! Candles: `startTime`/`endTime` select open times `startTime ≤ t ≤ endTime` (the docs say
//! "after" and "before" without saying whether the ends count: the mock counts both), the
//! range may not pass 90 days (00001), the latest `limit` of them are answered oldest first;
//! `candles` serves each granularity's documented reach only, `history-candles` any finished
//! candle.

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

const MIN: i64 = 60_000;
const DAY: i64 = 86_400_000;

/// A granularity's length, the origin its candles align to (weeks open on Mondays, 00:00
/// UTC), and how far back `candles` serves it.
fn granularity(g: &str) -> Option<(i64, i64, Option<i64>)> {
    Some(match g {
        "1m" => (MIN, 0, Some(30 * DAY)),
        "3m" => (3 * MIN, 0, Some(30 * DAY)),
        "5m" => (5 * MIN, 0, Some(30 * DAY)),
        "15m" => (15 * MIN, 0, Some(52 * DAY)),
        "30m" => (30 * MIN, 0, Some(62 * DAY)),
        "1H" => (60 * MIN, 0, Some(83 * DAY)),
        "2H" => (120 * MIN, 0, Some(120 * DAY)),
        "4H" => (240 * MIN, 0, Some(240 * DAY)),
        "6Hutc" => (360 * MIN, 0, Some(360 * DAY)),
        "12Hutc" => (720 * MIN, 0, None),
        "1Dutc" => (DAY, 0, None),
        "1Wutc" => (7 * DAY, 4 * DAY, None),
        _ => return None,
    })
}

pub(crate) fn handle(
    st: &mut State,
    path: &str,
    p: &[(String, String)],
    now: i64,
) -> Result<Value, Fault> {
    if path == "/api/v2/public/time" {
        return Ok(json!({"serverTime": now.to_string()}));
    }
    match param(p, "productType") {
        Some(t) if t.eq_ignore_ascii_case("USDT-FUTURES") => {}
        Some(_) => return Err(Fault::parameter("productType")),
        None => return Err(Fault::empty("productType")),
    }
    if path == "/api/v2/mix/market/contracts" {
        return Ok(Value::Array(
            st.contracts
                .iter()
                .filter(|c| param(p, "symbol").is_none_or(|s| s.eq_ignore_ascii_case(c.symbol)))
                .map(|c| {
                    json!({
                        "symbol": c.symbol, "baseCoin": c.base, "quoteCoin": "USDT",
                        "buyLimitPriceRatio": "0.9", "sellLimitPriceRatio": "0.9",
                        "feeRateUpRatio": "0.1", "makerFeeRate": "0.0002", "takerFeeRate": "0.0006",
                        "openCostUpRatio": "0.1", "supportMarginCoins": ["USDT"],
                        "minTradeNum": c.min_trade_num.to_string(),
                        "priceEndStep": c.end_step.to_string(),
                        "volumePlace": c.volume_place.to_string(),
                        "pricePlace": c.price_place.to_string(),
                        "sizeMultiplier": c.size_multiplier.to_string(), "symbolType": "perpetual",
                        "minTradeUSDT": c.min_trade_usdt.to_string(), "maxSymbolOrderNum": "999999",
                        "maxProductOrderNum": "999999", "maxPositionNum": "150",
                        "symbolStatus": "normal", "offTime": "-1", "limitOpenTime": "-1",
                        "deliveryTime": "", "deliveryStartTime": "", "launchTime": "",
                        "fundInterval": "8", "minLever": "1", "maxLever": "125",
                        "posLimit": "0.05", "maintainTime": "", "maxMarketOrderQty": "1000000",
                        "maxOrderQty": "1000000",
                    })
                })
                .collect(),
        ));
    }
    let symbol = param(p, "symbol").ok_or_else(|| Fault::empty("symbol"))?;
    let c = st.contract(symbol).ok_or_else(|| Fault::bitget(40102))?;
    let book = st.book(&c).clone();
    let best = |levels: &[(Decimal, Decimal)]| {
        levels.first().copied().unwrap_or((book.mid, Decimal::ZERO))
    };
    match path {
        "/api/v2/mix/market/ticker" => {
            let (bid, bid_sz) = best(&book.bids);
            let (ask, ask_sz) = best(&book.asks);
            let mid = book.mid.to_string();
            Ok(json!([{
                "symbol": c.symbol, "lastPr": mid, "askPr": ask.to_string(), "bidPr": bid.to_string(),
                "bidSz": bid_sz.to_string(), "askSz": ask_sz.to_string(), "high24h": mid,
                "low24h": mid, "ts": now.to_string(), "change24h": "0", "baseVolume": "12345.678",
                "quoteVolume": (Decimal::new(12_345_678, 3) * book.mid).to_string(),
                "usdtVolume": (Decimal::new(12_345_678, 3) * book.mid).to_string(),
                "openUtc": mid, "changeUtc24h": "0", "indexPrice": mid, "fundingRate": "0.0001",
                "holdingAmount": "1000", "deliveryStartTime": "", "deliveryTime": "",
                "deliveryStatus": "", "open24h": mid, "markPrice": mid,
            }]))
        }
        "/api/v2/mix/market/merge-depth" => {
            let depth = match param(p, "limit") {
                None => 100,
                Some("max") => usize::MAX,
                Some(l @ ("1" | "5" | "15" | "50" | "100")) => l.parse().unwrap_or(100),
                Some(_) => return Err(Fault::parameter("limit")),
            };
            // The docs' example sends prices and sizes as numbers.
            let side = |levels: &[(Decimal, Decimal)]| {
                levels
                    .iter()
                    .take(depth)
                    .map(|(px, sz)| {
                        json!([
                            px.to_string().parse::<f64>().unwrap_or_default(),
                            sz.to_string().parse::<f64>().unwrap_or_default()
                        ])
                    })
                    .collect::<Vec<_>>()
            };
            Ok(
                json!({"asks": side(&book.asks), "bids": side(&book.bids), "ts": now.to_string(),
                      "scale": c.tick().to_string(), "precision": "scale0", "isMaxPrecision": "NO"}),
            )
        }
        "/api/v2/mix/market/candles" | "/api/v2/mix/market/history-candles" => {
            let history = path.ends_with("history-candles");
            let (step, origin, reach) = param(p, "granularity")
                .and_then(granularity)
                .ok_or_else(|| Fault::parameter("granularity"))?;
            let max = if history { 200 } else { 1000 };
            let limit: i64 = param(p, "limit")
                .and_then(|l| l.parse().ok())
                .unwrap_or(100);
            let limit = limit.clamp(1, max);
            let align = |t: i64| (t - origin).div_euclid(step) * step + origin;
            let num = |name: &str| param(p, name).and_then(|v| v.parse::<i64>().ok());
            let (start, end) = (num("startTime"), num("endTime").unwrap_or(now));
            if let Some(s) = start
                && end - s > 90 * DAY
            {
                return Err(Fault::Error {
                    http_status: 400,
                    code: "00001".into(),
                    msg: "startTime and endTime interval cannot be greater than 90 days".into(),
                });
            }
            let current = align(now);
            let newest = if history { current - step } else { current }.min(align(end));
            let oldest_served = match (history, reach) {
                (false, Some(r)) => align(now - r),
                _ => i64::MIN,
            };
            let mut rows: Vec<Value> = (0..limit)
                .map(|i| newest - i * step)
                .filter(|t| *t >= oldest_served && start.is_none_or(|s| *t >= s))
                .map(|t| {
                    // A gentle zig-zag around the mid: enough for indicator and parsing tests.
                    let wiggle = Decimal::from((t / step).rem_euclid(7) - 3) * c.tick();
                    let (open, close) = (book.mid + wiggle, book.mid - wiggle);
                    let volume = Decimal::from(10) * c.min_trade_num;
                    json!([
                        t.to_string(),
                        open.to_string(),
                        (open.max(close) + c.tick()).to_string(),
                        (open.min(close) - c.tick()).to_string(),
                        close.to_string(),
                        volume.to_string(),
                        (volume * book.mid).to_string(),
                    ])
                })
                .collect();
            rows.reverse();
            Ok(Value::Array(rows))
        }
        "/api/v2/mix/market/current-fund-rate" => {
            let next = (now / 28_800_000 + 1) * 28_800_000;
            Ok(json!([{
                "symbol": c.symbol, "fundingRate": "0.0001", "fundingRateInterval": "8",
                "nextUpdate": next.to_string(), "minFundingRate": "-0.003", "maxFundingRate": "0.003",
            }]))
        }
        _ => Err(Fault::Error {
            http_status: 404,
            code: "40404".into(),
            msg: format!("Request URL NOT FOUND (mock: no endpoint GET {path})"),
        }),
    }
}
