//! Market data asked in the chat: a quote ("btc price") through the `market.price` tool, and
//! a market-data function's call ("eth order book", "btc 4小时k线") through the tool that runs
//! it, each through the same pipeline as every tool call and answered beside whatever task
//! waits (the turn reminds it once after). A function asked without its symbol ("show me the
//! order book") asks for it once; a coin said next is that call's symbol (a follow-up).

use std::collections::BTreeMap;

use nofxi_protocol::{AnswerKind, Event};
use serde_json::{Map, Value};

use crate::Assistant;
use crate::conversation::{Frame, FrameRequest};
use crate::market_data::{self, GET_BOOK, GET_PRICE};
use crate::tools::ToolCall;
use crate::turn::Turn;

impl Assistant {
    pub(crate) async fn answer_market(&self, turn: &mut Turn<'_>, symbol: &str) {
        let args = Map::from_iter([("symbol".to_string(), Value::String(symbol.into()))]);
        let frame = FrameRequest::Quote {
            symbol: symbol.to_string(),
        };
        self.market_tool(turn, "market.price", args, frame).await;
    }

    /// A quote from a market named outright ("btc price on okx"): a follow-up keeps it.
    async fn answer_market_on(&self, turn: &mut Turn<'_>, args: Map<String, Value>) {
        let frame = FrameRequest::Function {
            function: GET_PRICE.to_string(),
            args: args.clone(),
        };
        self.market_tool(turn, "market.price", args, frame).await;
    }

    /// `function` of the market-data skill with `args`; without a symbol, the question which.
    pub(crate) async fn answer_function(
        &self,
        turn: &mut Turn<'_>,
        function: &str,
        args: BTreeMap<String, Value>,
    ) {
        let args: Map<String, Value> = args.into_iter().collect();
        let Some(tool) = market_data::tool_of(function) else {
            turn.say(crate::texts::cannot_handle(turn.lang));
            return;
        };
        let frame = FrameRequest::Function {
            function: function.to_string(),
            args: args.clone(),
        };
        let symbol = args
            .get("symbol")
            .and_then(Value::as_str)
            .map(str::to_string);
        match symbol {
            Some(_) if function == GET_PRICE && args.contains_key("source") => {
                self.answer_market_on(turn, args).await
            }
            Some(symbol) if function == GET_PRICE => self.answer_market(turn, &symbol).await,
            Some(_) => self.market_tool(turn, tool, args, frame).await,
            None => {
                let ask = if function == GET_BOOK {
                    "market-which-symbol-book"
                } else {
                    "market-which-symbol-klines"
                };
                turn.conv.last_request = Some(Frame {
                    request: frame,
                    turn: turn.conv.turns,
                });
                turn.say(crate::msg(turn.lang, ask, &[]));
            }
        }
    }

    async fn market_tool(
        &self,
        turn: &mut Turn<'_>,
        tool: &str,
        args: Map<String, Value>,
        frame: FrameRequest,
    ) {
        let scopes = ["market:read".to_string()];
        let call = ToolCall {
            tool,
            args,
            user: turn.user,
            channel: turn.channel,
            lang: turn.lang,
            scopes: &scopes,
            needs_confirmation: false,
            confirmed: None,
        };
        let result = self.engine.tools.call(call).await;
        // A coin said next asks the same again, whether or not this one gave data.
        turn.conv.last_request = Some(Frame {
            request: frame,
            turn: turn.conv.turns,
        });
        match result {
            Ok(out) => {
                turn.events.push(Event::Answered {
                    kind: AnswerKind::Market,
                });
                turn.say(out.text.unwrap_or_default());
            }
            // Refused or failed: said, and not reported as answered (an MCP call fails).
            Err(e) => turn.say(e.message),
        }
    }
}
