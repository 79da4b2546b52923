//! What a trader engine and the assistant share about orders, fills, positions and accounts.
//!
//! These are plain data: the venues crate fills them from an exchange (or the paper account)
//! and everything above it reads them. Money and sizes are `Decimal` because they are compared
//! with exchange filters and stored; quantities are always positive, the side says the direction.

mod account;
mod funding;
mod order;
mod rules;

pub use account::{AccountSnapshot, MarginMode, Position, PositionMode};
pub use funding::FundingPayment;
pub use order::{
    Fill, Order, OrderRequest, OrderStatus, OrderType, PositionSide, Side, TimeInForce,
};
pub use rules::SymbolRules;
