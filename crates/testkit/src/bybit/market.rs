//! Public endpoints on the mock, read from its own order books so quotes and fills agree:
//! server time, instruments, tickers, order book and klines, in the shapes of Bybit's
//! "Response Example"s (Bybit API v5 docs, "Market",
//! https://bybit-exchange.github.io/docs/v5/market/time). An unknown symbol is an empty
//! instrument list and 10001 elsewhere: the docs say neither, so both are the mock's choice.

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

/// An interval's length and the origin its candles align to (weeks open on Mondays,
/// 00:00 UTC; the epoch was a Thursday).
fn interval_ms(interval: &str) -> Option<(i64, i64)> {
    const MIN: i64 = 60_000;
    Some(match interval {
        "1" => (MIN, 0),
        "3" => (3 * MIN, 0),
        "5" => (5 * MIN, 0),
        "15" => (15 * MIN, 0),
        "30" => (30 * MIN, 0),
        "60" => (60 * MIN, 0),
        "120" => (120 * MIN, 0),
        "240" => (240 * MIN, 0),
        "360" => (360 * MIN, 0),
        "720" => (720 * MIN, 0),
        "D" => (1_440 * MIN, 0),
        "W" => (10_080 * MIN, 4 * 86_400_000),
        _ => return None,
    })
}

pub(crate) fn handle(
    st: &mut State,
    path: &str,
    p: &[(String, String)],
    now: i64,
) -> Result<Value, Fault> {
    if path == "/v5/market/time" {
        return Ok(json!({"timeSecond": (now / 1000).to_string(),
            "timeNano": (i128::from(now) * 1_000_000).to_string()}));
    }
    let category = param(p, "category");
    if path == "/v5/market/instruments-info" {
        if category.is_none() {
            return Err(Fault::param("category"));
        }
        let list: Vec<Value> = if category == Some("linear") {
            st.instruments
                .iter()
                .filter(|i| param(p, "symbol").is_none_or(|s| s == i.symbol))
                .map(|i| {
                    json!({
                        "symbol": i.symbol, "contractType": "LinearPerpetual", "status": "Trading",
                        "baseCoin": i.base, "quoteCoin": i.settle, "launchTime": "1585526400000",
                        "deliveryTime": "0", "deliveryFeeRate": "", "priceScale": i.tick.scale().to_string(),
                        "leverageFilter": {"minLeverage": "1", "maxLeverage": "100.00", "leverageStep": "0.01"},
                        "priceFilter": {"minPrice": i.tick.to_string(), "maxPrice": "1999999.80", "tickSize": i.tick.to_string()},
                        "lotSizeFilter": {"maxOrderQty": "1190.000", "minOrderQty": i.min_qty.to_string(),
                            "qtyStep": i.step.to_string(), "postOnlyMaxOrderQty": "1190.000",
                            "maxMktOrderQty": "500.000", "minNotionalValue": i.min_notional.to_string()},
                        "unifiedMarginTrade": true, "fundingInterval": 480, "settleCoin": i.settle,
                        "copyTrading": "both", "upperFundingRate": "0.00375", "lowerFundingRate": "-0.00375",
                        "isPreListing": false, "preListingInfo": null, "symbolType": "",
                    })
                })
                .collect()
        } else {
            Vec::new()
        };
        return Ok(json!({"category": category, "list": list, "nextPageCursor": ""}));
    }
    if category.is_some_and(|c| c != "linear") {
        return Err(Fault::param("category"));
    }
    let symbol = param(p, "symbol").ok_or_else(|| Fault::param("symbol"))?;
    let inst = st
        .instrument(symbol)
        .ok_or_else(|| Fault::param("symbol invalid"))?;
    let book = st.book(&inst).clone();
    let best = |levels: &[(Decimal, Decimal)]| {
        levels.first().copied().unwrap_or((book.mid, Decimal::ZERO))
    };
    match path {
        "/v5/market/tickers" => {
            let (bid, bid_sz) = best(&book.bids);
            let (ask, ask_sz) = best(&book.asks);
            let mid = book.mid.to_string();
            let next_funding = (now / 28_800_000 + 1) * 28_800_000;
            Ok(json!({"category": "linear", "list": [{
                "symbol": symbol, "lastPrice": mid, "indexPrice": mid, "markPrice": mid,
                "prevPrice24h": mid, "price24hPcnt": "0", "highPrice24h": mid, "lowPrice24h": mid,
                "prevPrice1h": mid, "openInterest": "1000", "openInterestValue": "1000",
                "turnover24h": (Decimal::new(12_345_678, 3) * book.mid).to_string(),
                "volume24h": "12345.678", "fundingRate": "0.0001",
                "nextFundingTime": next_funding.to_string(), "predictedDeliveryPrice": "",
                "basisRate": "", "deliveryFeeRate": "", "deliveryTime": "0",
                "ask1Size": ask_sz.to_string(), "bid1Price": bid.to_string(),
                "ask1Price": ask.to_string(), "bid1Size": bid_sz.to_string(), "basis": "",
                "fundingIntervalHour": "8", "fundingCap": "0.005",
            }]}))
        }
        "/v5/market/orderbook" => {
            let depth: usize = param(p, "limit")
                .map(|l| l.parse().map_err(|_| Fault::param("limit")))
                .transpose()?
                .unwrap_or(25);
            let side = |levels: &[(Decimal, Decimal)]| {
                levels
                    .iter()
                    .take(depth)
                    .map(|(px, sz)| json!([px.to_string(), sz.to_string()]))
                    .collect::<Vec<_>>()
            };
            Ok(
                json!({"s": symbol, "b": side(&book.bids), "a": side(&book.asks),
                "ts": now, "u": now, "seq": now, "cts": now}),
            )
        }
        "/v5/market/kline" => {
            let (step, origin) = interval_ms(param(p, "interval").unwrap_or_default())
                .ok_or_else(|| Fault::param("interval"))?;
            let number = |name: &str| {
                param(p, name)
                    .map(|v| v.parse::<i64>().map_err(|_| Fault::param(name)))
                    .transpose()
            };
            let limit = number("limit")?.unwrap_or(200);
            if !(1..=1000).contains(&limit) {
                return Err(Fault::param("limit"));
            }
            let align = |t: i64| (t - origin).div_euclid(step) * step + origin;
            // Newest first, from the candle holding `end` (or the current one) back to `start`.
            let newest = align(number("end")?.unwrap_or(now).min(now));
            let oldest = number("start")?.map(align).unwrap_or(i64::MIN);
            let rows: Vec<Value> = (0..limit)
                .map(|i| newest - i * step)
                .filter(|t| *t >= oldest)
                .map(|t| {
                    // A gentle zig-zag around the mid: enough for indicator and parsing tests.
                    let wiggle = Decimal::from((t / step).rem_euclid(7) - 3) * inst.tick;
                    let (open, close) = (book.mid + wiggle, book.mid - wiggle);
                    let volume = Decimal::from(10) * inst.step.max(Decimal::new(1, 3));
                    json!([
                        t.to_string(),
                        open.to_string(),
                        (open.max(close) + inst.tick).to_string(),
                        (open.min(close) - inst.tick).to_string(),
                        close.to_string(),
                        volume.to_string(),
                        (volume * book.mid).to_string(),
                    ])
                })
                .collect();
            Ok(json!({"symbol": symbol, "category": "linear", "list": rows}))
        }
        _ => Err(Fault::Error {
            code: 10017,
            msg: format!("mock: no endpoint GET {path}"),
        }),
    }
}
