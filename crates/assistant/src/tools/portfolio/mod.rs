//! The personal portfolio in the chat (seed 001): one holding or the whole portfolio answered
//! from the stored records with no model (`portfolio.show`), and a trade said in words
//! prepared with its fees, confirmed, then written (`portfolio.record`), and the latest
//! records listed (`portfolio.trades`); a listed security's quote (through `market.price`)
//! and its technical snapshot (`portfolio.technical`), both from the offline simulated
//! market and said to be.
//!
//! Which security a message means is the portfolio crate's confidence ladder over the
//! embedded names plus the codes of the user's own records; two close candidates are asked
//! about, never guessed between. Every figure is the portfolio crate's `snapshot`, the one
//! `nofxi portfolio show` and the web app show.

mod quote;
mod record;
mod security;
mod show;
mod technical;
mod trades;

pub use quote::stock_quote;
pub use record::PortfolioRecord;
pub use show::{PortfolioShow, ShowArgs, answer};
pub use technical::PortfolioTechnical;
pub use trades::PortfolioTrades;

use jiff::civil::Date;
use nofxi_domain::validation::shown_input;
use nofxi_portfolio::PortfolioError;
use nofxi_portfolio::csv_io::instrument;
use nofxi_portfolio::domain::{Instrument, Portfolio};
use nofxi_portfolio::names::{Directory, Named, Resolved};
use nofxi_skills::Lang;
use nofxi_store::{PortfolioBook, Store};
use rust_decimal::Decimal;
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use super::ToolError;
use crate::msg;
use crate::tools::exec::store_error;

/// The portfolio named, or the user's only one.
pub(super) async fn book(
    store: &Store,
    user: &str,
    lang: Lang,
    name: Option<&str>,
) -> Result<PortfolioBook, ToolError> {
    let name = match name.map(str::trim).filter(|n| !n.is_empty()) {
        Some(name) => name.to_string(),
        None => only_portfolio(store, user, lang).await?.name,
    };
    store
        .portfolio_book(user, &name)
        .await
        .map_err(|e| store_error(&e, lang))
}

async fn only_portfolio(store: &Store, user: &str, lang: Lang) -> Result<Portfolio, ToolError> {
    let mut all = store
        .portfolios(user)
        .await
        .map_err(|e| store_error(&e, lang))?;
    match all.len() {
        1 => Ok(all.remove(0)),
        0 => Err(ToolError::new(
            "no_portfolio",
            msg(lang, "portfolio-none", &[]),
        )),
        _ => {
            let names: Vec<&str> = all.iter().map(|p| p.name.as_str()).collect();
            Err(ToolError::new(
                "which_portfolio",
                msg(lang, "portfolio-which", &[("list", &names.join(", "))]),
            ))
        }
    }
}

/// The names the matcher knows: the embedded ones and every code in the user's records.
pub(super) fn directory(book: &PortfolioBook) -> Result<Directory, ToolError> {
    let embedded = Directory::embedded().map_err(portfolio_error)?;
    Ok(embedded.with_codes(book.records.iter().filter_map(|t| t.instrument.as_ref())))
}

/// The securities the user's records name (the ones a close call prefers).
pub(super) fn held(book: &PortfolioBook) -> Vec<Instrument> {
    book.records
        .iter()
        .filter_map(|t| t.instrument.clone())
        .collect()
}

/// The one security `said` means. Two close candidates are a question back (held ones
/// first); none is a request for the code.
pub(super) fn resolve(
    directory: &Directory,
    held: &[Instrument],
    said: &str,
    lang: Lang,
) -> Result<Named, ToolError> {
    match directory.resolve(said) {
        Resolved::One(c) => Ok(c.named),
        Resolved::Ambiguous(mut candidates) => {
            candidates.sort_by_key(|c| !held.contains(&c.named.instrument));
            let list: Vec<String> = candidates.iter().map(|c| label(&c.named, lang)).collect();
            Err(ToolError::new(
                "ambiguous_stock",
                msg(
                    lang,
                    "portfolio-which-stock",
                    &[("said", &shown_input(said)), ("list", &list.join(" / "))],
                ),
            ))
        }
        // A code written with its market (`BABA.US`, `02020.HK`) names a security whether or
        // not the names file lists it; a bare unknown word is asked about.
        Resolved::None => match said.trim().split_once('.') {
            Some(_) => instrument(said.trim(), None, None)
                .map(|i| directory.named(&i))
                .map_err(|_| unknown(said, lang)),
            None => Err(unknown(said, lang)),
        },
    }
}

fn unknown(said: &str, lang: Lang) -> ToolError {
    ToolError::new(
        "unknown_stock",
        msg(
            lang,
            "portfolio-unknown-stock",
            &[("said", &shown_input(said))],
        ),
    )
}

/// `600519.SH`, `00700.HK`, `AAPL.US`, `BTC.CRYPTO`: the code as the CSV and the user write it.
pub(super) fn code(instrument: &Instrument) -> String {
    format!("{}.{}", instrument.symbol, instrument.market.code())
}

/// `成都银行 (601838.SH)`, or the code alone when the security has no name.
pub(super) fn label(named: &Named, lang: Lang) -> String {
    let code = code(&named.instrument);
    let name = named.name(lang == Lang::Zh);
    if name == named.instrument.symbol {
        code
    } else {
        format!("{name} ({code})")
    }
}

/// A portfolio refusal (a missing price or rate), its every problem said.
pub(super) fn portfolio_error(e: PortfolioError) -> ToolError {
    ToolError::new("cannot_value", e.to_string())
}

/// Today on this machine's calendar, as `nofxi portfolio show` takes it.
pub(super) fn today() -> Date {
    jiff::ZonedDateTime::now().date()
}

/// A signed amount for a reply: `+870.00`, `-12.50`.
pub(super) fn signed(value: Decimal) -> String {
    let value = value.round_dp(2);
    if value > Decimal::ZERO {
        format!("+{value:.2}")
    } else {
        format!("{value:.2}")
    }
}

/// An optional number said as a number or as text ("100", 15.2), exact.
pub(super) fn optional_decimal<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<Decimal>, D::Error> {
    match Option::<Value>::deserialize(d)? {
        None | Some(Value::Null) => Ok(None),
        Some(value) => as_decimal(&value).map(Some).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "{} is not a number",
                shown_input(&value.to_string())
            ))
        }),
    }
}

fn as_decimal(value: &Value) -> Option<Decimal> {
    let text = match value {
        Value::String(s) => s.trim().replace(',', ""),
        Value::Number(n) => n.to_string(),
        _ => return None,
    };
    text.parse()
        .ok()
        .or_else(|| Decimal::from_scientific(&text).ok())
}
