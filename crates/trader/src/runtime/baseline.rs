//! Where a trader's P&L is measured from: its own start, never the default initial balance.
//! A live trader on an account holding 12 400 USDT has made nothing by starting, yet equity
//! against the 10 000 default read +24 %.
//!
//! The baseline is the trader's account equity when it first started — for a paper trader its
//! sub-account's initial balance, which is what the sub-account held then — recorded once by
//! preflight (every start passes it: `trader start`, the chat, the engine) in a state document
//! of its own. A document rather than the journal's first cycle: it exists from the start on,
//! before any cycle ran; it survives restarts (later starts find it and keep it), and it does
//! not depend on the journal's oldest rows being kept. It names the exchange account it was
//! taken on: a trader moved to another account starts a new baseline there.
//!
//! Traders started before baselines were recorded fall back to the first journalled equity
//! (live) or the initial balance (paper), and say which.

use nofxi_domain::Trader;
use nofxi_domain::trading::AccountSnapshot;
use nofxi_store::{Store, StoreError};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

pub const BASELINE_SCOPE: &str = "trader_baseline";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Baseline {
    pub equity: Decimal,
    pub exchange_id: String,
    pub recorded_ms: i64,
}

/// What a trader's P&L is measured against, and how that was found.
#[derive(Debug, Clone, PartialEq)]
pub enum PnlBasis {
    /// The equity recorded at the trader's first start.
    FirstStart(Baseline),
    /// No baseline recorded (started before they were): the first journalled equity.
    FirstCycle { equity: Decimal, at_ms: i64 },
    /// A paper trader without a baseline: the initial balance its sub-account was funded with.
    InitialBalance(Decimal),
}

impl PnlBasis {
    pub fn equity(&self) -> Decimal {
        match self {
            PnlBasis::FirstStart(b) => b.equity,
            PnlBasis::FirstCycle { equity, .. } => *equity,
            PnlBasis::InitialBalance(e) => *e,
        }
    }

    /// How the basis was found, as the API names it: `first_start`, `first_cycle` or
    /// `initial_balance`.
    pub fn kind(&self) -> &'static str {
        match self {
            PnlBasis::FirstStart(_) => "first_start",
            PnlBasis::FirstCycle { .. } => "first_cycle",
            PnlBasis::InitialBalance(_) => "initial_balance",
        }
    }

    /// When the basis equity was taken (epoch ms), where known.
    pub fn at_ms(&self) -> Option<i64> {
        match self {
            PnlBasis::FirstStart(b) => Some(b.recorded_ms),
            PnlBasis::FirstCycle { at_ms, .. } => Some(*at_ms),
            PnlBasis::InitialBalance(_) => None,
        }
    }

    /// `account`'s P&L against the basis in its two parts, `(realized, unrealized)`: what
    /// closed trades, fees and funding left in the wallet (wallet balance − basis), and what
    /// the open positions would add closed at the mark price (the account's unrealized P&L).
    /// They add up to `pnl(account.equity)`, the account's equity being wallet + unrealized.
    pub fn split(&self, account: &AccountSnapshot) -> (Decimal, Decimal) {
        (
            account.wallet_balance - self.equity(),
            account.unrealized_pnl,
        )
    }

    /// P&L of `equity` against the basis, and in percent of it (two places).
    pub fn pnl(&self, equity: Decimal) -> (Decimal, Decimal) {
        let base = self.equity();
        let pnl = equity - base;
        let pct = if base.is_zero() {
            Decimal::ZERO
        } else {
            (pnl / base * Decimal::ONE_HUNDRED).round_dp(2)
        };
        (pnl, pct)
    }
}

pub async fn load(
    store: &Store,
    user: &str,
    trader_id: &str,
) -> Result<Option<Baseline>, StoreError> {
    let doc = store.get_state(user, BASELINE_SCOPE, trader_id).await?;
    Ok(doc.and_then(|v| serde_json::from_value(v).ok()))
}

/// Keeps the baseline of `trader`'s first start on its current account; `equity` is the
/// account's equity now, used for a live account (a paper trader's is its initial balance).
/// A baseline already recorded on the same account is kept as it is.
pub async fn record_first_start(
    store: &Store,
    user: &str,
    trader: &Trader,
    paper: bool,
    equity: Decimal,
) -> Result<Baseline, StoreError> {
    if let Some(kept) = load(store, user, &trader.id).await?
        && kept.exchange_id == trader.spec.exchange_id
    {
        return Ok(kept);
    }
    let baseline = Baseline {
        equity: if paper {
            trader.spec.initial_balance
        } else {
            equity
        },
        exchange_id: trader.spec.exchange_id.clone(),
        recorded_ms: store.now_ms(),
    };
    let value = serde_json::to_value(&baseline).map_err(|e| StoreError::Corrupt {
        what: "trader baseline",
        detail: e.to_string(),
    })?;
    store
        .put_state(user, BASELINE_SCOPE, &trader.id, &value)
        .await?;
    Ok(baseline)
}

/// The basis of `trader`'s P&L; `None` for a live trader that never started nor journalled
/// a cycle (nothing says what it started from).
pub async fn pnl_basis(
    store: &Store,
    user: &str,
    trader: &Trader,
    paper: bool,
) -> Option<PnlBasis> {
    if let Ok(Some(b)) = load(store, user, &trader.id).await
        && b.exchange_id == trader.spec.exchange_id
    {
        return Some(PnlBasis::FirstStart(b));
    }
    if paper {
        return Some(PnlBasis::InitialBalance(trader.spec.initial_balance));
    }
    let curve = store.equity_curve(user, &trader.id).await.ok()?;
    curve.first().map(|(at_ms, equity)| PnlBasis::FirstCycle {
        equity: *equity,
        at_ms: *at_ms,
    })
}

/// Whether `trader` trades a paper account (its P&L basis depends on it).
pub async fn trades_paper(store: &Store, user: &str, trader: &Trader) -> bool {
    store
        .get_exchange(user, &trader.spec.exchange_id)
        .await
        .is_ok_and(|e| !super::connect::is_live(&e))
}
