//! What a real Bybit checks before it looks at a private request: the `X-BAPI-*` headers, the
//! timestamp against the receive window (`server_time - recv_window <= timestamp <
//! server_time + 1000`), the key, the HMAC-SHA256 signature (lowercase hex) of
//! `timestamp + api_key + recv_window + payload` (a GET's query string as sent, a POST's
//! body), the key's bound IPs and, for trading endpoints, its write permission.
//!
//! Bybit API v5 docs, "Integration Guidance" → "Authentication"
//! (https://bybit-exchange.github.io/docs/v5/guide). A bad signature's message quotes the
//! signed text, key included, as Bybit's does (`error sign! origin_string[…]`, seen in
//! sieblyio/bybit-api issue #448), so a client's redaction is tested for real. Bybit does not
//! document the order of its checks; the mock's follows REFERENCE §3's order for diagnosing
//! a connection (clock, key, signature, IP, permission).

use axum::http::HeaderMap;
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

use super::fault::Fault;
use super::state::State;

/// "default value is 5,000".
const DEFAULT_WINDOW_MS: i64 = 5_000;
/// A timestamp may be at most this far ahead of the server's.
const AHEAD_MS: i64 = 1_000;

/// `X-BAPI-SIGN` for a request, as Bybit computes it.
pub fn sign(
    secret: &str,
    timestamp: &str,
    api_key: &str,
    recv_window: &str,
    payload: &str,
) -> String {
    match Hmac::<Sha256>::new_from_slice(secret.as_bytes()) {
        Ok(mut mac) => {
            for part in [timestamp, api_key, recv_window, payload] {
                mac.update(part.as_bytes());
            }
            hex::encode(mac.finalize().into_bytes())
        }
        Err(_) => String::new(),
    }
}

fn header<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .filter(|v| !v.is_empty())
}

fn error(code: i64, msg: String) -> Fault {
    Fault::Error { code, msg }
}

/// Check a private request; `Ok` is the account's key, `Err` the Bybit refusal to answer with.
pub(crate) fn verify(
    state: &State,
    headers: &HeaderMap,
    payload: &str,
    now_ms: i64,
    trading: bool,
) -> Result<String, Fault> {
    let key = header(headers, "X-BAPI-API-KEY").ok_or_else(|| Fault::bybit(10003))?;
    let signature = header(headers, "X-BAPI-SIGN").ok_or_else(|| Fault::bybit(10004))?;
    let timestamp = header(headers, "X-BAPI-TIMESTAMP").ok_or_else(|| Fault::bybit(10002))?;
    let window_text = header(headers, "X-BAPI-RECV-WINDOW");
    let window = window_text
        .map(|w| w.parse::<i64>().map_err(|_| Fault::param("recv_window")))
        .transpose()?
        .unwrap_or(DEFAULT_WINDOW_MS);
    let sent = timestamp.parse::<i64>().map_err(|_| Fault::bybit(10002))?;
    let account = state.accounts.get(key);
    let drift = account.map_or(0, |a| a.client_clock_off_ms);
    let judged = sent + drift;
    if judged < now_ms - window || judged >= now_ms + AHEAD_MS {
        return Err(error(
            10002,
            format!(
                "invalid request, please check your server timestamp or recv_window param. req_timestamp[{judged}],server_timestamp[{now_ms}],recv_window[{window}]"
            ),
        ));
    }
    let Some(account) = account else {
        return Err(Fault::bybit(10003));
    };
    let window_signed = window_text.unwrap_or_default();
    if sign(&account.secret, timestamp, key, window_signed, payload) != signature {
        return Err(error(
            10004,
            format!("error sign! origin_string[{timestamp}{key}{window_signed}{payload}]"),
        ));
    }
    if !account.ip_whitelisted {
        return Err(Fault::bybit(10010));
    }
    if trading && !account.can_trade {
        return Err(Fault::bybit(10005));
    }
    Ok(key.to_string())
}
