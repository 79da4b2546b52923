//! Private endpoints on the mock: account configuration, balance, positions, settings, and
//! the order reads, cancels and fills. Each answers the rows of OKX's "Response Example" for
//! the endpoint (OKX API v5 docs, https://www.okx.com/docs-v5/en/, "Trading Account" and
//! "Order Book Trading" → "Trade" / "Algo Trading").

use rust_decimal::Decimal;
use serde_json::{Value, json};

use super::algos::place_algo;
use super::fault::Fault;
use super::matching::{leverage, place};
use super::state::State;

fn param<'a>(p: &'a [(String, String)], name: &str) -> Option<&'a str> {
    p.iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
        .filter(|v| !v.is_empty())
}

fn no_order() -> Fault {
    Fault::okx(51603)
}

/// Whether a request needs the key's `trade` permission: every private POST here (orders,
/// cancels, settings) does; reads need only `read`.
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
) -> Result<Vec<Value>, Fault> {
    match (method, path) {
        ("GET", "/api/v5/account/config") => Ok(vec![config(st, key)]),
        ("GET", "/api/v5/account/balance") => Ok(vec![balance(st, key, now)]),
        ("GET", "/api/v5/account/positions") => Ok(positions(st, key, p, now)),
        ("POST", "/api/v5/account/set-leverage") => set_leverage(st, key, body),
        ("POST", "/api/v5/account/set-position-mode") => set_position_mode(st, key, body),
        ("POST", "/api/v5/trade/order") => place(st, key, body, now).map(|v| vec![v]),
        ("POST", "/api/v5/trade/order-algo") => place_algo(st, key, body, now).map(|v| vec![v]),
        ("GET", "/api/v5/trade/order") => order(st, key, p).map(|v| vec![v]),
        ("GET", "/api/v5/trade/order-algo") => algo(st, key, p).map(|v| vec![v]),
        ("POST", "/api/v5/trade/cancel-order") => cancel(st, key, body, now).map(|v| vec![v]),
        ("POST", "/api/v5/trade/cancel-algos") => cancel_algos(st, key, body, now),
        ("GET", "/api/v5/trade/orders-pending") => Ok(pending(st, key, p)),
        ("GET", "/api/v5/trade/orders-algo-pending") => pending_algos(st, key, p),
        ("GET", "/api/v5/trade/fills") => Ok(fills(st, key, p)),
        _ => Err(Fault::Error {
            http_status: 404,
            code: "50005".into(),
            msg: format!("mock: no endpoint {method} {path}"),
        }),
    }
}

fn config(st: &State, key: &str) -> Value {
    let Some(a) = st.accounts.get(key) else {
        return json!({});
    };
    let perm = if a.can_trade {
        "read_only,trade"
    } else {
        "read_only"
    };
    json!({
        "uid": "44705892343619584", "mainUid": "44705892343619584", "acctLv": a.acct_lv,
        "posMode": if a.long_short { "long_short_mode" } else { "net_mode" },
        "autoLoan": false, "greeksType": "PA", "level": "Lv1", "levelTmp": "",
        "ctIsoMode": "automatic", "mgnIsoMode": "automatic", "label": "nofxi mock",
        "perm": perm, "ip": "127.0.0.1",
        "kycLv": "2", "roleType": "0", "acctStpMode": "cancel_maker",
    })
}

/// OKX lists only the currencies an account holds: an empty wallet has no USDT line.
fn balance(st: &mut State, key: &str, now: i64) -> Value {
    let (upl, used) = st.exposure(key);
    let cash = st.accounts.get(key).map(|a| a.balance).unwrap_or_default();
    let eq = cash + upl;
    let available = (eq - used).max(Decimal::ZERO);
    let details = if cash.is_zero() && upl.is_zero() {
        vec![]
    } else {
        vec![json!({
            "ccy": "USDT", "cashBal": cash.to_string(), "eq": eq.to_string(),
            "eqUsd": eq.to_string(), "availBal": available.to_string(),
            "availEq": available.to_string(), "frozenBal": used.to_string(),
            "ordFrozen": "0", "upl": upl.to_string(), "isoEq": "0", "imr": "", "mmr": "",
            "uTime": now.to_string(),
        })]
    };
    json!({"totalEq": eq.to_string(), "adjEq": "", "imr": "", "mmr": "", "isoEq": "0",
           "ordFroz": "", "notionalUsd": "", "uTime": now.to_string(), "details": details})
}

fn positions(st: &mut State, key: &str, p: &[(String, String)], now: i64) -> Vec<Value> {
    let Some(held) = st.accounts.get(key).map(|a| a.positions.clone()) else {
        return Vec::new();
    };
    let mut keys: Vec<_> = held.keys().cloned().collect();
    keys.sort();
    let mut rows = Vec::new();
    for (inst_id, pos_side) in keys {
        if param(p, "instId").is_some_and(|i| i != inst_id) {
            continue;
        }
        let (Some(pos), Some(inst)) = (
            held.get(&(inst_id.clone(), pos_side.clone())),
            st.instrument(&inst_id),
        ) else {
            continue;
        };
        let mark = st.mark(&inst);
        let coins = pos.pos * inst.ct_val;
        let signed = if pos_side == "short" { -coins } else { coins };
        let margin = coins.abs() * pos.avg_px / Decimal::from(pos.lever.max(1));
        let isolated = pos.mgn_mode == "isolated";
        rows.push(json!({
            "instType": "SWAP", "instId": inst_id, "posSide": pos_side, "pos": pos.pos.to_string(),
            "availPos": pos.pos.abs().to_string(), "avgPx": pos.avg_px.to_string(),
            "markPx": mark.to_string(), "lever": pos.lever.to_string(), "mgnMode": pos.mgn_mode,
            "margin": if isolated { margin.to_string() } else { String::new() },
            "imr": if isolated { String::new() } else { margin.to_string() },
            "upl": ((mark - pos.avg_px) * signed).to_string(), "liqPx": "", "ccy": "USDT",
            "posCcy": "", "notionalUsd": (coins.abs() * mark).to_string(),
            "cTime": now.to_string(), "uTime": now.to_string(),
        }));
    }
    rows
}

fn set_leverage(st: &mut State, key: &str, body: &Value) -> Result<Vec<Value>, Fault> {
    let inst_id = body["instId"]
        .as_str()
        .ok_or_else(|| Fault::empty("instId"))?;
    st.instrument(inst_id).ok_or_else(|| Fault::okx(51001))?;
    let lever: u32 = body["lever"]
        .as_str()
        .and_then(|l| l.parse().ok())
        .filter(|l| *l >= 1)
        .ok_or_else(|| Fault::parameter("lever"))?;
    if lever > 125 {
        return Err(Fault::okx(59102));
    }
    let mode = match body["mgnMode"].as_str() {
        Some(m @ ("cross" | "isolated")) => m.to_string(),
        _ => return Err(Fault::parameter("mgnMode")),
    };
    let account = st.accounts.get_mut(key).ok_or_else(|| Fault::okx(50111))?;
    // Isolated leverage in long/short mode is per side.
    let pos_side = body["posSide"].as_str().unwrap_or_default();
    if account.long_short && mode == "isolated" && !matches!(pos_side, "long" | "short") {
        return Err(Fault::parameter("posSide"));
    }
    account
        .leverage
        .insert((inst_id.to_string(), mode.clone()), lever);
    Ok(vec![
        json!({"instId": inst_id, "lever": lever.to_string(), "mgnMode": mode, "posSide": pos_side}),
    ])
}

fn set_position_mode(st: &mut State, key: &str, body: &Value) -> Result<Vec<Value>, Fault> {
    let long_short = match body["posMode"].as_str() {
        Some("long_short_mode") => true,
        Some("net_mode") => false,
        _ => return Err(Fault::parameter("posMode")),
    };
    let busy = st.orders.iter().any(|o| o.api_key == key && o.is_live())
        || st
            .algos
            .iter()
            .any(|a| a.api_key == key && a.state == "live");
    let account = st.accounts.get_mut(key).ok_or_else(|| Fault::okx(50111))?;
    if account.long_short != long_short && (busy || !account.positions.is_empty()) {
        return Err(Fault::okx(59000));
    }
    account.long_short = long_short;
    Ok(vec![json!({"posMode": body["posMode"]})])
}

fn find_order(st: &State, key: &str, p: &[(String, String)]) -> Option<usize> {
    let inst = param(p, "instId")?;
    let by_id = param(p, "ordId");
    let by_client = param(p, "clOrdId");
    // "If the clOrdId is associated with multiple orders, only the latest one will be returned."
    st.orders.iter().rposition(|o| {
        o.api_key == key
            && o.inst_id == inst
            && (by_id.is_some_and(|i| i == o.ord_id)
                || (by_id.is_none() && by_client.is_some_and(|c| c == o.cl_ord_id)))
    })
}

fn lever_of(st: &State, key: &str, inst_id: &str, td_mode: &str) -> u32 {
    leverage(st, key, inst_id, td_mode)
}

fn order(st: &State, key: &str, p: &[(String, String)]) -> Result<Value, Fault> {
    param(p, "instId").ok_or_else(|| Fault::empty("instId"))?;
    let i = find_order(st, key, p).ok_or_else(no_order)?;
    let o = &st.orders[i];
    Ok(o.to_json(lever_of(st, key, &o.inst_id, &o.td_mode)))
}

/// The docs give no refusal of their own for an unknown algo id; the mock answers as for an
/// order (51603), and a client must also take an empty `data` for "none".
fn algo(st: &State, key: &str, p: &[(String, String)]) -> Result<Value, Fault> {
    let by_id = param(p, "algoId");
    let by_client = param(p, "algoClOrdId");
    if by_id.is_none() && by_client.is_none() {
        return Err(Fault::empty("algoId"));
    }
    st.algos
        .iter()
        .rev()
        .find(|a| {
            a.api_key == key
                && (by_id.is_some_and(|i| i == a.algo_id)
                    || (by_id.is_none() && by_client.is_some_and(|c| c == a.algo_cl_ord_id)))
        })
        .map(|a| a.to_json())
        .ok_or_else(no_order)
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

fn cancel(st: &mut State, key: &str, body: &Value, now: i64) -> Result<Value, Fault> {
    let p = body_params(body);
    param(&p, "instId").ok_or_else(|| Fault::empty("instId"))?;
    let i = find_order(st, key, &p)
        .filter(|i| st.orders[*i].is_live())
        .ok_or_else(|| Fault::okx(51400))?;
    let o = &mut st.orders[i];
    o.state = "canceled".into();
    o.time_ms = now;
    Ok(
        json!({"clOrdId": o.cl_ord_id, "ordId": o.ord_id, "ts": now.to_string(),
              "sCode": "0", "sMsg": ""}),
    )
}

fn cancel_algos(st: &mut State, key: &str, body: &Value, now: i64) -> Result<Vec<Value>, Fault> {
    let items = body.as_array().ok_or_else(|| Fault::empty("algoId"))?;
    let mut out = Vec::new();
    for item in items {
        let by_id = item["algoId"].as_str().filter(|s| !s.is_empty());
        let by_client = item["algoClOrdId"].as_str().filter(|s| !s.is_empty());
        let found = st.algos.iter_mut().find(|a| {
            a.api_key == key
                && a.state == "live"
                && (by_id.is_some_and(|i| i == a.algo_id)
                    || (by_id.is_none() && by_client.is_some_and(|c| c == a.algo_cl_ord_id)))
        });
        let Some(a) = found else {
            return Err(Fault::okx(51400));
        };
        a.state = "canceled".into();
        a.time_ms = now;
        out.push(
            json!({"algoId": a.algo_id, "algoClOrdId": "", "clOrdId": "", "tag": "",
                        "sCode": "0", "sMsg": ""}),
        );
    }
    Ok(out)
}

fn pending(st: &State, key: &str, p: &[(String, String)]) -> Vec<Value> {
    st.orders
        .iter()
        .rev()
        .filter(|o| o.api_key == key && o.is_live())
        .filter(|o| param(p, "instId").is_none_or(|i| i == o.inst_id))
        .map(|o| o.to_json(lever_of(st, key, &o.inst_id, &o.td_mode)))
        .collect()
}

fn pending_algos(st: &State, key: &str, p: &[(String, String)]) -> Result<Vec<Value>, Fault> {
    // "ordType … Required" for the pending algo list.
    if param(p, "ordType").is_none() {
        return Err(Fault::empty("ordType"));
    }
    Ok(st
        .algos
        .iter()
        .rev()
        .filter(|a| a.api_key == key && a.state == "live")
        .filter(|a| param(p, "instId").is_none_or(|i| i == a.inst_id))
        .map(|a| a.to_json())
        .collect())
}

/// Newest first, `limit` at a time; `after` (a bill id) pages back, `begin` is exclusive.
fn fills(st: &State, key: &str, p: &[(String, String)]) -> Vec<Value> {
    let num = |name: &str| param(p, name).and_then(|v| v.parse::<i64>().ok());
    let limit = num("limit").unwrap_or(100).clamp(1, 100) as usize;
    st.fills
        .iter()
        .rev()
        .filter(|f| f.api_key == key)
        .filter(|f| param(p, "instId").is_none_or(|i| i == f.inst_id))
        .filter(|f| num("begin").is_none_or(|b| f.time_ms > b))
        .filter(|f| num("end").is_none_or(|e| f.time_ms < e))
        .filter(|f| num("after").is_none_or(|a| f.bill_id < a))
        .take(limit)
        .map(|f| {
            json!({
                "instType": "SWAP", "instId": f.inst_id, "tradeId": f.trade_id.to_string(),
                "ordId": f.ord_id, "clOrdId": f.cl_ord_id, "billId": f.bill_id.to_string(),
                "subType": if f.side == "buy" { "1" } else { "2" }, "tag": "",
                "fillPx": f.px.to_string(), "fillSz": f.sz.to_string(), "side": f.side,
                "posSide": f.pos_side, "execType": "T", "feeCcy": "USDT",
                "fee": f.fee.to_string(), "fillPnl": f.pnl.to_string(),
                "fillTime": f.time_ms.to_string(), "ts": f.time_ms.to_string(),
            })
        })
        .collect()
}
