//! The paper account's persistent state and the bookkeeping of fills against it.
//!
//! Everything here is synchronous and free of IO: [`super::PaperExchange`] reads prices, then
//! calls these methods, then saves. Serialized as JSON with decimals as strings.

use std::collections::BTreeMap;

use nofxi_domain::market::Symbol;
use nofxi_domain::trading::{
    AccountSnapshot, Fill, MarginMode, Order, Position, PositionMode, PositionSide, Side,
};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::PaperConfig;
use super::margin::{fee, initial_margin, liquidation_price, unrealized_pnl};

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
        }
    }

    /// Record an order, keeping every open one and the newest [`KEPT_FINISHED_ORDERS`]
    /// finished ones. Finished orders only matter recently (a retry looks its order up by
    /// client id); keeping them all would make every sync scan the account's whole history.
    /// Fills are kept in full: they are the trade history statistics are computed from.
    pub fn push_order(&mut self, order: Order) {
        self.orders.push(order);
        let finished = self.orders.iter().filter(|o| !o.status.is_open()).count();
        if finished > KEPT_FINISHED_ORDERS + KEPT_FINISHED_ORDERS / 4 {
            let mut drop = finished - KEPT_FINISHED_ORDERS;
            self.orders.retain(|o| {
                let gone = drop > 0 && !o.status.is_open();
                drop -= usize::from(gone);
                !gone
            });
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

    pub fn account(&self) -> AccountSnapshot {
        let upnl: Decimal = self.positions.iter().map(|p| self.unrealized(p)).sum();
        let equity = self.wallet_balance + upnl;
        let used = self.margin_used();
        AccountSnapshot {
            asset: "USDT".into(),
            wallet_balance: self.wallet_balance,
            unrealized_pnl: upnl,
            equity,
            available: (equity - used).max(Decimal::ZERO),
            margin_used: used,
        }
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

    pub fn liquidation_price(&self, p: &PaperPosition, mmr: Decimal) -> Option<Decimal> {
        let m = self.backing_margin(p, mmr);
        liquidation_price(p.side, p.quantity, p.entry_price, m, mmr).map(|x| x.round_dp(8))
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
    /// side derived from the existing position. Returns the fill.
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
    ) -> Fill {
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
            }
        }
        self.wallet_balance += realized - paid;
        let fill = Fill {
            trade_id: self.next_id(),
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
        };
        self.fills.push(fill.clone());
        fill
    }
}

/// How an order maps onto positions in one-way mode: the part that closes the opposite
/// position, then the part that opens (or adds to) the order's own side.
pub fn one_way_split(
    state: &PaperState,
    symbol: &Symbol,
    side: Side,
    quantity: Decimal,
) -> Vec<(PositionSide, Decimal)> {
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
    let mut parts = Vec::new();
    if closing > Decimal::ZERO {
        parts.push((opposite, closing));
    }
    if quantity > closing {
        parts.push((own, quantity - closing));
    }
    parts
}
