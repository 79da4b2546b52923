//! What a real Binance checks before it looks at a signed request: the key, the IP/permission
//! restrictions, the HMAC-SHA256 signature over the exact parameter text, and the timestamp
//! against `recvWindow`.

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

use super::fault::Fault;
use super::state::State;

/// Parameters as sent, in order, from the query string followed by the form body.
pub(crate) fn params(query: &str, body: &str) -> Vec<(String, String)> {
    [query, body]
        .iter()
        .flat_map(|s| s.split('&'))
        .filter(|kv| !kv.is_empty())
        .map(|kv| match kv.split_once('=') {
            Some((k, v)) => (k.to_string(), v.to_string()),
            None => (kv.to_string(), String::new()),
        })
        .collect()
}

pub fn sign(secret: &str, payload: &str) -> String {
    match Hmac::<Sha256>::new_from_slice(secret.as_bytes()) {
        Ok(mut mac) => {
            mac.update(payload.as_bytes());
            hex::encode(mac.finalize().into_bytes())
        }
        Err(_) => String::new(),
    }
}

/// Binance's "totalParams": the query string concatenated with the body, minus the signature.
fn signed_payload(query: &str, body: &str) -> (String, Option<String>) {
    let strip = |s: &str| -> (String, Option<String>) {
        let mut sig = None;
        let kept: Vec<&str> = s
            .split('&')
            .filter(|kv| {
                if let Some(v) = kv.strip_prefix("signature=") {
                    sig = Some(v.to_string());
                    false
                } else {
                    !kv.is_empty()
                }
            })
            .collect();
        (kept.join("&"), sig)
    };
    let (q, sq) = strip(query);
    let (b, sb) = strip(body);
    (format!("{q}{b}"), sq.or(sb))
}

/// Check a signed request; `Err` is the Binance error to answer with.
pub(crate) fn verify(
    state: &State,
    api_key: Option<&str>,
    query: &str,
    body: &str,
    now_ms: i64,
    needs_futures: bool,
) -> Result<String, Fault> {
    let key = match api_key {
        Some(k) if !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric()) => k,
        _ => return Err(Fault::binance(-2014)),
    };
    let Some(account) = state.accounts.get(key) else {
        return Err(Fault::binance(-2015));
    };
    if !account.ip_whitelisted || (needs_futures && !account.futures_enabled) {
        return Err(Fault::binance(-2015));
    }
    let (payload, signature) = signed_payload(query, body);
    if signature.as_deref() != Some(sign(&account.secret, &payload).as_str()) {
        return Err(Fault::binance(-1022));
    }
    let p = params(query, body);
    let get = |name: &str| p.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
    let timestamp: i64 = get("timestamp")
        .and_then(|t| t.parse::<i64>().ok())
        .map(|t| t + account.client_clock_off_ms)
        .ok_or_else(|| Fault::Error {
            http_status: 400,
            code: -1102,
            msg: "Mandatory parameter 'timestamp' was not sent, was empty/null, or malformed."
                .into(),
        })?;
    let window: i64 = get("recvWindow")
        .and_then(|w| w.parse().ok())
        .unwrap_or(5_000);
    // Binance rejects requests from the future by more than a second, and stale ones.
    if timestamp > now_ms + 1_000 || now_ms - timestamp > window {
        return Err(Fault::binance(-1021));
    }
    Ok(key.to_string())
}
