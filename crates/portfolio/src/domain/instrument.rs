//! Markets, currencies and instruments.
//!
//! A market decides three things the rest of the crate relies on: the currency an instrument
//! trades in (unless told otherwise), the shape of a valid code, and which fee schedule applies.
//! A-share codes also say whether a listing is a fund (ETF / LOF), which pays no stamp duty.

use nofxi_domain::validation::shown_input;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::error::{FieldError, PortfolioError};

/// Where an instrument is listed.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "UPPERCASE")]
pub enum Market {
    /// Shanghai Stock Exchange.
    Sh,
    /// Shenzhen Stock Exchange.
    Sz,
    /// Beijing Stock Exchange.
    Bj,
    /// Hong Kong Exchanges.
    Hk,
    /// US exchanges (NYSE, Nasdaq…).
    Us,
    /// Off-exchange (OTC) mutual funds, bought from the fund house or a platform.
    Fund,
    /// Crypto assets on an exchange.
    Crypto,
}

impl Market {
    pub const ALL: [Market; 7] = [
        Market::Sh,
        Market::Sz,
        Market::Bj,
        Market::Hk,
        Market::Us,
        Market::Fund,
        Market::Crypto,
    ];

    pub fn code(self) -> &'static str {
        match self {
            Market::Sh => "SH",
            Market::Sz => "SZ",
            Market::Bj => "BJ",
            Market::Hk => "HK",
            Market::Us => "US",
            Market::Fund => "FUND",
            Market::Crypto => "CRYPTO",
        }
    }

    /// The currency a listing trades in when the record does not say.
    pub fn default_currency(self) -> Currency {
        Currency(
            match self {
                Market::Sh | Market::Sz | Market::Bj | Market::Fund => "CNY",
                Market::Hk => "HKD",
                Market::Us => "USD",
                // Most crypto pairs are quoted in the stablecoin, not in dollars.
                Market::Crypto => "USDT",
            }
            .to_string(),
        )
    }

    /// Whether this is an A-share exchange (Shanghai, Shenzhen or Beijing).
    pub fn is_a_share(self) -> bool {
        matches!(self, Market::Sh | Market::Sz | Market::Bj)
    }

    /// Whether shares here trade in whole units only: the Chinese and Hong Kong exchanges
    /// (US brokers sell fractions; funds and coins come in any amount).
    pub fn trades_whole_shares(self) -> bool {
        self.is_a_share() || self == Market::Hk
    }
}

impl fmt::Display for Market {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl FromStr for Market {
    type Err = FieldError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let upper = text.trim().to_ascii_uppercase();
        Market::ALL
            .into_iter()
            .find(|m| m.code() == upper)
            .ok_or_else(|| {
                FieldError::new(
                    "market",
                    format!("`{}` is not a market", shown_input(text.trim())),
                    "use one of SH, SZ, BJ, HK, US, FUND, CRYPTO",
                )
            })
    }
}

/// A currency: an ISO 4217 code (CNY, HKD, USD), the offshore yuan (CNH) or a crypto quote
/// unit (USDT, BTC); see [`super::currency_codes`].
///
/// Typed text ([`FromStr`]: a CSV cell, a command's argument) must be one of those codes, or
/// a Chinese name of one (人民币, 港币, 美元). Stored records are read back by their shape
/// alone (3 to 5 upper-case letters), so a code stored before the list existed still loads
/// and is refused only when written again ([`Currency::unknown`], which every `validate`
/// asks).
#[derive(
    Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(try_from = "String", into = "String")]
pub struct Currency(String);

/// Names of currencies as Chinese statements and people write them.
const CURRENCY_NAMES: &[(&str, &str)] = &[
    ("RMB", "CNY"),
    ("人民币", "CNY"),
    ("港币", "HKD"),
    ("港元", "HKD"),
    ("美元", "USD"),
];

/// What to write instead of a currency that is not one.
const CURRENCY_FIX: &str = "use an ISO 4217 code such as CNY, HKD, USD, EUR or JPY, or a crypto unit: USDT, USDC, BTC, ETH, FDUSD";

impl Currency {
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether this is a currency of the known lists (see the type's comment).
    pub fn is_known(&self) -> bool {
        super::currency_codes::is_known(&self.0)
    }

    /// The refusal of a code of the right shape that is no currency, under `field`.
    pub fn unknown(&self, field: &str) -> Option<FieldError> {
        (!self.is_known()).then(|| {
            FieldError::new(
                field,
                format!("`{}` is not a currency code nofxi knows", self.0),
                CURRENCY_FIX,
            )
        })
    }

    /// A code by its shape alone: 3 to 5 upper-case letters.
    fn shaped(text: &str) -> Result<Self, FieldError> {
        let code = text.trim().to_ascii_uppercase();
        if (3..=5).contains(&code.len()) && code.chars().all(|c| c.is_ascii_uppercase()) {
            Ok(Currency(code))
        } else {
            Err(FieldError::new(
                "currency",
                format!("`{}` is not a currency code", shown_input(text.trim())),
                CURRENCY_FIX,
            ))
        }
    }
}

/// Stored records and JSON bodies: the shape only (see the type's comment).
impl TryFrom<String> for Currency {
    type Error = FieldError;

    fn try_from(text: String) -> Result<Self, Self::Error> {
        Currency::shaped(&text)
    }
}

impl From<Currency> for String {
    fn from(currency: Currency) -> Self {
        currency.0
    }
}

impl FromStr for Currency {
    type Err = FieldError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let trimmed = text.trim();
        if let Some((_, code)) = CURRENCY_NAMES
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(trimmed))
        {
            return Ok(Currency((*code).to_string()));
        }
        let currency = Currency::shaped(trimmed)?;
        match currency.unknown("currency") {
            Some(refused) => Err(refused),
            None => Ok(currency),
        }
    }
}

impl fmt::Display for Currency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// What kind of security a listing is, as far as fees care.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InstrumentClass {
    Stock,
    /// An exchange-traded fund (A-share ETF / LOF, HK or US ETF listed as such).
    Fund,
    Crypto,
}

/// A tradable thing: its market, its code on that market, and its currency.
#[derive(
    Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
pub struct Instrument {
    pub market: Market,
    /// The code as the market writes it: `600519`, `00700`, `AAPL`, `BTC`.
    pub symbol: String,
    pub currency: Currency,
}

impl Instrument {
    /// An instrument in its market's usual currency, its code checked and normalised
    /// (HK codes padded to 5 digits, US and crypto codes upper-cased).
    pub fn new(market: Market, symbol: &str) -> Result<Self, PortfolioError> {
        Self::with_currency(market, symbol, market.default_currency())
    }

    pub fn with_currency(
        market: Market,
        symbol: &str,
        currency: Currency,
    ) -> Result<Self, PortfolioError> {
        let symbol = normalise_symbol(market, symbol).map_err(|e| PortfolioError(vec![e]))?;
        Ok(Self {
            market,
            symbol,
            currency,
        })
    }

    /// A-share exchange funds (ETF / LOF) by code prefix: Shanghai 5…, Shenzhen 15… / 16… / 18…
    /// (REFERENCE §4). They pay commission only, so fees need to know.
    pub fn class(&self) -> InstrumentClass {
        match self.market {
            Market::Crypto => InstrumentClass::Crypto,
            Market::Fund => InstrumentClass::Fund,
            Market::Sh if self.symbol.starts_with('5') => InstrumentClass::Fund,
            Market::Sz
                if ["15", "16", "18"]
                    .iter()
                    .any(|p| self.symbol.starts_with(p)) =>
            {
                InstrumentClass::Fund
            }
            _ => InstrumentClass::Stock,
        }
    }

    /// `SH:600519`, the key holdings are grouped and shown by.
    pub fn key(&self) -> String {
        format!("{}:{}", self.market, self.symbol)
    }
}

fn normalise_symbol(market: Market, symbol: &str) -> Result<String, FieldError> {
    let symbol = symbol.trim();
    let digits = |n: usize| symbol.len() == n && symbol.chars().all(|c| c.is_ascii_digit());
    let ok = match market {
        Market::Sh | Market::Sz | Market::Bj | Market::Fund => {
            if digits(6) {
                Some(symbol.to_string())
            } else {
                None
            }
        }
        Market::Hk => {
            if (1..=5).contains(&symbol.len()) && symbol.chars().all(|c| c.is_ascii_digit()) {
                Some(format!("{symbol:0>5}"))
            } else {
                None
            }
        }
        Market::Us => {
            let valid = (1..=10).contains(&symbol.len())
                && symbol
                    .chars()
                    .all(|c| c.is_ascii_alphabetic() || c == '.' || c == '-');
            valid.then(|| symbol.to_ascii_uppercase())
        }
        Market::Crypto => {
            let valid = (2..=20).contains(&symbol.len())
                && symbol.chars().all(|c| c.is_ascii_alphanumeric());
            valid.then(|| symbol.to_ascii_uppercase())
        }
    };
    ok.ok_or_else(|| {
        let shape = match market {
            Market::Sh | Market::Sz | Market::Bj | Market::Fund => "6 digits, e.g. 600519",
            Market::Hk => "up to 5 digits, e.g. 00700",
            Market::Us => "letters, e.g. AAPL or BRK.B",
            Market::Crypto => "letters and digits, e.g. BTC",
        };
        FieldError::new(
            "instrument.symbol",
            format!("`{}` is not a {market} code", shown_input(symbol)),
            format!("write the code as {shape}, or check the market"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_checked_and_normalised_per_market() {
        assert_eq!(Instrument::new(Market::Hk, "700").unwrap().symbol, "00700");
        assert_eq!(
            Instrument::new(Market::Us, "brk.b").unwrap().symbol,
            "BRK.B"
        );
        assert_eq!(
            Instrument::new(Market::Hk, "700")
                .unwrap()
                .currency
                .as_str(),
            "HKD"
        );
        let err = Instrument::new(Market::Sh, "60051").unwrap_err();
        assert_eq!(err.0[0].field, "instrument.symbol");
        assert!(err.0[0].fix.contains("6 digits"), "{err}");
    }

    #[test]
    fn a_share_funds_are_told_apart_by_code() {
        let class = |m, s| Instrument::new(m, s).unwrap().class();
        assert_eq!(class(Market::Sh, "510300"), InstrumentClass::Fund);
        assert_eq!(class(Market::Sz, "159915"), InstrumentClass::Fund);
        assert_eq!(class(Market::Sh, "600519"), InstrumentClass::Stock);
        assert_eq!(class(Market::Sz, "000001"), InstrumentClass::Stock);
    }

    #[test]
    fn markets_and_currencies_parse_with_a_fix_on_error() {
        assert_eq!("hk".parse::<Market>().unwrap(), Market::Hk);
        assert_eq!("crypto".parse::<Market>().unwrap(), Market::Crypto);
        assert!("NYSE".parse::<Market>().unwrap_err().fix.contains("SH, SZ"));
        assert_eq!("usd".parse::<Currency>().unwrap().as_str(), "USD");
        assert_eq!("US$".parse::<Currency>().unwrap_err().field, "currency");
    }

    #[test]
    fn a_code_of_the_right_shape_must_be_a_currency_when_typed_but_loads_when_stored() {
        let err = "mine".parse::<Currency>().unwrap_err();
        assert_eq!(err.field, "currency");
        assert!(
            err.problem.contains("`MINE` is not a currency code"),
            "{err}"
        );
        assert!(
            err.fix.contains("ISO 4217") && err.fix.contains("USDT"),
            "{err}"
        );
        assert_eq!("人民币".parse::<Currency>().unwrap().as_str(), "CNY");
        assert_eq!("rmb".parse::<Currency>().unwrap().as_str(), "CNY");
        assert_eq!("usdt".parse::<Currency>().unwrap().as_str(), "USDT");
        let stored: Currency = serde_json::from_str("\"MINE\"").unwrap();
        assert!(!stored.is_known());
        assert_eq!(stored.unknown("from").unwrap().field, "from");
        assert!(serde_json::from_str::<Currency>("\"mine!\"").is_err());
    }
}
