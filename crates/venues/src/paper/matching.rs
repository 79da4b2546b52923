//! Turning orders into fills: the checks an exchange makes before accepting an order, and the
//! execution of market, limit and trigger orders against a quote.

use nofxi_domain::market::Symbol;
use nofxi_domain::trading::{
    Order, OrderRequest, OrderStatus, OrderType, PositionMode, PositionSide, Side,
};
use rust_decimal::Decimal;

use super::PaperConfig;
use super::margin::{fee, initial_margin};
use super::state::{PaperState, Parts, one_way_split};
use crate::{RejectKind, VenueError};

const VENUE: &str = "paper";

fn reject(kind: RejectKind, message: &str) -> VenueError {
    VenueError::rejected(VENUE, kind, message)
}

/// Which positions `quantity` of an order (`symbol`, `side`, `position_side`, `reduce_only`)
/// touches, closing parts first.
pub fn plan(
    state: &PaperState,
    symbol: &Symbol,
    side: Side,
    position_side: Option<PositionSide>,
    reduce_only: bool,
    quantity: Decimal,
) -> Result<Parts, VenueError> {
    let mut parts = match (state.position_mode, position_side) {
        (PositionMode::OneWay, None) => one_way_split(state, symbol, side, quantity),
        (PositionMode::Hedge, Some(ps)) => [Some((ps, quantity)), None],
        (PositionMode::OneWay, Some(_)) | (PositionMode::Hedge, None) => {
            return Err(reject(
                RejectKind::PositionModeMismatch,
                &format!(
                    "order's position side does not match the account's {} mode",
                    state.position_mode
                ),
            ));
        }
    };
    if reduce_only {
        // Keep only what closes, capped at the position held.
        for part in &mut parts {
            *part = part.and_then(|(ps, q)| {
                if side == ps.opening_side() {
                    return None;
                }
                let held = state
                    .position(symbol, ps)
                    .map(|p| p.quantity)
                    .unwrap_or_default();
                let q = q.min(held);
                (q > Decimal::ZERO).then_some((ps, q))
            });
        }
        if parts.iter().all(Option::is_none) {
            return Err(VenueError::Rejected {
                venue: VENUE.into(),
                kind: RejectKind::Other,
                code: -2022,
                message: "ReduceOnly order is rejected: there is no position to reduce".into(),
                http_status: 400,
                retry_after: None,
            });
        }
    }
    Ok(parts)
}

/// Refuse what Binance would refuse before the order exists.
pub fn validate(
    state: &PaperState,
    req: &OrderRequest,
    price: Decimal,
    config: &PaperConfig,
) -> Result<(), VenueError> {
    if req.quantity <= Decimal::ZERO {
        return Err(VenueError::InvalidRequest(
            "quantity must be greater than zero".into(),
        ));
    }
    match req.order_type {
        OrderType::Limit if req.price.is_none_or(|p| p <= Decimal::ZERO) => {
            return Err(VenueError::InvalidRequest(
                "a limit order needs a positive price".into(),
            ));
        }
        t if t.is_trigger() && req.stop_price.is_none_or(|p| p <= Decimal::ZERO) => {
            return Err(VenueError::InvalidRequest(format!(
                "a {} order needs a positive stop price",
                t.as_str()
            )));
        }
        _ => {}
    }
    if req.client_order_id.is_empty() || req.client_order_id.len() > 36 {
        return Err(VenueError::InvalidRequest(
            "client order id must be 1 to 36 characters".into(),
        ));
    }
    let parts = plan(
        state,
        &req.symbol,
        req.side,
        req.position_side,
        req.reduce_only,
        req.quantity,
    )?;
    let opening: Decimal = parts
        .iter()
        .flatten()
        .filter(|(ps, _)| req.side == ps.opening_side())
        .map(|(_, q)| *q)
        .sum();
    if opening.is_zero() || req.order_type.is_trigger() {
        return Ok(());
    }
    let at = req.price.unwrap_or(price);
    if opening * at < config.min_notional {
        return Err(reject(
            RejectKind::NotionalTooSmall,
            &format!(
                "order notional {} is below the minimum {} USDT",
                (opening * at).round_dp(4),
                config.min_notional
            ),
        ));
    }
    let leverage = state.leverage_of(&req.symbol, config);
    let needed =
        initial_margin(at, opening, leverage) + fee(at, req.quantity, config.taker_fee_rate);
    let available = state.available();
    if needed > available {
        return Err(reject(
            RejectKind::InsufficientMargin,
            &format!(
                "margin is insufficient: needs {} USDT, available {} USDT",
                needed.round_dp(4),
                available.round_dp(4)
            ),
        ));
    }
    Ok(())
}

/// The order record for a request, before anything fills.
pub fn draft(req: &OrderRequest, order_id: String, now_ms: i64) -> Order {
    Order {
        order_id,
        client_order_id: req.client_order_id.clone(),
        symbol: req.symbol.clone(),
        side: req.side,
        order_type: req.order_type,
        status: OrderStatus::New,
        quantity: req.quantity,
        price: req.price,
        stop_price: req.stop_price,
        executed_quantity: Decimal::ZERO,
        average_price: Decimal::ZERO,
        reduce_only: req.reduce_only,
        position_side: req.position_side,
        updated_ms: now_ms,
    }
}

/// The price a taker gets: the far side of the spread, made worse by slippage.
pub fn taker_price(side: Side, bid: Decimal, ask: Decimal, config: &PaperConfig) -> Decimal {
    let slip = config.slippage_bps / Decimal::from(10_000);
    match side {
        Side::Buy => ask * (Decimal::ONE + slip),
        Side::Sell => bid * (Decimal::ONE - slip),
    }
}

/// Fill the whole remaining quantity of `order` at `price`.
pub fn execute(
    state: &mut PaperState,
    order: &mut Order,
    price: Decimal,
    is_maker: bool,
    config: &PaperConfig,
    now_ms: i64,
) -> Result<(), VenueError> {
    let remaining = order.quantity - order.executed_quantity;
    let parts = plan(
        state,
        &order.symbol,
        order.side,
        order.position_side,
        order.reduce_only,
        remaining,
    )?;
    for (ps, q) in parts.into_iter().flatten() {
        state.apply_fill(order, ps, price, q, is_maker, config, now_ms);
        let done = order.executed_quantity + q;
        order.average_price = (order.average_price * order.executed_quantity + price * q) / done;
        order.executed_quantity = done;
    }
    // A reduce-only order capped at the position closes less than asked: that is a full fill
    // of what could be done, as on Binance.
    order.status = OrderStatus::Filled;
    order.updated_ms = now_ms;
    Ok(())
}

/// Whether a resting order should act at this quote: limits when the market reaches their
/// price, stops and take-profits when the mark crosses their trigger.
pub fn triggered(order: &Order, bid: Decimal, ask: Decimal, mark: Decimal) -> bool {
    let stop = order.stop_price.unwrap_or_default();
    match (order.order_type, order.side) {
        (OrderType::Limit, Side::Buy) => order.price.is_some_and(|p| ask <= p),
        (OrderType::Limit, Side::Sell) => order.price.is_some_and(|p| bid >= p),
        // A sell stop protects a long: it fires when the price falls to the trigger.
        (OrderType::StopMarket, Side::Sell) => mark <= stop,
        (OrderType::StopMarket, Side::Buy) => mark >= stop,
        // A sell take-profit closes a long when the price rises to the target.
        (OrderType::TakeProfitMarket, Side::Sell) => mark >= stop,
        (OrderType::TakeProfitMarket, Side::Buy) => mark <= stop,
        (OrderType::Market, _) => true,
    }
}
