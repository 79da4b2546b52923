//! Bitget JSON → nofxi types. Bitget sends numbers and times as strings, and an empty string
//! where a field does not apply (`"priceAvg": ""` on a resting order); a field nofxi needs
//! that is missing or unreadable is an error naming it, never a silent zero. Sizes are in the
//! base coin on both sides.
//!
//! Field names and meanings: Bitget API docs (https://www.bitget.com/api-doc/contract/…),
//! the "Response Parameters" of "Get Order Detail", "Get Pending Orders", "Get Pending
//! Trigger Order", "Get History Trigger Order", "Get All Positions", "Get Account List",
//! "Get Order Fill Details" and "Get Candlestick Data".
//!
//! In hedge mode Bitget's `side` names the position, not the trade: "Close long: side=buy,
//! tradeSide=close" ("Place Order" → "Description"). Orders and fills are read back the same
//! way, so a `close` row's trade side is the opposite of its `side`.

use std::str::FromStr;

use nofxi_domain::market::Candle;
use nofxi_domain::trading::{
    AccountSnapshot, Fill, MarginMode, Order, OrderStatus, OrderType, Position, PositionSide, Side,
};
use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;
use serde_json::Value;

use super::contracts::{Contract, MARGIN_COIN};
use crate::VenueError;
use crate::error::WHOLE_ANSWER;

/// An answer without `field`; the caller names the endpoint (`VenueError::in_answer_to`).
pub fn bad(field: &str) -> VenueError {
    VenueError::unreadable("bitget", field)
}

/// The `data` array of an answer.
pub fn rows(data: &Value) -> Result<&Vec<Value>, VenueError> {
    data.as_array().ok_or_else(|| bad(WHOLE_ANSWER))
}

/// The list `field` of an answer's `data` object (`entrustedList`, `fillList`); Bitget sends
/// `null` for an empty list.
pub fn list<'a>(data: &'a Value, field: &str) -> Result<&'a [Value], VenueError> {
    if !data.is_object() {
        return Err(bad(WHOLE_ANSWER));
    }
    match &data[field] {
        Value::Array(items) => Ok(items),
        Value::Null => Ok(&[]),
        _ => Err(bad(field)),
    }
}

/// The first row of an answer that is an array of one thing per symbol (the ticker).
pub fn first(data: &Value) -> Result<&Value, VenueError> {
    rows(data)?.first().ok_or_else(|| bad("data[0]"))
}

/// A decimal field; an empty string is "not there".
pub fn opt_dec(v: &Value, field: &str) -> Option<Decimal> {
    number(&v[field])
}

fn number(v: &Value) -> Option<Decimal> {
    match v {
        Value::String(s) if !s.trim().is_empty() => Decimal::from_str(s.trim())
            .or_else(|_| Decimal::from_scientific(s.trim()))
            .ok(),
        Value::Number(n) => Decimal::from_str(&n.to_string())
            .or_else(|_| Decimal::from_scientific(&n.to_string()))
            .ok(),
        _ => None,
    }
}

pub fn dec(v: &Value, field: &str) -> Result<Decimal, VenueError> {
    opt_dec(v, field).ok_or_else(|| bad(field))
}

pub fn text<'a>(v: &'a Value, field: &str) -> Result<&'a str, VenueError> {
    v[field]
        .as_str()
        .filter(|s| !s.is_empty())
        .ok_or_else(|| bad(field))
}

/// Unix epoch milliseconds, sent as a string.
pub fn ms(v: &Value, field: &str) -> Result<i64, VenueError> {
    match &v[field] {
        Value::String(s) => s.trim().parse().ok(),
        Value::Number(n) => n.as_i64(),
        _ => None,
    }
    .ok_or_else(|| bad(field))
}

/// The trade's direction: `side`, turned round for a hedge-mode `close`.
fn side(v: &Value) -> Result<Side, VenueError> {
    let named = match text(v, "side")?.to_ascii_lowercase().as_str() {
        "buy" => Side::Buy,
        "sell" => Side::Sell,
        _ => return Err(bad("side")),
    };
    Ok(if v["tradeSide"].as_str() == Some("close") {
        named.opposite()
    } else {
        named
    })
}

/// `long`/`short` in hedge mode; `net` (one-way) is no side of its own.
fn position_side(v: &Value) -> Option<PositionSide> {
    match v["posSide"].as_str() {
        Some("long") => Some(PositionSide::Long),
        Some("short") => Some(PositionSide::Short),
        _ => None,
    }
}

/// `YES`/`NO`, in either case.
fn yes(v: &Value, field: &str) -> bool {
    v[field]
        .as_str()
        .is_some_and(|s| s.eq_ignore_ascii_case("yes"))
}

fn nonzero(d: Decimal) -> Option<Decimal> {
    (!d.is_zero()).then_some(d)
}

/// A regular order (`GET /api/v2/mix/order/detail`, an `entrustedList` row of
/// `…/orders-pending`). The detail's example names the status `state`, its table `status`.
pub fn order(v: &Value, c: &Contract) -> Result<Order, VenueError> {
    let state = v["status"]
        .as_str()
        .or(v["state"].as_str())
        .ok_or_else(|| bad("status"))?;
    let status = match state {
        "live" | "new" | "init" => OrderStatus::New,
        "partially_filled" => OrderStatus::PartiallyFilled,
        "filled" => OrderStatus::Filled,
        "canceled" | "cancelled" => OrderStatus::Canceled,
        _ => OrderStatus::Expired,
    };
    let order_type = match text(v, "orderType")? {
        "market" => OrderType::Market,
        "limit" => OrderType::Limit,
        _ => return Err(bad("orderType")),
    };
    Ok(Order {
        order_id: text(v, "orderId")?.to_string(),
        client_order_id: v["clientOid"].as_str().unwrap_or_default().to_string(),
        symbol: c.symbol.clone(),
        side: side(v)?,
        order_type,
        status,
        quantity: dec(v, "size")?,
        price: opt_dec(v, "price").and_then(nonzero),
        stop_price: None,
        executed_quantity: opt_dec(v, "baseVolume").unwrap_or_default(),
        average_price: opt_dec(v, "priceAvg").unwrap_or_default(),
        reduce_only: yes(v, "reduceOnly"),
        position_side: position_side(v),
        updated_ms: ms(v, "uTime")
            .or_else(|_| ms(v, "cTime"))
            .unwrap_or_default(),
    })
}

/// A stop-loss or take-profit (an `entrustedList` row of `…/orders-plan-pending` or
/// `…/orders-plan-history` with `planType=profit_loss`). Once it fired (`executed`) the order
/// it placed (`child`, looked up by `executeOrderId`) says what filled.
pub fn plan_order(v: &Value, c: &Contract, child: Option<&Order>) -> Result<Order, VenueError> {
    let order_type = match text(v, "planType")? {
        "loss_plan" | "pos_loss" => OrderType::StopMarket,
        "profit_plan" | "pos_profit" => OrderType::TakeProfitMarket,
        _ => return Err(bad("planType")),
    };
    let quantity = dec(v, "size")?;
    let (mut status, mut executed, mut average) = (OrderStatus::New, Decimal::ZERO, Decimal::ZERO);
    match text(v, "planStatus")? {
        "live" | "not_trigger" => {}
        "executed" | "triggered" => match child {
            Some(o) => {
                (status, executed, average) = (o.status, o.executed_quantity, o.average_price)
            }
            None => {
                status = OrderStatus::Filled;
                executed = opt_dec(v, "baseVolume").unwrap_or(quantity);
                average = opt_dec(v, "priceAvg").unwrap_or_default();
            }
        },
        "cancelled" | "canceled" => status = OrderStatus::Canceled,
        "fail_execute" | "fail_trigger" => status = OrderStatus::Rejected,
        _ => status = OrderStatus::Expired,
    }
    Ok(Order {
        order_id: text(v, "orderId")?.to_string(),
        client_order_id: v["clientOid"].as_str().unwrap_or_default().to_string(),
        symbol: c.symbol.clone(),
        side: side(v)?,
        order_type,
        status,
        quantity,
        price: None,
        stop_price: Some(dec(v, "triggerPrice")?),
        executed_quantity: executed,
        average_price: average,
        // Bitget's take-profit and stop-loss orders only ever close ("Can only take profit
        // and stop loss close positions? Yes", Bitget support article 360053251411).
        reduce_only: position_side(v).is_none(),
        position_side: position_side(v),
        updated_ms: ms(v, "uTime")
            .or_else(|_| ms(v, "cTime"))
            .unwrap_or_default(),
    })
}

/// A position row (`GET /api/v2/mix/position/all-position`); `None` for a row holding nothing.
pub fn position(v: &Value, c: &Contract) -> Result<Option<Position>, VenueError> {
    let total = dec(v, "total")?;
    if total.is_zero() {
        return Ok(None);
    }
    let side = match text(v, "holdSide")? {
        "long" => PositionSide::Long,
        "short" => PositionSide::Short,
        _ => return Err(bad("holdSide")),
    };
    let leverage = dec(v, "leverage")?
        .trunc()
        .to_u32()
        .filter(|l| *l > 0)
        .ok_or_else(|| bad("leverage"))?;
    let margin_mode = match text(v, "marginMode")? {
        "isolated" => MarginMode::Isolated,
        "crossed" | "cross" => MarginMode::Cross,
        _ => return Err(bad("marginMode")),
    };
    Ok(Some(Position {
        symbol: c.symbol.clone(),
        side,
        quantity: total.abs(),
        entry_price: dec(v, "openPriceAvg")?,
        mark_price: dec(v, "markPrice")?,
        leverage,
        margin_mode,
        margin: dec(v, "marginSize")?,
        unrealized_pnl: opt_dec(v, "unrealizedPL").unwrap_or_default(),
        // "If the value <= 0, it means the position is at low risk and there is no
        // liquidation price at this time."
        liquidation_price: opt_dec(v, "liquidationPrice").filter(|p| *p > Decimal::ZERO),
    }))
}

/// A fill (`fillList` row of `GET /api/v2/mix/order/fills`). Bitget's `totalFee` is negative
/// when paid; nofxi's fee is the amount paid, in the first fee coin listed.
pub fn fill(v: &Value, c: &Contract) -> Result<Fill, VenueError> {
    let details = v["feeDetail"].as_array().ok_or_else(|| bad("feeDetail"))?;
    let fee_asset = details
        .first()
        .and_then(|d| d["feeCoin"].as_str())
        .unwrap_or(MARGIN_COIN)
        .to_string();
    let mut fee = Decimal::ZERO;
    for d in details
        .iter()
        .filter(|d| d["feeCoin"].as_str() == Some(&fee_asset))
    {
        fee -= opt_dec(d, "totalFee").ok_or_else(|| bad("feeDetail.totalFee"))?;
    }
    Ok(Fill {
        trade_id: text(v, "tradeId")?.to_string(),
        order_id: text(v, "orderId")?.to_string(),
        client_order_id: v["clientOid"].as_str().unwrap_or_default().to_string(),
        symbol: c.symbol.clone(),
        side: side(v)?,
        price: dec(v, "price")?,
        quantity: dec(v, "baseVolume")?,
        fee,
        fee_asset,
        realized_pnl: opt_dec(v, "profit").unwrap_or_default(),
        is_maker: v["tradeScope"].as_str() == Some("maker"),
        time_ms: ms(v, "cTime")?,
    })
}

/// The USDT row of `GET /api/v2/mix/account/accounts`. `accountEquity` includes the unrealized
/// P&L, so the wallet is equity less it; `crossedMaxAvailable` is what a new position may use;
/// the margin in use is the cross and isolated margin occupied. No USDT row is a zero balance.
pub fn account(data: &Value) -> Result<AccountSnapshot, VenueError> {
    let Some(usdt) = rows(data)?.iter().find(|r| {
        r["marginCoin"]
            .as_str()
            .is_some_and(|c| c.eq_ignore_ascii_case(MARGIN_COIN))
    }) else {
        return Ok(AccountSnapshot {
            asset: MARGIN_COIN.into(),
            wallet_balance: Decimal::ZERO,
            unrealized_pnl: Decimal::ZERO,
            equity: Decimal::ZERO,
            available: Decimal::ZERO,
            margin_used: Decimal::ZERO,
        });
    };
    let equity = dec(usdt, "accountEquity")?;
    let unrealized = match (
        opt_dec(usdt, "crossedUnrealizedPL"),
        opt_dec(usdt, "isolatedUnrealizedPL"),
    ) {
        (None, None) => opt_dec(usdt, "unrealizedPL").unwrap_or_default(),
        (cross, isolated) => cross.unwrap_or_default() + isolated.unwrap_or_default(),
    };
    Ok(AccountSnapshot {
        asset: MARGIN_COIN.into(),
        wallet_balance: equity - unrealized,
        unrealized_pnl: unrealized,
        equity,
        available: opt_dec(usdt, "crossedMaxAvailable")
            .or_else(|| opt_dec(usdt, "available"))
            .ok_or_else(|| bad("crossedMaxAvailable"))?,
        margin_used: opt_dec(usdt, "crossedMargin").unwrap_or_default()
            + opt_dec(usdt, "isolatedMargin").unwrap_or_default(),
    })
}

/// A candle row: `[ts, open, high, low, close, base volume, quote volume]`.
pub fn candle(v: &Value) -> Result<Candle, VenueError> {
    let at = |i: usize| number(&v[i]).ok_or_else(|| bad(&format!("[{i}]")));
    Ok(Candle {
        open_time_ms: match &v[0] {
            Value::String(s) => s.trim().parse().ok(),
            Value::Number(n) => n.as_i64(),
            _ => None,
        }
        .ok_or_else(|| bad("[0]"))?,
        open: at(1)?,
        high: at(2)?,
        low: at(3)?,
        close: at(4)?,
        volume: at(5)?,
    })
}

/// A book level `[price, size]`; the docs' example sends numbers, strings are read too.
pub fn level(v: &Value, name: &str) -> Result<(Decimal, Decimal), VenueError> {
    let at = |i: usize| number(&v[i]).ok_or_else(|| bad(&format!("{name}[{i}]")));
    Ok((at(0)?, at(1)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use nofxi_domain::market::Symbol;
    use rust_decimal_macros::dec;
    use serde_json::json;

    fn eth() -> Contract {
        Contract {
            symbol: Symbol::parse("ETH").unwrap(),
            tick: dec!(0.01),
            step: dec!(0.01),
            min_size: dec!(0.01),
            min_value: dec!(5),
        }
    }

    /// The documented response examples, trimmed to the fields read.
    #[test]
    fn documented_shapes_read_as_nofxi_types() {
        let detail = json!({"symbol": "ethusdt", "size": "2", "orderId": "123456",
            "clientOid": "77777", "baseVolume": "2", "priceAvg": "1900", "price": "1900",
            "state": "filled", "side": "buy", "posSide": "long", "orderType": "limit",
            "reduceOnly": "yes", "tradeSide": "close", "posMode": "hedge_mode",
            "uTime": "1627300098776"});
        let o = order(&detail, &eth()).unwrap();
        assert_eq!(
            (o.status, o.side, o.position_side, o.executed_quantity),
            (
                OrderStatus::Filled,
                Side::Sell,
                Some(PositionSide::Long),
                dec!(2)
            )
        );
        let fill_row = json!({"tradeId": "123", "symbol": "ethusdt", "orderId": "121212",
            "price": "1900", "baseVolume": "1", "feeDetail": [{"deduction": "yes",
            "feeCoin": "BGB", "totalDeductionFee": "-0.017118519726",
            "totalFee": "-0.017118519726"}], "side": "buy", "profit": "102",
            "tradeSide": "close", "posMode": "hedge_mode", "tradeScope": "taker",
            "cTime": "1627293509612"});
        let f = fill(&fill_row, &eth()).unwrap();
        assert_eq!(
            (f.fee, f.fee_asset.as_str(), f.side, f.realized_pnl),
            (dec!(0.017118519726), "BGB", Side::Sell, dec!(102))
        );
        let p = json!({"symbol": "ETHUSDT", "holdSide": "short", "total": "0.5",
            "leverage": "20", "openPriceAvg": "2500", "marginMode": "crossed",
            "marginSize": "62.5", "unrealizedPL": "1", "liquidationPrice": "-1",
            "markPrice": "2498"});
        let p = position(&p, &eth()).unwrap().unwrap();
        assert_eq!(
            (p.side, p.quantity, p.liquidation_price, p.margin_mode),
            (PositionSide::Short, dec!(0.5), None, MarginMode::Cross)
        );
        let acct = json!([{"marginCoin": "USDT", "available": "10575.26", "crossedMaxAvailable":
            "10580.56", "accountEquity": "10582.90", "unrealizedPL": "", "crossedMargin": "34.34",
            "isolatedMargin": "23.43", "crossedUnrealizedPL": "23", "isolatedUnrealizedPL": "0"}]);
        let a = account(&acct).unwrap();
        assert_eq!(
            (a.wallet_balance, a.available, a.margin_used),
            (dec!(10559.90), dec!(10580.56), dec!(57.77))
        );
        assert!(account(&json!([])).unwrap().equity.is_zero());
        assert!(account(&json!({})).is_err());
        assert!(
            list(&json!({"entrustedList": null}), "entrustedList")
                .unwrap()
                .is_empty()
        );
        let c = candle(&json!([
            "1695835800000",
            "26210.5",
            "26210.5",
            "26194.5",
            "26194.5",
            "26.26",
            "687897.63"
        ]))
        .unwrap();
        assert_eq!((c.open_time_ms, c.volume), (1_695_835_800_000, dec!(26.26)));
        assert_eq!(
            level(&json!([26347.5, 0.25]), "asks").unwrap(),
            (dec!(26347.5), dec!(0.25))
        );
    }

    #[test]
    fn a_plan_order_reads_its_kind_trigger_and_outcome() {
        let row = json!({"planType": "loss_plan", "symbol": "ethusdt", "size": "1",
            "orderId": "9", "clientOid": "s1", "triggerPrice": "1800",
            "planStatus": "executed", "side": "sell", "posSide": "net",
            "baseVolume": "1", "priceAvg": "1799", "cTime": "1"});
        let o = plan_order(&row, &eth(), None).unwrap();
        assert_eq!(
            (o.order_type, o.status, o.stop_price, o.side, o.reduce_only),
            (
                OrderType::StopMarket,
                OrderStatus::Filled,
                Some(dec!(1800)),
                Side::Sell,
                true
            )
        );
        let tp = json!({"planType": "profit_plan", "size": "1", "orderId": "10",
            "triggerPrice": "2100", "planStatus": "live", "side": "buy", "tradeSide": "close",
            "posSide": "long"});
        let o = plan_order(&tp, &eth(), None).unwrap();
        assert_eq!(
            (o.order_type, o.status, o.side, o.position_side),
            (
                OrderType::TakeProfitMarket,
                OrderStatus::New,
                Side::Sell,
                Some(PositionSide::Long)
            )
        );
    }
}
