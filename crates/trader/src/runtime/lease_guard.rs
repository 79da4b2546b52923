//! What a running trader holds its lease by, and the gate its orders pass.
//!
//! The store refuses a stale engine's writes (see `nofxi_store::Fence`), but an order sent to
//! a live exchange cannot be taken back by a database. So before anything leaves for a venue
//! the engine also checks, on this process's own monotonic clock, that its lease stays valid
//! for longer than the request may take plus a margin: an engine frozen past its lease wakes
//! up to find its lease gone by its own clock, whatever the wall clock or the database say,
//! and stops the cycle instead of sending. The lease's validity is counted from when the
//! renewal was *asked*, not answered, so a slow database errs towards stopping.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use nofxi_domain::market::Symbol;
use nofxi_domain::trading::{
    AccountSnapshot, Fill, FundingPayment, MarginMode, Order, OrderRequest, Position, PositionMode,
    SymbolRules,
};
use nofxi_store::{Fence, StoreError};
use nofxi_venues::{Exchange, SimulatedVenue, VenueError};

/// Time beyond a request's own timeout that a lease must still have before it is sent.
pub const SEND_MARGIN: Duration = Duration::from_secs(1);

/// A clock that only moves forward and keeps moving while the process is stopped: what a
/// lease's remaining time is judged by. Injected so tests can freeze an engine past its lease.
pub trait Monotonic: Send + Sync + std::fmt::Debug {
    /// Milliseconds since a fixed origin of this clock.
    fn elapsed_ms(&self) -> i64;
}

/// `std::time::Instant`: CLOCK_MONOTONIC on Linux, which runs on through SIGSTOP.
#[derive(Debug, Clone, Copy)]
pub struct ProcessClock {
    origin: Instant,
}

impl Default for ProcessClock {
    fn default() -> Self {
        ProcessClock {
            origin: Instant::now(),
        }
    }
}

impl Monotonic for ProcessClock {
    fn elapsed_ms(&self) -> i64 {
        i64::try_from(self.origin.elapsed().as_millis()).unwrap_or(i64::MAX)
    }
}

/// One holding of one trader's lease by this engine.
#[derive(Debug)]
pub struct LeaseGuard {
    fence: Fence,
    monotonic: Arc<dyn Monotonic>,
    /// On `monotonic`: until when the lease is known to be valid.
    valid_until_ms: AtomicI64,
    lost: AtomicBool,
}

impl LeaseGuard {
    /// A holding that is valid `ttl_ms` from `asked_at_ms`, the monotonic time its lease was
    /// asked for.
    pub fn new(
        fence: Fence,
        monotonic: Arc<dyn Monotonic>,
        asked_at_ms: i64,
        ttl_ms: i64,
    ) -> LeaseGuard {
        LeaseGuard {
            fence,
            monotonic,
            valid_until_ms: AtomicI64::new(asked_at_ms.saturating_add(ttl_ms)),
            lost: AtomicBool::new(false),
        }
    }

    pub fn fence(&self) -> &Fence {
        &self.fence
    }

    /// The lease was renewed by a request asked at `asked_at_ms` (monotonic).
    pub fn renewed(&self, asked_at_ms: i64, ttl_ms: i64) {
        self.valid_until_ms
            .fetch_max(asked_at_ms.saturating_add(ttl_ms), Ordering::AcqRel);
    }

    /// This holding is over: another engine has the trader, or a write was fenced.
    pub fn lose(&self) {
        self.lost.store(true, Ordering::Release);
    }

    pub fn is_lost(&self) -> bool {
        self.lost.load(Ordering::Acquire)
    }

    /// Whether the lease is still valid now, by this process's clock.
    pub fn valid_now(&self) -> bool {
        self.remaining_ms() > 0 && !self.is_lost()
    }

    fn remaining_ms(&self) -> i64 {
        self.valid_until_ms.load(Ordering::Acquire) - self.monotonic.elapsed_ms()
    }

    /// Before a request with effects leaves for a venue: the lease must outlast the request
    /// (`timeout`) and [`SEND_MARGIN`]. Otherwise the holding is over and nothing is sent.
    pub fn check_send(&self, timeout: Duration) -> Result<(), VenueError> {
        let need = i64::try_from((timeout + SEND_MARGIN).as_millis()).unwrap_or(i64::MAX);
        let remaining = self.remaining_ms();
        if !self.is_lost() && remaining > need {
            return Ok(());
        }
        self.lose();
        Err(VenueError::Fenced(format!(
            "this engine's lease on the trader has {} ms left, less than the {need} ms a request \
             may take: nothing was sent, and the trader stops here until its lease is renewed or \
             another engine takes it over",
            remaining.max(0)
        )))
    }

    /// A store error, with the holding marked lost when the store fenced the write.
    pub fn seen(&self, error: StoreError) -> StoreError {
        if matches!(error, StoreError::Fenced { .. }) {
            self.lose();
        }
        error
    }
}

/// An exchange whose requests with effects (orders, cancels, settings) first pass the lease's
/// [`LeaseGuard::check_send`]; reads pass straight through.
pub struct FencedExchange {
    inner: Arc<dyn Exchange>,
    guard: Arc<LeaseGuard>,
}

impl FencedExchange {
    pub fn new(inner: Arc<dyn Exchange>, guard: Arc<LeaseGuard>) -> FencedExchange {
        FencedExchange { inner, guard }
    }

    fn gate(&self) -> Result<(), VenueError> {
        self.guard.check_send(self.inner.request_timeout())
    }
}

#[async_trait]
impl Exchange for FencedExchange {
    fn venue(&self) -> &str {
        self.inner.venue()
    }

    fn request_timeout(&self) -> Duration {
        self.inner.request_timeout()
    }

    fn simulated(&self) -> Option<&dyn SimulatedVenue> {
        // A simulated venue's quiet steps are a backtest's; a leased trader never takes them.
        None
    }

    async fn account(&self) -> Result<AccountSnapshot, VenueError> {
        self.inner.account().await
    }

    async fn symbol_rules(&self, symbol: &Symbol) -> Result<SymbolRules, VenueError> {
        self.inner.symbol_rules(symbol).await
    }

    async fn positions(&self) -> Result<Vec<Position>, VenueError> {
        self.inner.positions().await
    }

    async fn account_and_positions(&self) -> Result<(AccountSnapshot, Vec<Position>), VenueError> {
        self.inner.account_and_positions().await
    }

    async fn set_leverage(&self, symbol: &Symbol, leverage: u32) -> Result<(), VenueError> {
        self.gate()?;
        self.inner.set_leverage(symbol, leverage).await
    }

    async fn set_margin_mode(&self, symbol: &Symbol, mode: MarginMode) -> Result<(), VenueError> {
        self.gate()?;
        self.inner.set_margin_mode(symbol, mode).await
    }

    async fn position_mode(&self) -> Result<PositionMode, VenueError> {
        self.inner.position_mode().await
    }

    async fn set_position_mode(&self, mode: PositionMode) -> Result<(), VenueError> {
        self.gate()?;
        self.inner.set_position_mode(mode).await
    }

    async fn place_order(&self, request: &OrderRequest) -> Result<Order, VenueError> {
        self.gate()?;
        self.inner.place_order(request).await
    }

    async fn cancel_order(
        &self,
        symbol: &Symbol,
        client_order_id: &str,
    ) -> Result<Order, VenueError> {
        self.gate()?;
        self.inner.cancel_order(symbol, client_order_id).await
    }

    async fn order_status(
        &self,
        symbol: &Symbol,
        client_order_id: &str,
    ) -> Result<Option<Order>, VenueError> {
        self.inner.order_status(symbol, client_order_id).await
    }

    async fn open_orders(&self, symbol: Option<&Symbol>) -> Result<Vec<Order>, VenueError> {
        self.inner.open_orders(symbol).await
    }

    async fn fills(&self, symbol: &Symbol, since_ms: Option<i64>) -> Result<Vec<Fill>, VenueError> {
        self.inner.fills(symbol, since_ms).await
    }

    async fn funding_payments(
        &self,
        since_ms: Option<i64>,
    ) -> Result<Option<Vec<FundingPayment>>, VenueError> {
        self.inner.funding_payments(since_ms).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Default)]
    struct Frozen(AtomicI64);

    impl Monotonic for Frozen {
        fn elapsed_ms(&self) -> i64 {
            self.0.load(Ordering::Acquire)
        }
    }

    fn guard(clock: Arc<Frozen>) -> LeaseGuard {
        let fence = Fence {
            trader_id: "t".into(),
            owner: "e".into(),
            epoch: 1,
        };
        LeaseGuard::new(fence, clock, 0, 30_000)
    }

    #[test]
    fn a_request_is_sent_only_while_the_lease_outlasts_it_and_the_margin() {
        let clock = Arc::new(Frozen::default());
        let g = guard(clock.clone());
        assert!(g.check_send(Duration::from_secs(10)).is_ok());
        // 18.9 s in: 11.1 s left, more than 10 s + 1 s.
        clock.0.store(18_900, Ordering::Release);
        assert!(g.check_send(Duration::from_secs(10)).is_ok());
        // 19.5 s in: 10.5 s left, less: refused, and the holding is over for good.
        clock.0.store(19_500, Ordering::Release);
        assert!(matches!(
            g.check_send(Duration::from_secs(10)),
            Err(VenueError::Fenced(_))
        ));
        assert!(g.is_lost());
        g.renewed(18_500, 30_000);
        assert!(g.check_send(Duration::from_secs(1)).is_err());
    }

    #[test]
    fn a_renewal_counts_from_when_it_was_asked_and_never_shortens_the_lease() {
        let clock = Arc::new(Frozen::default());
        let g = guard(clock.clone());
        g.renewed(10_000, 30_000);
        clock.0.store(35_000, Ordering::Release);
        assert!(g.valid_now());
        // A late answer to an older renewal does not pull the deadline back.
        g.renewed(1_000, 30_000);
        assert!(g.valid_now());
        clock.0.store(40_000, Ordering::Release);
        assert!(!g.valid_now());
    }

    #[test]
    fn a_fenced_store_write_ends_the_holding() {
        let g = guard(Arc::new(Frozen::default()));
        let e = g.seen(StoreError::Fenced {
            trader_id: "t".into(),
            owner: "e".into(),
            epoch: 1,
        });
        assert!(matches!(e, StoreError::Fenced { .. }));
        assert!(g.is_lost() && !g.valid_now());
    }
}
