//! Private endpoints on the mock: the key's description, accounts, positions, settings, and
//! the order reads, cancels and fills. Each answers the `data` of Bitget's "Response Example"
//! for the endpoint (Bitget API docs, https://www.bitget.com/api-doc/contract/…, "Account",
//! "Position", "Trade" and "Trigger Order"; the key's description: "Spot" → "Account" → "Get
//! Account Information").

use rust_decimal::Decimal;
use serde_json::{Value, json};

use super::fault::Fault;
use super::matching::{contract_of, place, text};
use super::plans::place_tpsl;
use super::state::{MAX_LEVER, State};

fn param<'a>(p: &'a [(String, String)], name: &str) -> Option<&'a str> {
    p.iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
        .filter(|v| !v.is_empty())
}

/// The query of a GET as a body, so one check of symbol and product line serves both.
fn as_body(p: &[(String, String)]) -> Value {
    Value::Object(
        p.iter()
            .map(|(k, v)| (k.clone(), Value::String(v.clone())))
            .collect(),
    )
}

fn product(p: &[(String, String)]) -> Result<(), Fault> {
    match param(p, "productType") {
        Some(t) if t.eq_ignore_ascii_case("USDT-FUTURES") => Ok(()),
        Some(_) => Err(Fault::parameter("productType")),
        None => Err(Fault::empty("productType")),
    }
}

/// Whether a request needs the key's futures-orders permission: every private POST here
/// (orders, cancels, settings) does; reads need only read access.
pub(crate) fn trading(method: &str) -> bool {
    method == "POST"
}

pub(crate) fn handle(
    st: &mut State,
    method: &str,
    path: &str,
    key: &str,
    p: &[(String, String)],
    body: &Value,
    now: i64,
) -> Result<Value, Fault> {
    match (method, path) {
        ("GET", "/api/v2/spot/account/info") => Ok(key_info(st, key)),
        ("GET", "/api/v2/mix/account/accounts") => product(p).map(|_| accounts(st, key)),
        ("GET", "/api/v2/mix/account/account") => single_account(st, key, p),
        ("GET", "/api/v2/mix/position/all-position") => {
            product(p).map(|_| Value::Array(positions(st, key)))
        }
        ("POST", "/api/v2/mix/account/set-leverage") => set_leverage(st, key, body),
        ("POST", "/api/v2/mix/account/set-margin-mode") => set_margin_mode(st, key, body),
        ("POST", "/api/v2/mix/account/set-position-mode") => set_position_mode(st, key, body),
        ("POST", "/api/v2/mix/order/place-order") => place(st, key, body, now),
        ("POST", "/api/v2/mix/order/place-tpsl-order") => place_tpsl(st, key, body, now),
        ("GET", "/api/v2/mix/order/detail") => detail(st, key, p),
        ("POST", "/api/v2/mix/order/cancel-order") => cancel(st, key, body, now),
        ("POST", "/api/v2/mix/order/cancel-plan-order") => cancel_plans(st, key, body, now),
        ("GET", "/api/v2/mix/order/orders-pending") => pending(st, key, p),
        ("GET", "/api/v2/mix/order/orders-plan-pending") => plans(st, key, p, true),
        ("GET", "/api/v2/mix/order/orders-plan-history") => plans(st, key, p, false),
        ("GET", "/api/v2/mix/order/fills") => fills(st, key, p),
        _ => Err(Fault::Error {
            http_status: 404,
            code: "40404".into(),
            msg: format!("Request URL NOT FOUND (mock: no endpoint {method} {path})"),
        }),
    }
}

/// "Get Account Information": read permissions always, the futures ones (`coow`, `cpow`)
/// while the key may trade; the whitelist.
fn key_info(st: &State, key: &str) -> Value {
    let can_trade = st.accounts.get(key).is_some_and(|a| a.can_trade);
    let authorities: Vec<&str> = if can_trade {
        vec!["coor", "coow", "cpor", "cpow", "stor"]
    } else {
        vec!["coor", "cpor", "stor"]
    };
    json!({"userId": "3000000001", "inviterId": "", "ips": "127.0.0.1",
           "authorities": authorities, "parentId": 3000000001u64, "traderType": "not_trader",
           "channelCode": "", "channel": "", "regisTime": "1690000000000"})
}

/// The figures of the USDT account: equity, cash, margin held and what is free.
fn figures(st: &mut State, key: &str) -> (Decimal, Decimal, Decimal, Decimal, Decimal) {
    let (upl, cross, isolated) = st.exposure(key);
    let cash = st.accounts.get(key).map(|a| a.balance).unwrap_or_default();
    let equity = cash + upl;
    let free = (equity - cross - isolated).max(Decimal::ZERO);
    (equity, upl, cross, isolated, free)
}

/// "Get Account List": one USDT row.
fn accounts(st: &mut State, key: &str) -> Value {
    let (equity, upl, cross, isolated, free) = figures(st, key);
    json!([{
        "marginCoin": "USDT", "locked": "0", "available": free.to_string(),
        "crossedMaxAvailable": free.to_string(), "isolatedMaxAvailable": free.to_string(),
        "maxTransferOut": free.to_string(), "accountEquity": equity.to_string(),
        "usdtEquity": equity.to_string(), "btcEquity": "0", "crossedRiskRate": "0",
        "unrealizedPL": upl.to_string(), "coupon": "0", "unionTotalMagin": "0",
        "unionAvailable": "0", "unionMm": "0", "assetList": [],
        "isolatedMargin": isolated.to_string(), "crossedMargin": cross.to_string(),
        "crossedUnrealizedPL": upl.to_string(), "isolatedUnrealizedPL": "0", "assetMode": "single",
    }])
}

/// "Get Single Account": the account with the symbol's margin mode and leverage, and the
/// position mode.
fn single_account(st: &mut State, key: &str, p: &[(String, String)]) -> Result<Value, Fault> {
    let c = contract_of(st, &as_body(p))?;
    let (equity, upl, _, _, free) = figures(st, key);
    let a = st.accounts.get(key).ok_or_else(|| Fault::bitget(40006))?;
    let lever = a.lever(c.symbol).to_string();
    Ok(json!({
        "marginCoin": "USDT", "locked": "0", "available": free.to_string(),
        "crossedMaxAvailable": free.to_string(), "isolatedMaxAvailable": free.to_string(),
        "maxTransferOut": free.to_string(), "accountEquity": equity.to_string(),
        "usdtEquity": equity.to_string(), "btcEquity": "0", "crossedRiskRate": "0",
        "crossedMarginLeverage": lever, "isolatedLongLever": lever, "isolatedShortLever": lever,
        "marginMode": a.margin_mode(c.symbol),
        "posMode": if a.hedge { "hedge_mode" } else { "one_way_mode" },
        "unrealizedPL": upl.to_string(), "coupon": "0", "crossedUnrealizedPL": upl.to_string(),
        "isolatedUnrealizedPL": "0", "assetMode": "single",
    }))
}

fn positions(st: &mut State, key: &str) -> Vec<Value> {
    let Some((held, hedge)) = st.accounts.get(key).map(|a| (a.positions.clone(), a.hedge)) else {
        return Vec::new();
    };
    let mut slots: Vec<_> = held.keys().cloned().collect();
    slots.sort();
    let mut rows = Vec::new();
    for (symbol, hold) in slots {
        let (Some(pos), Some(c)) = (
            held.get(&(symbol.clone(), hold.clone())),
            st.contract(&symbol),
        ) else {
            continue;
        };
        let mark = st.mark(&c);
        let direction = if hold == "short" {
            -Decimal::ONE
        } else {
            Decimal::ONE
        };
        let margin = pos.size * pos.avg_px / Decimal::from(pos.lever.max(1));
        rows.push(json!({
            "marginCoin": "USDT", "symbol": symbol, "holdSide": hold, "openDelegateSize": "0",
            "marginSize": margin.to_string(), "available": pos.size.to_string(), "locked": "0",
            "total": pos.size.to_string(), "leverage": pos.lever.to_string(),
            "achievedProfits": "0", "openPriceAvg": pos.avg_px.to_string(),
            "marginMode": pos.margin_mode,
            "posMode": if hedge { "hedge_mode" } else { "one_way_mode" },
            "unrealizedPL": ((mark - pos.avg_px) * pos.size * direction).to_string(),
            "liquidationPrice": "0", "keepMarginRate": "0.004", "markPrice": mark.to_string(),
            "breakEvenPrice": pos.avg_px.to_string(), "totalFee": "", "deductedFee": "0",
            "marginRatio": "0", "assetMode": "single", "cTime": "0", "uTime": "0",
        }));
    }
    rows
}

/// "Change Leverage": `leverage`, or both `longLeverage` and `shortLeverage`; isolated margin
/// in hedge mode needs `holdSide` or both sides ("for hedge-mode, the holdSide parameter must
/// be filled in. And when long and short leverages are set simultaneously for hedge-mode,
/// holdSide is not required").
fn set_leverage(st: &mut State, key: &str, body: &Value) -> Result<Value, Fault> {
    let c = contract_of(st, body)?;
    let read = |name: &str| -> Result<Option<u32>, Fault> {
        match text(body, name) {
            None => Ok(None),
            Some(v) => v
                .parse::<u32>()
                .ok()
                .filter(|l| *l >= 1)
                .map(Some)
                .ok_or_else(|| Fault::parameter(name)),
        }
    };
    let (one, long, short) = (
        read("leverage")?,
        read("longLeverage")?,
        read("shortLeverage")?,
    );
    let a = st
        .accounts
        .get_mut(key)
        .ok_or_else(|| Fault::bitget(40006))?;
    let mode = a.margin_mode(c.symbol);
    let both = long.is_some() && short.is_some();
    if a.hedge && mode == "isolated" && !both && text(body, "holdSide").is_none() {
        return Err(Fault::empty("holdSide"));
    }
    let lever = long.or(one).ok_or_else(|| Fault::empty("leverage"))?;
    if lever > MAX_LEVER || short.is_some_and(|s| s > MAX_LEVER) {
        return Err(Fault::bitget(45045));
    }
    a.leverage
        .insert((c.symbol.to_string(), mode.clone()), lever);
    Ok(
        json!({"symbol": c.symbol, "marginCoin": "USDT", "longLeverage": lever.to_string(),
              "shortLeverage": short.unwrap_or(lever).to_string(),
              "crossMarginLeverage": lever.to_string(), "marginMode": mode}),
    )
}

/// Whether `key` has a position or a live order or plan on `symbol` (or on any, for `None`).
fn busy(st: &State, key: &str, symbol: Option<&str>) -> bool {
    let on = |s: &str| symbol.is_none_or(|want| want == s);
    st.orders
        .iter()
        .any(|o| o.api_key == key && o.is_live() && on(&o.symbol))
        || st
            .plans
            .iter()
            .any(|p| p.api_key == key && p.status == "live" && on(&p.symbol))
        || st
            .accounts
            .get(key)
            .is_some_and(|a| a.positions.keys().any(|(s, _)| on(s)))
}

/// "Change Margin Mode": "cannot be used when the users have an open position or an order".
fn set_margin_mode(st: &mut State, key: &str, body: &Value) -> Result<Value, Fault> {
    let c = contract_of(st, body)?;
    let mode = match text(body, "marginMode") {
        Some(m @ ("isolated" | "crossed")) => m.to_string(),
        _ => return Err(Fault::parameter("marginMode")),
    };
    if busy(st, key, Some(c.symbol)) {
        return Err(Fault::bitget(45117));
    }
    let a = st
        .accounts
        .get_mut(key)
        .ok_or_else(|| Fault::bitget(40006))?;
    a.margin_modes.insert(c.symbol.to_string(), mode.clone());
    let lever = a.lever(c.symbol).to_string();
    Ok(
        json!({"symbol": c.symbol, "marginCoin": "USDT", "longLeverage": lever,
              "shortLeverage": lever, "marginMode": mode}),
    )
}

/// "Change Position Mode": refused while the product line holds a position or an order.
fn set_position_mode(st: &mut State, key: &str, body: &Value) -> Result<Value, Fault> {
    match text(body, "productType") {
        Some(t) if t.eq_ignore_ascii_case("USDT-FUTURES") => {}
        _ => return Err(Fault::parameter("productType")),
    }
    let hedge = match text(body, "posMode") {
        Some("hedge_mode") => true,
        Some("one_way_mode") => false,
        _ => return Err(Fault::parameter("posMode")),
    };
    let changes = st.accounts.get(key).is_some_and(|a| a.hedge != hedge);
    if changes && busy(st, key, None) {
        return Err(Fault::bitget(40920));
    }
    if let Some(a) = st.accounts.get_mut(key) {
        a.hedge = hedge;
    }
    Ok(json!({"posMode": body["posMode"]}))
}

/// The index of `key`'s order on `symbol` by `orderId`, else by `clientOid`.
fn find_order(st: &State, key: &str, symbol: &str, p: &[(String, String)]) -> Option<usize> {
    let by_id = param(p, "orderId");
    let by_client = param(p, "clientOid");
    st.orders.iter().rposition(|o| {
        o.api_key == key
            && o.symbol.eq_ignore_ascii_case(symbol)
            && (by_id.is_some_and(|i| i == o.order_id)
                || (by_id.is_none() && by_client.is_some_and(|c| c == o.client_oid)))
    })
}

fn lever_of(st: &State, key: &str, symbol: &str) -> u32 {
    st.accounts.get(key).map_or(10, |a| a.lever(symbol))
}

/// "Get Order Detail"; 40109 for an order the account does not have.
fn detail(st: &State, key: &str, p: &[(String, String)]) -> Result<Value, Fault> {
    let c = contract_of(st, &as_body(p))?;
    if param(p, "orderId").is_none() && param(p, "clientOid").is_none() {
        return Err(Fault::empty("orderId"));
    }
    let i = find_order(st, key, c.symbol, p).ok_or_else(|| Fault::bitget(40109))?;
    let o = &st.orders[i];
    Ok(o.to_json(lever_of(st, key, &o.symbol), "state"))
}

fn body_params(body: &Value) -> Vec<(String, String)> {
    body.as_object()
        .map(|o| {
            o.iter()
                .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_string())))
                .collect()
        })
        .unwrap_or_default()
}

/// "Cancel Order"; 22001 for an order that is not open.
fn cancel(st: &mut State, key: &str, body: &Value, now: i64) -> Result<Value, Fault> {
    let c = contract_of(st, body)?;
    let p = body_params(body);
    if param(&p, "orderId").is_none() && param(&p, "clientOid").is_none() {
        return Err(Fault::empty("orderId"));
    }
    let i = find_order(st, key, c.symbol, &p)
        .filter(|i| st.orders[*i].is_live())
        .ok_or_else(|| Fault::bitget(22001))?;
    let o = &mut st.orders[i];
    o.state = "canceled".into();
    o.time_ms = now;
    Ok(json!({"orderId": o.order_id, "clientOid": o.client_oid}))
}

/// "Cancel Trigger Order": each listed plan in `successList` or `failureList`; without a list,
/// every live plan of the symbol (of `planType`) is cancelled, as the docs say.
fn cancel_plans(st: &mut State, key: &str, body: &Value, now: i64) -> Result<Value, Fault> {
    let c = contract_of(st, body)?;
    let plan_type = text(body, "planType").unwrap_or("normal_plan").to_string();
    let mut success = Vec::new();
    let mut failure = Vec::new();
    let listed = body["orderIdList"].as_array().cloned().unwrap_or_default();
    let matches_type = |t: &str| plan_type == t;
    if listed.is_empty() {
        for plan in st.plans.iter_mut().filter(|p| {
            p.api_key == key
                && p.symbol == c.symbol
                && p.status == "live"
                && matches_type(&p.plan_type)
        }) {
            plan.status = "cancelled".into();
            plan.time_ms = now;
            success.push(json!({"orderId": plan.order_id, "clientOid": plan.client_oid}));
        }
    }
    for item in listed {
        let by_id = text(&item, "orderId");
        let by_client = text(&item, "clientOid");
        let found = st.plans.iter_mut().find(|p| {
            p.api_key == key
                && p.symbol == c.symbol
                && (by_id.is_some_and(|i| i == p.order_id)
                    || (by_id.is_none() && by_client.is_some_and(|cl| cl == p.client_oid)))
        });
        match found {
            Some(plan) if plan.status == "live" && matches_type(&plan.plan_type) => {
                plan.status = "cancelled".into();
                plan.time_ms = now;
                success.push(json!({"orderId": plan.order_id, "clientOid": plan.client_oid}));
            }
            _ => failure.push(json!({
                "orderId": by_id.unwrap_or_default(), "clientOid": by_client.unwrap_or_default(),
                "errorMsg": "Plan order does not exist", "errorCode": "43025",
            })),
        }
    }
    Ok(json!({"successList": success, "failureList": failure}))
}

/// "Get Pending Orders": live and partly filled orders, newest first.
fn pending(st: &State, key: &str, p: &[(String, String)]) -> Result<Value, Fault> {
    product(p)?;
    let list: Vec<Value> = st
        .orders
        .iter()
        .rev()
        .filter(|o| o.api_key == key && o.is_live())
        .filter(|o| param(p, "symbol").is_none_or(|s| s.eq_ignore_ascii_case(&o.symbol)))
        .map(|o| o.to_json(lever_of(st, key, &o.symbol), "status"))
        .collect();
    let end = list
        .last()
        .map(|o| o["orderId"].clone())
        .unwrap_or(Value::Null);
    Ok(
        json!({"entrustedList": if list.is_empty() { Value::Null } else { Value::Array(list) },
              "endId": end}),
    )
}

/// "Get Pending Trigger Order" (`live`) or "Get History Trigger Order" (the rest), for
/// `planType=profit_loss`; `entrustedList` is `null` when nothing matches.
fn plans(st: &State, key: &str, p: &[(String, String)], live: bool) -> Result<Value, Fault> {
    product(p)?;
    match param(p, "planType") {
        Some("profit_loss") => {}
        Some("normal_plan" | "track_plan") => {
            return Ok(json!({"entrustedList": null, "endId": null}));
        }
        Some(_) => return Err(Fault::parameter("planType")),
        None => return Err(Fault::empty("planType")),
    }
    let list: Vec<Value> = st
        .plans
        .iter()
        .rev()
        .filter(|pl| pl.api_key == key && (pl.status == "live") == live)
        .filter(|pl| param(p, "symbol").is_none_or(|s| s.eq_ignore_ascii_case(&pl.symbol)))
        .filter(|pl| param(p, "orderId").is_none_or(|i| i == pl.order_id))
        .filter(|pl| {
            param(p, "orderId").is_some()
                || param(p, "clientOid").is_none_or(|c| c == pl.client_oid)
        })
        .map(|pl| pl.to_json(st))
        .collect();
    let end = list
        .last()
        .map(|o| o["orderId"].clone())
        .unwrap_or(Value::Null);
    Ok(
        json!({"entrustedList": if list.is_empty() { Value::Null } else { Value::Array(list) },
              "endId": end}),
    )
}

/// "Get Order Fill Details": newest first, `limit` at a time; `idLessThan` (a trade id) pages
/// back; `startTime`/`endTime` bound the fill time.
fn fills(st: &State, key: &str, p: &[(String, String)]) -> Result<Value, Fault> {
    product(p)?;
    let num = |name: &str| param(p, name).and_then(|v| v.parse::<i64>().ok());
    let limit = num("limit").unwrap_or(100).clamp(1, 100) as usize;
    let list: Vec<Value> = st
        .fills
        .iter()
        .rev()
        .filter(|f| f.api_key == key)
        .filter(|f| param(p, "symbol").is_none_or(|s| s.eq_ignore_ascii_case(&f.symbol)))
        .filter(|f| param(p, "orderId").is_none_or(|o| o == f.order_id))
        .filter(|f| num("startTime").is_none_or(|t| f.time_ms >= t))
        .filter(|f| num("endTime").is_none_or(|t| f.time_ms <= t))
        .filter(|f| num("idLessThan").is_none_or(|id| f.trade_id < id))
        .take(limit)
        .map(|f| {
            json!({
                "tradeId": f.trade_id.to_string(), "symbol": f.symbol, "orderId": f.order_id,
                "price": f.price.to_string(), "baseVolume": f.size.to_string(),
                "feeDetail": [{"deduction": "no", "feeCoin": "USDT", "totalDeductionFee": "0",
                               "totalFee": (-f.fee).to_string()}],
                "side": f.side, "quoteVolume": (f.price * f.size).to_string(),
                "profit": f.profit.to_string(), "enterPointSource": "API",
                "tradeSide": f.trade_side,
                "posMode": if f.hedge { "hedge_mode" } else { "one_way_mode" },
                "tradeScope": "taker", "cTime": f.time_ms.to_string(),
            })
        })
        .collect();
    let end = list
        .last()
        .map(|f| f["tradeId"].clone())
        .unwrap_or(Value::Null);
    Ok(json!({"fillList": list, "endId": end}))
}
