//! Where market data comes from, and what a reply calls it: the user's own account's market
//! (a live venue, or a paper account's simulated market or the venue whose live prices it
//! follows), or a source named outright (`simulated`, `binance`, `okx`, `bybit`,
//! `hyperliquid`, `bitget`: the choices a paper account's `--market` has, and Bitget's public
//! data beside them). A simulated source is always labelled so.

use std::sync::Arc;

use nofxi_domain::{Exchange, MarketSource};
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
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// The market a request reads, and the one to fall back on when it cannot answer.
pub struct Chosen {
    pub source: DataSource,
    /// The paper account's market (or nofxi's simulated one) behind the user's own live
    /// venue; `None` for a market named outright or one that is local already.
    pub fallback: Option<DataSource>,
}

/// The market `said` names (an account of the user's, or a source: see [`said_by_user`]),
/// else the user's own ([`for_user`], live first) with its local fallback.
pub async fn for_request(
    store: &Arc<Store>,
    user: &str,
    said: Option<&str>,
    lang: Lang,
) -> Result<Chosen, SourceError> {
    if let Some(said) = said.map(str::trim).filter(|s| !s.is_empty()) {
        let source = said_by_user(store, user, said, lang)
            .await?
            .ok_or_else(|| SourceError::Unknown(said.to_string()))?;
        return Ok(Chosen {
            source,
            fallback: None,
        });
    }
    let source = for_user(store, user, Prefer::Live, lang).await?;
    let fallback = match source.reach {
        Reach::Remote => Some(local_fallback(store, user, lang).await),
        Reach::Local => None,
    };
    Ok(Chosen { source, fallback })
}

/// What answers when the user's own venue cannot: a paper account's simulated market, else
/// nofxi's own, said as offline (never "no account yet": the user may have a live one), and
/// never another venue (a paper account on live prices cannot answer offline either).
async fn local_fallback(store: &Arc<Store>, user: &str, lang: Lang) -> DataSource {
    match for_user(store, user, Prefer::Local, lang).await {
        Ok(local) if local.reach == Reach::Local => local,
        _ => simulated_offline(sim_seed(), lang),
    }
}

/// The names a market-data source goes by when said outright ([`named`] takes each).
pub fn source_names() -> impl Iterator<Item = &'static str> {
    ["sim", SIMULATED].into_iter().chain(PUBLIC_MARKETS)
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

/// The user's live account's market when one is enabled and `prefer` is live (the one a
/// running trader uses first: the market their money is on), else their paper account's,
/// else the simulated market on the wall clock.
pub async fn for_user(
    store: &Arc<Store>,
    user: &str,
    prefer: Prefer,
    lang: Lang,
) -> Result<DataSource, StoreError> {
    let exchanges = store.list_exchanges(user, false).await?;
    let enabled: Vec<&Exchange> = exchanges.iter().filter(|e| e.spec.enabled).collect();
    let chosen = match prefer {
        Prefer::Live => {
            let traders = store.list_traders(user, false).await?;
            let traded = |e: &&&Exchange| {
                traders
                    .iter()
                    .any(|t| t.is_running && t.spec.exchange_id == e.id)
            };
            let live = || enabled.iter().filter(|e| is_live(e));
            live()
                .find(traded)
                .or_else(|| live().next())
                .or_else(|| enabled.first())
                .copied()
        }
        // A paper account on the simulated market: one on a venue's prices is remote.
        Prefer::Local => enabled
            .iter()
            .find(|e| !is_live(e) && e.market.venue().is_none())
            .copied(),
    };
    Ok(match (chosen, prefer) {
        (Some(config), _) => of_account(store, user, config, lang).await,
        (None, Prefer::Live) => simulated(lang),
        // Accounts there may be, only none on the simulated market: "offline", not "no
        // account yet".
        (None, Prefer::Local) => simulated_offline(sim_seed(), lang),
    })
}

/// The market `said` names: one of the user's accounts by its name, else a source named
/// outright ([`named`]); `None` when neither is.
pub async fn said_by_user(
    store: &Arc<Store>,
    user: &str,
    said: &str,
    lang: Lang,
) -> Result<Option<DataSource>, StoreError> {
    let wanted = said.trim();
    let exchanges = store.list_exchanges(user, false).await?;
    if let Some(config) = exchanges
        .iter()
        .find(|e| e.spec.account_name.eq_ignore_ascii_case(wanted))
    {
        return Ok(Some(of_account(store, user, config, lang).await));
    }
    Ok(named(wanted, sim_seed(), lang).ok())
}

/// The market of the account `config`: its live venue, the venue a paper account follows, or
/// the paper account's simulated market; the simulated market when it cannot be opened.
async fn of_account(store: &Arc<Store>, user: &str, config: &Exchange, lang: Lang) -> DataSource {
    let Ok(venue) = open_view(store.clone(), user, &config.id, PaperAccount::Exchange).await else {
        return simulated(lang);
    };
    let c = Catalog::builtin();
    let name = &config.spec.account_name;
    if !venue.is_paper() {
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
    }
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
