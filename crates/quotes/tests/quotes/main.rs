//! `Quotes` end to end: live feeds served from a loopback server (the fixtures, HTML pages,
//! 500s), the Referer each feed needs, the fallback order, the cache, staleness, and the
//! offline simulated market.

#![allow(clippy::unwrap_used, clippy::expect_used)] // helpers: a panic in a test is a failed assertion

mod fallback;
mod feeds;
mod offline;
mod server;

use std::collections::BTreeMap;
use std::time::Duration;

use jiff::{SignedDuration, Timestamp};
use nofxi_portfolio::domain::{Instrument, Market};
use nofxi_quotes::{FallbackOrder, Feed, LiveConfig, Quotes};

pub fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

pub fn instrument(market: Market, symbol: &str) -> Instrument {
    Instrument::new(market, symbol).unwrap()
}

pub fn at(text: &str) -> Timestamp {
    text.parse().unwrap()
}

/// Live quotes with every feed pointed at `base_url`, in the order `sources_yaml` gives.
pub fn live(base_url: &str, sources_yaml: &str) -> Quotes {
    let base_urls: BTreeMap<Feed, String> = Feed::ALL
        .into_iter()
        .map(|feed| (feed, base_url.to_string()))
        .collect();
    Quotes::live(LiveConfig {
        order: FallbackOrder::parse(sources_yaml, "test sources").unwrap(),
        base_urls,
        timeout: Duration::from_secs(2),
        cache_ttl: SignedDuration::from_secs(15),
    })
    .unwrap()
}
