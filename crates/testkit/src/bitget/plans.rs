//! Take-profit and stop-loss plans on the mock (`place-tpsl-order`, `loss_plan` and
//! `profit_plan`): placed with Bitget's checks (a position to protect, no more than it holds,
//! the trigger on the right side of the mark), fired when [`super::MockBitget::set_price`]
//! moves the mark across them, each placing a market order that closes, and cancelled with
//! their position (in `matching`'s fills).
//!
//! Bitget API docs, "Futures" → "Trigger Order" → "Stop-profit and stop-loss plan orders"
//! (https://www.bitget.com/api-doc/contract/plan/Place-Tpsl-Order); the refusals 43023 and
//! 40830–40836: the error-code table. Only market execution (`executePrice` 0 or empty) is
//! served: nofxi sends nothing else.

use rust_decimal::Decimal;
use serde_json::{Value, json};

use super::fault::Fault;
use super::matching::{
    check_client_id, check_size, contract_of, dec, execute, finish, held, is_multiple, text,
    used_client_id,
};
use super::state::{Contract, MockBitgetOrder, MockBitgetPlan, State};

/// `POST /api/v2/mix/order/place-tpsl-order`.
pub(crate) fn place_tpsl(
    st: &mut State,
    key: &str,
    body: &Value,
    now: i64,
) -> Result<Value, Fault> {
    let c = contract_of(st, body)?;
    let hedge = st
        .accounts
        .get(key)
        .ok_or_else(|| Fault::bitget(40006))?
        .hedge;
    let plan_type = match text(body, "planType") {
        Some(p @ ("loss_plan" | "profit_plan")) => p.to_string(),
        _ => return Err(Fault::parameter("planType")),
    };
    let trigger = dec(body, "triggerPrice").ok_or_else(|| Fault::empty("triggerPrice"))?;
    if !is_multiple(trigger, c.tick()) {
        return Err(Fault::price_step(&c.tick().to_string()));
    }
    if text(body, "triggerType").is_some_and(|t| t != "mark_price" && t != "fill_price") {
        return Err(Fault::parameter("triggerType"));
    }
    if dec(body, "executePrice").is_some_and(|p| !p.is_zero()) {
        return Err(Fault::parameter("executePrice"));
    }
    // "Two-way position: (long: long position, short: short position) one-way position:
    // (buy: long position, sell: short position)".
    let hold = match (hedge, text(body, "holdSide")) {
        (true, Some(h @ ("long" | "short"))) => h.to_string(),
        (false, Some("buy")) => "long".to_string(),
        (false, Some("sell")) => "short".to_string(),
        _ => return Err(Fault::parameter("holdSide")),
    };
    let size = check_size(&c, body)?;
    let client_oid = text(body, "clientOid").unwrap_or_default().to_string();
    if !client_oid.is_empty() {
        check_client_id(&client_oid)?;
        if used_client_id(st, key, &client_oid) {
            return Err(Fault::bitget(45034));
        }
    }
    let position = held(st, key, c.symbol, &hold);
    let placed: Decimal = st
        .plans
        .iter()
        .filter(|p| {
            p.api_key == key
                && p.symbol == c.symbol
                && p.hold == hold
                && p.plan_type == plan_type
                && p.status == "live"
        })
        .map(|p| p.size)
        .sum();
    if position.is_zero() || placed + size > position {
        return Err(Fault::bitget(43023));
    }
    let mark = st.mark(&c);
    let long = hold == "long";
    match (plan_type.as_str(), long) {
        ("loss_plan", true) if trigger >= mark => return Err(Fault::bitget(40834)),
        ("profit_plan", true) if trigger <= mark => return Err(Fault::bitget(40830)),
        ("loss_plan", false) if trigger <= mark => return Err(Fault::bitget(40836)),
        ("profit_plan", false) if trigger >= mark => return Err(Fault::bitget(40832)),
        _ => {}
    }
    let order_id = st.next_id().to_string();
    st.plans.push(MockBitgetPlan {
        order_id: order_id.clone(),
        api_key: key.to_string(),
        client_oid: client_oid.clone(),
        symbol: c.symbol.to_string(),
        plan_type,
        trigger,
        size,
        hold,
        hedge,
        status: "live".into(),
        execute_order_id: String::new(),
        time_ms: now,
    });
    Ok(json!({"orderId": order_id, "clientOid": client_oid}))
}

/// Fire every live plan of `c` the mark now crosses, oldest first: each places a market order
/// closing up to what is held and becomes `executed` (or `fail_execute` when nothing is).
pub(crate) fn fire_crossed(st: &mut State, c: &Contract, now: i64) {
    let mark = st.mark(c);
    for i in 0..st.plans.len() {
        let plan = st.plans[i].clone();
        if plan.symbol != c.symbol || plan.status != "live" {
            continue;
        }
        let long = plan.hold == "long";
        let crossed = match (plan.plan_type.as_str(), long) {
            ("loss_plan", true) | ("profit_plan", false) => mark <= plan.trigger,
            _ => mark >= plan.trigger,
        };
        if !crossed {
            continue;
        }
        let size = plan.size.min(held(st, &plan.api_key, c.symbol, &plan.hold));
        if size.is_zero() {
            st.plans[i].status = "fail_execute".into();
            continue;
        }
        let margin_mode = st
            .accounts
            .get(&plan.api_key)
            .map(|a| a.margin_mode(c.symbol))
            .unwrap_or_default();
        let (side, trade_side) = match (plan.hedge, long) {
            (true, true) => ("buy", "close"),
            (true, false) => ("sell", "close"),
            (false, true) => ("sell", ""),
            (false, false) => ("buy", ""),
        };
        let order_id = st.next_id().to_string();
        let mut order = MockBitgetOrder {
            order_id: order_id.clone(),
            api_key: plan.api_key.clone(),
            client_oid: String::new(),
            symbol: c.symbol.to_string(),
            side: side.into(),
            trade_side: trade_side.into(),
            order_type: "market".into(),
            margin_mode,
            hedge: plan.hedge,
            state: "live".into(),
            size,
            price: None,
            force: "gtc".into(),
            base_volume: Decimal::ZERO,
            filled_value: Decimal::ZERO,
            reduce_only: !plan.hedge,
            profit: Decimal::ZERO,
            fee: Decimal::ZERO,
            time_ms: now,
        };
        execute(st, c, &mut order, None, now);
        finish(&mut order);
        st.orders.push(order);
        let fired = &mut st.plans[i];
        fired.status = "executed".into();
        fired.execute_order_id = order_id;
        fired.time_ms = now;
    }
}
