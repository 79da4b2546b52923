//! [`Quotes`], the crate's entry point: a quote for an instrument, from the simulated market
//! (offline) or from the live sources in the market's fallback order, cached briefly, judged
//! for staleness against the caller's `now`.
//!
//! Live mode asks each source in order and returns the first fresh quote. A stale answer (a
//! suspended listing, a feed that stopped updating) is kept while the next sources are asked;
//! if none has a fresher one, the freshest stale quote is returned, marked `stale: true`. When
//! every source fails the error lists each one's reason. Live mode never falls back to
//! simulated prices on its own: a made-up price must be asked for.

use std::collections::BTreeMap;
use std::time::Duration;

use jiff::{SignedDuration, Timestamp};
use nofxi_portfolio::domain::Instrument;

use crate::cache::QuoteCache;
use crate::error::QuoteError;
use crate::fallback::{FallbackOrder, SourcesFileError};
use crate::http::{DEFAULT_TIMEOUT, Feed, HttpSource};
use crate::quote::{Quote, SourceKind};
use crate::simulated::SimulatedSource;
use crate::source::QuoteSource;
use crate::stale::judged;

/// How long a fetched quote is reused.
pub const DEFAULT_CACHE_TTL: SignedDuration = SignedDuration::from_secs(15);

/// How to build live quotes: the fallback order, the feeds' hosts, timeouts and cache.
#[derive(Debug, Clone)]
pub struct LiveConfig {
    pub order: FallbackOrder,
    /// Base URLs replacing a feed's real host (a proxy, a mirror, a test server).
    pub base_urls: BTreeMap<Feed, String>,
    pub timeout: Duration,
    pub cache_ttl: SignedDuration,
}

impl LiveConfig {
    /// The built-in order (`data/sources.yaml`), real hosts, 5 s timeout, 15 s cache.
    pub fn builtin() -> Result<LiveConfig, SourcesFileError> {
        Ok(LiveConfig {
            order: FallbackOrder::builtin()?,
            base_urls: BTreeMap::new(),
            timeout: DEFAULT_TIMEOUT,
            cache_ttl: DEFAULT_CACHE_TTL,
        })
    }
}

/// Quotes for the portfolio.
pub struct Quotes {
    order: FallbackOrder,
    sources: Vec<Box<dyn QuoteSource>>,
    cache: QuoteCache,
}

impl Quotes {
    /// The simulated market only: every market, FUND included, no network.
    pub fn offline() -> Quotes {
        Quotes::with_sources(
            FallbackOrder::simulated_only(),
            vec![Box::new(SimulatedSource)],
            SignedDuration::ZERO,
        )
    }

    /// The live feeds, in `config.order` per market.
    pub fn live(config: LiveConfig) -> Result<Quotes, QuoteError> {
        let mut sources: Vec<Box<dyn QuoteSource>> = Vec::new();
        for feed in Feed::ALL {
            let base_url = config
                .base_urls
                .get(&feed)
                .map_or(feed.default_base_url(), String::as_str);
            sources.push(Box::new(HttpSource::with_base_url(
                feed,
                base_url,
                config.timeout,
            )?));
        }
        Ok(Quotes::with_sources(
            config.order,
            sources,
            config.cache_ttl,
        ))
    }

    /// Any sources, in `order`: for other feeds, or fakes in tests. A source kind the order
    /// names but `sources` lacks is reported as "not configured" when its turn comes.
    pub fn with_sources(
        order: FallbackOrder,
        sources: Vec<Box<dyn QuoteSource>>,
        cache_ttl: SignedDuration,
    ) -> Quotes {
        Quotes {
            order,
            sources,
            cache: QuoteCache::new(cache_ttl),
        }
    }

    pub fn order(&self) -> &FallbackOrder {
        &self.order
    }

    /// The quote for `instrument` at `now`: cached if fetched within the cache's TTL, else
    /// from the first source in the market's order that has a fresh one.
    pub async fn quote(
        &self,
        instrument: &Instrument,
        now: Timestamp,
    ) -> Result<Quote, QuoteError> {
        if let Some(cached) = self.cache.get(instrument, now) {
            return Ok(judged(cached, now));
        }
        let kinds = self.order.sources(instrument.market);
        if kinds.is_empty() {
            return Err(QuoteError::NoLiveSource {
                market: instrument.market,
            });
        }
        let mut tried = Vec::new();
        let mut freshest_stale: Option<Quote> = None;
        for kind in kinds {
            let Some(source) = self.source(*kind) else {
                tried.push((*kind, format!("{kind} is not configured")));
                continue;
            };
            match source.quote(instrument, now).await {
                Ok(quote) => {
                    let quote = judged(quote, now);
                    if !quote.stale {
                        self.cache.put(&quote, now);
                        return Ok(quote);
                    }
                    if freshest_stale
                        .as_ref()
                        .is_none_or(|q| quote.as_of > q.as_of)
                    {
                        freshest_stale = Some(quote);
                    }
                }
                Err(error) => tried.push((*kind, error.reason())),
            }
        }
        match freshest_stale {
            Some(quote) => {
                self.cache.put(&quote, now);
                Ok(quote)
            }
            None => Err(QuoteError::AllFailed {
                symbol: instrument.key(),
                tried,
            }),
        }
    }

    fn source(&self, kind: SourceKind) -> Option<&dyn QuoteSource> {
        self.sources
            .iter()
            .find(|source| source.kind() == kind)
            .map(|source| source.as_ref())
    }
}
