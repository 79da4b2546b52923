//! Bybit JSON → nofxi types. Bybit sends numbers and times as strings, and an empty string
//! (or `"0"`) where a field does not apply (`"avgPrice": ""` before a fill, `"liqPrice": ""`);
//! a field nofxi needs that is missing or unreadable is an error naming it, never a silent
//! zero. Linear contracts are sized in the base coin, as nofxi's quantities are.
//!
//! Field names and meanings: Bybit API v5 docs, the "Response Parameters" of "Get Open &
//! Closed Orders", "Get Order History", "Get Position Info", "Get Wallet Balance", "Get Trade
//! History", "Get Transaction Log" and "Get Kline"
//! (https://bybit-exchange.github.io/docs/v5/intro); the status, stop-order and position
//! index values: "Enums Definitions" (https://bybit-exchange.github.io/docs/v5/enum).

use std::str::FromStr;

use nofxi_domain::market::{Candle, Symbol};
use nofxi_domain::trading::{
    AccountSnapshot, Fill, MarginMode, Order, OrderStatus, OrderType, Position, PositionSide, Side,
};
use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;
use serde_json::Value;

use crate::VenueError;
use crate::error::WHOLE_ANSWER;

/// An answer without `field`; the caller names the endpoint (`VenueError::in_answer_to`).
pub fn bad(field: &str) -> VenueError {
    VenueError::unreadable("bybit", field)
}

/// The `result.list` array of an answer.
pub fn list(result: &Value) -> Result<&Vec<Value>, VenueError> {
    match result {
        Value::Object(o) => o
            .get("list")
            .and_then(Value::as_array)
            .ok_or_else(|| bad("result.list")),
        _ => Err(bad(WHOLE_ANSWER)),
    }
}

/// The cursor of the next page, when there is one.
pub fn next_cursor(result: &Value) -> Option<String> {
    result["nextPageCursor"]
        .as_str()
        .filter(|c| !c.is_empty())
        .map(str::to_string)
}

/// A decimal field; an empty string is "not there".
pub fn opt_dec(v: &Value, field: &str) -> Option<Decimal> {
    match &v[field] {
        Value::String(s) if !s.trim().is_empty() => Decimal::from_str(s.trim())
            .or_else(|_| Decimal::from_scientific(s.trim()))
            .ok(),
        Value::Number(n) => Decimal::from_str(&n.to_string()).ok(),
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

/// Unix epoch milliseconds, sent as a string (or a number).
pub fn ms(v: &Value, field: &str) -> Result<i64, VenueError> {
    match &v[field] {
        Value::String(s) => s.trim().parse().ok(),
        Value::Number(n) => n.as_i64(),
        _ => None,
    }
    .ok_or_else(|| bad(field))
}

pub fn symbol(v: &Value) -> Result<Symbol, VenueError> {
    Symbol::parse(text(v, "symbol")?).map_err(|_| bad("symbol"))
}

fn side(v: &Value) -> Result<Side, VenueError> {
    match text(v, "side")? {
        "Buy" => Ok(Side::Buy),
        "Sell" => Ok(Side::Sell),
        _ => Err(bad("side")),
    }
}

/// `positionIdx`: 1 and 2 are hedge mode's Buy and Sell sides; 0 (one-way) no side of its own.
fn position_side(v: &Value) -> Option<PositionSide> {
    match v["positionIdx"].as_i64() {
        Some(1) => Some(PositionSide::Long),
        Some(2) => Some(PositionSide::Short),
        _ => None,
    }
}

fn nonzero(d: Decimal) -> Option<Decimal> {
    (!d.is_zero()).then_some(d)
}

/// Which protective order a conditional order is. Bybit names a position's own TP/SL
/// (`StopLoss`, `TakeProfit`), but a standalone conditional order is just `Stop`: its side and
/// direction say it. A sell that fires on a fall (`triggerDirection` 2) protects a long from a
/// loss, one that fires on a rise takes its profit; a buy the other way round.
fn trigger_kind(v: &Value, side: Side) -> Option<OrderType> {
    match v["stopOrderType"].as_str().unwrap_or_default() {
        "StopLoss" | "PartialStopLoss" | "TrailingStop" => Some(OrderType::StopMarket),
        "TakeProfit" | "PartialTakeProfit" => Some(OrderType::TakeProfitMarket),
        "Stop" => {
            let falls = v["triggerDirection"].as_i64() == Some(2);
            Some(if falls == (side == Side::Sell) {
                OrderType::StopMarket
            } else {
                OrderType::TakeProfitMarket
            })
        }
        _ => None,
    }
}

/// An order row of `GET /v5/order/realtime` or `GET /v5/order/history`. A conditional order
/// keeps its id, client id and trigger through `Untriggered` → `Triggered` → `New` →
/// `Filled`, so one row says what it is and what it filled.
pub fn order(v: &Value) -> Result<Order, VenueError> {
    let status = match text(v, "orderStatus")? {
        "New" | "Untriggered" | "Triggered" | "Created" => OrderStatus::New,
        "PartiallyFilled" => OrderStatus::PartiallyFilled,
        "Filled" => OrderStatus::Filled,
        "Cancelled" | "Deactivated" | "PartiallyFilledCanceled" => OrderStatus::Canceled,
        "Rejected" => OrderStatus::Rejected,
        _ => OrderStatus::Expired,
    };
    let side = side(v)?;
    let trigger = trigger_kind(v, side);
    let order_type = match (trigger, text(v, "orderType")?) {
        (Some(kind), _) => kind,
        (None, "Market") => OrderType::Market,
        (None, "Limit") => OrderType::Limit,
        _ => return Err(bad("orderType")),
    };
    Ok(Order {
        order_id: text(v, "orderId")?.to_string(),
        client_order_id: v["orderLinkId"].as_str().unwrap_or_default().to_string(),
        symbol: symbol(v)?,
        side,
        order_type,
        status,
        quantity: dec(v, "qty")?,
        price: match order_type {
            OrderType::Limit => opt_dec(v, "price").and_then(nonzero),
            _ => None,
        },
        stop_price: match trigger {
            Some(_) => Some(dec(v, "triggerPrice")?).and_then(nonzero),
            None => None,
        },
        executed_quantity: opt_dec(v, "cumExecQty").unwrap_or_default(),
        average_price: opt_dec(v, "avgPrice").unwrap_or_default(),
        reduce_only: v["reduceOnly"].as_bool().unwrap_or(false),
        position_side: position_side(v),
        updated_ms: ms(v, "updatedTime").unwrap_or_default(),
    })
}

/// A position row; `None` for a row holding nothing (Bybit lists a symbol's empty slots
/// when asked by symbol). The margin mode is the account's (UTA has no per-position one).
pub fn position(v: &Value, margin_mode: MarginMode) -> Result<Option<Position>, VenueError> {
    let size = dec(v, "size")?;
    if size.is_zero() {
        return Ok(None);
    }
    let side = match (position_side(v), text(v, "side")?) {
        (Some(side), _) => side,
        (None, "Buy") => PositionSide::Long,
        (None, "Sell") => PositionSide::Short,
        _ => return Err(bad("side")),
    };
    let leverage = dec(v, "leverage")?
        .trunc()
        .to_u32()
        .filter(|l| *l > 0)
        .ok_or_else(|| bad("leverage"))?;
    Ok(Some(Position {
        symbol: symbol(v)?,
        side,
        quantity: size,
        entry_price: dec(v, "avgPrice")?,
        mark_price: dec(v, "markPrice")?,
        leverage,
        margin_mode,
        margin: dec(v, "positionIM")?,
        unrealized_pnl: opt_dec(v, "unrealisedPnl").unwrap_or_default(),
        liquidation_price: opt_dec(v, "liqPrice").and_then(nonzero),
    }))
}

/// Whether a trade-history row is a trade (not a funding fee, a delivery or a settlement).
pub fn is_trade(v: &Value) -> bool {
    matches!(
        v["execType"].as_str(),
        Some("Trade" | "AdlTrade" | "BustTrade")
    )
}

/// How much of a position a trade closed (`closedSize`; "" or "0" when it only opened).
pub fn closed_size(v: &Value) -> Decimal {
    opt_dec(v, "closedSize").unwrap_or_default()
}

/// A trade-history row as a fill, with the `realized_pnl` its transaction-log entry booked.
/// Bybit's `execFee` is positive when paid, as nofxi's is.
pub fn fill(v: &Value, realized_pnl: Decimal) -> Result<Fill, VenueError> {
    Ok(Fill {
        trade_id: text(v, "execId")?.to_string(),
        order_id: text(v, "orderId")?.to_string(),
        client_order_id: v["orderLinkId"].as_str().unwrap_or_default().to_string(),
        symbol: symbol(v)?,
        side: side(v)?,
        price: dec(v, "execPrice")?,
        quantity: dec(v, "execQty")?,
        fee: dec(v, "execFee")?,
        fee_asset: v["feeCurrency"]
            .as_str()
            .filter(|c| !c.is_empty())
            .unwrap_or("USDT")
            .to_string(),
        realized_pnl,
        is_maker: v["isMaker"].as_bool().unwrap_or(false),
        time_ms: ms(v, "execTime")?,
    })
}

/// The USDT line of a `GET /v5/account/wallet-balance` account. Bybit leaves out a coin the
/// account holds none of, so no USDT line is a zero balance, not an unreadable answer.
///
/// Available is what the coin itself can still margin: its wallet balance (or its equity,
/// when a loss is open) less the margin positions and orders hold. Bybit states a cross
/// account's available balance in USD across coins only (`totalAvailableBalance`), which is
/// not USDT; counting no unrealized profit keeps the figure a floor in either margin mode.
pub fn account(v: &Value) -> Result<AccountSnapshot, VenueError> {
    let coins = v["coin"].as_array().ok_or_else(|| bad("coin"))?;
    let Some(usdt) = coins.iter().find(|c| c["coin"].as_str() == Some("USDT")) else {
        return Ok(AccountSnapshot {
            asset: "USDT".into(),
            wallet_balance: Decimal::ZERO,
            unrealized_pnl: Decimal::ZERO,
            equity: Decimal::ZERO,
            available: Decimal::ZERO,
            margin_used: Decimal::ZERO,
        });
    };
    let wallet = dec(usdt, "walletBalance")?;
    let equity = dec(usdt, "equity")?;
    let held = |field: &str| opt_dec(usdt, field).unwrap_or_default();
    let margin_used = held("totalPositionIM") + held("totalOrderIM");
    Ok(AccountSnapshot {
        asset: "USDT".into(),
        wallet_balance: wallet,
        unrealized_pnl: opt_dec(usdt, "unrealisedPnl").unwrap_or_default(),
        equity,
        available: (wallet.min(equity) - margin_used - held("locked")).max(Decimal::ZERO),
        margin_used,
    })
}

/// A kline row: `[startTime, open, high, low, close, volume, turnover]`; for a USDT contract
/// `volume` is in the base coin.
pub fn candle(v: &Value) -> Result<Candle, VenueError> {
    let at = |i: usize| -> Result<Decimal, VenueError> {
        v[i].as_str()
            .and_then(|s| Decimal::from_str(s).ok())
            .ok_or_else(|| bad(&format!("[{i}]")))
    };
    Ok(Candle {
        open_time_ms: v[0]
            .as_str()
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| bad("[0]"))?,
        open: at(1)?,
        high: at(2)?,
        low: at(3)?,
        close: at(4)?,
        volume: at(5)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal_macros::dec;
    use serde_json::json;

    /// The documented response examples' fields, on a USDT perpetual.
    #[test]
    fn documented_shapes_read_as_nofxi_types() {
        let o = json!({"orderId": "fd4300ae", "orderLinkId": "test-000005", "symbol": "ETHUSDT",
            "price": "1600.00", "qty": "0.10", "side": "Buy", "positionIdx": 1, "orderStatus": "New",
            "avgPrice": "0", "cumExecQty": "0.00", "orderType": "Limit", "stopOrderType": "UNKNOWN",
            "triggerPrice": "0.00", "triggerDirection": 0, "reduceOnly": false,
            "updatedTime": "1684738540561"});
        let order = order(&o).unwrap();
        assert_eq!(
            (
                order.order_type,
                order.price,
                order.status,
                order.position_side
            ),
            (
                OrderType::Limit,
                Some(dec!(1600)),
                OrderStatus::New,
                Some(PositionSide::Long)
            )
        );
        let stop = json!({"orderId": "1", "orderLinkId": "s1", "symbol": "BTCUSDT", "price": "0",
            "qty": "0.01", "side": "Sell", "positionIdx": 0, "orderStatus": "Untriggered",
            "orderType": "Market", "stopOrderType": "Stop", "triggerPrice": "59000.0",
            "triggerDirection": 2, "reduceOnly": true, "cumExecQty": "0", "avgPrice": ""});
        let s = super::order(&stop).unwrap();
        assert_eq!(
            (s.order_type, s.stop_price, s.status),
            (OrderType::StopMarket, Some(dec!(59000)), OrderStatus::New)
        );
        let mut tp = stop.clone();
        tp["triggerDirection"] = json!(1);
        assert_eq!(
            super::order(&tp).unwrap().order_type,
            OrderType::TakeProfitMarket
        );

        let p = json!({"positionIdx": 0, "symbol": "BTCUSDT", "side": "Sell", "size": "0.03",
            "avgPrice": "60000", "markPrice": "59000", "leverage": "10", "positionIM": "177",
            "unrealisedPnl": "30", "liqPrice": ""});
        let p = position(&p, MarginMode::Cross).unwrap().unwrap();
        assert_eq!(
            (p.side, p.quantity, p.liquidation_price),
            (PositionSide::Short, dec!(0.03), None)
        );
        let flat = json!({"positionIdx": 0, "symbol": "BTCUSDT", "side": "", "size": "0"});
        assert!(position(&flat, MarginMode::Cross).unwrap().is_none());

        let e = json!({"symbol": "BTCUSDT", "orderLinkId": "", "side": "Buy", "orderId": "8c06",
            "execTime": "1672282722429", "feeCurrency": "", "isMaker": false, "execFee": "0.071409",
            "execId": "e0cb", "execPrice": "1190.15", "execType": "Trade", "execQty": "0.1", "closedSize": ""});
        let f = fill(&e, Decimal::ZERO).unwrap();
        assert_eq!((f.fee, f.fee_asset.as_str()), (dec!(0.071409), "USDT"));
        assert!(closed_size(&e).is_zero() && is_trade(&e));

        assert!(account(&json!({"coin": []})).unwrap().equity.is_zero());
        assert!(account(&json!({})).is_err());
        let a = account(&json!({"coin": [{"coin": "USDT", "walletBalance": "1000", "equity": "990",
            "unrealisedPnl": "-10", "totalPositionIM": "100", "totalOrderIM": "0", "locked": "0"}]}))
        .unwrap();
        assert_eq!((a.available, a.margin_used), (dec!(890), dec!(100)));
        assert!(list(&json!([])).is_err());
    }
}
