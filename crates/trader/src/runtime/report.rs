//! A trader's and an account's figures as every reader outside the engine reports them (`nofxi
//! trader stats`, `nofxi exchange balance|positions`, the chat's "btc-bot 的收益", "balance of
//! paper"): one computation, so the CLI and the chat never disagree.

use std::collections::BTreeSet;
use std::sync::Arc;

use nofxi_domain::Trader;
use nofxi_domain::market::Symbol;
use nofxi_domain::trading::{AccountSnapshot, Fill, FundingPayment};
use nofxi_store::Store;
use rust_decimal::Decimal;

use super::baseline::{PnlBasis, pnl_basis};
use super::connect::{ConnectError, PaperAccount, Venue};
use super::view::{has_paper_sub_account, open_view};
use crate::cycle::CycleRecord;
use crate::stats::{Stats, compute};
use crate::trades::{ClosedTrade, closed_trades, trade_pnls};

/// How many journalled cycles are searched for the symbols a trader traded.
const JOURNAL_SYMBOL_CYCLES: i64 = 1_000;

/// A trader's performance: closed trades, fees and drawdown from its account's fills and its
/// equity curve, funding from what its account booked, P&L from its own start (see
/// `baseline`); the basis is the equity P&L is measured from, for a percentage (none when
/// unknown).
pub async fn trader_stats(
    store: &Arc<Store>,
    user: &str,
    trader: &Trader,
) -> Result<(Stats, Option<PnlBasis>), ConnectError> {
    let curve = store.equity_curve(user, &trader.id).await?;
    let venue = trader_venue(store, user, trader).await?;
    let (fills, funding) = account_fills(store, user, trader, &venue).await?;
    let total_fee: Decimal = fills.iter().map(|f| f.fee).sum();
    let per_year = 365.0 * 24.0 * 60.0 / trader.spec.scan_interval_minutes.max(1) as f64;
    let trades = closed_trades(&fills, funding.as_deref());
    let mut stats = compute(
        &trade_pnls(&trades),
        total_fee,
        curve.iter().map(|(_, e)| *e),
        per_year,
    );
    if let Some(funding) = funding {
        stats.total_funding = funding.iter().map(|f| f.amount).sum();
    }
    // P&L is the account's equity now against the basis, as the trader's detail and the
    // total P&L say it: the last journalled cycle's equity is older by up to a cycle. Its
    // realized and unrealized parts come from the same reading of the account, so they add
    // up to it; an account that cannot be read now gives the newest cycle's.
    let basis = pnl_basis(store, user, trader, venue.is_paper()).await;
    let now = match venue.exchange.account().await {
        Ok(account) => {
            let open = venue.exchange.positions().await.ok().map(|p| p.len());
            Some((account, open))
        }
        Err(_) => newest_account(store, user, trader).await,
    };
    match (&basis, now) {
        (Some(basis), Some((account, open))) => {
            stats.total_pnl = basis.pnl(account.equity).0;
            let (realized, unrealized) = basis.split(&account);
            stats.realized_pnl = Some(realized);
            stats.unrealized_pnl = Some(unrealized);
            stats.open_positions = open;
        }
        (Some(basis), None) => {
            if let Some((_, last)) = curve.last() {
                stats.total_pnl = basis.pnl(*last).0;
            }
        }
        (None, _) => {}
    }
    Ok((stats, basis))
}

/// The account and open positions of the trader's newest journalled cycle, if any.
async fn newest_account(
    store: &Arc<Store>,
    user: &str,
    trader: &Trader,
) -> Option<(AccountSnapshot, Option<usize>)> {
    let row = store
        .cycles(user, &trader.id, 1, None)
        .await
        .ok()?
        .into_iter()
        .next()?;
    let record = serde_json::from_value::<CycleRecord>(row.record).ok()?;
    let open = record.positions_after.len();
    let account = record.account_after.or(record.account_before)?;
    Some((account, Some(open)))
}

/// A trader's closed trades, oldest first: the trades its stats count (see
/// [`crate::trades`]), from its account's fills and the funding it booked.
pub async fn trader_trades(
    store: &Arc<Store>,
    user: &str,
    trader: &Trader,
) -> Result<Vec<ClosedTrade>, ConnectError> {
    let venue = trader_venue(store, user, trader).await?;
    let (fills, funding) = account_fills(store, user, trader, &venue).await?;
    Ok(closed_trades(&fills, funding.as_deref()))
}

/// The account `trader` trades, opened for reading.
async fn trader_venue(
    store: &Arc<Store>,
    user: &str,
    trader: &Trader,
) -> Result<Venue, ConnectError> {
    let account = PaperAccount::Trader {
        trader_id: trader.id.clone(),
        initial_balance: trader.spec.initial_balance,
    };
    open_view(store.clone(), user, &trader.spec.exchange_id, account).await
}

/// The fills of every symbol the trader traded, in time order, and the funding its account
/// booked (`None` where the account books none).
async fn account_fills(
    store: &Arc<Store>,
    user: &str,
    trader: &Trader,
    venue: &Venue,
) -> Result<(Vec<Fill>, Option<Vec<FundingPayment>>), ConnectError> {
    let mut fills = Vec::new();
    for symbol in &traded_symbols(store, user, trader, venue).await? {
        fills.extend(venue.exchange.fills(symbol, None).await?);
    }
    fills.sort_by_key(|f| f.time_ms);
    let funding = venue.exchange.funding_payments(None).await?;
    Ok((fills, funding))
}

/// Fills are read per symbol: the strategy's coins, held positions, and whatever the journal
/// shows was traded.
async fn traded_symbols(
    store: &Arc<Store>,
    user: &str,
    trader: &Trader,
    venue: &Venue,
) -> Result<BTreeSet<Symbol>, ConnectError> {
    let strategy = store.get_strategy(user, &trader.spec.strategy_id).await?;
    let mut symbols: BTreeSet<Symbol> = strategy
        .spec
        .config
        .coin_source
        .static_coins
        .iter()
        .filter_map(|c| Symbol::parse(c).ok())
        .collect();
    symbols.extend(
        venue
            .exchange
            .positions()
            .await?
            .into_iter()
            .map(|p| p.symbol),
    );
    for row in store
        .cycles(user, &trader.id, JOURNAL_SYMBOL_CYCLES, None)
        .await?
    {
        if let Ok(c) = serde_json::from_value::<CycleRecord>(row.record) {
            symbols.extend(
                c.executions
                    .iter()
                    .filter_map(|e| Symbol::parse(&e.symbol).ok()),
            );
        }
    }
    Ok(symbols)
}

/// A paper account's traders each trade a sub-account of their own (funded with the trader's
/// initial balance, keyed `<exchange id>:<trader id>`): those are the figures that move, not
/// the account's own untouched wallet. Every trader of the account with a sub-account, opened
/// for reading; empty for a live account or a paper account no trader has started on.
pub async fn paper_sub_accounts(
    store: &Arc<Store>,
    user: &str,
    exchange_ref: &str,
) -> Result<Vec<(Trader, Venue)>, ConnectError> {
    let config = store.get_exchange(user, exchange_ref).await?;
    if config.spec.exchange_type != "paper" {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for trader in store.list_traders(user, false).await? {
        if trader.spec.exchange_id != config.id
            || !has_paper_sub_account(store, user, &config.id, &trader.id).await?
        {
            continue;
        }
        let account = PaperAccount::Trader {
            trader_id: trader.id.clone(),
            initial_balance: trader.spec.initial_balance,
        };
        let venue = open_view(store.clone(), user, &config.id, account).await?;
        out.push((trader, venue));
    }
    Ok(out)
}
