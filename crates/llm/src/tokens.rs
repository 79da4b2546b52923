//! Token estimates for when a provider does not report usage (and for budgeting a prompt
//! before it is sent).
//!
//! Tokenizers differ per model; this only needs to be close enough to compare prompts and
//! spot one that will not fit. BPE tokenizers give roughly one token per CJK character and
//! one per four bytes of English or JSON, so that is what this counts.

use crate::types::ChatRequest;

/// Framing every message costs on top of its text (role markers, separators).
const PER_MESSAGE_OVERHEAD: u64 = 4;

/// About how many tokens `text` is: one per CJK character, one per four bytes of the rest.
pub fn estimate_tokens(text: &str) -> u64 {
    let mut cjk = 0u64;
    let mut other_bytes = 0u64;
    for ch in text.chars() {
        if is_cjk(ch) {
            cjk += 1;
        } else {
            other_bytes += ch.len_utf8() as u64;
        }
    }
    cjk + other_bytes.div_ceil(4)
}

/// About how many prompt tokens `request` is: system prompt, messages and tool declarations.
pub fn estimate_request(request: &ChatRequest) -> u64 {
    let mut total = 0;
    if !request.system.is_empty() {
        total += estimate_tokens(&request.system) + PER_MESSAGE_OVERHEAD;
    }
    for m in &request.messages {
        total += estimate_tokens(&m.content) + PER_MESSAGE_OVERHEAD;
    }
    for t in &request.tools {
        total += estimate_tokens(&t.name)
            + estimate_tokens(&t.description)
            + estimate_tokens(&t.parameters.to_string());
    }
    total
}

fn is_cjk(ch: char) -> bool {
    matches!(ch as u32,
        0x3000..=0x303F      // CJK punctuation
        | 0x3040..=0x30FF    // Hiragana, Katakana
        | 0x3400..=0x4DBF    // CJK extension A
        | 0x4E00..=0x9FFF    // CJK unified ideographs
        | 0xAC00..=0xD7AF    // Hangul syllables
        | 0xF900..=0xFAFF    // CJK compatibility ideographs
        | 0xFF00..=0xFFEF    // full-width forms (，。：)
        | 0x20000..=0x2FA1F  // extensions B–F, compatibility supplement
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{Message, ToolSpec};

    #[test]
    fn ascii_is_a_quarter_of_its_bytes() {
        assert_eq!(estimate_tokens(""), 0);
        assert_eq!(estimate_tokens("abcd"), 1);
        assert_eq!(estimate_tokens("abcde"), 2);
        assert_eq!(estimate_tokens(&"x".repeat(400)), 100);
    }

    #[test]
    fn cjk_is_a_token_a_character() {
        assert_eq!(estimate_tokens("帮我创建一个交易员"), 9);
        assert_eq!(estimate_tokens("买入BTC，"), 3 + 1);
        assert_eq!(estimate_tokens("こんにちは"), 5);
    }

    #[test]
    fn request_counts_system_messages_and_tools() {
        let r = ChatRequest {
            system: "abcd".into(),
            messages: vec![Message::user("你好"), Message::assistant("abcdefgh")],
            tools: vec![ToolSpec {
                name: "abcd".into(),
                description: "abcd".into(),
                parameters: serde_json::json!({}),
            }],
            ..Default::default()
        };
        assert_eq!(
            estimate_request(&r),
            (1 + 4) + (2 + 4) + (2 + 4) + 1 + 1 + 1
        );
    }
}
