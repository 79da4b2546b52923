//! Funding on a paper account that follows a venue's live prices
//! ([`super::PaperConfig::settles_funding`]).
//!
//! While a symbol has a position, the account keeps the venue's announcement for it (the next
//! funding time and the rate the venue gives for it, as [`MarketData::funding_rate`] reads
//! them) in a [`FundingClock`]. Once the clock passes that time, each position of the symbol
//! pays or receives its notional at the current mark times that rate (see
//! [`FundingPayment::amount_for`]), from the wallet and, for an isolated position, from its
//! margin, as the venue would. The rate read last before the funding time is the one settled:
//! Binance's `lastFundingRate`, Bybit's and OKX's `fundingRate` are the rate of the coming
//! settlement, Hyperliquid's the coming hour's.
//!
//! Idempotent across restarts: the last funding time settled is part of the saved state, and a
//! time is settled only when it is later than that. A funding time the account never saw the
//! rate of (the engine was down across more than one of them) is not settled: there is no rate
//! to settle it at, and inventing one would be worse.
//!
//! The clock of a symbol lives as long as a position on it (it is dropped when the last one
//! closes), so a position opened later is never charged for a time it was not held at.

use std::collections::BTreeMap;

use nofxi_domain::market::Symbol;
use nofxi_domain::trading::{FundingPayment, MarginMode};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::state::PaperState;
use crate::MarketData;

/// How long a rate read stays fresh: the venue's predicted rate moves during a period, and
/// one read per symbol every few minutes follows it closely enough without adding a request
/// to every call of a trading cycle.
pub const FUNDING_REFRESH_MS: i64 = 5 * 60_000;

/// A symbol's coming funding, as last read from the venue, and the last time settled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FundingClock {
    pub next_funding_time_ms: i64,
    pub rate: Decimal,
    /// The last funding time settled for this symbol's positions, if any was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settled_ms: Option<i64>,
}

impl FundingClock {
    fn due(&self, now_ms: i64) -> bool {
        self.next_funding_time_ms <= now_ms
            && self
                .settled_ms
                .is_none_or(|settled| settled < self.next_funding_time_ms)
    }
}

/// When each symbol's rate was last read. A cache, not state: a restarted account reads again.
#[derive(Debug, Clone, Default)]
pub(super) struct FundingReads(BTreeMap<Symbol, i64>);

impl FundingReads {
    pub(super) fn forget(&mut self, symbol: &Symbol) {
        self.0.remove(symbol);
    }
}

impl PartialEq for FundingReads {
    fn eq(&self, _: &FundingReads) -> bool {
        true
    }
}

/// Settle `symbol`'s funding if its funding time has come, at `mark`. Returns whether it did.
pub(super) fn settle_due(st: &mut PaperState, symbol: &Symbol, mark: Decimal, now_ms: i64) -> bool {
    let Some(clock) = st.funding.get(symbol).filter(|c| c.due(now_ms)).cloned() else {
        return false;
    };
    let mut booked = Vec::new();
    for p in st.positions.iter_mut().filter(|p| &p.symbol == symbol) {
        let amount = FundingPayment::amount_for(p.side, p.quantity, mark, clock.rate);
        if p.margin_mode == MarginMode::Isolated {
            p.margin += amount;
        }
        booked.push(FundingPayment {
            symbol: symbol.clone(),
            side: p.side,
            quantity: p.quantity,
            mark_price: mark,
            rate: clock.rate,
            amount,
            funding_time_ms: clock.next_funding_time_ms,
            booked_ms: now_ms,
        });
    }
    st.wallet_balance += booked.iter().map(|b| b.amount).sum::<Decimal>();
    st.funding_payments.extend(booked);
    if let Some(c) = st.funding.get_mut(symbol) {
        c.settled_ms = Some(clock.next_funding_time_ms);
    }
    st.forget_liquidation_prices();
    true
}

/// Read the coming funding of every symbol held whose read is stale (or whose funding time
/// has passed), and drop the clocks of symbols no longer held. Returns whether the saved
/// state changed. A failed read is logged and tried again after [`FUNDING_REFRESH_MS`]: the
/// account keeps trading on the announcement it has.
pub(super) async fn refresh(st: &mut PaperState, market: &dyn MarketData, now_ms: i64) -> bool {
    let mut held: Vec<Symbol> = st.positions.iter().map(|p| p.symbol.clone()).collect();
    held.sort();
    held.dedup();
    let before = st.funding.len();
    st.funding.retain(|s, _| held.contains(s));
    let mut changed = st.funding.len() != before;
    for symbol in held {
        let passed = st
            .funding
            .get(&symbol)
            .is_some_and(|c| c.next_funding_time_ms <= now_ms);
        let read = st.funding_reads.0.get(&symbol).copied();
        let stale = read.is_none_or(|t| now_ms - t >= FUNDING_REFRESH_MS);
        let reread = read.is_some_and(|t| {
            passed
                && st
                    .funding
                    .get(&symbol)
                    .is_some_and(|c| t < c.next_funding_time_ms)
        });
        if !stale && !reread {
            continue;
        }
        st.funding_reads.0.insert(symbol.clone(), now_ms);
        changed |= read_one(st, market, &symbol, now_ms).await;
    }
    changed
}

async fn read_one(
    st: &mut PaperState,
    market: &dyn MarketData,
    symbol: &Symbol,
    now_ms: i64,
) -> bool {
    let announced = match market.funding_rate(symbol).await {
        Ok(Some(f)) => f,
        Ok(None) => return false,
        Err(e) => {
            tracing::warn!(%symbol, source = market.source(), error = %e, "funding rate unreadable");
            return false;
        }
    };
    // An announcement of a time already past says nothing about the coming one.
    if announced.next_funding_time_ms <= now_ms {
        return false;
    }
    let new = (announced.next_funding_time_ms, announced.rate);
    match st.funding.get_mut(symbol) {
        None => {
            st.funding.insert(
                symbol.clone(),
                FundingClock {
                    next_funding_time_ms: new.0,
                    rate: new.1,
                    settled_ms: None,
                },
            );
            true
        }
        Some(clock) => {
            let changed = (clock.next_funding_time_ms, clock.rate) != new;
            clock.next_funding_time_ms = new.0;
            clock.rate = new.1;
            changed
        }
    }
}
