//! Orders as asked for, orders as the venue knows them, and the fills they produce.

use std::fmt;

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::market::Symbol;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Side {
    Buy,
    Sell,
}

impl Side {
    pub fn opposite(self) -> Side {
        match self {
            Side::Buy => Side::Sell,
            Side::Sell => Side::Buy,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Side::Buy => "BUY",
            Side::Sell => "SELL",
        }
    }
}

/// The direction of a position. In one-way mode a venue keeps one net position per symbol and
/// its side follows the sign; in hedge mode long and short live side by side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum PositionSide {
    Long,
    Short,
}

impl PositionSide {
    /// The order side that opens (adds to) a position of this side.
    pub fn opening_side(self) -> Side {
        match self {
            PositionSide::Long => Side::Buy,
            PositionSide::Short => Side::Sell,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            PositionSide::Long => "LONG",
            PositionSide::Short => "SHORT",
        }
    }
}

impl fmt::Display for PositionSide {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Order kinds a trader uses. Stop and take-profit orders are market orders that wait for the
/// mark price to cross `stop_price`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum OrderType {
    Market,
    Limit,
    StopMarket,
    TakeProfitMarket,
}

impl OrderType {
    pub fn as_str(self) -> &'static str {
        match self {
            OrderType::Market => "MARKET",
            OrderType::Limit => "LIMIT",
            OrderType::StopMarket => "STOP_MARKET",
            OrderType::TakeProfitMarket => "TAKE_PROFIT_MARKET",
        }
    }

    pub fn is_trigger(self) -> bool {
        matches!(self, OrderType::StopMarket | OrderType::TakeProfitMarket)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum TimeInForce {
    /// Good till cancelled.
    Gtc,
    /// Immediate or cancel.
    Ioc,
    /// Post only: rejected if it would take liquidity.
    Gtx,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum OrderStatus {
    New,
    PartiallyFilled,
    Filled,
    Canceled,
    Rejected,
    Expired,
}

impl OrderStatus {
    pub fn is_open(self) -> bool {
        matches!(self, OrderStatus::New | OrderStatus::PartiallyFilled)
    }
}

/// What a trader asks a venue for. `client_order_id` is chosen by the caller and is the key
/// that makes a retry safe: a venue that already has an order with this id must not open a
/// second one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrderRequest {
    pub symbol: Symbol,
    pub side: Side,
    pub order_type: OrderType,
    pub quantity: Decimal,
    /// Limit price; required for `Limit`, ignored otherwise.
    pub price: Option<Decimal>,
    /// Trigger price; required for stop and take-profit orders.
    pub stop_price: Option<Decimal>,
    pub time_in_force: Option<TimeInForce>,
    /// Only reduce an existing position, never open or flip one.
    pub reduce_only: bool,
    /// Hedge mode: which position the order belongs to. `None` in one-way mode.
    pub position_side: Option<PositionSide>,
    pub client_order_id: String,
}

impl OrderRequest {
    pub fn market(symbol: Symbol, side: Side, quantity: Decimal, client_order_id: &str) -> Self {
        OrderRequest {
            symbol,
            side,
            order_type: OrderType::Market,
            quantity,
            price: None,
            stop_price: None,
            time_in_force: None,
            reduce_only: false,
            position_side: None,
            client_order_id: client_order_id.to_string(),
        }
    }

    pub fn limit(
        symbol: Symbol,
        side: Side,
        quantity: Decimal,
        price: Decimal,
        client_order_id: &str,
    ) -> Self {
        OrderRequest {
            order_type: OrderType::Limit,
            price: Some(price),
            time_in_force: Some(TimeInForce::Gtc),
            ..OrderRequest::market(symbol, side, quantity, client_order_id)
        }
    }

    /// A reduce-only stop or take-profit that closes `quantity` when the mark crosses `trigger`.
    pub fn trigger(
        symbol: Symbol,
        order_type: OrderType,
        side: Side,
        quantity: Decimal,
        trigger: Decimal,
        client_order_id: &str,
    ) -> Self {
        OrderRequest {
            order_type,
            stop_price: Some(trigger),
            reduce_only: true,
            ..OrderRequest::market(symbol, side, quantity, client_order_id)
        }
    }

    pub fn reduce_only(mut self) -> Self {
        self.reduce_only = true;
        self
    }

    pub fn with_position_side(mut self, side: PositionSide) -> Self {
        self.position_side = Some(side);
        self
    }
}

/// An order as the venue reports it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Order {
    pub order_id: String,
    pub client_order_id: String,
    pub symbol: Symbol,
    pub side: Side,
    pub order_type: OrderType,
    pub status: OrderStatus,
    pub quantity: Decimal,
    pub price: Option<Decimal>,
    pub stop_price: Option<Decimal>,
    pub executed_quantity: Decimal,
    /// Volume-weighted fill price; zero until something fills.
    pub average_price: Decimal,
    pub reduce_only: bool,
    pub position_side: Option<PositionSide>,
    pub updated_ms: i64,
}

impl Order {
    /// The position this order can only close, if it is a closing order: reduce-only on a
    /// one-way account, or the closing side of the position it names on a hedge account.
    /// Such an order belongs to its position: once the position is gone it must go too, or it
    /// closes the next position opened on the symbol.
    pub fn closes_only(&self) -> Option<PositionSide> {
        let target = match self.side {
            Side::Sell => PositionSide::Long,
            Side::Buy => PositionSide::Short,
        };
        let closing = match self.position_side {
            Some(named) => named == target,
            None => self.reduce_only,
        };
        closing.then_some(target)
    }
}

/// One execution. `realized_pnl` is what closing part of a position earned before fees;
/// `fee` is always paid in `fee_asset` and is positive.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fill {
    pub trade_id: String,
    pub order_id: String,
    pub client_order_id: String,
    pub symbol: Symbol,
    pub side: Side,
    pub price: Decimal,
    pub quantity: Decimal,
    pub fee: Decimal,
    pub fee_asset: String,
    pub realized_pnl: Decimal,
    pub is_maker: bool,
    pub time_ms: i64,
}
