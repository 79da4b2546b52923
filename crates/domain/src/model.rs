//! A model config: which LLM provider to call, where, with which model name and key.
//!
//! The key itself is not part of [`ModelSpec`]; it travels separately as a [`crate::Secret`]
//! so that the spec can be logged, shown and stored in clear while the key goes to the vault.
//! Validation still needs to know whether a key exists, so it takes `has_api_key`.

use serde::{Deserialize, Serialize};

use crate::base_url::check_base_url;
use crate::provider::{ProviderSpec, provider, provider_ids};
use crate::resource::NAME_MAX;
use crate::secret::Secret;
use crate::validation::{Problem, Problems, ValidationError};

/// The non-secret fields a user sets on a model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ModelSpec {
    pub name: String,
    pub provider: String,
    pub enabled: bool,
    /// A custom base URL; `None` uses the provider's default.
    pub base_url: Option<String>,
    /// `None` uses the provider's default model.
    pub model_name: Option<String>,
}

/// A partial change: `None` leaves a field as it is; an empty string clears an optional one.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ModelPatch {
    pub name: Option<String>,
    pub provider: Option<String>,
    pub enabled: Option<bool>,
    pub base_url: Option<String>,
    pub model_name: Option<String>,
}

impl ModelSpec {
    /// Trims text and turns blanks into `None`, so "" never counts as a value.
    pub fn normalized(mut self) -> Self {
        self.name = self.name.trim().to_string();
        self.provider = self.provider.trim().to_ascii_lowercase();
        self.base_url = blank_to_none(self.base_url);
        self.model_name = blank_to_none(self.model_name);
        self
    }

    pub fn apply(mut self, patch: ModelPatch) -> Self {
        if let Some(v) = patch.name {
            self.name = v;
        }
        if let Some(v) = patch.provider {
            self.provider = v;
        }
        if let Some(v) = patch.enabled {
            self.enabled = v;
        }
        if let Some(v) = patch.base_url {
            self.base_url = Some(v);
        }
        if let Some(v) = patch.model_name {
            self.model_name = Some(v);
        }
        self.normalized()
    }

    /// Every problem at once. `given` is a key given now (checked for characters no key
    /// holds, and refused where the provider takes none); `stored` says whether the vault
    /// already holds one.
    pub fn validate(&self, given: Option<&Secret>, stored: bool) -> Result<(), ValidationError> {
        // A key given with nothing in it is said so (where the provider takes a key), never
        // taken for "not given": that kept the stored key and said "updated".
        let empty = given.is_some_and(|k| k.expose().trim().is_empty());
        let given = given.filter(|_| !empty);
        let has_api_key = given.is_some() || stored;
        let mut p = Problems::default();
        if let Some(key) = given {
            p.credential("api_key", key);
        }
        p.name("name", &self.name, NAME_MAX);
        let spec = provider(&self.provider);
        match spec {
            None => p.push(
                "provider",
                Problem::NotOneOf {
                    allowed: provider_ids(),
                    got: self.provider.clone(),
                },
            ),
            Some(spec) => {
                if self.base_url.is_none() && spec.default_base_url.is_none() && !is_builtin(spec) {
                    p.push("base_url", Problem::Required);
                }
                if self.model_name.is_none() && spec.default_model.is_none() {
                    p.push("model_name", Problem::Required);
                }
                if empty && spec.takes_api_key() {
                    p.push(
                        "api_key",
                        Problem::EmptyCredential {
                            issuer: spec.id.into(),
                        },
                    );
                } else if spec.needs_api_key && !has_api_key {
                    p.push("api_key", Problem::Required);
                }
                if !spec.takes_api_key() && given.is_some() {
                    p.push(
                        "api_key",
                        Problem::UnusedByProvider {
                            provider: spec.id.into(),
                        },
                    );
                }
            }
        }
        if let Some(url) = &self.base_url
            && let Some(problem) = check_base_url(url)
        {
            p.push("base_url", problem);
        }
        if let Some(model_name) = &self.model_name {
            p.text("model_name", model_name);
        }
        p.finish(())
    }

    pub fn provider_spec(&self) -> Option<&'static ProviderSpec> {
        provider(&self.provider)
    }

    /// The URL requests go to: the custom one, or the provider's default.
    pub fn effective_base_url(&self) -> Option<String> {
        self.base_url.clone().or_else(|| {
            self.provider_spec()
                .and_then(|p| p.default_base_url.map(str::to_string))
        })
    }

    /// The model requests ask for: the configured one, or the provider's default.
    pub fn effective_model_name(&self) -> Option<String> {
        self.model_name.clone().or_else(|| {
            self.provider_spec()
                .and_then(|p| p.default_model.map(str::to_string))
        })
    }
}

fn is_builtin(spec: &ProviderSpec) -> bool {
    spec.wire == crate::provider::WireFormat::Builtin
}

pub(crate) fn blank_to_none(v: Option<String>) -> Option<String> {
    v.map(|s| s.trim().to_string()).filter(|s| !s.is_empty())
}

/// A stored model as every reader sees it: no key, only whether there is one and its mask.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Model {
    pub id: String,
    pub user_id: String,
    #[serde(flatten)]
    pub spec: ModelSpec,
    pub effective_base_url: Option<String>,
    pub effective_model_name: Option<String>,
    pub has_api_key: bool,
    pub api_key_masked: Option<String>,
    /// Epoch milliseconds.
    pub created_at: i64,
    pub updated_at: i64,
    /// Set while the model is in the trash.
    pub deleted_at: Option<i64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key() -> Secret {
        Secret::new("sk-abcdefghijklmnop")
    }

    #[test]
    fn a_key_on_a_provider_that_takes_none_is_refused_and_bad_characters_named() {
        let err = spec("builtin").validate(Some(&key()), false).unwrap_err();
        assert_eq!(err.fields(), vec!["api_key"]);
        assert!(err.to_string().contains("builtin"), "{err}");
        let spaced = Secret::new("sk-with space inside");
        let err = spec("deepseek").validate(Some(&spaced), false).unwrap_err();
        assert!(err.to_string().contains("U+0020"), "{err}");
        assert!(!err.to_string().contains("with space"), "{err}");
        // A stored key still counts, with none given now.
        assert!(spec("deepseek").validate(None, true).is_ok());
    }

    fn spec(provider: &str) -> ModelSpec {
        ModelSpec {
            name: "m".into(),
            provider: provider.into(),
            enabled: true,
            base_url: None,
            model_name: None,
        }
        .normalized()
    }

    #[test]
    fn deepseek_needs_only_a_key() {
        assert!(spec("deepseek").validate(Some(&key()), false).is_ok());
        let err = spec("deepseek").validate(None, false).unwrap_err();
        assert_eq!(err.fields(), vec!["api_key"]);
        assert_eq!(
            spec("deepseek").effective_model_name().as_deref(),
            Some("deepseek-chat")
        );
    }

    #[test]
    fn builtin_needs_nothing() {
        assert!(spec("builtin").validate(None, false).is_ok());
    }

    #[test]
    fn custom_needs_url_and_model_and_names_both() {
        let err = spec("custom").validate(None, false).unwrap_err();
        assert_eq!(err.fields(), vec!["base_url", "model_name"]);
    }

    #[test]
    fn http_base_url_is_rejected_naming_the_field() {
        let mut s = spec("openai");
        s.model_name = Some("gpt-4o".into());
        s.base_url = Some("http://api.openai.com/v1".into());
        let err = s.validate(Some(&key()), false).unwrap_err();
        assert_eq!(err.fields(), vec!["base_url"]);
        assert!(err.to_string().contains("https"));
    }

    #[test]
    fn unknown_provider_lists_the_choices() {
        let err = spec("gpt").validate(Some(&key()), false).unwrap_err();
        assert!(err.to_string().contains("deepseek"), "{err}");
    }

    #[test]
    fn patch_with_empty_string_clears_optional_field() {
        let mut s = spec("openai");
        s.model_name = Some("gpt-4o".into());
        let s = s.apply(ModelPatch {
            model_name: Some(String::new()),
            ..Default::default()
        });
        assert_eq!(s.model_name, None);
    }

    /// A key pasted into `model_name` (an easy swap with the key's own field) was stored and
    /// shown in clear in every list: free text holding a key shape is refused, as a name is,
    /// and the refusal does not repeat it.
    #[test]
    fn a_key_in_model_name_is_refused_and_real_model_names_pass() {
        let mut s = spec("openai");
        s.model_name = Some("sk-proj-ZZSECRETabcdefghijklmnopqrstuvwx".into());
        let err = s.validate(Some(&key()), false).unwrap_err();
        assert_eq!(err.fields(), vec!["model_name"]);
        let said = err.to_string();
        assert!(said.contains("looks like an API key"), "{said}");
        assert!(!said.contains("ZZSECRET"), "{said}");
        assert!(!err.to_zh().contains("ZZSECRET"));
        s.model_name = Some("gpt\u{1b}]0;pwned\u{7}".into());
        let err = s.validate(Some(&key()), false).unwrap_err();
        assert!(err.to_string().contains("U+001B"), "{err}");
        for name in [
            "gpt-4o",
            "claude-3-5-sonnet-20241022",
            "models/gemini-2.5-flash-preview-05-20",
            "ft:gpt-4o-mini-2024-07-18:acme::9xYz1234",
            "mistralai/Mixtral-8x22B-Instruct-v0.1",
            "Qwen/Qwen3-235B-A22B-Instruct-2507",
            "meta-llama/Meta-Llama-3.1-405B-Instruct-Turbo",
            "qwen-plus-2025-01-25",
            "moonshot-v1-8k",
            "abab6.5s-chat",
        ] {
            s.model_name = Some(name.into());
            assert!(s.validate(Some(&key()), false).is_ok(), "{name}");
        }
    }

    #[test]
    fn an_empty_key_is_said_empty_where_the_provider_takes_one() {
        let spec = ModelSpec {
            name: "ds".into(),
            provider: "deepseek".into(),
            enabled: true,
            base_url: None,
            model_name: None,
        };
        let err = spec.validate(Some(&Secret::new("")), true).unwrap_err();
        assert_eq!(err.fields(), vec!["api_key"]);
        assert!(err.to_string().contains("is empty: give"), "{err}");
        let builtin = ModelSpec {
            provider: "builtin".into(),
            ..spec
        };
        assert!(builtin.validate(Some(&Secret::new(" ")), false).is_ok());
    }
}
