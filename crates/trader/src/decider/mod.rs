//! Deciders: where a cycle's decisions come from, behind one trait.
//!
//! - [`builtin::BuiltinDecider`]: an EMA cross with ATR stops; no network, no model. It is what
//!   the model provider `builtin` means, so a paper trader runs fully offline.
//! - [`llm::LlmDecider`]: REFERENCE §2's prompt to a [`llm::ModelClient`], its answer parsed into
//!   decisions. Recorded answers drive it in tests and replays; [`provider_client`] puts the
//!   `nofxi_llm` providers behind that trait.
//!
//! A decider only proposes. The risk guard disposes.

pub mod builtin;
pub mod ema_cross;
pub mod incremental;
pub mod llm;
mod prompt;
pub mod provider_client;

use async_trait::async_trait;
use nofxi_domain::Interval;
use nofxi_domain::market::{Candle, Symbol};
use nofxi_domain::strategy_config::StrategyConfig;

use crate::cycle::CycleInput;
use crate::decision::Decision;
use crate::decision::parse::RejectedDecision;

/// Candles a decider wants for one symbol this cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeriesRequest {
    pub interval: Interval,
    /// At most this many closed candles, the newest last.
    pub count: usize,
    /// Only candles opening at or after this time (a warm decider asks for what it has not
    /// seen, plus the last one it saw as the overlap that proves nothing was missed).
    pub start_ms: Option<i64>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct DeciderOutput {
    pub decisions: Vec<Decision>,
    /// Decisions the answer held that were not valid, with why (journalled, never executed).
    pub rejected: Vec<RejectedDecision>,
    pub reasoning: String,
    /// The model's exchange, when a model was asked; kept in the journal for debugging.
    pub system_prompt: Option<String>,
    pub user_prompt: Option<String>,
    pub raw_response: Option<String>,
    pub model_latency_ms: Option<u64>,
    /// Token counts the provider reported for the call (not nofxi's estimates).
    pub prompt_tokens: Option<u64>,
    pub completion_tokens: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DeciderError {
    /// The model could not be reached or refused; counts towards safe mode. `exchange` holds
    /// the prompts that were sent, for the journal.
    #[error("model call failed: {why}")]
    Model {
        why: String,
        exchange: Box<DeciderOutput>,
    },
    /// The model answered, but not with decisions; counts towards safe mode too. `exchange`
    /// holds the prompts and the raw answer, so the journal shows what the model said.
    #[error("model answer unusable: {why}")]
    Unusable {
        why: String,
        exchange: Box<DeciderOutput>,
    },
    #[error("prompt could not be built: {0}")]
    Prompt(String),
}

impl DeciderError {
    /// What was sent to (and received from) the model before the failure, if a model was asked.
    pub fn exchange(&self) -> Option<&DeciderOutput> {
        match self {
            DeciderError::Model { exchange, .. } | DeciderError::Unusable { exchange, .. } => {
                Some(exchange)
            }
            DeciderError::Prompt(_) => None,
        }
    }
}

#[async_trait]
pub trait Decider: Send {
    /// What this decider calls itself in the journal (`builtin`, `llm:deepseek-chat`).
    fn name(&self) -> String;

    /// The series this decider needs for `symbol`. Asked every cycle, so a decider that keeps
    /// state can ask for just the newest candles once it is warm.
    fn series_wanted(&self, symbol: &Symbol, strategy: &StrategyConfig) -> Vec<SeriesRequest>;

    /// Whether the prompt uses funding rates; fetching them costs a request per symbol.
    fn wants_funding(&self) -> bool {
        false
    }

    async fn decide(&mut self, input: &CycleInput<'_>) -> Result<DeciderOutput, DeciderError>;

    /// Whether `candle`, the newest closed `interval` candle of `symbol`, leaves this decider
    /// with nothing to propose for it: the cycle's idle fast path (`cycle::idle`). A decider
    /// that can tell from its own state takes the candle in exactly as `decide` would, so it is
    /// not fed again, and answers true. The default, false, means "run the whole cycle" and
    /// must leave the decider untouched.
    fn idle_on(&mut self, _symbol: &Symbol, _interval: Interval, _candle: &Candle) -> bool {
        false
    }

    /// How many of `candles` — `symbol`'s next `interval` candles, one per step — this
    /// decider would be idle on one after another, as [`Decider::idle_on`] would answer them
    /// in turn; it takes none of them in. A backtest asks this once per run of steps instead
    /// of once per step. The default, 0, leaves every step to `idle_on`.
    fn idle_prefix(&mut self, _symbol: &Symbol, _interval: Interval, _candles: &[Candle]) -> usize {
        0
    }

    /// Take in `candles`, a prefix of what [`Decider::idle_prefix`] last called idle, exactly
    /// as `idle_on` would have one by one.
    fn take_idle(&mut self, symbol: &Symbol, interval: Interval, candles: &[Candle]) {
        for candle in candles {
            self.idle_on(symbol, interval, candle);
        }
    }
}
