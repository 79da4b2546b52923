//! The retry decision, as a pure function of the attempt, the failure and a random sample, so
//! the rules can be tested exactly.

use std::time::Duration;

use crate::ir::{BackoffStrategy, ErrorHandling};

use super::CallFailure;

#[derive(Debug, Clone, PartialEq)]
pub struct RetryPolicy {
    pub retryable: Vec<i64>,
    pub non_retryable: Vec<i64>,
    pub max_retries: u32,
    pub strategy: BackoffStrategy,
    pub base: Duration,
    pub max: Duration,
    pub jitter: f64,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Decision {
    Retry(Duration),
    GiveUp { retryable: bool },
}

impl From<&ErrorHandling> for RetryPolicy {
    fn from(e: &ErrorHandling) -> RetryPolicy {
        RetryPolicy {
            retryable: e.retryable_codes.clone(),
            non_retryable: e.non_retryable_codes.clone(),
            max_retries: e.max_retries,
            strategy: e.backoff_strategy,
            base: Duration::from_millis(e.backoff.base_ms),
            max: Duration::from_millis(e.backoff.max_ms),
            jitter: e.backoff.jitter,
        }
    }
}

impl RetryPolicy {
    /// The backoff before retry number `attempt + 1`, without jitter: `min(base · 2^attempt, max)`.
    pub fn backoff(&self, attempt: u32) -> Duration {
        if self.strategy == BackoffStrategy::Fixed {
            return self.base;
        }
        let factor = 2u32.checked_pow(attempt).unwrap_or(u32::MAX);
        self.base.saturating_mul(factor).min(self.max)
    }

    /// `attempt` is the number of retries already made; `sample` is uniform in [0, 1).
    ///
    /// Rules: a non-retryable code, or a code the skill does not list as retryable, is never
    /// retried (an unknown failure is not assumed safe to repeat); after `max_retries` retries
    /// we give up; a `Retry-After` is honoured as given; otherwise exponential backoff plus up
    /// to `jitter` of it at random, so many clients do not retry in lockstep.
    pub fn decide(&self, attempt: u32, failure: &CallFailure, sample: f64) -> Decision {
        let retryable =
            self.retryable.contains(&failure.code) && !self.non_retryable.contains(&failure.code);
        if !retryable || attempt >= self.max_retries {
            return Decision::GiveUp { retryable };
        }
        if let Some(wait) = failure.retry_after {
            return Decision::Retry(wait);
        }
        let backoff = self.backoff(attempt);
        let jitter = if self.strategy == BackoffStrategy::ExponentialJitter {
            self.jitter
        } else {
            0.0
        };
        let extra = backoff.mul_f64(jitter * sample.clamp(0.0, 1.0));
        Decision::Retry(backoff + extra)
    }
}
