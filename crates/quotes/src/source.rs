//! The one trait every quote source implements, live or simulated.
//!
//! `now` is passed in rather than read from the wall clock: the simulated market prices by
//! minute from it, and tests run in simulated time. Live sources ignore it; the quote carries
//! its own time, whatever `now` is.

use async_trait::async_trait;
use jiff::Timestamp;
use nofxi_portfolio::domain::Instrument;

use crate::error::QuoteError;
use crate::quote::{Quote, SourceKind};

#[async_trait]
pub trait QuoteSource: Send + Sync {
    fn kind(&self) -> SourceKind;

    /// The latest quote this source has for `instrument`, staleness not judged (the caller
    /// does that against `now`).
    async fn quote(&self, instrument: &Instrument, now: Timestamp) -> Result<Quote, QuoteError>;
}
