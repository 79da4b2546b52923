//! `/exchange` actions on the mock: orders (checked as Hyperliquid checks them, then matched
//! against the mock's own book), cancels by oid and by cloid, leverage with the margin mode,
//! and trigger orders fired when [`super::MockHyperliquid::set_price`] moves the mark across
//! them.
//!
//! The refusals are the docs' "Error responses" strings (Tick, MinTradeNtl, PerpMargin,
//! ReduceOnly, IocCancel, the cancel's "Order was never placed, already canceled, or
//! filled."). Where the docs give none the mock says so: a size with more decimals than
//! `szDecimals` ("Order has invalid size.") and a cloid already used ("Duplicate cloid.") are
//! its own words. A reduce-only trigger that fires with nothing left to reduce ends
//! `reduceOnlyCanceled`, one of the documented order statuses.

use std::str::FromStr;

use rust_decimal::Decimal;
use serde_json::{Value, json};

use super::auth::{Action, OrderKind, OrderWire};
use super::state::{Coin, MIN_VALUE, MockHlFill, MockHlOrder, MockHlPosition, State, TAKER_FEE};

/// The `response` of an accepted action, or `Err(message)` for `{"status": "err"}`.
pub(crate) fn handle(
    st: &mut State,
    user: &str,
    action: &Action,
    now: i64,
) -> Result<Value, String> {
    match action {
        Action::Order { orders, .. } => {
            let statuses: Vec<Value> = orders
                .iter()
                .map(|o| match place(st, user, o, now) {
                    Ok(status) => status,
                    Err(message) => json!({"error": message}),
                })
                .collect();
            Ok(json!({"type": "order", "data": {"statuses": statuses}}))
        }
        Action::Cancel { cancels } => {
            let statuses: Vec<Value> = cancels
                .iter()
                .map(|c| cancel(st, user, c.a, |o| o.oid == c.o, now))
                .collect();
            Ok(json!({"type": "cancel", "data": {"statuses": statuses}}))
        }
        Action::CancelByCloid { cancels } => {
            let statuses: Vec<Value> = cancels
                .iter()
                .map(|c| {
                    let cloid = c.cloid.to_ascii_lowercase();
                    cancel(
                        st,
                        user,
                        c.asset,
                        |o| o.cloid.as_deref() == Some(cloid.as_str()),
                        now,
                    )
                })
                .collect();
            Ok(json!({"type": "cancel", "data": {"statuses": statuses}}))
        }
        Action::UpdateLeverage {
            asset,
            is_cross,
            leverage,
        } => {
            let coin = st.coin_at(*asset).ok_or("Invalid asset.")?;
            if *leverage == 0 || *leverage > coin.max_leverage {
                return Err(format!("Invalid leverage value for {}.", coin.name));
            }
            let u = st.users.entry(user.to_string()).or_default();
            u.leverage
                .insert(coin.name.to_string(), (*leverage, *is_cross));
            if let Some(p) = u.positions.get_mut(coin.name) {
                p.leverage = *leverage;
                p.cross = *is_cross;
            }
            Ok(json!({"type": "default"}))
        }
    }
}

fn cancel(
    st: &mut State,
    user: &str,
    asset: u32,
    which: impl Fn(&MockHlOrder) -> bool,
    now: i64,
) -> Value {
    let Some(coin) = st.coin_at(asset) else {
        return json!({"error": "Invalid asset."});
    };
    match st
        .orders
        .iter_mut()
        .find(|o| o.user == user && o.coin == coin.name && o.is_open() && which(o))
    {
        Some(o) => {
            o.status = "canceled".into();
            o.status_timestamp = now;
            json!("success")
        }
        None => {
            json!({"error": format!("Order was never placed, already canceled, or filled. asset={asset}")})
        }
    }
}

/// Decimals of a wire number as sent: "0.01230" has five.
fn decimals(text: &str) -> u32 {
    text.split_once('.')
        .map(|(_, f)| f.len() as u32)
        .unwrap_or(0)
}

/// "Prices can have up to 5 significant figures, but no more than MAX_DECIMALS - szDecimals
/// decimal places … Integer prices are always allowed" (docs, "Tick and lot size").
fn valid_price(coin: &Coin, text: &str, px: Decimal) -> bool {
    if px <= Decimal::ZERO {
        return false;
    }
    if px.fract().is_zero() {
        return true;
    }
    let digits: String = px
        .normalize()
        .to_string()
        .chars()
        .filter(char::is_ascii_digit)
        .collect();
    let figures = digits.trim_start_matches('0').len();
    figures <= 5 && decimals(text) <= 6 - coin.sz_decimals.min(6)
}

fn place(st: &mut State, user: &str, o: &OrderWire, now: i64) -> Result<Value, String> {
    let coin = st.coin_at(o.a).ok_or("Invalid asset.")?;
    if super::state::DELISTED.contains(&coin.name) {
        return Err("Trading is halted for this asset.".into());
    }
    let sz = Decimal::from_str(&o.s).map_err(|_| "Order has invalid size.")?;
    if sz <= Decimal::ZERO || decimals(&o.s) > coin.sz_decimals {
        return Err("Order has invalid size.".into());
    }
    let px = Decimal::from_str(&o.p).map_err(|_| "Order has invalid price.")?;
    if !valid_price(&coin, &o.p, px) {
        return Err("Price must be divisible by tick size.".into());
    }
    let cloid = o.c.as_ref().map(|c| c.to_ascii_lowercase());
    if let Some(c) = &cloid {
        let hex = c.strip_prefix("0x").unwrap_or_default();
        if hex.len() != 32 || !hex.chars().all(|ch| ch.is_ascii_hexdigit()) {
            return Err("Invalid cloid.".into());
        }
        if st
            .orders
            .iter()
            .any(|x| x.user == user && x.cloid.as_deref() == Some(c.as_str()))
        {
            return Err("Duplicate cloid.".into());
        }
    }
    let side = if o.b { "B" } else { "A" }.to_string();
    let (order_type, tif, trigger_px, tpsl) = match &o.t {
        OrderKind::Limit { tif } => match tif.as_str() {
            "Gtc" | "Ioc" | "Alo" => ("Limit".to_string(), Some(tif.clone()), None, None),
            _ => return Err("Invalid TIF.".into()),
        },
        OrderKind::Trigger {
            trigger_px, tpsl, ..
        } => {
            let trigger = Decimal::from_str(trigger_px).map_err(|_| "Invalid TP/SL price.")?;
            if !valid_price(&coin, trigger_px, trigger) {
                return Err("Price must be divisible by tick size.".into());
            }
            let kind = match tpsl.as_str() {
                "sl" => "Stop Market",
                "tp" => "Take Profit Market",
                _ => return Err("Invalid TP/SL price.".into()),
            };
            (kind.to_string(), None, Some(trigger), Some(tpsl.clone()))
        }
    };
    // A trigger is worth its size at the mark until it fires; an order at its limit.
    let reference = if trigger_px.is_some() {
        st.mark(&coin)
    } else {
        px
    };
    if !o.r && sz * reference < MIN_VALUE {
        return Err("Order must have minimum value of $10.".into());
    }
    if o.r && trigger_px.is_none() && reducible(st, user, &coin, &side).is_zero() {
        return Err("Reduce only order would increase position.".into());
    }
    if !o.r && trigger_px.is_none() {
        check_margin(st, user, &coin, &side, sz, px)?;
    }
    let oid = st.next_id();
    let mut order = MockHlOrder {
        oid,
        user: user.to_string(),
        coin: coin.name.to_string(),
        side,
        limit_px: px,
        orig_sz: sz,
        sz,
        cloid,
        reduce_only: o.r,
        order_type,
        tif: tif.clone(),
        trigger_px,
        tpsl,
        status: "open".into(),
        timestamp: now,
        status_timestamp: now,
    };
    if order.trigger_px.is_some() {
        st.orders.push(order);
        return Ok(json!({"resting": {"oid": oid}}));
    }
    if tif.as_deref() == Some("Alo") {
        let crosses = match order.side.as_str() {
            "B" => st.book(&coin).asks.first().is_some_and(|a| a.0 <= px),
            _ => st.book(&coin).bids.first().is_some_and(|b| b.0 >= px),
        };
        if crosses {
            return Err("Post only order would have immediately matched, bbo was {bbo}.".into());
        }
    }
    let value = execute(st, &coin, &mut order, now);
    let filled = order.orig_sz - order.sz;
    if tif.as_deref() == Some("Ioc") {
        if filled.is_zero() {
            return Err("Order could not immediately match against any resting orders.".into());
        }
        order.status = if order.sz.is_zero() {
            "filled"
        } else {
            "canceled"
        }
        .into();
    } else if order.sz.is_zero() {
        order.status = "filled".into();
    }
    st.orders.push(order);
    if filled.is_zero() {
        return Ok(json!({"resting": {"oid": oid}}));
    }
    Ok(
        json!({"filled": {"totalSz": filled.to_string(), "avgPx": (value / filled).round_dp(6).normalize().to_string(), "oid": oid}}),
    )
}

/// The size `user` holds that an order on `side` would reduce.
fn reducible(st: &State, user: &str, coin: &Coin, side: &str) -> Decimal {
    let held = st
        .users
        .get(user)
        .and_then(|u| u.positions.get(coin.name))
        .map(|p| p.szi)
        .unwrap_or_default();
    if side == "B" {
        (-held).max(Decimal::ZERO)
    } else {
        held.max(Decimal::ZERO)
    }
}

/// "Insufficient margin to place order." when the opening part's margin and the fee exceed
/// what is free.
fn check_margin(
    st: &mut State,
    user: &str,
    coin: &Coin,
    side: &str,
    sz: Decimal,
    px: Decimal,
) -> Result<(), String> {
    let opening = (sz - reducible(st, user, coin, side)).max(Decimal::ZERO);
    if opening.is_zero() {
        return Ok(());
    }
    let (lever, _) = st.leverage(user, coin);
    let notional = opening * px;
    let (value, used, _) = st.summary(user);
    if notional / Decimal::from(lever) + notional * TAKER_FEE > value - used {
        return Err("Insufficient margin to place order.".into());
    }
    Ok(())
}

/// Match `order` against the book, no worse than its limit; reduce-only capped at the
/// position. The value filled.
fn execute(st: &mut State, coin: &Coin, order: &mut MockHlOrder, now: i64) -> Decimal {
    let mut want = order.sz;
    if order.reduce_only {
        want = want.min(reducible(st, &order.user, coin, &order.side));
    }
    let mut value = Decimal::ZERO;
    for (px, sz) in st.take_liquidity(coin, &order.side, want, order.limit_px) {
        order.sz -= sz;
        value += px * sz;
        apply_fill(st, coin, order, px, sz, now);
    }
    order.status_timestamp = now;
    value
}

/// Book one fill: the position's size and entry, the closed P&L, the fee.
fn apply_fill(
    st: &mut State,
    coin: &Coin,
    order: &MockHlOrder,
    px: Decimal,
    sz: Decimal,
    now: i64,
) {
    let tid = st.next_id();
    let (lever, cross) = st.leverage(&order.user, coin);
    let user = st.users.entry(order.user.clone()).or_default();
    let slot = user
        .positions
        .entry(coin.name.to_string())
        .or_insert(MockHlPosition {
            szi: Decimal::ZERO,
            entry_px: Decimal::ZERO,
            leverage: lever,
            cross,
        });
    let start = slot.szi;
    let signed = if order.side == "B" { sz } else { -sz };
    let mut closed_pnl = Decimal::ZERO;
    if start.is_zero() || start.is_sign_positive() == signed.is_sign_positive() {
        let total = start + signed;
        slot.entry_px = (start.abs() * slot.entry_px + sz * px) / total.abs();
        slot.szi = total;
        slot.leverage = lever;
        slot.cross = cross;
    } else {
        let closing = sz.min(start.abs());
        let direction = if start.is_sign_negative() {
            -Decimal::ONE
        } else {
            Decimal::ONE
        };
        closed_pnl = (px - slot.entry_px) * closing * direction;
        let rest = start + signed;
        if !rest.is_zero() && rest.is_sign_positive() != start.is_sign_positive() {
            slot.entry_px = px;
        }
        slot.szi = rest;
    }
    if slot.szi.is_zero() {
        user.positions.remove(coin.name);
    }
    let fee = (px * sz * TAKER_FEE).round_dp(6);
    user.balance += closed_pnl - fee;
    st.fills.push(MockHlFill {
        tid,
        user: order.user.clone(),
        coin: coin.name.to_string(),
        oid: order.oid,
        cloid: order.cloid.clone(),
        side: order.side.clone(),
        px,
        sz,
        fee,
        closed_pnl,
        start_position: start,
        time: now,
    });
}

/// Fire every open trigger of `coin` the mark now crosses, oldest first: each fills as a
/// market order at its limit (or ends `reduceOnlyCanceled` with nothing to reduce).
pub(crate) fn fire_crossed(st: &mut State, coin: &Coin, now: i64) {
    let mark = st.mark(coin);
    let mut i = 0;
    while i < st.orders.len() {
        let o = st.orders[i].clone();
        i += 1;
        let Some(trigger) = o.trigger_px else {
            continue;
        };
        if o.coin != coin.name || !o.is_open() {
            continue;
        }
        let sell = o.side == "A";
        let stop = o.tpsl.as_deref() == Some("sl");
        // A sell stop fires at or below its price, a sell take-profit at or above it.
        let crossed = if sell == stop {
            mark <= trigger
        } else {
            mark >= trigger
        };
        if !crossed {
            continue;
        }
        let mut order = o;
        if order.reduce_only && reducible(st, &order.user, coin, &order.side).is_zero() {
            order.status = "reduceOnlyCanceled".into();
            order.status_timestamp = now;
            st.orders[i - 1] = order;
            continue;
        }
        execute(st, coin, &mut order, now);
        order.status = if order.sz == order.orig_sz {
            "canceled".into()
        } else {
            "filled".into()
        };
        st.orders[i - 1] = order;
    }
}

/// A book re-centred at `mid`.
pub(crate) fn rebook(st: &mut State, coin: &Coin, mid: Decimal) {
    st.books
        .insert(coin.name.to_string(), super::state::Book::around(coin, mid));
}
