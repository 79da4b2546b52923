//! Orders on the mock: the checks Bybit makes before it takes one (symbol, client id,
//! position index, step and minimum size, tick, minimum value, reduce-only, trigger direction,
//! margin), real matching against the mock's own book, positions in coins (one-way or hedge),
//! and conditional orders fired when [`super::MockBybit::set_price`] moves the mark across
//! them.
//!
//! Parameters and refusals: Bybit API v5 docs, "Trade" → "Place Order"
//! (https://bybit-exchange.github.io/docs/v5/order/create-order) and "Error Codes"; a
//! close-on-trigger order that fires with no position left is cancelled (Bybit's help
//! centre, "What is a Close On Trigger Order"), here as `Deactivated`. The words of 10001
//! refusals are the mock's ([`Fault::param`]).

use std::str::FromStr;

use rust_decimal::Decimal;
use serde_json::{Value, json};

use super::fault::Fault;
use super::state::{Instrument, MockBybitOrder, MockExecution, MockPosition, State, TAKER_FEE};

pub(super) fn text<'a>(body: &'a Value, name: &str) -> Option<&'a str> {
    body[name].as_str().filter(|s| !s.is_empty())
}

pub(super) fn dec(body: &Value, name: &str) -> Option<Decimal> {
    text(body, name).and_then(|s| Decimal::from_str(s).ok())
}

pub(super) fn flag(body: &Value, name: &str) -> bool {
    body[name].as_bool().unwrap_or(false)
}

/// Bybit's client id rule: up to 36 letters, digits, dashes and underscores.
fn valid_link_id(id: &str) -> bool {
    id.len() <= 36
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

pub(super) fn is_multiple(value: Decimal, step: Decimal) -> bool {
    step > Decimal::ZERO && (value / step).fract().is_zero()
}

/// The leverage set for a symbol; 10 until one is set.
pub(crate) fn leverage(st: &State, key: &str, symbol: &str) -> u32 {
    st.accounts
        .get(key)
        .and_then(|a| a.leverage.get(symbol))
        .copied()
        .unwrap_or(10)
}

/// The coins `key` holds that an order on `idx` and `side` would reduce.
fn reducible(st: &State, key: &str, symbol: &str, idx: u8, side: &str) -> Decimal {
    let held = st
        .accounts
        .get(key)
        .and_then(|a| a.positions.get(&(symbol.to_string(), idx)))
        .map(|p| p.size)
        .unwrap_or_default();
    match (idx, side) {
        (0, "Sell") | (1, "Sell") => held.max(Decimal::ZERO),
        (0, "Buy") => (-held).max(Decimal::ZERO),
        (2, "Buy") => held.abs(),
        _ => Decimal::ZERO,
    }
}

/// How many of `qty` coins open (rather than close) a position.
fn opening(st: &State, key: &str, symbol: &str, idx: u8, side: &str, qty: Decimal) -> Decimal {
    (qty - reducible(st, key, symbol, idx, side)).max(Decimal::ZERO)
}

/// `POST /v5/order/create` for `key`.
pub(crate) fn place(st: &mut State, key: &str, body: &Value, now: i64) -> Result<Value, Fault> {
    if text(body, "category") != Some("linear") {
        return Err(Fault::param("category"));
    }
    let symbol = text(body, "symbol").ok_or_else(|| Fault::param("symbol"))?;
    let inst = st
        .instrument(symbol)
        .ok_or_else(|| Fault::param("symbol invalid"))?;
    let side = match text(body, "side") {
        Some(s @ ("Buy" | "Sell")) => s.to_string(),
        _ => return Err(Fault::param("side")),
    };
    let order_type = match text(body, "orderType") {
        Some(t @ ("Market" | "Limit")) => t.to_string(),
        _ => return Err(Fault::param("orderType")),
    };
    let qty = dec(body, "qty")
        .filter(|q| *q > Decimal::ZERO)
        .ok_or_else(|| Fault::param("qty"))?;
    let link = text(body, "orderLinkId").unwrap_or_default().to_string();
    if !valid_link_id(&link) {
        return Err(Fault::param("orderLinkId"));
    }
    // "your customized order ID should be … unique": any order with it, whatever its state.
    if !link.is_empty()
        && st
            .orders
            .iter()
            .any(|o| o.api_key == key && o.order_link_id == link)
    {
        return Err(Fault::bybit(110072));
    }
    let hedge = st.accounts.get(key).is_some_and(|a| a.hedge);
    let idx = body["positionIdx"].as_u64().unwrap_or(0);
    let idx = match (hedge, idx) {
        (false, 0) => 0,
        (true, 1 | 2) => idx as u8,
        _ => {
            return Err(Fault::Error {
                code: 10001,
                msg: "position idx not match position mode".into(),
            });
        }
    };
    if !is_multiple(qty, inst.step) {
        return Err(Fault::param("Qty invalid"));
    }
    if qty < inst.min_qty {
        return Err(Fault::param(
            "The number of contracts below min limit allowed",
        ));
    }
    let price = dec(body, "price");
    if order_type == "Limit" {
        let p = price.ok_or_else(|| Fault::param("price"))?;
        if !is_multiple(p, inst.tick) {
            return Err(Fault::param("price invalid"));
        }
    }
    let reduce_only = flag(body, "reduceOnly");
    let close_on_trigger = flag(body, "closeOnTrigger");
    let mark = st.mark(&inst);
    let trigger = dec(body, "triggerPrice");
    let direction = body["triggerDirection"].as_u64().unwrap_or(0) as u8;
    if let Some(t) = trigger {
        if !is_multiple(t, inst.tick) {
            return Err(Fault::param("triggerPrice invalid"));
        }
        match direction {
            1 if t <= mark => {
                return Err(Fault::Error {
                    code: 110092,
                    msg: format!(
                        "expect Rising, but trigger_price[{t}] <= current[{mark}]??MarkPrice"
                    ),
                });
            }
            2 if t >= mark => {
                return Err(Fault::Error {
                    code: 110093,
                    msg: format!(
                        "expect Falling, but trigger_price[{t}] >= current[{mark}]??MarkPrice"
                    ),
                });
            }
            1 | 2 => {}
            _ => return Err(Fault::param("triggerDirection")),
        }
    }
    let value_price = trigger.or(price).unwrap_or(mark);
    if !reduce_only && qty * value_price < inst.min_notional {
        return Err(Fault::bybit(110094));
    }
    if trigger.is_none() {
        if reduce_only && reducible(st, key, symbol, idx, &side).is_zero() {
            return Err(Fault::bybit(110017));
        }
        check_margin(st, key, &inst, idx, &side, qty, price)?;
    }
    let order_id = st.uuid();
    let time_in_force = match (order_type.as_str(), text(body, "timeInForce")) {
        ("Market", _) => "IOC".to_string(),
        (_, Some(t @ ("GTC" | "IOC" | "FOK" | "PostOnly"))) => t.to_string(),
        (_, None) => "GTC".to_string(),
        _ => return Err(Fault::param("timeInForce")),
    };
    let mut order = MockBybitOrder {
        order_id: order_id.clone(),
        api_key: key.to_string(),
        order_link_id: link.clone(),
        symbol: symbol.to_string(),
        side,
        order_type,
        position_idx: idx,
        qty,
        price: price.filter(|_| trigger.is_none()),
        time_in_force,
        status: "New".into(),
        cum_exec_qty: Decimal::ZERO,
        cum_exec_value: Decimal::ZERO,
        cum_exec_fee: Decimal::ZERO,
        reduce_only: reduce_only || close_on_trigger,
        close_on_trigger,
        trigger_price: trigger,
        trigger_direction: if trigger.is_some() { direction } else { 0 },
        created_ms: now,
        updated_ms: now,
    };
    if trigger.is_some() {
        // "the conditional order does not occupy the margin" until it fires.
        order.status = "Untriggered".into();
    } else {
        work(st, &inst, &mut order, now);
    }
    st.orders.push(order);
    Ok(json!({"orderId": order_id, "orderLinkId": link}))
}

/// Match a live order now: market and IOC take what they can and cancel the rest, post-only
/// is cancelled if it would take, GTC rests what it does not fill.
fn work(st: &mut State, inst: &Instrument, order: &mut MockBybitOrder, now: i64) {
    let limit = if order.order_type == "Market" {
        None
    } else {
        order.price
    };
    if order.time_in_force == "PostOnly" {
        let book = st.book(inst).clone();
        let crosses = match (order.side.as_str(), limit) {
            ("Buy", Some(p)) => book.asks.first().is_some_and(|a| a.0 <= p),
            (_, Some(p)) => book.bids.first().is_some_and(|b| b.0 >= p),
            _ => false,
        };
        if crosses {
            order.status = "Cancelled".into();
            return;
        }
    }
    if order.reduce_only {
        // A closing order larger than the position is cut to it (Bybit's help centre, "What
        // is a Close On Trigger Order": "the system will auto-adjust the order quantity").
        let held = reducible(
            st,
            &order.api_key,
            &order.symbol,
            order.position_idx,
            &order.side,
        );
        order.qty = order.qty.min(held);
    }
    if order.time_in_force == "FOK" {
        let available: Decimal = st
            .clone_book_side(inst, &order.side, limit)
            .iter()
            .map(|l| l.1)
            .sum();
        if available < order.qty {
            order.status = "Cancelled".into();
            return;
        }
    }
    let side = order.side.clone();
    for (price, size) in st.take_liquidity(inst, &side, order.qty, limit) {
        apply_fill(st, inst, order, price, size, now);
    }
    let rests =
        order.order_type == "Limit" && matches!(order.time_in_force.as_str(), "GTC" | "PostOnly");
    order.status = if order.cum_exec_qty == order.qty && !order.qty.is_zero() {
        "Filled"
    } else if !rests {
        // What a market or IOC order could not fill is cancelled; "In derivatives, orders
        // with this status may have an executed qty".
        "Cancelled"
    } else if order.cum_exec_qty.is_zero() {
        "New"
    } else {
        "PartiallyFilled"
    }
    .into();
    order.updated_ms = now;
}

impl State {
    /// The levels an order on `side` could take, no worse than `limit`.
    fn clone_book_side(
        &mut self,
        inst: &Instrument,
        side: &str,
        limit: Option<Decimal>,
    ) -> Vec<(Decimal, Decimal)> {
        let book = self.book(inst).clone();
        let levels = if side == "Buy" { book.asks } else { book.bids };
        levels
            .into_iter()
            .filter(|(p, _)| match limit {
                Some(l) if side == "Buy" => *p <= l,
                Some(l) => *p >= l,
                None => true,
            })
            .collect()
    }
}

/// 110007 when the margin of the opening part and its fee exceed what is available.
fn check_margin(
    st: &mut State,
    key: &str,
    inst: &Instrument,
    idx: u8,
    side: &str,
    qty: Decimal,
    price: Option<Decimal>,
) -> Result<(), Fault> {
    let open = opening(st, key, inst.symbol, idx, side, qty);
    if open.is_zero() {
        return Ok(());
    }
    let price = price.unwrap_or_else(|| st.mark(inst));
    let lever = leverage(st, key, inst.symbol);
    let notional = open * price;
    let (upl, used) = st.exposure(key);
    let orders = st.order_margin(key);
    let balance = st.accounts.get(key).map(|a| a.balance).unwrap_or_default();
    let available = balance.min(balance + upl) - used - orders;
    if notional / Decimal::from(lever) + notional * TAKER_FEE > available {
        return Err(Fault::bybit(110007));
    }
    Ok(())
}

/// Book one fill into the account: position size and entry, realized P&L, fee, and the
/// execution the trade history and the transaction log show.
fn apply_fill(
    st: &mut State,
    inst: &Instrument,
    order: &mut MockBybitOrder,
    price: Decimal,
    qty: Decimal,
    now: i64,
) {
    let exec_id = st.uuid();
    let lever = leverage(st, &order.api_key, inst.symbol);
    let Some(account) = st.accounts.get_mut(&order.api_key) else {
        return;
    };
    let slot_key = (inst.symbol.to_string(), order.position_idx);
    let slot = account
        .positions
        .entry(slot_key.clone())
        .or_insert(MockPosition {
            size: Decimal::ZERO,
            avg_price: Decimal::ZERO,
            leverage: lever,
        });
    // In one-way mode the size is signed; on a hedge side it is positive.
    let delta = match (order.position_idx, order.side.as_str()) {
        (0, "Buy") | (1, "Buy") | (2, "Sell") => qty,
        _ => -qty,
    };
    let held = slot.size;
    let mut pnl = Decimal::ZERO;
    let mut closed = Decimal::ZERO;
    if held.is_zero() || held.is_sign_positive() == delta.is_sign_positive() {
        let total = held + delta;
        slot.avg_price = (held.abs() * slot.avg_price + qty * price) / total.abs();
        slot.size = total;
        slot.leverage = lever;
    } else {
        closed = qty.min(held.abs());
        let direction = if order.position_idx == 2 || held.is_sign_negative() {
            -Decimal::ONE
        } else {
            Decimal::ONE
        };
        pnl = (price - slot.avg_price) * closed * direction;
        let rest = held + delta;
        if rest.is_zero() {
            slot.avg_price = Decimal::ZERO;
        } else if rest.is_sign_positive() != held.is_sign_positive() {
            // One-way mode: the rest opens the other way at this price.
            slot.avg_price = price;
            slot.leverage = lever;
        }
        slot.size = rest;
    }
    let size_after = super::state::signed(order.position_idx, slot.size);
    if slot.size.is_zero() {
        account.positions.remove(&slot_key);
    }
    let fee = (price * qty * TAKER_FEE).round_dp(8);
    account.balance += pnl - fee;
    let cash_balance = account.balance;
    order.cum_exec_qty += qty;
    order.cum_exec_value += price * qty;
    order.cum_exec_fee += fee;
    st.executions.push(MockExecution {
        exec_id,
        api_key: order.api_key.clone(),
        order_id: order.order_id.clone(),
        order_link_id: order.order_link_id.clone(),
        symbol: inst.symbol.to_string(),
        side: order.side.clone(),
        order_type: order.order_type.clone(),
        price,
        qty,
        fee,
        pnl,
        closed_size: closed,
        size_after,
        cash_balance,
        time_ms: now,
    });
}

/// Fire every untriggered order of `inst` the mark now crosses, oldest first: each becomes
/// a market order that keeps its id, or is cancelled (`Deactivated`) when it may only close
/// and there is nothing left to close.
pub(crate) fn fire_crossed(st: &mut State, inst: &Instrument, now: i64) {
    let mark = st.mark(inst);
    for i in 0..st.orders.len() {
        let o = &st.orders[i];
        if o.symbol != inst.symbol || o.status != "Untriggered" {
            continue;
        }
        let crossed = match (o.trigger_direction, o.trigger_price) {
            (1, Some(t)) => mark >= t,
            (2, Some(t)) => mark <= t,
            _ => false,
        };
        if !crossed {
            continue;
        }
        let mut order = st.orders[i].clone();
        order.updated_ms = now;
        if order.reduce_only
            && reducible(
                st,
                &order.api_key,
                &order.symbol,
                order.position_idx,
                &order.side,
            )
            .is_zero()
        {
            order.status = "Deactivated".into();
        } else {
            order.order_type = "Market".into();
            work(st, inst, &mut order, now);
        }
        st.orders[i] = order;
    }
}
