//! The chat protocol, as codex-rs keeps its protocol: a crate of types and nothing else.
//!
//! Everything a client, the CLI's `--json` mode, the HTTP server, the eval runner and the
//! dialogue engine exchange is defined here once: a [`TurnRequest`] goes in, a [`TurnResponse`]
//! with typed [`Event`]s and the task stack comes out, and the moves that rules or a model may
//! propose are [`Command`]s. This crate depends on nothing of ours, so every other crate can use
//! it without pulling in the engine.
//!
//! Slot values travel as JSON. Secret slots are masked before they enter any of these types
//! (`sk-…a1b2`); nothing here ever holds a secret in clear.

pub mod command;
pub mod event;
pub mod task;
pub mod turn;

pub use command::{CancelScope, Command, CommandSource, ListEdit, Understanding};
pub use event::{AnswerKind, Event};
pub use task::{TaskId, TaskStatus, TaskView};
pub use turn::{Channel, LineError, LlmUsage, TurnRequest, TurnResponse};
