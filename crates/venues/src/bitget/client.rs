//! The REST transport every Bitget call goes through: signing with the server-time offset,
//! the demo header, Bitget's answer envelope read into data or a typed refusal, and retries
//! with exponential backoff and jitter.
//!
//! Every answer is `{"code": "00000", "msg": "success", "requestTime": 1695806875837,
//! "data": …}` on success (Bitget API docs, each endpoint's "Response Example"), where `data`
//! is an object, an array or `null` by endpoint; anything else is read by [`super::codes`].
//! Retries are automatic only for requests that are safe to repeat: an order goes out with
//! [`Retry::Never`] and [`super::BitgetFutures::place_order`] looks its client id up before
//! sending it again.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::time::Duration;

use reqwest::Method;
use reqwest::header::{HeaderMap, HeaderValue};
use serde_json::Value;

use super::codes::{self, RATE_LIMIT};
use super::config::{BitgetCredentials, BitgetEndpoints, BitgetOptions};
use super::sign::sign;
use crate::binance::sign::query_string;
use crate::retry::snippet;
use crate::{Clock, RejectKind, VenueError};
use nofxi_domain::transport::{TransportCause, shown_url, source_chain};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Retry {
    /// Safe to repeat: reads, settings, cancels.
    Safe,
    /// Not safe when the outcome is unknown (timeouts, 5xx). A rate-limited request is still
    /// retried: Bitget did not carry it out.
    Never,
}

const TIME: &str = "/api/v2/public/time";

#[derive(Debug)]
pub struct BitgetClient {
    http: reqwest::Client,
    endpoints: BitgetEndpoints,
    credentials: Option<BitgetCredentials>,
    options: BitgetOptions,
    clock: Arc<dyn Clock>,
    venue: String,
    offset_ms: AtomicI64,
    offset_known: AtomicBool,
}

impl BitgetClient {
    pub fn new(
        venue: &str,
        endpoints: BitgetEndpoints,
        credentials: Option<BitgetCredentials>,
        options: BitgetOptions,
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
        Ok(BitgetClient {
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

    pub fn options(&self) -> &BitgetOptions {
        &self.options
    }

    pub fn clock(&self) -> &Arc<dyn Clock> {
        &self.clock
    }

    /// Server time minus local time, as last measured.
    pub fn offset_ms(&self) -> i64 {
        self.offset_ms.load(Ordering::SeqCst)
    }

    /// Measure the server-time offset from `GET /api/v2/public/time` (the midpoint of the
    /// round trip is the local instant the server's time corresponds to). Returns it in ms.
    pub async fn sync_time(&self) -> Result<i64, VenueError> {
        let before = self.clock.now_ms();
        let data = self.send_once(Method::GET, TIME, "", "", false).await?;
        let after = self.clock.now_ms();
        let server = match &data["serverTime"] {
            Value::String(s) => s.trim().parse::<i64>().ok(),
            Value::Number(n) => n.as_i64(),
            _ => None,
        }
        .ok_or_else(|| VenueError::unreadable(&self.venue, "data.serverTime"))
        .map_err(|e| e.in_answer_to(&format!("GET {TIME}")))?;
        let offset = server - (before + after) / 2;
        self.offset_ms.store(offset, Ordering::SeqCst);
        self.offset_known.store(true, Ordering::SeqCst);
        Ok(offset)
    }

    /// An unsigned GET (market data, contracts): its `data`.
    pub async fn public(&self, path: &str, params: &[(&str, String)]) -> Result<Value, VenueError> {
        self.request(Method::GET, path, params, None, false, Retry::Safe)
            .await
    }

    /// A signed GET: its `data`.
    pub async fn get(&self, path: &str, params: &[(&str, String)]) -> Result<Value, VenueError> {
        self.signed(Method::GET, path, params, None, Retry::Safe)
            .await
    }

    /// A signed POST of the JSON object `body`: its `data`.
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
                Ok(data) => return Ok(data),
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

    /// The `ACCESS-*` headers (Bitget API docs, "Signature" → "Initiate a request"), the
    /// language of messages, and the demo header; the signature sent, for the redactor.
    fn headers(
        &self,
        method: &Method,
        request_path: &str,
        body: &str,
        signed: bool,
    ) -> Result<(HeaderMap, Option<String>), VenueError> {
        let mut headers = HeaderMap::new();
        // Messages in English: they are quoted to the user and matched by the diagnosis.
        headers.insert("locale", HeaderValue::from_static("en-US"));
        if self.options.demo {
            headers.insert("paptrading", HeaderValue::from_static("1"));
        }
        if !body.is_empty() {
            headers.insert("Content-Type", HeaderValue::from_static("application/json"));
        }
        if !signed {
            return Ok((headers, None));
        }
        let creds = self.credentials.as_ref().ok_or_else(|| {
            VenueError::InvalidRequest(
                "this exchange has no API key: add api_key, secret_key and passphrase".into(),
            )
        })?;
        let refuse = |kind, what: &str| {
            VenueError::rejected(
                &self.venue,
                kind,
                format!("the {what} has characters a request header cannot carry"),
            )
        };
        let key = HeaderValue::from_str(creds.api_key())
            .map_err(|_| refuse(RejectKind::BadKeyFormat, "API key"))?;
        let passphrase = HeaderValue::from_str(creds.passphrase())
            .map_err(|_| refuse(RejectKind::BadPassphrase, "passphrase"))?;
        let ts = (self.clock.now_ms() + self.offset_ms()).to_string();
        let signature = sign(creds.secret(), &ts, method.as_str(), request_path, body)?;
        let as_header = |v: &str| {
            HeaderValue::from_str(v).map_err(|_| VenueError::InvalidRequest("unsignable".into()))
        };
        headers.insert("ACCESS-KEY", key);
        headers.insert("ACCESS-SIGN", as_header(&signature)?);
        headers.insert("ACCESS-TIMESTAMP", as_header(&ts)?);
        headers.insert("ACCESS-PASSPHRASE", passphrase);
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
        // The query string is signed as `?query` after the path, exactly as sent.
        let request_path = if query.is_empty() {
            path.to_string()
        } else {
            format!("{path}?{query}")
        };
        let (headers, signature) = self.headers(&method, &request_path, body, signed)?;
        let redact = |text: &str| self.redact(text, signature.as_deref());
        let endpoint = format!("{method} {path}");
        let mut request = self
            .http
            .request(method, format!("{}{request_path}", self.endpoints.rest))
            .headers(headers);
        if !body.is_empty() {
            request = request.body(body.to_string());
        }
        let response = request
            .send()
            .await
            .map_err(|e| self.transport(e, &redact))?;
        let status = response.status().as_u16();
        let retry_after = response
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map(Duration::from_secs);
        let text = response
            .text()
            .await
            .map_err(|e| self.transport(e, &redact))?;
        let json: Option<Value> = serde_json::from_str(&text).ok();
        let Some(answer) = json.filter(|j| code_of(&j["code"]).is_some()) else {
            return Err(match status {
                429 => self.refusal(RATE_LIMIT, status, "Too Many Requests", retry_after),
                200..300 if !text.trim_start().starts_with('<') => {
                    VenueError::unreadable(&self.venue, "code").in_answer_to(&endpoint)
                }
                _ => self.bad(status, &redact(&snippet(&text))),
            });
        };
        let code = code_of(&answer["code"]).unwrap_or_default();
        let message = answer["msg"].as_str().unwrap_or_default();
        if code == 0 && (200..300).contains(&status) {
            return match answer.get("data") {
                Some(data) => Ok(data.clone()),
                None => Err(VenueError::unreadable(&self.venue, "data").in_answer_to(&endpoint)),
            };
        }
        if status >= 500 {
            return Err(self.bad(status, &redact(&format!("{code} {message}"))));
        }
        Err(self.refusal(code, status, &redact(message), retry_after))
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

    /// `text` without this client's key, secret, passphrase or the request's signature, or
    /// anything else shaped like a key: a venue or a proxy may quote the request.
    fn redact(&self, text: &str, signature: Option<&str>) -> String {
        let mut values: Vec<&str> = signature.into_iter().collect();
        if let Some(c) = &self.credentials {
            values.extend([c.api_key(), c.secret(), c.passphrase()]);
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

/// Bitget sends codes as strings (`"00000"`, `"40009"`); a number is read too.
fn code_of(v: &Value) -> Option<i64> {
    match v {
        Value::String(s) => s.trim().parse().ok(),
        Value::Number(n) => n.as_i64(),
        _ => None,
    }
}

/// `at http://127.0.0.1:9 (from NOFXI_BITGET_BASE_URL)`, for an error.
fn at(endpoints: &BitgetEndpoints) -> String {
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

    #[test]
    fn codes_are_read_as_strings_or_numbers() {
        assert_eq!(code_of(&json!("00000")), Some(0));
        assert_eq!(code_of(&json!("40009")), Some(40009));
        assert_eq!(code_of(&json!(429)), Some(429));
        assert_eq!(code_of(&json!(null)), None);
    }
}
