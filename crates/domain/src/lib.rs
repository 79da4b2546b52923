//! nofxi's vocabulary, with no IO.
//!
//! Everything that crosses a crate boundary and means something to a user lives here: the four
//! resources (model, exchange, strategy, trader) with the rules that make them valid, secrets that
//! cannot be printed by accident, and the market series that venues produce and traders read.
//! Storage, networks and dialogue are other crates' jobs; this one only decides what is true.

pub mod indicators;
pub mod interval;
pub mod market;
pub mod trading;

pub use interval::Interval;
