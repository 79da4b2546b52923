//! Tool exporters: the same skills as OpenAI tools, Anthropic tools, Gemini
//! functionDeclarations and MCP tools, so any model or MCP client sees one definition.
//!
//! Each management action becomes one tool named `<skill_id>_<action>` (`trader_management_create`,
//! valid for every provider: letters, digits and underscores, at most 64); each function keeps its
//! own name. Per-action tools (rather than one tool per skill with an `action` argument) let each
//! carry its own risk, so MCP clients can see that `…_query` is read-only and `…_delete` is
//! destructive. `Library::resolve_tool` maps a name back.

mod card;
mod schema;

use serde_json::{Map, Value, json};

use crate::ir::{Risk, Skill, SkillKind};
use crate::text::Lang;

pub use card::prompt_card;
pub use schema::action_schema;

/// The target format of `nofxi skills export --format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    OpenAi,
    Anthropic,
    Gemini,
    Mcp,
}

impl Format {
    pub fn parse(s: &str) -> Option<Format> {
        match s.to_ascii_lowercase().as_str() {
            "openai" => Some(Format::OpenAi),
            "anthropic" | "claude" => Some(Format::Anthropic),
            "gemini" | "google" => Some(Format::Gemini),
            "mcp" => Some(Format::Mcp),
            _ => None,
        }
    }
}

/// One tool, provider-neutral: what every exporter renders.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolDef {
    pub name: String,
    pub title: String,
    pub description: String,
    /// Always a JSON Schema with `type: object` at the top.
    pub parameters: Value,
    pub risk: Risk,
    /// The tool reaches systems outside nofxi (a market-data source).
    pub open_world: bool,
}

/// The tool name of a management action.
pub fn action_tool_name(skill_id: &str, action: &str) -> String {
    format!("{skill_id}_{action}")
}

/// Every action and function of `skills`, in library order.
pub fn tool_defs(skills: &[Skill], lang: Lang) -> Vec<ToolDef> {
    let mut out = Vec::new();
    for skill in skills {
        let title = skill.meta.title.get(lang);
        for action in &skill.actions {
            out.push(ToolDef {
                name: action_tool_name(&skill.id, &action.name),
                title: format!("{title}: {}", action.name),
                description: action.description.get(lang).to_string(),
                parameters: action_schema(action, lang),
                risk: action.risk,
                open_world: false,
            });
        }
        for f in &skill.functions {
            out.push(ToolDef {
                name: f.name.clone(),
                title: format!("{title}: {}", f.name),
                description: f.description.get(lang).to_string(),
                parameters: schema::object_schema(&f.parameters),
                risk: f.risk,
                open_world: skill.meta.kind == SkillKind::Function,
            });
        }
    }
    out
}

/// Render tools in a provider's format: OpenAI and Anthropic as a JSON array of tools, Gemini
/// as one `{"functionDeclarations": […]}` tool, MCP as a `tools/list` result `{"tools": […]}`.
pub fn export(skills: &[Skill], format: Format, lang: Lang) -> Value {
    let tools = tool_defs(skills, lang);
    match format {
        Format::OpenAi => Value::Array(tools.iter().map(openai).collect()),
        Format::Anthropic => Value::Array(tools.iter().map(anthropic).collect()),
        Format::Gemini => {
            json!({ "functionDeclarations": tools.iter().map(gemini).collect::<Vec<_>>() })
        }
        Format::Mcp => json!({ "tools": tools.iter().map(mcp).collect::<Vec<_>>() }),
    }
}

pub fn openai(t: &ToolDef) -> Value {
    json!({
        "type": "function",
        "function": { "name": t.name, "description": t.description, "parameters": t.parameters }
    })
}

pub fn anthropic(t: &ToolDef) -> Value {
    json!({ "name": t.name, "description": t.description, "input_schema": t.parameters })
}

/// Gemini reads an OpenAPI 3.0 subset: unknown keywords are rejected, so the schema is reduced
/// to the fields Gemini documents; a function without parameters leaves them unset.
pub fn gemini(t: &ToolDef) -> Value {
    let mut decl = Map::new();
    decl.insert("name".into(), Value::String(t.name.clone()));
    decl.insert("description".into(), Value::String(t.description.clone()));
    let has_params = t
        .parameters
        .get("properties")
        .and_then(Value::as_object)
        .is_some_and(|p| !p.is_empty());
    if has_params {
        decl.insert("parameters".into(), schema::gemini_schema(&t.parameters));
    }
    Value::Object(decl)
}

/// MCP tool with annotations derived from risk: query → readOnlyHint; delete → destructiveHint;
/// other writes are marked non-destructive; queries and updates are idempotent.
pub fn mcp(t: &ToolDef) -> Value {
    let read_only = t.risk.is_read_only();
    let mut annotations = Map::new();
    annotations.insert("title".into(), Value::String(t.title.clone()));
    annotations.insert("readOnlyHint".into(), Value::Bool(read_only));
    if !read_only {
        annotations.insert(
            "destructiveHint".into(),
            Value::Bool(t.risk.is_destructive()),
        );
    }
    annotations.insert(
        "idempotentHint".into(),
        Value::Bool(matches!(t.risk, Risk::Query | Risk::Update | Risk::Delete)),
    );
    annotations.insert("openWorldHint".into(), Value::Bool(t.open_world));
    json!({
        "name": t.name,
        "title": t.title,
        "description": t.description,
        "inputSchema": t.parameters,
        "annotations": annotations,
    })
}
