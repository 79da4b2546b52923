//! The REST transport every Hyperliquid call goes through: `POST /info` for reads (no
//! signature: "queries require the actual account address"), `POST /exchange` for actions
//! signed by the agent wallet with a fresh nonce, Hyperliquid's answers read into data or a
//! typed refusal, and retries with exponential backoff and jitter.
//!
//! `/exchange` answers `{"status": "ok", "response": {"type": …, "data": {"statuses": […]}}}`
//! or `{"status": "err", "response": "<message>"}` (docs, "Exchange endpoint" and "Error
//! responses"); the request is `{"action", "nonce", "signature", "vaultAddress"}` as the SDK's
//! `Exchange._post_action` sends it. Retries are automatic only for requests that are safe to
//! repeat: an order goes out with [`Retry::Never`] and [`super::HyperliquidPerp::place_order`]
//! looks its cloid up before sending it again.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use serde::Serialize;
use serde_json::{Value, json};

use super::codes;
use super::config::{HyperliquidCredentials, HyperliquidEndpoints, HyperliquidOptions};
use super::sign::sign_l1_action;
use crate::retry::snippet;
use crate::{Clock, RejectKind, VenueError};
use nofxi_domain::transport::{TransportCause, shown_url, source_chain};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Retry {
    /// Safe to repeat: reads, settings, cancels.
    Safe,
    /// Not safe when the outcome is unknown (timeouts, 5xx). A rate-limited request or a
    /// refused nonce is still sent again: Hyperliquid did not carry it out.
    Never,
}

/// The last nonce any client of this process signed with. Nonces are kept per signer, and
/// every trader of an account signs with its one agent wallet: one counter for the process
/// keeps two traders' actions of the same millisecond apart ("fetch and increment an atomic
/// counter that ensures a unique nonce", docs, "Nonces and API wallets").
static LAST_NONCE: AtomicU64 = AtomicU64::new(0);

const INFO: &str = "/info";
const EXCHANGE: &str = "/exchange";

#[derive(Debug)]
pub struct HyperliquidClient {
    http: reqwest::Client,
    endpoints: HyperliquidEndpoints,
    credentials: Option<HyperliquidCredentials>,
    options: HyperliquidOptions,
    clock: Arc<dyn Clock>,
    venue: String,
}

/// The body of an `/exchange` request, fields in the SDK's order.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ExchangeRequest<'a, A: Serialize> {
    action: &'a A,
    nonce: u64,
    signature: Value,
    vault_address: Option<String>,
}

impl HyperliquidClient {
    pub fn new(
        venue: &str,
        endpoints: HyperliquidEndpoints,
        credentials: Option<HyperliquidCredentials>,
        options: HyperliquidOptions,
        clock: Arc<dyn Clock>,
    ) -> Result<Self, VenueError> {
        let http = reqwest::Client::builder()
            .timeout(options.timeout)
            .user_agent(concat!("nofxi/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| VenueError::Network {
                venue: venue.into(),
                at: at(&endpoints),
                cause: TransportCause::Other,
                detail: e.without_url().to_string(),
            })?;
        Ok(HyperliquidClient {
            http,
            endpoints,
            credentials,
            options,
            clock,
            venue: venue.into(),
        })
    }

    pub fn venue(&self) -> &str {
        &self.venue
    }

    pub fn options(&self) -> &HyperliquidOptions {
        &self.options
    }

    pub fn clock(&self) -> &Arc<dyn Clock> {
        &self.clock
    }

    pub fn credentials(&self) -> Result<&HyperliquidCredentials, VenueError> {
        self.credentials.as_ref().ok_or_else(|| {
            VenueError::InvalidRequest(
                "this exchange has no agent wallet: add api_key (the agent wallet's private key) and wallet_addr (the main wallet's address)".into(),
            )
        })
    }

    /// The main wallet's address every account query names.
    pub fn wallet(&self) -> Result<&str, VenueError> {
        Ok(self.credentials()?.wallet_address())
    }

    /// Server time minus local time, from `{"type": "exchangeStatus"}`'s `time` (the midpoint
    /// of the round trip is the local instant it corresponds to). In ms.
    pub async fn clock_offset(&self) -> Result<i64, VenueError> {
        let before = self.clock.now_ms();
        let status = self.info(&json!({"type": "exchangeStatus"})).await?;
        let after = self.clock.now_ms();
        let server = status["time"].as_i64().ok_or_else(|| {
            VenueError::unreadable(&self.venue, "time").in_answer_to("POST /info exchangeStatus")
        })?;
        Ok(server - (before + after) / 2)
    }

    /// `POST /info` with `body`: the answer as it is (Hyperliquid's reads have no envelope).
    pub async fn info(&self, body: &Value) -> Result<Value, VenueError> {
        let text = body.to_string();
        let mut attempt = 0;
        loop {
            let err = match self.post(INFO, &text).await {
                Ok(answer) => return Ok(answer),
                Err(e) => e,
            };
            if !err.is_retryable() || attempt >= self.options.max_retries {
                return Err(err);
            }
            self.wait(attempt, &err).await;
            attempt += 1;
        }
    }

    /// `POST /exchange` of `action`, signed with a fresh nonce per attempt: its `response`
    /// (`{"type": …, "data": …}`) once Hyperliquid answered `ok`.
    pub async fn exchange<A: Serialize>(
        &self,
        action: &A,
        retry: Retry,
    ) -> Result<Value, VenueError> {
        let credentials = self.credentials()?;
        let mut renonced = false;
        let mut attempt = 0;
        loop {
            let nonce = self.next_nonce();
            let signature =
                sign_l1_action(credentials.key(), action, nonce, self.endpoints.mainnet)?;
            let body = serde_json::to_string(&ExchangeRequest {
                action,
                nonce,
                signature,
                vault_address: None,
            })
            .map_err(|e| VenueError::InvalidRequest(format!("the action cannot be sent: {e}")))?;
            let err = match self
                .post(EXCHANGE, &body)
                .await
                .and_then(|a| self.outcome(a))
            {
                Ok(response) => return Ok(response),
                Err(e) => e,
            };
            // A refused nonce (reused by another process, or a clock off) was not carried
            // out: once more with a fresh one.
            if err.kind() == Some(RejectKind::ClockDrift) && !renonced {
                renonced = true;
                continue;
            }
            let repeatable = match retry {
                Retry::Safe => err.is_retryable(),
                Retry::Never => err.kind() == Some(RejectKind::RateLimited),
            };
            if !repeatable || attempt >= self.options.max_retries {
                return Err(err);
            }
            self.wait(attempt, &err).await;
            attempt += 1;
        }
    }

    async fn wait(&self, attempt: u32, err: &VenueError) {
        let wait = crate::retry::backoff(
            self.options.backoff_base,
            self.options.backoff_max,
            attempt,
            err,
        );
        tracing::debug!(venue = %self.venue, attempt, ?wait, error = %err, "retrying");
        self.clock.sleep(wait).await;
    }

    /// The next nonce: now in ms, or one past the last one signed.
    fn next_nonce(&self) -> u64 {
        let now = u64::try_from(self.clock.now_ms()).unwrap_or(0);
        let mut last = LAST_NONCE.load(Ordering::SeqCst);
        loop {
            let next = now.max(last + 1);
            match LAST_NONCE.compare_exchange(last, next, Ordering::SeqCst, Ordering::SeqCst) {
                Ok(_) => return next,
                Err(seen) => last = seen,
            }
        }
    }

    /// An `/exchange` answer: its `response` when `ok`, the refusal when `err`.
    fn outcome(&self, answer: Value) -> Result<Value, VenueError> {
        match answer["status"].as_str() {
            Some("ok") => Ok(answer["response"].clone()),
            Some("err") => {
                let message = answer["response"].as_str().unwrap_or_default();
                Err(self.refusal(&self.redact(message), 200, None))
            }
            _ => Err(VenueError::unreadable(&self.venue, "status")
                .in_answer_to(&format!("POST {EXCHANGE}"))),
        }
    }

    /// A refusal in Hyperliquid's words, typed by them.
    pub(crate) fn refusal(
        &self,
        message: &str,
        http_status: u16,
        retry_after: Option<Duration>,
    ) -> VenueError {
        let kind = if http_status == 429 {
            RejectKind::RateLimited
        } else {
            codes::reject_kind(message)
        };
        VenueError::Rejected {
            venue: self.venue.clone(),
            kind,
            code: kind.binance_code(),
            message: message.to_string(),
            http_status,
            retry_after,
        }
    }

    async fn post(&self, path: &str, body: &str) -> Result<Value, VenueError> {
        let endpoint = format!("POST {path}");
        let response = self
            .http
            .post(format!("{}{path}", self.endpoints.rest))
            .header("Content-Type", "application/json")
            .body(body.to_string())
            .send()
            .await
            .map_err(|e| self.transport(e))?;
        let status = response.status().as_u16();
        let retry_after = response
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map(Duration::from_secs);
        let text = response.text().await.map_err(|e| self.transport(e))?;
        if status == 429 {
            return Err(self.refusal("Too Many Requests", 429, retry_after));
        }
        if !(200..300).contains(&status) {
            let detail = self.redact(&snippet(&text));
            // 4xx with text: Hyperliquid's own words on a body it could not take (422
            // "Failed to deserialize the JSON body into the target type").
            return Err(if status < 500 && !text.trim_start().starts_with('<') {
                self.refusal(&detail, status, None)
            } else {
                VenueError::BadResponse {
                    venue: self.venue.clone(),
                    status,
                    detail,
                }
            });
        }
        serde_json::from_str(&text).map_err(|_| {
            if text.trim_start().starts_with('<') {
                VenueError::BadResponse {
                    venue: self.venue.clone(),
                    status,
                    detail: snippet(&text),
                }
            } else {
                VenueError::unreadable(&self.venue, crate::error::WHOLE_ANSWER)
                    .in_answer_to(&endpoint)
            }
        })
    }

    /// `text` without anything shaped like a key: a proxy may quote the request. The agent
    /// key never leaves this process (only signatures do), but a pasted key may sit in a
    /// message.
    fn redact(&self, text: &str) -> String {
        nofxi_domain::redact_values(text, &[])
    }

    /// No answer: the base URL (shown without credentials) and where it came from, and the
    /// cause by the rule every client shares (`nofxi_domain::transport`).
    fn transport(&self, e: reqwest::Error) -> VenueError {
        let e = e.without_url();
        let (chain, kinds) = source_chain(&e);
        match TransportCause::classify(&chain, &kinds, e.is_timeout(), e.is_builder()) {
            TransportCause::Timeout => VenueError::Timeout {
                venue: self.venue.clone(),
                at: at(&self.endpoints),
                timeout: self.options.timeout,
            },
            cause => VenueError::Network {
                venue: self.venue.clone(),
                at: at(&self.endpoints),
                cause,
                detail: self.redact(&chain),
            },
        }
    }
}

/// `at http://127.0.0.1:9 (from NOFXI_HYPERLIQUID_BASE_URL)`, for an error.
fn at(endpoints: &HyperliquidEndpoints) -> String {
    format!(
        "at {} (from {})",
        shown_url(&endpoints.rest),
        endpoints.origin
    )
}
