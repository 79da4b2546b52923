//! What a real Bitget checks before it looks at a private request: the four `ACCESS-*`
//! headers, the timestamp (within 30 seconds of the server's time), the key, the passphrase,
//! the HMAC-SHA256 signature of `timestamp + METHOD + requestPath + ["?" + queryString] +
//! body` in Base64, the IP whitelist and, for trading endpoints, the key's futures-orders
//! permission.
//!
//! Bitget API docs, "Signature" (https://www.bitget.com/api-doc/common/signature) and "Request
//! Interaction" → "Timestamp" ("must be within 30 seconds of the API server time"). Bitget
//! does not document the order of its checks; the mock's follows REFERENCE §3's order for
//! diagnosing a connection (clock, key, passphrase, signature, IP, permission). A demo key
//! sent without `paptrading: 1` (or a live key with it) is refused as an unknown key (40006):
//! the docs say demo keys work with the header, not what the other combinations answer, so
//! that answer is the mock's own choice.

use axum::http::HeaderMap;
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

use super::fault::Fault;
use super::state::State;

/// How far a request's timestamp may be from the server's time.
const WINDOW_MS: i64 = 30_000;

/// `ACCESS-SIGN` for a request, as Bitget computes it; `request_path` carries its `?query`.
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
    header(headers, "paptrading") == Some("1")
}

/// Check a private request; `Ok` is the account's key, `Err` the Bitget refusal to answer with.
pub(crate) fn verify(
    state: &State,
    headers: &HeaderMap,
    method: &str,
    request_path: &str,
    body: &str,
    now_ms: i64,
    trading: bool,
) -> Result<String, Fault> {
    let key = header(headers, "ACCESS-KEY").ok_or_else(|| Fault::bitget(40001))?;
    let passphrase = header(headers, "ACCESS-PASSPHRASE").ok_or_else(|| Fault::bitget(40011))?;
    let signature = header(headers, "ACCESS-SIGN").ok_or_else(|| Fault::bitget(40002))?;
    let timestamp = header(headers, "ACCESS-TIMESTAMP").ok_or_else(|| Fault::bitget(40005))?;
    let sent_ms = timestamp.parse::<i64>().map_err(|_| Fault::bitget(40005))?;
    let account = state.accounts.get(key);
    let drift = account.map_or(0, |a| a.client_clock_off_ms);
    if (now_ms - (sent_ms + drift)).abs() > WINDOW_MS {
        return Err(Fault::bitget(40008));
    }
    let Some(account) = account.filter(|a| a.demo == demo(headers)) else {
        return Err(Fault::bitget(40006));
    };
    if account.passphrase != passphrase {
        return Err(Fault::bitget(40012));
    }
    if sign(&account.secret, timestamp, method, request_path, body) != signature {
        return Err(Fault::bitget(40009));
    }
    if !account.ip_whitelisted {
        return Err(Fault::bitget(40018));
    }
    if trading && !account.can_trade {
        return Err(Fault::bitget(40014));
    }
    Ok(key.to_string())
}
