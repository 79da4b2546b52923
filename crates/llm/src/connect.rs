//! From a stored model config to a [`Provider`] ready to call.
//!
//! [`Endpoint`] is everything a call needs, resolved: the provider's defaults applied (REFERENCE
//! §1), the key attached. It can also be built by hand (tests, a "test this URL" button).
//! [`connect`] picks the wire format's implementation; it does no IO.

use std::sync::Arc;
use std::time::Duration;

use nofxi_domain::base_url::check_base_url;
use nofxi_domain::{FieldProblem, ModelSpec, Secret, WireFormat};

use crate::Provider;
use crate::anthropic::AnthropicProvider;
use crate::gemini::GeminiProvider;
use crate::http::RetryPolicy;
use crate::openai::OpenAiProvider;

/// Per-attempt timeout when none is set: long enough for a slow model writing a full decision.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(120);

/// One model endpoint, resolved.
#[derive(Debug, Clone)]
pub struct Endpoint {
    /// Provider id, e.g. `deepseek`; for labels and traces.
    pub provider: String,
    pub wire: WireFormat,
    /// Where the wire format's path is appended (unless it ends in `#`).
    pub base_url: String,
    pub model: String,
    pub api_key: Option<Secret>,
    /// Per attempt (see [`crate::http`]).
    pub timeout: Duration,
    pub retry: RetryPolicy,
}

/// Why a model config cannot be called. Each says what to change.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConnectError {
    #[error("unknown provider '{0}': choose one of {choices}", choices = nofxi_domain::provider::provider_ids().join(", "))]
    UnknownProvider(String),
    #[error(
        "the builtin model runs offline and needs no endpoint: use the built-in decider instead"
    )]
    Builtin,
    #[error("provider '{0}' has no default base URL: set base_url")]
    MissingBaseUrl(String),
    #[error("provider '{0}' has no default model: set model_name")]
    MissingModel(String),
    #[error("provider '{0}' needs an API key: set api_key")]
    MissingApiKey(String),
    /// `fix` says what is wrong with `url` and what to do.
    #[error("{fix}")]
    BadBaseUrl { url: String, fix: String },
    #[error("could not set up the HTTP client: {0}")]
    Client(String),
}

impl Endpoint {
    /// An endpoint with the default timeout and retry policy and no key.
    pub fn new(
        provider: impl Into<String>,
        wire: WireFormat,
        base_url: impl Into<String>,
        model: impl Into<String>,
    ) -> Endpoint {
        Endpoint {
            provider: provider.into(),
            wire,
            base_url: base_url.into(),
            model: model.into(),
            api_key: None,
            timeout: DEFAULT_TIMEOUT,
            retry: RetryPolicy::default(),
        }
    }

    pub fn with_api_key(mut self, key: Secret) -> Endpoint {
        self.api_key = Some(key);
        self
    }

    pub fn with_timeout(mut self, timeout: Duration) -> Endpoint {
        self.timeout = timeout;
        self
    }

    pub fn with_retry(mut self, retry: RetryPolicy) -> Endpoint {
        self.retry = retry;
        self
    }

    /// A stored model's endpoint: its base URL and model, or the provider's defaults. The URL
    /// is checked again here (https unless loopback), since a key is about to travel on it.
    pub fn from_model(spec: &ModelSpec, api_key: Option<Secret>) -> Result<Endpoint, ConnectError> {
        let provider = spec
            .provider_spec()
            .ok_or_else(|| ConnectError::UnknownProvider(spec.provider.clone()))?;
        if provider.wire == WireFormat::Builtin {
            return Err(ConnectError::Builtin);
        }
        let id = provider.id.to_string();
        let base_url = spec
            .effective_base_url()
            .ok_or_else(|| ConnectError::MissingBaseUrl(id.clone()))?;
        if let Some(problem) = check_base_url(&base_url) {
            return Err(ConnectError::BadBaseUrl {
                url: base_url,
                fix: FieldProblem::new("base_url", problem).fix(),
            });
        }
        let model = spec
            .effective_model_name()
            .ok_or_else(|| ConnectError::MissingModel(id.clone()))?;
        let api_key = api_key.filter(|k| !k.is_empty());
        if provider.needs_api_key && api_key.is_none() {
            return Err(ConnectError::MissingApiKey(id));
        }
        let mut endpoint = Endpoint::new(id, provider.wire, base_url, model);
        endpoint.api_key = api_key;
        Ok(endpoint)
    }

    /// `deepseek:deepseek-chat`.
    pub fn label(&self) -> String {
        format!("{}:{}", self.provider, self.model)
    }
}

/// The provider for `endpoint`'s wire format.
pub fn connect(endpoint: Endpoint) -> Result<Arc<dyn Provider>, ConnectError> {
    let client_err = |e: reqwest::Error| ConnectError::Client(e.to_string());
    Ok(match endpoint.wire {
        WireFormat::OpenAi => Arc::new(OpenAiProvider::new(&endpoint).map_err(client_err)?),
        WireFormat::Anthropic => Arc::new(AnthropicProvider::new(&endpoint).map_err(client_err)?),
        WireFormat::Gemini => Arc::new(GeminiProvider::new(&endpoint).map_err(client_err)?),
        WireFormat::Builtin => return Err(ConnectError::Builtin),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(provider: &str) -> ModelSpec {
        ModelSpec {
            name: "m".into(),
            provider: provider.into(),
            enabled: true,
            base_url: None,
            model_name: None,
        }
    }

    #[test]
    fn defaults_come_from_the_provider_table() {
        let e = Endpoint::from_model(&spec("deepseek"), Some(Secret::new("sk-x"))).unwrap();
        assert_eq!(e.base_url, "https://api.deepseek.com");
        assert_eq!(e.model, "deepseek-chat");
        assert_eq!(e.wire, WireFormat::OpenAi);
        assert_eq!(e.label(), "deepseek:deepseek-chat");
        assert_eq!(e.retry, RetryPolicy::default());
    }

    #[test]
    fn custom_fields_win_and_gaps_are_named() {
        let mut s = spec("claude");
        assert_eq!(
            Endpoint::from_model(&s, Some(Secret::new("k"))).unwrap_err(),
            ConnectError::MissingModel("claude".into())
        );
        s.model_name = Some("claude-sonnet-4".into());
        s.base_url = Some("https://gw.example.com/anthropic/v1".into());
        let e = Endpoint::from_model(&s, Some(Secret::new("k"))).unwrap();
        assert_eq!(e.wire, WireFormat::Anthropic);
        assert_eq!(e.base_url, "https://gw.example.com/anthropic/v1");
        assert_eq!(e.model, "claude-sonnet-4");
        assert_eq!(
            Endpoint::from_model(&s, None).unwrap_err(),
            ConnectError::MissingApiKey("claude".into())
        );
        assert_eq!(
            Endpoint::from_model(&s, Some(Secret::new("  "))).unwrap_err(),
            ConnectError::MissingApiKey("claude".into())
        );
        assert_eq!(
            Endpoint::from_model(&spec("custom"), None).unwrap_err(),
            ConnectError::MissingBaseUrl("custom".into())
        );
    }

    #[test]
    fn gemini_native_speaks_the_native_format() {
        let mut s = spec("gemini_native");
        assert_eq!(
            Endpoint::from_model(&s, Some(Secret::new("k"))).unwrap_err(),
            ConnectError::MissingModel("gemini_native".into())
        );
        s.model_name = Some("gemini-2.5-flash".into());
        let e = Endpoint::from_model(&s, Some(Secret::new("k"))).unwrap();
        assert_eq!(e.wire, WireFormat::Gemini);
        assert_eq!(
            e.base_url,
            "https://generativelanguage.googleapis.com/v1beta"
        );
        assert_eq!(
            Endpoint::from_model(&s, None).unwrap_err(),
            ConnectError::MissingApiKey("gemini_native".into())
        );
    }

    #[test]
    fn builtin_and_unknown_and_plain_http_are_refused() {
        let err = Endpoint::from_model(&spec("builtin"), None).unwrap_err();
        assert_eq!(err, ConnectError::Builtin);
        assert!(err.to_string().contains("needs no endpoint"));
        assert!(matches!(
            Endpoint::from_model(&spec("gpt"), None),
            Err(ConnectError::UnknownProvider(_))
        ));
        let mut s = spec("ollama");
        s.base_url = Some("http://10.0.0.5:11434/v1".into());
        s.model_name = Some("llama3".into());
        assert!(matches!(
            Endpoint::from_model(&s, None),
            Err(ConnectError::BadBaseUrl { .. })
        ));
        s.base_url = Some("http://127.0.0.1:11434/v1".into());
        assert!(Endpoint::from_model(&s, None).is_ok());
        let builtin = Endpoint::new("builtin", WireFormat::Builtin, "", "rules-v1");
        assert!(matches!(connect(builtin), Err(ConnectError::Builtin)));
    }

    #[test]
    fn debug_never_shows_the_key() {
        let e = Endpoint::from_model(
            &spec("deepseek"),
            Some(Secret::new("sk-verysecretkey1234567890")),
        )
        .unwrap();
        assert!(!format!("{e:?}").contains("verysecret"));
        let p = connect(e).unwrap();
        assert_eq!(p.label(), "deepseek:deepseek-chat");
    }
}
