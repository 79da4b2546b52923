//! A close a person asked for (a position's Close in the web app, "stop and close all"): a
//! cycle of its own whose plan is the close. It is journalled, executed and resumed as any
//! cycle is, so the journal shows it, a crash mid-way never sends it twice, and its orders
//! carry the trader's client ids with the `u` leg, which the trade list reads as a manual
//! exit. The position's stop and take-profit go with it, as after any close.

use nofxi_domain::market::Symbol;
use nofxi_domain::trading::{Position, PositionSide};

use super::journal::JournalError;
use super::record::CycleRecord;
use super::run::{CycleWorld, TraderCycle, read_account};
use crate::decision::{Decision, DecisionAction};
use crate::guard::{Approved, Intent};

/// What a cycle record's `decider` says of a close a person asked for.
pub const USER_DECIDER: &str = "user";

/// Which positions a person asked to close.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "close", rename_all = "snake_case")]
pub enum CloseTarget {
    /// The position of `symbol` on `side`.
    Position { symbol: Symbol, side: PositionSide },
    /// Every open position.
    All,
}

impl CloseTarget {
    fn takes(&self, position: &Position) -> bool {
        match self {
            CloseTarget::Position { symbol, side } => {
                &position.symbol == symbol && position.side == *side
            }
            CloseTarget::All => true,
        }
    }
}

impl TraderCycle {
    /// Closes what `target` names at market, as cycle of its own with `why` as its reasoning.
    /// Nothing open to close is no error: the record says so in its notes and sends nothing.
    pub async fn run_user_close(
        &mut self,
        world: &CycleWorld<'_>,
        target: &CloseTarget,
        why: String,
    ) -> Result<CycleRecord, JournalError> {
        self.cycle_number += 1;
        let now = world.clock.now_ms();
        let mut record = self.new_record(now, world.clock.simulated(), USER_DECIDER.into());
        // No model decided this.
        record.model = None;
        record.reasoning = why;
        let (account, positions) = match read_account(world.exchange).await {
            Ok(read) => read,
            Err(e) => {
                return self
                    .give_up(record, format!("account unreadable: {e}"), world)
                    .await;
            }
        };
        record.account_before = Some(account);
        record.approved = positions
            .iter()
            .filter(|p| target.takes(p))
            .map(|p| closing(p, &record.reasoning))
            .collect();
        record.decisions = record.approved.iter().map(|a| a.decision.clone()).collect();
        record.positions_after = positions;
        if record.approved.is_empty() {
            record.notes.push("no open position to close".into());
        }
        self.carry_out(record, world).await
    }
}

/// The whole of `position`, closed at market by a person.
fn closing(position: &Position, why: &str) -> Approved {
    let action = match position.side {
        PositionSide::Long => DecisionAction::CloseLong,
        PositionSide::Short => DecisionAction::CloseShort,
    };
    Approved {
        decision: Decision {
            symbol: position.symbol.to_string(),
            action,
            leverage: None,
            position_size_usd: None,
            stop_loss: None,
            take_profit: None,
            confidence: None,
            risk_usd: None,
            reasoning: why.to_string(),
        },
        intent: Intent::Close {
            symbol: position.symbol.clone(),
            side: position.side,
            quantity: position.quantity,
            manual: true,
        },
        adjustments: vec![],
    }
}
