//! The trading engine.
//!
//! A trader runs a cycle every scan interval: read the account, pick candidates, gather market
//! data, ask a decider, pass every decision through the risk guard, execute, journal
//! (REFERENCE §2). This crate is being built in steps; today it holds the decision format and
//! its parser, which every decider (LLM or built-in rules) and the guard share.

pub mod decider;
pub mod decision;
pub mod guard;

pub use decision::{Decision, DecisionAction, ModelAnswer, parse_model_answer};
pub use guard::{GuardContext, GuardedPlan, Intent, Refusal, guard};
