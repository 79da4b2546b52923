//! Conversation tests for the dialogue engine (`nofxi eval PATH...`).
//!
//! A YAML file holds cases; a case is a list of user steps, each with assertions on the turn it
//! produces (events, stack, reply, LLM calls) and on the store after it. Every case runs on a
//! fresh home — its own temporary SQLite file and a vault key made for it — with the file's and
//! the case's `setup` created through the store's API first. The format is in [`case`], the
//! assertions in [`expect`] and [`state`], running and reporting in [`runner`].
//!
//! The runner reaches the engine through [`runner::EngineFactory`]; the binary and the suite
//! test plug in the real `Assistant`, unit tests a hand-made double. Read-only on the engine:
//! it sends turns and reads what comes back, nothing else.

pub mod case;
pub mod engine;
pub mod error;
pub mod expect;
pub mod lint;
pub mod runner;
pub mod setup;
pub mod state;

pub use case::{Case, Expect, Step, SuiteFile, load_file, parse_file};
pub use engine::AssistantFactory;
pub use error::EvalError;
pub use expect::{Failure, TaskIndex, check_turn, values_match};
pub use lint::lint_suite;
pub use runner::{
    CaseResult, Conversation, EngineFactory, load_suite, render_case, render_totals, run_case,
    run_suite,
};
pub use setup::{EVAL_USER, FreshHome};
