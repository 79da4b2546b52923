//! A request as the mock received it, for assertions on what the client sent.

use serde_json::Value;

#[derive(Clone, Debug)]
pub struct RecordedRequest {
    /// The URL path without the query, e.g. `/v1/chat/completions`.
    pub path: String,
    /// Header names are lowercase, values as sent (non-UTF-8 values are lossily decoded).
    pub headers: Vec<(String, String)>,
    /// The body parsed as JSON; a body that is not JSON is kept as a JSON string, an empty one
    /// is `null`.
    pub body: Value,
    /// The raw query string without `?` (empty when there is none), e.g. `alt=sse&key=…`.
    pub query: String,
}

impl RecordedRequest {
    /// The first value of header `name`, compared case-insensitively.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The whole body as JSON text, for "the prompt mentions X" assertions. Non-ASCII text
    /// stays as written, so Chinese can be searched for directly.
    pub fn body_text(&self) -> String {
        self.body.to_string()
    }

    /// Whether the client asked for a streamed answer (`"stream": true`, or Gemini's
    /// `:streamGenerateContent`).
    pub fn is_stream(&self) -> bool {
        self.body.get("stream").and_then(Value::as_bool) == Some(true)
            || self.path.ends_with(":streamGenerateContent")
    }
}
