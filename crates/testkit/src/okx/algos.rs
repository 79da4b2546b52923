//! Stop-loss and take-profit algo orders on the mock (`ordType: conditional`): placed with
//! OKX's checks (trigger on the right side of the last price, `cxlOnClosePos` only with
//! `reduceOnly`), fired when [`super::MockOkx::set_price`] moves the mark across them, each
//! placing a market order, and cancelled with their position (in `matching`'s fills).
//!
//! OKX API v5 docs, "POST / Place algo order"
//! (https://www.okx.com/docs-v5/en/#order-book-trading-algo-trading-post-place-algo-order).

use rust_decimal::Decimal;
use serde_json::{Value, json};

use super::fault::Fault;
use super::matching::{
    Common, common, dec, execute, flag, is_multiple, reducible, text, valid_client_id,
};
use super::state::{Instrument, MockOkxAlgo, MockOkxOrder, State};

/// `POST /api/v5/trade/order-algo`, `ordType: conditional` only (the one nofxi sends).
pub(crate) fn place_algo(
    st: &mut State,
    key: &str,
    body: &Value,
    now: i64,
) -> Result<Value, Fault> {
    let c = common(st, key, body)?;
    if text(body, "ordType") != Some("conditional") {
        return Err(Fault::parameter("ordType"));
    }
    let algo_cl_ord_id = text(body, "algoClOrdId").unwrap_or_default().to_string();
    if !algo_cl_ord_id.is_empty() && !valid_client_id(&algo_cl_ord_id) {
        return Err(Fault::parameter("algoClOrdId"));
    }
    // The docs name no duplicate code for algo ids; the mock uses the orders' (51016).
    if !algo_cl_ord_id.is_empty()
        && st
            .algos
            .iter()
            .any(|a| a.api_key == key && a.algo_cl_ord_id == algo_cl_ord_id && a.state == "live")
    {
        return Err(Fault::okx(51016));
    }
    let (sl, tp) = (dec(body, "slTriggerPx"), dec(body, "tpTriggerPx"));
    if sl.is_none() && tp.is_none() {
        return Err(Fault::empty("slTriggerPx"));
    }
    for trigger in [sl, tp].into_iter().flatten() {
        if !is_multiple(trigger, c.inst.tick) {
            return Err(Fault::parameter("triggerPx"));
        }
    }
    // A stop below (a take-profit above) the last price for a sell, the other way for a buy.
    let last = st.mark(&c.inst);
    let sell = c.side == "sell";
    match (sl, tp) {
        (Some(p), _) if sell && p >= last => return Err(Fault::okx(51280)),
        (Some(p), _) if !sell && p <= last => return Err(Fault::okx(51278)),
        (None, Some(p)) if sell && p <= last => return Err(Fault::okx(51279)),
        (None, Some(p)) if !sell && p >= last => return Err(Fault::okx(51277)),
        _ => {}
    }
    let reduce_only = flag(body, "reduceOnly");
    let cxl_on_close_pos = flag(body, "cxlOnClosePos");
    if cxl_on_close_pos && !reduce_only {
        return Err(Fault::parameter("reduceOnly"));
    }
    let algo_id = st.next_id().to_string();
    st.algos.push(MockOkxAlgo {
        algo_id: algo_id.clone(),
        api_key: key.to_string(),
        algo_cl_ord_id: algo_cl_ord_id.clone(),
        inst_id: c.inst.inst_id.to_string(),
        side: c.side,
        pos_side: c.pos_side,
        td_mode: c.td_mode,
        sz: c.sz,
        // With both given a net conditional order is a stop only (the docs' note).
        sl_trigger: sl,
        tp_trigger: if sl.is_some() { None } else { tp },
        reduce_only,
        cxl_on_close_pos,
        state: "live".into(),
        ord_id: String::new(),
        time_ms: now,
    });
    Ok(
        json!({"algoId": algo_id, "algoClOrdId": algo_cl_ord_id, "clOrdId": "", "tag": "",
              "sCode": "0", "sMsg": ""}),
    )
}

/// Fire every live algo order of `inst` the mark now crosses, oldest first: each places a
/// market order (reduce-only capped at the position) and becomes `effective`.
pub(crate) fn fire_crossed(st: &mut State, inst: &Instrument, now: i64) {
    let mark = st.mark(inst);
    let mut i = 0;
    while i < st.algos.len() {
        let a = st.algos[i].clone();
        i += 1;
        if a.inst_id != inst.inst_id || a.state != "live" {
            continue;
        }
        let sell = a.side == "sell";
        let crossed = match (a.sl_trigger, a.tp_trigger) {
            (Some(p), _) => {
                if sell {
                    mark <= p
                } else {
                    mark >= p
                }
            }
            (None, Some(p)) => {
                if sell {
                    mark >= p
                } else {
                    mark <= p
                }
            }
            (None, None) => false,
        };
        if !crossed {
            continue;
        }
        let c = Common {
            inst: inst.clone(),
            side: a.side.clone(),
            pos_side: a.pos_side.clone(),
            td_mode: a.td_mode.clone(),
            sz: a.sz,
        };
        let sz = if a.reduce_only {
            a.sz.min(reducible(st, &a.api_key, &c))
        } else {
            a.sz
        };
        if sz.is_zero() {
            st.algos[i - 1].state = "order_failed".into();
            continue;
        }
        let ord_id = st.next_id().to_string();
        let mut order = MockOkxOrder {
            ord_id: ord_id.clone(),
            api_key: a.api_key.clone(),
            cl_ord_id: String::new(),
            inst_id: a.inst_id.clone(),
            side: a.side.clone(),
            pos_side: a.pos_side.clone(),
            ord_type: "market".into(),
            td_mode: a.td_mode.clone(),
            state: "live".into(),
            sz,
            px: None,
            acc_fill_sz: Decimal::ZERO,
            filled_value: Decimal::ZERO,
            reduce_only: a.reduce_only,
            time_ms: now,
        };
        execute(st, inst, &mut order, None, now);
        order.state = if order.acc_fill_sz.is_zero() {
            "canceled".into()
        } else {
            "filled".into()
        };
        st.orders.push(order);
        let algo = &mut st.algos[i - 1];
        algo.state = "effective".into();
        algo.ord_id = ord_id;
        algo.time_ms = now;
    }
}
