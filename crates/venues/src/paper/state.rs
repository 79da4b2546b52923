//! The paper account's persistent state and the bookkeeping of fills against it.
//!
//! Everything here is synchronous and free of IO: [`super::PaperExchange`] reads prices, then
//! calls these methods, then saves. Serialized as JSON with decimals as strings.

use std::collections::BTreeMap;

use nofxi_domain::market::Symbol;
use nofxi_domain::trading::{
    AccountSnapshot, Fill, FundingPayment, MarginMode, Order, OrderStatus, Position, PositionMode,
    PositionSide, Side,
};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::PaperConfig;
use super::funding::{FundingClock, FundingReads};
use super::margin::{fee, initial_margin, liquidation_price, unrealized_pnl};
use super::quiet::BandCache;

pub const STATE_VERSION: u32 = 1;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PaperPosition {
    pub symbol: Symbol,
    pub side: PositionSide,
    pub quantity: Decimal,
    pub entry_price: Decimal,
    pub leverage: u32,
    pub margin_mode: MarginMode,
    /// Initial margin at entry; for isolated positions this is the isolated wallet.
    pub margin: Decimal,
}

/// Finished (filled, cancelled, expired, rejected) orders a paper account remembers.
pub const KEPT_FINISHED_ORDERS: usize = 1000;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PaperState {
    pub version: u32,
    pub wallet_balance: Decimal,
    pub position_mode: PositionMode,
    pub leverage: BTreeMap<Symbol, u32>,
    pub margin_mode: BTreeMap<Symbol, MarginMode>,
    pub positions: Vec<PaperPosition>,
    pub orders: Vec<Order>,
    pub fills: Vec<Fill>,
    pub next_id: u64,
    /// Last mark price seen per symbol: what P&L and liquidation read between syncs.
    pub marks: BTreeMap<Symbol, Decimal>,
    /// Per symbol held, the venue's coming funding and the last funding time settled (see
    /// [`super::funding`]); empty unless the account settles funding.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub funding: BTreeMap<Symbol, FundingClock>,
    /// Funding booked, oldest first; kept in full, as fills are.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub funding_payments: Vec<FundingPayment>,
    #[serde(skip)]
    pub(super) funding_reads: FundingReads,
    /// Every order before this index is finished: the scans that look for open orders (each
    /// sync, each backtest bar) start here instead of walking the kept history.
    #[serde(skip)]
    open_from: OpenFrom,
    #[serde(skip)]
    liquidation_cache: LiquidationCache,
    #[serde(skip)]
    client_ids: ClientIds,
    /// The price levels each symbol's bars are checked against (see [`super::quiet`]).
    #[serde(skip)]
    pub(super) bands: BandCache,
}

/// The client order ids of `orders`, built on first use (see [`PaperState::knows_client_id`]).
/// A cache, not state: it never takes part in equality.
#[derive(Debug, Clone, Default)]
struct ClientIds(Option<rustc_hash::FxHashSet<String>>);

impl PartialEq for ClientIds {
    fn eq(&self, _: &ClientIds) -> bool {
        true
    }
}

/// Liquidation prices as last computed, each a division of 28-digit decimals that every sync
/// and every backtest bar would otherwise repeat. They stay valid while the number of fills
/// does (only `apply_fill` moves positions and the wallet, and it records a fill each time;
/// placing a stop or a target does not invalidate them) and while at most one position is
/// cross margined: only a cross position's price depends on the others' marks.
/// A cache, not state: it never takes part in equality.
#[derive(Debug, Default)]
struct LiquidationCache(std::sync::Mutex<LiquidationPrices>);

#[derive(Debug, Default, Clone)]
struct LiquidationPrices {
    fills: usize,
    mmr: Decimal,
    prices: Vec<(Symbol, PositionSide, Option<Decimal>)>,
}

impl Clone for LiquidationCache {
    fn clone(&self) -> LiquidationCache {
        LiquidationCache::default()
    }
}

impl PartialEq for LiquidationCache {
    fn eq(&self, _: &LiquidationCache) -> bool {
        true
    }
}

/// A cache, not state: two states with the same orders are equal whatever their hints.
#[derive(Debug, Clone, Copy, Default)]
struct OpenFrom(usize);

impl PartialEq for OpenFrom {
    fn eq(&self, _: &OpenFrom) -> bool {
        true
    }
}

impl PaperState {
    pub fn new(config: &PaperConfig) -> PaperState {
        PaperState {
            version: STATE_VERSION,
            wallet_balance: config.initial_balance,
            position_mode: PositionMode::OneWay,
            leverage: BTreeMap::new(),
            margin_mode: BTreeMap::new(),
            positions: Vec::new(),
            orders: Vec::new(),
            fills: Vec::new(),
            next_id: 1,
            marks: BTreeMap::new(),
            funding: BTreeMap::new(),
            funding_payments: Vec::new(),
            funding_reads: FundingReads::default(),
            open_from: OpenFrom(0),
            liquidation_cache: LiquidationCache::default(),
            client_ids: ClientIds::default(),
            bands: BandCache::default(),
        }
    }

    /// The index from which open orders may appear (all before it are finished). Finished
    /// orders never reopen, so the hint only moves forward until history is pruned.
    pub fn open_from(&mut self) -> usize {
        let mut i = self.open_from.0.min(self.orders.len());
        while i < self.orders.len() && !self.orders[i].status.is_open() {
            i += 1;
        }
        self.open_from.0 = i;
        i
    }

    /// Whether a kept order has this client id. Placing an order asks first, and most ids are
    /// new, which a set answers without walking the kept history.
    pub fn knows_client_id(&mut self, client_order_id: &str) -> bool {
        let orders = &self.orders;
        self.client_ids
            .0
            .get_or_insert_with(|| orders.iter().map(|o| o.client_order_id.clone()).collect())
            .contains(client_order_id)
    }

    /// Record an order, keeping every open one and the newest [`KEPT_FINISHED_ORDERS`]
    /// finished ones. Finished orders only matter recently (a retry looks its order up by
    /// client id); keeping them all would make every sync scan the account's whole history.
    /// Fills are kept in full: they are the trade history statistics are computed from.
    pub fn push_order(&mut self, order: Order) {
        if let Some(ids) = &mut self.client_ids.0 {
            ids.insert(order.client_order_id.clone());
        }
        self.orders.push(order);
        // Open orders are few, so the length bounds the finished count from above; counting
        // only once the length allows a prune keeps a push O(1) amortized.
        let limit = KEPT_FINISHED_ORDERS + KEPT_FINISHED_ORDERS / 4;
        if self.orders.len() <= limit {
            return;
        }
        let finished = self.orders.iter().filter(|o| !o.status.is_open()).count();
        if finished > limit {
            let mut drop = finished - KEPT_FINISHED_ORDERS;
            let ids = &mut self.client_ids.0;
            self.orders.retain(|o| {
                let gone = drop > 0 && !o.status.is_open();
                drop -= usize::from(gone);
                if gone && let Some(ids) = ids.as_mut() {
                    ids.remove(&o.client_order_id);
                }
                !gone
            });
            // Indices moved: the next scan finds the first open order again.
            self.open_from = OpenFrom(0);
        }
    }

    pub fn next_id(&mut self) -> String {
        let id = self.next_id;
        self.next_id += 1;
        id.to_string()
    }

    pub fn leverage_of(&self, symbol: &Symbol, config: &PaperConfig) -> u32 {
        self.leverage
            .get(symbol)
            .copied()
            .unwrap_or(config.default_leverage)
    }

    pub fn margin_mode_of(&self, symbol: &Symbol) -> MarginMode {
        self.margin_mode
            .get(symbol)
            .copied()
            .unwrap_or(MarginMode::Cross)
    }

    pub fn position(&self, symbol: &Symbol, side: PositionSide) -> Option<&PaperPosition> {
        self.positions
            .iter()
            .find(|p| &p.symbol == symbol && p.side == side)
    }

    fn mark(&self, p: &PaperPosition) -> Decimal {
        self.marks.get(&p.symbol).copied().unwrap_or(p.entry_price)
    }

    pub fn unrealized(&self, p: &PaperPosition) -> Decimal {
        unrealized_pnl(p.side, p.quantity, p.entry_price, self.mark(p))
    }

    pub fn margin_used(&self) -> Decimal {
        self.positions.iter().map(|p| p.margin).sum()
    }

    pub fn unrealized_total(&self) -> Decimal {
        self.unrealized_at(|_, p| self.mark(p))
    }

    /// Wallet balance plus unrealized P&L at the current marks.
    pub fn equity(&self) -> Decimal {
        self.equity_at(|_, p| self.mark(p))
    }

    /// Wallet balance plus unrealized P&L with the `i`th position marked at `price(i, it)`:
    /// a backtest's run of quiet bars takes the equity at each bar's closes this way, with the
    /// same sum `account()` makes at the marks.
    pub fn equity_at(&self, price: impl Fn(usize, &PaperPosition) -> Decimal) -> Decimal {
        self.wallet_balance + self.unrealized_at(price)
    }

    /// The one sum of unrealized P&L, in position order.
    fn unrealized_at(&self, price: impl Fn(usize, &PaperPosition) -> Decimal) -> Decimal {
        self.positions
            .iter()
            .enumerate()
            .map(|(i, p)| unrealized_pnl(p.side, p.quantity, p.entry_price, price(i, p)))
            .sum()
    }

    pub fn account(&self) -> AccountSnapshot {
        let (upnl, used) = (self.unrealized_total(), self.margin_used());
        AccountSnapshot {
            asset: "USDT".into(),
            wallet_balance: self.wallet_balance,
            unrealized_pnl: upnl,
            equity: self.wallet_balance + upnl,
            available: self.available_given(upnl, used),
            margin_used: used,
        }
    }

    /// [`PaperState::account`]'s `available` alone, for the margin check of every order.
    pub fn available(&self) -> Decimal {
        self.available_given(self.unrealized_total(), self.margin_used())
    }

    fn available_given(&self, upnl: Decimal, used: Decimal) -> Decimal {
        (self.wallet_balance + upnl - used).max(Decimal::ZERO)
    }

    /// The margin that backs `p` against liquidation: its isolated wallet, or for cross the
    /// wallet less isolated wallets, plus other cross positions' P&L less their maintenance.
    fn backing_margin(&self, p: &PaperPosition, mmr: Decimal) -> Decimal {
        if p.margin_mode == MarginMode::Isolated {
            return p.margin;
        }
        let mut m = self.wallet_balance;
        for other in &self.positions {
            if other.symbol == p.symbol && other.side == p.side {
                continue;
            }
            match other.margin_mode {
                MarginMode::Isolated => m -= other.margin,
                MarginMode::Cross => {
                    m += self.unrealized(other) - other.quantity * self.mark(other) * mmr;
                }
            }
        }
        m
    }

    /// Funding moved the wallet or an isolated margin without a fill: the liquidation prices
    /// kept since the last fill no longer hold.
    pub(super) fn forget_liquidation_prices(&mut self) {
        self.liquidation_cache = LiquidationCache::default();
    }

    pub fn liquidation_price(&self, p: &PaperPosition, mmr: Decimal) -> Option<Decimal> {
        let compute = || {
            let m = self.backing_margin(p, mmr);
            liquidation_price(p.side, p.quantity, p.entry_price, m, mmr).map(|x| x.round_dp(8))
        };
        let cross = self
            .positions
            .iter()
            .filter(|q| q.margin_mode == MarginMode::Cross)
            .count();
        let Ok(mut cache) = self.liquidation_cache.0.lock() else {
            return compute();
        };
        if cross > 1 {
            return compute();
        }
        if cache.fills != self.fills.len() || cache.mmr != mmr {
            cache.fills = self.fills.len();
            cache.mmr = mmr;
            cache.prices.clear();
        }
        if let Some((_, _, price)) = cache
            .prices
            .iter()
            .find(|(symbol, side, _)| *side == p.side && *symbol == p.symbol)
        {
            return *price;
        }
        let price = compute();
        cache.prices.push((p.symbol.clone(), p.side, price));
        price
    }

    pub fn positions_view(&self, mmr: Decimal) -> Vec<Position> {
        self.positions
            .iter()
            .map(|p| Position {
                symbol: p.symbol.clone(),
                side: p.side,
                quantity: p.quantity,
                entry_price: p.entry_price,
                mark_price: self.mark(p),
                leverage: p.leverage,
                margin_mode: p.margin_mode,
                margin: p.margin,
                unrealized_pnl: self.unrealized(p),
                liquidation_price: self.liquidation_price(p, mmr),
            })
            .collect()
    }

    /// Book one execution against the position it belongs to and record the fill.
    /// `position_side` is where it lands: opening side in hedge mode, or for one-way mode the
    /// side derived from the existing position.
    #[allow(clippy::too_many_arguments)]
    pub fn apply_fill(
        &mut self,
        order: &Order,
        position_side: PositionSide,
        price: Decimal,
        quantity: Decimal,
        is_maker: bool,
        config: &PaperConfig,
        now_ms: i64,
    ) {
        let rate = if is_maker {
            config.maker_fee_rate
        } else {
            config.taker_fee_rate
        };
        let paid = fee(price, quantity, rate);
        let opening = order.side == position_side.opening_side();
        let mut realized = Decimal::ZERO;
        if opening {
            let leverage = self.leverage_of(&order.symbol, config);
            let mode = self.margin_mode_of(&order.symbol);
            let added_margin = initial_margin(price, quantity, leverage);
            match self
                .positions
                .iter_mut()
                .find(|p| p.symbol == order.symbol && p.side == position_side)
            {
                Some(p) => {
                    let total = p.quantity + quantity;
                    p.entry_price = (p.entry_price * p.quantity + price * quantity) / total;
                    p.quantity = total;
                    p.margin += added_margin;
                    p.leverage = leverage;
                }
                None => self.positions.push(PaperPosition {
                    symbol: order.symbol.clone(),
                    side: position_side,
                    quantity,
                    entry_price: price,
                    leverage,
                    margin_mode: mode,
                    margin: added_margin,
                }),
            }
        } else if let Some(i) = self
            .positions
            .iter()
            .position(|p| p.symbol == order.symbol && p.side == position_side)
        {
            let p = &mut self.positions[i];
            let closing = quantity.min(p.quantity);
            realized = unrealized_pnl(p.side, closing, p.entry_price, price);
            // Release margin in proportion to the part closed.
            p.margin -= p.margin * closing / p.quantity;
            p.quantity -= closing;
            if p.quantity.is_zero() {
                self.positions.remove(i);
                self.cancel_closing_orders(&order.symbol, position_side, now_ms);
                if !self.positions.iter().any(|p| p.symbol == order.symbol) {
                    // A later position on the symbol owes no funding of this one's times.
                    self.funding.remove(&order.symbol);
                    self.funding_reads.forget(&order.symbol);
                }
            }
        }
        self.wallet_balance += realized - paid;
        let trade_id = self.next_id();
        self.fills.push(Fill {
            trade_id,
            order_id: order.order_id.clone(),
            client_order_id: order.client_order_id.clone(),
            symbol: order.symbol.clone(),
            side: order.side,
            price,
            quantity,
            fee: paid,
            fee_asset: "USDT".into(),
            realized_pnl: realized,
            is_maker,
            time_ms: now_ms,
        });
    }
}

impl PaperState {
    /// One cancels the other: when a position is closed (by its stop, its take-profit, a
    /// market close or a liquidation), every open order that could only close it is
    /// cancelled, as Binance does for a position's stop and target. Left open, such an order
    /// would close a later position on the same symbol at the old position's prices.
    fn cancel_closing_orders(&mut self, symbol: &Symbol, side: PositionSide, now_ms: i64) {
        let from = self.open_from();
        for o in &mut self.orders[from..] {
            if o.status.is_open() && &o.symbol == symbol && o.closes_only() == Some(side) {
                o.status = OrderStatus::Canceled;
                o.updated_ms = now_ms;
            }
        }
    }
}

/// How an order maps onto positions in one-way mode: the part that closes the opposite
/// position, then the part that opens (or adds to) the order's own side.
pub fn one_way_split(state: &PaperState, symbol: &Symbol, side: Side, quantity: Decimal) -> Parts {
    let opposite = match side {
        Side::Buy => PositionSide::Short,
        Side::Sell => PositionSide::Long,
    };
    let own = match side {
        Side::Buy => PositionSide::Long,
        Side::Sell => PositionSide::Short,
    };
    let held = state
        .position(symbol, opposite)
        .map(|p| p.quantity)
        .unwrap_or_default();
    let closing = held.min(quantity);
    [
        (closing > Decimal::ZERO).then_some((opposite, closing)),
        (quantity > closing).then(|| (own, quantity - closing)),
    ]
}

/// The positions one execution touches, closing part first: at most the close of one side
/// and the open of the other (a one-way reversal). A pair, not a list: every order is
/// planned twice (validated, then executed), and allocating a list each time cost more than
/// the planning.
pub type Parts = [Option<(PositionSide, Decimal)>; 2];
