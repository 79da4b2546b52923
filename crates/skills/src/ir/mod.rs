//! The typed intermediate representation of a skill: what the router, the dialogue engine, the
//! LLM prompts and the exporters read. Nothing else re-describes a skill.
//!
//! The types deserialize straight from the YAML blocks (with `deny_unknown_fields`, so a typo is
//! an error, never a silently ignored key); `check` then verifies what serde cannot (references
//! between parts, placeholders, schemas) and fills the compiled fields (`#[serde(skip)]`).

mod action;
mod constraints;
mod example;
mod function;
mod keyed;
mod outcome;
mod plan;
mod skill;
mod slot;

pub use action::{
    Action, ConfirmCondition, ConfirmRule, Failure, RUNTIME_PLACEHOLDERS, Recovery, RefFact, Risk,
    Step, ToolName,
};
pub use constraints::{
    AssetClassRule, Authentication, Backoff, BackoffStrategy, Constraints, CoverageExclusion,
    DataCoverage, ErrorCode, ErrorHandling, RateLimit, RateLimits,
};
pub use example::{Example, ExampleCall, ExampleContext, ExampleTask};
pub use function::Function;
pub use outcome::{OutcomeCondition, SuccessCase, TOOL_FIELDS, success_text, tool_fields};
pub use skill::{Knowledge, ResourceKind, Skill, SkillKind, SkillMeta, Source};
pub use slot::{AskWhen, Condition, EnumValue, Slot, SlotType, Unit};
