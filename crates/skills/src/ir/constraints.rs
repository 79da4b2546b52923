//! The `constraints:` block (seed 003): rate limits, retry rules, error codes and data coverage.
//! `crate::runtime` executes them.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::text::Text;

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Constraints {
    #[serde(default)]
    pub rate_limit: Option<RateLimits>,
    #[serde(default)]
    pub authentication: Option<Authentication>,
    #[serde(default)]
    pub error_handling: Option<ErrorHandling>,
    /// What each error code of the data source means, for messages.
    #[serde(default)]
    pub error_codes: Vec<ErrorCode>,
    #[serde(default)]
    pub data_coverage: Option<DataCoverage>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RateLimits {
    /// One budget for the whole skill.
    #[serde(default)]
    pub global: Option<RateLimit>,
    /// Budgets per function name (seed 003 calls them `per_endpoint`).
    #[serde(default, alias = "per_endpoint")]
    pub per_function: BTreeMap<String, RateLimit>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RateLimit {
    pub max_requests_per_minute: u32,
    /// The code the source answers when the limit is exceeded.
    #[serde(default)]
    pub error_code: Option<i64>,
    /// The header that says how long to wait.
    #[serde(default)]
    pub retry_header: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Authentication {
    pub method: String,
    #[serde(default)]
    pub header: Option<String>,
    #[serde(default)]
    pub env_variable: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ErrorHandling {
    pub retryable_codes: Vec<i64>,
    #[serde(default)]
    pub non_retryable_codes: Vec<i64>,
    pub max_retries: u32,
    /// Seed 003 spells the strategy here; `exponential_jitter` when absent.
    #[serde(default)]
    pub backoff_strategy: BackoffStrategy,
    #[serde(default)]
    pub backoff: Backoff,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BackoffStrategy {
    /// `base · 2ⁿ` capped at `max`, plus random jitter: many clients never retry in lockstep.
    #[default]
    ExponentialJitter,
    /// `base · 2ⁿ` capped at `max`.
    Exponential,
    /// Always `base`.
    Fixed,
}

/// Exponential backoff with jitter: attempt n waits `min(base · 2ⁿ, max)` plus a uniform
/// random share of up to `jitter` of that. A `Retry-After` from the source replaces it.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Backoff {
    pub base_ms: u64,
    pub max_ms: u64,
    pub jitter: f64,
}

impl Default for Backoff {
    fn default() -> Backoff {
        Backoff {
            base_ms: 1000,
            max_ms: 30_000,
            jitter: 0.1,
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ErrorCode {
    pub code: i64,
    pub meaning: Text,
    /// What the user should do.
    #[serde(default)]
    pub fix: Option<Text>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DataCoverage {
    /// What each market offers, for humans and prompts.
    #[serde(default)]
    pub markets: Vec<Text>,
    /// How a symbol is classified (index, forex, metal, crypto, stock…); first match wins.
    #[serde(default)]
    pub asset_classes: Vec<AssetClassRule>,
    #[serde(default)]
    pub exclusions: Vec<CoverageExclusion>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AssetClassRule {
    pub class: String,
    /// Exact symbols.
    #[serde(default)]
    pub symbols: Vec<String>,
    /// A regular expression over the symbol.
    #[serde(default)]
    pub pattern: Option<String>,
    #[serde(skip)]
    pub(crate) compiled: Option<regex::Regex>,
}

impl AssetClassRule {
    pub fn matches(&self, symbol: &str) -> bool {
        self.symbols.iter().any(|s| s.eq_ignore_ascii_case(symbol))
            || self.compiled.as_ref().is_some_and(|r| r.is_match(symbol))
    }
}

/// Functions that do not serve some asset classes, and the reason said to the user.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CoverageExclusion {
    pub functions: Vec<String>,
    pub asset_classes: Vec<String>,
    pub reason: Text,
}
