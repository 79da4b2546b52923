//! Turning an approved plan into orders.
//!
//! Every order carries a client order id derived from (trader, cycle, item, leg), so the same
//! plan always produces the same ids. When a plan is executed again after a crash, each order is
//! looked up by that id before it is sent: an order that landed is recorded, not repeated.

use nofxi_domain::market::Symbol;
use nofxi_domain::trading::{
    MarginMode, OrderRequest, OrderType, PositionMode, PositionSide, Side,
};
use nofxi_venues::{Exchange, VenueError};
use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;

use super::record::Execution;
use crate::guard::{Approved, Intent};

/// How orders are sent for one trader.
#[derive(Debug, Clone)]
pub struct ExecutionSettings {
    /// Up to 10 characters of the trader id, for client order ids.
    pub id_tag: String,
    /// The epoch of the lease the orders are sent under (see the runtime's lease guard), in
    /// client order ids: two engines that ever ran the trader never make the same id for
    /// different orders. None in backtests.
    pub epoch: Option<u64>,
    pub margin_mode: MarginMode,
    pub position_mode: PositionMode,
}

impl ExecutionSettings {
    pub fn new(trader_id: &str, margin_mode: MarginMode, position_mode: PositionMode) -> Self {
        // The end of a UUID v7 is its random part; the start is a timestamp shared by traders
        // created in the same millisecond.
        let alnum: Vec<char> = trader_id
            .chars()
            .filter(char::is_ascii_alphanumeric)
            .collect();
        let id_tag = alnum[alnum.len().saturating_sub(10)..].iter().collect();
        ExecutionSettings {
            id_tag,
            epoch: None,
            margin_mode,
            position_mode,
        }
    }

    /// The same settings for orders sent under `epoch` (a resumed cycle's own).
    pub fn with_epoch(&self, epoch: Option<u64>) -> ExecutionSettings {
        ExecutionSettings {
            epoch,
            ..self.clone()
        }
    }

    /// `nx<tag>[e<epoch>]c<cycle>i<item><leg>`: at most 36 characters of `[A-Za-z0-9]`,
    /// Binance's limit.
    /// Built by hand: every order of every cycle needs one, and `format!` cost several times
    /// the rest of the request.
    fn client_id(&self, cycle: u64, item: usize, leg: char) -> String {
        let mut id = String::with_capacity(36);
        id.push_str("nx");
        id.push_str(&self.id_tag);
        if let Some(epoch) = self.epoch {
            id.push('e');
            push_digits(&mut id, epoch);
        }
        id.push('c');
        push_digits(&mut id, cycle);
        id.push('i');
        push_digits(&mut id, item as u64);
        id.push(leg);
        // Past 36 (a huge epoch or cycle number), the tag gives way: the numbers after it
        // are what keeps one trader's ids apart.
        if let Some(over) = id.len().checked_sub(36).filter(|n| *n > 0) {
            let tag_end = 2 + self.id_tag.len();
            id.replace_range(2..tag_end.min(2 + over), "");
        }
        id
    }
}

/// How a plan is executed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// A new plan: send every order.
    Fresh,
    /// Finishing a crashed cycle soon after: look each order up, send what is missing.
    Resume,
    /// Finishing a crashed cycle too late to trade on its prices: record what landed, send
    /// nothing new (its stop and take-profit are still sent for an entry that landed, since an
    /// unprotected position is worse than a stale stop).
    LookupOnly,
}

pub async fn execute(
    plan: &[Approved],
    exchange: &dyn Exchange,
    settings: &ExecutionSettings,
    cycle: u64,
    mode: Mode,
) -> Vec<Execution> {
    let mut out = Vec::new();
    for (item, approved) in plan.iter().enumerate() {
        let mut leg = Leg {
            exchange,
            settings,
            cycle,
            item,
            mode,
            entry_landed: false,
            out: &mut out,
        };
        match &approved.intent {
            Intent::Close {
                symbol,
                side,
                quantity,
                manual,
            } => {
                // A person's close has its own leg: the trade list tells it from a decision's.
                let id_leg = if *manual { 'u' } else { 'c' };
                leg.close(symbol, *side, *quantity, id_leg).await
            }
            Intent::Open {
                symbol,
                side,
                leverage,
                notional_usd,
                reference_price,
                stop_loss,
                take_profit,
            } => {
                leg.open(
                    symbol,
                    *side,
                    *leverage,
                    *notional_usd,
                    *reference_price,
                    *stop_loss,
                    *take_profit,
                )
                .await
            }
        }
    }
    out
}

struct Leg<'a> {
    exchange: &'a dyn Exchange,
    settings: &'a ExecutionSettings,
    cycle: u64,
    item: usize,
    mode: Mode,
    /// Set once this item's entry order is known to be on the venue.
    entry_landed: bool,
    out: &'a mut Vec<Execution>,
}

impl Leg<'_> {
    async fn close(&mut self, symbol: &Symbol, side: PositionSide, quantity: Decimal, leg: char) {
        let request = self.request(
            OrderRequest::market(symbol.clone(), closing(side), quantity, "").reduce_only(),
            side,
            leg,
        );
        if self.send(request, "close").await {
            // The position's stop and take-profit orders protect nothing now.
            self.cancel_triggers(symbol).await;
        }
    }

    #[allow(clippy::too_many_arguments)]
    async fn open(
        &mut self,
        symbol: &Symbol,
        side: PositionSide,
        leverage: u32,
        notional: Decimal,
        price: Decimal,
        stop_loss: Decimal,
        take_profit: Decimal,
    ) {
        // The venue's lot and tick sizes decide the rounding; a venue that accepts any
        // precision (the paper account) gets the sensible steps of `quantity_for`.
        let rules = match self.exchange.symbol_rules(symbol).await {
            Ok(rules) => rules,
            Err(e) => {
                self.record_error(
                    symbol,
                    "open",
                    &self.settings.client_id(self.cycle, self.item, 'o'),
                    &e,
                );
                return;
            }
        };
        let quantity = if rules.step_size > Decimal::ZERO {
            rules.round_quantity(notional / price)
        } else {
            quantity_for(notional, price)
        };
        if quantity <= Decimal::ZERO {
            self.record_local(
                symbol,
                "open",
                format!("{notional} USDT at {price} rounds to zero quantity"),
            );
            return;
        }
        if let Err(why) = rules.check(quantity, price, false) {
            self.record_local(symbol, "open", why);
            return;
        }
        let (stop_loss, take_profit) =
            (rules.round_price(stop_loss), rules.round_price(take_profit));
        let entry = self.request(
            OrderRequest::market(symbol.clone(), side.opening_side(), quantity, ""),
            side,
            'o',
        );
        // On resume the entry may already be on the venue; then the setup must not run again
        // (venues refuse a margin-mode change while a position is open).
        let landed = self.find(&entry, "open").await;
        if !landed {
            let setup = async {
                self.exchange
                    .set_margin_mode(symbol, self.settings.margin_mode)
                    .await?;
                self.exchange.set_leverage(symbol, leverage).await
            };
            // A stale plan sends nothing new, so it needs no setup either.
            if self.mode != Mode::LookupOnly
                && let Err(e) = setup.await
            {
                self.record_error(symbol, "open", &entry.client_order_id, &e);
                return;
            }
            if !self.place(entry, "open").await {
                return;
            }
        }
        self.entry_landed = true;
        for (order_type, trigger, leg, what) in [
            (OrderType::StopMarket, stop_loss, 's', "stop_loss"),
            (OrderType::TakeProfitMarket, take_profit, 't', "take_profit"),
        ] {
            let request = OrderRequest::trigger(
                symbol.clone(),
                order_type,
                closing(side),
                quantity,
                trigger,
                "",
            );
            let request = self.request(request, side, leg);
            self.send(request, what).await;
        }
    }

    /// Fill in the client order id and, in hedge mode, the position side.
    fn request(&self, mut request: OrderRequest, side: PositionSide, leg: char) -> OrderRequest {
        request.client_order_id = self.settings.client_id(self.cycle, self.item, leg);
        if self.settings.position_mode == PositionMode::Hedge {
            // Hedge mode names the position instead of using reduce-only.
            request.reduce_only = false;
            request.position_side = Some(side);
        }
        request
    }

    /// Send (or, when resuming, find) one order; true when the venue has it.
    async fn send(&mut self, request: OrderRequest, what: &str) -> bool {
        self.find(&request, what).await || self.place(request, what).await
    }

    /// When resuming, look the order up by its client id and record it if it landed.
    async fn find(&mut self, request: &OrderRequest, what: &str) -> bool {
        if self.mode == Mode::Fresh {
            return false;
        }
        let Ok(Some(order)) = self
            .exchange
            .order_status(&request.symbol, &request.client_order_id)
            .await
        else {
            return false;
        };
        self.out.push(Execution {
            symbol: request.symbol.to_string(),
            what: what.into(),
            client_order_id: request.client_order_id.clone(),
            order_id: Some(order.order_id),
            ok: true,
            error: None,
            error_code: None,
            recovered: true,
        });
        true
    }

    async fn place(&mut self, request: OrderRequest, what: &str) -> bool {
        if self.mode == Mode::LookupOnly && !(self.entry_landed && request.order_type.is_trigger())
        {
            let what = format!("{what} (not sent: the interrupted plan is too old to trade on)");
            self.record_local(&request.symbol, &what, "skipped".into());
            return false;
        }
        match self.exchange.place_order(&request).await {
            Ok(order) => {
                self.out.push(Execution {
                    symbol: request.symbol.to_string(),
                    what: what.into(),
                    client_order_id: request.client_order_id,
                    order_id: Some(order.order_id),
                    ok: true,
                    error: None,
                    error_code: None,
                    recovered: false,
                });
                true
            }
            Err(e) => {
                self.record_error(&request.symbol, what, &request.client_order_id, &e);
                false
            }
        }
    }

    async fn cancel_triggers(&mut self, symbol: &Symbol) {
        let Ok(open) = self.exchange.open_orders(Some(symbol)).await else {
            return;
        };
        for order in open.into_iter().filter(|o| o.order_type.is_trigger()) {
            if let Err(e) = self
                .exchange
                .cancel_order(symbol, &order.client_order_id)
                .await
            {
                self.record_error(symbol, "cancel_trigger", &order.client_order_id, &e);
            }
        }
    }

    fn record_error(&mut self, symbol: &Symbol, what: &str, client_order_id: &str, e: &VenueError) {
        self.out.push(Execution {
            symbol: symbol.to_string(),
            what: what.into(),
            client_order_id: client_order_id.into(),
            order_id: None,
            ok: false,
            error: Some(e.to_string()),
            error_code: e.code(),
            recovered: false,
        });
    }

    fn record_local(&mut self, symbol: &Symbol, what: &str, error: String) {
        self.out.push(Execution {
            symbol: symbol.to_string(),
            what: what.into(),
            client_order_id: String::new(),
            order_id: None,
            ok: false,
            error: Some(error),
            error_code: None,
            recovered: false,
        });
    }
}

/// `n` in decimal digits.
fn push_digits(out: &mut String, n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut rest = n;
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    out.extend(digits[at..].iter().map(|&d| char::from(d)));
}

fn closing(side: PositionSide) -> Side {
    side.opening_side().opposite()
}

/// Quantity for a notional, rounded down to a step that keeps each step worth 0.1–10 USDT-ish
/// at the price: 60,000 → 0.001, 3,000 → 0.01, 150 → 0.1, 0.2 → 1. Rounding down never buys
/// more than approved. (Real lot sizes come from the venue's symbol filters; until the venues
/// expose them, this matches Binance's steps for the majors.)
pub fn quantity_for(notional: Decimal, price: Decimal) -> Decimal {
    if price <= Decimal::ZERO {
        return Decimal::ZERO;
    }
    // Digits before the point (the price is positive; below one counts as none).
    let mut digits = 0u32;
    let mut whole = price.trunc().to_u128().unwrap_or(0);
    while whole > 0 {
        digits += 1;
        whole /= 10;
    }
    let dp = digits.saturating_sub(2);
    (notional / price).round_dp_with_strategy(dp, rust_decimal::RoundingStrategy::ToZero)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal_macros::dec;

    #[test]
    fn quantities_round_down_to_sensible_steps() {
        assert_eq!(quantity_for(dec!(300), dec!(60000)), dec!(0.005));
        assert_eq!(quantity_for(dec!(100), dec!(3000)), dec!(0.03));
        assert_eq!(quantity_for(dec!(100), dec!(150)), dec!(0.6));
        assert_eq!(quantity_for(dec!(100), dec!(0.2)), dec!(500));
        assert_eq!(quantity_for(dec!(10), dec!(60000)), dec!(0));
    }

    #[test]
    fn client_ids_are_deterministic_and_fit_binance() {
        let s = ExecutionSettings::new(
            "0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b",
            MarginMode::Cross,
            PositionMode::OneWay,
        );
        let id = s.client_id(123_456, 7, 's');
        assert_eq!(id, "nx1d2e3f4a5bc123456i7s");
        assert_eq!(s.client_id(0, 0, 'o'), "nx1d2e3f4a5bc0i0o");
        // One character past Binance's 36: the tag's first character gives way.
        let widest = s.client_id(u64::MAX, 10, 't');
        assert_eq!(widest, format!("nxd2e3f4a5bc{}i10t", u64::MAX));
        assert!(id.len() <= 36 && id.chars().all(|c| c.is_ascii_alphanumeric()));
    }

    #[test]
    fn client_ids_under_a_lease_carry_its_epoch() {
        let s = ExecutionSettings::new(
            "0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b",
            MarginMode::Cross,
            PositionMode::OneWay,
        );
        let first = s.with_epoch(Some(1)).client_id(42, 0, 'o');
        let second = s.with_epoch(Some(2)).client_id(42, 0, 'o');
        assert_eq!(first, "nx1d2e3f4a5be1c42i0o");
        assert_ne!(first, second);
        // A million takeovers and ten billion cycles still fit with the whole tag.
        let wide = s
            .with_epoch(Some(999_999))
            .client_id(9_999_999_999, 10, 't');
        assert_eq!(wide, "nx1d2e3f4a5be999999c9999999999i10t");
        // Past that the tag gives way, never the numbers.
        let widest = s.with_epoch(Some(999_999)).client_id(u64::MAX, 10, 't');
        assert_eq!(widest, format!("nx5be999999c{}i10t", u64::MAX));
    }
}
