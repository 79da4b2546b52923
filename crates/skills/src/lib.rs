//! The SKILL.md protocol: every user task nofxi knows is a skill file, and this crate is the only
//! reader of those files.
//!
//! - `parse_skill` / `Library` read `skills/<name>/SKILL.md`: Agent Skills frontmatter plus fenced
//!   ```yaml blocks with the top-level keys `skill`, `actions`, `functions`, `examples`,
//!   `constraints`. Every problem is a `Diagnostic` with file, line and column.
//! - `ir` is the typed representation the router, dialogue engine, prompts and exporters read.
//! - `validate` checks arguments against slot rules or a function's JSON Schema, in zh and en.
//! - `export` writes OpenAI, Anthropic, Gemini and MCP tool definitions.
//! - `runtime` executes constraints: rate limits, retries with backoff and Retry-After, coverage.
//!
//! Naming: a skill's frontmatter `name` follows the Agent Skills spec and equals its directory
//! (`trader-management`); its `id`, used in the chat protocol and inside skill data
//! (`exchange_management.update`), is the same with underscores (`trader_management`).

mod check;
pub mod error;
pub mod export;
pub mod ir;
mod library;
mod locate;
mod markdown;
mod parse;
pub mod runtime;
pub mod text;
pub mod validate;

pub use error::{Diagnostic, DiagnosticKind, LoadError};
pub use ir::*;
pub use library::{Library, ToolRef, load_dir};
pub use parse::{BLOCK_KEYS, parse_skill};
pub use text::{Lang, Text};
pub use validate::{Adjustment, ArgError, InvalidArguments, Problem, Validated};
