//! A completion being put together from one answer or many stream events, and how it becomes
//! the [`Completion`] callers see: usage filled from the estimate where the provider was
//! silent, the model name defaulted, the latency stamped.

use std::time::Instant;

use crate::tokens::{estimate_request, estimate_tokens};
use crate::types::{ChatRequest, Completion, ToolCall, Usage};

#[derive(Debug, Default)]
pub(crate) struct Draft {
    pub text: String,
    pub tool_calls: Vec<ToolCall>,
    pub prompt_tokens: Option<u64>,
    pub completion_tokens: Option<u64>,
    pub model: Option<String>,
    pub finish_reason: Option<String>,
}

impl Draft {
    pub(crate) fn finish(
        self,
        request: &ChatRequest,
        requested_model: &str,
        started: Instant,
    ) -> Completion {
        let estimated = self.prompt_tokens.is_none() || self.completion_tokens.is_none();
        let prompt_tokens = self
            .prompt_tokens
            .unwrap_or_else(|| estimate_request(request));
        let completion_tokens = self.completion_tokens.unwrap_or_else(|| {
            estimate_tokens(&self.text)
                + self
                    .tool_calls
                    .iter()
                    .map(|c| estimate_tokens(&c.name) + estimate_tokens(&c.arguments.to_string()))
                    .sum::<u64>()
        });
        Completion {
            text: self.text,
            tool_calls: self.tool_calls,
            usage: Usage {
                prompt_tokens,
                completion_tokens,
                estimated,
            },
            model: self
                .model
                .filter(|m| !m.is_empty())
                .unwrap_or_else(|| requested_model.to_string()),
            finish_reason: self.finish_reason,
            latency_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
        }
    }
}

/// Tool-call arguments as JSON: a string that parses is the object it holds; an empty one is
/// `{}`; one that does not parse stays a string for the caller's validation to refuse.
pub(crate) fn arguments_from_text(raw: &str) -> serde_json::Value {
    if raw.trim().is_empty() {
        return serde_json::json!({});
    }
    serde_json::from_str(raw).unwrap_or_else(|_| serde_json::Value::String(raw.to_string()))
}

/// A temperature as JSON: `0.2`, not the `0.20000000298023224` an `f32` widens to.
pub(crate) fn temperature(t: f32) -> serde_json::Value {
    let rounded = (f64::from(t) * 1000.0).round() / 1000.0;
    serde_json::json!(rounded)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Message;

    #[test]
    fn silent_provider_gets_an_estimate_marked_as_such() {
        let request = ChatRequest {
            messages: vec![Message::user("帮我创建交易员")],
            ..Default::default()
        };
        let draft = Draft {
            text: "abcdefgh".into(),
            ..Draft::default()
        };
        let c = draft.finish(&request, "deepseek-chat", Instant::now());
        assert!(c.usage.estimated);
        assert_eq!(c.usage.prompt_tokens, 7 + 4);
        assert_eq!(c.usage.completion_tokens, 2);
        assert_eq!(c.model, "deepseek-chat");
    }

    #[test]
    fn reported_usage_is_kept() {
        let draft = Draft {
            prompt_tokens: Some(100),
            completion_tokens: Some(20),
            model: Some("deepseek-chat-v3".into()),
            ..Draft::default()
        };
        let c = draft.finish(&ChatRequest::default(), "deepseek-chat", Instant::now());
        assert!(!c.usage.estimated);
        assert_eq!(
            (c.usage.prompt_tokens, c.usage.completion_tokens),
            (100, 20)
        );
        assert_eq!(c.model, "deepseek-chat-v3");
    }

    #[test]
    fn temperature_is_written_as_given() {
        assert_eq!(temperature(0.2).to_string(), "0.2");
        assert_eq!(temperature(1.0).to_string(), "1.0");
    }

    #[test]
    fn arguments_parse_or_stay_text() {
        assert_eq!(arguments_from_text(""), serde_json::json!({}));
        assert_eq!(
            arguments_from_text("{\"a\":1}"),
            serde_json::json!({"a": 1})
        );
        assert_eq!(arguments_from_text("{\"a\":"), serde_json::json!("{\"a\":"));
    }
}
