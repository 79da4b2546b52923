//! Read-only facts for an answer, each one block of text with its basis ("口径"): which
//! trader, which cycle or time, which source. Nothing here writes, and a number that is not
//! in the store is reported missing rather than filled in.

use std::fmt::Write as _;
use std::sync::Arc;

use nofxi_domain::market::Symbol;
use nofxi_domain::moment::{Precision, labelled};
use nofxi_domain::{Interval, indicators};
use nofxi_skills::{Lang, ResourceKind};
use nofxi_store::Store;
use nofxi_trader::cycle::CycleRecord;
use nofxi_trader::runtime::baseline::{PnlBasis, pnl_basis, trades_paper};
use nofxi_trader::runtime::connect::DEFAULT_SIM_SEED;
use nofxi_trader::stats::max_drawdown_pct;
use nofxi_venues::sim::SimMarket;
use nofxi_venues::{KlineQuery, MarketData, SystemClock};

use crate::nlu::names::Names;

/// One block of facts and how much it matters when the budget is tight (higher stays).
#[derive(Debug, Clone, PartialEq)]
pub struct Fact {
    pub label: String,
    pub text: String,
    pub priority: u8,
}

/// How many journal cycles a trader's block summarises.
const RECENT_CYCLES: i64 = 3;
/// Reasoning is quoted up to this many characters: enough to show the why.
const REASONING_CHARS: usize = 160;

/// One holding of the personal portfolio: units, cost, price with its date, P&L with their
/// basis, from that holding's records alone. What cannot be computed is said as missing.
pub async fn holding(store: &Store, user: &str, said: &str, lang: Lang) -> Option<Fact> {
    let args = crate::tools::portfolio_show_args(said);
    let text = match crate::tools::portfolio_answer(store, user, lang, &args).await {
        Ok(text) => text,
        Err(e) => format!("missing: {}", e.message),
    };
    Some(Fact {
        label: format!("holding {said}"),
        text,
        priority: 3,
    })
}

/// A trader's configuration, performance and latest journal entries.
pub async fn trader(store: &Store, user: &str, names: &Names, id: &str) -> Option<Fact> {
    let t = store.get_trader(user, id).await.ok()?;
    let name_of = |id: &str| {
        names
            .by_id(id)
            .map(|e| e.name.clone())
            .unwrap_or_else(|| "(missing)".into())
    };
    let exchange_type = names
        .by_id(&t.spec.exchange_id)
        .and_then(|e| e.class.clone())
        .unwrap_or_default();
    let mut text = format!(
        "{}: {}; exchange {} ({exchange_type}); model {}; strategy {}; initial balance {} USDT; scan every {} min\n",
        t.spec.name,
        if t.is_running { "running" } else { "stopped" },
        name_of(&t.spec.exchange_id),
        name_of(&t.spec.ai_model_id),
        name_of(&t.spec.strategy_id),
        t.spec.initial_balance,
        t.spec.scan_interval_minutes,
    );
    let curve = store.equity_curve(user, &t.id).await.unwrap_or_default();
    // P&L from the trader's own start (see `nofxi_trader::runtime::baseline`), never from
    // the default initial balance.
    let paper = trades_paper(store, user, &t).await;
    let basis = pnl_basis(store, user, &t, paper).await;
    match (curve.first(), curve.last()) {
        (Some((_, first)), Some((at, last))) => {
            let pnl = match &basis {
                Some(basis) => {
                    let (pnl, pct) = basis.pnl(*last);
                    format!(
                        "P&L {} ({pct}%) vs {} {} USDT",
                        pnl.round_dp(2),
                        basis_words(basis),
                        basis.equity().round_dp(2)
                    )
                }
                None => "P&L unknown (no equity recorded at its start)".into(),
            };
            let _ = writeln!(
                text,
                "equity {} USDT at {} (first recorded {}); {pnl}; max drawdown {}% over {} points [basis: cycle journal]",
                last.round_dp(2),
                time(*at),
                first.round_dp(2),
                max_drawdown_pct(curve.iter().map(|(_, e)| *e)).round_dp(2),
                curve.len()
            );
        }
        _ => text.push_str("no equity recorded yet (the trader has not completed a cycle)\n"),
    }
    let rows = store
        .cycles(user, &t.id, RECENT_CYCLES, None)
        .await
        .unwrap_or_default();
    if let Some(latest) = rows
        .first()
        .and_then(|r| serde_json::from_value::<CycleRecord>(r.record.clone()).ok())
    {
        write_positions(&mut text, &latest);
    }
    for row in &rows {
        let Ok(c) = serde_json::from_value::<CycleRecord>(row.record.clone()) else {
            continue;
        };
        let decisions: Vec<String> = c
            .decisions
            .iter()
            .map(|d| format!("{} {}", d.action, d.symbol))
            .collect();
        let reasoning: String = c.reasoning.chars().take(REASONING_CHARS).collect();
        let _ = writeln!(
            text,
            "cycle #{} at {}: {}{}{}",
            c.cycle_number,
            time_on(c.started_ms, c.simulated, false),
            if decisions.is_empty() {
                "no decision".to_string()
            } else {
                decisions.join(", ")
            },
            if reasoning.is_empty() { "" } else { " — " },
            reasoning.trim()
        );
        if let Some(e) = &c.error {
            let _ = writeln!(text, "  error: {e}");
        }
    }
    Some(Fact {
        label: format!("trader {}", t.spec.name),
        text,
        priority: 3,
    })
}

fn write_positions(text: &mut String, c: &CycleRecord) {
    if c.positions_after.is_empty() {
        let _ = writeln!(text, "no open positions after cycle #{}", c.cycle_number);
        return;
    }
    for p in &c.positions_after {
        let _ = writeln!(
            text,
            "position {} {:?} qty {} entry {} mark {} leverage {}x margin {} unrealized {} liquidation {} [basis: after cycle #{}]",
            p.symbol.as_str(),
            p.side,
            p.quantity,
            p.entry_price,
            p.mark_price,
            p.leverage,
            p.margin.round_dp(2),
            p.unrealized_pnl.round_dp(2),
            p.liquidation_price
                .map(|l| l.round_dp(2).to_string())
                .unwrap_or_else(|| "none".into()),
            c.cycle_number
        );
    }
}

/// What a P&L basis is, in the words of a model's context.
pub(crate) fn basis_words(basis: &PnlBasis) -> &'static str {
    match basis {
        PnlBasis::FirstStart(_) => "equity at first start",
        PnlBasis::FirstCycle { .. } => "equity at first cycle",
        PnlBasis::InitialBalance(_) => "initial balance",
    }
}

/// One line per trader: the overview a general question starts from.
pub fn overview(names: &Names) -> Fact {
    let mut text = String::new();
    for kind in [
        ResourceKind::Trader,
        ResourceKind::Exchange,
        ResourceKind::Model,
        ResourceKind::Strategy,
    ] {
        let live: Vec<String> = names
            .of_kind(kind)
            .filter(|e| !e.deleted)
            .map(|e| match kind {
                ResourceKind::Trader => format!(
                    "{} ({})",
                    e.name,
                    if e.running { "running" } else { "stopped" }
                ),
                _ => e.name.clone(),
            })
            .collect();
        let _ = writeln!(
            text,
            "{}s ({}): {}",
            kind.as_str(),
            live.len(),
            live.join(", ")
        );
    }
    Fact {
        label: "overview".into(),
        text,
        priority: 1,
    }
}

/// Price and indicators of a symbol from the offline simulated market, labelled as such so the
/// answer cannot pass it off as a live quote.
pub async fn market(symbol: &Symbol) -> Option<Fact> {
    let market = SimMarket::new(DEFAULT_SIM_SEED, Arc::new(SystemClock));
    let candles = market
        .klines(
            symbol,
            Interval::H1,
            KlineQuery {
                start_ms: None,
                end_ms: None,
                limit: 100,
            },
        )
        .await
        .ok()?;
    let s = indicators::snapshot(&candles);
    let f = |v: Option<f64>| v.map(|x| format!("{x:.2}")).unwrap_or_else(|| "n/a".into());
    let text = format!(
        "{} 1h, {} bars [basis: nofxi's simulated market, not a live exchange quote]: close {}, EMA12 {}, EMA26 {}, EMA50 {}, RSI14 {}, MACD hist {}, ATR14 {}, support {}, resistance {}\n",
        symbol.as_str(),
        s.bars,
        f(s.close),
        f(s.ema12),
        f(s.ema26),
        f(s.ema50),
        f(s.rsi14),
        f(s.macd.map(|m| m.hist)),
        f(s.atr14),
        f(s.support),
        f(s.resistance),
    );
    Some(Fact {
        label: format!("market {}", symbol.as_str()),
        text,
        priority: 2,
    })
}

pub(crate) fn time(ms: i64) -> String {
    time_on(ms, false, false)
}

/// A time on its clock: UTC, or a simulated timeline's (never passed off as UTC).
pub(crate) fn time_on(ms: i64, simulated: bool, zh: bool) -> String {
    labelled(ms, Precision::Minute, simulated, zh)
}
