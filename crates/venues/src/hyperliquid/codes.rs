//! Hyperliquid's refusals, typed. Hyperliquid has no error codes: `/exchange` answers a refused
//! request as `{"status": "err", "response": "<message>"}` and a refused order or cancel inside
//! an accepted batch as `{"error": "<message>"}` among `response.data.statuses`, "a vector with
//! same length as the batched request" (docs, "Error responses"); a request over the IP limit
//! is HTTP 429 ("Rate limits": 1200 weight a minute). So the kind is read from the message,
//! and the code a refusal carries is the Binance code of its kind, as for the other venue
//! without codes of its own (`RejectKind::binance_code`).
//!
//! The messages: the docs' "Error responses" table (the order errors' exact strings), the
//! signing errors the docs' "Signing" page and the SDKs' issue trackers quote ("User or API
//! Wallet 0x… does not exist.", "Must deposit before performing actions"), and the nonce
//! errors ("Invalid nonce: nonce too low …" / "too high" / "duplicate nonce") of "Nonces and
//! API wallets", whose window is (T − 2 days, T + 1 day) of the block time.

use crate::RejectKind;

/// Words of the refusal of a signature that recovers to no approved agent or user: an agent
/// never approved (or pruned: replaced, expired), a key of another wallet, or the other
/// network's signature.
pub const UNKNOWN_SIGNER: &str = "does not exist";

/// A cancel of an order that is not open: "Order was never placed, already canceled, or
/// filled."
pub const NOT_OPEN: &str = "never placed, already canceled, or filled";

/// The kind of a Hyperliquid refusal, from its message.
pub fn reject_kind(message: &str) -> RejectKind {
    let m = message.to_ascii_lowercase();
    let has = |words: &str| m.contains(words);
    if has("user or api wallet") && has(UNKNOWN_SIGNER)
        || has("must deposit before performing actions")
    {
        RejectKind::KeyIpOrPermission
    } else if has("builder fee has not been approved") {
        // An order naming a builder the main wallet never approved a fee for (REFERENCE §3);
        // nofxi names no builder, but a proxy or another tool on the account may.
        RejectKind::PermissionMissing
    } else if has("nonce") {
        // Too low, too high (the clock) or reused: each is a timestamp the chain refused.
        RejectKind::ClockDrift
    } else if has("insufficient margin") {
        RejectKind::InsufficientMargin
    } else if has("minimum value of") {
        RejectKind::NotionalTooSmall
    } else if has("divisible by tick size") || has("invalid price") || has("invalid size") {
        RejectKind::Precision
    } else if has("too many") && has("requests") || has("rate limit") {
        RejectKind::RateLimited
    } else if has(NOT_OPEN) {
        RejectKind::OrderNotFound
    } else {
        RejectKind::Other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_messages_map_to_their_kinds() {
        for (message, kind) in [
            (
                "User or API Wallet 0x0123456789abcdef0123456789abcdef01234567 does not exist.",
                RejectKind::KeyIpOrPermission,
            ),
            (
                "Must deposit before performing actions. User: 0x0123",
                RejectKind::KeyIpOrPermission,
            ),
            (
                "Invalid nonce: nonce too low 1791140676851 < 1791227196699",
                RejectKind::ClockDrift,
            ),
            (
                "Insufficient margin to place order.",
                RejectKind::InsufficientMargin,
            ),
            (
                "Order must have minimum value of $10.",
                RejectKind::NotionalTooSmall,
            ),
            (
                "Price must be divisible by tick size.",
                RejectKind::Precision,
            ),
            (
                "Too many cumulative requests sent (10001 > 10000) for cumulative volume traded $0.",
                RejectKind::RateLimited,
            ),
            (
                "Order was never placed, already canceled, or filled. asset=0",
                RejectKind::OrderNotFound,
            ),
            (
                "Builder fee has not been approved.",
                RejectKind::PermissionMissing,
            ),
            (
                "Reduce only order would increase position.",
                RejectKind::Other,
            ),
        ] {
            assert_eq!(reject_kind(message), kind, "{message}");
        }
    }
}
