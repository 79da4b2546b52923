//! The venue conformance suite: one set of scenarios ([`scenarios`]) that every [`Exchange`]
//! implementation must pass, and one [`fixture::VenueFixture`] per venue that stands it up
//! against its testkit mock (or, for paper, a hand-set market).
//!
//! Adding a venue is two steps: a fixture module here (start the mock, build the adapter, say
//! what the venue guarantees where venues differ), and its name in `conformance.rs`'s list.
//!
//! [`Exchange`]: nofxi_venues::Exchange

#![allow(dead_code)] // each fixture is used by the macro, not by name

pub mod binance;
pub mod bitget;
pub mod bybit;
pub mod fixture;
pub mod hyperliquid;
pub mod okx;
pub mod paper;
pub mod scenarios;
