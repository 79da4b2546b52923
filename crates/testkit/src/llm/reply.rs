//! What a test scripts the model to answer, and the provider-neutral answer the formats render.

use serde_json::Value;

/// One scripted answer, served to one request in whichever wire format that request used.
#[derive(Clone, Debug)]
pub enum Reply {
    /// Assistant text; streamed as several chunks when the request asked to stream.
    Text(String),
    /// Tool calls: (tool name, arguments object).
    ToolCalls(Vec<(String, Value)>),
    /// Assistant text with the token counts to report instead of the estimate.
    TextWithUsage {
        text: String,
        prompt_tokens: u64,
        completion_tokens: u64,
    },
    /// This status with this body, sent as given (pass the provider's real error JSON).
    Error { status: u16, body: String },
    /// This status with an error whose message quotes the credentials the request carried
    /// (`Authorization`, `x-api-key`, `x-goog-api-key`, `?key=`), as a provider or a proxy that
    /// echoes the request does. The client under test must not pass that text on.
    EchoKey { status: u16 },
    /// An HTML error page, `content-type: text/html`, as a CDN or proxy in front of the
    /// provider sends.
    Html { status: u16 },
    /// Sleep, then answer with `then` (for client timeouts).
    Delay { ms: u64, then: Box<Reply> },
    /// Wait until the test opens `gate`, then answer with `then`: a caller frozen mid-call for
    /// as long as the test needs (an engine paused past its lease between decide and execute).
    Held { gate: Gate, then: Box<Reply> },
    /// Drop the connection without sending a response.
    CloseConnection,
}

/// What a [`Reply::Held`] waits for.
#[derive(Clone, Debug)]
pub struct Gate(std::sync::Arc<tokio::sync::Semaphore>);

impl Default for Gate {
    fn default() -> Gate {
        Gate::new()
    }
}

impl Gate {
    pub fn new() -> Gate {
        Gate(std::sync::Arc::new(tokio::sync::Semaphore::new(0)))
    }

    /// Lets every request held at this gate, now or later, be answered.
    pub fn open(&self) {
        self.0.add_permits(tokio::sync::Semaphore::MAX_PERMITS / 2);
    }

    pub(crate) async fn passed(&self) {
        // A closed semaphore also lets the request through: nothing is left to wait for.
        let _ = self.0.acquire().await;
    }
}

/// A successful answer, before a wire format is chosen.
#[derive(Clone, Debug)]
pub(crate) struct Answer {
    pub(crate) content: Content,
    pub(crate) prompt_tokens: u64,
    pub(crate) completion_tokens: u64,
    /// Unique within the mock; formats derive their message and tool-call ids from it.
    pub(crate) id: u64,
}

#[derive(Clone, Debug)]
pub(crate) enum Content {
    Text(String),
    ToolCalls(Vec<(String, Value)>),
}

impl Answer {
    /// `scripted` is (prompt, completion) tokens when the test fixed them; otherwise both are
    /// estimated, the prompt from `request_chars`.
    pub(crate) fn new(
        content: Content,
        scripted: Option<(u64, u64)>,
        request_chars: usize,
        id: u64,
    ) -> Answer {
        let (prompt_tokens, completion_tokens) = scripted.unwrap_or_else(|| {
            let reply_chars = match &content {
                Content::Text(text) => text.chars().count(),
                Content::ToolCalls(calls) => calls
                    .iter()
                    .map(|(name, args)| name.chars().count() + args.to_string().chars().count())
                    .sum(),
            };
            (estimate_tokens(request_chars), estimate_tokens(reply_chars))
        });
        Answer {
            content,
            prompt_tokens,
            completion_tokens,
            id,
        }
    }

    pub(crate) fn total_tokens(&self) -> u64 {
        self.prompt_tokens + self.completion_tokens
    }
}

/// Four characters a token, rounded up: crude, but it moves with the size of what was sent.
fn estimate_tokens(chars: usize) -> u64 {
    chars.div_ceil(4) as u64
}

/// Characters per streamed fragment: small enough that a short reply arrives in several pieces.
const CHUNK_CHARS: usize = 8;

/// Split `text` into fragments of up to eight characters, never inside a UTF-8 character, so
/// a client that decodes each fragment on its own still gets whole characters. Empty text is
/// one empty fragment.
pub(crate) fn fragments(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    if chars.is_empty() {
        return vec![String::new()];
    }
    chars
        .chunks(CHUNK_CHARS)
        .map(|c| c.iter().collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fragments_keep_chinese_characters_whole() {
        let text = "比特币现在多少钱？请用中文回答我";
        let parts = fragments(text);
        assert!(parts.len() > 1);
        assert_eq!(parts.concat(), text);
    }
}
