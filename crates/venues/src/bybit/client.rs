//! The REST transport every Bybit call goes through: signing with the server-time offset,
//! Bybit's answer envelope read into data or a typed refusal, and retries with exponential
//! backoff and jitter (or Bybit's own reset time).
//!
//! Every answer is `{"retCode":0,"retMsg":"OK","result":{…},"retExtInfo":{},"time":…}` on
//! success (Bybit API v5 docs, "Integration Guidance" → "Common response parameters",
//! https://bybit-exchange.github.io/docs/v5/guide); anything else is read by
//! [`super::codes`]. Retries are automatic only for requests that are safe to repeat: an order
//! goes out with [`Retry::Never`] and [`super::BybitLinear::place_order`] looks its client id
//! up before sending it again.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::time::Duration;

use reqwest::Method;
use reqwest::header::{HeaderMap, HeaderValue};
use serde_json::Value;

use super::codes::{self, RATE_LIMIT};
use super::config::{BybitCredentials, BybitEndpoints, BybitOptions};
use super::sign::{plain_text, sign};
use crate::binance::sign::query_string;
use crate::retry::snippet;
use crate::{Clock, RejectKind, VenueError};
use nofxi_domain::transport::{TransportCause, shown_url, source_chain};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Retry {
    /// Safe to repeat: reads, settings, cancels.
    Safe,
    /// Not safe when the outcome is unknown (timeouts, 5xx). A rate-limited request is still
    /// retried: Bybit did not carry it out.
    Never,
}

const TIME: &str = "/v5/market/time";
/// "the timestamp indicating when your request limit resets if you have exceeded your
/// rate_limit" ("Rate Limit Rules" → "API Rate Limit").
const LIMIT_RESET: &str = "x-bapi-limit-reset-timestamp";
/// The longest wait a reset header is believed for; past it, nofxi's own backoff decides.
const LONGEST_RESET: Duration = Duration::from_secs(60);

#[derive(Debug)]
pub struct BybitClient {
    http: reqwest::Client,
    endpoints: BybitEndpoints,
    credentials: Option<BybitCredentials>,
    options: BybitOptions,
    clock: Arc<dyn Clock>,
    venue: String,
    offset_ms: AtomicI64,
    offset_known: AtomicBool,
}

impl BybitClient {
    pub fn new(
        venue: &str,
        endpoints: BybitEndpoints,
        credentials: Option<BybitCredentials>,
        options: BybitOptions,
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
        Ok(BybitClient {
            http,
            endpoints,
            credentials,
            options,
            clock,
            venue: venue.into(),
            offset_ms: AtomicI64::new(0),
            offset_known: AtomicBool::new(false),
        })
    }

    pub fn venue(&self) -> &str {
        &self.venue
    }

    pub fn options(&self) -> &BybitOptions {
        &self.options
    }

    pub fn clock(&self) -> &Arc<dyn Clock> {
        &self.clock
    }

    /// Server time minus local time, as last measured.
    pub fn offset_ms(&self) -> i64 {
        self.offset_ms.load(Ordering::SeqCst)
    }

    /// The server's clock now, as this machine estimates it.
    pub fn server_now_ms(&self) -> i64 {
        self.clock.now_ms() + self.offset_ms()
    }

    /// Measure the server-time offset from `GET /v5/market/time` ("Get Bybit Server Time":
    /// `timeNano`, the server's time in nanoseconds; the midpoint of the round trip is the
    /// local instant it corresponds to). Returns it in ms.
    pub async fn sync_time(&self) -> Result<i64, VenueError> {
        let before = self.clock.now_ms();
        let result = self.send_once(Method::GET, TIME, "", "", false).await?;
        let after = self.clock.now_ms();
        let server = result["timeNano"]
            .as_str()
            .and_then(|t| t.trim().parse::<i128>().ok())
            .and_then(|ns| i64::try_from(ns / 1_000_000).ok())
            .ok_or_else(|| VenueError::unreadable(&self.venue, "result.timeNano"))
            .map_err(|e| e.in_answer_to(&format!("GET {TIME}")))?;
        let offset = server - (before + after) / 2;
        self.offset_ms.store(offset, Ordering::SeqCst);
        self.offset_known.store(true, Ordering::SeqCst);
        Ok(offset)
    }

    /// An unsigned GET (market data, instruments): its `result`.
    pub async fn public(&self, path: &str, params: &[(&str, String)]) -> Result<Value, VenueError> {
        self.request(Method::GET, path, params, None, false, Retry::Safe)
            .await
    }

    /// A signed GET: its `result`.
    pub async fn get(&self, path: &str, params: &[(&str, String)]) -> Result<Value, VenueError> {
        self.signed(Method::GET, path, params, None, Retry::Safe)
            .await
    }

    /// A signed POST of `body` (a JSON object): its `result`.
    pub async fn post(&self, path: &str, body: &Value, retry: Retry) -> Result<Value, VenueError> {
        self.signed(Method::POST, path, &[], Some(body), retry)
            .await
    }

    async fn signed(
        &self,
        method: Method,
        path: &str,
        params: &[(&str, String)],
        body: Option<&Value>,
        retry: Retry,
    ) -> Result<Value, VenueError> {
        if !self.offset_known.load(Ordering::SeqCst) {
            self.sync_time().await?;
        }
        self.request(method, path, params, body, true, retry).await
    }

    async fn request(
        &self,
        method: Method,
        path: &str,
        params: &[(&str, String)],
        body: Option<&Value>,
        signed: bool,
        retry: Retry,
    ) -> Result<Value, VenueError> {
        let query = query_string(params);
        // The exact text signed is the text sent.
        let body = body.map(Value::to_string).unwrap_or_default();
        let mut resynced = false;
        let mut attempt = 0;
        loop {
            let err = match self
                .send_once(method.clone(), path, &query, &body, signed)
                .await
            {
                Ok(result) => return Ok(result),
                Err(e) => e,
            };
            // A drifted clock is fixed by measuring the offset again, once.
            if signed && err.kind() == Some(RejectKind::ClockDrift) && !resynced {
                resynced = true;
                self.sync_time().await?;
                continue;
            }
            let repeatable = match retry {
                Retry::Safe => err.is_retryable(),
                Retry::Never => err.kind() == Some(RejectKind::RateLimited),
            };
            if !repeatable || attempt >= self.options.max_retries {
                return Err(err);
            }
            let wait = crate::retry::backoff(
                self.options.backoff_base,
                self.options.backoff_max,
                attempt,
                &err,
            );
            tracing::debug!(venue = %self.venue, path, attempt, ?wait, error = %err, "retrying");
            self.clock.sleep(wait).await;
            attempt += 1;
        }
    }

    /// The `X-BAPI-*` headers ("HTTP Headers for Authenticated Endpoints"); the signature
    /// sent, for the redactor.
    fn headers(
        &self,
        payload: &str,
        has_body: bool,
        signed: bool,
    ) -> Result<(HeaderMap, Option<String>), VenueError> {
        let mut headers = HeaderMap::new();
        if has_body {
            headers.insert("Content-Type", HeaderValue::from_static("application/json"));
        }
        if !signed {
            return Ok((headers, None));
        }
        let creds = self.credentials.as_ref().ok_or_else(|| {
            VenueError::InvalidRequest(
                "this exchange has no API key: add api_key and secret_key".into(),
            )
        })?;
        let key = HeaderValue::from_str(creds.api_key()).map_err(|_| {
            VenueError::rejected(
                &self.venue,
                RejectKind::BadKeyFormat,
                "the API key has characters a request header cannot carry",
            )
        })?;
        let ts = self.server_now_ms();
        let window = self.options.recv_window_ms;
        let signature = sign(
            creds.secret(),
            &plain_text(ts, creds.api_key(), window, payload),
        )?;
        let as_header = |v: &str| {
            HeaderValue::from_str(v).map_err(|_| VenueError::InvalidRequest("unsignable".into()))
        };
        headers.insert("X-BAPI-API-KEY", key);
        headers.insert("X-BAPI-SIGN", as_header(&signature)?);
        headers.insert("X-BAPI-TIMESTAMP", as_header(&ts.to_string())?);
        headers.insert("X-BAPI-RECV-WINDOW", as_header(&window.to_string())?);
        Ok((headers, Some(signature)))
    }

    async fn send_once(
        &self,
        method: Method,
        path: &str,
        query: &str,
        body: &str,
        signed: bool,
    ) -> Result<Value, VenueError> {
        // A GET signs its query string, a POST its body.
        let payload = if method == Method::GET { query } else { body };
        let (headers, signature) = self.headers(payload, !body.is_empty(), signed)?;
        let redact = |text: &str| self.redact(text, signature.as_deref());
        let endpoint = format!("{method} {path}");
        let url = if query.is_empty() {
            format!("{}{path}", self.endpoints.rest)
        } else {
            format!("{}{path}?{query}", self.endpoints.rest)
        };
        let mut request = self.http.request(method, url).headers(headers);
        if !body.is_empty() {
            request = request.body(body.to_string());
        }
        let response = request
            .send()
            .await
            .map_err(|e| self.transport(e, &redact))?;
        let status = response.status().as_u16();
        let reset_ms = response
            .headers()
            .get(LIMIT_RESET)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<i64>().ok());
        let text = response
            .text()
            .await
            .map_err(|e| self.transport(e, &redact))?;
        let json: Option<Value> = serde_json::from_str(&text).ok();
        let Some(answer) = json.filter(|j| j["retCode"].as_i64().is_some()) else {
            return Err(match status {
                429 => self.refusal(429, status, "Too Many Requests", None),
                403 if !text.trim_start().starts_with('<') => {
                    self.refusal(403, status, &redact(&snippet(&text)), None)
                }
                200..300 if !text.trim_start().starts_with('<') => {
                    VenueError::unreadable(&self.venue, "retCode").in_answer_to(&endpoint)
                }
                _ => self.bad(status, &redact(&snippet(&text))),
            });
        };
        let code = answer["retCode"].as_i64().unwrap_or_default();
        let message = with_reasons(&answer);
        let message = message.as_str();
        if code == 0 {
            return match &answer["result"] {
                result @ Value::Object(_) => Ok(result.clone()),
                _ => Err(VenueError::unreadable(&self.venue, "result").in_answer_to(&endpoint)),
            };
        }
        if status >= 500 {
            return Err(self.bad(status, &redact(&format!("{code} {message}"))));
        }
        let retry_after = (code == RATE_LIMIT)
            .then(|| reset_ms.map(|reset| self.until(reset)))
            .flatten();
        Err(self.refusal(code, status, &redact(message), retry_after))
    }

    /// How long until the server's `reset_ms`, as this machine's clock runs; nothing when
    /// the header says a time already past or implausibly far.
    fn until(&self, reset_ms: i64) -> Duration {
        let wait = u64::try_from(reset_ms - self.server_now_ms()).unwrap_or(0);
        Duration::from_millis(wait).min(LONGEST_RESET)
    }

    fn refusal(
        &self,
        code: i64,
        http_status: u16,
        message: &str,
        retry_after: Option<Duration>,
    ) -> VenueError {
        VenueError::Rejected {
            venue: self.venue.clone(),
            kind: codes::reject_kind(code, http_status, message),
            code,
            message: message.to_string(),
            http_status,
            retry_after,
        }
    }

    fn bad(&self, status: u16, detail: &str) -> VenueError {
        VenueError::BadResponse {
            venue: self.venue.clone(),
            status,
            detail: detail.into(),
        }
    }

    /// `text` without this client's key, secret or the request's signature, or anything else
    /// shaped like a key: Bybit's 10004 quotes the signed text, key included
    /// (`error sign! origin_string[…]`), and a proxy may quote the request.
    fn redact(&self, text: &str, signature: Option<&str>) -> String {
        let mut values: Vec<&str> = signature.into_iter().collect();
        if let Some(c) = &self.credentials {
            values.extend([c.api_key(), c.secret()]);
        }
        nofxi_domain::redact_values(text, &values)
    }

    /// No answer: the base URL (shown without credentials) and where it came from, and the
    /// cause by the rule every client shares (`nofxi_domain::transport`).
    fn transport(&self, e: reqwest::Error, redact: &dyn Fn(&str) -> String) -> VenueError {
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
                detail: redact(&chain),
            },
        }
    }
}

/// `retMsg`, and the reasons a refusal lists in its `result` ("Set Margin Mode": `"retMsg":
/// "Set margin mode failed"` with `result.reasons[].reasonMsg` saying why).
fn with_reasons(answer: &Value) -> String {
    let message = answer["retMsg"].as_str().unwrap_or_default();
    let reasons: Vec<&str> = answer["result"]["reasons"]
        .as_array()
        .map(|r| r.iter().filter_map(|r| r["reasonMsg"].as_str()).collect())
        .unwrap_or_default();
    if reasons.is_empty() {
        message.to_string()
    } else {
        format!("{message}: {}", reasons.join("; "))
    }
}

/// `at http://127.0.0.1:9 (from NOFXI_BYBIT_BASE_URL)`, for an error.
fn at(endpoints: &BybitEndpoints) -> String {
    format!(
        "at {} (from {})",
        shown_url(&endpoints.rest),
        endpoints.origin
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The docs' "Set Margin Mode" refusal.
    #[test]
    fn a_refusal_says_the_reasons_it_lists() {
        let answer = json!({"retCode": 3400045, "retMsg": "Set margin mode failed",
            "result": {"reasons": [{"reasonCode": "3400000",
                "reasonMsg": "Equity needs to be equal to or greater than 1000 USDC"}]}});
        assert_eq!(
            with_reasons(&answer),
            "Set margin mode failed: Equity needs to be equal to or greater than 1000 USDC"
        );
        let plain = json!({"retCode": 10004, "retMsg": "error sign!", "result": {}});
        assert_eq!(with_reasons(&plain), "error sign!");
    }
}
