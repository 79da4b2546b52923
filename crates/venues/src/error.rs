//! One error type for every venue, typed so the assistant can explain it.
//!
//! An exchange's refusal keeps the exchange's own code and message ([`VenueError::Rejected`]):
//! the diagnosis skill shows them verbatim and the [`RejectKind`] picks the explanation. Codes
//! follow Binance USDⓈ-M (REFERENCE §3); the paper account reuses them for the same situations so
//! one explanation serves both. Secrets never appear here: errors are built from the exchange's
//! answer and our own text only, and the client that holds the credentials passes the
//! exchange's text through `nofxi_domain::redact_values` first (a venue or a proxy may quote
//! the request, key header and signed query included).

use std::fmt;
use std::time::Duration;

use nofxi_domain::transport::TransportCause;

/// What kind of refusal this is, whatever the venue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RejectKind {
    /// -1021: the request's timestamp is outside recvWindow; the local clock drifted.
    ClockDrift,
    /// -1022: the signature does not match; secret wrong or swapped with the key.
    BadSignature,
    /// -2014: the API key is not even well formed.
    BadKeyFormat,
    /// -2015: invalid key, IP not on the whitelist, or the key lacks futures permission.
    KeyIpOrPermission,
    /// The passphrase sent with the key is not the one set when it was created (OKX 50105).
    BadPassphrase,
    /// The key is valid but this machine's IP is not on its whitelist (OKX 50110), where the
    /// venue tells it apart from an unknown key.
    IpNotWhitelisted,
    /// The key is valid but may not trade (OKX 50120), where the venue says so.
    PermissionMissing,
    /// -2019: not enough margin for the order.
    InsufficientMargin,
    /// -4061: position side does not match the account's one-way/hedge mode.
    PositionModeMismatch,
    /// -4164: order notional below the minimum.
    NotionalTooSmall,
    /// -1111: price or quantity has more decimals than the symbol allows.
    Precision,
    /// HTTP 429: over the request weight; back off (Retry-After).
    RateLimited,
    /// HTTP 418: the IP is banned for ignoring 429s.
    Banned,
    /// -2013: no such order.
    OrderNotFound,
    /// -1121: no such symbol.
    UnknownSymbol,
    /// Any other code: the code and message still say what happened.
    Other,
}

impl RejectKind {
    /// The kind for a Binance error code and HTTP status.
    pub fn from_binance(code: i64, http_status: u16) -> RejectKind {
        match (code, http_status) {
            (_, 429) => RejectKind::RateLimited,
            (_, 418) => RejectKind::Banned,
            (-1021, _) => RejectKind::ClockDrift,
            (-1022, _) => RejectKind::BadSignature,
            (-2014, _) => RejectKind::BadKeyFormat,
            (-2015, _) => RejectKind::KeyIpOrPermission,
            (-2019, _) => RejectKind::InsufficientMargin,
            (-4061, _) => RejectKind::PositionModeMismatch,
            (-4164, _) => RejectKind::NotionalTooSmall,
            (-1111, _) => RejectKind::Precision,
            (-1003, _) => RejectKind::RateLimited,
            (-2013, _) => RejectKind::OrderNotFound,
            (-1121, _) => RejectKind::UnknownSymbol,
            _ => RejectKind::Other,
        }
    }

    /// The Binance code a venue without codes of its own (the paper account) reports.
    pub fn binance_code(self) -> i64 {
        match self {
            RejectKind::ClockDrift => -1021,
            RejectKind::BadSignature => -1022,
            RejectKind::BadKeyFormat => -2014,
            RejectKind::KeyIpOrPermission
            | RejectKind::BadPassphrase
            | RejectKind::IpNotWhitelisted
            | RejectKind::PermissionMissing => -2015,
            RejectKind::InsufficientMargin => -2019,
            RejectKind::PositionModeMismatch => -4061,
            RejectKind::NotionalTooSmall => -4164,
            RejectKind::Precision => -1111,
            RejectKind::RateLimited => -1003,
            RejectKind::Banned => -1003,
            RejectKind::OrderNotFound => -2013,
            RejectKind::UnknownSymbol => -1121,
            RejectKind::Other => -1000,
        }
    }

    /// What to do about it, in one line, for error messages.
    pub fn advice(self) -> &'static str {
        match self {
            RejectKind::ClockDrift => "sync the computer's clock or raise recvWindow",
            RejectKind::BadSignature => "check the secret key (is it swapped with the API key?)",
            RejectKind::BadKeyFormat => "re-copy the API key; it is not in the right format",
            RejectKind::KeyIpOrPermission => {
                "check the API key, add this IP to the whitelist, and enable futures permission"
            }
            RejectKind::BadPassphrase => {
                "enter the passphrase set when the API key was created (or create a new key)"
            }
            RejectKind::IpNotWhitelisted => "add this machine's IP to the API key's whitelist",
            RejectKind::PermissionMissing => {
                "give the API key trading permission in the exchange's API management page"
            }
            RejectKind::InsufficientMargin => {
                "add margin, lower leverage or size, or close a position"
            }
            RejectKind::PositionModeMismatch => {
                "switch the account's position mode (one-way/hedge) or send the matching position side"
            }
            RejectKind::NotionalTooSmall => "increase the order size above the minimum notional",
            RejectKind::Precision => "round price and quantity to the symbol's tick and step size",
            RejectKind::RateLimited => "slow down; retry after the time the exchange gave",
            RejectKind::Banned => "stop sending requests until the ban ends",
            RejectKind::OrderNotFound => "the order does not exist on the exchange",
            RejectKind::UnknownSymbol => "check the symbol name",
            RejectKind::Other => "see the exchange's message",
        }
    }
}

impl fmt::Display for RejectKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self {
            RejectKind::ClockDrift => "clock drift",
            RejectKind::BadSignature => "bad signature",
            RejectKind::BadKeyFormat => "bad API key format",
            RejectKind::KeyIpOrPermission => "invalid API key, IP or permission",
            RejectKind::BadPassphrase => "wrong passphrase",
            RejectKind::IpNotWhitelisted => "IP not whitelisted",
            RejectKind::PermissionMissing => "permission missing",
            RejectKind::InsufficientMargin => "insufficient margin",
            RejectKind::PositionModeMismatch => "position mode mismatch",
            RejectKind::NotionalTooSmall => "notional too small",
            RejectKind::Precision => "precision over maximum",
            RejectKind::RateLimited => "rate limited",
            RejectKind::Banned => "IP banned",
            RejectKind::OrderNotFound => "order not found",
            RejectKind::UnknownSymbol => "unknown symbol",
            RejectKind::Other => "rejected",
        };
        f.write_str(s)
    }
}

#[derive(Debug, Clone, thiserror::Error)]
pub enum VenueError {
    /// The venue answered and said no. `code` and `message` are the venue's own.
    #[error("{venue} refused ({kind}, code {code}): {message} — {}", kind.advice())]
    Rejected {
        venue: String,
        kind: RejectKind,
        code: i64,
        message: String,
        http_status: u16,
        retry_after: Option<Duration>,
    },
    /// No answer in time. For an order this means "unknown whether it landed".
    /// `at`: where the request went and where that URL came from (see [`Endpoint::at`]).
    #[error(
        "{venue} did not answer within {timeout:?} {at}: check the network or a proxy; retried requests are safe"
    )]
    Timeout {
        venue: String,
        at: String,
        timeout: Duration,
    },
    /// No answer at all, for `cause`; `detail` is the transport's own words (redacted).
    #[error("cannot reach {venue} {at}: {cause} ({detail}): {}", cause.advice())]
    Network {
        venue: String,
        at: String,
        cause: TransportCause,
        detail: String,
    },
    /// 5xx or an answer we could not read (an HTML page usually means a wrong base URL).
    #[error("{venue} answered HTTP {status} that nofxi cannot use: {detail}")]
    BadResponse {
        venue: String,
        status: u16,
        detail: String,
    },
    /// A 2xx answer without a field nofxi reads (`field`: its name, or [`WHOLE_ANSWER`] when
    /// the answer is not the array expected). `endpoint` (`GET /fapi/v2/account`) is filled
    /// by the call that read it (see [`VenueError::in_answer_to`]); the parser only knows the
    /// field. A check or a figure never stands on such an answer.
    #[error("{}", unreadable_text(venue, endpoint.as_deref(), field))]
    Unreadable {
        venue: String,
        endpoint: Option<String>,
        field: String,
    },
    #[error("invalid request: {0}")]
    InvalidRequest(String),
    #[error("{venue} has no data for {what}")]
    NoData { venue: String, what: String },
    #[error("{venue} does not support {what}")]
    Unsupported { venue: String, what: String },
    #[error("cannot save or load the paper account: {0}")]
    Storage(String),
    /// The request was not sent: the engine no longer holds the trader's lease long enough
    /// (see the trader crate's lease guard), or the store refused its write for that reason.
    #[error("not sent: {0}")]
    Fenced(String),
}

/// The `field` of an [`VenueError::Unreadable`] whose answer is not the JSON array expected.
pub const WHOLE_ANSWER: &str = "(the answer itself: not a JSON array)";

fn unreadable_text(venue: &str, endpoint: Option<&str>, field: &str) -> String {
    let answer = match endpoint {
        Some(e) => format!("{venue}'s answer to {e}"),
        None => format!("{venue}'s answer"),
    };
    let what = if field == WHOLE_ANSWER {
        "is not the JSON array expected".to_string()
    } else {
        format!("has no readable field {field}")
    };
    format!("{answer} {what}: is the base URL a {venue} API, not a proxy or another server?")
}

impl VenueError {
    pub fn unreadable(venue: &str, field: &str) -> VenueError {
        VenueError::Unreadable {
            venue: venue.into(),
            endpoint: None,
            field: field.into(),
        }
    }

    /// This error, naming `endpoint` (`GET /fapi/v2/positionRisk`) when it is an unreadable
    /// answer that does not name one yet.
    pub fn in_answer_to(self, endpoint: &str) -> VenueError {
        match self {
            VenueError::Unreadable {
                venue,
                endpoint: None,
                field,
            } => VenueError::Unreadable {
                venue,
                endpoint: Some(endpoint.into()),
                field,
            },
            other => other,
        }
    }

    pub fn rejected(venue: &str, kind: RejectKind, message: impl Into<String>) -> VenueError {
        VenueError::Rejected {
            venue: venue.to_string(),
            kind,
            code: kind.binance_code(),
            message: message.into(),
            http_status: 400,
            retry_after: None,
        }
    }

    pub fn kind(&self) -> Option<RejectKind> {
        match self {
            VenueError::Rejected { kind, .. } => Some(*kind),
            _ => None,
        }
    }

    /// The venue's error code, when it gave one.
    pub fn code(&self) -> Option<i64> {
        match self {
            VenueError::Rejected { code, .. } => Some(*code),
            _ => None,
        }
    }

    /// Worth retrying the same request after a pause (REFERENCE §3: 429, 5xx, timeouts).
    pub fn is_retryable(&self) -> bool {
        match self {
            VenueError::Rejected { kind, .. } => *kind == RejectKind::RateLimited,
            VenueError::Timeout { .. } | VenueError::Network { .. } => true,
            VenueError::BadResponse { status, .. } => *status >= 500,
            _ => false,
        }
    }

    /// True when a request may have been carried out although no answer came back: an order
    /// sent this way must be looked up before it is sent again.
    pub fn outcome_unknown(&self) -> bool {
        match self {
            VenueError::Timeout { .. } | VenueError::Network { .. } => true,
            VenueError::BadResponse { status, .. } => *status >= 500,
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binance_codes_map_to_kinds_and_back() {
        for code in [
            -1021, -1022, -2014, -2015, -2019, -4061, -4164, -1111, -2013,
        ] {
            let kind = RejectKind::from_binance(code, 400);
            assert_ne!(kind, RejectKind::Other, "{code}");
            assert_eq!(kind.binance_code(), code);
        }
        assert_eq!(
            RejectKind::from_binance(-1003, 429),
            RejectKind::RateLimited
        );
        assert_eq!(RejectKind::from_binance(0, 418), RejectKind::Banned);
        assert_eq!(RejectKind::from_binance(-9999, 400), RejectKind::Other);
    }

    #[test]
    fn the_message_keeps_code_and_text_and_says_what_to_do() {
        let e = VenueError::rejected(
            "binance",
            RejectKind::ClockDrift,
            "Timestamp outside recvWindow",
        );
        let s = e.to_string();
        assert!(s.contains("-1021") && s.contains("recvWindow") && s.contains("sync"));
        assert!(!e.is_retryable());
    }
}
