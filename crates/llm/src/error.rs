//! Typed model errors (REFERENCE §3, "Model APIs"): each says what happened and what to do,
//! and keeps the provider's own status and message (with any key-like text removed).

use serde::Serialize;

/// What went wrong, in the categories a user can act on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LlmErrorKind {
    /// 401, `invalid_api_key`, `authentication_error`: the key is wrong or revoked.
    BadKey,
    /// 402, DeepSeek "Insufficient Balance": the account needs topping up.
    InsufficientBalance,
    /// 404, `model_not_found`, "Model Not Exist": the model name is wrong for this provider.
    ModelNotFound,
    /// 429, `rate_limit_error`, Gemini `RESOURCE_EXHAUSTED`: too many requests.
    RateLimited,
    /// `insufficient_quota`: the plan's quota is used up (429 too, but waiting will not help).
    QuotaExhausted,
    /// 400 `context_length_exceeded`: the prompt is too large.
    ContextTooLong,
    /// 529 `overloaded_error`, 5xx: the provider's side; retried with backoff.
    Overloaded,
    /// Other 4xx: the request was refused as malformed.
    BadRequest,
    /// An HTML page (or other non-JSON) where JSON was expected: the base URL points at a web
    /// page or a gateway, not the API.
    NotJson,
    /// The answer was JSON but not the shape of this wire format.
    BadResponse,
    /// The base URL could not be made into a request (a port past 65535, a stray
    /// character): nothing was sent, so no provider refused anything.
    InvalidUrl,
    /// The host name did not resolve.
    Dns,
    /// The TLS handshake failed (certificate, protocol, a plain-HTTP port).
    Tls,
    /// Nothing listens at that address.
    ConnectionRefused,
    /// No answer in time.
    Timeout,
    /// Any other transport failure.
    Network,
}

impl LlmErrorKind {
    /// Whether trying again later can succeed without the user changing anything.
    pub fn is_retryable(self) -> bool {
        matches!(
            self,
            LlmErrorKind::RateLimited
                | LlmErrorKind::Overloaded
                | LlmErrorKind::Timeout
                | LlmErrorKind::Network
        )
    }
}

/// A failed model call.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{kind:?}: {message}")]
pub struct LlmError {
    pub kind: LlmErrorKind,
    /// The HTTP status, when there was a response.
    pub status: Option<u16>,
    /// The provider's (or transport's) own message, secrets removed.
    pub message: String,
    /// Seconds the provider asked us to wait (`Retry-After`).
    pub retry_after_secs: Option<u64>,
}

impl LlmErrorKind {
    /// What the user can do about it, in one sentence (REFERENCE §3).
    pub fn advice(self) -> &'static str {
        match self {
            LlmErrorKind::BadKey => {
                "Check the model's API key: it is wrong, revoked or for another provider."
            }
            LlmErrorKind::InsufficientBalance => {
                "Top up the account at the provider, then try again."
            }
            LlmErrorKind::ModelNotFound => "Check the model name: this provider does not know it.",
            LlmErrorKind::RateLimited => "Too many requests: wait a little or lower the call rate.",
            LlmErrorKind::QuotaExhausted => {
                "The plan's quota is used up: raise it or change plan; waiting will not help."
            }
            LlmErrorKind::ContextTooLong => {
                "The prompt is too large: use fewer coins or fewer candles."
            }
            LlmErrorKind::Overloaded => "The provider is overloaded or failing: try again later.",
            LlmErrorKind::BadRequest => {
                "The provider refused the request: check the model settings."
            }
            LlmErrorKind::NotJson => {
                "The base URL reaches a web page or a gateway, not the API: check the URL."
            }
            LlmErrorKind::BadResponse => {
                "The answer was not in the expected format: check the provider and base URL match."
            }
            LlmErrorKind::InvalidUrl => {
                "The base URL cannot be used, so nothing was sent: correct its scheme, host and port."
            }
            LlmErrorKind::Dns => {
                "The host name does not resolve: check the base URL and the network."
            }
            LlmErrorKind::Tls => {
                "The secure connection failed: check the URL's scheme (https or http) and port."
            }
            LlmErrorKind::ConnectionRefused => {
                "Nothing answers at that address: check the URL and that the server runs."
            }
            LlmErrorKind::Timeout => "No answer in time: try again, or raise the timeout.",
            LlmErrorKind::Network => "The connection failed: check the network and try again.",
        }
    }
}

impl LlmError {
    pub fn new(kind: LlmErrorKind, message: impl Into<String>) -> LlmError {
        LlmError {
            kind,
            status: None,
            message: message.into(),
            retry_after_secs: None,
        }
    }
}
