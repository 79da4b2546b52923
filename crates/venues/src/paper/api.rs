//! The [`Exchange`] trait on the paper account: each call first syncs with the market (see
//! [`PaperExchange::sync`]), then reads or changes the state and saves it.

use async_trait::async_trait;
use nofxi_domain::market::Symbol;
use nofxi_domain::trading::{
    AccountSnapshot, Fill, FundingPayment, MarginMode, Order, OrderRequest, OrderStatus, OrderType,
    Position, PositionMode, Side, SymbolRules,
};
use rust_decimal::Decimal;

use super::{PaperExchange, Quotes, VENUE, matching, no_position_change, save, set_mark};
use crate::{Exchange, RejectKind, SimulatedVenue, VenueError};

#[async_trait]
impl Exchange for PaperExchange {
    fn venue(&self) -> &str {
        VENUE
    }

    /// An order here is one write of the account to the store.
    fn request_timeout(&self) -> std::time::Duration {
        std::time::Duration::from_millis(500)
    }

    async fn account(&self) -> Result<AccountSnapshot, VenueError> {
        let mut st = self.state.lock().await;
        self.sync_locked(&mut st).await?;
        Ok(st.account())
    }

    fn simulated(&self) -> Option<&dyn SimulatedVenue> {
        (self.config.quotes == Quotes::Bars).then_some(self as &dyn SimulatedVenue)
    }

    async fn symbol_rules(&self, symbol: &Symbol) -> Result<SymbolRules, VenueError> {
        // The paper account takes any precision; only the minimum order value applies.
        Ok(SymbolRules {
            symbol: symbol.clone(),
            tick_size: Decimal::ZERO,
            step_size: Decimal::ZERO,
            min_quantity: Decimal::ZERO,
            min_notional: self.config.min_notional,
        })
    }

    async fn positions(&self) -> Result<Vec<Position>, VenueError> {
        let mut st = self.state.lock().await;
        self.sync_locked(&mut st).await?;
        Ok(st.positions_view(self.config.maintenance_margin_rate))
    }

    async fn account_and_positions(&self) -> Result<(AccountSnapshot, Vec<Position>), VenueError> {
        let mut st = self.state.lock().await;
        self.sync_locked(&mut st).await?;
        let positions = st.positions_view(self.config.maintenance_margin_rate);
        Ok((st.account(), positions))
    }

    async fn set_leverage(&self, symbol: &Symbol, leverage: u32) -> Result<(), VenueError> {
        if leverage == 0 || leverage > self.config.max_leverage {
            return Err(VenueError::InvalidRequest(format!(
                "leverage {leverage} is out of range: use 1 to {}",
                self.config.max_leverage
            )));
        }
        self.mutate(|st| {
            st.leverage.insert(symbol.clone(), leverage);
            Ok(())
        })
        .await
    }

    async fn set_margin_mode(&self, symbol: &Symbol, mode: MarginMode) -> Result<(), VenueError> {
        self.mutate(|st| {
            if st.positions.iter().any(|p| &p.symbol == symbol) {
                return Err(no_position_change(
                    -4048,
                    "margin type cannot be changed while a position is open",
                ));
            }
            st.margin_mode.insert(symbol.clone(), mode);
            Ok(())
        })
        .await
    }

    async fn position_mode(&self) -> Result<PositionMode, VenueError> {
        Ok(self.state.lock().await.position_mode)
    }

    async fn set_position_mode(&self, mode: PositionMode) -> Result<(), VenueError> {
        self.mutate(|st| {
            if !st.positions.is_empty() || st.orders.iter().any(|o| o.status.is_open()) {
                return Err(no_position_change(
                    -4068,
                    "position mode cannot be changed while positions or orders are open",
                ));
            }
            st.position_mode = mode;
            Ok(())
        })
        .await
    }

    async fn place_order(&self, request: &OrderRequest) -> Result<Order, VenueError> {
        let mut st = self.state.lock().await;
        self.sync_locked(&mut st).await?;
        if st.knows_client_id(&request.client_order_id)
            && let Some(existing) = st
                .orders
                .iter()
                .find(|o| o.client_order_id == request.client_order_id)
        {
            return Ok(existing.clone());
        }
        let (bid, ask, mark) = self.quote(&st, &request.symbol).await?;
        set_mark(&mut st, &request.symbol, mark);
        let taker = matching::taker_price(request.side, bid, ask, &self.config);
        matching::validate(&st, request, taker, &self.config)?;
        let now = self.clock.now_ms();
        let id = st.next_id();
        let mut order = matching::draft(request, id, now);
        let fill_now = match request.order_type {
            OrderType::Market => Some(taker),
            // A limit that crosses the spread takes liquidity at the quote, never worse than its price.
            OrderType::Limit if matching::triggered(&order, bid, ask, mark) => {
                let limit = request.price.unwrap_or(taker);
                Some(match request.side {
                    Side::Buy => taker.min(limit),
                    Side::Sell => taker.max(limit),
                })
            }
            _ => None,
        };
        if let Some(price) = fill_now {
            matching::execute(&mut st, &mut order, price, false, &self.config, now)?;
        }
        st.push_order(order.clone());
        save(self.repo.as_ref(), &self.account_id, &st).await?;
        Ok(order)
    }

    async fn cancel_order(
        &self,
        symbol: &Symbol,
        client_order_id: &str,
    ) -> Result<Order, VenueError> {
        let now = self.clock.now_ms();
        self.mutate(|st| {
            // Client ids are unique and the order asked for is usually recent: search from
            // the newest.
            let order = st
                .orders
                .iter_mut()
                .rev()
                .find(|o| &o.symbol == symbol && o.client_order_id == client_order_id)
                .ok_or_else(|| {
                    VenueError::rejected(VENUE, RejectKind::OrderNotFound, "order does not exist")
                })?;
            if !order.status.is_open() {
                return Err(no_position_change(-2011, "order is no longer open"));
            }
            order.status = OrderStatus::Canceled;
            order.updated_ms = now;
            Ok(order.clone())
        })
        .await
    }

    async fn order_status(
        &self,
        symbol: &Symbol,
        client_order_id: &str,
    ) -> Result<Option<Order>, VenueError> {
        let mut st = self.state.lock().await;
        self.sync_locked(&mut st).await?;
        Ok(st
            .orders
            .iter()
            .rev()
            .find(|o| &o.symbol == symbol && o.client_order_id == client_order_id)
            .cloned())
    }

    async fn open_orders(&self, symbol: Option<&Symbol>) -> Result<Vec<Order>, VenueError> {
        let mut st = self.state.lock().await;
        self.sync_locked(&mut st).await?;
        let from = st.open_from();
        Ok(st.orders[from..]
            .iter()
            .filter(|o| o.status.is_open() && symbol.is_none_or(|s| s == &o.symbol))
            .cloned()
            .collect())
    }

    async fn fills(&self, symbol: &Symbol, since_ms: Option<i64>) -> Result<Vec<Fill>, VenueError> {
        let mut st = self.state.lock().await;
        self.sync_locked(&mut st).await?;
        Ok(st
            .fills
            .iter()
            .filter(|f| &f.symbol == symbol && since_ms.is_none_or(|t| f.time_ms >= t))
            .cloned()
            .collect())
    }

    /// What [`super::funding`] booked: `None` for an account that settles no funding (the
    /// simulated market, a replay). Read without a sync: a cycle reads it right after the
    /// account, which synced.
    async fn funding_payments(
        &self,
        since_ms: Option<i64>,
    ) -> Result<Option<Vec<FundingPayment>>, VenueError> {
        if !self.config.settles_funding {
            return Ok(None);
        }
        let st = self.state.lock().await;
        Ok(Some(
            st.funding_payments
                .iter()
                .filter(|f| since_ms.is_none_or(|t| f.booked_ms > t))
                .cloned()
                .collect(),
        ))
    }
}
