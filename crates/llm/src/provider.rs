//! The one [`Provider`] implementation, generic over the wire format it speaks.
//!
//! Every format makes a call the same way: POST a JSON body with a key header through the
//! shared [`Transport`], then read either one JSON answer or a stream of events into a
//! [`Draft`]. What differs is only the text on the wire, so each format (`openai`,
//! `anthropic`, `gemini`) implements [`Wire`] and this module does the rest once: headers,
//! retries and timeouts (via the transport), the stream-or-whole decision, replaying a whole
//! answer to a stream's callback, and turning the draft into a [`Completion`].

use std::marker::PhantomData;
use std::time::Instant;

use nofxi_domain::Secret;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use serde_json::Value;

use crate::Provider;
use crate::classify;
use crate::connect::Endpoint;
use crate::draft::Draft;
use crate::error::{LlmError, LlmErrorKind};
use crate::http::{StreamStart, Transport};
use crate::sse::{Flow, read_events};
use crate::types::{ChatRequest, Completion, StreamDelta};

/// The callback a stream hands its text and tool calls to.
pub(crate) type OnDelta<'a> = &'a (dyn Fn(StreamDelta) + Send + Sync);

/// What one wire format decides about a call. Implemented by a unit type per format; never
/// instantiated, only named as [`HttpProvider`]'s parameter.
pub(crate) trait Wire: 'static {
    /// The provider's type name in `Debug` output (`OpenAiProvider`).
    const NAME: &'static str;

    /// The state of one stream being read.
    type Stream: StreamDecoder;

    /// The header that carries the API key, and its value for `key`.
    fn auth_header(key: &str) -> (HeaderName, String);

    /// Headers every request carries whatever the key (an API version).
    fn fixed_headers() -> HeaderMap {
        HeaderMap::new()
    }

    /// Where whole answers and streams are asked for, in that order.
    fn urls(endpoint: &Endpoint) -> (String, String);

    /// The request as this format's JSON; `stream` asks for events instead of one answer.
    fn body(request: &ChatRequest, model: &str, stream: bool) -> Value;

    /// A whole (non-stream) answer.
    fn parse_whole(answer: &Value, key: Option<&Secret>) -> Result<Draft, LlmError>;
}

/// What the events of one stream add up to, fed one event's data at a time.
pub(crate) trait StreamDecoder: Default + Send {
    fn on_data(
        &mut self,
        data: &str,
        on_delta: OnDelta<'_>,
        key: Option<&Secret>,
    ) -> Result<Flow, LlmError>;

    /// The answer once the events have ended (by end marker or end of body).
    fn finish(self, on_delta: OnDelta<'_>) -> Result<Draft, LlmError>;
}

/// A model endpoint speaking wire format `W` over HTTP.
pub struct HttpProvider<W> {
    label: String,
    url: String,
    stream_url: String,
    model: String,
    transport: Transport,
    // `fn() -> W`: the provider holds no `W`, so it is `Send + Sync` whatever `W` is.
    wire: PhantomData<fn() -> W>,
}

// `Wire` stays crate-private on purpose: the formats are this crate's to define. Outside
// code reaches `new` only through the `OpenAiProvider`, `AnthropicProvider` and
// `GeminiProvider` aliases, where the bound is already met.
#[allow(private_bounds)]
impl<W: Wire> HttpProvider<W> {
    pub fn new(endpoint: &Endpoint) -> Result<HttpProvider<W>, reqwest::Error> {
        let (url, stream_url) = W::urls(endpoint);
        Ok(HttpProvider {
            label: endpoint.label(),
            url,
            stream_url,
            model: endpoint.model.clone(),
            transport: Transport::new(
                headers::<W>(endpoint.api_key.as_ref()),
                endpoint.timeout,
                endpoint.retry,
                endpoint.api_key.clone(),
            )?,
            wire: PhantomData,
        })
    }

    /// A server that ignored `stream` answered whole: parse it and tell the callback after
    /// the fact, so the caller sees the same deltas either way.
    fn replay_whole(&self, answer: &Value, on_delta: OnDelta<'_>) -> Result<Draft, LlmError> {
        let draft = W::parse_whole(answer, self.transport.key())?;
        if !draft.text.is_empty() {
            on_delta(StreamDelta::Text(draft.text.clone()));
        }
        for call in &draft.tool_calls {
            on_delta(StreamDelta::ToolCall(call.clone()));
        }
        Ok(draft)
    }

    async fn read_stream(
        &self,
        resp: reqwest::Response,
        on_delta: OnDelta<'_>,
    ) -> Result<Draft, LlmError> {
        let key = self.transport.key();
        let mut state = W::Stream::default();
        let events = read_events(resp, self.transport.timeout(), key, |_, data| {
            state.on_data(data, on_delta, key)
        })
        .await?;
        // A body with no event at all is no answer, in any format.
        if events == 0 {
            return Err(LlmError::new(
                LlmErrorKind::BadResponse,
                "the stream ended before the model answered",
            ));
        }
        state.finish(on_delta)
    }
}

/// `W`'s fixed headers plus the key's, marked sensitive so reqwest's own debug output never
/// shows it. An empty key, or one that cannot be a header, is left out: the provider's 401
/// then says what is wrong better than a client-side error would.
fn headers<W: Wire>(key: Option<&Secret>) -> HeaderMap {
    let mut headers = W::fixed_headers();
    if let Some(key) = key.filter(|k| !k.is_empty()) {
        let (name, value) = W::auth_header(key.expose());
        if let Ok(mut value) = HeaderValue::from_str(&value) {
            value.set_sensitive(true);
            headers.insert(name, value);
        }
    }
    headers
}

/// Shows where the provider points, never the key.
impl<W: Wire> std::fmt::Debug for HttpProvider<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct(W::NAME)
            .field("label", &self.label)
            .field("url", &self.url)
            .finish_non_exhaustive()
    }
}

#[async_trait::async_trait]
impl<W: Wire> Provider for HttpProvider<W> {
    fn label(&self) -> String {
        self.label.clone()
    }

    async fn complete(&self, request: &ChatRequest) -> Result<Completion, LlmError> {
        let started = Instant::now();
        let body = W::body(request, &self.model, false);
        let answer = self.transport.post_json(&self.url, &body).await?;
        let draft = W::parse_whole(&answer, self.transport.key())?;
        Ok(draft.finish(request, &self.model, started))
    }

    async fn stream(
        &self,
        request: &ChatRequest,
        on_delta: OnDelta<'_>,
    ) -> Result<Completion, LlmError> {
        let started = Instant::now();
        let body = W::body(request, &self.model, true);
        let draft = match self.transport.post_stream(&self.stream_url, &body).await? {
            StreamStart::Whole(answer) => self.replay_whole(&answer, on_delta)?,
            StreamStart::Events(resp) => self.read_stream(resp, on_delta).await?,
        };
        Ok(draft.finish(request, &self.model, started))
    }
}

/// A 200 answer without the shape its format promises, for formats whose parser says what
/// is missing as text: the error quotes the answer (redacted) so the user can see it.
pub(crate) fn unexpected_shape(answer: &Value, what: &str, key: Option<&Secret>) -> LlmError {
    classify::bad_response(200, &answer.to_string(), what, key)
}
