//! OKX JSON → nofxi types. OKX sends numbers and times as strings, and an empty string where a
//! field does not apply (`"px": ""` on a market order); a field nofxi needs that is missing or
//! unreadable is an error naming it, never a silent zero. Sizes arrive in contracts and leave
//! here in coins ([`Contract`]).
//!
//! Field names and meanings: OKX API v5 docs, the "Response Parameters" of "Get order
//! details", "Get algo order details", "Get positions", "Get balance", "Get transaction
//! details (last 3 days)" and "Get candlesticks" (https://www.okx.com/docs-v5/en/).

use std::str::FromStr;

use nofxi_domain::market::Candle;
use nofxi_domain::trading::{
    AccountSnapshot, Fill, MarginMode, Order, OrderStatus, OrderType, Position, PositionSide, Side,
};
use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;
use serde_json::Value;

use super::contracts::Contract;
use crate::VenueError;
use crate::error::WHOLE_ANSWER;

/// An answer without `field`; the caller names the endpoint (`VenueError::in_answer_to`).
pub fn bad(field: &str) -> VenueError {
    VenueError::unreadable("okx", field)
}

/// The `data` array of an answer.
pub fn rows(data: &Value) -> Result<&Vec<Value>, VenueError> {
    data.as_array().ok_or_else(|| bad(WHOLE_ANSWER))
}

/// The one item of an answer about one thing.
pub fn first(data: &Value) -> Result<&Value, VenueError> {
    rows(data)?.first().ok_or_else(|| bad("data[0]"))
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

/// Unix epoch milliseconds, sent as a string.
pub fn ms(v: &Value, field: &str) -> Result<i64, VenueError> {
    match &v[field] {
        Value::String(s) => s.trim().parse().ok(),
        Value::Number(n) => n.as_i64(),
        _ => None,
    }
    .ok_or_else(|| bad(field))
}

fn side(v: &Value) -> Result<Side, VenueError> {
    match text(v, "side")? {
        "buy" => Ok(Side::Buy),
        "sell" => Ok(Side::Sell),
        _ => Err(bad("side")),
    }
}

/// `long`/`short` in long/short mode; `net` (one-way) is no side of its own.
fn position_side(v: &Value) -> Option<PositionSide> {
    match v["posSide"].as_str() {
        Some("long") => Some(PositionSide::Long),
        Some("short") => Some(PositionSide::Short),
        _ => None,
    }
}

/// OKX sends this flag as `"true"` on orders and as `true` elsewhere.
fn flag(v: &Value, field: &str) -> bool {
    matches!(&v[field], Value::Bool(true)) || v[field].as_str() == Some("true")
}

fn nonzero(d: Decimal) -> Option<Decimal> {
    (!d.is_zero()).then_some(d)
}

/// A regular order (`GET /api/v5/trade/order`, `…/orders-pending`).
pub fn order(v: &Value, c: &Contract) -> Result<Order, VenueError> {
    let status = match text(v, "state")? {
        "live" => OrderStatus::New,
        "partially_filled" => OrderStatus::PartiallyFilled,
        "filled" => OrderStatus::Filled,
        "canceled" | "mmp_canceled" => OrderStatus::Canceled,
        _ => OrderStatus::Expired,
    };
    let order_type = match text(v, "ordType")? {
        "market" | "optimal_limit_ioc" => OrderType::Market,
        "limit" | "post_only" | "fok" | "ioc" => OrderType::Limit,
        _ => return Err(bad("ordType")),
    };
    Ok(Order {
        order_id: text(v, "ordId")?.to_string(),
        client_order_id: v["clOrdId"].as_str().unwrap_or_default().to_string(),
        symbol: c.symbol.clone(),
        side: side(v)?,
        order_type,
        status,
        quantity: c.coins(dec(v, "sz")?),
        price: opt_dec(v, "px").and_then(nonzero),
        stop_price: None,
        executed_quantity: c.coins(opt_dec(v, "accFillSz").unwrap_or_default()),
        average_price: opt_dec(v, "avgPx").unwrap_or_default(),
        reduce_only: flag(v, "reduceOnly"),
        position_side: position_side(v),
        updated_ms: ms(v, "uTime").unwrap_or_default(),
    })
}

/// A stop or take-profit (`GET /api/v5/trade/order-algo`, `…/orders-algo-pending`). Once it
/// fired (`effective`) the market order it placed (`child`, looked up by `ordId`) says what
/// filled.
pub fn algo_order(v: &Value, c: &Contract, child: Option<&Order>) -> Result<Order, VenueError> {
    let (order_type, trigger) = match (opt_dec(v, "slTriggerPx"), opt_dec(v, "tpTriggerPx")) {
        (Some(sl), _) => (OrderType::StopMarket, sl),
        (None, Some(tp)) => (OrderType::TakeProfitMarket, tp),
        (None, None) => return Err(bad("slTriggerPx")),
    };
    let quantity = c.coins(dec(v, "sz")?);
    let (mut status, mut executed, mut average) = (OrderStatus::New, Decimal::ZERO, Decimal::ZERO);
    match text(v, "state")? {
        "live" | "pause" => {}
        "partially_effective" => status = OrderStatus::PartiallyFilled,
        "effective" => match child {
            Some(o) => {
                (status, executed, average) = (o.status, o.executed_quantity, o.average_price)
            }
            None => {
                status = OrderStatus::Filled;
                executed = opt_dec(v, "actualSz").map_or(quantity, |s| c.coins(s));
            }
        },
        "canceled" => status = OrderStatus::Canceled,
        "order_failed" | "partially_failed" => status = OrderStatus::Rejected,
        _ => status = OrderStatus::Expired,
    }
    Ok(Order {
        order_id: text(v, "algoId")?.to_string(),
        client_order_id: v["algoClOrdId"].as_str().unwrap_or_default().to_string(),
        symbol: c.symbol.clone(),
        side: side(v)?,
        order_type,
        status,
        quantity,
        price: None,
        stop_price: Some(trigger),
        executed_quantity: executed,
        average_price: average,
        reduce_only: flag(v, "reduceOnly"),
        position_side: position_side(v),
        updated_ms: ms(v, "uTime").unwrap_or_default(),
    })
}

/// A position row; `None` for a row holding nothing.
pub fn position(v: &Value, c: &Contract) -> Result<Option<Position>, VenueError> {
    let pos = dec(v, "pos")?;
    if pos.is_zero() {
        return Ok(None);
    }
    let side = position_side(v).unwrap_or(if pos > Decimal::ZERO {
        PositionSide::Long
    } else {
        PositionSide::Short
    });
    let quantity = c.coins(pos.abs());
    let leverage = dec(v, "lever")?
        .trunc()
        .to_u32()
        .filter(|l| *l > 0)
        .ok_or_else(|| bad("lever"))?;
    let mark = dec(v, "markPx")?;
    let isolated = v["mgnMode"].as_str() == Some("isolated");
    let margin = if isolated {
        dec(v, "margin")?
    } else {
        opt_dec(v, "imr").unwrap_or(quantity * mark / Decimal::from(leverage))
    };
    Ok(Some(Position {
        symbol: c.symbol.clone(),
        side,
        quantity,
        entry_price: dec(v, "avgPx")?,
        mark_price: mark,
        leverage,
        margin_mode: if isolated {
            MarginMode::Isolated
        } else {
            MarginMode::Cross
        },
        margin,
        unrealized_pnl: opt_dec(v, "upl").unwrap_or_default(),
        liquidation_price: opt_dec(v, "liqPx").and_then(nonzero),
    }))
}

/// A fill. OKX's `fee` is negative when paid; nofxi's is the amount paid.
pub fn fill(v: &Value, c: &Contract) -> Result<Fill, VenueError> {
    Ok(Fill {
        trade_id: text(v, "tradeId")?.to_string(),
        order_id: text(v, "ordId")?.to_string(),
        client_order_id: v["clOrdId"].as_str().unwrap_or_default().to_string(),
        symbol: c.symbol.clone(),
        side: side(v)?,
        price: dec(v, "fillPx")?,
        quantity: c.coins(dec(v, "fillSz")?),
        fee: -dec(v, "fee")?,
        fee_asset: text(v, "feeCcy")?.to_string(),
        realized_pnl: opt_dec(v, "fillPnl").unwrap_or_default(),
        is_maker: v["execType"].as_str() == Some("M"),
        time_ms: ms(v, "ts")?,
    })
}

/// The USDT line of `GET /api/v5/account/balance`. OKX lists only the currencies an account
/// holds, so no USDT line is a zero balance, not an unreadable answer.
pub fn account(v: &Value) -> Result<AccountSnapshot, VenueError> {
    let details = v["details"].as_array().ok_or_else(|| bad("details"))?;
    let Some(usdt) = details.iter().find(|d| d["ccy"].as_str() == Some("USDT")) else {
        return Ok(AccountSnapshot {
            asset: "USDT".into(),
            wallet_balance: Decimal::ZERO,
            unrealized_pnl: Decimal::ZERO,
            equity: Decimal::ZERO,
            available: Decimal::ZERO,
            margin_used: Decimal::ZERO,
        });
    };
    Ok(AccountSnapshot {
        asset: "USDT".into(),
        wallet_balance: dec(usdt, "cashBal")?,
        unrealized_pnl: opt_dec(usdt, "upl").unwrap_or_default(),
        equity: dec(usdt, "eq")?,
        available: opt_dec(usdt, "availEq")
            .or_else(|| opt_dec(usdt, "availBal"))
            .ok_or_else(|| bad("availEq"))?,
        margin_used: opt_dec(usdt, "frozenBal").unwrap_or_default(),
    })
}

/// A candle row: `[ts, o, h, l, c, vol, volCcy, volCcyQuote, confirm]`; for a swap `vol` is
/// in contracts and `volCcy` in coins, which is the volume nofxi keeps.
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
        volume: at(6)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use nofxi_domain::market::Symbol;
    use rust_decimal_macros::dec;
    use serde_json::json;

    fn btc() -> Contract {
        Contract {
            symbol: Symbol::parse("BTC").unwrap(),
            inst_id: "BTC-USDT-SWAP".into(),
            coins_per_contract: dec!(0.01),
            lot: dec!(0.01),
            min_size: dec!(0.01),
            tick: dec!(0.1),
        }
    }

    /// The documented response examples' fields, on a swap.
    #[test]
    fn documented_shapes_read_in_coins() {
        let o = json!({"accFillSz": "1.23", "avgPx": "51858", "clOrdId": "b15", "ordId": "680800019749904384",
            "ordType": "market", "posSide": "net", "px": "", "reduceOnly": "false", "side": "buy",
            "state": "filled", "sz": "1.23", "uTime": "1708587373362"});
        let order = order(&o, &btc()).unwrap();
        assert_eq!(
            (
                order.quantity,
                order.executed_quantity,
                order.price,
                order.status
            ),
            (dec!(0.0123), dec!(0.0123), None, OrderStatus::Filled)
        );
        let f = json!({"side": "buy", "fillSz": "2", "fillPx": "51858", "fee": "-0.0415", "fillPnl": "0",
            "ordId": "1", "clOrdId": "", "tradeId": "744876980", "execType": "T", "feeCcy": "USDT", "ts": "1708587373362"});
        let fill = fill(&f, &btc()).unwrap();
        assert_eq!((fill.quantity, fill.fee), (dec!(0.02), dec!(0.0415)));
        let p = json!({"pos": "-3", "posSide": "net", "avgPx": "60000", "markPx": "59000", "lever": "10",
            "mgnMode": "cross", "imr": "17.7", "upl": "30", "liqPx": ""});
        let p = position(&p, &btc()).unwrap().unwrap();
        assert_eq!(
            (p.side, p.quantity, p.liquidation_price),
            (PositionSide::Short, dec!(0.03), None)
        );
        assert!(account(&json!({"details": []})).unwrap().equity.is_zero());
        assert!(account(&json!({})).is_err());
    }
}
