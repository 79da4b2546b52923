//! Bybit's error codes, typed. Bybit answers a refusal in its envelope with its own code and
//! message, `{"retCode":10004,"retMsg":"error sign! origin_string[…]","result":{},
//! "retExtInfo":{},"time":…}`, and HTTP 200; only the gateway's own refusals come with another
//! status (403 "access too frequent" for an IP over its limit, 429 for the system's frequency
//! protection), often without the envelope.
//!
//! Codes and their meanings: Bybit API v5 docs, "Error Codes" → "HTTP Code" and "UTA"
//! (https://bybit-exchange.github.io/docs/v5/error); 10006's reset header: "Rate Limit Rules"
//! → "API Rate Limit" (https://bybit-exchange.github.io/docs/v5/rate-limit); that a refusal
//! comes with HTTP 200: Bybit's own SDK (bybit-exchange/pybit, `_http_manager.py`) reads
//! `retCode` only from 200 answers and retries 10002 and 10006 from there.

use crate::RejectKind;

/// 10002 "The request time exceeds the time window range."
pub const TIMESTAMP_EXPIRED: i64 = 10002;
/// 10006 "Too many visits. Exceeded the API Rate Limit."
pub const RATE_LIMIT: i64 = 10006;
/// 110001 "Order does not exist".
pub const NO_SUCH_ORDER: i64 = 110001;
/// 110072 "OrderLinkedID is duplicate": an order with this client id exists, whatever its
/// state ("your customized order ID should be … unique").
pub const DUPLICATE_LINK_ID: i64 = 110072;
/// 110025 "Position mode has not been modified", 110026 "Cross/isolated margin mode has not
/// been modified", 110043 "Set leverage has not been modified": asked for what already holds.
pub const NOT_MODIFIED: [i64; 3] = [110025, 110026, 110043];

/// The kind of a Bybit refusal. `message` is read only for 10001 ("Request parameter
/// error"), the one code whose meaning is in its words: "position idx not match position mode"
/// is the position-mode mismatch.
pub fn reject_kind(code: i64, http_status: u16, message: &str) -> RejectKind {
    match code {
        _ if http_status == 429 => RejectKind::RateLimited,
        // "403, access too frequent": the IP is over its limit, lifted after ten minutes.
        _ if http_status == 403 => RejectKind::Banned,
        // API rate limit, the IP rate limit (now HTTP 403), and the trading service's load.
        RATE_LIMIT | 10018 | 429 => RejectKind::RateLimited,
        // Outside recv_window; "request expired".
        TIMESTAMP_EXPIRED | -1 => RejectKind::ClockDrift,
        10004 => RejectKind::BadSignature,
        // Invalid key (or one of another environment: mainnet, testnet, demo), user
        // authentication failed, key expired.
        10003 | 10007 | 33004 | -2015 => RejectKind::KeyIpOrPermission,
        10010 => RejectKind::IpNotWhitelisted,
        10005 => RejectKind::PermissionMissing,
        // Wallet or available balance insufficient, position margin not covered.
        110004 | 110006 | 110007 | 110012 | 110044 | 110045 => RejectKind::InsufficientMargin,
        110094 => RejectKind::NotionalTooSmall,
        NO_SUCH_ORDER => RejectKind::OrderNotFound,
        10001 if message.to_ascii_lowercase().contains("position idx") => {
            RejectKind::PositionModeMismatch
        }
        _ => RejectKind::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_codes_map_to_their_kinds() {
        for (code, kind) in [
            (10002, RejectKind::ClockDrift),
            (10004, RejectKind::BadSignature),
            (10003, RejectKind::KeyIpOrPermission),
            (10010, RejectKind::IpNotWhitelisted),
            (10005, RejectKind::PermissionMissing),
            (10006, RejectKind::RateLimited),
            (10018, RejectKind::RateLimited),
            (110007, RejectKind::InsufficientMargin),
            (110094, RejectKind::NotionalTooSmall),
            (110001, RejectKind::OrderNotFound),
        ] {
            assert_eq!(reject_kind(code, 200, ""), kind, "{code}");
        }
        assert_eq!(reject_kind(0, 429, ""), RejectKind::RateLimited);
        assert_eq!(reject_kind(0, 403, ""), RejectKind::Banned);
        assert_eq!(
            reject_kind(10001, 200, "position idx not match position mode"),
            RejectKind::PositionModeMismatch
        );
        assert_eq!(reject_kind(10001, 200, "params error"), RejectKind::Other);
    }
}
