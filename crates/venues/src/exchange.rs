//! The exchange trait: everything a trading cycle does to an account.

use async_trait::async_trait;
use nofxi_domain::market::Symbol;
use nofxi_domain::trading::{
    AccountSnapshot, Fill, FundingPayment, MarginMode, Order, OrderRequest, Position, PositionMode,
    SymbolRules,
};

use crate::{SimulatedVenue, VenueError};

/// A USDT-margined futures account. Implementations: [`crate::paper::PaperExchange`],
/// [`crate::binance::BinanceFutures`] and [`crate::okx::OkxSwap`]; each passes the
/// conformance suite (`tests/conformance.rs`).
///
/// Orders are keyed by the caller's `client_order_id`: placing an order whose id the venue
/// already has returns that order instead of opening a second one, so a caller may always retry
/// `place_order` with the same request after a timeout.
#[async_trait]
pub trait Exchange: Send + Sync {
    /// A short name for messages: `paper`, `binance`, `binance-testnet`.
    fn venue(&self) -> &str;

    /// The longest one request with effects (an order, a cancel, a setting) may take before
    /// it returns: a leased trader sends one only while its lease outlasts this.
    fn request_timeout(&self) -> std::time::Duration {
        std::time::Duration::from_secs(10)
    }

    async fn account(&self) -> Result<AccountSnapshot, VenueError>;

    /// The venue as a replay steps it through bars, if it is one (the paper exchange quoting
    /// from bars): the backtest's fast path for steps where nothing happens.
    fn simulated(&self) -> Option<&dyn SimulatedVenue> {
        None
    }

    /// Price and quantity increments and minimums, to round an order before sending it.
    /// A zero tick or step means the venue accepts any precision.
    async fn symbol_rules(&self, symbol: &Symbol) -> Result<SymbolRules, VenueError>;
    async fn positions(&self) -> Result<Vec<Position>, VenueError>;

    /// [`Exchange::account`] and [`Exchange::positions`], as a cycle reads them together.
    /// A venue that can answer both at once (the paper account, under one lock) overrides it.
    async fn account_and_positions(&self) -> Result<(AccountSnapshot, Vec<Position>), VenueError> {
        Ok((self.account().await?, self.positions().await?))
    }

    async fn set_leverage(&self, symbol: &Symbol, leverage: u32) -> Result<(), VenueError>;
    async fn set_margin_mode(&self, symbol: &Symbol, mode: MarginMode) -> Result<(), VenueError>;
    async fn position_mode(&self) -> Result<PositionMode, VenueError>;
    async fn set_position_mode(&self, mode: PositionMode) -> Result<(), VenueError>;

    async fn place_order(&self, request: &OrderRequest) -> Result<Order, VenueError>;
    async fn cancel_order(
        &self,
        symbol: &Symbol,
        client_order_id: &str,
    ) -> Result<Order, VenueError>;
    /// `Ok(None)` when the venue has no order with this id.
    async fn order_status(
        &self,
        symbol: &Symbol,
        client_order_id: &str,
    ) -> Result<Option<Order>, VenueError>;
    async fn open_orders(&self, symbol: Option<&Symbol>) -> Result<Vec<Order>, VenueError>;
    /// Fills of `symbol` at or after `since_ms`, oldest first.
    async fn fills(&self, symbol: &Symbol, since_ms: Option<i64>) -> Result<Vec<Fill>, VenueError>;

    /// Funding the account booked after `since_ms` (all of it with `None`), oldest first.
    /// `Ok(None)` where nofxi does not keep the account's funding: a live venue settles it in
    /// its own statement, a replay has none.
    async fn funding_payments(
        &self,
        _since_ms: Option<i64>,
    ) -> Result<Option<Vec<FundingPayment>>, VenueError> {
        Ok(None)
    }
}
