//! The REST transport every Binance call goes through: signing with server-time offset,
//! weight-aware pacing, typed errors, and retries with exponential backoff and jitter that honour
//! `Retry-After`.
//!
//! Retries are only automatic for requests that are safe to repeat. An order placement is sent
//! with [`Retry::Never`] and [`super::BinanceFutures::place_order`] decides what to do after an
//! unknown outcome (look the client order id up first).

use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::time::Duration;

use reqwest::Method;
use serde_json::Value;

use super::config::{ApiCredentials, BinanceEndpoints, BinanceOptions};
use super::sign::{query_string, sign};
use crate::retry::snippet;
use crate::{Clock, RejectKind, VenueError};
use nofxi_domain::transport::{TransportCause, shown_url, source_chain};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Base {
    Futures,
    Spot,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Retry {
    /// Safe to repeat: reads, settings.
    Safe,
    /// Not safe when the outcome is unknown (timeouts, 5xx). 429 is still retried, because a
    /// rate-limited request was not carried out.
    Never,
}

#[derive(Debug, Default)]
struct Weight {
    minute: i64,
    used: u32,
}

#[derive(Debug)]
pub struct BinanceClient {
    http: reqwest::Client,
    endpoints: BinanceEndpoints,
    credentials: Option<ApiCredentials>,
    options: BinanceOptions,
    clock: Arc<dyn Clock>,
    venue: String,
    offset_ms: AtomicI64,
    offset_known: AtomicBool,
    weight: Mutex<Weight>,
}

impl BinanceClient {
    pub fn new(
        venue: &str,
        endpoints: BinanceEndpoints,
        credentials: Option<ApiCredentials>,
        options: BinanceOptions,
        clock: Arc<dyn Clock>,
    ) -> Result<Self, VenueError> {
        let http = reqwest::Client::builder()
            .timeout(options.timeout)
            .user_agent(concat!("nofxi/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| VenueError::Network {
                venue: venue.into(),
                at: endpoints_at(&endpoints, &endpoints.futures),
                cause: TransportCause::Other,
                detail: e.without_url().to_string(),
            })?;
        Ok(BinanceClient {
            http,
            endpoints,
            credentials,
            options,
            clock,
            venue: venue.into(),
            offset_ms: AtomicI64::new(0),
            offset_known: AtomicBool::new(false),
            weight: Mutex::new(Weight::default()),
        })
    }

    pub fn venue(&self) -> &str {
        &self.venue
    }

    pub fn options(&self) -> &BinanceOptions {
        &self.options
    }

    pub fn clock(&self) -> &Arc<dyn Clock> {
        &self.clock
    }

    /// Server time minus local time, as last measured.
    pub fn offset_ms(&self) -> i64 {
        self.offset_ms.load(Ordering::SeqCst)
    }

    /// Measure the server-time offset (the midpoint of the round trip is the local instant the
    /// server's time corresponds to). Returns the offset in ms.
    pub async fn sync_time(&self) -> Result<i64, VenueError> {
        let before = self.clock.now_ms();
        // One plain attempt: this runs inside the retry loop when a -1021 asks for a resync.
        self.pace(1).await;
        let v = self
            .send_once(Method::GET, Base::Futures, "/fapi/v1/time", &[], false)
            .await?;
        let after = self.clock.now_ms();
        let server = v["serverTime"].as_i64().ok_or_else(|| {
            VenueError::unreadable(&self.venue, "serverTime").in_answer_to("GET /fapi/v1/time")
        })?;
        let offset = server - (before + after) / 2;
        self.offset_ms.store(offset, Ordering::SeqCst);
        self.offset_known.store(true, Ordering::SeqCst);
        Ok(offset)
    }

    pub async fn public(
        &self,
        path: &str,
        params: &[(&str, String)],
        weight: u32,
    ) -> Result<Value, VenueError> {
        self.request(
            Method::GET,
            Base::Futures,
            path,
            params,
            weight,
            false,
            Retry::Safe,
        )
        .await
    }

    pub async fn signed(
        &self,
        method: Method,
        base: Base,
        path: &str,
        params: &[(&str, String)],
        weight: u32,
        retry: Retry,
    ) -> Result<Value, VenueError> {
        if !self.offset_known.load(Ordering::SeqCst) {
            self.sync_time().await?;
        }
        self.request(method, base, path, params, weight, true, retry)
            .await
    }

    #[allow(clippy::too_many_arguments)]
    async fn request(
        &self,
        method: Method,
        base: Base,
        path: &str,
        params: &[(&str, String)],
        weight: u32,
        signed: bool,
        retry: Retry,
    ) -> Result<Value, VenueError> {
        let mut resynced = false;
        let mut attempt = 0;
        loop {
            self.pace(weight).await;
            let result = self
                .send_once(method.clone(), base, path, params, signed)
                .await;
            let err = match result {
                Ok(v) => return Ok(v),
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
            let wait = self.backoff(attempt, &err);
            tracing::debug!(venue = %self.venue, path, attempt, ?wait, error = %err, "retrying");
            self.clock.sleep(wait).await;
            attempt += 1;
        }
    }

    fn backoff(&self, attempt: u32, err: &VenueError) -> Duration {
        crate::retry::backoff(
            self.options.backoff_base,
            self.options.backoff_max,
            attempt,
            err,
        )
    }

    /// Wait for the next minute when this request would push the used weight over the limit.
    /// Binance counts weight per minute of *its* clock, so the window follows server time.
    async fn pace(&self, weight: u32) {
        let now = self.clock.now_ms() + self.offset_ms();
        let minute = now.div_euclid(60_000);
        let wait = match self.weight.lock() {
            Ok(w) if w.minute == minute && w.used + weight > self.options.weight_limit => {
                Some((minute + 1) * 60_000 - now)
            }
            _ => None,
        };
        if let Some(ms) = wait {
            tracing::info!(venue = %self.venue, wait_ms = ms, "request weight near the limit; pausing");
            self.clock
                .sleep(Duration::from_millis(u64::try_from(ms).unwrap_or(0)))
                .await;
        }
    }

    fn record_weight(&self, headers: &reqwest::header::HeaderMap) {
        let used = headers
            .get("x-mbx-used-weight-1m")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u32>().ok());
        if let (Some(used), Ok(mut w)) = (used, self.weight.lock()) {
            w.minute = (self.clock.now_ms() + self.offset_ms()).div_euclid(60_000);
            w.used = used;
        }
    }

    fn bad(&self, status: u16, detail: &str) -> VenueError {
        VenueError::BadResponse {
            venue: self.venue.clone(),
            status,
            detail: detail.into(),
        }
    }

    async fn send_once(
        &self,
        method: Method,
        base: Base,
        path: &str,
        params: &[(&str, String)],
        signed: bool,
    ) -> Result<Value, VenueError> {
        let root = match base {
            Base::Futures => &self.endpoints.futures,
            Base::Spot => &self.endpoints.spot,
        };
        let mut query = query_string(params);
        let mut signature_sent: Option<String> = None;
        let mut req_headers = reqwest::header::HeaderMap::new();
        if let Some(c) = &self.credentials {
            let key = reqwest::header::HeaderValue::from_str(c.api_key()).map_err(|_| {
                VenueError::rejected(
                    &self.venue,
                    RejectKind::BadKeyFormat,
                    "API key has characters a header cannot carry",
                )
            })?;
            req_headers.insert("X-MBX-APIKEY", key);
        }
        if signed {
            let creds = self.credentials.as_ref().ok_or_else(|| {
                VenueError::InvalidRequest(
                    "this exchange has no API key: add api_key and secret_key".into(),
                )
            })?;
            let ts = self.clock.now_ms() + self.offset_ms();
            let sep = if query.is_empty() { "" } else { "&" };
            query = format!(
                "{query}{sep}recvWindow={}&timestamp={ts}",
                self.options.recv_window_ms
            );
            let signature = sign(creds.secret(), &query)?;
            query = format!("{query}&signature={signature}");
            signature_sent = Some(signature);
        }
        // Every message made from here on passes the redactor with what this request carried.
        let redact = |text: &str| self.redact(text, signature_sent.as_deref());
        let url = if query.is_empty() {
            format!("{root}{path}")
        } else {
            format!("{root}{path}?{query}")
        };
        let response = self
            .http
            .request(method, url)
            .headers(req_headers)
            .send()
            .await
            .map_err(|e| self.transport(e, root, &redact))?;
        let status = response.status().as_u16();
        self.record_weight(response.headers());
        let retry_after = response
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map(Duration::from_secs);
        let body = response
            .text()
            .await
            .map_err(|e| self.transport(e, root, &redact))?;
        let json: Option<Value> = serde_json::from_str(&body).ok();
        if (200..300).contains(&status) {
            return json.ok_or_else(|| self.bad(status, &redact(&snippet(&body))));
        }
        let code = json.as_ref().and_then(|j| j["code"].as_i64());
        let message = json
            .as_ref()
            .and_then(|j| j["msg"].as_str())
            .map(str::to_string);
        let refused = status < 500 && (code.is_some() || status == 429 || status == 418);
        match code {
            _ if refused => {
                let code = code.unwrap_or(-1003);
                Err(VenueError::Rejected {
                    venue: self.venue.clone(),
                    kind: RejectKind::from_binance(code, status),
                    code,
                    message: redact(&message.unwrap_or_else(|| snippet(&body))),
                    http_status: status,
                    retry_after,
                })
            }
            _ => Err(self.bad(status, &redact(&message.unwrap_or_else(|| snippet(&body))))),
        }
    }

    /// `text` without this client's API key and secret, the request's `signature`, or anything
    /// else shaped like a key: a venue or a proxy may quote the request in its error.
    fn redact(&self, text: &str, signature: Option<&str>) -> String {
        let mut values: Vec<&str> = signature.into_iter().collect();
        if let Some(c) = &self.credentials {
            values.extend([c.api_key(), c.secret()]);
        }
        nofxi_domain::redact_values(text, &values)
    }

    /// No answer from `root`: the base URL (shown without credentials) and where it came from,
    /// and the cause by the rule every client shares (`nofxi_domain::transport`).
    fn transport(
        &self,
        e: reqwest::Error,
        root: &str,
        redact: &dyn Fn(&str) -> String,
    ) -> VenueError {
        let at = endpoints_at(&self.endpoints, root);
        // Without the request's URL: it carries the signature and the query.
        let e = e.without_url();
        let (chain, kinds) = source_chain(&e);
        match TransportCause::classify(&chain, &kinds, e.is_timeout(), e.is_builder()) {
            TransportCause::Timeout => VenueError::Timeout {
                venue: self.venue.clone(),
                at,
                timeout: self.options.timeout,
            },
            cause => VenueError::Network {
                venue: self.venue.clone(),
                at,
                cause,
                detail: redact(&chain),
            },
        }
    }
}

/// `at http://127.0.0.1:9 (from NOFXI_BINANCE_BASE_URL)`, for an error about `root`.
fn endpoints_at(endpoints: &BinanceEndpoints, root: &str) -> String {
    format!("at {} (from {})", shown_url(root), endpoints.origin)
}
