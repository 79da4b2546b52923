//! Closed trades from an account's fills: what a trade list shows (entry and exit, size, fees,
//! funding, how long it was held, why it ended, its P&L) and what the stats count.
//!
//! A closed trade is one exit: the fills of one closing order, against the position they
//! closed. A position closed in two orders is two trades, each with the position's entry (its
//! first fill and its average price) and its own share of the entry fees and of the funding
//! the position paid or received while open; `remaining` says what each left open. That is
//! the stats' trade (see [`crate::stats`]), so a list and its stats never count differently,
//! and the same function serves a paper or live trader's fills and a backtest's.
//!
//! Fills carry no position side, so a symbol holds one net position (one-way mode, the mode
//! nofxi trades in): a fill against it closes, any other fill opens or adds, and a fill larger
//! than the position closes it and opens the rest the other way (a reversal), its fee split
//! between the two by quantity.

use std::collections::HashMap;

use nofxi_domain::market::Symbol;
use nofxi_domain::trading::{Fill, FundingPayment, PositionSide, Side};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// Places money figures are kept to where a division makes them (an average, a share).
const PLACES: u32 = 8;

/// Why a position was closed, when its exit order says (nofxi's client order ids name the leg
/// that sent it); `None` for an exit nofxi did not send or a venue that does not report it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ExitReason {
    /// The trader's own decision (a close in a cycle's plan).
    Signal,
    StopLoss,
    TakeProfit,
    /// The venue closed it for want of margin.
    Liquidation,
    /// A person closed it (the web app's or the API's close).
    Manual,
}

impl ExitReason {
    /// The reason an exit order's client id says: the last character of a nofxi id
    /// (`nx<tag>[e<epoch>]c<cycle>i<item><leg>`) names its leg.
    pub fn of_client_id(client_order_id: &str) -> Option<ExitReason> {
        if client_order_id.starts_with("liquidation-") {
            return Some(ExitReason::Liquidation);
        }
        if !client_order_id.starts_with("nx") {
            return None;
        }
        match client_order_id.chars().last()? {
            'c' => Some(ExitReason::Signal),
            's' => Some(ExitReason::StopLoss),
            't' => Some(ExitReason::TakeProfit),
            'u' => Some(ExitReason::Manual),
            _ => None,
        }
    }
}

/// One exit of a position.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ClosedTrade {
    pub symbol: String,
    /// The position's side: `LONG` or `SHORT`.
    pub side: String,
    /// The quantity this exit closed.
    pub quantity: Decimal,
    /// The position's first fill (epoch ms; a simulated timeline's for a sped-up paper trader).
    pub entry_time_ms: i64,
    /// The position's average entry price, over every fill that opened or added to it.
    pub entry_price: Decimal,
    /// The exit's last fill.
    pub exit_time_ms: i64,
    /// The exit's average fill price.
    pub exit_price: Decimal,
    pub duration_ms: i64,
    /// P&L of the closed quantity before fees and funding, as the venue booked it.
    pub realized_pnl: Decimal,
    /// The exit's fees and the closed quantity's share of the entry fees.
    pub fees: Decimal,
    /// Funding the closed quantity paid (negative) or received while open; absent where the
    /// account books no funding (a backtest, the simulated market).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub funding: Option<Decimal>,
    /// `realized_pnl − fees + funding`: what the trade made.
    pub pnl: Decimal,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_reason: Option<ExitReason>,
    /// The position left open after this exit (zero: it was closed).
    pub remaining: Decimal,
    /// The exit order, as the venue names it.
    pub exit_order_id: String,
}

/// Every closed trade of `fills` (in time order), oldest first. `funding`, where the account
/// books it, is shared out to the positions open when it was booked.
pub fn closed_trades(fills: &[Fill], funding: Option<&[FundingPayment]>) -> Vec<ClosedTrade> {
    let mut book = Book::default();
    let mut booked: Vec<&FundingPayment> = funding.unwrap_or_default().iter().collect();
    booked.sort_by_key(|p| p.booked_ms);
    let mut payments = booked.into_iter().peekable();
    for fill in fills {
        while let Some(paid) = payments.next_if(|p| p.booked_ms <= fill.time_ms) {
            book.fund(paid);
        }
        book.fill(fill);
    }
    // Funding booked after the last fill belongs to no closed trade: the positions it was
    // paid on are still open.
    let with_funding = funding.is_some();
    book.trades
        .into_iter()
        .map(|exit| exit.trade(with_funding))
        .collect()
}

/// Net P&L per closed trade, as the stats count them.
pub fn trade_pnls(trades: &[ClosedTrade]) -> Vec<Decimal> {
    trades.iter().map(|t| t.pnl).collect()
}

/// One symbol's open position as the fills built it.
#[derive(Debug, Clone)]
struct Open {
    side: PositionSide,
    quantity: Decimal,
    /// What the quantity open cost: Σ price × quantity of the fills that opened or added to
    /// it, less each close's share (a close leaves the average entry as it was).
    cost: Decimal,
    /// Entry fees and funding not yet shared out to an exit.
    fees: Decimal,
    funding: Decimal,
    since_ms: i64,
}

impl Open {
    fn entry_price(&self) -> Decimal {
        match self.quantity.is_zero() {
            true => Decimal::ZERO,
            false => (self.cost / self.quantity).round_dp(PLACES),
        }
    }
}

/// An exit being built from its order's fills.
#[derive(Debug, Clone)]
struct Exit {
    symbol: Symbol,
    side: PositionSide,
    order_id: String,
    client_order_id: String,
    quantity: Decimal,
    /// Σ price × quantity of its fills.
    proceeds: Decimal,
    entry_price: Decimal,
    entry_ms: i64,
    exit_ms: i64,
    realized: Decimal,
    fees: Decimal,
    funding: Decimal,
    remaining: Decimal,
}

impl Exit {
    fn trade(self, with_funding: bool) -> ClosedTrade {
        let exit_price = match self.quantity.is_zero() {
            true => Decimal::ZERO,
            false => (self.proceeds / self.quantity).round_dp(PLACES),
        };
        let funding = with_funding.then_some(self.funding.round_dp(PLACES));
        let fees = self.fees.round_dp(PLACES);
        ClosedTrade {
            symbol: self.symbol.to_string(),
            side: self.side.to_string(),
            quantity: self.quantity,
            entry_time_ms: self.entry_ms,
            entry_price: self.entry_price,
            exit_time_ms: self.exit_ms,
            exit_price,
            duration_ms: self.exit_ms - self.entry_ms,
            realized_pnl: self.realized,
            fees,
            funding,
            pnl: (self.realized - self.fees + self.funding).round_dp(PLACES),
            exit_reason: ExitReason::of_client_id(&self.client_order_id),
            remaining: self.remaining,
            exit_order_id: self.order_id,
        }
    }
}

#[derive(Default)]
struct Book {
    open: HashMap<Symbol, Open>,
    trades: Vec<Exit>,
}

impl Book {
    fn fund(&mut self, paid: &FundingPayment) {
        if let Some(open) = self
            .open
            .get_mut(&paid.symbol)
            .filter(|o| o.side == paid.side)
        {
            open.funding += paid.amount;
        }
    }

    fn fill(&mut self, fill: &Fill) {
        let closing = self
            .open
            .get(&fill.symbol)
            .is_some_and(|o| o.side.opening_side() != fill.side);
        if !closing {
            self.add(fill, fill.quantity, fill.fee);
            return;
        }
        let Some(open) = self.open.get_mut(&fill.symbol) else {
            return;
        };
        let closed = fill.quantity.min(open.quantity);
        // A reversal's fee is split by quantity: the rest opens the new position.
        let fee = match closed == fill.quantity {
            true => fill.fee,
            false => fill.fee * closed / fill.quantity,
        };
        let entry_price = open.entry_price();
        let entry_fee = open.fees * closed / open.quantity;
        let funding = open.funding * closed / open.quantity;
        open.cost -= open.cost * closed / open.quantity;
        open.quantity -= closed;
        open.fees -= entry_fee;
        open.funding -= funding;
        let (side, since_ms, remaining) = (open.side, open.since_ms, open.quantity);
        if remaining.is_zero() {
            self.open.remove(&fill.symbol);
        }
        match self.trades.last_mut() {
            // The next fill of the same exit order.
            Some(exit) if exit.order_id == fill.order_id && exit.symbol == fill.symbol => {
                exit.quantity += closed;
                exit.proceeds += fill.price * closed;
                exit.exit_ms = fill.time_ms;
                exit.realized += fill.realized_pnl;
                exit.fees += fee + entry_fee;
                exit.funding += funding;
                exit.remaining = remaining;
            }
            _ => self.trades.push(Exit {
                symbol: fill.symbol.clone(),
                side,
                order_id: fill.order_id.clone(),
                client_order_id: fill.client_order_id.clone(),
                quantity: closed,
                proceeds: fill.price * closed,
                entry_price,
                entry_ms: since_ms,
                exit_ms: fill.time_ms,
                realized: fill.realized_pnl,
                fees: fee + entry_fee,
                funding,
                remaining,
            }),
        }
        let rest = fill.quantity - closed;
        if rest > Decimal::ZERO {
            self.add(fill, rest, fill.fee - fee);
        }
    }

    /// `quantity` of `fill` opens a position or adds to the one open in its direction.
    fn add(&mut self, fill: &Fill, quantity: Decimal, fee: Decimal) {
        let side = match fill.side {
            Side::Buy => PositionSide::Long,
            Side::Sell => PositionSide::Short,
        };
        let open = self.open.entry(fill.symbol.clone()).or_insert(Open {
            side,
            quantity: Decimal::ZERO,
            cost: Decimal::ZERO,
            fees: Decimal::ZERO,
            funding: Decimal::ZERO,
            since_ms: fill.time_ms,
        });
        open.quantity += quantity;
        open.cost += fill.price * quantity;
        open.fees += fee;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_reasons_come_from_the_legs_of_nofxis_client_ids() {
        let of = ExitReason::of_client_id;
        assert_eq!(of("nx1d2e3f4a5be3c12i0c"), Some(ExitReason::Signal));
        assert_eq!(of("nx1d2e3f4a5bc12i0s"), Some(ExitReason::StopLoss));
        assert_eq!(of("nx1d2e3f4a5bc12i0t"), Some(ExitReason::TakeProfit));
        assert_eq!(of("nx1d2e3f4a5bc12i0u"), Some(ExitReason::Manual));
        assert_eq!(of("liquidation-42"), Some(ExitReason::Liquidation));
        // An opening leg, or an order someone placed on the venue by hand.
        assert_eq!(of("nx1d2e3f4a5bc12i0o"), None);
        assert_eq!(of("web_8Hq2c"), None);
        assert_eq!(of(""), None);
    }
}
