//! The constraints runtime: what a skill's `constraints:` block says, executed around a call.
//!
//! Before a call: arguments are validated against the function's schema and coverage
//! exclusions are checked (no order book for an index: refused up front, with the reason),
//! so a call that cannot succeed never leaves the machine. Around a call: per-skill and
//! per-function rate limits (governor), then retries of retryable codes with exponential backoff
//! and jitter, honouring `Retry-After`. Time is injected (a governor clock plus a `Sleeper`) so
//! tests run in simulated time.
//!
//! The rate limits are a remote source's budget: a call the caller marks [`Reach::Local`]
//! (the simulated market, a CSV replay) sends nothing anywhere and is not counted or held.
//! A caller that must not wait long (a chat turn) sets [`SkillRuntime::with_max_wait`]: a rate
//! limit — the skill's own budget, or the source's rate-limit answer — that would hold the call
//! longer is not waited out but returned as [`CallError::RateLimited`], with when to try again.

mod coverage;
mod envelope;
mod retry;

use std::collections::HashMap;
use std::future::Future;
use std::num::NonZeroU32;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;

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
/// The clocks a runtime runs on: the system's, or a fake one a test moves forward.
pub use governor::clock::{Clock, DefaultClock, FakeRelativeClock, Reference};
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
    /// A rate limit holds the call longer than the caller waits: nothing more was sent.
    #[error("rate limited by {by}: try again in {} s", retry_in.as_secs_f64().ceil())]
    RateLimited { by: LimitedBy, retry_in: Duration },
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

/// Which rate limit held a call.
#[derive(Debug, Clone, PartialEq)]
pub enum LimitedBy {
    /// The skill's own budget (`constraints.rate_limit`): `function` is the function whose
    /// budget ran out, `None` for the skill's global one.
    Budget {
        function: Option<String>,
        per_minute: u32,
    },
    /// The source answered with its rate-limit code; `message` is its own words.
    Source { code: i64, message: String },
}

impl std::fmt::Display for LimitedBy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LimitedBy::Budget {
                function: Some(function),
                per_minute,
            } => write!(f, "the budget of {per_minute} {function} calls a minute"),
            LimitedBy::Budget {
                function: None,
                per_minute,
            } => write!(f, "the budget of {per_minute} calls a minute"),
            LimitedBy::Source { code, message } => write!(f, "the source (code {code}: {message})"),
        }
    }
}

/// Where a call's data comes from. Rate limits are a remote source's budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// The call leaves the machine (a live venue, a market-data API): rate limited.
    Remote,
    /// The data is made or read here (the simulated market, a CSV replay): no limit applies.
    Local,
}

type Limiter<C> = RateLimiter<NotKeyed, InMemoryState, C, NoOpMiddleware<<C as Clock>::Instant>>;

/// One budget: its limiter, its size, and the function it is for (`None`: the whole skill).
struct Budget<C: Clock> {
    limiter: Limiter<C>,
    per_minute: u32,
    function: Option<String>,
}

/// Executes one skill's constraints. Share one per skill per process: the rate limits are its
/// state.
pub struct SkillRuntime<C: Clock = DefaultClock> {
    skill: Skill,
    policy: RetryPolicy,
    global: Option<Budget<C>>,
    per_function: HashMap<String, Budget<C>>,
    /// The code the source answers when its own limit is hit (`rate_limit.global.error_code`).
    limit_code: Option<i64>,
    /// The longest a rate limit is waited out; `None`: as long as it takes.
    max_wait: Option<Duration>,
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
        let budget = |per_minute: u32, function: Option<&String>| {
            NonZeroU32::new(per_minute).map(|n| Budget {
                limiter: RateLimiter::direct_with_clock(Quota::per_minute(n), clock.clone()),
                per_minute,
                function: function.cloned(),
            })
        };
        let rl = skill.constraints.rate_limit.as_ref();
        let global = rl
            .and_then(|r| r.global.as_ref())
            .and_then(|g| budget(g.max_requests_per_minute, None));
        let per_function = rl
            .map(|r| {
                r.per_function
                    .iter()
                    .filter_map(|(name, l)| {
                        budget(l.max_requests_per_minute, Some(name)).map(|b| (name.clone(), b))
                    })
                    .collect()
            })
            .unwrap_or_default();
        let limit_code = rl.and_then(|r| r.global.as_ref()?.error_code);
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
            limit_code,
            max_wait: None,
            clock,
            sleeper,
            rng: Mutex::new(StdRng::seed_from_u64(seed)),
        }
    }

    /// Waits out a rate limit only up to `max_wait`; a longer one is answered with
    /// [`CallError::RateLimited`] instead (a chat turn must not hang on a budget).
    pub fn with_max_wait(mut self, max_wait: Duration) -> SkillRuntime<C> {
        self.max_wait = Some(max_wait);
        self
    }

    pub fn policy(&self) -> &RetryPolicy {
        &self.policy
    }

    /// The code the source answers when its rate limit is hit, as the skill declares it: a
    /// caller reports the source's limit with it, so the runtime knows it for one.
    pub fn limit_code(&self) -> Option<i64> {
        self.limit_code
    }

    fn too_long(&self, wait: Duration) -> bool {
        self.max_wait.is_some_and(|max| wait > max)
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

    /// Run `op`, a call that leaves the machine, under the rate limits and retry rules. `op`
    /// gets the attempt number (0 first).
    pub async fn call<T, F, Fut>(&self, function: &str, op: F) -> Result<T, CallError>
    where
        F: FnMut(u32) -> Fut,
        Fut: Future<Output = Result<T, CallFailure>>,
    {
        self.call_on(Reach::Remote, function, op).await
    }

    /// [`SkillRuntime::call`] for data from `reach`: only a remote call is rate limited.
    pub async fn call_on<T, F, Fut>(
        &self,
        reach: Reach,
        function: &str,
        mut op: F,
    ) -> Result<T, CallError>
    where
        F: FnMut(u32) -> Fut,
        Fut: Future<Output = Result<T, CallFailure>>,
    {
        let mut attempt = 0u32;
        loop {
            if reach == Reach::Remote {
                self.acquire(function).await?;
            }
            match op(attempt).await {
                Ok(value) => return Ok(value),
                Err(failure) => {
                    let sample: f64 = self
                        .rng
                        .lock()
                        .map(|mut r| r.random::<f64>())
                        .unwrap_or(0.0);
                    match self.policy.decide(attempt, &failure, sample) {
                        Decision::Retry(wait)
                            if Some(failure.code) == self.limit_code && self.too_long(wait) =>
                        {
                            return Err(CallError::RateLimited {
                                by: LimitedBy::Source {
                                    code: failure.code,
                                    message: failure.message,
                                },
                                retry_in: wait,
                            });
                        }
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
        op: F,
    ) -> Result<T, CallError>
    where
        F: FnMut(u32, serde_json::Map<String, Value>) -> Fut,
        Fut: Future<Output = Result<T, CallFailure>>,
    {
        self.invoke_on(Reach::Remote, function, args, op).await
    }

    /// [`SkillRuntime::invoke`] for data from `reach`: validated and retried alike, and rate
    /// limited only when it leaves the machine.
    pub async fn invoke_on<T, F, Fut>(
        &self,
        reach: Reach,
        function: &str,
        args: &Value,
        mut op: F,
    ) -> Result<T, CallError>
    where
        F: FnMut(u32, serde_json::Map<String, Value>) -> Fut,
        Fut: Future<Output = Result<T, CallFailure>>,
    {
        let validated = self.prepare(function, args)?;
        self.call_on(reach, function, |attempt| {
            op(attempt, validated.args.clone())
        })
        .await
    }

    /// Wait until both the function's and the skill's budgets allow one more request, or
    /// say how long that would take when it is longer than the caller waits.
    async fn acquire(&self, function: &str) -> Result<(), CallError> {
        // The function's budget first: it is the smaller, so a refusal there spends none of
        // the skill's.
        for budget in [self.per_function.get(function), self.global.as_ref()]
            .into_iter()
            .flatten()
        {
            while let Err(not_until) = budget.limiter.check() {
                let wait = not_until.wait_time_from(self.clock.now());
                if self.too_long(wait) {
                    return Err(CallError::RateLimited {
                        by: LimitedBy::Budget {
                            function: budget.function.clone(),
                            per_minute: budget.per_minute,
                        },
                        retry_in: wait,
                    });
                }
                self.sleeper.sleep(wait.max(Duration::from_millis(1))).await;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
