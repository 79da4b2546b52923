//! Order placement on the mock: the checks Binance makes (duplicate id, position mode,
//! precision, minimum notional, margin) and real matching against the mock's own book.

use std::str::FromStr;

use rust_decimal::Decimal;
use serde_json::Value;

use super::fault::Fault;
use super::state::{MIN_NOTIONAL, MockFill, MockOrder, State, TAKER_FEE, symbol_rules};

fn bad(code: i64, msg: &str) -> Fault {
    Fault::Error {
        http_status: 400,
        code,
        msg: msg.to_string(),
    }
}

fn dec(p: &[(String, String)], name: &str) -> Option<Decimal> {
    p.iter()
        .find(|(k, _)| k == name)
        .and_then(|(_, v)| Decimal::from_str(v).ok())
}

fn text(p: &[(String, String)], name: &str) -> Option<String> {
    p.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone())
}

pub(crate) fn place(
    state: &mut State,
    key: &str,
    p: &[(String, String)],
    now_ms: i64,
) -> Result<Value, Fault> {
    let symbol = text(p, "symbol")
        .ok_or_else(|| bad(-1102, "Mandatory parameter 'symbol' was not sent."))?;
    let side = text(p, "side").unwrap_or_default();
    let order_type = text(p, "type").unwrap_or_default();
    let qty = dec(p, "quantity")
        .ok_or_else(|| bad(-1102, "Mandatory parameter 'quantity' was not sent."))?;
    let client_id =
        text(p, "newClientOrderId").unwrap_or_else(|| format!("mock-{}", state.next_id));
    let reduce_only = text(p, "reduceOnly").as_deref() == Some("true");
    let position_side = text(p, "positionSide").unwrap_or_else(|| "BOTH".into());
    let (price_dp, qty_dp, _) = symbol_rules(&symbol);

    if state
        .orders
        .iter()
        .any(|o| o.api_key == key && o.client_order_id == client_id)
    {
        return Err(bad(-4116, "ClientOrderId is duplicated."));
    }
    let account = state
        .accounts
        .get(key)
        .cloned()
        .ok_or_else(|| Fault::binance(-2015))?;
    let hedge_side = position_side == "LONG" || position_side == "SHORT";
    if account.dual_side != hedge_side {
        return Err(Fault::binance(-4061));
    }
    let limit = dec(p, "price");
    let stop = dec(p, "stopPrice");
    if qty.scale() > qty_dp
        || limit.is_some_and(|l| l.normalize().scale() > price_dp)
        || stop.is_some_and(|s| s.normalize().scale() > price_dp)
    {
        return Err(Fault::binance(-1111));
    }
    let mid = state.book(&symbol).mid;
    let notional = qty * limit.unwrap_or(mid);
    if !reduce_only && notional < Decimal::from(MIN_NOTIONAL) {
        return Err(Fault::binance(-4164));
    }
    let leverage = Decimal::from(*account.leverage.get(&symbol).unwrap_or(&20));
    let used: Decimal = account
        .positions
        .iter()
        .map(|(_, (amt, entry))| amt.abs() * entry / leverage)
        .sum();
    let available = account.balance - used;
    if !reduce_only && notional / leverage + notional * TAKER_FEE > available {
        return Err(Fault::binance(-2019));
    }

    let id = state.next_id();
    let mut order = MockOrder {
        order_id: id,
        api_key: key.to_string(),
        client_order_id: client_id,
        symbol: symbol.clone(),
        side: side.clone(),
        order_type: order_type.clone(),
        position_side: position_side.clone(),
        status: "NEW".into(),
        quantity: qty,
        price: limit.unwrap_or_default(),
        stop_price: stop.unwrap_or_default(),
        executed: Decimal::ZERO,
        cum_quote: Decimal::ZERO,
        reduce_only,
        time_ms: now_ms,
    };
    let matchable = match order_type.as_str() {
        "MARKET" => Some(None),
        "LIMIT" => Some(limit),
        _ => None, // stop orders wait for a trigger the mock never sees
    };
    if let Some(limit) = matchable {
        for (price, q) in state.take_liquidity(&symbol, &side, qty, limit) {
            order.executed += q;
            order.cum_quote += price * q;
            apply_fill(state, &order, price, q, now_ms);
        }
        order.status = if order.executed == qty {
            "FILLED".into()
        } else if order.executed.is_zero() {
            if order_type == "MARKET" {
                "EXPIRED".into()
            } else {
                "NEW".into()
            }
        } else if order_type == "MARKET" {
            "EXPIRED".into()
        } else {
            "PARTIALLY_FILLED".into()
        };
    }
    let json = order.to_json();
    state.orders.push(order);
    Ok(json)
}

/// Fire the resting stop or take-profit `client_order_id` of `key` now, as Binance does when
/// the mark crosses its trigger: it fills at the book like a market order, reduce-only capped
/// at the position. Binance leaves the position's other protective orders open; so does this.
/// Returns false when no such open trigger order exists.
pub(crate) fn fire(state: &mut State, key: &str, client_order_id: &str, now_ms: i64) -> bool {
    let Some(i) = state.orders.iter().position(|o| {
        o.api_key == key
            && o.client_order_id == client_order_id
            && (o.status == "NEW" || o.status == "PARTIALLY_FILLED")
            && o.order_type != "MARKET"
            && o.order_type != "LIMIT"
    }) else {
        return false;
    };
    let mut order = state.orders[i].clone();
    let held = state
        .accounts
        .get(key)
        .and_then(|a| {
            a.positions
                .get(&(order.symbol.clone(), order.position_side.clone()))
        })
        .map(|(amt, _)| amt.abs())
        .unwrap_or_default();
    let mut qty = order.quantity - order.executed;
    if order.reduce_only {
        qty = qty.min(held);
    }
    if !qty.is_zero() {
        for (price, q) in state.take_liquidity(&order.symbol, &order.side, qty, None) {
            order.executed += q;
            order.cum_quote += price * q;
            apply_fill(state, &order, price, q, now_ms);
        }
    }
    order.status = if order.executed.is_zero() {
        "EXPIRED".into()
    } else {
        "FILLED".into()
    };
    order.time_ms = now_ms;
    state.orders[i] = order;
    true
}

/// Book a fill into the account: position size and entry, realized P&L, fee.
fn apply_fill(state: &mut State, order: &MockOrder, price: Decimal, qty: Decimal, now_ms: i64) {
    let id = state.next_id();
    let signed = if order.side == "BUY" { qty } else { -qty };
    let Some(account) = state.accounts.get_mut(&order.api_key) else {
        return;
    };
    let slot = account
        .positions
        .entry((order.symbol.clone(), order.position_side.clone()))
        .or_insert((Decimal::ZERO, Decimal::ZERO));
    let (amt, entry) = *slot;
    let mut realized = Decimal::ZERO;
    if amt.is_zero() || amt.is_sign_positive() == signed.is_sign_positive() {
        let new_amt = amt + signed;
        let new_entry = (amt.abs() * entry + qty * price) / new_amt.abs();
        *slot = (new_amt, new_entry);
    } else {
        let closing = qty.min(amt.abs());
        realized = if amt.is_sign_positive() {
            (price - entry) * closing
        } else {
            (entry - price) * closing
        };
        let new_amt = amt + signed;
        let new_entry = if new_amt.is_zero() {
            Decimal::ZERO
        } else if new_amt.is_sign_positive() == amt.is_sign_positive() {
            entry
        } else {
            price
        };
        *slot = (new_amt, new_entry);
    }
    let fee = (price * qty * TAKER_FEE).round_dp(8);
    account.balance += realized - fee;
    state.fills.push(MockFill {
        id,
        api_key: order.api_key.clone(),
        order_id: order.order_id,
        symbol: order.symbol.clone(),
        side: order.side.clone(),
        price,
        qty,
        commission: fee,
        realized_pnl: realized,
        position_side: order.position_side.clone(),
        time_ms: now_ms,
    });
}
