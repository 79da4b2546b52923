//! What a real OKX checks before it looks at a private request: the four `OK-ACCESS-*`
//! headers, the timestamp (30 seconds either way), the key, its environment (a demo key only
//! with `x-simulated-trading: 1`), the passphrase, the HMAC-SHA256 signature of
//! `timestamp + METHOD + requestPath + body` in Base64, the IP whitelist and, for trading
//! endpoints, the key's `trade` permission.
//!
//! OKX API v5 docs, "REST Authentication" (https://www.okx.com/docs-v5/en/#overview-rest-authentication);
//! the 30-second window: "Login" ("The request will expire 30 seconds after the timestamp").
//! OKX does not document the order of its checks; the mock's follows REFERENCE §3's order for
//! diagnosing a connection (clock, key, passphrase, signature, IP, permission).

use axum::http::HeaderMap;
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

use super::fault::Fault;
use super::state::State;

/// The expiry window of a request's timestamp.
const WINDOW_MS: i64 = 30_000;

/// `OK-ACCESS-SIGN` for a request, as OKX computes it.
pub fn sign(secret: &str, timestamp: &str, method: &str, request_path: &str, body: &str) -> String {
    match Hmac::<Sha256>::new_from_slice(secret.as_bytes()) {
        Ok(mut mac) => {
            for part in [timestamp, method, request_path, body] {
                mac.update(part.as_bytes());
            }
            STANDARD.encode(mac.finalize().into_bytes())
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

/// Whether the request asks for demo trading.
pub(crate) fn demo(headers: &HeaderMap) -> bool {
    header(headers, "x-simulated-trading") == Some("1")
}

/// Check a private request; `Ok` is the account's key, `Err` the OKX refusal to answer with.
pub(crate) fn verify(
    state: &State,
    headers: &HeaderMap,
    method: &str,
    request_path: &str,
    body: &str,
    now_ms: i64,
    trading: bool,
) -> Result<String, Fault> {
    let key = header(headers, "OK-ACCESS-KEY").ok_or_else(|| Fault::okx(50103))?;
    let passphrase = header(headers, "OK-ACCESS-PASSPHRASE").ok_or_else(|| Fault::okx(50104))?;
    let signature = header(headers, "OK-ACCESS-SIGN").ok_or_else(|| Fault::okx(50106))?;
    let timestamp = header(headers, "OK-ACCESS-TIMESTAMP").ok_or_else(|| Fault::okx(50107))?;
    let sent_ms = timestamp
        .parse::<jiff::Timestamp>()
        .map_err(|_| Fault::okx(50112))?
        .as_millisecond();
    let account = state.accounts.get(key);
    let drift = account.map_or(0, |a| a.client_clock_off_ms);
    if (now_ms - (sent_ms + drift)).abs() > WINDOW_MS {
        return Err(Fault::okx(50102));
    }
    let Some(account) = account else {
        return Err(Fault::okx(50111));
    };
    if account.demo != demo(headers) {
        return Err(Fault::okx(50101));
    }
    if account.passphrase != passphrase {
        return Err(Fault::okx(50105));
    }
    if sign(&account.secret, timestamp, method, request_path, body) != signature {
        return Err(Fault::okx(50113));
    }
    if !account.ip_whitelisted {
        return Err(Fault::okx(50110));
    }
    if trading && !account.can_trade {
        return Err(Fault::okx(50120));
    }
    Ok(key.to_string())
}
