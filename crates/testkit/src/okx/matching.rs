//! Orders on the mock: the checks OKX makes before it takes one (instrument, client id, mode,
//! lot and minimum size, reduce-only, margin), real matching against the mock's own book, and
//! positions in contracts (net or long/short). Algo orders are in [`super::algos`].
//!
//! Parameters and refusals: OKX API v5 docs, "POST / Place order"
//! (https://www.okx.com/docs-v5/en/#order-book-trading-trade-post-place-order).

use std::str::FromStr;

use rust_decimal::Decimal;
use serde_json::{Value, json};

use super::fault::Fault;
use super::state::{Instrument, MockFill, MockOkxOrder, MockPosition, State, TAKER_FEE};

pub(super) fn text<'a>(body: &'a Value, name: &str) -> Option<&'a str> {
    body[name].as_str().filter(|s| !s.is_empty())
}

pub(super) fn dec(body: &Value, name: &str) -> Option<Decimal> {
    text(body, name).and_then(|s| Decimal::from_str(s).ok())
}

pub(super) fn flag(body: &Value, name: &str) -> bool {
    body[name].as_bool().unwrap_or(false) || text(body, name) == Some("true")
}

/// OKX's client id rule: 1–32 letters and digits.
pub(super) fn valid_client_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 32 && id.chars().all(|c| c.is_ascii_alphanumeric())
}

pub(super) fn is_multiple(value: Decimal, step: Decimal) -> bool {
    step > Decimal::ZERO && (value / step).fract().is_zero()
}

/// What an order of `key` may send: instrument, side, position side and size, checked.
pub(super) struct Common {
    pub(super) inst: Instrument,
    pub(super) side: String,
    pub(super) pos_side: String,
    pub(super) td_mode: String,
    pub(super) sz: Decimal,
}

pub(super) fn common(st: &State, key: &str, body: &Value) -> Result<Common, Fault> {
    let inst_id = text(body, "instId").ok_or_else(|| Fault::empty("instId"))?;
    let inst = st.instrument(inst_id).ok_or_else(|| Fault::okx(51001))?;
    let side = match text(body, "side") {
        Some(s @ ("buy" | "sell")) => s.to_string(),
        _ => return Err(Fault::parameter("side")),
    };
    let td_mode = match text(body, "tdMode") {
        Some(m @ ("cross" | "isolated")) => m.to_string(),
        _ => return Err(Fault::parameter("tdMode")),
    };
    let long_short = st.accounts.get(key).is_some_and(|a| a.long_short);
    let pos_side = match (long_short, text(body, "posSide")) {
        (false, None | Some("net")) => "net".to_string(),
        (true, Some(s @ ("long" | "short"))) => s.to_string(),
        _ => return Err(Fault::parameter("posSide")),
    };
    let sz = dec(body, "sz").ok_or_else(|| Fault::parameter("sz"))?;
    if sz <= Decimal::ZERO {
        return Err(Fault::parameter("sz"));
    }
    if !is_multiple(sz, inst.lot) {
        return Err(Fault::okx(51121));
    }
    if sz < inst.min {
        return Err(Fault::okx(51020));
    }
    Ok(Common {
        inst,
        side,
        pos_side,
        td_mode,
        sz,
    })
}

/// How many of `sz` contracts open (rather than close) a position.
fn opening(st: &State, key: &str, c: &Common) -> Decimal {
    let held = st
        .accounts
        .get(key)
        .and_then(|a| {
            a.positions
                .get(&(c.inst.inst_id.to_string(), c.pos_side.clone()))
        })
        .map(|p| p.pos)
        .unwrap_or_default();
    match c.pos_side.as_str() {
        // Net: selling against a long (or buying against a short) closes first.
        "net" => {
            let against = if c.side == "buy" { -held } else { held };
            (c.sz - against.max(Decimal::ZERO)).max(Decimal::ZERO)
        }
        "long" if c.side == "buy" => c.sz,
        "short" if c.side == "sell" => c.sz,
        _ => Decimal::ZERO,
    }
}

/// The contracts `key` holds that an order of `c` would reduce.
pub(super) fn reducible(st: &State, key: &str, c: &Common) -> Decimal {
    let held = st
        .accounts
        .get(key)
        .and_then(|a| {
            a.positions
                .get(&(c.inst.inst_id.to_string(), c.pos_side.clone()))
        })
        .map(|p| p.pos)
        .unwrap_or_default();
    match (c.pos_side.as_str(), c.side.as_str()) {
        ("net", "sell") | ("long", "sell") => held.max(Decimal::ZERO),
        ("net", "buy") => (-held).max(Decimal::ZERO),
        ("short", "buy") => held.abs(),
        _ => Decimal::ZERO,
    }
}

/// `POST /api/v5/trade/order`.
pub(crate) fn place(st: &mut State, key: &str, body: &Value, now: i64) -> Result<Value, Fault> {
    let c = common(st, key, body)?;
    let cl_ord_id = text(body, "clOrdId").unwrap_or_default().to_string();
    if !cl_ord_id.is_empty() && !valid_client_id(&cl_ord_id) {
        return Err(Fault::parameter("clOrdId"));
    }
    // OKX refuses a client id only while an order with it is pending.
    if !cl_ord_id.is_empty()
        && st
            .orders
            .iter()
            .any(|o| o.api_key == key && o.cl_ord_id == cl_ord_id && o.is_live())
    {
        return Err(Fault::okx(51016));
    }
    let ord_type = text(body, "ordType").unwrap_or_default().to_string();
    let px = dec(body, "px");
    match ord_type.as_str() {
        "market" => {}
        "limit" | "post_only" | "ioc" | "fok" => {
            let px = px.ok_or_else(|| Fault::parameter("px"))?;
            if !is_multiple(px, c.inst.tick) {
                return Err(Fault::parameter("px"));
            }
        }
        _ => return Err(Fault::parameter("ordType")),
    }
    let reduce_only = flag(body, "reduceOnly");
    let mut sz = c.sz;
    if reduce_only {
        let held = reducible(st, key, &c);
        if held.is_zero() {
            return Err(Fault::okx(51169));
        }
        sz = sz.min(held);
    } else {
        check_margin(st, key, &c, px)?;
    }
    let ord_id = st.next_id().to_string();
    let mut order = MockOkxOrder {
        ord_id: ord_id.clone(),
        api_key: key.to_string(),
        cl_ord_id: cl_ord_id.clone(),
        inst_id: c.inst.inst_id.to_string(),
        side: c.side.clone(),
        pos_side: c.pos_side.clone(),
        ord_type: ord_type.clone(),
        td_mode: c.td_mode.clone(),
        state: "live".into(),
        sz,
        px,
        acc_fill_sz: Decimal::ZERO,
        filled_value: Decimal::ZERO,
        reduce_only,
        time_ms: now,
    };
    let limit = if ord_type == "market" { None } else { px };
    execute(st, &c.inst, &mut order, limit, now);
    if order.acc_fill_sz == order.sz {
        order.state = "filled".into();
    } else if ord_type == "market" || ord_type == "ioc" {
        order.state = if order.acc_fill_sz.is_zero() {
            "canceled".into()
        } else {
            "filled".into()
        };
    } else if !order.acc_fill_sz.is_zero() {
        order.state = "partially_filled".into();
    }
    st.orders.push(order);
    Ok(
        json!({"clOrdId": cl_ord_id, "ordId": ord_id, "tag": "", "ts": now.to_string(),
              "sCode": "0", "sMsg": "Order placed"}),
    )
}

/// 51008 when the margin of the opening part and the fee exceed what is available.
fn check_margin(st: &mut State, key: &str, c: &Common, px: Option<Decimal>) -> Result<(), Fault> {
    let open = opening(st, key, c);
    if open.is_zero() {
        return Ok(());
    }
    let price = px.unwrap_or_else(|| st.mark(&c.inst));
    let lever = leverage(st, key, c.inst.inst_id, &c.td_mode);
    let notional = open * c.inst.ct_val * price;
    let (upl, used) = st.exposure(key);
    let balance = st.accounts.get(key).map(|a| a.balance).unwrap_or_default();
    let available = balance + upl - used;
    if notional / Decimal::from(lever) + notional * TAKER_FEE > available {
        return Err(Fault::okx(51008));
    }
    Ok(())
}

/// The leverage set for an instrument and margin mode; 10 until one is set.
pub(crate) fn leverage(st: &State, key: &str, inst_id: &str, td_mode: &str) -> u32 {
    st.accounts
        .get(key)
        .and_then(|a| a.leverage.get(&(inst_id.to_string(), td_mode.to_string())))
        .copied()
        .unwrap_or(10)
}

/// Match `order` against the book (no worse than `limit`) and book every fill.
pub(super) fn execute(
    st: &mut State,
    inst: &Instrument,
    order: &mut MockOkxOrder,
    limit: Option<Decimal>,
    now: i64,
) {
    let left = order.sz - order.acc_fill_sz;
    for (price, sz) in st.take_liquidity(inst, &order.side, left, limit) {
        order.acc_fill_sz += sz;
        order.filled_value += price * sz;
        apply_fill(st, inst, order, price, sz, now);
    }
}

/// Book one fill into the account: position size and entry, realized P&L, fee; a position
/// closed to zero takes its `cxlOnClosePos` algo orders with it.
fn apply_fill(
    st: &mut State,
    inst: &Instrument,
    order: &MockOkxOrder,
    price: Decimal,
    sz: Decimal,
    now: i64,
) {
    let bill_id = st.next_id();
    let lever = leverage(st, &order.api_key, inst.inst_id, &order.td_mode);
    let Some(account) = st.accounts.get_mut(&order.api_key) else {
        return;
    };
    let slot = account
        .positions
        .entry((inst.inst_id.to_string(), order.pos_side.clone()))
        .or_insert(MockPosition {
            pos: Decimal::ZERO,
            avg_px: Decimal::ZERO,
            mgn_mode: order.td_mode.clone(),
            lever,
        });
    // In net mode the position is signed; in long/short mode each side is positive.
    let signed = match (order.pos_side.as_str(), order.side.as_str()) {
        ("net", "buy") | ("long", "buy") | ("short", "sell") => sz,
        _ => -sz,
    };
    let held = slot.pos;
    let mut pnl = Decimal::ZERO;
    if held.is_zero() || held.is_sign_positive() == signed.is_sign_positive() {
        let total = held + signed;
        slot.avg_px = (held.abs() * slot.avg_px + sz * price) / total.abs();
        slot.pos = total;
        slot.lever = lever;
        slot.mgn_mode = order.td_mode.clone();
    } else {
        let closing = sz.min(held.abs());
        let direction = if order.pos_side == "short" || held.is_sign_negative() {
            -Decimal::ONE
        } else {
            Decimal::ONE
        };
        pnl = (price - slot.avg_px) * closing * inst.ct_val * direction;
        let rest = held + signed;
        if rest.is_zero() {
            slot.avg_px = Decimal::ZERO;
        } else if rest.is_sign_positive() != held.is_sign_positive() {
            // Net mode: the rest opens the other way at this price.
            slot.avg_px = price;
            slot.lever = lever;
        }
        slot.pos = rest;
    }
    let closed = slot.pos.is_zero();
    if closed {
        account
            .positions
            .remove(&(inst.inst_id.to_string(), order.pos_side.clone()));
    }
    let fee = -(price * sz * inst.ct_val * TAKER_FEE).round_dp(8);
    account.balance += pnl + fee;
    st.fills.push(MockFill {
        bill_id,
        trade_id: bill_id,
        api_key: order.api_key.clone(),
        ord_id: order.ord_id.clone(),
        cl_ord_id: order.cl_ord_id.clone(),
        inst_id: inst.inst_id.to_string(),
        side: order.side.clone(),
        pos_side: order.pos_side.clone(),
        px: price,
        sz,
        fee,
        pnl,
        time_ms: now,
    });
    if closed {
        for algo in st.algos.iter_mut().filter(|a| {
            a.api_key == order.api_key
                && a.inst_id == inst.inst_id
                && a.pos_side == order.pos_side
                && a.state == "live"
                && a.cxl_on_close_pos
        }) {
            algo.state = "canceled".into();
            algo.time_ms = now;
        }
    }
}
