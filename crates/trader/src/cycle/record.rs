//! The journal of one cycle (REFERENCE §2): what the decider saw and said, what the guard did
//! with it, what the venue answered, and the account before and after.
//!
//! A record is saved twice: once `planned` (before any order), once `done`. A record found
//! `planned` after a restart is a cycle that crashed mid-execution; its approved plan is
//! executed again with every order looked up by client order id first, so nothing is lost
//! and nothing is sent twice.

use nofxi_domain::trading::{AccountSnapshot, FundingPayment, Position};
use serde::{Deserialize, Serialize};

use crate::decider::DeciderOutput;
use crate::decision::Decision;
use crate::guard::{Approved, Refusal};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CyclePhase {
    Planned,
    Done,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CycleRecord {
    pub trader_id: String,
    pub cycle_number: u64,
    pub phase: CyclePhase,
    pub started_ms: i64,
    pub finished_ms: Option<i64>,
    /// Its times are a simulated timeline's (`nofxi run --sim-speed`), not the wall clock's.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub simulated: bool,
    pub decider: String,
    /// What the account's prices were (`binance live prices (paper fills)`, `simulated market
    /// (offline)`, `okx`): every equity and P&L figure below rests on them. Empty in records
    /// written before it was kept, and in backtests.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub market: String,
    /// The engine process that ran the cycle (lease owner); empty in backtests.
    #[serde(default)]
    pub engine: String,
    /// The epoch of the engine's lease the cycle ran under; its orders' client ids carry it,
    /// so a resumed cycle looks up exactly the orders it sent. None in backtests.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub epoch: Option<u64>,
    pub safe_mode: bool,
    /// The model config the cycle decided with, as the trader was bound when it ran: a model
    /// changed on a running trader shows here from the cycle that used it. Absent in records
    /// written before it was kept, and in backtests.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<ModelUsed>,
    pub system_prompt: Option<String>,
    pub user_prompt: Option<String>,
    pub raw_response: Option<String>,
    pub reasoning: String,
    pub model_latency_ms: Option<u64>,
    /// Tokens the provider reported for this cycle's call (absent in older records).
    #[serde(default)]
    pub prompt_tokens: Option<u64>,
    #[serde(default)]
    pub completion_tokens: Option<u64>,
    pub decisions: Vec<Decision>,
    /// Decisions the answer held that were not valid decisions at all.
    pub invalid: Vec<String>,
    pub approved: Vec<Approved>,
    pub refused: Vec<RefusedDecision>,
    pub executions: Vec<Execution>,
    pub account_before: Option<AccountSnapshot>,
    pub account_after: Option<AccountSnapshot>,
    pub positions_after: Vec<Position>,
    /// Why the cycle could not do its work (venue unreachable, model failed), if it could not.
    pub error: Option<String>,
    /// Things worth knowing that are not errors (a coin in the strategy nobody lists).
    pub notes: Vec<String>,
    /// Funding the account paid or received since the trader's previous cycle (a paper
    /// account on a venue's live prices books it; see the venues crate's `paper::funding`):
    /// part of the equity change beside the fees.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub funding: Vec<FundingPayment>,
}

/// A model config as a cycle record names it: never its key, nor anything derived from it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ModelUsed {
    pub id: String,
    /// Its name when the cycle ran (a later rename does not rewrite the journal).
    pub name: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RefusedDecision {
    pub decision: Decision,
    pub reason: String,
    /// The guard's refusal, typed (absent in records written before it was kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refusal: Option<Refusal>,
}

/// One order the cycle sent (or found already sent, when resuming).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Execution {
    pub symbol: String,
    pub what: String,
    pub client_order_id: String,
    pub order_id: Option<String>,
    pub ok: bool,
    pub error: Option<String>,
    /// The venue's code for the error (Binance's -2019 …), for diagnosis.
    pub error_code: Option<i64>,
    /// True when the order was found already placed on resume rather than sent now.
    pub recovered: bool,
}

impl CycleRecord {
    pub fn new(
        trader_id: &str,
        cycle_number: u64,
        started_ms: i64,
        decider: String,
    ) -> CycleRecord {
        CycleRecord {
            trader_id: trader_id.to_string(),
            cycle_number,
            phase: CyclePhase::Planned,
            started_ms,
            finished_ms: None,
            simulated: false,
            decider,
            market: String::new(),
            engine: String::new(),
            epoch: None,
            safe_mode: false,
            model: None,
            system_prompt: None,
            user_prompt: None,
            raw_response: None,
            reasoning: String::new(),
            model_latency_ms: None,
            prompt_tokens: None,
            completion_tokens: None,
            decisions: Vec::new(),
            invalid: Vec::new(),
            approved: Vec::new(),
            refused: Vec::new(),
            executions: Vec::new(),
            account_before: None,
            account_after: None,
            positions_after: Vec::new(),
            error: None,
            notes: Vec::new(),
            funding: Vec::new(),
        }
    }

    /// Keeps the model exchange (prompts, raw answer, latency, tokens) of a decider's output;
    /// also called when the decider failed, so a malformed answer is still in the journal.
    pub fn keep_model_exchange(&mut self, output: &DeciderOutput) {
        self.system_prompt.clone_from(&output.system_prompt);
        self.user_prompt.clone_from(&output.user_prompt);
        self.raw_response.clone_from(&output.raw_response);
        self.model_latency_ms = output.model_latency_ms;
        self.prompt_tokens = output.prompt_tokens;
        self.completion_tokens = output.completion_tokens;
    }

    /// The equity this cycle ended with: after execution if it traded, else at its start.
    pub fn equity(&self) -> Option<rust_decimal::Decimal> {
        self.account_after
            .as_ref()
            .or(self.account_before.as_ref())
            .map(|a| a.equity)
    }
}
