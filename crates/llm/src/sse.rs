//! Reading a server-sent-events answer, one event at a time, with an idle timeout.
//!
//! The wire formats differ in what their events mean, not in how they are framed, so each
//! format gives a callback and this module does the framing, the silence limit and the
//! transport errors.

use std::time::Duration;

use eventsource_stream::{EventStreamError, Eventsource};
use futures::StreamExt;
use nofxi_domain::Secret;
use serde_json::Value;

use crate::classify;
use crate::error::{LlmError, LlmErrorKind};

/// Whether to keep reading after an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Flow {
    Continue,
    /// The format's end marker (`[DONE]`, `message_stop`): stop even if the connection stays.
    Done,
}

/// One event's data as JSON; `noun` names the piece ("chunk", "event") in the error, which
/// quotes the data (redacted) so the user sees what the server sent instead.
pub(crate) fn event_json(data: &str, noun: &str, key: Option<&Secret>) -> Result<Value, LlmError> {
    serde_json::from_str(data).map_err(|_| {
        LlmError::new(
            LlmErrorKind::BadResponse,
            crate::redact::redact(&format!("a stream {noun} is not JSON: {data}"), key),
        )
    })
}

/// Feeds each event's name and data to `on_event` until the end marker or the end of the
/// body. Returns how many events there were.
pub(crate) async fn read_events(
    resp: reqwest::Response,
    idle: Duration,
    key: Option<&Secret>,
    mut on_event: impl FnMut(&str, &str) -> Result<Flow, LlmError>,
) -> Result<usize, LlmError> {
    let mut events = resp.bytes_stream().eventsource();
    let mut seen = 0;
    loop {
        let next = tokio::time::timeout(idle, events.next())
            .await
            .map_err(|_| {
                LlmError::new(
                    LlmErrorKind::Timeout,
                    format!(
                        "the stream went silent for {} ms mid-answer",
                        idle.as_millis()
                    ),
                )
            })?;
        let event = match next {
            None => return Ok(seen),
            Some(Ok(event)) => event,
            Some(Err(EventStreamError::Transport(e))) => {
                return Err(classify::from_transport(&e, key));
            }
            Some(Err(e)) => {
                return Err(LlmError::new(
                    LlmErrorKind::BadResponse,
                    format!("the stream is not valid server-sent events: {e}"),
                ));
            }
        };
        seen += 1;
        if on_event(&event.event, &event.data)? == Flow::Done {
            return Ok(seen);
        }
    }
}
