//! The paper exchange: a simulated USDT-margined futures account, nofxi's default venue.
//!
//! It keeps a wallet, positions (one-way or hedge mode, cross or isolated margin, per-symbol
//! leverage), orders and fills, and fills against any [`MarketData`] source: market orders at
//! the far side of the spread plus configurable slippage (taker fee), resting limit orders at
//! their price once the market reaches it (maker fee), stop-loss and take-profit orders when
//! the mark crosses their trigger, and liquidation at the liquidation price ([`margin`] has the
//! formulas). Prices are read on every call (see [`PaperExchange::sync`]): a wick between two
//! calls is not seen, so a trader polls each cycle. A backtest instead feeds whole bars
//! ([`PaperExchange::process_bar`]) and sets [`Quotes::Bars`]: the bars are then the only
//! prices, and runs of bars that reach nothing are taken in one call ([`SimulatedVenue`],
//! checks in `quiet`).
//!
//! The state is saved through a [`PaperStateRepo`] after every change and loaded on
//! [`PaperExchange::open`], so a restart loses nothing. Limit orders do not reserve margin
//! while they rest; the margin check happens when they are placed.

mod api;
mod bar;
mod config;
mod exact;
pub mod funding;
pub mod margin;
mod matching;
mod quiet;
mod repo;
mod state;

use std::sync::Arc;

use nofxi_domain::market::{Candle, Symbol};
use nofxi_domain::trading::{
    OrderRequest, OrderStatus, OrderType, PositionMode, PositionSide, Side,
};
use rust_decimal::Decimal;
// Not tokio's: its unlock takes the waiter list's lock every time, and a backtest locks the
// account several times a bar. This one unlocks with one atomic when nobody waits.
use futures::lock::Mutex;

pub use config::{PaperConfig, Quotes, VENUE_FEES};
pub use repo::{EphemeralPaperRepo, MemoryPaperRepo, PaperStateRepo};
pub use state::{PaperPosition, PaperState};

use crate::{BarRun, Clock, MarketData, RejectKind, SimulatedVenue, VenueError};

const VENUE: &str = "paper";

pub struct PaperExchange {
    account_id: String,
    config: PaperConfig,
    market: Arc<dyn MarketData>,
    clock: Arc<dyn Clock>,
    repo: Arc<dyn PaperStateRepo>,
    state: Mutex<PaperState>,
}

impl std::fmt::Debug for PaperExchange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PaperExchange")
            .field("account_id", &self.account_id)
            .field("market", &self.market.source())
            .finish_non_exhaustive()
    }
}

impl PaperExchange {
    /// Load the account `account_id` from `repo`, or start it with `config.initial_balance`.
    pub async fn open(
        account_id: &str,
        config: PaperConfig,
        market: Arc<dyn MarketData>,
        clock: Arc<dyn Clock>,
        repo: Arc<dyn PaperStateRepo>,
    ) -> Result<PaperExchange, VenueError> {
        let state = match repo.load(account_id).await? {
            Some(json) => serde_json::from_value::<PaperState>(json).map_err(|e| {
                VenueError::Storage(format!(
                    "paper account {account_id} has unreadable state: {e}"
                ))
            })?,
            None => {
                let fresh = PaperState::new(&config);
                save(repo.as_ref(), account_id, &fresh).await?;
                fresh
            }
        };
        Ok(PaperExchange {
            account_id: account_id.to_string(),
            config,
            market,
            clock,
            repo,
            state: Mutex::new(state),
        })
    }

    pub fn config(&self) -> &PaperConfig {
        &self.config
    }

    /// A copy of the whole state, for inspection and tests.
    pub async fn state(&self) -> PaperState {
        self.state.lock().await.clone()
    }

    /// The state, the exchange done with: a backtest's fills without copying them.
    pub fn into_state(self) -> PaperState {
        self.state.into_inner()
    }

    /// Read the market for every symbol with a position or an open order, then fill limit
    /// orders the market reached, fire stops and take-profits, and liquidate positions whose
    /// mark crossed the liquidation price. Every other call does this first.
    pub async fn sync(&self) -> Result<(), VenueError> {
        let mut st = self.state.lock().await;
        self.sync_locked(&mut st).await
    }

    async fn sync_locked(&self, st: &mut PaperState) -> Result<(), VenueError> {
        // Quoting from bars, the marks are the quotes: when nothing triggers at them there
        // is nothing to read or work.
        if self.config.quotes == Quotes::Bars
            && quiet::settled_at_marks(st, self.config.maintenance_margin_rate)
        {
            return Ok(());
        }
        let from = st.open_from();
        if st.positions.is_empty() && from == st.orders.len() {
            return Ok(());
        }
        // Sorted and deduplicated, as a set would be: the order symbols are worked in is part
        // of the result when one liquidation changes another symbol's backing margin.
        let mut symbols: Vec<Symbol> = Vec::with_capacity(st.positions.len() + 1);
        let open = st.orders[from..].iter().filter(|o| o.status.is_open());
        for symbol in st
            .positions
            .iter()
            .map(|p| &p.symbol)
            .chain(open.map(|o| &o.symbol))
        {
            if let Err(at) = symbols.binary_search(symbol) {
                symbols.insert(at, symbol.clone());
            }
        }
        let now = self.clock.now_ms();
        let before = quiet::Fingerprint::of(st);
        let settles = self.config.settles_funding && self.config.quotes == Quotes::Market;
        for symbol in symbols {
            let (bid, ask, mark) = self.quote(st, &symbol).await?;
            set_mark(st, &symbol, mark);
            // Funding is owed by the positions held at its time: before orders move them.
            if settles {
                funding::settle_due(st, &symbol, mark, now);
            }
            self.work_orders(st, &symbol, bid, ask, mark, now);
            self.liquidate(st, &symbol, mark, now);
        }
        let announced = settles && funding::refresh(st, self.market.as_ref(), now).await;
        // A new mark alone is not saved: the next sync reads it again. Saving only when an
        // order filled, expired or a position changed keeps a long-running account from
        // rewriting its whole history every cycle.
        if announced || quiet::Fingerprint::of(st) != before {
            save(self.repo.as_ref(), &self.account_id, st).await?;
        }
        Ok(())
    }

    /// Bid, ask and mark of `symbol`, from where [`PaperConfig::quotes`] says.
    async fn quote(
        &self,
        st: &PaperState,
        symbol: &Symbol,
    ) -> Result<(Decimal, Decimal, Decimal), VenueError> {
        if self.config.quotes == Quotes::Bars
            && let Some(&mark) = st.marks.get(symbol)
        {
            return Ok((mark, mark, mark));
        }
        let t = self.market.ticker(symbol).await?;
        Ok((t.bid, t.ask, t.mark))
    }

    fn work_orders(
        &self,
        st: &mut PaperState,
        symbol: &Symbol,
        bid: Decimal,
        ask: Decimal,
        mark: Decimal,
        now: i64,
    ) {
        for i in st.open_from()..st.orders.len() {
            let order = &st.orders[i];
            if &order.symbol != symbol
                || !order.status.is_open()
                || !matching::triggered(order, bid, ask, mark)
            {
                continue;
            }
            let mut order = order.clone();
            let (price, maker) = match order.order_type {
                OrderType::Limit => (order.price.unwrap_or(mark), true),
                _ => (
                    matching::taker_price(order.side, bid, ask, &self.config),
                    false,
                ),
            };
            if matching::execute(st, &mut order, price, maker, &self.config, now).is_err() {
                // The position a reduce-only order protected is gone: nothing left to do.
                order.status = OrderStatus::Expired;
                order.updated_ms = now;
            }
            st.orders[i] = order;
        }
    }

    /// Backtests: work resting orders and liquidation against a whole bar of `symbol` (its
    /// high and low, see [`bar`] for the assumptions), then mark the position at its close.
    /// Call it once per bar, after moving the clock to the bar's close.
    pub async fn process_bar(&self, symbol: &Symbol, candle: &Candle) -> Result<(), VenueError> {
        if self.mark_quiet_bar(symbol, candle) {
            return Ok(());
        }
        let mut st = self.state.lock().await;
        self.work_bar(&mut st, symbol, candle);
        save(self.repo.as_ref(), &self.account_id, &st).await
    }

    /// The whole of [`PaperExchange::process_bar`]: resting orders by priority against the
    /// bar, liquidation at its low and high, the mark at its close.
    fn work_bar(&self, st: &mut PaperState, symbol: &Symbol, candle: &Candle) {
        let now = self.clock.now_ms();
        let from = st.open_from();
        // Open orders are few; picking them in priority order by rescanning beats sorting a
        // freshly allocated list of indices on every bar.
        for rank in 0..=2 {
            for i in from..st.orders.len() {
                let o = &st.orders[i];
                if &o.symbol != symbol || !o.status.is_open() || bar::priority(o.order_type) != rank
                {
                    continue;
                }
                self.fill_in_bar(st, i, symbol, candle, now);
            }
        }
        self.liquidate(st, symbol, candle.low, now);
        self.liquidate(st, symbol, candle.high, now);
        set_mark(st, symbol, candle.close);
    }

    /// [`PaperExchange::process_bar`] for the bar that fills nothing and liquidates nothing,
    /// which is most bars: it only marks the close, without an await. Returns false, having
    /// done nothing, when the bar would do more (or the account is busy).
    fn mark_quiet_bar(&self, symbol: &Symbol, candle: &Candle) -> bool {
        let Some(mut st) = self.state.try_lock() else {
            return false;
        };
        let mmr = self.config.maintenance_margin_rate;
        if !quiet::bar_is_quiet(&mut st, symbol, candle, mmr) {
            return false;
        }
        // A new mark alone is not saved, as in `sync`.
        set_mark(&mut st, symbol, candle.close);
        true
    }

    fn fill_in_bar(
        &self,
        st: &mut PaperState,
        i: usize,
        symbol: &Symbol,
        candle: &Candle,
        now: i64,
    ) {
        let Some((price, maker)) = bar::fill_in_bar(&st.orders[i], candle) else {
            return;
        };
        if st.orders[i].order_type == OrderType::StopMarket {
            // On the way to the stop the price passed any liquidation price beyond it.
            let level = st.orders[i].stop_price.unwrap_or(price);
            self.liquidate(st, symbol, level, now);
        }
        let mut order = st.orders[i].clone();
        let price = if maker {
            price
        } else {
            matching::taker_price(order.side, price, price, &self.config)
        };
        if matching::execute(st, &mut order, price, maker, &self.config, now).is_err() {
            // The position a reduce-only order was for is already gone.
            order.status = OrderStatus::Expired;
            order.updated_ms = now;
        }
        st.orders[i] = order;
    }

    fn liquidate(&self, st: &mut PaperState, symbol: &Symbol, mark: Decimal, now: i64) {
        let mmr = self.config.maintenance_margin_rate;
        let doomed: Vec<(PositionSide, Decimal, Decimal)> = st
            .positions
            .iter()
            .filter(|p| &p.symbol == symbol)
            .filter_map(|p| {
                let liq = st.liquidation_price(p, mmr)?;
                quiet::liquidated_at(p.side, liq, mark).then_some((p.side, p.quantity, liq))
            })
            .collect();
        for (side, quantity, liq) in doomed {
            let id = st.next_id();
            let close_side = match side {
                PositionSide::Long => Side::Sell,
                PositionSide::Short => Side::Buy,
            };
            let mut req = OrderRequest::market(
                symbol.clone(),
                close_side,
                quantity,
                &format!("liquidation-{id}"),
            );
            req.reduce_only = true;
            if st.position_mode == PositionMode::Hedge {
                req.position_side = Some(side);
            }
            let mut order = matching::draft(&req, id, now);
            if matching::execute(st, &mut order, liq, false, &self.config, now).is_ok() {
                tracing::warn!(account = %self.account_id, %symbol, %liq, "paper position liquidated");
                st.push_order(order);
            }
        }
    }

    async fn mutate<R>(
        &self,
        f: impl FnOnce(&mut PaperState) -> Result<R, VenueError>,
    ) -> Result<R, VenueError> {
        let mut st = self.state.lock().await;
        self.sync_locked(&mut st).await?;
        let r = f(&mut st)?;
        save(self.repo.as_ref(), &self.account_id, &st).await?;
        Ok(r)
    }
}

impl SimulatedVenue for PaperExchange {
    fn held_symbols(&self) -> Option<Vec<Symbol>> {
        let st = self.state.try_lock()?;
        Some(st.positions.iter().map(|p| p.symbol.clone()).collect())
    }

    fn take_quiet_steps(&self, run: &BarRun<'_>, max: usize, equity: &mut Vec<Decimal>) -> usize {
        if self.config.quotes != Quotes::Bars {
            return 0;
        }
        let Some(mut st) = self.state.try_lock() else {
            return 0;
        };
        quiet::take_quiet_steps(
            &mut st,
            run,
            max,
            self.config.maintenance_margin_rate,
            equity,
        )
    }
}

/// Record the mark without allocating a key for a symbol already marked.
fn set_mark(st: &mut PaperState, symbol: &Symbol, mark: Decimal) {
    match st.marks.get_mut(symbol) {
        Some(m) => *m = mark,
        None => {
            st.marks.insert(symbol.clone(), mark);
        }
    }
}

async fn save(repo: &dyn PaperStateRepo, account: &str, st: &PaperState) -> Result<(), VenueError> {
    if !repo.keeps_state() {
        return Ok(());
    }
    let json = serde_json::to_value(st).map_err(|e| VenueError::Storage(e.to_string()))?;
    repo.save(account, &json).await
}

fn no_position_change(kind_code: i64, message: &str) -> VenueError {
    VenueError::Rejected {
        venue: VENUE.into(),
        kind: RejectKind::Other,
        code: kind_code,
        message: message.into(),
        http_status: 400,
        retry_after: None,
    }
}

#[cfg(test)]
mod funding_tests;
#[cfg(test)]
mod tests;
