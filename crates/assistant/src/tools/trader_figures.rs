//! A trader's money as the chat states it: equity, P&L, margin and open positions, each block
//! headed by where its figures come from. The account the trader really trades is read now
//! (its paper sub-account, or the live account); only when it cannot be read do the figures
//! come from the last cycle's record, and the reply says so and why.

use std::sync::Arc;

use nofxi_domain::Trader;
use nofxi_domain::trading::{AccountSnapshot, Position};
use nofxi_skills::Lang;
use nofxi_store::Store;
use nofxi_trader::cycle::CycleRecord;
use nofxi_trader::runtime::baseline::{PnlBasis, pnl_basis, trades_paper};
use nofxi_trader::runtime::view::{AccountSource, trader_account};

use crate::compose::facts::{time, time_on};
use crate::msg;

/// The account block of a trader's detail; `latest` is the newest journalled cycle, if any.
/// The flag says whether the figures were read from the account now.
pub async fn account_block(
    store: &Arc<Store>,
    user: &str,
    lang: Lang,
    t: &Trader,
    latest: Option<&CycleRecord>,
) -> (String, bool) {
    let zh = lang == Lang::Zh;
    let mut out = String::new();
    let paper = trades_paper(store, user, t).await;
    let basis = pnl_basis(store, user, t, paper).await;
    let unreadable = match trader_account(store.clone(), user, t).await {
        Ok(Some(view)) => {
            let at = time_on(view.at_ms, view.simulated, zh);
            let source = match &view.source {
                AccountSource::PaperSubAccount if view.simulated => {
                    msg(lang, "figures-from-paper-simulated", &[("time", &at)])
                }
                AccountSource::PaperSubAccount => msg(lang, "figures-from-paper", &[("time", &at)]),
                AccountSource::Live { kind } => {
                    msg(lang, "figures-from-live", &[("kind", kind), ("time", &at)])
                }
            };
            write_account(&mut out, lang, &source, basis.as_ref(), &view.account);
            write_positions(&mut out, lang, &view.positions);
            return (out, true);
        }
        // A paper trader that never started has no sub-account: the journal is all there is.
        Ok(None) => None,
        Err(e) => Some(e.to_string()),
    };
    let Some(c) = latest else {
        let line = match &unreadable {
            Some(e) => msg(lang, "figures-unreadable-no-cycle", &[("error", e)]),
            None => msg(lang, "figures-no-cycle", &[]),
        };
        out.push_str(&line);
        out.push('\n');
        return (out, false);
    };
    if let Some(e) = &unreadable {
        out.push_str(&msg(lang, "figures-unreadable", &[("error", e)]));
        out.push('\n');
    }
    let source = msg(
        lang,
        "figures-from-cycle",
        &[
            ("cycle", &c.cycle_number.to_string()),
            ("time", &time_on(c.started_ms, c.simulated, zh)),
        ],
    );
    if let Some(account) = c.account_after.as_ref().or(c.account_before.as_ref()) {
        write_account(&mut out, lang, &source, basis.as_ref(), account);
    }
    write_positions(&mut out, lang, &c.positions_after);
    (out, false)
}

/// `source` says where the figures come from; `basis` what P&L is measured against.
fn write_account(
    out: &mut String,
    lang: Lang,
    source: &str,
    basis: Option<&PnlBasis>,
    a: &AccountSnapshot,
) {
    let pnl = match basis {
        Some(basis) => {
            let (pnl, pct) = basis.pnl(a.equity);
            msg(
                lang,
                "figures-pnl",
                &[
                    ("pnl", &pnl.round_dp(2).to_string()),
                    ("pct", &pct.to_string()),
                    ("since", &since_words(lang, basis)),
                ],
            )
        }
        None => msg(lang, "figures-pnl-unknown", &[]),
    };
    out.push_str(&msg(
        lang,
        "figures-account",
        &[
            ("source", source),
            ("equity", &a.equity.round_dp(2).to_string()),
            ("pnl", &pnl),
            ("margin", &a.margin_used.round_dp(2).to_string()),
            ("available", &a.available.round_dp(2).to_string()),
        ],
    ));
    out.push('\n');
}

/// What the P&L is measured from, as a phrase: the user should know the basis of the number.
fn since_words(lang: Lang, basis: &PnlBasis) -> String {
    let base = basis.equity().round_dp(2).to_string();
    match basis {
        PnlBasis::FirstStart(b) => msg(
            lang,
            "figures-since-first-start",
            &[("base", &base), ("time", &time(b.recorded_ms))],
        ),
        PnlBasis::FirstCycle { at_ms, .. } => msg(
            lang,
            "figures-since-first-cycle",
            &[("base", &base), ("time", &time(*at_ms))],
        ),
        PnlBasis::InitialBalance(_) => {
            msg(lang, "figures-since-initial-balance", &[("base", &base)])
        }
    }
}

fn write_positions(out: &mut String, lang: Lang, positions: &[Position]) {
    if positions.is_empty() {
        out.push_str(&msg(lang, "figures-no-positions", &[]));
        out.push('\n');
    }
    for p in positions {
        out.push_str(&msg(
            lang,
            "figures-position",
            &[
                ("symbol", p.symbol.as_str()),
                ("side", &p.side.as_str().to_lowercase()),
                ("quantity", &p.quantity.to_string()),
                ("entry", &p.entry_price.to_string()),
                ("mark", &p.mark_price.to_string()),
                ("upnl", &p.unrealized_pnl.round_dp(2).to_string()),
            ],
        ));
        out.push('\n');
    }
}
