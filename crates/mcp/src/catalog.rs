//! The tools an MCP client sees, and what each name runs.
//!
//! They are the skill library's own exports (`nofxi skills export --format mcp`): one tool per
//! management action with its input schema and annotations, so a client and a model see one
//! definition. Added here, and only here, what MCP needs beyond the export: every tool's
//! output schema (the [`Outcome`]), the `confirm` argument of the actions that change
//! something, and `nofxi_chat`. A skill function is listed only if nofxi can run it
//! (`nofxi_assistant::market_data::runs`: the quote, the order book and the candles).

use nofxi_assistant::market_data;
use nofxi_protocol::{AnswerKind, Command};
use nofxi_skills::export::{self, ToolDef};
use nofxi_skills::{Lang, Library, Risk, ToolRef};
use nofxi_store::Scope;
use rmcp::model::Tool;
use serde_json::{Map, Value, json};

use crate::outcome::Outcome;

/// The tool that takes one chat message.
pub const CHAT_TOOL: &str = "nofxi_chat";
/// The argument that carries a pending id back.
pub const CONFIRM_ARG: &str = "confirm";
/// The skill function a quote is: run as the chat's market answer.
const PRICE_FUNCTION: &str = "get_realtime_price";

/// What a tool name runs.
pub enum Target {
    /// A skill's action, started with the arguments as its slots.
    Action {
        skill: String,
        action: String,
        risk: Risk,
        /// Its input schema, checked before anything runs.
        schema: Value,
        /// Slots that name an object (`trader`, `exchange`): their versions bind a pending id.
        refs: Vec<(String, nofxi_skills::ResourceKind)>,
        /// Credential slots: a problem with one never quotes it.
        secrets: Vec<String>,
    },
    /// A market quote (`get_realtime_price`).
    Quote { schema: Value },
    /// Another skill function nofxi runs (`get_order_book`, `get_kline`), called with the
    /// arguments as given.
    Function { function: String, schema: Value },
    /// One chat message.
    Chat,
}

impl Target {
    pub fn resolve(library: &Library, name: &str, lang: Lang) -> Option<Target> {
        if name == CHAT_TOOL {
            return Some(Target::Chat);
        }
        match library.resolve_tool(name)? {
            ToolRef::Action { skill, action } => Some(Target::Action {
                skill: skill.id.clone(),
                action: action.name.clone(),
                risk: action.risk,
                schema: export::action_schema(action, lang),
                refs: action
                    .slots
                    .iter()
                    .filter_map(|s| Some((s.name.clone(), s.ref_kind?)))
                    .collect(),
                secrets: action
                    .slots
                    .iter()
                    .filter(|s| s.is_secret())
                    .map(|s| s.name.clone())
                    .collect(),
            }),
            ToolRef::Function { function, .. } if function.name == PRICE_FUNCTION => {
                Some(Target::Quote {
                    schema: function.parameters.clone(),
                })
            }
            ToolRef::Function { function, .. } if market_data::runs(&function.name) => {
                Some(Target::Function {
                    function: function.name.clone(),
                    schema: function.parameters.clone(),
                })
            }
            ToolRef::Function { .. } => None,
        }
    }

    /// The command a call with `args` is, as a rule or a model would emit it.
    pub fn command(&self, args: &Map<String, Value>) -> Option<Command> {
        match self {
            Target::Action { skill, action, .. } => Some(Command::StartTask {
                skill: skill.clone(),
                action: action.clone(),
                slots: args.clone().into_iter().collect(),
            }),
            Target::Quote { .. } => Some(Command::AnswerQuestion {
                kind: AnswerKind::Market,
                topic: args.get("symbol")?.as_str()?.to_string(),
            }),
            Target::Function { function, .. } => Some(Command::CallFunction {
                function: function.clone(),
                args: args.clone().into_iter().collect(),
            }),
            Target::Chat => None,
        }
    }
}

/// Every tool a caller holding `scopes` may call, in library order, `nofxi_chat` last: a
/// tool it would be refused ([`scopes_needed`], the rule each call is checked with) is not
/// listed, so a read-only token sees the read-only tools.
pub fn tools(library: &Library, lang: Lang, scopes: &[Scope]) -> Vec<Tool> {
    let allowed = |target: &Target| scopes_needed(target).iter().all(|s| scopes.contains(s));
    let output = Outcome::schema();
    let mut out: Vec<Tool> = export::tool_defs(library.skills(), lang)
        .iter()
        .filter(|def| Target::resolve(library, &def.name, lang).is_some_and(|t| allowed(&t)))
        .filter_map(|def| tool(def, &output))
        .collect();
    if allowed(&Target::Chat) {
        out.extend(chat_tool(&output));
    }
    out
}

/// A skill export as an MCP tool: plus the output schema, and `confirm` on what writes.
fn tool(def: &ToolDef, output: &Value) -> Option<Tool> {
    let mut value = export::mcp(def);
    if !def.risk.is_read_only()
        && let Some(props) = value
            .pointer_mut("/inputSchema/properties")
            .and_then(Value::as_object_mut)
    {
        props.insert(
            CONFIRM_ARG.into(),
            json!({
                "type": "string",
                "description": "The pending_id a first call returned with status confirmation_required. Send it only after the person you act for agreed to that summary; without it a risky action only returns its summary.",
            }),
        );
    }
    value["outputSchema"] = output.clone();
    serde_json::from_value(value).ok()
}

fn chat_tool(output: &Value) -> Option<Tool> {
    serde_json::from_value(json!({
        "name": CHAT_TOOL,
        "title": "Chat with nofxi",
        "description": "Send one message to the nofxi assistant, as a person would type it (any language), and get its reply. Continue a conversation with its conversation_id. A risky action it leads to is asked for confirmation in a reply of its own; answer it only with the person's own yes. It cannot confirm what another tool call asked: that one is confirmed by calling the same tool again with its pending_id.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "message": {"type": "string", "description": "The message."},
                "conversation_id": {"type": "string", "description": "Continue this conversation (from an earlier result)."}
            },
            "required": ["message"],
            "additionalProperties": false
        },
        "outputSchema": output,
        "annotations": {
            "title": "Chat with nofxi",
            "readOnlyHint": false,
            "destructiveHint": true,
            "idempotentHint": false,
            "openWorldHint": false
        }
    }))
    .ok()
}

/// The API-token scope a call needs: reads read; starting and stopping traders trade;
/// everything else writes. A chat may lead to any of them.
pub fn scopes_needed(target: &Target) -> &'static [Scope] {
    match target {
        Target::Quote { .. } | Target::Function { .. } => &[Scope::Read],
        Target::Chat => &[Scope::Write, Scope::Trade],
        Target::Action { risk, .. } => match risk {
            Risk::Query => &[Scope::Read],
            Risk::Start | Risk::Stop => &[Scope::Trade],
            Risk::Create | Risk::Update | Risk::Delete => &[Scope::Write],
        },
    }
}
