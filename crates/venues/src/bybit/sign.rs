//! Request signing, as Bybit API v5 specifies it ("Integration Guidance" → "Create A Request",
//! https://bybit-exchange.github.io/docs/v5/guide): the lowercase hex of the HMAC-SHA256,
//! keyed with the secret, of `timestamp + api_key + recv_window + payload`, where the
//! timestamp is Unix epoch milliseconds, and the payload is a GET's query string as sent
//! (not sorted) or a POST's exact JSON body.

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

use crate::VenueError;

/// The text Bybit signs ("resulting string that needs to be signed").
pub fn plain_text(timestamp_ms: i64, api_key: &str, recv_window_ms: u32, payload: &str) -> String {
    format!("{timestamp_ms}{api_key}{recv_window_ms}{payload}")
}

/// `X-BAPI-SIGN` for `plain` (see [`plain_text`]).
pub fn sign(secret: &str, plain: &str) -> Result<String, VenueError> {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).map_err(|_| {
        VenueError::InvalidRequest("the secret key cannot be used for signing".into())
    })?;
    mac.update(plain.as_bytes());
    Ok(hex::encode(mac.finalize().into_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The docs' own example: its inputs give exactly the documented string to sign, for a
    /// GET and a POST. The docs print a signature for it but not the secret that made it
    /// (the key is `XXXXXXXXXX`), so that value cannot be checked; the signatures below use a
    /// secret of our own and were computed with Python's `hmac` and `hashlib`, an
    /// implementation independent of this one.
    #[test]
    fn matches_the_bybit_documentation_example() {
        let get = plain_text(
            1_658_384_314_791,
            "XXXXXXXXXX",
            5000,
            "category=option&symbol=BTC-29JUL22-25000-C",
        );
        assert_eq!(
            get,
            "1658384314791XXXXXXXXXX5000category=option&symbol=BTC-29JUL22-25000-C"
        );
        let post = plain_text(
            1_658_385_579_423,
            "XXXXXXXXXX",
            5000,
            r#"{"category": "option"}"#,
        );
        assert_eq!(post, r#"1658385579423XXXXXXXXXX5000{"category": "option"}"#);
        let secret = "nofxiDocsExampleSecret0123456789ABCDEF";
        assert_eq!(
            sign(secret, &get).unwrap(),
            "384e50c739060c397ffe2c6a1a20f74f3a2c1974682dc3821b762bd2d4a0d1ac"
        );
        assert_eq!(
            sign(secret, &post).unwrap(),
            "9ec5f93e20213fa89aaaa6c31c56c55006cec84c7acc346ad95498b872076e7d"
        );
    }
}
