//! Request signing: HMAC-SHA256 of the exact query string, hex-encoded (Binance "SIGNED").

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

use crate::VenueError;

pub fn sign(secret: &str, payload: &str) -> Result<String, VenueError> {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).map_err(|_| {
        VenueError::InvalidRequest("the secret key cannot be used for signing".into())
    })?;
    mac.update(payload.as_bytes());
    Ok(hex::encode(mac.finalize().into_bytes()))
}

/// Percent-encode a parameter value; unreserved characters pass through so typical
/// parameters read as sent.
pub fn encode(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for b in value.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

pub fn query_string(params: &[(&str, String)]) -> String {
    params
        .iter()
        .map(|(k, v)| format!("{k}={}", encode(v)))
        .collect::<Vec<_>>()
        .join("&")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_binance_documentation_example() {
        // The example from Binance's API docs ("SIGNED Endpoint Examples for POST /fapi/v1/order").
        let secret = "2b5eb11e18796d12d88f13dc27dbbd02c2cc51ff7059765ed9821957d82bb4d9";
        let payload = "symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=1&price=9000&timeInForce=GTC&recvWindow=5000&timestamp=1591702613943";
        assert_eq!(
            sign(secret, payload).unwrap(),
            "3c661234138461fcc7a7d8746c6558c9842d4e10870d2ecbedf7777cad694af9"
        );
        assert_eq!(encode("a b/c"), "a%20b%2Fc");
    }
}
