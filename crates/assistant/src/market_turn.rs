//! A quote asked in the chat ("btc price"): the `market.price` tool through the same pipeline
//! as every tool call, answered beside whatever task waits (the turn reminds it once after).

use nofxi_protocol::{AnswerKind, Event};
use serde_json::{Map, Value};

use crate::Assistant;
use crate::tools::ToolCall;
use crate::turn::Turn;

impl Assistant {
    pub(crate) async fn answer_market(&self, turn: &mut Turn<'_>, symbol: &str) {
        let scopes = ["market:read".to_string()];
        let args = Map::from_iter([("symbol".to_string(), Value::String(symbol.into()))]);
        let call = ToolCall {
            tool: "market.price",
            args,
            user: turn.user,
            channel: turn.channel,
            lang: turn.lang,
            scopes: &scopes,
            needs_confirmation: false,
            confirmed: None,
        };
        match self.engine.tools.call(call).await {
            Ok(out) => {
                turn.events.push(Event::Answered {
                    kind: AnswerKind::Market,
                });
                turn.conv.last_request = Some(crate::conversation::Frame {
                    request: crate::conversation::FrameRequest::Quote {
                        symbol: symbol.to_string(),
                    },
                    turn: turn.conv.turns,
                });
                turn.say(out.text.unwrap_or_default());
            }
            Err(e) => turn.say(e.message),
        }
    }
}
