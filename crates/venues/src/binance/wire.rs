//! Binance JSON → nofxi types. Binance sends numbers as strings; a field that is missing or
//! unreadable is an error naming the field, never a silent zero.

use std::str::FromStr;

use nofxi_domain::market::{Candle, Symbol};
use nofxi_domain::trading::{
    AccountSnapshot, Fill, MarginMode, Order, OrderStatus, OrderType, Position, PositionSide, Side,
    SymbolRules,
};
use rust_decimal::Decimal;
use serde_json::Value;

use crate::VenueError;
use crate::error::WHOLE_ANSWER;

/// The caller names the endpoint (`VenueError::in_answer_to`): a parser only knows the field.
fn bad(what: &str) -> VenueError {
    VenueError::unreadable("binance", what)
}

pub fn dec(v: &Value, field: &str) -> Result<Decimal, VenueError> {
    match &v[field] {
        Value::String(s) => Decimal::from_str(s)
            .or_else(|_| Decimal::from_scientific(s))
            .map_err(|_| bad(field)),
        Value::Number(n) => Decimal::from_str(&n.to_string()).map_err(|_| bad(field)),
        _ => Err(bad(field)),
    }
}

pub fn dec_at(v: &Value, i: usize) -> Result<Decimal, VenueError> {
    v[i].as_str()
        .and_then(|s| Decimal::from_str(s).ok())
        .ok_or_else(|| bad(&format!("[{i}]")))
}

pub fn int(v: &Value, field: &str) -> Result<i64, VenueError> {
    v[field].as_i64().ok_or_else(|| bad(field))
}

pub fn text<'a>(v: &'a Value, field: &str) -> Result<&'a str, VenueError> {
    v[field].as_str().ok_or_else(|| bad(field))
}

fn symbol(v: &Value) -> Result<Symbol, VenueError> {
    Symbol::parse(text(v, "symbol")?).map_err(|_| bad("symbol"))
}

fn side(s: &str) -> Result<Side, VenueError> {
    match s {
        "BUY" => Ok(Side::Buy),
        "SELL" => Ok(Side::Sell),
        _ => Err(bad("side")),
    }
}

fn nonzero(d: Decimal) -> Option<Decimal> {
    (!d.is_zero()).then_some(d)
}

fn position_side(s: &str) -> Option<PositionSide> {
    match s {
        "LONG" => Some(PositionSide::Long),
        "SHORT" => Some(PositionSide::Short),
        _ => None,
    }
}

pub fn order(v: &Value) -> Result<Order, VenueError> {
    let status = match text(v, "status")? {
        "NEW" => OrderStatus::New,
        "PARTIALLY_FILLED" => OrderStatus::PartiallyFilled,
        "FILLED" => OrderStatus::Filled,
        "CANCELED" => OrderStatus::Canceled,
        "REJECTED" => OrderStatus::Rejected,
        _ => OrderStatus::Expired,
    };
    let kind = v["origType"].as_str().or(v["type"].as_str()).unwrap_or("");
    let order_type = match kind {
        "MARKET" => OrderType::Market,
        "LIMIT" => OrderType::Limit,
        "STOP_MARKET" | "STOP" => OrderType::StopMarket,
        "TAKE_PROFIT_MARKET" | "TAKE_PROFIT" => OrderType::TakeProfitMarket,
        _ => return Err(bad("type")),
    };
    Ok(Order {
        order_id: int(v, "orderId")?.to_string(),
        client_order_id: text(v, "clientOrderId")?.to_string(),
        symbol: symbol(v)?,
        side: side(text(v, "side")?)?,
        order_type,
        status,
        quantity: dec(v, "origQty")?,
        price: dec(v, "price").ok().and_then(nonzero),
        stop_price: dec(v, "stopPrice").ok().and_then(nonzero),
        executed_quantity: dec(v, "executedQty")?,
        average_price: dec(v, "avgPrice").unwrap_or_default(),
        // A closePosition stop closes whatever is held and never opens: reduce-only in effect.
        reduce_only: v["reduceOnly"].as_bool().unwrap_or(false)
            || v["closePosition"].as_bool().unwrap_or(false),
        position_side: v["positionSide"].as_str().and_then(position_side),
        updated_ms: v["updateTime"].as_i64().unwrap_or_default(),
    })
}

pub fn account(v: &Value) -> Result<AccountSnapshot, VenueError> {
    Ok(AccountSnapshot {
        asset: "USDT".into(),
        wallet_balance: dec(v, "totalWalletBalance")?,
        unrealized_pnl: dec(v, "totalUnrealizedProfit")?,
        equity: dec(v, "totalMarginBalance")?,
        available: dec(v, "availableBalance")?,
        margin_used: dec(v, "totalInitialMargin")?,
    })
}

/// A `positionRisk` row; `None` for the zero rows Binance lists for every symbol.
pub fn position(v: &Value) -> Result<Option<Position>, VenueError> {
    let amount = dec(v, "positionAmt")?;
    if amount.is_zero() {
        return Ok(None);
    }
    let side = v["positionSide"]
        .as_str()
        .and_then(position_side)
        .unwrap_or(if amount > Decimal::ZERO {
            PositionSide::Long
        } else {
            PositionSide::Short
        });
    let leverage: u32 = text(v, "leverage")?.parse().map_err(|_| bad("leverage"))?;
    let mark = dec(v, "markPrice")?;
    let isolated = v["marginType"].as_str() == Some("isolated");
    let quantity = amount.abs();
    Ok(Some(Position {
        symbol: symbol(v)?,
        side,
        quantity,
        entry_price: dec(v, "entryPrice")?,
        mark_price: mark,
        leverage,
        margin_mode: if isolated {
            MarginMode::Isolated
        } else {
            MarginMode::Cross
        },
        margin: if isolated {
            dec(v, "isolatedMargin")?
        } else {
            quantity * mark / Decimal::from(leverage.max(1))
        },
        unrealized_pnl: dec(v, "unRealizedProfit")?,
        liquidation_price: dec(v, "liquidationPrice").ok().and_then(nonzero),
    }))
}

pub fn fill(v: &Value) -> Result<Fill, VenueError> {
    Ok(Fill {
        trade_id: int(v, "id")?.to_string(),
        order_id: int(v, "orderId")?.to_string(),
        // userTrades does not carry the client order id; match on order_id.
        client_order_id: String::new(),
        symbol: symbol(v)?,
        side: side(text(v, "side")?)?,
        price: dec(v, "price")?,
        quantity: dec(v, "qty")?,
        fee: dec(v, "commission")?,
        fee_asset: text(v, "commissionAsset")?.to_string(),
        realized_pnl: dec(v, "realizedPnl")?,
        is_maker: v["maker"].as_bool().unwrap_or(false),
        time_ms: int(v, "time")?,
    })
}

/// A kline row: `[openTime, open, high, low, close, volume, closeTime, …]`.
pub fn candle(v: &Value) -> Result<Candle, VenueError> {
    Ok(Candle {
        open_time_ms: v[0].as_i64().ok_or_else(|| bad("[0]"))?,
        open: dec_at(v, 1)?,
        high: dec_at(v, 2)?,
        low: dec_at(v, 3)?,
        close: dec_at(v, 4)?,
        volume: dec_at(v, 5)?,
    })
}

/// Every symbol's rules from `exchangeInfo`; symbols nofxi cannot name are skipped.
pub fn symbol_rules(v: &Value) -> Result<Vec<SymbolRules>, VenueError> {
    let mut out = Vec::new();
    for s in array_in(v, "symbols")? {
        let Ok(symbol) = Symbol::parse(text(s, "symbol")?) else {
            continue;
        };
        let filter = |kind: &str| {
            s["filters"]
                .as_array()
                .and_then(|fs| fs.iter().find(|f| f["filterType"].as_str() == Some(kind)))
                .cloned()
                .unwrap_or(Value::Null)
        };
        let (price, lot, notional) = (
            filter("PRICE_FILTER"),
            filter("LOT_SIZE"),
            filter("MIN_NOTIONAL"),
        );
        out.push(SymbolRules {
            symbol,
            tick_size: dec(&price, "tickSize")?,
            step_size: dec(&lot, "stepSize")?,
            min_quantity: dec(&lot, "minQty")?,
            min_notional: dec(&notional, "notional").unwrap_or_default(),
        });
    }
    Ok(out)
}

/// For `map_err`: an unreadable answer of `GET path` names that endpoint.
pub fn of_get(path: &str) -> impl Fn(VenueError) -> VenueError + '_ {
    move |e| e.in_answer_to(&format!("GET {path}"))
}

/// `field` of `v` as a bool: a missing flag is unreadable, never read as `false`.
pub fn flag(v: &Value, field: &str) -> Result<bool, VenueError> {
    v[field].as_bool().ok_or_else(|| bad(field))
}

/// `field` of `v` as an array.
pub fn array_in<'a>(v: &'a Value, field: &str) -> Result<&'a Vec<Value>, VenueError> {
    v[field].as_array().ok_or_else(|| bad(field))
}

/// The answer itself as an array.
pub fn array(v: &Value) -> Result<&Vec<Value>, VenueError> {
    v.as_array().ok_or_else(|| bad(WHOLE_ANSWER))
}
