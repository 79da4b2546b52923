//! Where market data comes from, and what a reply calls it: the user's own account's market
//! (a live venue, or a paper account's simulated market or the venue whose live prices it
//! follows), or a source named outright (`simulated`, `binance`, `okx`, `bybit`,
//! `hyperliquid`, `bitget`: the choices a paper account's `--market` has, and Bitget's public
//! data beside them). A simulated source is always labelled so.

use std::sync::Arc;

use nofxi_domain::MarketSource;
use nofxi_skills::runtime::Reach;
use nofxi_skills::{Catalog, Lang};
use nofxi_store::{Store, StoreError};
use nofxi_trader::runtime::connect::{ConnectError, PaperAccount, is_live, sim_seed};
use nofxi_trader::runtime::public_market::{PUBLIC_MARKETS, public_market, public_markets_text};
use nofxi_trader::runtime::view::open_view;
use nofxi_venues::sim::SimMarket;
use nofxi_venues::{Clock, MarketData, SystemClock};

/// The name the simulated market goes by (`sim` is read as it too).
pub const SIMULATED: &str = "simulated";

/// A market and how it is named wherever its data is shown.
#[derive(Clone)]
pub struct DataSource {
    pub market: Arc<dyn MarketData>,
    /// What programs read: `simulated`, or the venue whose data it is (`okx`).
    pub name: String,
    /// What people read: "main (okx), live", "nofxi's simulated market (offline, …)".
    pub label: String,
    /// nofxi's simulated market, not a venue's data: never passed off as a live quote.
    pub simulated: bool,
    /// Its times are a paper account's simulated timeline, never said as UTC.
    pub sim_clock: bool,
    /// A venue's data leaves the machine (and is rate limited); the simulated market does not.
    pub reach: Reach,
}

/// Which of the user's accounts data is taken from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prefer {
    /// The live account's venue when there is one: the market the user's money is on.
    Live,
    /// A paper account's market (or nofxi's own): what answers when a live venue cannot.
    Local,
}

/// A source named by someone who is not reading their own account's market.
#[derive(Debug, thiserror::Error)]
pub enum SourceError {
    #[error("unknown market-data source \"{0}\": use {names}", names = source_names_text())]
    Unknown(String),
    #[error(transparent)]
    Connect(#[from] ConnectError),
}

/// `simulated, binance, okx, bybit, hyperliquid or bitget`.
pub fn source_names_text() -> String {
    format!("{SIMULATED}, {}", public_markets_text())
}

/// The source called `name` (see [`source_names_text`]); the simulated market is seeded with
/// `seed`.
pub fn named(name: &str, seed: u64, lang: Lang) -> Result<DataSource, SourceError> {
    let wanted = name.trim().to_ascii_lowercase();
    if matches!(wanted.as_str(), "sim" | SIMULATED) {
        return Ok(simulated_offline(seed, lang));
    }
    let Some(venue) = PUBLIC_MARKETS.iter().find(|v| **v == wanted) else {
        return Err(SourceError::Unknown(name.to_string()));
    };
    let market = public_market(venue, Arc::new(SystemClock))?
        .ok_or_else(|| SourceError::Unknown(name.to_string()))?;
    Ok(DataSource {
        market,
        name: venue.to_string(),
        label: Catalog::builtin().text(lang, "market-source-public", &[("venue", venue)]),
        simulated: false,
        sim_clock: false,
        reach: Reach::Remote,
    })
}

/// nofxi's simulated market on the wall clock, named as a choice (the CLI's `--source sim`).
pub fn simulated_offline(seed: u64, lang: Lang) -> DataSource {
    DataSource {
        label: Catalog::builtin().text(lang, "market-source-sim-offline", &[]),
        ..simulated_with(seed, "")
    }
}

/// nofxi's simulated market on the wall clock: the source when the user has no account.
pub fn simulated(lang: Lang) -> DataSource {
    DataSource {
        label: Catalog::builtin().text(lang, "market-source-sim", &[]),
        ..simulated_with(sim_seed(), "")
    }
}

fn simulated_with(seed: u64, label: &str) -> DataSource {
    let clock: Arc<dyn Clock> = Arc::new(SystemClock);
    DataSource {
        market: Arc::new(SimMarket::new(seed, clock)),
        name: SIMULATED.into(),
        label: label.into(),
        simulated: true,
        sim_clock: false,
        reach: Reach::Local,
    }
}

/// The user's live account's market when one is enabled and `prefer` is live, else their
/// paper account's, else the simulated market on the wall clock.
pub async fn for_user(
    store: &Arc<Store>,
    user: &str,
    prefer: Prefer,
    lang: Lang,
) -> Result<DataSource, StoreError> {
    let exchanges = store.list_exchanges(user, false).await?;
    let enabled = exchanges.iter().filter(|e| e.spec.enabled);
    let chosen = match prefer {
        Prefer::Live => enabled
            .clone()
            .find(|e| is_live(e))
            .or_else(|| enabled.clone().next()),
        Prefer::Local => enabled.clone().find(|e| !is_live(e)),
    };
    let Some(config) = chosen else {
        return Ok(simulated(lang));
    };
    let Ok(venue) = open_view(store.clone(), user, &config.id, PaperAccount::Exchange).await else {
        return Ok(simulated(lang));
    };
    let c = Catalog::builtin();
    let name = &config.spec.account_name;
    let source = if !venue.is_paper() {
        DataSource {
            market: venue.market.clone(),
            name: venue.market.source().to_string(),
            label: c.text(
                lang,
                "market-source-live",
                &[("name", name), ("kind", &venue.kind)],
            ),
            simulated: false,
            sim_clock: false,
            reach: Reach::Remote,
        }
    } else if let Some(followed) = config.market.venue() {
        // A paper account that fills at a venue's live prices reads that venue's data.
        DataSource {
            market: venue.market.clone(),
            name: followed.to_string(),
            label: c.text(
                lang,
                "market-source-paper-live",
                &[("name", name), ("venue", followed)],
            ),
            simulated: false,
            sim_clock: false,
            reach: Reach::Remote,
        }
    } else {
        DataSource {
            market: venue.market.clone(),
            name: MarketSource::Simulated.as_str().to_string(),
            label: c.text(
                lang,
                "market-source-paper",
                &[("name", name), ("kind", &venue.kind)],
            ),
            simulated: true,
            sim_clock: true,
            reach: Reach::Local,
        }
    };
    Ok(source)
}

/// The source `prefer` picks, or the simulated market when the store cannot be read.
pub async fn for_user_or_sim(
    store: &Arc<Store>,
    user: &str,
    prefer: Prefer,
    lang: Lang,
) -> DataSource {
    for_user(store, user, prefer, lang)
        .await
        .unwrap_or_else(|_| simulated(lang))
}
