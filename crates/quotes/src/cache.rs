//! A short memory of quotes already fetched, so a screen that shows the same holding three
//! times, or a user asking twice in a row, costs one request. Keyed by instrument, expiring
//! `ttl` after the fetch, timed by the caller's `now` (not the wall clock) so tests control it.
//! Staleness is judged again on every read: a cached quote can turn stale while it waits.

use std::collections::HashMap;
use std::sync::Mutex;

use jiff::{SignedDuration, Timestamp};
use nofxi_portfolio::domain::Instrument;

use crate::quote::Quote;

#[derive(Debug)]
pub(crate) struct QuoteCache {
    ttl: SignedDuration,
    entries: Mutex<HashMap<Instrument, (Timestamp, Quote)>>,
}

impl QuoteCache {
    pub fn new(ttl: SignedDuration) -> QuoteCache {
        QuoteCache {
            ttl,
            entries: Mutex::new(HashMap::new()),
        }
    }

    /// The quote fetched for `instrument` less than `ttl` before `now`, if any. A fetch time
    /// after `now` (a clock stepped back) counts as expired.
    pub fn get(&self, instrument: &Instrument, now: Timestamp) -> Option<Quote> {
        self.with(|entries| {
            let (fetched, quote) = entries.get(instrument)?;
            let age = now.duration_since(*fetched);
            (!age.is_negative() && age < self.ttl).then(|| quote.clone())
        })
    }

    pub fn put(&self, quote: &Quote, now: Timestamp) {
        if self.ttl.is_zero() || self.ttl.is_negative() {
            return;
        }
        self.with(|entries| {
            entries.retain(|_, (fetched, _)| now.duration_since(*fetched) < self.ttl);
            entries.insert(quote.instrument.clone(), (now, quote.clone()));
        });
    }

    fn with<R>(&self, f: impl FnOnce(&mut HashMap<Instrument, (Timestamp, Quote)>) -> R) -> R {
        // A panic elsewhere while holding the lock leaves only a map of plain values behind.
        match self.entries.lock() {
            Ok(mut entries) => f(&mut entries),
            Err(poisoned) => f(&mut poisoned.into_inner()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simulated::SimulatedSource;
    use nofxi_portfolio::domain::Market;

    #[test]
    fn entries_expire_after_the_ttl() {
        let cache = QuoteCache::new(SignedDuration::from_secs(15));
        let btc = Instrument::new(Market::Crypto, "BTC").unwrap();
        let t0: Timestamp = "2025-01-10T12:00:00Z".parse().unwrap();
        let quote = SimulatedSource.quote_at(&btc, t0);
        cache.put(&quote, t0);
        let at = |secs| t0.checked_add(SignedDuration::from_secs(secs)).unwrap();
        assert_eq!(cache.get(&btc, at(14)), Some(quote));
        assert_eq!(cache.get(&btc, at(15)), None);
        assert_eq!(cache.get(&btc, at(-1)), None);
    }
}
