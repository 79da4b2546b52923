//! Protective orders left behind by their position, found and cancelled at each live cycle.
//!
//! A position's stop and take-profit are two reduce-only orders. When one fills, a live venue
//! (Binance) leaves the other open: it then closes the next position opened on the symbol, at
//! the old position's prices. The paper exchange cancels the sibling itself; on a live venue
//! the cycle reconciles: every open order that can only close a position (see
//! [`Order::closes_only`]) whose symbol and side hold no position is cancelled.
//!
//! The open orders are read before the positions: an entry fills before its stop is sent, so
//! a stop in the list has its position in the later read unless that position is truly gone.
//! Read the other way round, a stop sent in between (by another trader on the account) would
//! look orphaned.

use nofxi_domain::trading::{Order, Position};
use nofxi_venues::{Exchange, VenueError};

use super::record::Execution;

/// What the journal calls a cancellation of an orphaned order.
pub const CANCEL_ORPHANED: &str = "cancel_orphaned";

/// Open orders of the whole account, for [`cancel_orphans`]. Backtests skip this: their
/// paper account cancels a position's orders itself, and a bar is too short a cycle to pay
/// for the extra read.
pub(super) async fn read_open_orders(
    exchange: &dyn Exchange,
) -> Option<Result<Vec<Order>, VenueError>> {
    if exchange.simulated().is_some() {
        return None;
    }
    Some(exchange.open_orders(None).await)
}

/// The orders of `open` that can only close a position none of `positions` is.
pub fn orphaned<'a>(open: &'a [Order], positions: &[Position]) -> Vec<&'a Order> {
    open.iter()
        .filter(|o| o.status.is_open())
        .filter(|o| {
            o.closes_only().is_some_and(|side| {
                !positions
                    .iter()
                    .any(|p| p.symbol == o.symbol && p.side == side && !p.quantity.is_zero())
            })
        })
        .collect()
}

/// Cancel every orphaned order; each cancellation (or its failure) is one execution.
pub(super) async fn cancel_orphans(
    exchange: &dyn Exchange,
    open: &[Order],
    positions: &[Position],
) -> Vec<Execution> {
    let mut out = Vec::new();
    for order in orphaned(open, positions) {
        let sent = exchange
            .cancel_order(&order.symbol, &order.client_order_id)
            .await;
        tracing::info!(symbol = %order.symbol, client_order_id = %order.client_order_id,
            ok = sent.is_ok(), "cancelling an order whose position is gone");
        out.push(Execution {
            symbol: order.symbol.to_string(),
            what: CANCEL_ORPHANED.into(),
            client_order_id: order.client_order_id.clone(),
            order_id: Some(order.order_id.clone()),
            ok: sent.is_ok(),
            error: sent.as_ref().err().map(ToString::to_string),
            error_code: sent.as_ref().err().and_then(VenueError::code),
            recovered: false,
        });
    }
    out
}
