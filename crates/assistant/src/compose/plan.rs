//! The bounded planner: which read-only facts an open question needs, at most
//! [`MAX_STEPS`] of them. Rules pick the steps from what the message mentions; nothing the
//! message does not touch is read, which is what keeps an answer's context small.

use nofxi_domain::market::{Symbol, known_symbols};
use nofxi_skills::ResourceKind;

use crate::nlu::names::Names;
use crate::nlu::words::find_phrase;

/// The most read-only steps one answer may take.
pub const MAX_STEPS: usize = 4;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// One trader's config, performance, positions and recent journal (by id).
    Trader(String),
    /// The names and states of everything the user has.
    Overview,
    /// Price and indicators for a symbol.
    Market(Symbol),
    /// One holding of the personal portfolio, as said (茅台, Tencent): its figures alone.
    Holding(String),
}

/// Words that make a question about the user's own book: positions, risk, P&L.
const PORTFOLIO_WORDS: &[&str] = &[
    "持仓", "仓位", "风险", "盈亏", "收益", "亏损", "回撤", "爆仓", "position", "risk", "exposure",
    "p&l", "pnl", "profit", "loss", "drawdown", "liquidat",
];

pub fn plan(message: &str, names: &Names) -> Vec<Step> {
    let lower = message.to_lowercase();
    let mut steps = Vec::new();
    for (entry, _, _) in names.mentioned(&lower) {
        if entry.kind == ResourceKind::Trader && !entry.deleted {
            push(&mut steps, Step::Trader(entry.id.clone()));
        }
    }
    for alias in known_symbols() {
        let said = std::iter::once(alias.base.to_lowercase())
            .chain(alias.names.iter().map(|n| n.to_lowercase()))
            .any(|n| find_phrase(&lower, &n).is_some());
        if said && let Ok(symbol) = Symbol::parse(&alias.symbol) {
            push(&mut steps, Step::Market(symbol));
        }
    }
    // "茅台最近表现怎么样，要不要加仓": that holding's own figures, never the whole book.
    if let Some((from, to)) = crate::nlu::instruments::find(&lower)
        && let Some(said) = message.get(from..to)
    {
        push(&mut steps, Step::Holding(said.to_string()));
    }
    let about_book = PORTFOLIO_WORDS.iter().any(|w| lower.contains(w));
    if about_book && !steps.iter().any(|s| matches!(s, Step::Trader(_))) {
        // "Is my position risky?" names no trader: the running ones hold the positions.
        for entry in names.of_kind(ResourceKind::Trader) {
            if entry.running && !entry.deleted {
                push(&mut steps, Step::Trader(entry.id.clone()));
            }
        }
    }
    if steps.is_empty() {
        steps.push(Step::Overview);
    }
    steps.truncate(MAX_STEPS);
    steps
}

fn push(steps: &mut Vec<Step>, step: Step) {
    if !steps.contains(&step) {
        steps.push(step);
    }
}
