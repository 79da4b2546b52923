//! The LLM decider: REFERENCE §2's prompt to a model, its answer parsed into decisions.
//!
//! The model sits behind [`ModelClient`], a one-method trait the `llm` crate's providers
//! implement; this crate never speaks a wire format. [`AnswerCache`] wraps any client and keys
//! answers by a hash of the prompts, so a backtest can be replayed exactly and for free.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use async_trait::async_trait;
use nofxi_domain::market::Symbol;
use nofxi_domain::strategy_config::StrategyConfig;
use sha2::{Digest, Sha256};

use super::prompt::Prompts;
use super::{Decider, DeciderError, DeciderOutput, SeriesRequest};
use crate::cycle::CycleInput;
use crate::decision::parse_model_answer;

/// One completion: the text and, when the provider reports them, its token counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelText {
    pub text: String,
    pub prompt_tokens: Option<u64>,
    pub completion_tokens: Option<u64>,
}

/// Why a model call failed, already in words a user can act on (the llm crate classifies
/// provider errors; this is the message it produced).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ModelCallError(pub String);

#[async_trait]
pub trait ModelClient: Send + Sync {
    /// `deepseek:deepseek-chat`, for the journal.
    fn label(&self) -> String;
    async fn complete(&self, system: &str, user: &str) -> Result<ModelText, ModelCallError>;
}

pub struct LlmDecider {
    client: Arc<dyn ModelClient>,
    prompts: Prompts,
}

impl LlmDecider {
    pub fn new(client: Arc<dyn ModelClient>) -> Result<LlmDecider, DeciderError> {
        Ok(LlmDecider {
            client,
            prompts: Prompts::new()?,
        })
    }
}

#[async_trait]
impl Decider for LlmDecider {
    fn name(&self) -> String {
        format!("llm:{}", self.client.label())
    }

    fn series_wanted(&self, _symbol: &Symbol, strategy: &StrategyConfig) -> Vec<SeriesRequest> {
        let k = &strategy.indicators.klines;
        // Indicators need history beyond what the prompt shows (EMA50, MACD's 26+9).
        let count = (k.primary_count as usize).max(60);
        let mut intervals = vec![k.primary_timeframe, k.longer_timeframe];
        intervals.extend(k.selected_timeframes.iter().copied());
        intervals.dedup();
        intervals
            .into_iter()
            .map(|interval| SeriesRequest {
                interval,
                count,
                start_ms: None,
            })
            .collect()
    }

    fn wants_funding(&self) -> bool {
        true
    }

    async fn decide(&mut self, input: &CycleInput) -> Result<DeciderOutput, DeciderError> {
        let system = self.prompts.system(&input.strategy)?;
        let user = self.prompts.user(input)?;
        let started = Instant::now();
        let reply = self.client.complete(&system, &user).await;
        let latency = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        let reply = reply.map_err(|e| DeciderError::Model(e.0))?;
        let answer =
            parse_model_answer(&reply.text).map_err(|e| DeciderError::Unusable(e.to_string()))?;
        Ok(DeciderOutput {
            decisions: answer.decisions,
            rejected: answer.rejected,
            reasoning: answer.reasoning,
            system_prompt: Some(system),
            user_prompt: Some(user),
            raw_response: Some(reply.text),
            model_latency_ms: Some(latency),
        })
    }
}

/// The key a replay cache uses: SHA-256 over both prompts.
pub fn prompt_hash(system: &str, user: &str) -> String {
    let mut h = Sha256::new();
    h.update(system.as_bytes());
    h.update([0u8]);
    h.update(user.as_bytes());
    hex::encode(h.finalize())
}

/// Remembers answers by prompt hash: the same prompts never cost a second call, so a backtest
/// over recorded answers is repeatable. Only successful answers are kept.
pub struct AnswerCache {
    inner: Arc<dyn ModelClient>,
    answers: Mutex<HashMap<String, String>>,
}

impl AnswerCache {
    pub fn new(inner: Arc<dyn ModelClient>, answers: HashMap<String, String>) -> AnswerCache {
        AnswerCache {
            inner,
            answers: Mutex::new(answers),
        }
    }

    /// Everything cached so far, to be saved for the next run.
    pub fn answers(&self) -> HashMap<String, String> {
        self.answers.lock().map(|a| a.clone()).unwrap_or_default()
    }
}

#[async_trait]
impl ModelClient for AnswerCache {
    fn label(&self) -> String {
        self.inner.label()
    }

    async fn complete(&self, system: &str, user: &str) -> Result<ModelText, ModelCallError> {
        let key = prompt_hash(system, user);
        let cached = self.answers.lock().ok().and_then(|a| a.get(&key).cloned());
        if let Some(text) = cached {
            return Ok(ModelText {
                text,
                prompt_tokens: Some(0),
                completion_tokens: Some(0),
            });
        }
        let reply = self.inner.complete(system, user).await?;
        if let Ok(mut answers) = self.answers.lock() {
            answers.insert(key, reply.text.clone());
        }
        Ok(reply)
    }
}
