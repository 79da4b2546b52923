//! One HTTP POST to a model, with a timeout and retries, shared by the three wire formats.
//!
//! What is retried: rate limits (but not an exhausted quota), the provider's own failures
//! (5xx, 529), timeouts and dropped connections — the kinds for which
//! [`crate::LlmErrorKind::is_retryable`] says waiting can help. Delays grow exponentially with
//! jitter, so many traders hitting one provider do not retry in step; a `Retry-After` the
//! provider sends is honoured, and one longer than [`RetryPolicy::max_delay`] ends the retries
//! (the error carries it, so the caller can decide). A stream is retried only until its first
//! byte: after that, text has reached the caller and a second attempt would repeat it.
//!
//! The timeout is per attempt. For a plain request it bounds the whole answer; for a stream it
//! bounds the wait for the headers and then each silence between chunks, so a long answer that
//! keeps flowing is not cut off.

use std::future::Future;
use std::time::Duration;

use nofxi_domain::Secret;
use reqwest::header::{ACCEPT, CONTENT_TYPE, HeaderMap, RETRY_AFTER};
use serde_json::Value;

use crate::classify;
use crate::error::{LlmError, LlmErrorKind};

/// How often and how patiently to retry a failed call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Attempts in all, the first included; 1 means no retry.
    pub max_attempts: u32,
    /// The wait before the first retry; each further retry waits twice as long (± jitter).
    pub base_delay: Duration,
    /// No wait is longer; a `Retry-After` beyond it ends the retries.
    pub max_delay: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_attempts: 3,
            base_delay: Duration::from_millis(500),
            max_delay: Duration::from_secs(8),
        }
    }
}

impl RetryPolicy {
    /// One attempt, no retry.
    pub fn no_retry() -> Self {
        RetryPolicy {
            max_attempts: 1,
            ..RetryPolicy::default()
        }
    }

    /// How long to wait before retry number `retry` (1 for the first), or `None` when the
    /// provider asked for a longer wait than this policy allows.
    pub fn delay_before(&self, retry: u32, retry_after_secs: Option<u64>) -> Option<Duration> {
        if let Some(secs) = retry_after_secs {
            let asked = Duration::from_secs(secs);
            return (asked <= self.max_delay).then_some(asked);
        }
        let factor = 2u32.saturating_pow(retry.saturating_sub(1));
        let full = self.base_delay.saturating_mul(factor).min(self.max_delay);
        // "Equal jitter": half fixed, half random, so waits still grow but never line up.
        let half = full / 2;
        Some(half + half.mul_f64(rand::random::<f64>()))
    }
}

/// How a stream request began.
pub(crate) enum StreamStart {
    /// Server-sent events follow.
    Events(reqwest::Response),
    /// The server ignored `stream` and answered with one JSON document.
    Whole(Value),
}

/// A configured HTTP client for one endpoint.
pub(crate) struct Transport {
    client: reqwest::Client,
    headers: HeaderMap,
    timeout: Duration,
    retry: RetryPolicy,
    key: Option<Secret>,
}

/// One HTTP client per connect timeout, shared by every provider and turn: building one loads
/// and parses the system's root certificates (measured at 8–10 % of a busy server's CPU), and
/// a shared one keeps its connections to a provider open between turns instead of a new TLS
/// handshake each time. Headers and keys are per request, never on the client.
fn shared_client(timeout: Duration) -> Result<reqwest::Client, reqwest::Error> {
    static CLIENTS: std::sync::OnceLock<
        std::sync::Mutex<std::collections::HashMap<Duration, reqwest::Client>>,
    > = std::sync::OnceLock::new();
    let clients = CLIENTS.get_or_init(Default::default);
    let mut clients = match clients.lock() {
        Ok(c) => c,
        Err(poisoned) => poisoned.into_inner(),
    };
    if let Some(client) = clients.get(&timeout) {
        return Ok(client.clone());
    }
    let client = reqwest::Client::builder()
        .connect_timeout(timeout)
        .user_agent(concat!("nofxi/", env!("CARGO_PKG_VERSION")))
        .build()?;
    clients.insert(timeout, client.clone());
    Ok(client)
}

impl Transport {
    /// `headers` go on every request (authentication, API version); mark key headers
    /// sensitive so they never show in reqwest's own debug output.
    pub(crate) fn new(
        headers: HeaderMap,
        timeout: Duration,
        retry: RetryPolicy,
        key: Option<Secret>,
    ) -> Result<Transport, reqwest::Error> {
        let client = shared_client(timeout)?;
        Ok(Transport {
            client,
            headers,
            timeout,
            retry,
            key,
        })
    }

    pub(crate) fn key(&self) -> Option<&Secret> {
        self.key.as_ref()
    }

    pub(crate) fn timeout(&self) -> Duration {
        self.timeout
    }

    /// POSTs `body` and returns the JSON answer, retrying what can be retried.
    pub(crate) async fn post_json(&self, url: &str, body: &Value) -> Result<Value, LlmError> {
        self.with_retries(|| self.post_json_once(url, body)).await
    }

    /// POSTs `body` for a stream and returns once the answer has begun, retrying failures that
    /// happen before the first byte of a successful answer.
    pub(crate) async fn post_stream(
        &self,
        url: &str,
        body: &Value,
    ) -> Result<StreamStart, LlmError> {
        self.with_retries(|| self.post_stream_once(url, body)).await
    }

    async fn with_retries<T, F, Fut>(&self, mut attempt: F) -> Result<T, LlmError>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<T, LlmError>>,
    {
        let mut made = 1;
        loop {
            let err = match attempt().await {
                Ok(v) => return Ok(v),
                Err(e) => e,
            };
            if made >= self.retry.max_attempts || !err.kind.is_retryable() {
                return Err(err);
            }
            let Some(wait) = self.retry.delay_before(made, err.retry_after_secs) else {
                return Err(err);
            };
            tracing::debug!(kind = ?err.kind, attempt = made, ?wait, "model call failed; retrying");
            tokio::time::sleep(wait).await;
            made += 1;
        }
    }

    async fn post_json_once(&self, url: &str, body: &Value) -> Result<Value, LlmError> {
        let resp = self
            .client
            .post(url)
            .headers(self.headers.clone())
            .json(body)
            .timeout(self.timeout)
            .send()
            .await
            .map_err(|e| classify::from_transport(&e, self.key()))?;
        let status = resp.status().as_u16();
        let retry_after = retry_after_secs(resp.headers());
        let text = resp
            .text()
            .await
            .map_err(|e| classify::from_transport(&e, self.key()))?;
        self.json_answer(status, &text, retry_after)
    }

    async fn post_stream_once(&self, url: &str, body: &Value) -> Result<StreamStart, LlmError> {
        let send = self
            .client
            .post(url)
            .headers(self.headers.clone())
            .header(ACCEPT, "text/event-stream")
            .json(body)
            .send();
        let resp = tokio::time::timeout(self.timeout, send)
            .await
            .map_err(|_| self.timed_out())?
            .map_err(|e| classify::from_transport(&e, self.key()))?;
        let status = resp.status().as_u16();
        let content_type = resp
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_ascii_lowercase();
        let is_success = (200..300).contains(&status);
        if is_success && !content_type.contains("json") && !content_type.contains("html") {
            return Ok(StreamStart::Events(resp));
        }
        let retry_after = retry_after_secs(resp.headers());
        let text = tokio::time::timeout(self.timeout, resp.text())
            .await
            .map_err(|_| self.timed_out())?
            .map_err(|e| classify::from_transport(&e, self.key()))?;
        self.json_answer(status, &text, retry_after)
            .map(StreamStart::Whole)
    }

    /// A whole answer: an error for a failure status or an error document, else its JSON.
    fn json_answer(
        &self,
        status: u16,
        text: &str,
        retry_after: Option<u64>,
    ) -> Result<Value, LlmError> {
        if !(200..300).contains(&status) {
            return Err(classify::from_response(
                status,
                text,
                retry_after,
                self.key(),
            ));
        }
        let value: Value = serde_json::from_str(text.trim()).map_err(|_| {
            classify::bad_response(status, text, "the answer is not JSON", self.key())
        })?;
        // Some gateways answer 200 with an error document.
        if value
            .get("error")
            .is_some_and(|e| e.is_object() || e.is_string())
        {
            return Err(classify::from_response(
                status,
                text,
                retry_after,
                self.key(),
            ));
        }
        Ok(value)
    }

    pub(crate) fn timed_out(&self) -> LlmError {
        LlmError::new(
            LlmErrorKind::Timeout,
            format!("no answer within {} ms", self.timeout.as_millis()),
        )
    }
}

/// `Retry-After` in seconds (a fraction rounds up). The HTTP-date form is rare for APIs and is
/// treated as absent, which falls back to the policy's own backoff.
fn retry_after_secs(headers: &HeaderMap) -> Option<u64> {
    let raw = headers.get(RETRY_AFTER)?.to_str().ok()?.trim();
    let secs: f64 = raw.parse().ok()?;
    (secs.is_finite() && secs >= 0.0).then(|| secs.ceil() as u64)
}

/// `base` joined with `path`; a base ending in `#` is the whole URL already (REFERENCE §1).
pub(crate) fn endpoint_url(base: &str, path: &str) -> String {
    let base = base.trim();
    match base.strip_suffix('#') {
        Some(exact) => exact.to_string(),
        None => format!(
            "{}/{}",
            base.trim_end_matches('/'),
            path.trim_start_matches('/')
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::HeaderValue;

    #[test]
    fn backoff_grows_with_jitter_and_stays_under_the_cap() {
        let p = RetryPolicy {
            max_attempts: 5,
            base_delay: Duration::from_millis(500),
            max_delay: Duration::from_secs(3),
        };
        for _ in 0..50 {
            let first = p.delay_before(1, None).unwrap();
            assert!(first >= Duration::from_millis(250) && first <= Duration::from_millis(500));
            let second = p.delay_before(2, None).unwrap();
            assert!(second >= Duration::from_millis(500) && second <= Duration::from_secs(1));
            let tenth = p.delay_before(10, None).unwrap();
            assert!(tenth <= Duration::from_secs(3));
        }
    }

    #[test]
    fn retry_after_is_honoured_up_to_the_cap() {
        let p = RetryPolicy::default();
        assert_eq!(p.delay_before(1, Some(2)), Some(Duration::from_secs(2)));
        assert_eq!(p.delay_before(1, Some(600)), None);
    }

    #[test]
    fn retry_after_header_in_seconds() {
        let mut h = HeaderMap::new();
        assert_eq!(retry_after_secs(&h), None);
        h.insert(RETRY_AFTER, HeaderValue::from_static("3"));
        assert_eq!(retry_after_secs(&h), Some(3));
        h.insert(RETRY_AFTER, HeaderValue::from_static("0.2"));
        assert_eq!(retry_after_secs(&h), Some(1));
        h.insert(
            RETRY_AFTER,
            HeaderValue::from_static("Wed, 21 Oct 2015 07:28:00 GMT"),
        );
        assert_eq!(retry_after_secs(&h), None);
    }

    #[test]
    fn hash_suffix_means_use_as_is() {
        assert_eq!(
            endpoint_url("https://api.deepseek.com", "chat/completions"),
            "https://api.deepseek.com/chat/completions"
        );
        assert_eq!(
            endpoint_url("https://api.openai.com/v1/", "/chat/completions"),
            "https://api.openai.com/v1/chat/completions"
        );
        assert_eq!(
            endpoint_url("https://gw.example.com/v2/chat#", "chat/completions"),
            "https://gw.example.com/v2/chat"
        );
    }
}
