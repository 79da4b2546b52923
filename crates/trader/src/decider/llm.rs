//! The LLM decider: REFERENCE §2's prompt to a model, its answer parsed into decisions.
//!
//! The model sits behind [`ModelClient`], a one-method trait; [`super::provider_client`] puts
//! the `nofxi_llm` providers behind it, so this module never speaks a wire format.
//! [`AnswerCache`] wraps any client and keys answers by a hash of the prompts, so a backtest
//! can be replayed exactly and for free (its file lives where the caller says: the CLI uses
//! `$NOFXI_HOME/cache/answers/`).
//!
//! A failed call or an answer that holds no decisions is an error that counts towards safe
//! mode, and it carries the prompts (and the raw answer) so the journal shows what was said.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use async_trait::async_trait;
use nofxi_domain::market::Symbol;
use nofxi_domain::strategy_config::StrategyConfig;
use serde::{Deserialize, Serialize};
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

    async fn decide(&mut self, input: &CycleInput<'_>) -> Result<DeciderOutput, DeciderError> {
        let system = self.prompts.system(input.strategy)?;
        let user = self.prompts.user(input)?;
        let started = Instant::now();
        let reply = self.client.complete(&system, &user).await;
        let latency = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        // What was said either way, so a failed cycle's journal still shows it.
        let mut exchange = DeciderOutput {
            system_prompt: Some(system),
            user_prompt: Some(user),
            model_latency_ms: Some(latency),
            ..DeciderOutput::default()
        };
        let reply = match reply {
            Ok(reply) => reply,
            Err(e) => {
                return Err(DeciderError::Model {
                    why: e.0,
                    exchange: Box::new(exchange),
                });
            }
        };
        exchange.prompt_tokens = reply.prompt_tokens;
        exchange.completion_tokens = reply.completion_tokens;
        let parsed = parse_model_answer(&reply.text);
        exchange.raw_response = Some(reply.text);
        match parsed {
            Ok(answer) => Ok(DeciderOutput {
                decisions: answer.decisions,
                rejected: answer.rejected,
                reasoning: answer.reasoning,
                ..exchange
            }),
            Err(e) => Err(DeciderError::Unusable {
                why: e.to_string(),
                exchange: Box::new(exchange),
            }),
        }
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
///
/// [`AnswerCache::open`] keeps them in a file as well (one JSON line per answer, appended as
/// each arrives), so a second backtest over the same candles replays without calling the
/// model, and one cut short keeps every answer it paid for.
pub struct AnswerCache {
    inner: Arc<dyn ModelClient>,
    answers: Mutex<HashMap<String, String>>,
    file: Option<Mutex<File>>,
    replayed: AtomicU64,
    asked: AtomicU64,
}

/// One line of a cache file.
#[derive(Serialize, Deserialize)]
struct CachedAnswer {
    key: String,
    text: String,
}

impl AnswerCache {
    /// An in-memory cache seeded with `answers`.
    pub fn new(inner: Arc<dyn ModelClient>, answers: HashMap<String, String>) -> AnswerCache {
        AnswerCache {
            inner,
            answers: Mutex::new(answers),
            file: None,
            replayed: AtomicU64::new(0),
            asked: AtomicU64::new(0),
        }
    }

    /// A cache backed by `path` (created with its directory if missing). Lines that do not
    /// parse — a write cut off by a crash — are skipped; their prompts are simply asked again.
    pub fn open(inner: Arc<dyn ModelClient>, path: &Path) -> std::io::Result<AnswerCache> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let mut answers = HashMap::new();
        if path.exists() {
            let reader = BufReader::new(File::open(path)?);
            for line in reader.lines() {
                if let Ok(entry) = serde_json::from_str::<CachedAnswer>(&line?) {
                    answers.insert(entry.key, entry.text);
                }
            }
        }
        let file = OpenOptions::new().create(true).append(true).open(path)?;
        Ok(AnswerCache {
            inner,
            answers: Mutex::new(answers),
            file: Some(Mutex::new(file)),
            replayed: AtomicU64::new(0),
            asked: AtomicU64::new(0),
        })
    }

    /// Everything cached so far, to be saved for the next run.
    pub fn answers(&self) -> HashMap<String, String> {
        self.answers.lock().map(|a| a.clone()).unwrap_or_default()
    }

    /// How many answers are cached.
    pub fn len(&self) -> usize {
        self.answers.lock().map(|a| a.len()).unwrap_or(0)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Calls answered from the cache so far.
    pub fn replayed(&self) -> u64 {
        self.replayed.load(Ordering::Relaxed)
    }

    /// Calls that went to the model so far (failed ones included).
    pub fn asked(&self) -> u64 {
        self.asked.load(Ordering::Relaxed)
    }

    fn remember(&self, key: String, text: &str) {
        if let Some(file) = &self.file
            && let Ok(mut file) = file.lock()
        {
            let entry = CachedAnswer {
                key: key.clone(),
                text: text.to_string(),
            };
            // A failed write costs a repeated call next run, not this run's answer.
            if let Ok(line) = serde_json::to_string(&entry)
                && let Err(e) = writeln!(file, "{line}")
            {
                tracing::warn!("model answer cache not written: {e}");
            }
        }
        if let Ok(mut answers) = self.answers.lock() {
            answers.insert(key, text.to_string());
        }
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
            self.replayed.fetch_add(1, Ordering::Relaxed);
            return Ok(ModelText {
                text,
                prompt_tokens: Some(0),
                completion_tokens: Some(0),
            });
        }
        self.asked.fetch_add(1, Ordering::Relaxed);
        let reply = self.inner.complete(system, user).await?;
        self.remember(key, &reply.text);
        Ok(reply)
    }
}
