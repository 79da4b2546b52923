//! nofxi's vocabulary, with no IO.
//!
//! Everything that crosses a crate boundary and means something to a user lives here: the four
//! resources (model, exchange, strategy, trader) with the rules that make them valid, secrets that
//! cannot be printed by accident, and the market series that venues produce and traders read.
//! Storage, networks and dialogue are other crates' jobs; this one only decides what is true.

pub mod base_url;
pub mod bounds;
pub mod credentials;
pub mod exchange;
pub mod indicators;
pub mod interval;
pub mod market;
pub mod market_source;
pub mod model;
pub mod moment;
pub mod plain;
pub mod provider;
pub mod redact;
pub mod resource;
pub mod secret;
pub mod seed_phrase;
pub mod strategy;
pub mod strategy_config;
pub mod trader;
pub mod trading;
pub mod transport;
pub mod validation;

pub use credentials::{CredentialField, Credentials, ExchangeType, shown_mask};
pub use exchange::{Exchange, ExchangePatch, ExchangeSpec};
pub use interval::Interval;
pub use market_source::MarketSource;
pub use model::{Model, ModelPatch, ModelSpec};
pub use provider::{PROVIDERS, ProviderSpec, WireFormat};
pub use redact::{redact, redact_values};
pub use resource::{Actor, Channel, ResourceKind};
pub use secret::Secret;
pub use seed_phrase::hide_seed_phrases;
pub use strategy::{Strategy, StrategyPatch, StrategySpec};
pub use strategy_config::StrategyConfig;
pub use trader::{Trader, TraderPatch, TraderSpec};
pub use validation::{Adjustment, FieldProblem, Problem, ValidationError};
