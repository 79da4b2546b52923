//! Bitget's error codes, typed. Bitget answers a refusal with its own code and message in the
//! envelope every answer has: `{"code":"40009","msg":"sign signature error",
//! "requestTime":1630896973038,"data":null}`, with HTTP 400 (BitgetLimited/v3-bitget-api-sdk
//! issue #7, ccxt/ccxt issue #27037), or 429 over a rate limit ("Access Restriction" in the
//! docs' quick start).
//!
//! Codes and messages: Bitget API docs, "Futures" → "Error Code" → "Rest API"
//! (https://www.bitget.com/api-doc/contract/error-code/restapi); what some of them say on the
//! wire (40762 "The order amount exceeds the balance", 40774 "The order type for unilateral
//! position must also be the unilateral position type.", 40808 "Parameter verification
//! exception size checkBDScale error …", 40768 "Order does not exist"): ccxt's Bitget
//! exception table (github.com/ccxt/ccxt), which quotes answers it met.

use crate::RejectKind;

/// 429 "Too many requests" (HTTP 429).
pub const RATE_LIMIT: i64 = 429;
/// 40008 "Request timestamp expired".
pub const TIMESTAMP_EXPIRED: i64 = 40008;

/// "clientOid duplicate" (45034), "clientOrderId duplicate" (43118), "Duplicated clientOid"
/// (50060): an order with this client id exists already.
pub fn is_duplicate_client_id(code: i64) -> bool {
    matches!(code, 45034 | 43118 | 50060)
}

/// "The data of the order cannot be found" (40109), "Order does not exist" (40768), "The
/// order does not exist" (43001), "Plan order does not exist" (43025).
pub fn is_no_such_order(code: i64) -> bool {
    matches!(code, 40109 | 40768 | 43001 | 43025 | 45057)
}

/// The kind of a Bitget refusal. `message` is read only for 40808 ("Parameter verification
/// exception {0}"), whose meaning is its parameter: a size or price scale check there is a
/// precision error.
pub fn reject_kind(code: i64, http_status: u16, message: &str) -> RejectKind {
    match code {
        _ if http_status == 429 => RejectKind::RateLimited,
        // Too many requests; cancel too frequent; a demo account opening too frequently.
        RATE_LIMIT | 45129 | 22035 => RejectKind::RateLimited,
        // Request timestamp expired; invalid ACCESS_TIMESTAMP.
        TIMESTAMP_EXPIRED | 40005 => RejectKind::ClockDrift,
        // Sign signature error; ACCESS_SIGN or the signature empty.
        40009 | 40002 | 40003 => RejectKind::BadSignature,
        // "apikey/password is incorrect" (the passphrase, as the key itself is 40006/40037),
        // "passphrase is error", ACCESS_PASSPHRASE empty.
        40012 | 40036 | 40011 => RejectKind::BadPassphrase,
        // ACCESS_KEY empty: nothing usable was sent as a key.
        40001 => RejectKind::BadKeyFormat,
        // Invalid ACCESS_KEY; the key does not exist.
        40006 | 40037 | 40041 => RejectKind::KeyIpOrPermission,
        // Invalid IP; the IP is not on the key's whitelist.
        40018 | 40038 => RejectKind::IpNotWhitelisted,
        // Incorrect permissions; no such permission; the key must be bound to an IP first.
        40014 | 40025 | 22010 => RejectKind::PermissionMissing,
        // Insufficient balance; balance not enough; order amount over the balance;
        // insufficient contract balance or margin; insufficient asset.
        43012 | 40754 | 40762 | 40798 | 40800 | 45002 => RejectKind::InsufficientMargin,
        // Below the minimum amount in USDT (minTradeUSDT) or the minimum quantity (minTradeNum).
        45110 | 45111 | 43006 | 22034 | 43027 | 45114 => RejectKind::NotionalTooSmall,
        // Not a multiple of the size or price step.
        22038 | 43028 | 45035 | 45115 | 41103 => RejectKind::Precision,
        40808 if message.contains("checkBDScale") || message.contains("checkScale") => {
            RejectKind::Precision
        }
        c if is_no_such_order(c) => RejectKind::OrderNotFound,
        // Symbol does not exist; contract removed; not a mix contract.
        40102 | 40309 | 40072 => RejectKind::UnknownSymbol,
        // An order's position type against the account's one-way/hedge mode.
        40774 | 45021 | 43075 => RejectKind::PositionModeMismatch,
        _ => RejectKind::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_codes_map_to_their_kinds() {
        for (code, kind) in [
            (40008, RejectKind::ClockDrift),
            (40009, RejectKind::BadSignature),
            (40012, RejectKind::BadPassphrase),
            (40006, RejectKind::KeyIpOrPermission),
            (40018, RejectKind::IpNotWhitelisted),
            (40014, RejectKind::PermissionMissing),
            (43012, RejectKind::InsufficientMargin),
            (45110, RejectKind::NotionalTooSmall),
            (22038, RejectKind::Precision),
            (40109, RejectKind::OrderNotFound),
            (40102, RejectKind::UnknownSymbol),
            (40774, RejectKind::PositionModeMismatch),
        ] {
            assert_eq!(reject_kind(code, 400, ""), kind, "{code}");
        }
        assert_eq!(reject_kind(429, 429, ""), RejectKind::RateLimited);
        assert_eq!(reject_kind(0, 429, ""), RejectKind::RateLimited);
        assert_eq!(
            reject_kind(
                40808,
                400,
                "Parameter verification exception size checkBDScale error value=2293.577 checkScale=2"
            ),
            RejectKind::Precision
        );
        assert_eq!(
            reject_kind(40808, 400, "Parameter verification exception side"),
            RejectKind::Other
        );
        assert!(is_duplicate_client_id(45034) && !is_duplicate_client_id(40009));
    }
}
