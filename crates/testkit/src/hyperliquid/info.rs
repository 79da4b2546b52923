//! `/info` on the mock, read from its own books so quotes, fills and accounts agree. Shapes:
//! the reference SDK's recorded answers (`tests/cassettes/info_test`: `meta`, `l2Book`,
//! `candleSnapshot`, `clearinghouseState`, `frontendOpenOrders`, `userFillsByTime`,
//! `userRole`, `extraAgents`) and the docs' "Info endpoint" (`orderStatus`, `exchangeStatus`,
//! `metaAndAssetCtxs`, `allMids`). An unknown `type` is HTTP 422 "Failed to deserialize the
//! JSON body into the target type", as Hyperliquid answers a body it cannot read.

use rust_decimal::Decimal;
use serde_json::{Value, json};

use super::state::{Coin, DELISTED, State};

/// Why a request could not be read: HTTP 422.
pub(crate) const UNREADABLE: &str = "Failed to deserialize the JSON body into the target type";

fn user_of(body: &Value) -> Result<String, String> {
    let user = body["user"].as_str().ok_or(UNREADABLE)?;
    let hex = user.strip_prefix("0x").ok_or(UNREADABLE)?;
    if hex.len() != 40 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(UNREADABLE.into());
    }
    Ok(user.to_ascii_lowercase())
}

fn meta(st: &State) -> Value {
    let universe: Vec<Value> = st
        .coins
        .iter()
        .map(|c| {
            let mut row =
                json!({"name": c.name, "szDecimals": c.sz_decimals, "maxLeverage": c.max_leverage});
            if DELISTED.contains(&c.name) {
                row["isDelisted"] = json!(true);
                row["onlyIsolated"] = json!(true);
            }
            row
        })
        .collect();
    json!({"universe": universe})
}

fn ctx(st: &mut State, coin: &Coin) -> Value {
    let mid = st.mark(coin);
    json!({"funding": coin.funding.to_string(), "openInterest": "1000.0", "prevDayPx": mid.to_string(),
        "dayNtlVlm": (mid * Decimal::from(5_000)).to_string(), "premium": "0.0", "oraclePx": mid.to_string(),
        "markPx": mid.to_string(), "midPx": mid.to_string(),
        "impactPxs": [mid.to_string(), mid.to_string()], "dayBaseVlm": "5000.0"})
}

/// `clearinghouseState` of `user`: an address the mock does not know (an agent's, say) is an
/// empty account, as on Hyperliquid.
fn clearinghouse(st: &mut State, user: &str, now: i64) -> Value {
    let (value, used, notional) = st.summary(user);
    let positions = st
        .users
        .get(user)
        .map(|u| u.positions.clone())
        .unwrap_or_default();
    let mut rows = Vec::new();
    let mut names: Vec<&String> = positions.keys().collect();
    names.sort();
    for name in names {
        let p = &positions[name];
        let Some((_, coin)) = st.coin(name) else {
            continue;
        };
        let mark = st.mark(&coin);
        let position_value = p.szi.abs() * mark;
        let margin = position_value / Decimal::from(p.leverage.max(1));
        let mut leverage =
            json!({"type": if p.cross { "cross" } else { "isolated" }, "value": p.leverage});
        if !p.cross {
            leverage["rawUsd"] = json!(margin.to_string());
        }
        rows.push(json!({"position": {"coin": name, "entryPx": p.entry_px.to_string(), "leverage": leverage,
            "liquidationPx": null, "marginUsed": margin.to_string(), "maxTradeSzs": ["0.0", "0.0"],
            "positionValue": position_value.to_string(), "returnOnEquity": "0.0", "szi": p.szi.to_string(),
            "unrealizedPnl": ((mark - p.entry_px) * p.szi).to_string()}, "type": "oneWay"}));
    }
    let raw = st.users.get(user).map(|u| u.balance).unwrap_or_default();
    let summary = json!({"accountValue": value.to_string(), "totalMarginUsed": used.to_string(),
        "totalNtlPos": notional.to_string(), "totalRawUsd": raw.to_string()});
    json!({"assetPositions": rows, "marginSummary": summary, "crossMarginSummary": summary,
        "crossMaintenanceMarginUsed": (used / Decimal::TWO).to_string(),
        "withdrawable": (value - used).max(Decimal::ZERO).to_string(), "time": now})
}

fn candles(st: &mut State, req: &Value) -> Result<Value, String> {
    let coin_name = req["coin"].as_str().ok_or(UNREADABLE)?;
    let step = match req["interval"].as_str().ok_or(UNREADABLE)? {
        "1m" => 60_000,
        "3m" => 180_000,
        "5m" => 300_000,
        "15m" => 900_000,
        "30m" => 1_800_000,
        "1h" => 3_600_000,
        "2h" => 7_200_000,
        "4h" => 14_400_000,
        "8h" => 28_800_000,
        "12h" => 43_200_000,
        "1d" => 86_400_000,
        "3d" => 259_200_000,
        "1w" => 604_800_000,
        _ => return Err(UNREADABLE.into()),
    };
    let (start, end) = (
        req["startTime"].as_i64().ok_or(UNREADABLE)?,
        req["endTime"].as_i64().unwrap_or(i64::MAX),
    );
    let Some((_, coin)) = st.coin(coin_name) else {
        return Ok(json!([]));
    };
    let mid = st.mark(&coin);
    let interval = req["interval"].clone();
    let origin = if step == 604_800_000 {
        4 * 86_400_000
    } else {
        0
    };
    let mut t = (start - origin).div_euclid(step) * step + origin;
    if t < start {
        t += step;
    }
    let mut out = Vec::new();
    // A gentle saw around the mid, the same for the same open time.
    while t <= end && out.len() < 5_000 {
        let wobble = Decimal::new(t.div_euclid(step).rem_euclid(7) - 3, 3);
        let close = mid * (Decimal::ONE + wobble);
        out.push(
            json!({"t": t, "T": t + step - 1, "s": coin.name, "i": interval,
            "o": mid.to_string(), "c": close.to_string(), "h": mid.max(close).to_string(),
            "l": mid.min(close).to_string(), "v": "12.5", "n": 10}),
        );
        t += step;
    }
    Ok(Value::Array(out))
}

/// The answer to `body`, or the message of a 422.
pub(crate) fn handle(st: &mut State, body: &Value, now: i64) -> Result<Value, String> {
    match body["type"].as_str().unwrap_or_default() {
        "exchangeStatus" => Ok(json!({"time": now, "specialStatuses": null})),
        "meta" => Ok(meta(st)),
        "metaAndAssetCtxs" => {
            let coins = st.coins.clone();
            let ctxs: Vec<Value> = coins.iter().map(|c| ctx(st, c)).collect();
            Ok(json!([meta(st), ctxs]))
        }
        "allMids" => {
            let coins = st.coins.clone();
            let mut mids = serde_json::Map::new();
            for c in coins.iter().filter(|c| !DELISTED.contains(&c.name)) {
                mids.insert(c.name.to_string(), json!(st.mark(c).to_string()));
            }
            Ok(Value::Object(mids))
        }
        "l2Book" => {
            let name = body["coin"].as_str().ok_or(UNREADABLE)?;
            let Some((_, coin)) = st.coin(name) else {
                return Ok(Value::Null);
            };
            let book = st.book(&coin).clone();
            let side = |levels: &[(Decimal, Decimal)]| -> Vec<Value> {
                levels
                    .iter()
                    .take(20)
                    .map(|(px, sz)| json!({"px": px.to_string(), "sz": sz.to_string(), "n": 1}))
                    .collect()
            };
            Ok(json!({"coin": name, "time": now, "levels": [side(&book.bids), side(&book.asks)]}))
        }
        "candleSnapshot" => candles(st, &body["req"]),
        "clearinghouseState" => Ok(clearinghouse(st, &user_of(body)?, now)),
        "openOrders" | "frontendOpenOrders" => {
            let user = user_of(body)?;
            let frontend = body["type"] == "frontendOpenOrders";
            Ok(Value::Array(
                st.orders
                    .iter()
                    .filter(|o| o.user == user && o.is_open())
                    .map(|o| {
                        if frontend {
                            o.to_json()
                        } else {
                            json!({"coin": o.coin, "limitPx": o.limit_px.to_string(), "oid": o.oid,
                                "side": o.side, "sz": o.sz.to_string(), "timestamp": o.timestamp})
                        }
                    })
                    .collect(),
            ))
        }
        "orderStatus" => {
            let user = user_of(body)?;
            let found = match &body["oid"] {
                Value::Number(n) => {
                    let oid = n.as_u64().ok_or(UNREADABLE)?;
                    st.orders.iter().find(|o| o.user == user && o.oid == oid)
                }
                Value::String(cloid) => {
                    let hex = cloid.strip_prefix("0x").ok_or(UNREADABLE)?;
                    if hex.len() != 32 {
                        return Err(UNREADABLE.into());
                    }
                    let cloid = cloid.to_ascii_lowercase();
                    st.orders
                        .iter()
                        .find(|o| o.user == user && o.cloid.as_deref() == Some(cloid.as_str()))
                }
                _ => return Err(UNREADABLE.into()),
            };
            Ok(match found {
                Some(o) => json!({"status": "order", "order": {"order": o.to_json(),
                    "status": o.status, "statusTimestamp": o.status_timestamp}}),
                None => json!({"status": "unknownOid"}),
            })
        }
        "userFills" | "userFillsByTime" => {
            let user = user_of(body)?;
            let by_time = body["type"] == "userFillsByTime";
            let start = body["startTime"].as_i64().unwrap_or(0);
            let end = body["endTime"].as_i64().unwrap_or(i64::MAX);
            let mut rows: Vec<&super::state::MockHlFill> = st
                .fills
                .iter()
                .filter(|f| f.user == user && (!by_time || (start..=end).contains(&f.time)))
                .collect();
            // userFills: newest first; by time: oldest first. At most 2000 either way.
            if !by_time {
                rows.reverse();
            }
            Ok(Value::Array(
                rows.iter().take(2_000).map(|f| f.to_json()).collect(),
            ))
        }
        "userRole" => {
            let user = user_of(body)?;
            Ok(if st.users.contains_key(&user) {
                json!({"role": "user"})
            } else if let Some((main, _)) = st.agents.get(&user) {
                json!({"role": "agent", "data": {"user": main}})
            } else {
                json!({"role": "missing"})
            })
        }
        "extraAgents" => {
            let user = user_of(body)?;
            let mut agents: Vec<Value> = st
                .agents
                .iter()
                .filter(|(_, (main, _))| *main == user)
                .map(|(address, (_, name))| {
                    json!({"name": name, "address": address, "validUntil": now + 180 * 86_400_000i64})
                })
                .collect();
            agents.sort_by_key(|a| a["address"].as_str().map(str::to_string));
            Ok(Value::Array(agents))
        }
        _ => Err(UNREADABLE.into()),
    }
}
