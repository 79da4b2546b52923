//! A trader's money as the chat states it: equity, P&L, margin and open positions, each block
//! headed by where its figures come from. The account the trader really trades is read now
//! (its paper sub-account, or the live account); only when it cannot be read do the figures
//! come from the last cycle's record, and the reply says so and why.

use std::fmt::Write as _;
use std::sync::Arc;

use nofxi_domain::Trader;
use nofxi_domain::trading::{AccountSnapshot, Position};
use nofxi_skills::Lang;
use nofxi_store::Store;
use nofxi_trader::cycle::CycleRecord;
use nofxi_trader::runtime::baseline::{PnlBasis, pnl_basis, trades_paper};
use nofxi_trader::runtime::view::{AccountSource, trader_account};

use crate::compose::facts::{time, time_on};

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
            let source = match (&view.source, zh) {
                (AccountSource::PaperSubAccount, false) if view.simulated => {
                    format!("from its paper sub-account, at {at}")
                }
                (AccountSource::PaperSubAccount, true) if view.simulated => {
                    format!("来自它的模拟子账户，{at}")
                }
                (AccountSource::PaperSubAccount, false) => {
                    format!("from its paper sub-account, now ({at})")
                }
                (AccountSource::PaperSubAccount, true) => {
                    format!("来自它的模拟子账户，当前（{at}）")
                }
                (AccountSource::Live { kind }, false) => {
                    format!("from the {kind} account, now ({at})")
                }
                (AccountSource::Live { kind }, true) => {
                    format!("来自 {kind} 账户，当前（{at}）")
                }
            };
            write_account(&mut out, zh, &source, basis.as_ref(), &view.account);
            write_positions(&mut out, zh, &view.positions);
            return (out, true);
        }
        // A paper trader that never started has no sub-account: the journal is all there is.
        Ok(None) => None,
        Err(e) => Some(e.to_string()),
    };
    let Some(c) = latest else {
        let _ = match (&unreadable, zh) {
            (Some(e), false) => writeln!(
                out,
                "Its account could not be read ({e}), and no cycle has run yet: no equity or position on record."
            ),
            (Some(e), true) => writeln!(
                out,
                "读取不到它的账户（{e}），也还没有完成过周期，暂无权益和持仓记录。"
            ),
            (None, false) => writeln!(
                out,
                "No cycle has run yet, so there is no equity or position on record."
            ),
            (None, true) => writeln!(out, "还没有完成过一个周期，暂无权益和持仓记录。"),
        };
        return (out, false);
    };
    if let Some(e) = &unreadable {
        let _ = if zh {
            writeln!(out, "现在读取不到它的账户（{e}），以下是上一个周期的记录：")
        } else {
            writeln!(
                out,
                "Its account cannot be read now ({e}); these are the last cycle's records:"
            )
        };
    }
    let source = if zh {
        format!(
            "第 {} 个周期的记录，{}",
            c.cycle_number,
            time_on(c.started_ms, c.simulated, zh)
        )
    } else {
        format!(
            "as of cycle #{}, {}",
            c.cycle_number,
            time_on(c.started_ms, c.simulated, zh)
        )
    };
    if let Some(account) = c.account_after.as_ref().or(c.account_before.as_ref()) {
        write_account(&mut out, zh, &source, basis.as_ref(), account);
    }
    write_positions(&mut out, zh, &c.positions_after);
    (out, false)
}

/// `source` says where the figures come from; `basis` what P&L is measured against.
fn write_account(
    out: &mut String,
    zh: bool,
    source: &str,
    basis: Option<&PnlBasis>,
    a: &AccountSnapshot,
) {
    let (equity, margin, available) = (
        a.equity.round_dp(2),
        a.margin_used.round_dp(2),
        a.available.round_dp(2),
    );
    let pnl = match basis {
        Some(basis) => {
            let (pnl, pct) = basis.pnl(a.equity);
            let pnl = pnl.round_dp(2);
            let since = since_words(zh, basis);
            if zh {
                format!("{since}盈亏 {pnl} USDT（{pct}%）")
            } else {
                format!("P&L {pnl} USDT ({pct}%) {since}")
            }
        }
        None if zh => "盈亏未知（没有它启动时的权益记录）".to_string(),
        None => "P&L unknown (no equity recorded at its start)".to_string(),
    };
    let _ = if zh {
        writeln!(
            out,
            "［{source}］权益 {equity} USDT，{pnl}，已用保证金 {margin} USDT，可用 {available} USDT"
        )
    } else {
        writeln!(
            out,
            "[{source}] equity {equity} USDT, {pnl}, margin used {margin} USDT, available {available} USDT"
        )
    };
}

/// What the P&L is measured from, as a phrase: the user should know the basis of the number.
fn since_words(zh: bool, basis: &PnlBasis) -> String {
    let base = basis.equity().round_dp(2);
    match (basis, zh) {
        (PnlBasis::FirstStart(b), false) => {
            format!(
                "since its first start ({base} USDT on {})",
                time(b.recorded_ms)
            )
        }
        (PnlBasis::FirstStart(b), true) => {
            format!("自首次启动（{}，{base} USDT）以来", time(b.recorded_ms))
        }
        (PnlBasis::FirstCycle { at_ms, .. }, false) => {
            format!("since its first cycle ({base} USDT on {})", time(*at_ms))
        }
        (PnlBasis::FirstCycle { at_ms, .. }, true) => {
            format!("自首个周期（{}，{base} USDT）以来", time(*at_ms))
        }
        (PnlBasis::InitialBalance(_), false) => format!("against its initial balance {base}"),
        (PnlBasis::InitialBalance(_), true) => format!("相对初始资金 {base} "),
    }
}

fn write_positions(out: &mut String, zh: bool, positions: &[Position]) {
    if positions.is_empty() {
        out.push_str(if zh {
            "没有持仓。\n"
        } else {
            "No open positions.\n"
        });
    }
    for p in positions {
        let side = p.side.as_str().to_lowercase();
        let (symbol, quantity, entry) = (p.symbol.as_str(), p.quantity, p.entry_price);
        let (mark, upnl) = (p.mark_price, p.unrealized_pnl.round_dp(2));
        let _ = if zh {
            writeln!(
                out,
                "持仓 {symbol} {side} {quantity}，开仓价 {entry}，标记价 {mark}，未实现盈亏 {upnl} USDT"
            )
        } else {
            writeln!(
                out,
                "position {symbol} {side} {quantity} at {entry}, mark {mark}, unrealized {upnl} USDT"
            )
        };
    }
}
