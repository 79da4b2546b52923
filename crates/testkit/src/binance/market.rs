//! Public market data on the mock, read from its own order book so quotes and fills agree.

use rust_decimal::Decimal;
use serde_json::{Value, json};

use super::routes::param;
use super::state::{MIN_NOTIONAL, State, symbol_rules};

fn interval_ms(s: &str) -> Option<i64> {
    let (n, unit) = s.split_at(s.len().checked_sub(1)?);
    let n: i64 = n.parse().ok()?;
    let unit_ms = match unit {
        "m" => 60_000,
        "h" => 3_600_000,
        "d" => 86_400_000,
        "w" => 604_800_000,
        _ => return None,
    };
    Some(n * unit_ms)
}

pub(crate) fn public(
    st: &mut State,
    path: &str,
    symbol: &str,
    p: &[(String, String)],
    now: i64,
) -> Option<Value> {
    let book = st.book(symbol).clone();
    let best_bid = book.bids.first().map(|l| l.0).unwrap_or(book.mid);
    let best_ask = book.asks.first().map(|l| l.0).unwrap_or(book.mid);
    match path {
        "/fapi/v1/ticker/bookTicker" => Some(json!({
            "symbol": symbol, "bidPrice": best_bid.to_string(), "bidQty": "1",
            "askPrice": best_ask.to_string(), "askQty": "1", "time": now,
        })),
        "/fapi/v1/ticker/24hr" => Some(json!({
            "symbol": symbol, "lastPrice": book.mid.to_string(), "volume": "12345.678",
            "closeTime": now,
        })),
        "/fapi/v1/premiumIndex" => {
            let (rate, next) = st
                .funding
                .get(symbol)
                .copied()
                .unwrap_or((Decimal::new(1, 4), (now / 28_800_000 + 1) * 28_800_000));
            Some(json!({
                "symbol": symbol, "markPrice": book.mid.to_string(),
                "indexPrice": book.mid.to_string(), "lastFundingRate": format!("{rate:.8}"),
                "nextFundingTime": next, "time": now,
            }))
        }
        "/fapi/v1/depth" => {
            let limit: usize = param(p, "limit").and_then(|l| l.parse().ok()).unwrap_or(10);
            let side = |levels: &[(Decimal, Decimal)]| {
                levels
                    .iter()
                    .take(limit)
                    .map(|(p, q)| json!([p.to_string(), q.to_string()]))
                    .collect::<Vec<_>>()
            };
            Some(json!({"lastUpdateId": now, "E": now, "T": now,
                        "bids": side(&book.bids), "asks": side(&book.asks)}))
        }
        "/fapi/v1/klines" => {
            let step = interval_ms(param(p, "interval").unwrap_or("1m"))?;
            let limit: i64 = param(p, "limit")
                .and_then(|l| l.parse().ok())
                .unwrap_or(500);
            let end = param(p, "endTime")
                .and_then(|e| e.parse().ok())
                .unwrap_or(now);
            let last = end / step * step;
            let first = match param(p, "startTime").and_then(|s| s.parse::<i64>().ok()) {
                Some(s) => (s + step - 1) / step * step,
                None => last - (limit - 1) * step,
            };
            // A gentle zig-zag around the mid: enough for indicator and parsing tests.
            let rows: Vec<Value> = (0..limit)
                .map(|i| first + i * step)
                .filter(|t| *t <= last)
                .filter(|t| {
                    !st.kline_gaps
                        .iter()
                        .any(|(s, from, to)| s == symbol && (*from..*to).contains(t))
                })
                .map(|t| {
                    let wiggle = Decimal::from((t / step) % 7 - 3);
                    let open = book.mid + wiggle;
                    let close = book.mid - wiggle;
                    json!([
                        t,
                        open.to_string(),
                        (open.max(close) + Decimal::ONE).to_string(),
                        (open.min(close) - Decimal::ONE).to_string(),
                        close.to_string(),
                        "10.5",
                        t + step - 1,
                        "0",
                        10,
                        "5",
                        "0",
                        "0"
                    ])
                })
                .collect();
            Some(Value::Array(rows))
        }
        "/fapi/v1/exchangeInfo" => {
            let symbols: Vec<Value> = ["BTCUSDT", "ETHUSDT", "DOGEUSDT"]
                .iter()
                .map(|s| {
                    let (price_dp, qty_dp, _) = symbol_rules(s);
                    let tick = Decimal::new(1, price_dp).to_string();
                    let step = Decimal::new(1, qty_dp).to_string();
                    json!({"symbol": s, "status": "TRADING", "filters": [
                        {"filterType": "PRICE_FILTER", "tickSize": tick},
                        {"filterType": "LOT_SIZE", "stepSize": step, "minQty": step},
                        {"filterType": "MIN_NOTIONAL", "notional": MIN_NOTIONAL.to_string()},
                    ]})
                })
                .collect();
            Some(json!({"timezone": "UTC", "serverTime": now, "symbols": symbols}))
        }
        _ => None,
    }
}
