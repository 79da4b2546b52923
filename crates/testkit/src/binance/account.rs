//! Signed endpoints on the mock: account, positions, settings and orders.

use rust_decimal::Decimal;
use serde_json::{Value, json};

use super::fault::Fault;
use super::routes::{param, place_order};
use super::state::State;

fn unknown_order() -> Fault {
    Fault::binance(-2013)
}

fn find_order(st: &State, key: &str, symbol: &str, p: &[(String, String)]) -> Option<usize> {
    let by_client = param(p, "origClientOrderId");
    let by_id = param(p, "orderId").and_then(|i| i.parse::<i64>().ok());
    st.orders.iter().position(|o| {
        o.api_key == key
            && o.symbol == symbol
            && (by_client.is_some_and(|c| c == o.client_order_id) || by_id == Some(o.order_id))
    })
}

/// `positionRisk` rows as Binance's v2 sends them: every field a string, `positionAmt` signed,
/// and, like Binance, a zero row for every symbol the account holds nothing in (here: each
/// symbol with a book), which a client must skip.
fn positions_json(st: &mut State, key: &str) -> Vec<Value> {
    let Some(acct) = st.accounts.get(key).cloned() else {
        return Vec::new();
    };
    let mut rows: Vec<Value> = acct
        .positions
        .iter()
        .filter(|(_, (amt, _))| !amt.is_zero())
        .map(|((symbol, side), (amt, entry))| {
            let mark = st.book(symbol).mid;
            let lev = *acct.leverage.get(symbol).unwrap_or(&20);
            let isolated = *acct.isolated.get(symbol).unwrap_or(&false);
            json!({
                "symbol": symbol, "positionAmt": amt.to_string(), "entryPrice": entry.to_string(),
                "breakEvenPrice": entry.to_string(),
                "markPrice": mark.to_string(), "unRealizedProfit": ((mark - entry) * amt).to_string(),
                "liquidationPrice": "0", "leverage": lev.to_string(),
                "maxNotionalValue": "1000000",
                "marginType": if isolated { "isolated" } else { "cross" },
                "isolatedMargin": "0.00000000", "isAutoAddMargin": "false", "positionSide": side,
                "notional": (mark * amt).to_string(), "isolatedWallet": "0", "updateTime": 0,
            })
        })
        .collect();
    let mut idle: Vec<String> = st
        .books
        .keys()
        .filter(|s| {
            !acct
                .positions
                .iter()
                .any(|((p, _), (a, _))| p == *s && !a.is_zero())
        })
        .cloned()
        .collect();
    idle.sort();
    for symbol in idle {
        let mark = st.book(&symbol).mid;
        rows.push(json!({
            "symbol": symbol, "positionAmt": "0.000", "entryPrice": "0.0",
            "breakEvenPrice": "0.0", "markPrice": mark.to_string(),
            "unRealizedProfit": "0.00000000", "liquidationPrice": "0", "leverage": "20",
            "maxNotionalValue": "1000000", "marginType": "cross",
            "isolatedMargin": "0.00000000", "isAutoAddMargin": "false", "positionSide": "BOTH",
            "notional": "0", "isolatedWallet": "0", "updateTime": 0,
        }));
    }
    rows
}

pub(crate) fn signed(
    st: &mut State,
    method: &str,
    path: &str,
    key: &str,
    symbol: &str,
    p: &[(String, String)],
    now: i64,
) -> Result<Value, Fault> {
    match (method, path) {
        ("GET", "/sapi/v1/account/apiRestrictions") => {
            let acct = st.accounts.get(key).ok_or_else(|| Fault::binance(-2015))?;
            Ok(
                json!({"ipRestrict": false, "createTime": 1_700_000_000_000i64,
                      "enableReading": true, "enableFutures": acct.futures_enabled,
                      "enableSpotAndMarginTrading": false, "enableWithdrawals": false}),
            )
        }
        ("GET", "/fapi/v2/balance") | ("GET", "/fapi/v2/account") => {
            let positions = positions_json(st, key);
            let acct = st.accounts.get(key).ok_or_else(|| Fault::binance(-2015))?;
            let upnl: Decimal = positions
                .iter()
                .filter_map(|p| p["unRealizedProfit"].as_str()?.parse::<Decimal>().ok())
                .sum();
            let margin: Decimal = acct
                .positions
                .iter()
                .map(|((s, _), (amt, entry))| {
                    amt.abs() * entry / Decimal::from(*acct.leverage.get(s).unwrap_or(&20))
                })
                .sum();
            let available = (acct.balance + upnl - margin).max(Decimal::ZERO);
            if path == "/fapi/v2/balance" {
                return Ok(json!([{"accountAlias": "mock", "asset": "USDT",
                    "balance": acct.balance.to_string(), "crossWalletBalance": acct.balance.to_string(),
                    "crossUnPnl": upnl.to_string(), "availableBalance": available.to_string(),
                    "maxWithdrawAmount": available.to_string(), "marginAvailable": true,
                    "updateTime": now}]));
            }
            Ok(json!({"totalWalletBalance": acct.balance.to_string(),
                "totalUnrealizedProfit": upnl.to_string(),
                "totalMarginBalance": (acct.balance + upnl).to_string(),
                "totalInitialMargin": margin.to_string(),
                "availableBalance": available.to_string(), "canTrade": true,
                "assets": [], "positions": positions}))
        }
        ("GET", "/fapi/v2/positionRisk") => Ok(Value::Array(positions_json(st, key))),
        ("POST", "/fapi/v1/leverage") => {
            let lev: u32 = param(p, "leverage")
                .and_then(|l| l.parse().ok())
                .unwrap_or(0);
            if !(1..=125).contains(&lev) {
                return Err(Fault::Error {
                    http_status: 400,
                    code: -4028,
                    msg: "Leverage is not valid".into(),
                });
            }
            let acct = st
                .accounts
                .get_mut(key)
                .ok_or_else(|| Fault::binance(-2015))?;
            acct.leverage.insert(symbol.to_string(), lev);
            Ok(json!({"leverage": lev, "maxNotionalValue": "1000000", "symbol": symbol}))
        }
        ("POST", "/fapi/v1/marginType") => {
            let isolated = param(p, "marginType") == Some("ISOLATED");
            let acct = st
                .accounts
                .get_mut(key)
                .ok_or_else(|| Fault::binance(-2015))?;
            if acct.isolated.get(symbol).copied().unwrap_or(false) == isolated {
                return Err(Fault::Error {
                    http_status: 400,
                    code: -4046,
                    msg: "No need to change margin type.".into(),
                });
            }
            acct.isolated.insert(symbol.to_string(), isolated);
            Ok(json!({"code": 200, "msg": "success"}))
        }
        ("GET", "/fapi/v1/positionSide/dual") => {
            let acct = st.accounts.get(key).ok_or_else(|| Fault::binance(-2015))?;
            Ok(json!({"dualSidePosition": acct.dual_side}))
        }
        ("POST", "/fapi/v1/positionSide/dual") => {
            let dual = param(p, "dualSidePosition") == Some("true");
            let acct = st
                .accounts
                .get_mut(key)
                .ok_or_else(|| Fault::binance(-2015))?;
            if acct.dual_side == dual {
                return Err(Fault::Error {
                    http_status: 400,
                    code: -4059,
                    msg: "No need to change position side.".into(),
                });
            }
            acct.dual_side = dual;
            Ok(json!({"code": 200, "msg": "success"}))
        }
        ("POST", "/fapi/v1/order") => place_order(st, key, p, now),
        ("GET", "/fapi/v1/order") => {
            let i = find_order(st, key, symbol, p).ok_or_else(unknown_order)?;
            Ok(st.orders[i].to_json())
        }
        ("DELETE", "/fapi/v1/order") => {
            let i = find_order(st, key, symbol, p).ok_or_else(unknown_order)?;
            let o = &mut st.orders[i];
            if o.status != "NEW" && o.status != "PARTIALLY_FILLED" {
                return Err(Fault::binance(-2011));
            }
            o.status = "CANCELED".into();
            o.time_ms = now;
            Ok(o.to_json())
        }
        ("GET", "/fapi/v1/openOrders") => Ok(Value::Array(
            st.orders
                .iter()
                .filter(|o| {
                    o.api_key == key && (o.status == "NEW" || o.status == "PARTIALLY_FILLED")
                })
                .filter(|o| param(p, "symbol").is_none_or(|s| s == o.symbol))
                .map(|o| o.to_json())
                .collect(),
        )),
        ("GET", "/fapi/v1/userTrades") => {
            let since = param(p, "startTime")
                .and_then(|s| s.parse::<i64>().ok())
                .unwrap_or(0);
            Ok(Value::Array(
                st.fills
                    .iter()
                    .filter(|f| f.api_key == key && f.symbol == symbol && f.time_ms >= since)
                    .map(|f| {
                        json!({
                            "symbol": f.symbol, "id": f.id, "orderId": f.order_id, "side": f.side,
                            "price": f.price.to_string(), "qty": f.qty.to_string(),
                            "realizedPnl": f.realized_pnl.to_string(), "marginAsset": "USDT",
                            "quoteQty": (f.price * f.qty).to_string(),
                            "commission": f.commission.to_string(), "commissionAsset": "USDT",
                            "time": f.time_ms, "positionSide": f.position_side,
                            "buyer": f.side == "BUY", "maker": false,
                        })
                    })
                    .collect(),
            ))
        }
        _ => Err(Fault::Error {
            http_status: 404,
            code: -1000,
            msg: format!("mock: no endpoint {method} {path}"),
        }),
    }
}
