//! The risk guard: the only road from a decision to an order.
//!
//! Deciders are untrusted (a model can answer leverage 100 or a stop loss on the wrong side),
//! so every decision is checked against the strategy's risk control and the live account before
//! the executor sees it. The guard is pure: same inputs, same plan, which is what lets the
//! backtest and the live engine share it and lets tests feed it hostile decisions directly.
//!
//! Order of work: refuse what can never run (unknown symbol, duplicates), approve closes, then
//! approve opens one by one against the budget that earlier approvals left (positions, opens per
//! cycle, margin).

mod open_checks;
mod refusal;

use std::collections::BTreeMap;

use nofxi_domain::market::Symbol;
use nofxi_domain::strategy_config::RiskControl;
use nofxi_domain::trading::{AccountSnapshot, Position, PositionSide};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

pub use refusal::Refusal;

use crate::decision::{Decision, DecisionAction};

/// REFERENCE §2: more opens in one cycle is how a model bets the account on one candle.
pub const MAX_OPENS_PER_CYCLE: usize = 2;

/// What the guard needs to know about the world this cycle.
#[derive(Debug, Clone, Copy)]
pub struct GuardContext<'a> {
    pub risk: &'a RiskControl,
    pub account: &'a AccountSnapshot,
    pub positions: &'a [Position],
    /// The symbols this trader may trade this cycle, with their current price.
    pub prices: &'a BTreeMap<Symbol, Decimal>,
    /// After repeated model failures: closes and holds only.
    pub safe_mode: bool,
}

/// An approved action, with the values the executor must use (leverage already clamped).
/// Serialized into the journal before execution, so a crash mid-cycle resumes this exact plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Intent {
    Open {
        symbol: Symbol,
        side: PositionSide,
        leverage: u32,
        notional_usd: Decimal,
        /// The price the checks were made against; the executor re-reads the market.
        reference_price: Decimal,
        stop_loss: Decimal,
        take_profit: Decimal,
    },
    Close {
        symbol: Symbol,
        side: PositionSide,
        quantity: Decimal,
        /// A person asked for it (see `cycle::user_close`), not a decision: its order's
        /// client id says so.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        manual: bool,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Approved {
    pub decision: Decision,
    pub intent: Intent,
    /// What the guard changed and why ("leverage 100 → 10: BTC/ETH limit"), for the journal.
    pub adjustments: Vec<String>,
}

/// The guard's verdict on one cycle's decisions. Closes come before opens in `approved`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GuardedPlan {
    pub approved: Vec<Approved>,
    pub refused: Vec<(Decision, Refusal)>,
    /// hold / wait: nothing to execute, kept for the journal.
    pub idle: Vec<Decision>,
}

pub fn guard(decisions: Vec<Decision>, ctx: &GuardContext<'_>) -> GuardedPlan {
    let mut plan = GuardedPlan::default();
    // (symbol, opens) pairs decided so far; an answer holds a handful, so a list does.
    let mut seen: Vec<(Symbol, bool)> = Vec::new();
    let mut opens = Vec::new();
    for decision in decisions {
        if matches!(decision.action, DecisionAction::Hold | DecisionAction::Wait) {
            plan.idle.push(decision);
            continue;
        }
        let Some(symbol) = tradable(&decision.symbol, ctx) else {
            plan.refused.push((decision, Refusal::UnknownSymbol));
            continue;
        };
        // One open and one close per symbol: together they are a reversal (close first).
        let key = (symbol.clone(), decision.action.opens());
        if seen.contains(&key) {
            plan.refused.push((decision, Refusal::DuplicateSymbol));
            continue;
        }
        seen.push(key);
        if decision.action.opens() {
            opens.push((symbol, decision));
        } else {
            match close_intent(&symbol, decision.action, ctx.positions) {
                Ok(intent) => plan.approved.push(Approved {
                    decision,
                    intent,
                    adjustments: vec![],
                }),
                Err(refusal) => plan.refused.push((decision, refusal)),
            }
        }
    }
    let closing = plan
        .approved
        .iter()
        .filter_map(|a| match &a.intent {
            Intent::Close { symbol, .. } => Some(symbol.clone()),
            Intent::Open { .. } => None,
        })
        .collect();
    let mut budget = open_checks::Budget::new(ctx, closing);
    for (symbol, decision) in opens {
        match open_checks::check(&symbol, &decision, ctx, &mut budget) {
            Ok((intent, adjustments)) => plan.approved.push(Approved {
                decision,
                intent,
                adjustments,
            }),
            Err(refusal) => plan.refused.push((decision, refusal)),
        }
    }
    plan
}

/// The decision's symbol, if it names one this trader may trade now. Aliases ("btc") resolve;
/// anything outside the cycle's candidates and open positions is refused, never guessed.
fn tradable(raw: &str, ctx: &GuardContext<'_>) -> Option<Symbol> {
    // Usually the decision names a candidate or a held symbol exactly as the cycle wrote it:
    // then it is that symbol, without a walk through the alias table.
    let mut known = ctx
        .prices
        .keys()
        .chain(ctx.positions.iter().map(|p| &p.symbol));
    if let Some(symbol) = known.find(|s| s.as_str() == raw) {
        return Some(symbol.clone());
    }
    let symbol = Symbol::parse(raw).ok()?;
    let held = ctx.positions.iter().any(|p| p.symbol == symbol);
    (ctx.prices.contains_key(&symbol) || held).then_some(symbol)
}

fn close_intent(
    symbol: &Symbol,
    action: DecisionAction,
    positions: &[Position],
) -> Result<Intent, Refusal> {
    let side = if action == DecisionAction::CloseLong {
        PositionSide::Long
    } else {
        PositionSide::Short
    };
    positions
        .iter()
        .find(|p| &p.symbol == symbol && p.side == side)
        .map(|p| Intent::Close {
            symbol: symbol.clone(),
            side,
            quantity: p.quantity,
            manual: false,
        })
        .ok_or(Refusal::NothingToClose { side })
}
