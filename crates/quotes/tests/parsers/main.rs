//! Each feed's parser on hand-made fixtures (`tests/fixtures`, written by
//! `make_fixtures.py` from REFERENCE §4): exact decimals, exact instants, and the typed error
//! for every way an answer goes wrong.

#![allow(clippy::unwrap_used, clippy::expect_used)] // helpers: a panic in a test is a failed assertion

mod binance;
mod eastmoney;
mod sina;
mod tencent;

use jiff::Timestamp;
use nofxi_portfolio::domain::{Instrument, Market};

pub fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A GBK fixture: really GBK (not UTF-8) on disk, as the feed sends it.
pub fn gbk_fixture(name: &str) -> Vec<u8> {
    let bytes = fixture(name);
    assert!(
        std::str::from_utf8(&bytes).is_err(),
        "{name} should hold GBK bytes, not UTF-8"
    );
    bytes
}

pub fn instrument(market: Market, symbol: &str) -> Instrument {
    Instrument::new(market, symbol).unwrap()
}

pub fn at(text: &str) -> Timestamp {
    text.parse().unwrap()
}
