//! Hyperliquid JSON → nofxi types. Numbers arrive as strings ("float string"), times as
//! Unix milliseconds, sides as `B` (bid, buy) and `A` (ask, sell); a field nofxi needs that is
//! missing or unreadable is an error naming it, never a silent zero.
//!
//! Shapes: the reference SDK's `info.py` docstrings and recorded answers
//! (`tests/cassettes/info_test/*.yaml`: `clearinghouseState`, `frontendOpenOrders`,
//! `userFillsByTime`, `candleSnapshot`, `l2Book`), and the docs' "Info endpoint" for
//! `orderStatus` (`{"status": "order", "order": {"order": {…}, "status": "open",
//! "statusTimestamp": …}}` or `{"status": "unknownOid"}`) and its order status values.

use std::str::FromStr;

use nofxi_domain::market::Candle;
use nofxi_domain::trading::{
    AccountSnapshot, Fill, MarginMode, Order, OrderStatus, OrderType, Position, PositionSide, Side,
};
use rust_decimal::Decimal;
use serde_json::Value;

use super::assets::Asset;
use super::orders::client_id_of;
use crate::VenueError;

/// An answer without `field`; the caller names the request (`VenueError::in_answer_to`).
pub fn bad(field: &str) -> VenueError {
    VenueError::unreadable("hyperliquid", field)
}

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

pub fn ms(v: &Value, field: &str) -> Result<i64, VenueError> {
    v[field].as_i64().ok_or_else(|| bad(field))
}

fn side(v: &Value) -> Result<Side, VenueError> {
    match text(v, "side")? {
        "B" => Ok(Side::Buy),
        "A" => Ok(Side::Sell),
        _ => Err(bad("side")),
    }
}

/// An order status value (docs, "Info endpoint" → "Query order status by oid or cloid").
pub fn status(value: &str) -> OrderStatus {
    match value {
        "open" => OrderStatus::New,
        // Fired: now a market order working on the book.
        "triggered" => OrderStatus::New,
        "filled" => OrderStatus::Filled,
        "rejected" => OrderStatus::Rejected,
        other if other.ends_with("Rejected") => OrderStatus::Rejected,
        other
            if other.ends_with("Canceled") || other == "canceled" || other == "scheduledCancel" =>
        {
            OrderStatus::Canceled
        }
        _ => OrderStatus::Expired,
    }
}

fn order_type(v: &Value) -> Result<OrderType, VenueError> {
    match v["orderType"].as_str() {
        Some("Market") => Ok(OrderType::Market),
        // nofxi sends a market order as an IOC limit through the mid (the SDK's
        // `market_open`); the web app's are `FrontendMarket`.
        Some("Limit") if matches!(v["tif"].as_str(), Some("Ioc" | "FrontendMarket")) => {
            Ok(OrderType::Market)
        }
        Some("Limit") => Ok(OrderType::Limit),
        Some("Stop Market" | "Stop Limit") => Ok(OrderType::StopMarket),
        Some("Take Profit Market" | "Take Profit Limit") => Ok(OrderType::TakeProfitMarket),
        _ => Err(bad("orderType")),
    }
}

/// A frontend order (`frontendOpenOrders` rows, `orderStatus`'s `order.order`) in `status`.
/// `average`: the fills' volume-weighted price, when the caller read them.
pub fn order(
    v: &Value,
    status_value: &str,
    asset: &Asset,
    average: Option<Decimal>,
    updated_ms: Option<i64>,
) -> Result<Order, VenueError> {
    let order_type = order_type(v)?;
    let quantity = dec(v, "origSz")?;
    let left = dec(v, "sz")?;
    let executed = (quantity - left).max(Decimal::ZERO);
    let mut status = status(status_value);
    if status == OrderStatus::New && executed > Decimal::ZERO {
        status = OrderStatus::PartiallyFilled;
    }
    let trigger = order_type.is_trigger();
    Ok(Order {
        order_id: v["oid"].as_u64().ok_or_else(|| bad("oid"))?.to_string(),
        client_order_id: v["cloid"].as_str().map(client_id_of).unwrap_or_default(),
        symbol: asset.symbol.clone(),
        side: side(v)?,
        order_type,
        status,
        quantity: quantity.normalize(),
        price: (order_type == OrderType::Limit)
            .then(|| opt_dec(v, "limitPx"))
            .flatten(),
        stop_price: if trigger {
            Some(dec(v, "triggerPx")?.normalize())
        } else {
            None
        },
        executed_quantity: executed.normalize(),
        average_price: average.unwrap_or_default(),
        reduce_only: v["reduceOnly"].as_bool().unwrap_or(false),
        position_side: None,
        updated_ms: updated_ms.unwrap_or_else(|| v["timestamp"].as_i64().unwrap_or_default()),
    })
}

/// A position (`clearinghouseState`'s `assetPositions[].position`); `None` for a flat one.
pub fn position(v: &Value, asset: &Asset) -> Result<Option<Position>, VenueError> {
    let size = dec(v, "szi")?;
    if size.is_zero() {
        return Ok(None);
    }
    let quantity = size.abs();
    let leverage = &v["leverage"];
    let lever = leverage["value"]
        .as_u64()
        .and_then(|l| u32::try_from(l).ok())
        .filter(|l| *l > 0)
        .ok_or_else(|| bad("leverage.value"))?;
    let value = dec(v, "positionValue")?;
    Ok(Some(Position {
        symbol: asset.symbol.clone(),
        side: if size > Decimal::ZERO {
            PositionSide::Long
        } else {
            PositionSide::Short
        },
        quantity: quantity.normalize(),
        entry_price: dec(v, "entryPx")?,
        // Hyperliquid values a position at the mark: its value over its size is the mark.
        mark_price: (value / quantity).normalize(),
        leverage: lever,
        margin_mode: match leverage["type"].as_str() {
            Some("isolated") => MarginMode::Isolated,
            Some("cross") => MarginMode::Cross,
            _ => return Err(bad("leverage.type")),
        },
        margin: dec(v, "marginUsed")?,
        unrealized_pnl: dec(v, "unrealizedPnl")?,
        liquidation_price: opt_dec(v, "liquidationPx").filter(|p| *p > Decimal::ZERO),
    }))
}

/// The account line of `clearinghouseState`: `marginSummary.accountValue` is the equity
/// (unrealized P&L included), `withdrawable` what is free, `totalMarginUsed` the margin.
pub fn account(v: &Value) -> Result<AccountSnapshot, VenueError> {
    let summary = &v["marginSummary"];
    let equity = dec(summary, "accountValue").map_err(|_| bad("marginSummary.accountValue"))?;
    let mut unrealized = Decimal::ZERO;
    for row in v["assetPositions"]
        .as_array()
        .ok_or_else(|| bad("assetPositions"))?
    {
        unrealized += opt_dec(&row["position"], "unrealizedPnl").unwrap_or_default();
    }
    Ok(AccountSnapshot {
        asset: "USDC".into(),
        wallet_balance: equity - unrealized,
        unrealized_pnl: unrealized,
        equity,
        available: dec(v, "withdrawable")?,
        margin_used: dec(summary, "totalMarginUsed")
            .map_err(|_| bad("marginSummary.totalMarginUsed"))?,
    })
}

/// A fill (`userFillsByTime` rows). Hyperliquid's `fee` is what was paid (negative for a
/// rebate), as nofxi's is; `crossed` is a taker fill.
pub fn fill(v: &Value, asset: &Asset) -> Result<Fill, VenueError> {
    let oid = v["oid"].as_u64().ok_or_else(|| bad("oid"))?;
    let trade_id = match (&v["tid"], v["hash"].as_str()) {
        (Value::Number(n), _) => n.to_string(),
        (_, Some(hash)) => format!("{hash}:{oid}"),
        _ => return Err(bad("tid")),
    };
    Ok(Fill {
        trade_id,
        order_id: oid.to_string(),
        client_order_id: v["cloid"].as_str().map(client_id_of).unwrap_or_default(),
        symbol: asset.symbol.clone(),
        side: side(v)?,
        price: dec(v, "px")?,
        quantity: dec(v, "sz")?.normalize(),
        fee: dec(v, "fee")?,
        fee_asset: v["feeToken"].as_str().unwrap_or("USDC").to_string(),
        realized_pnl: opt_dec(v, "closedPnl").unwrap_or_default(),
        is_maker: v["crossed"].as_bool() == Some(false),
        time_ms: ms(v, "time")?,
    })
}

/// A `candleSnapshot` row: `{"t": open ms, "o", "h", "l", "c", "v": base volume, …}`.
pub fn candle(v: &Value) -> Result<Candle, VenueError> {
    Ok(Candle {
        open_time_ms: ms(v, "t")?,
        open: dec(v, "o")?,
        high: dec(v, "h")?,
        low: dec(v, "l")?,
        close: dec(v, "c")?,
        volume: dec(v, "v")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use nofxi_domain::market::Symbol;
    use rust_decimal_macros::dec;
    use serde_json::json;

    fn asset(coin: &str) -> Asset {
        Asset {
            symbol: Symbol::parse(coin).unwrap(),
            coin: coin.into(),
            index: 0,
            sz_decimals: 2,
            max_leverage: 20,
        }
    }

    /// The SDK's recorded answers (`test_get_user_state`, `test_get_frontend_open_orders`,
    /// `test_get_user_fills_by_time`, `test_get_candles_snapshot`), one row each.
    #[test]
    fn recorded_shapes_read() {
        let state = json!({"assetPositions": [{"position": {"coin": "ATOM", "entryPx": "10.787",
            "leverage": {"type": "cross", "value": 20}, "liquidationPx": "2561.83187333",
            "marginUsed": "0.243", "maxTradeSzs": ["1872.32", "1871.42"], "positionValue": "4.86",
            "returnOnEquity": "-0.02407407", "szi": "-0.45", "unrealizedPnl": "-0.00585"}, "type": "oneWay"}],
            "marginSummary": {"accountValue": "1000.5", "totalMarginUsed": "0.243", "totalNtlPos": "4.86", "totalRawUsd": "1005.36"},
            "withdrawable": "990.1"});
        let p = position(&state["assetPositions"][0]["position"], &asset("ATOM"))
            .unwrap()
            .unwrap();
        assert_eq!(
            (p.side, p.quantity, p.mark_price, p.leverage),
            (PositionSide::Short, dec!(0.45), dec!(10.8), 20)
        );
        let a = account(&state).unwrap();
        assert_eq!(
            (a.equity, a.wallet_balance, a.available),
            (dec!(1000.5), dec!(1000.50585), dec!(990.1))
        );
        let o = json!({"children": [], "coin": "INJ", "isPositionTpsl": false, "isTrigger": true,
            "limitPx": "9.1954", "oid": 3184595906u64, "orderType": "Stop Market", "origSz": "12.5",
            "reduceOnly": true, "side": "A", "sz": "12.5", "tif": null, "timestamp": 1700126022555u64,
            "triggerCondition": "Price below 9.995", "triggerPx": "9.995"});
        let o = order(&o, "open", &asset("INJ"), None, None).unwrap();
        assert_eq!(
            (o.order_type, o.status, o.stop_price, o.price, o.reduce_only),
            (
                OrderType::StopMarket,
                OrderStatus::New,
                Some(dec!(9.995)),
                None,
                true
            )
        );
        let f = json!({"closedPnl": "-0.25686", "coin": "SUI", "crossed": true, "dir": "Close Long",
            "fee": "0.0", "hash": "0x3d47", "oid": 189324432u64, "px": "1.3189", "side": "A",
            "startPosition": "4623.5", "sz": "142.7", "time": 1683245884863u64});
        let f = fill(&f, &asset("SUI")).unwrap();
        assert_eq!(
            (f.side, f.realized_pnl, f.is_maker),
            (Side::Sell, dec!(-0.25686), false)
        );
        let c = json!({"T": 1684702799999u64, "c": "0.001604", "h": "0.001616", "i": "1h",
            "l": "0.001601", "n": 709, "o": "0.001601", "s": "kPEPE", "t": 1684699200000u64, "v": "520665683.0"});
        assert_eq!(candle(&c).unwrap().open_time_ms, 1_684_699_200_000);
        assert!(account(&json!({})).is_err());
        assert_eq!(status("perpMarginRejected"), OrderStatus::Rejected);
        assert_eq!(status("siblingFilledCanceled"), OrderStatus::Canceled);
    }
}
