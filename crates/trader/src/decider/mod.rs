//! Deciders: where a cycle's decisions come from. The `builtin` rule decider lives here; the LLM
//! decider joins it behind the same trait.

pub mod ema_cross;
pub mod incremental;
