//! Orders on the mock: the checks Bitget makes before it takes one (symbol, product line,
//! margin mode, size scale, step and minimums, one-way vs hedge dialect, reduce-only, client
//! id, balance), real matching against the mock's own book, and positions in the base coin.
//! Take-profit and stop-loss plans are in [`super::plans`].
//!
//! Parameters and refusals: Bitget API docs, "Futures" → "Trade" → "Place Order"
//! (https://www.bitget.com/api-doc/contract/trade/Place-Order) and the error-code table. What
//! the docs leave open is the mock's own choice, said where it is made: a hedge-mode order
//! without `tradeSide` gets 43075 ("Position pattern mismatch"); an order whose `marginMode`
//! is not the symbol's gets 40020; a client id is refused (45034) if any order of the account
//! had it.

use std::str::FromStr;

use rust_decimal::Decimal;
use serde_json::{Value, json};

use super::fault::Fault;
use super::state::{Contract, MockBitgetOrder, MockFill, MockPosition, State, TAKER_FEE};

pub(super) fn text<'a>(body: &'a Value, name: &str) -> Option<&'a str> {
    body[name].as_str().filter(|s| !s.is_empty())
}

pub(super) fn dec(body: &Value, name: &str) -> Option<Decimal> {
    text(body, name).and_then(|s| Decimal::from_str(s).ok())
}

pub(super) fn is_multiple(value: Decimal, step: Decimal) -> bool {
    step > Decimal::ZERO && (value / step).fract().is_zero()
}

/// Bitget's client id rule: at most 50 characters (40304), none outside printable ASCII
/// ("cannot be Martian characters", 40305).
pub(super) fn check_client_id(id: &str) -> Result<(), Fault> {
    if id.len() > 50 {
        return Err(Fault::bitget(40304));
    }
    if !id.chars().all(|c| c.is_ascii_graphic()) {
        return Err(Fault::bitget(40305));
    }
    Ok(())
}

/// Whether `key` has used `id` on any order or plan.
pub(super) fn used_client_id(st: &State, key: &str, id: &str) -> bool {
    st.orders
        .iter()
        .any(|o| o.api_key == key && o.client_oid == id)
        || st
            .plans
            .iter()
            .any(|p| p.api_key == key && p.client_oid == id)
}

/// The contract a body names, in the USDT-M product line with USDT margin.
pub(super) fn contract_of(st: &State, body: &Value) -> Result<Contract, Fault> {
    let symbol = text(body, "symbol").ok_or_else(|| Fault::empty("symbol"))?;
    match text(body, "productType") {
        Some(p) if p.eq_ignore_ascii_case("USDT-FUTURES") => {}
        Some(_) => return Err(Fault::parameter("productType")),
        None => return Err(Fault::empty("productType")),
    }
    if text(body, "marginCoin").is_some_and(|m| !m.eq_ignore_ascii_case("USDT")) {
        return Err(Fault::parameter("marginCoin"));
    }
    st.contract(symbol).ok_or_else(|| Fault::bitget(40102))
}

/// A size in coins that fits the contract: positive, no more decimals than `volumePlace`, a
/// multiple of `sizeMultiplier`, at least `minTradeNum`.
pub(super) fn check_size(c: &Contract, body: &Value) -> Result<Decimal, Fault> {
    let raw = text(body, "size").ok_or_else(|| Fault::empty("size"))?;
    let size = Decimal::from_str(raw).map_err(|_| Fault::parameter("size"))?;
    if size <= Decimal::ZERO {
        return Err(Fault::parameter("size"));
    }
    if size.normalize().scale() > c.volume_place {
        return Err(Fault::scale(raw, c.volume_place));
    }
    if !is_multiple(size, c.size_multiplier) {
        return Err(Fault::bitget(22038));
    }
    if size < c.min_trade_num {
        return Err(Fault::bitget(45111));
    }
    Ok(size)
}

/// The position `hold` of `symbol` an account holds, in coins.
pub(super) fn held(st: &State, key: &str, symbol: &str, hold: &str) -> Decimal {
    st.accounts
        .get(key)
        .and_then(|a| a.positions.get(&(symbol.to_string(), hold.to_string())))
        .map(|p| p.size)
        .unwrap_or_default()
}

/// The direction of the trade an order makes: its side in one-way mode and when it opens in
/// hedge mode; the other way when it closes in hedge mode.
fn trades_buy(order: &MockBitgetOrder) -> bool {
    (order.side == "buy") != (order.trade_side == "close")
}

/// `POST /api/v2/mix/order/place-order`.
pub(crate) fn place(st: &mut State, key: &str, body: &Value, now: i64) -> Result<Value, Fault> {
    let c = contract_of(st, body)?;
    let account = st.accounts.get(key).ok_or_else(|| Fault::bitget(40006))?;
    let hedge = account.hedge;
    let margin_mode = account.margin_mode(c.symbol);
    let lever = account.lever(c.symbol);
    let side = match text(body, "side") {
        Some(s @ ("buy" | "sell")) => s.to_string(),
        _ => return Err(Fault::parameter("side")),
    };
    match text(body, "marginMode") {
        Some(m) if m == margin_mode => {}
        Some(_) => return Err(Fault::parameter("marginMode")),
        None => return Err(Fault::empty("marginMode")),
    }
    let order_type = match text(body, "orderType") {
        Some(t @ ("market" | "limit")) => t.to_string(),
        _ => return Err(Fault::parameter("orderType")),
    };
    let size = check_size(&c, body)?;
    let trade_side = match (hedge, text(body, "tradeSide")) {
        (false, None) => String::new(),
        (false, Some(_)) => return Err(Fault::bitget(40774)),
        (true, Some(t @ ("open" | "close"))) => t.to_string(),
        (true, _) => return Err(Fault::bitget(43075)),
    };
    let price = dec(body, "price");
    let force = text(body, "force").unwrap_or("gtc").to_string();
    if order_type == "limit" {
        let p = price.ok_or_else(|| Fault::empty("price"))?;
        if !is_multiple(p, c.tick()) {
            return Err(Fault::price_step(&c.tick().to_string()));
        }
        if !matches!(force.as_str(), "gtc" | "ioc" | "fok" | "post_only") {
            return Err(Fault::parameter("force"));
        }
    }
    let client_oid = text(body, "clientOid").unwrap_or_default().to_string();
    if !client_oid.is_empty() {
        check_client_id(&client_oid)?;
        if used_client_id(st, key, &client_oid) {
            return Err(Fault::bitget(45034));
        }
    }
    // "reduceOnly … Applicable only in one-way-position mode".
    let reduce_only =
        !hedge && text(body, "reduceOnly").is_some_and(|r| r.eq_ignore_ascii_case("yes"));
    let mut order = MockBitgetOrder {
        order_id: String::new(),
        api_key: key.to_string(),
        client_oid: client_oid.clone(),
        symbol: c.symbol.to_string(),
        side,
        trade_side,
        order_type: order_type.clone(),
        margin_mode,
        hedge,
        state: "live".into(),
        size,
        price: if order_type == "limit" { price } else { None },
        force: force.clone(),
        base_volume: Decimal::ZERO,
        filled_value: Decimal::ZERO,
        reduce_only,
        profit: Decimal::ZERO,
        fee: Decimal::ZERO,
        time_ms: now,
    };
    let buy = trades_buy(&order);
    // What the order may close: the position against it (one-way), or the one it names.
    let against = match (hedge, buy) {
        (false, true) => held(st, key, c.symbol, "short"),
        (false, false) => held(st, key, c.symbol, "long"),
        (true, _) => held(st, key, c.symbol, order.pos_side()),
    };
    if reduce_only || order.trade_side == "close" {
        if against.is_zero() {
            return Err(Fault::bitget(22002));
        }
        order.size = order.size.min(against);
    } else {
        let at = price.unwrap_or_else(|| st.mark(&c));
        if size * at < c.min_trade_usdt {
            return Err(Fault::below_minimum_amount(&c.min_trade_usdt.to_string()));
        }
        let opening = if hedge {
            size
        } else {
            (size - against).max(Decimal::ZERO)
        };
        let notional = opening * at;
        let (upl, cross, isolated) = st.exposure(key);
        let balance = st.accounts.get(key).map(|a| a.balance).unwrap_or_default();
        if notional / Decimal::from(lever.max(1)) + notional * TAKER_FEE
            > balance + upl - cross - isolated
        {
            return Err(Fault::bitget(43012));
        }
    }
    order.order_id = st.next_id().to_string();
    let limit = if order_type == "market" { None } else { price };
    execute(st, &c, &mut order, limit, now);
    finish(&mut order);
    let order_id = order.order_id.clone();
    st.orders.push(order);
    Ok(json!({"clientOid": client_oid, "orderId": order_id}))
}

/// The order's state once matching is done: filled, partly filled and resting, resting, or
/// (a market or IOC remainder) cancelled.
pub(super) fn finish(order: &mut MockBitgetOrder) {
    order.state = if order.base_volume == order.size {
        "filled".into()
    } else if order.order_type == "market" || order.force == "ioc" || order.force == "fok" {
        if order.base_volume.is_zero() {
            "canceled".into()
        } else {
            "filled".into()
        }
    } else if order.base_volume.is_zero() {
        "live".into()
    } else {
        "partially_filled".into()
    };
}

/// Match `order` against the book (no worse than `limit`) and book every fill.
pub(super) fn execute(
    st: &mut State,
    c: &Contract,
    order: &mut MockBitgetOrder,
    limit: Option<Decimal>,
    now: i64,
) {
    let left = order.size - order.base_volume;
    for (price, size) in st.take_liquidity(c, trades_buy(order), left, limit) {
        order.base_volume += size;
        order.filled_value += price * size;
        apply_fill(st, c, order, price, size, now);
    }
}

/// Add `size` at `price` to the position `hold`.
fn add(
    positions: &mut std::collections::HashMap<(String, String), MockPosition>,
    slot: (String, String),
    size: Decimal,
    price: Decimal,
    mode: &str,
    lever: u32,
) {
    let p = positions.entry(slot).or_insert(MockPosition {
        size: Decimal::ZERO,
        avg_px: Decimal::ZERO,
        margin_mode: mode.to_string(),
        lever,
    });
    p.avg_px = (p.size * p.avg_px + size * price) / (p.size + size);
    p.size += size;
    p.lever = lever;
    p.margin_mode = mode.to_string();
}

/// Book one fill into the account: positions, realized P&L and fee; a position closed to zero
/// takes its take-profit and stop-loss plans with it.
fn apply_fill(
    st: &mut State,
    c: &Contract,
    order: &mut MockBitgetOrder,
    price: Decimal,
    size: Decimal,
    now: i64,
) {
    let trade_id = st.next_id();
    let buy = trades_buy(order);
    let Some(account) = st.accounts.get_mut(&order.api_key) else {
        return;
    };
    let mode = account.margin_mode(c.symbol);
    let lever = account.lever(c.symbol);
    let symbol = c.symbol.to_string();
    // (position closed from, coins closed), then what opens.
    let (close_from, open_into) = if order.hedge {
        let hold = order.pos_side().to_string();
        if order.trade_side == "close" {
            (Some(hold), None)
        } else {
            (None, Some(hold))
        }
    } else if buy {
        (Some("short".to_string()), Some("long".to_string()))
    } else {
        (Some("long".to_string()), Some("short".to_string()))
    };
    let mut left = size;
    let mut pnl = Decimal::ZERO;
    let mut emptied = None;
    if let Some(hold) = close_from {
        let slot = (symbol.clone(), hold.clone());
        if let Some(p) = account.positions.get_mut(&slot) {
            let closing = left.min(p.size);
            let direction = if hold == "short" {
                -Decimal::ONE
            } else {
                Decimal::ONE
            };
            pnl = (price - p.avg_px) * closing * direction;
            p.size -= closing;
            left -= closing;
            if p.size.is_zero() {
                account.positions.remove(&slot);
                emptied = Some(hold);
            }
        }
    }
    if let Some(hold) = open_into
        && left > Decimal::ZERO
    {
        add(
            &mut account.positions,
            (symbol.clone(), hold),
            left,
            price,
            &mode,
            lever,
        );
    }
    let fee = (price * size * TAKER_FEE).round_dp(8);
    account.balance += pnl - fee;
    order.fee += fee;
    order.profit += pnl;
    let trade_side = match (order.hedge, buy) {
        (true, _) => order.trade_side.clone(),
        (false, true) => "buy_single".into(),
        (false, false) => "sell_single".into(),
    };
    st.fills.push(MockFill {
        trade_id,
        api_key: order.api_key.clone(),
        order_id: order.order_id.clone(),
        symbol: symbol.clone(),
        side: order.side.clone(),
        trade_side,
        hedge: order.hedge,
        price,
        size,
        fee,
        profit: pnl,
        time_ms: now,
    });
    if let Some(hold) = emptied {
        // TP/SL orders are "based on the position": with it gone, they go too.
        for plan in st.plans.iter_mut().filter(|p| {
            p.api_key == order.api_key && p.symbol == symbol && p.hold == hold && p.status == "live"
        }) {
            plan.status = "cancelled".into();
            plan.time_ms = now;
        }
    }
}
