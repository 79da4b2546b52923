//! A decision is what a decider proposes for one symbol in one cycle. Nothing here is trusted:
//! the risk guard checks every field before anything reaches a venue.

pub mod parse;

use std::fmt;

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

pub use parse::{DecisionParseError, ModelAnswer, RejectedDecision, parse_model_answer};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DecisionAction {
    OpenLong,
    OpenShort,
    CloseLong,
    CloseShort,
    Hold,
    Wait,
}

impl DecisionAction {
    pub const ALL: [DecisionAction; 6] = [
        DecisionAction::OpenLong,
        DecisionAction::OpenShort,
        DecisionAction::CloseLong,
        DecisionAction::CloseShort,
        DecisionAction::Hold,
        DecisionAction::Wait,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            DecisionAction::OpenLong => "open_long",
            DecisionAction::OpenShort => "open_short",
            DecisionAction::CloseLong => "close_long",
            DecisionAction::CloseShort => "close_short",
            DecisionAction::Hold => "hold",
            DecisionAction::Wait => "wait",
        }
    }

    pub fn opens(self) -> bool {
        matches!(self, DecisionAction::OpenLong | DecisionAction::OpenShort)
    }

    pub fn closes(self) -> bool {
        matches!(self, DecisionAction::CloseLong | DecisionAction::CloseShort)
    }
}

impl fmt::Display for DecisionAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// REFERENCE §2's decision. Optional fields are optional because `hold`/`wait`/closes need
/// none of them; the guard demands what an open needs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Decision {
    pub symbol: String,
    pub action: DecisionAction,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leverage: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position_size_usd: Option<Decimal>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_loss: Option<Decimal>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub take_profit: Option<Decimal>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confidence: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub risk_usd: Option<Decimal>,
    #[serde(default)]
    pub reasoning: String,
}
