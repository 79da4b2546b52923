//! The trading engine.
//!
//! A trader runs a cycle every scan interval: read the account, pick candidates, gather market
//! data, ask a [`decider::Decider`], pass every decision through the [`guard`], execute,
//! journal (REFERENCE §2). The same cycle code runs live traders and backtests.

pub mod backtest;
pub mod cycle;
pub mod decider;
pub mod decision;
pub mod guard;
pub mod runtime;
pub mod stats;
pub mod trades;

pub use decision::{Decision, DecisionAction, ModelAnswer, parse_model_answer};
pub use guard::{GuardContext, GuardedPlan, Intent, Refusal, guard};
