//! Private endpoints on the mock: account information, wallet balance, margin mode,
//! positions, leverage, position mode, the API key's information, and the order reads,
//! cancels, trade history and transaction log. Each answers the `result` of Bybit's
//! "Response Example" for the endpoint (Bybit API v5 docs,
//! https://bybit-exchange.github.io/docs/v5/intro: "Account", "Position", "Trade", "User").

use rust_decimal::Decimal;
use serde_json::{Value, json};

use super::fault::Fault;
use super::matching::{leverage, place};
use super::state::{State, initial_margin, signed};

fn param<'a>(p: &'a [(String, String)], name: &str) -> Option<&'a str> {
    p.iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
        .filter(|v| !v.is_empty())
}

fn number(p: &[(String, String)], name: &str) -> Result<Option<i64>, Fault> {
    param(p, name)
        .map(|v| v.parse::<i64>().map_err(|_| Fault::param(name)))
        .transpose()
}

/// Whether a request needs the key's write permission: every private POST here (orders,
/// cancels, settings) does; reads need only read access.
pub(crate) fn trading(method: &str) -> bool {
    method == "POST"
}

fn linear(p: &[(String, String)], body: &Value) -> Result<(), Fault> {
    let category = param(p, "category").or(body["category"].as_str());
    if category == Some("linear") {
        Ok(())
    } else {
        Err(Fault::param("category"))
    }
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
        ("GET", "/v5/account/info") => Ok(account_info(st, key)),
        ("GET", "/v5/account/wallet-balance") => wallet(st, key, p, now),
        ("POST", "/v5/account/set-margin-mode") => set_margin_mode(st, key, body),
        ("GET", "/v5/account/transaction-log") => transaction_log(st, key, p, now),
        ("GET", "/v5/user/query-api") => Ok(api_key(st, key)),
        ("GET", "/v5/position/list") => positions(st, key, p),
        ("POST", "/v5/position/set-leverage") => set_leverage(st, key, body),
        ("POST", "/v5/position/switch-mode") => switch_mode(st, key, body),
        ("POST", "/v5/order/create") => place(st, key, body, now),
        ("POST", "/v5/order/cancel") => cancel(st, key, body, now),
        ("GET", "/v5/order/realtime") => orders(st, key, p, true),
        ("GET", "/v5/order/history") => orders(st, key, p, false),
        ("GET", "/v5/execution/list") => executions(st, key, p, now),
        _ => Err(Fault::Error {
            code: 10017,
            msg: format!("mock: no endpoint {method} {path}"),
        }),
    }
}

fn account_info(st: &State, key: &str) -> Value {
    let Some(a) = st.accounts.get(key) else {
        return json!({});
    };
    json!({"marginMode": a.margin_mode, "updatedTime": "1697078946000",
        "unifiedMarginStatus": if a.unified { 5 } else { 1 }, "dcpStatus": "OFF",
        "timeWindow": 0, "smpGroup": 0, "isMasterTrader": false, "spotHedgingStatus": "OFF"})
}

/// Bybit leaves out a coin the account holds nothing of unless it is asked for.
fn wallet(st: &mut State, key: &str, p: &[(String, String)], now: i64) -> Result<Value, Fault> {
    if param(p, "accountType") != Some("UNIFIED") {
        return Err(Fault::param("accountType"));
    }
    let (upl, position_im) = st.exposure(key);
    let order_im = st.order_margin(key);
    let cash = st.accounts.get(key).map(|a| a.balance).unwrap_or_default();
    let equity = cash + upl;
    let text = |d: Decimal| d.round_dp(8).normalize().to_string();
    let asked = param(p, "coin").is_some_and(|c| c.split(',').any(|c| c == "USDT"));
    let coins = if cash.is_zero() && upl.is_zero() && !asked {
        vec![]
    } else {
        vec![json!({
            "coin": "USDT", "equity": text(equity), "usdValue": text(equity),
            "walletBalance": text(cash), "locked": "0", "spotHedgingQty": "0",
            "borrowAmount": "0", "accruedInterest": "0", "totalOrderIM": text(order_im),
            "totalPositionIM": text(position_im), "totalPositionMM": "0",
            "unrealisedPnl": text(upl), "cumRealisedPnl": "0", "bonus": "0",
            "marginCollateral": true, "collateralSwitch": true, "spotBorrow": "0",
            "availableToWithdraw": "", "availableToBorrow": "",
        })]
    };
    let available = (cash.min(equity) - position_im - order_im).max(Decimal::ZERO);
    Ok(json!({"list": [{
        "accountType": "UNIFIED", "accountIMRate": "0", "accountMMRate": "0",
        "totalEquity": text(equity), "totalWalletBalance": text(cash),
        "totalMarginBalance": text(equity), "totalAvailableBalance": text(available),
        "totalPerpUPL": text(upl), "totalInitialMargin": text(position_im + order_im),
        "totalMaintenanceMargin": "0", "accountLTV": "0", "coin": coins,
        "updatedTime": now.to_string(),
    }]}))
}

/// Same mode: 110026 (the docs give the code; whether Bybit answers it here or 0 is not
/// documented, so this is the mock's choice). With positions open: 3400045 with the reason
/// in the docs' shape, in the mock's words.
fn set_margin_mode(st: &mut State, key: &str, body: &Value) -> Result<Value, Fault> {
    let mode = match body["setMarginMode"].as_str() {
        Some(m @ ("REGULAR_MARGIN" | "ISOLATED_MARGIN" | "PORTFOLIO_MARGIN")) => m.to_string(),
        _ => return Err(Fault::param("setMarginMode")),
    };
    let account = st
        .accounts
        .get_mut(key)
        .ok_or_else(|| Fault::bybit(10003))?;
    if account.margin_mode == mode {
        return Err(Fault::bybit(110026));
    }
    if !account.positions.is_empty() {
        return Err(Fault::Refusal {
            code: 3400045,
            msg: "Set margin mode failed".into(),
            result: json!({"reasons": [{"reasonCode": "3400000",
                "reasonMsg": "mock: close the open positions before switching the margin mode"}]}),
        });
    }
    account.margin_mode = mode;
    Ok(json!({"reasons": []}))
}

fn api_key(st: &State, key: &str) -> Value {
    let Some(a) = st.accounts.get(key) else {
        return json!({});
    };
    let trade = if a.can_trade {
        json!(["Order", "Position"])
    } else {
        json!([])
    };
    json!({
        "id": "2208369", "note": "nofxi mock", "apiKey": key,
        "readOnly": if a.can_trade { 0 } else { 1 }, "secret": "",
        "permissions": {"ContractTrade": trade, "Spot": [], "Wallet": ["AccountTransfer"],
            "Options": [], "Derivatives": [], "CopyTrading": [], "BlockTrade": [],
            "Exchange": [], "NFT": [], "Affiliate": [], "Earn": []},
        "ips": ["127.0.0.1"], "type": 1, "deadlineDay": -1,
        "expiredAt": "", "createdAt": "2024-01-01T00:00:00Z",
        "uta": if a.unified { 1 } else { 0 }, "userID": 24617703, "inviterID": 0,
        "vipLevel": "No VIP", "mktMakerLevel": "0", "affiliateID": 0, "rsaPublicKey": "",
        "isMaster": true, "parentUid": "0", "kycLevel": "LEVEL_1", "kycRegion": "",
    })
}

/// By symbol: its slots whether held or not (one in one-way mode, two in hedge mode); by
/// settle coin: the positions held.
fn positions(st: &mut State, key: &str, p: &[(String, String)]) -> Result<Value, Fault> {
    linear(p, &Value::Null)?;
    let Some(account) = st.accounts.get(key).cloned() else {
        return Ok(json!({"list": [], "nextPageCursor": "", "category": "linear"}));
    };
    let slots: Vec<(String, u8)> = match (param(p, "symbol"), param(p, "settleCoin")) {
        (Some(symbol), _) => {
            st.instrument(symbol)
                .ok_or_else(|| Fault::param("symbol invalid"))?;
            let idxs: &[u8] = if account.hedge { &[1, 2] } else { &[0] };
            idxs.iter().map(|i| (symbol.to_string(), *i)).collect()
        }
        (None, Some(coin)) => {
            let mut held: Vec<(String, u8)> = account
                .positions
                .keys()
                .filter(|(s, _)| st.instrument(s).is_some_and(|i| i.settle == coin))
                .cloned()
                .collect();
            held.sort();
            held
        }
        (None, None) => return Err(Fault::param("symbol or settleCoin is required")),
    };
    let mut rows = Vec::new();
    for (symbol, idx) in slots {
        let Some(inst) = st.instrument(&symbol) else {
            continue;
        };
        let mark = st.mark(&inst);
        let text = |d: Decimal| d.round_dp(8).normalize().to_string();
        let (side, size, avg, lever, im, upl) = match account.positions.get(&(symbol.clone(), idx))
        {
            Some(pos) => {
                let s = signed(idx, pos.size);
                let side = if s.is_sign_negative() { "Sell" } else { "Buy" };
                (
                    side,
                    pos.size.abs(),
                    pos.avg_price,
                    pos.leverage,
                    initial_margin(pos),
                    (mark - pos.avg_price) * s,
                )
            }
            None => (
                "",
                Decimal::ZERO,
                Decimal::ZERO,
                account.leverage.get(&symbol).copied().unwrap_or(10),
                Decimal::ZERO,
                Decimal::ZERO,
            ),
        };
        rows.push(json!({
            "positionIdx": idx, "riskId": 1, "riskLimitValue": "2000000", "symbol": symbol,
            "side": side, "size": text(size), "avgPrice": text(avg),
            "positionValue": text(size * avg), "autoAddMargin": 0, "positionStatus": "Normal",
            "leverage": lever.to_string(), "breakEvenPrice": text(avg), "markPrice": text(mark),
            "liqPrice": "", "bustPrice": "", "positionIM": text(im), "positionIMByMp": text(im),
            "positionMM": "0", "positionMMByMp": "0", "takeProfit": "0", "stopLoss": "0",
            "trailingStop": "0", "unrealisedPnl": text(upl), "curRealisedPnl": "0",
            "cumRealisedPnl": "0", "adlRankIndicator": 2, "createdTime": "1676538056258",
            "updatedTime": "1697673600012", "seq": 1, "isReduceOnly": false,
            "mmrSysUpdatedTime": "", "leverageSysUpdatedTime": "", "tpslMode": "Full",
            "tradeMode": 0, "sessionAvgPrice": "",
        }));
    }
    Ok(json!({"list": rows, "nextPageCursor": "", "category": "linear"}))
}

fn set_leverage(st: &mut State, key: &str, body: &Value) -> Result<Value, Fault> {
    linear(&[], body)?;
    let symbol = body["symbol"]
        .as_str()
        .ok_or_else(|| Fault::param("symbol"))?;
    st.instrument(symbol)
        .ok_or_else(|| Fault::param("symbol invalid"))?;
    let read = |name: &str| {
        body[name]
            .as_str()
            .and_then(|l| l.parse::<u32>().ok())
            .filter(|l| (1..=100).contains(l))
            .ok_or_else(|| Fault::param(name))
    };
    let (buy, sell) = (read("buyLeverage")?, read("sellLeverage")?);
    // One-way mode (and cross margin): "buyLeverage must be the same as sellLeverage".
    if buy != sell {
        return Err(Fault::param("buyLeverage must be the same as sellLeverage"));
    }
    if leverage(st, key, symbol) == buy
        && st
            .accounts
            .get(key)
            .is_some_and(|a| a.leverage.contains_key(symbol))
    {
        return Err(Fault::bybit(110043));
    }
    let account = st
        .accounts
        .get_mut(key)
        .ok_or_else(|| Fault::bybit(10003))?;
    account.leverage.insert(symbol.to_string(), buy);
    Ok(json!({}))
}

fn switch_mode(st: &mut State, key: &str, body: &Value) -> Result<Value, Fault> {
    linear(&[], body)?;
    if body["symbol"].as_str().is_none() && body["coin"].as_str().is_none() {
        return Err(Fault::param("symbol or coin is required"));
    }
    let hedge = match body["mode"].as_i64() {
        Some(0) => false,
        Some(3) => true,
        _ => return Err(Fault::param("mode")),
    };
    let busy = st.orders.iter().any(|o| o.api_key == key && o.is_open());
    let account = st
        .accounts
        .get_mut(key)
        .ok_or_else(|| Fault::bybit(10003))?;
    if account.hedge == hedge {
        return Err(Fault::bybit(110025));
    }
    if !account.positions.is_empty() {
        return Err(Fault::bybit(110024));
    }
    if busy {
        return Err(Fault::bybit(110028));
    }
    account.hedge = hedge;
    Ok(json!({}))
}

/// Only an open order can be cancelled ("You can only cancel unfilled or partially filled
/// orders"); any other gets 110001. A conditional order cancelled before it fired is
/// `Deactivated`.
fn cancel(st: &mut State, key: &str, body: &Value, now: i64) -> Result<Value, Fault> {
    linear(&[], body)?;
    let symbol = body["symbol"]
        .as_str()
        .ok_or_else(|| Fault::param("symbol"))?;
    let by_id = body["orderId"].as_str().filter(|s| !s.is_empty());
    let by_link = body["orderLinkId"].as_str().filter(|s| !s.is_empty());
    if by_id.is_none() && by_link.is_none() {
        return Err(Fault::param("orderId or orderLinkId is required"));
    }
    let order = st
        .orders
        .iter_mut()
        .find(|o| {
            o.api_key == key
                && o.symbol == symbol
                && o.is_open()
                && match by_id {
                    Some(id) => o.order_id == id,
                    None => by_link.is_some_and(|l| o.order_link_id == l),
                }
        })
        .ok_or_else(|| Fault::bybit(110001))?;
    order.status = if order.status == "Untriggered" {
        "Deactivated"
    } else {
        "Cancelled"
    }
    .into();
    order.updated_ms = now;
    Ok(json!({"orderId": order.order_id, "orderLinkId": order.order_link_id}))
}

/// A page of `rows` from `cursor` (the mock's cursor is an offset).
fn page(
    rows: Vec<Value>,
    p: &[(String, String)],
    default: i64,
    max: i64,
) -> Result<(Vec<Value>, String), Fault> {
    let limit = number(p, "limit")?.unwrap_or(default);
    if !(1..=max).contains(&limit) {
        return Err(Fault::param("limit"));
    }
    let from = param(p, "cursor")
        .map(|c| c.parse::<usize>().map_err(|_| Fault::param("cursor")))
        .transpose()?
        .unwrap_or(0);
    let to = (from + limit as usize).min(rows.len());
    let next = if to < rows.len() {
        to.to_string()
    } else {
        String::new()
    };
    Ok((
        rows.get(from..to)
            .map(<[Value]>::to_vec)
            .unwrap_or_default(),
        next,
    ))
}

/// `realtime`: by id or client id, the order whatever its state (closed ones only until a
/// restart); otherwise open orders (`openOnly` 0) or recent closed ones (1). `history`: any.
fn orders(st: &State, key: &str, p: &[(String, String)], realtime: bool) -> Result<Value, Fault> {
    linear(p, &Value::Null)?;
    let by_id = param(p, "orderId");
    let by_link = param(p, "orderLinkId");
    let symbol = param(p, "symbol");
    let settle = param(p, "settleCoin");
    if realtime
        && by_id.is_none()
        && by_link.is_none()
        && symbol.is_none()
        && settle.is_none()
        && param(p, "baseCoin").is_none()
    {
        return Err(Fault::param("symbol, baseCoin or settleCoin is required"));
    }
    let open_only = param(p, "openOnly").unwrap_or("0") == "0";
    let filter = param(p, "orderFilter");
    let rows: Vec<Value> = st
        .orders
        .iter()
        .rev()
        .filter(|o| o.api_key == key)
        .filter(|o| symbol.is_none_or(|s| s == o.symbol))
        .filter(|o| settle.is_none_or(|c| st.instrument(&o.symbol).is_some_and(|i| i.settle == c)))
        .filter(|o| match filter {
            Some("StopOrder") => o.trigger_price.is_some(),
            Some("Order") => o.trigger_price.is_none(),
            _ => true,
        })
        .filter(|o| match (by_id, by_link) {
            (Some(id), _) => o.order_id == id,
            (None, Some(link)) => o.order_link_id == link,
            (None, None) if realtime => o.is_open() == open_only,
            (None, None) => !o.is_open(),
        })
        .filter(|o| !(realtime && st.realtime_forgot_closed && !o.is_open()))
        .map(|o| o.to_json())
        .collect();
    let (list, next) = page(rows, p, 20, 50)?;
    Ok(json!({"list": list, "nextPageCursor": next, "category": "linear"}))
}

/// The window of a time-ranged list: both ends, one end plus the span, or the last `span`;
/// at most seven days.
fn window(p: &[(String, String)], now: i64, span: i64) -> Result<(i64, i64), Fault> {
    const MAX: i64 = 7 * 86_400_000;
    let (start, end) = match (number(p, "startTime")?, number(p, "endTime")?) {
        (Some(s), Some(e)) => (s, e),
        (Some(s), None) => (s, s + span),
        (None, Some(e)) => (e - span, e),
        (None, None) => (now - span, now),
    };
    if end < start || end - start > MAX {
        return Err(Fault::param("endTime - startTime must be within 7 days"));
    }
    Ok((start, end))
}

/// Newest first; seven days by default.
fn executions(st: &State, key: &str, p: &[(String, String)], now: i64) -> Result<Value, Fault> {
    linear(p, &Value::Null)?;
    let (start, end) = window(p, now, 7 * 86_400_000)?;
    let rows: Vec<Value> = st
        .executions
        .iter()
        .rev()
        .filter(|e| e.api_key == key)
        .filter(|e| param(p, "symbol").is_none_or(|s| s == e.symbol))
        .filter(|e| param(p, "orderId").is_none_or(|i| i == e.order_id))
        .filter(|e| param(p, "orderLinkId").is_none_or(|l| l == e.order_link_id))
        .filter(|e| (start..=end).contains(&e.time_ms))
        .filter(|_| param(p, "execType").is_none_or(|t| t == "Trade"))
        .map(|e| {
            let text = |d: Decimal| d.round_dp(8).normalize().to_string();
            json!({
                "symbol": e.symbol, "orderType": e.order_type, "underlyingPrice": "",
                "orderLinkId": e.order_link_id, "side": e.side, "indexPrice": "",
                "orderId": e.order_id, "stopOrderType": "UNKNOWN", "leavesQty": "0",
                "execTime": e.time_ms.to_string(), "feeCurrency": "", "isMaker": false,
                "execFee": text(e.fee), "feeRate": text(super::state::TAKER_FEE),
                "execId": e.exec_id, "tradeIv": "", "blockTradeId": "", "markPrice": text(e.price),
                "execPrice": text(e.price), "markIv": "", "orderQty": text(e.qty),
                "orderPrice": text(e.price), "execValue": text(e.price * e.qty),
                "execType": "Trade", "execQty": text(e.qty),
                "closedSize": text(e.closed_size), "extraFees": "", "seq": 1,
            })
        })
        .collect();
    let (list, next) = page(rows, p, 50, 100)?;
    Ok(json!({"nextPageCursor": next, "category": "linear", "list": list}))
}

/// Trades as the transaction log books them; a day by default.
fn transaction_log(
    st: &State,
    key: &str,
    p: &[(String, String)],
    now: i64,
) -> Result<Value, Fault> {
    let (start, end) = window(p, now, 86_400_000)?;
    let rows: Vec<Value> = st
        .executions
        .iter()
        .rev()
        .filter(|e| e.api_key == key)
        .filter(|_| param(p, "type").is_none_or(|t| t == "TRADE"))
        .filter(|_| param(p, "category").is_none_or(|c| c == "linear"))
        .filter(|_| param(p, "currency").is_none_or(|c| c == "USDT"))
        .filter(|e| (start..=end).contains(&e.time_ms))
        .map(|e| {
            let text = |d: Decimal| d.round_dp(8).normalize().to_string();
            json!({
                "transSubType": "", "id": format!("{}_{}", e.symbol, e.exec_id),
                "symbol": e.symbol, "side": e.side, "funding": "", "orderLinkId": e.order_link_id,
                "orderId": e.order_id, "fee": text(e.fee), "change": text(e.pnl - e.fee),
                "cashFlow": text(e.pnl), "transactionTime": e.time_ms.to_string(),
                "type": "TRADE", "feeRate": text(super::state::TAKER_FEE), "bonusChange": "",
                "size": text(e.size_after), "qty": text(e.qty),
                "cashBalance": text(e.cash_balance), "currency": "USDT", "category": "linear",
                "tradePrice": text(e.price), "tradeId": e.exec_id, "extraFees": "",
            })
        })
        .collect();
    let (list, next) = page(rows, p, 20, 50)?;
    Ok(json!({"nextPageCursor": next, "list": list}))
}
