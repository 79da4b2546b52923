//! The checks of "why do the balance, positions or P&L look wrong", read from the journal's
//! account lines and positions: an initial balance that is not what the account held, a
//! position that closed on the exchange between cycles (a stop that filled), one that came
//! from outside nofxi, and — when none of those — the P&L split into its parts.

use nofxi_domain::trading::Position;
use nofxi_skills::Lang;
use nofxi_trader::cycle::CycleRecord;
use rust_decimal::Decimal;

use super::{Facts, Finding};
use crate::compose::facts::time_on;
use crate::msg;

/// How far the account's first equity may be from the initial balance before P&L measured
/// against it is wrong: 1 %, above fees and price moves inside the first cycle.
const BASELINE_TOLERANCE: Decimal = Decimal::from_parts(1, 0, 0, false, 2);

fn plain(d: Decimal) -> String {
    d.round_dp(2).normalize().to_string()
}

/// P&L is measured from an initial balance the account did not hold at the first cycle.
pub fn baseline(lang: Lang, f: &Facts) -> Option<Finding> {
    let first = f.first.as_ref()?;
    let held = first.account_before.as_ref()?.equity;
    let set = f.trader.spec.initial_balance;
    if set.is_zero() || ((held - set) / set).abs() <= BASELINE_TOLERANCE {
        return None;
    }
    let when = time_on(first.started_ms, first.simulated, lang == Lang::Zh);
    let args = vec![
        f.name(),
        ("set", plain(set)),
        ("held", plain(held)),
        ("when", when),
    ];
    let request = msg(
        lang,
        "diagnose-request-initial-balance",
        &[("name", &f.trader.spec.name), ("value", &plain(held))],
    );
    Some(Finding::new("baseline", args).offering(request))
}

/// The journal's cycles oldest first, each paired with the one after it.
fn pairs(f: &Facts) -> Vec<(&CycleRecord, &CycleRecord)> {
    let mut cycles: Vec<_> = f.cycles.iter().collect();
    cycles.sort_by_key(|c| c.cycle_number);
    cycles.windows(2).map(|w| (w[0], w[1])).collect()
}

fn holds(positions: &[Position], p: &Position) -> bool {
    positions
        .iter()
        .any(|q| q.symbol == p.symbol && q.side == p.side)
}

/// Whether the cycle sent an order of `what` (the journal's "open" or "close") for `p`'s
/// symbol.
fn sent(c: &CycleRecord, p: &Position, what: &str) -> bool {
    let symbol = p.symbol.to_string();
    c.executions
        .iter()
        .any(|e| e.symbol == symbol && e.what == what)
}

/// A position one cycle held that the next did not, with no close sent: it closed on the
/// exchange between cycles — a stop-loss or take-profit that filled, or a close by hand.
pub fn closed_between(lang: Lang, f: &Facts) -> Option<Finding> {
    let (before, after, gone) = pairs(f).into_iter().rev().find_map(|(a, b)| {
        let gone = a
            .positions_after
            .iter()
            .find(|p| !holds(&b.positions_after, p) && !sent(b, p, "close"))?;
        Some((a, b, gone))
    })?;
    let zh = lang == Lang::Zh;
    let args = vec![
        f.name(),
        ("symbol", gone.symbol.to_string()),
        ("side", super::side_word(lang, &gone.side.to_string())),
        ("quantity", gone.quantity.normalize().to_string()),
        ("entry", plain(gone.entry_price)),
        ("from", time_on(before.started_ms, before.simulated, zh)),
        ("to", time_on(after.started_ms, after.simulated, zh)),
    ];
    Some(Finding::new("closed-between", args))
}

/// A position that appeared between two cycles with no open sent: opened outside nofxi.
pub fn outside_positions(lang: Lang, f: &Facts) -> Option<Finding> {
    let (after, came) = pairs(f).into_iter().rev().find_map(|(a, b)| {
        let came = b
            .positions_after
            .iter()
            .find(|p| !holds(&a.positions_after, p) && !sent(b, p, "open"))?;
        Some((b, came))
    })?;
    let args = vec![
        f.name(),
        ("symbol", came.symbol.to_string()),
        ("side", super::side_word(lang, &came.side.to_string())),
        ("quantity", came.quantity.normalize().to_string()),
        (
            "when",
            time_on(after.started_ms, after.simulated, lang == Lang::Zh),
        ),
    ];
    Some(Finding::new("outside-position", args))
}

/// The P&L split into its parts: what closed trades, fees and funding left in the wallet,
/// and what open positions would add if closed at the mark price.
pub fn breakdown(f: &Facts) -> Option<Finding> {
    let newest = f.newest()?;
    let account = newest
        .account_after
        .as_ref()
        .or(newest.account_before.as_ref())?;
    let initial = f.trader.spec.initial_balance;
    let args = vec![
        f.name(),
        ("equity", plain(account.equity)),
        ("initial", plain(initial)),
        ("pnl", plain(account.equity - initial)),
        ("realized", plain(account.wallet_balance - initial)),
        ("unrealized", plain(account.unrealized_pnl)),
        ("positions", newest.positions_after.len().to_string()),
    ];
    Some(Finding::new("breakdown", args))
}
