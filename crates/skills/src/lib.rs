//! The SKILL.md protocol: every user task nofxi knows is a skill file, and this crate is the only
//! reader of those files.
//!
//! - `parse_skill` / `Library` read `skills/<name>/SKILL.md`: Agent Skills frontmatter plus fenced
//!   ```yaml blocks with the top-level keys `skill`, `actions`, `functions`, `examples`,
//!   `constraints`. Every problem is a `Diagnostic` with file, line and column.
//! - `ir` is the typed representation the router, dialogue engine, prompts and exporters read.
//! - `validate` checks arguments against slot rules or a function's JSON Schema, in zh and en.
//! - `export` writes OpenAI, Anthropic, Gemini and MCP tool definitions.
//! - `lexicon` reads `skills/lexicon/<lang>.yaml`: the words the understanding uses (confirm,
//!   deny, cancel, references, ordinals…) by [`WordClass`], checked like a skill file;
//!   `Library::words` holds them, built-in and user words together.
//! - `messages` reads `skills/messages/<lang>.ftl`: the reply texts, Project Fluent catalogs,
//!   every message in every language (`Catalog::builtin().text(lang, id, args)`).
//! - `runtime` executes constraints: rate limits, retries with backoff and Retry-After, coverage.
//!
//! Naming: a skill's frontmatter `name` follows the Agent Skills spec and equals its directory
//! (`trader-management`); its `id`, used in the chat protocol and inside skill data
//! (`exchange_management.update`), is the same with underscores (`trader_management`).
//!
//! # Reading the IR (for the router, the dialogue engine and prompts)
//!
//! Load once: `Library::load(&[home.join("skills"), extra…])`. Then:
//!
//! - **Routing.** `Skill::meta.nouns` (交易员, bot…) and `Action::verbs` (创建, start…) name a
//!   task; `Skill::examples` are phrase → (action, slots) pairs, with `context.current` for
//!   references ("它") and `context.task` for corrections. `Slot::phrases` name a slot in a
//!   message, `Slot::unit` says how its number is written (10倍 → `times`, 5分钟 → `minutes`,
//!   100u → `usdt`), `Slot::canonical_value` resolves aliases (币安 → binance),
//!   `SkillMeta::value_aliases` maps names to values (英伟达 → NVDA.US). Guidance and diagnosis
//!   skills answer through `Skill::knowledge_matching(message)` (codes first, then the most
//!   specific phrase); their entries hold `answer`, or `what`/`why`/`fix`.
//! - **Slots.** `Action::missing_slots(&slots)` is what to ask, all at once (it evaluates
//!   `required_when`, e.g. credentials per exchange type); ask with `Slot::ask`, propose
//!   `Slot::default`. `Slot::check_value` normalizes one value; `Action::validate_args` checks
//!   them all before execution and returns `Adjustment`s for clamped values (say them). `ref`
//!   slots (`Slot::ref_kind`) hold a name or id to resolve; the slot named `target` is the
//!   existing resource the action works on (`Action::target`). `Slot::is_secret` → mask.
//! - **Confirmation.** `Action::needs_confirmation(&slots, &facts)`: `facts(slot, fact)` answers
//!   what the engine knows of the resource that ref slot resolved to (`RefFact`: live, running).
//!   Show `Action::summary`
//!   rendered with the slots and `{summary}` (the changes). `Risk` says why it is risky.
//! - **Execution.** `Action::plan(&slots)` gives the steps that run; `Step::tool` is the tool
//!   name (`trader.create`), `Step::arguments(&slots, &vars)` its arguments.
//! - **Replies.** `Action::success` / `failure` rendered with `Text::render(lang, lookup)`;
//!   a tool error code picks `Action::failure(code)`, whose `Recovery` offers a fix sub-task
//!   (`task` = `<skill_id>.<action>`, `Recovery::initial_slots`, `resume_on_success`).
//! - **Functions.** `Library::function(name)`; run calls through `runtime::SkillRuntime::invoke`
//!   (schema check, coverage refusal, rate limits, retries).

mod check;
pub mod error;
pub mod export;
pub mod ir;
pub mod lexicon;
mod library;
mod locate;
mod markdown;
pub mod messages;
mod parse;
pub mod runtime;
mod salvage;
pub mod text;
pub mod validate;

pub use error::{Diagnostic, DiagnosticKind, LoadError};
pub use ir::*;
pub use lexicon::{Word, WordClass, Words, parse_lexicon};
pub use library::{Library, Linted, ToolRef, load_dir, load_lexicon_dir};
pub use messages::Catalog;
pub use parse::{BLOCK_KEYS, parse_skill};
pub use text::{Lang, Text};
pub use validate::{Adjustment, ArgError, InvalidArguments, Problem, Validated};
