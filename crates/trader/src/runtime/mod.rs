//! Running traders for real: connecting to venues, preflight, the journal in the store, and
//! the engine that runs every started trader under a lease.

pub mod baseline;
pub mod bound_model;
pub mod close;
pub mod connect;
pub mod engine;
pub mod host;
pub mod lease_guard;
pub mod pace;
pub mod preflight;
pub mod public_market;
pub mod report;
pub mod status;
pub mod store_journal;
pub mod task;
pub mod view;
