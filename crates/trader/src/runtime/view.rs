//! A trader's account as it is read from outside the engine ("how's alpha doing", `nofxi
//! exchange balance|positions`, `nofxi trader stats`): the venue account the trader really
//! trades — its paper sub-account, or the live account — opened so that reading changes nothing.
//!
//! Two things set a paper reader apart from the engine. The clock: a paper account lives on
//! the engine's timeline (fast-forwarded by `nofxi run --sim-speed`); read at the wall clock it
//! is marked at another moment's prices and its stops fire at them — a read once closed a
//! short that way. And persistence: the engine holds the account in memory and saves it after
//! each change, so a reader that saved would race those saves. A reader therefore reads at the
//! engine's timeline and never saves. A live account has one clock, the wall clock (its
//! requests are signed with it), and nothing of it is kept here.

use std::sync::Arc;

use nofxi_domain::Trader;
use nofxi_domain::exchange::Exchange as ExchangeConfig;
use nofxi_domain::trading::{AccountSnapshot, Position};
use nofxi_store::Store;
use nofxi_venues::{Clock, SystemClock};

use super::connect::{
    ConnectError, PAPER_SCOPE, PaperAccount, Persistence, Venue, connect_with, is_live,
};
use super::pace::paper_reading_clock;

/// The clock an account is read and traded at outside the engine: a paper account's is the
/// timeline `nofxi run --sim-speed` keeps (where it stopped, when no engine runs; the wall
/// clock when there is none), a live account's the wall clock.
pub async fn account_clock(store: &Store, exchange: &ExchangeConfig) -> Arc<dyn Clock> {
    if is_live(exchange) {
        return Arc::new(SystemClock);
    }
    paper_reading_clock(store).await
}

/// An exchange account's venue for reading only (see the module's note on why).
pub async fn open_view(
    store: Arc<Store>,
    user: &str,
    exchange_ref: &str,
    account: PaperAccount,
) -> Result<Venue, ConnectError> {
    let config = store.get_exchange(user, exchange_ref).await?;
    let clock = account_clock(&store, &config).await;
    connect_with(
        store,
        user,
        &config.id,
        account,
        clock,
        Persistence::ReadOnly,
    )
    .await
}

/// Which account the figures of an [`AccountView`] come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AccountSource {
    /// The trader's own paper sub-account (`<exchange id>:<trader id>`).
    PaperSubAccount,
    /// The live exchange account the trader trades; `kind` is `binance`, `binance-testnet`.
    Live { kind: String },
}

/// A trader's account read now.
#[derive(Debug, Clone)]
pub struct AccountView {
    pub source: AccountSource,
    pub account: AccountSnapshot,
    pub positions: Vec<Position>,
    /// When it was read, on the account's clock (the timeline for paper).
    pub at_ms: i64,
    /// `at_ms` is a simulated timeline's time, not the wall clock's.
    pub simulated: bool,
}

/// Whether the trader's paper sub-account was ever opened (its first start opens it).
pub async fn has_paper_sub_account(
    store: &Store,
    user: &str,
    exchange_id: &str,
    trader_id: &str,
) -> Result<bool, ConnectError> {
    let key = format!("{exchange_id}:{trader_id}");
    Ok(store.get_state(user, PAPER_SCOPE, &key).await?.is_some())
}

/// The account `trader` trades, read now; `None` for a paper trader whose sub-account does
/// not exist yet (it never started: there is nothing to read, and opening one would invent
/// its figures).
pub async fn trader_account(
    store: Arc<Store>,
    user: &str,
    trader: &Trader,
) -> Result<Option<AccountView>, ConnectError> {
    let config = store.get_exchange(user, &trader.spec.exchange_id).await?;
    let source = if is_live(&config) {
        AccountSource::Live {
            kind: match config.spec.testnet {
                true => format!("{}-testnet", config.spec.exchange_type),
                false => config.spec.exchange_type.clone(),
            },
        }
    } else {
        if !has_paper_sub_account(&store, user, &config.id, &trader.id).await? {
            return Ok(None);
        }
        AccountSource::PaperSubAccount
    };
    let clock = account_clock(&store, &config).await;
    let account = PaperAccount::Trader {
        trader_id: trader.id.clone(),
        initial_balance: trader.spec.initial_balance,
    };
    let venue = connect_with(
        store,
        user,
        &config.id,
        account,
        clock.clone(),
        Persistence::ReadOnly,
    )
    .await?;
    let (account, positions) = venue.exchange.account_and_positions().await?;
    Ok(Some(AccountView {
        source,
        account,
        positions,
        at_ms: clock.now_ms(),
        simulated: clock.simulated(),
    }))
}
