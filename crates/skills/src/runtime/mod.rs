//! The constraints runtime: what a skill's `constraints:` block says, executed around a call.
//!
//! Before a call: arguments are validated against the function's schema and coverage
//! exclusions are checked (no order book for an index: refused up front, with the reason),
//! so a call that cannot succeed never leaves the machine. Around a call: per-skill and
//! per-function rate limits (governor), then retries of retryable codes with exponential backoff
//! and jitter, honouring `Retry-After`. Time is injected (a governor clock plus a `Sleeper`) so
//! tests run in simulated time.

mod coverage;
mod envelope;
mod retry;

use std::collections::HashMap;
use std::future::Future;
use std::num::NonZeroU32;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use governor::clock::{Clock, DefaultClock, Reference};
use governor::middleware::NoOpMiddleware;
use governor::state::{InMemoryState, NotKeyed};
use governor::{Quota, RateLimiter};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::Value;

use crate::ir::{DataCoverage, ErrorHandling, Skill};
use crate::text::Text;
use crate::validate::{InvalidArguments, Validated};

pub use coverage::Refusal;
pub use envelope::{parse_envelope, parse_retry_after};
pub use retry::{Decision, RetryPolicy};

/// Waits. Production uses tokio's timer; tests record the waits and advance a fake clock.
pub trait Sleeper: Send + Sync {
    fn sleep(&self, duration: Duration) -> Pin<Box<dyn Future<Output = ()> + Send + '_>>;
}

#[derive(Debug, Default, Clone, Copy)]
pub struct TokioSleeper;

impl Sleeper for TokioSleeper {
    fn sleep(&self, duration: Duration) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        Box::pin(tokio::time::sleep(duration))
    }
}

/// One failed attempt as the data source reported it.
#[derive(Debug, Clone, PartialEq)]
pub struct CallFailure {
    pub code: i64,
    pub message: String,
    pub retry_after: Option<Duration>,
}

#[derive(Debug, Clone, thiserror::Error)]
pub enum CallError {
    #[error("{0}")]
    Invalid(#[from] InvalidArguments),
    #[error("{}", .0.message.en)]
    Refused(Refusal),
    #[error("unknown function `{0}`")]
    UnknownFunction(String),
    /// The source kept failing, or failed with a code that must not be retried.
    #[error("code {code}: {message} (after {attempts} attempt(s))")]
    Failed {
        code: i64,
        message: String,
        attempts: u32,
        retryable: bool,
        /// What the code means, from the skill's `error_codes`.
        meaning: Option<Text>,
    },
}

type Limiter<C> = RateLimiter<NotKeyed, InMemoryState, C, NoOpMiddleware<<C as Clock>::Instant>>;

/// Executes one skill's constraints. Share one per skill per process: the rate limits are its
/// state.
pub struct SkillRuntime<C: Clock = DefaultClock> {
    skill: Skill,
    policy: RetryPolicy,
    global: Option<Limiter<C>>,
    per_function: HashMap<String, Limiter<C>>,
    clock: C,
    sleeper: Arc<dyn Sleeper>,
    rng: Mutex<StdRng>,
}

impl SkillRuntime<DefaultClock> {
    pub fn new(skill: &Skill) -> SkillRuntime<DefaultClock> {
        SkillRuntime::with_clock(
            skill,
            DefaultClock::default(),
            Arc::new(TokioSleeper),
            rand::rng().random(),
        )
    }
}

impl<C> SkillRuntime<C>
where
    C: Clock + Clone,
    C::Instant: Reference,
{
    /// A runtime on an injected clock and sleeper, with a seeded jitter source.
    pub fn with_clock(
        skill: &Skill,
        clock: C,
        sleeper: Arc<dyn Sleeper>,
        seed: u64,
    ) -> SkillRuntime<C> {
        let limiter = |per_minute: u32| {
            NonZeroU32::new(per_minute)
                .map(|n| RateLimiter::direct_with_clock(Quota::per_minute(n), clock.clone()))
        };
        let rl = skill.constraints.rate_limit.as_ref();
        let global = rl
            .and_then(|r| r.global.as_ref())
            .and_then(|g| limiter(g.max_requests_per_minute));
        let per_function = rl
            .map(|r| {
                r.per_function
                    .iter()
                    .filter_map(|(name, l)| {
                        limiter(l.max_requests_per_minute).map(|lim| (name.clone(), lim))
                    })
                    .collect()
            })
            .unwrap_or_default();
        let policy = skill
            .constraints
            .error_handling
            .as_ref()
            .map(RetryPolicy::from)
            .unwrap_or_else(|| {
                RetryPolicy::from(&ErrorHandling {
                    retryable_codes: Vec::new(),
                    non_retryable_codes: Vec::new(),
                    max_retries: 0,
                    backoff_strategy: Default::default(),
                    backoff: Default::default(),
                })
            });
        SkillRuntime {
            skill: skill.clone(),
            policy,
            global,
            per_function,
            clock,
            sleeper,
            rng: Mutex::new(StdRng::seed_from_u64(seed)),
        }
    }

    pub fn policy(&self) -> &RetryPolicy {
        &self.policy
    }

    /// Everything that can be decided before a call: the function exists, the arguments pass
    /// its schema, and the data source covers the symbol for that function.
    pub fn prepare(&self, function: &str, args: &Value) -> Result<Validated, CallError> {
        let f = self
            .skill
            .function(function)
            .ok_or_else(|| CallError::UnknownFunction(function.to_string()))?;
        let validated = f.validate_args(args)?;
        let empty = DataCoverage::default();
        let coverage = self
            .skill
            .constraints
            .data_coverage
            .as_ref()
            .unwrap_or(&empty);
        coverage::check(coverage, function, &validated.args).map_err(CallError::Refused)?;
        Ok(validated)
    }

    /// Run `op` under the rate limits and retry rules. `op` gets the attempt number (0 first).
    pub async fn call<T, F, Fut>(&self, function: &str, mut op: F) -> Result<T, CallError>
    where
        F: FnMut(u32) -> Fut,
        Fut: Future<Output = Result<T, CallFailure>>,
    {
        let mut attempt = 0u32;
        loop {
            self.acquire(function).await;
            match op(attempt).await {
                Ok(value) => return Ok(value),
                Err(failure) => {
                    let sample: f64 = self
                        .rng
                        .lock()
                        .map(|mut r| r.random::<f64>())
                        .unwrap_or(0.0);
                    match self.policy.decide(attempt, &failure, sample) {
                        Decision::Retry(wait) => {
                            self.sleeper.sleep(wait).await;
                            attempt += 1;
                        }
                        Decision::GiveUp { retryable } => {
                            let meaning = self
                                .skill
                                .constraints
                                .error_codes
                                .iter()
                                .find(|e| e.code == failure.code)
                                .map(|e| e.meaning.clone());
                            return Err(CallError::Failed {
                                code: failure.code,
                                message: failure.message,
                                attempts: attempt + 1,
                                retryable,
                                meaning,
                            });
                        }
                    }
                }
            }
        }
    }

    /// `prepare`, then `call` with the validated arguments (schema defaults filled): the one
    /// entry point for a tool call, so nothing reaches the network unchecked.
    pub async fn invoke<T, F, Fut>(
        &self,
        function: &str,
        args: &Value,
        mut op: F,
    ) -> Result<T, CallError>
    where
        F: FnMut(u32, serde_json::Map<String, Value>) -> Fut,
        Fut: Future<Output = Result<T, CallFailure>>,
    {
        let validated = self.prepare(function, args)?;
        self.call(function, |attempt| op(attempt, validated.args.clone()))
            .await
    }

    /// Wait until both the skill's and the function's budgets allow one more request.
    async fn acquire(&self, function: &str) {
        for limiter in [self.global.as_ref(), self.per_function.get(function)]
            .into_iter()
            .flatten()
        {
            while let Err(not_until) = limiter.check() {
                let wait = not_until.wait_time_from(self.clock.now());
                self.sleeper.sleep(wait.max(Duration::from_millis(1))).await;
            }
        }
    }
}
