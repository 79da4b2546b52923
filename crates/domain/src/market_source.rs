//! Where a paper account's prices come from: the offline simulated market (the default, no
//! network) or a venue's public market data, with fills simulated on the paper account.
//!
//! Exchange accounts of any other type trade on their own venue's prices; the source is a
//! paper account's choice only.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::validation::Problem;

#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum MarketSource {
    #[default]
    Simulated,
    Binance,
    Okx,
    Bybit,
    Hyperliquid,
    Bitget,
}

impl MarketSource {
    /// Every source a paper account may follow: the simulated market and each venue whose
    /// public market data nofxi reads (the trader runtime's `PUBLIC_MARKETS`, checked there).
    pub const ALL: [MarketSource; 6] = [
        MarketSource::Simulated,
        MarketSource::Binance,
        MarketSource::Okx,
        MarketSource::Bybit,
        MarketSource::Hyperliquid,
        MarketSource::Bitget,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            MarketSource::Simulated => "simulated",
            MarketSource::Binance => "binance",
            MarketSource::Okx => "okx",
            MarketSource::Bybit => "bybit",
            MarketSource::Hyperliquid => "hyperliquid",
            MarketSource::Bitget => "bitget",
        }
    }

    pub fn names() -> Vec<String> {
        Self::ALL.iter().map(|m| m.as_str().to_string()).collect()
    }

    /// The venue whose public market data it reads; `None` for the simulated market.
    pub fn venue(self) -> Option<&'static str> {
        match self {
            MarketSource::Simulated => None,
            other => Some(other.as_str()),
        }
    }

    /// What a price or P&L shown beside it rests on, said in a few words:
    /// `simulated market (offline)`, `binance live prices (paper fills)`.
    pub fn label(self) -> String {
        match self.venue() {
            None => "simulated market (offline)".into(),
            Some(v) => format!("{v} live prices (paper fills)"),
        }
    }

    /// Why an account of `exchange_type` cannot take this source, if it cannot: only paper
    /// accounts choose one.
    pub fn problem_for(self, exchange_type: &str) -> Option<Problem> {
        (self != MarketSource::Simulated && exchange_type != "paper").then(|| Problem::Malformed {
            expected: format!(
                "simulated: only a paper account takes its prices from another venue (a \
                 {exchange_type} account trades on {exchange_type}'s own)"
            ),
            got: self.as_str().into(),
        })
    }
}

impl fmt::Display for MarketSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for MarketSource {
    type Err = Problem;

    fn from_str(s: &str) -> Result<Self, Problem> {
        let wanted = s.trim().to_ascii_lowercase();
        let wanted = if wanted == "sim" {
            "simulated".into()
        } else {
            wanted
        };
        Self::ALL
            .into_iter()
            .find(|m| m.as_str() == wanted)
            .ok_or_else(|| Problem::NotOneOf {
                allowed: Self::names(),
                got: s.to_string(),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_only_paper_chooses() {
        for m in MarketSource::ALL {
            assert_eq!(m.as_str().parse::<MarketSource>().ok(), Some(m));
        }
        assert_eq!(
            "Sim".parse::<MarketSource>().ok(),
            Some(MarketSource::Simulated)
        );
        assert!("kraken".parse::<MarketSource>().is_err());
        assert!(MarketSource::Binance.problem_for("paper").is_none());
        assert!(MarketSource::Binance.problem_for("okx").is_some());
        assert!(MarketSource::Simulated.problem_for("okx").is_none());
        assert_eq!(MarketSource::Okx.label(), "okx live prices (paper fills)");
        assert_eq!(
            "Bitget".parse::<MarketSource>().ok(),
            Some(MarketSource::Bitget)
        );
    }
}
