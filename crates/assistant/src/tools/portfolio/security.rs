//! Which security a quote or a technical question means, for a user who may have no
//! portfolio at all: the embedded names, plus the codes of the user's own records when there
//! is a portfolio to read them from, resolved by the same confidence ladder as the holdings.

use nofxi_portfolio::domain::{Instrument, PriceMark};
use nofxi_portfolio::names::{Directory, Named};
use nofxi_skills::Lang;
use nofxi_store::{PortfolioBook, Store};

use super::{book, directory, held, portfolio_error, resolve};
use crate::tools::ToolError;

/// A security resolved, with the user's book when there is one to read.
pub(super) struct Security {
    pub named: Named,
    pub book: Option<PortfolioBook>,
}

impl Security {
    /// The user's latest recorded price of it (a live quote kept, a price they set).
    pub fn recorded_price(&self) -> Option<&PriceMark> {
        self.book
            .as_ref()?
            .prices
            .iter()
            .filter(|m| m.instrument == self.named.instrument)
            .max_by_key(|m| m.date)
    }
}

/// `said` resolved; a portfolio named must exist, an unnamed one is used when it is the only.
pub(super) async fn security(
    store: &Store,
    user: &str,
    lang: Lang,
    said: &str,
    portfolio: Option<&str>,
) -> Result<Security, ToolError> {
    let book = match book(store, user, lang, portfolio).await {
        Ok(book) => Some(book),
        // No portfolio, or several and none named: the names alone still resolve. Any other
        // failure (the store's) is said, not taken for an empty book.
        Err(e)
            if portfolio.is_none()
                && matches!(e.code.as_str(), "no_portfolio" | "which_portfolio") =>
        {
            None
        }
        Err(e) => return Err(e),
    };
    let (directory, held): (Directory, Vec<Instrument>) = match &book {
        Some(book) => (directory(book)?, held(book)),
        None => (Directory::embedded().map_err(portfolio_error)?, Vec::new()),
    };
    let named = resolve(&directory, &held, said, lang)?;
    Ok(Security { named, book })
}
