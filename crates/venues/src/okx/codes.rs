//! OKX's error codes, typed. OKX answers a refusal with its own code and message, either at
//! the top of the envelope (`{"code":"50113","msg":"Invalid signature","data":[]}`, HTTP 401)
//! or, for an order, per item (`{"code":"1","msg":"All operations failed","data":[{"sCode":
//! "51008","sMsg":"Order failed. Insufficient USDT margin in account", …}]}`, HTTP 200).
//!
//! Codes, messages and statuses: OKX API v5 docs, "Error Code" → "REST API" → "Public"
//! (https://www.okx.com/docs-v5/en/#error-code-rest-api-public); the envelope rule ("`code`
//! and `msg` … when the return data has `code`, and has not `sCode`; … `sCode` and `sMsg` …
//! when the return data has `sCode`"): "General Info"
//! (https://www.okx.com/docs-v5/en/#overview-general-info); the per-item order refusal as it
//! arrives: okxapi/python-okx issue #110.

use crate::RejectKind;

/// 50011 "Rate limit reached" (HTTP 429 "Too Many Requests").
pub const RATE_LIMIT: i64 = 50011;
/// 50102 "Timestamp request expired".
pub const TIMESTAMP_EXPIRED: i64 = 50102;
/// 51016 "Client order ID already exists" (among pending orders).
pub const DUPLICATE_CLIENT_ID: i64 = 51016;
/// 51603 "Order does not exist".
pub const NO_SUCH_ORDER: i64 = 51603;

/// The kind of an OKX refusal. `message` is read only for 51000 ("Parameter {param0} error"),
/// the one code whose meaning is its parameter: `posSide` there is the position-mode mismatch
/// (the docs' FAQ on 51000).
pub fn reject_kind(code: i64, http_status: u16, message: &str) -> RejectKind {
    match code {
        _ if http_status == 429 => RejectKind::RateLimited,
        // Rate limit, systems busy (429), too frequent, order rate limit.
        50011 | 50013 | 50040 | 50061 => RejectKind::RateLimited,
        TIMESTAMP_EXPIRED => RejectKind::ClockDrift,
        50113 => RejectKind::BadSignature,
        // Passphrase empty, passphrase incorrect.
        50104 | 50105 => RejectKind::BadPassphrase,
        // Key header empty: nothing usable was sent as a key.
        50103 => RejectKind::BadKeyFormat,
        // API frozen, key for the other environment (live vs demo), invalid key, no such key.
        50100 | 50101 | 50111 | 50119 => RejectKind::KeyIpOrPermission,
        // IP not on the key's whitelist; IP refused for the service.
        50110 | 50121 => RejectKind::IpNotWhitelisted,
        // No permission for this endpoint; key must be bound to an IP; no permission for the API.
        50030 | 50035 | 50120 => RejectKind::PermissionMissing,
        // Insufficient balance or margin; available balance is 0.
        51008 | 51127 | 51131 => RejectKind::InsufficientMargin,
        // Below the minimum order amount.
        51020 | 50122 => RejectKind::NotionalTooSmall,
        // Not a multiple of the lot size; precision over the limit.
        51121 | 51150 => RejectKind::Precision,
        NO_SUCH_ORDER => RejectKind::OrderNotFound,
        // Instrument ID does not exist.
        51001 => RejectKind::UnknownSymbol,
        51000 if message.contains("posSide") => RejectKind::PositionModeMismatch,
        _ => RejectKind::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_codes_map_to_their_kinds() {
        for (code, kind) in [
            (50102, RejectKind::ClockDrift),
            (50113, RejectKind::BadSignature),
            (50105, RejectKind::BadPassphrase),
            (50111, RejectKind::KeyIpOrPermission),
            (50110, RejectKind::IpNotWhitelisted),
            (50120, RejectKind::PermissionMissing),
            (51008, RejectKind::InsufficientMargin),
            (51020, RejectKind::NotionalTooSmall),
            (51121, RejectKind::Precision),
            (51603, RejectKind::OrderNotFound),
            (51001, RejectKind::UnknownSymbol),
        ] {
            assert_eq!(reject_kind(code, 200, ""), kind, "{code}");
        }
        assert_eq!(reject_kind(50011, 429, ""), RejectKind::RateLimited);
        assert_eq!(reject_kind(0, 429, ""), RejectKind::RateLimited);
        assert_eq!(
            reject_kind(51000, 200, "Parameter posSide error"),
            RejectKind::PositionModeMismatch
        );
        assert_eq!(
            reject_kind(51000, 200, "Parameter sz error"),
            RejectKind::Other
        );
    }
}
