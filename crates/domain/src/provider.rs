//! LLM providers as data (REFERENCE §1): default base URL, default model and wire format.
//!
//! Adding an OpenAI-compatible provider is one row in [`PROVIDERS`], not code. `builtin` is the
//! offline rule decider that lets a paper trader run with no network and no key; `ollama` and
//! `custom` have no default URL, so the user must give one.

use serde::{Deserialize, Serialize};

/// How requests are shaped on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WireFormat {
    /// OpenAI chat completions (also DeepSeek, Qwen, Kimi, Grok, MiniMax, Gemini's compatible
    /// endpoint, Ollama).
    OpenAi,
    /// Anthropic messages (`/messages`, `x-api-key`, `anthropic-version: 2023-06-01`).
    Anthropic,
    /// Gemini's native API (`/models/{model}:generateContent`, `x-goog-api-key`), for what the
    /// OpenAI-compatible endpoint does not carry (e.g. `responseMimeType`, `usageMetadata`).
    Gemini,
    /// No wire at all: nofxi's built-in rule decider.
    Builtin,
}

/// One provider's defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ProviderSpec {
    pub id: &'static str,
    pub display_name: &'static str,
    pub default_base_url: Option<&'static str>,
    /// `None` means the user chooses (there is no safe default for that provider).
    pub default_model: Option<&'static str>,
    pub wire: WireFormat,
    /// Whether an API key is required to use it.
    pub needs_api_key: bool,
}

/// The provider table. Order is the order shown to users.
pub const PROVIDERS: &[ProviderSpec] = &[
    ProviderSpec {
        id: "builtin",
        display_name: "Built-in rules (offline)",
        default_base_url: None,
        default_model: Some("rules-v1"),
        wire: WireFormat::Builtin,
        needs_api_key: false,
    },
    ProviderSpec {
        id: "deepseek",
        display_name: "DeepSeek",
        default_base_url: Some("https://api.deepseek.com"),
        default_model: Some("deepseek-chat"),
        wire: WireFormat::OpenAi,
        needs_api_key: true,
    },
    ProviderSpec {
        id: "qwen",
        display_name: "Qwen (DashScope)",
        default_base_url: Some("https://dashscope.aliyuncs.com/compatible-mode/v1"),
        default_model: Some("qwen3-max"),
        wire: WireFormat::OpenAi,
        needs_api_key: true,
    },
    ProviderSpec {
        id: "openai",
        display_name: "OpenAI",
        default_base_url: Some("https://api.openai.com/v1"),
        default_model: None,
        wire: WireFormat::OpenAi,
        needs_api_key: true,
    },
    ProviderSpec {
        id: "claude",
        display_name: "Anthropic Claude",
        default_base_url: Some("https://api.anthropic.com/v1"),
        default_model: None,
        wire: WireFormat::Anthropic,
        needs_api_key: true,
    },
    ProviderSpec {
        id: "gemini",
        display_name: "Google Gemini",
        default_base_url: Some("https://generativelanguage.googleapis.com/v1beta/openai"),
        default_model: None,
        wire: WireFormat::OpenAi,
        needs_api_key: true,
    },
    ProviderSpec {
        id: "gemini_native",
        display_name: "Google Gemini (native API)",
        default_base_url: Some("https://generativelanguage.googleapis.com/v1beta"),
        default_model: None,
        wire: WireFormat::Gemini,
        needs_api_key: true,
    },
    ProviderSpec {
        id: "grok",
        display_name: "xAI Grok",
        default_base_url: Some("https://api.x.ai/v1"),
        default_model: Some("grok-3-latest"),
        wire: WireFormat::OpenAi,
        needs_api_key: true,
    },
    ProviderSpec {
        id: "kimi",
        display_name: "Moonshot Kimi",
        default_base_url: Some("https://api.moonshot.ai/v1"),
        default_model: Some("moonshot-v1-auto"),
        wire: WireFormat::OpenAi,
        needs_api_key: true,
    },
    ProviderSpec {
        id: "minimax",
        display_name: "MiniMax",
        default_base_url: Some("https://api.minimax.io/v1"),
        default_model: None,
        wire: WireFormat::OpenAi,
        needs_api_key: true,
    },
    ProviderSpec {
        id: "ollama",
        display_name: "Ollama (local)",
        default_base_url: None,
        default_model: None,
        wire: WireFormat::OpenAi,
        needs_api_key: false,
    },
    ProviderSpec {
        id: "custom",
        display_name: "Custom OpenAI-compatible",
        default_base_url: None,
        default_model: None,
        wire: WireFormat::OpenAi,
        needs_api_key: false,
    },
];

impl ProviderSpec {
    /// Whether requests to it can carry an API key at all. The offline rules call nothing, so
    /// a key given for them is a mix-up; `ollama` and `custom` take one when the user gives it
    /// (a gateway in front of a local model), though they need none.
    pub fn takes_api_key(&self) -> bool {
        self.wire != WireFormat::Builtin
    }
}

/// Looks a provider up by id, case-insensitively.
pub fn provider(id: &str) -> Option<&'static ProviderSpec> {
    PROVIDERS
        .iter()
        .find(|p| p.id.eq_ignore_ascii_case(id.trim()))
}

pub fn provider_ids() -> Vec<String> {
    PROVIDERS.iter().map(|p| p.id.to_string()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_matches_reference_defaults() {
        let ds = provider("DeepSeek").unwrap();
        assert_eq!(ds.default_base_url, Some("https://api.deepseek.com"));
        assert_eq!(ds.default_model, Some("deepseek-chat"));
        assert_eq!(provider("claude").unwrap().wire, WireFormat::Anthropic);
        assert_eq!(provider("builtin").unwrap().wire, WireFormat::Builtin);
        let native = provider("gemini_native").unwrap();
        assert_eq!(native.wire, WireFormat::Gemini);
        assert_eq!(native.default_model, None);
        assert!(native.needs_api_key);
        assert!(!provider("builtin").unwrap().needs_api_key);
        assert!(provider("nope").is_none());
    }

    #[test]
    fn every_default_url_is_https() {
        for p in PROVIDERS {
            if let Some(url) = p.default_base_url {
                assert!(url.starts_with("https://"), "{}", p.id);
            }
        }
    }
}
