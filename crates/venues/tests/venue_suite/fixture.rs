//! What a scenario needs from a venue beyond the `Exchange` trait: a way to move its market,
//! to make it refuse a request on purpose, to see what it holds, and to connect again as a
//! restarted process would.

use async_trait::async_trait;
use nofxi_domain::market::Symbol;
use nofxi_venues::Exchange;
use rust_decimal::Decimal;

/// Every fixture's account starts with this much USDT, one-way mode, cross margin.
pub const INITIAL_BALANCE: i64 = 10_000;

/// Every fixture's BTC starts here (mid; a mock's book spreads a tick around it).
pub const BTC_START: i64 = 60_000;

/// Where venues differ, what this one promises. The suite asserts the promise either way, so
/// a venue that starts (or stops) doing something is noticed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Guarantees {
    /// When a position is closed (by its stop, say), the venue itself cancels the position's
    /// other closing orders (its take-profit). Where it does not (Binance), the trading cycle
    /// cancels them (`nofxi_trader::cycle::orphans`).
    pub cancels_siblings: bool,
    /// The venue refuses requests over a rate limit, and the adapter retries them.
    pub rate_limited: bool,
}

#[async_trait]
pub trait VenueFixture: Send + Sync {
    /// A short name for assertion messages.
    fn name(&self) -> &'static str;

    fn guarantees(&self) -> Guarantees;

    /// The adapter under test.
    fn exchange(&self) -> &dyn Exchange;

    /// A new adapter on the same account, built as a restarted process builds it: nothing
    /// the first one held in memory carries over.
    async fn reconnect(&self) -> Box<dyn Exchange>;

    /// The market of `symbol` moves to `price`. `crossed` names the resting triggers the move
    /// crosses, for mocks that fire triggers only when told (Binance's); a venue that watches
    /// its own mark ignores it.
    async fn move_market(&self, symbol: &Symbol, price: Decimal, crossed: &[&str]);

    /// Make the venue refuse the next order placement as over its rate limit. False when the
    /// venue has no rate limit (and the scenario has nothing to check).
    fn rate_limit_next_order(&self) -> bool;

    /// How many placement requests reached the venue so far (refused ones included).
    fn placements_sent(&self) -> usize;

    /// How many orders the venue holds under this client order id.
    async fn orders_with_id(&self, client_order_id: &str) -> usize;

    /// A symbol and an order quantity that is a valid multiple of its step but below the
    /// venue's minimum order (value or size).
    fn below_minimum(&self) -> (Symbol, Decimal);
}
