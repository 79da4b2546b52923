//! The scenarios of the store suite, one concern per file; `store_suite.rs` runs each on both
//! backends.

pub mod common;
pub mod engine;
pub mod isolation;
pub mod portfolios;
pub mod secrets;
pub mod traders;
pub mod trash;
pub mod validation;
