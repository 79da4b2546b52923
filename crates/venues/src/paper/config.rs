//! The paper account's terms: starting balance and the exchange rules it imitates.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// Defaults imitate Binance USDⓈ-M at the lowest VIP tier: 0.02% maker, 0.05% taker, 0.4%
/// maintenance margin (BTC's first bracket), 5 USDT minimum notional.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PaperConfig {
    pub initial_balance: Decimal,
    pub maker_fee_rate: Decimal,
    pub taker_fee_rate: Decimal,
    /// Market fills are this many basis points worse than the best bid/ask.
    pub slippage_bps: Decimal,
    pub maintenance_margin_rate: Decimal,
    pub default_leverage: u32,
    pub max_leverage: u32,
    pub min_notional: Decimal,
    /// Where quotes come from: the market (a live paper account) or the bars a backtest feeds
    /// through [`super::PaperExchange::process_bar`].
    #[serde(default)]
    pub quotes: Quotes,
    /// Whether positions pay and receive funding at the market's funding times and rates
    /// (see `funding`): an account that follows a venue's live prices does, the offline
    /// simulated market and a replay of bars do not.
    #[serde(default)]
    pub settles_funding: bool,
}

/// The price the account marks positions at and fills market orders against.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Quotes {
    /// Read the market's ticker on every call (bid, ask and mark), as a live account would.
    #[default]
    Market,
    /// The close of the last bar processed for the symbol is bid, ask and mark: a backtest's
    /// prices are its bars, and between two bars the market does not move. The ticker is read
    /// only for a symbol no bar has reached yet.
    Bars,
}

impl Default for PaperConfig {
    fn default() -> Self {
        PaperConfig {
            initial_balance: Decimal::from(10_000),
            maker_fee_rate: Decimal::new(2, 4),
            taker_fee_rate: Decimal::new(5, 4),
            slippage_bps: Decimal::ZERO,
            maintenance_margin_rate: Decimal::new(4, 3),
            default_leverage: 10,
            max_leverage: 125,
            min_notional: Decimal::from(5),
            quotes: Quotes::Market,
            settles_funding: false,
        }
    }
}

impl PaperConfig {
    pub fn with_balance(initial_balance: Decimal) -> Self {
        PaperConfig {
            initial_balance,
            ..PaperConfig::default()
        }
    }

    /// The terms of an account that follows `venue`'s live prices: its fees, and funding at
    /// its funding times and rates.
    pub fn following(self, venue: &str) -> Self {
        PaperConfig {
            settles_funding: true,
            ..self.with_fees_of(venue)
        }
    }

    /// The same terms with `venue`'s fees, for an account that follows its prices; unchanged
    /// for a venue not in [`VENUE_FEES`].
    pub fn with_fees_of(mut self, venue: &str) -> Self {
        if let Some((_, maker, taker)) = VENUE_FEES.iter().find(|(v, _, _)| *v == venue) {
            self.maker_fee_rate = *maker;
            self.taker_fee_rate = *taker;
        }
        self
    }
}

/// (venue, maker, taker): the base-tier USDT-perpetual fee rates each venue publishes on its
/// fee schedule, the rates a new account pays. Binance USDⓈ-M 0.02 % / 0.05 %, OKX swaps
/// (Lv1) 0.02 % / 0.05 %, Bybit derivatives 0.02 % / 0.055 %, Hyperliquid perps (tier 0)
/// 0.015 % / 0.045 %, Bitget futures 0.02 % / 0.06 %. Venues change them; this is data.
pub const VENUE_FEES: [(&str, Decimal, Decimal); 5] = [
    (
        "binance",
        Decimal::from_parts(2, 0, 0, false, 4),
        Decimal::from_parts(5, 0, 0, false, 4),
    ),
    (
        "okx",
        Decimal::from_parts(2, 0, 0, false, 4),
        Decimal::from_parts(5, 0, 0, false, 4),
    ),
    (
        "bybit",
        Decimal::from_parts(2, 0, 0, false, 4),
        Decimal::from_parts(55, 0, 0, false, 5),
    ),
    (
        "hyperliquid",
        Decimal::from_parts(15, 0, 0, false, 5),
        Decimal::from_parts(45, 0, 0, false, 5),
    ),
    (
        "bitget",
        Decimal::from_parts(2, 0, 0, false, 4),
        Decimal::from_parts(6, 0, 0, false, 4),
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_venue_s_fees_replace_the_defaults() {
        let c = PaperConfig::default().with_fees_of("bybit");
        assert_eq!(c.taker_fee_rate.to_string(), "0.00055");
        assert_eq!(c.maker_fee_rate.to_string(), "0.0002");
        let h = PaperConfig::default().with_fees_of("hyperliquid");
        assert_eq!(h.taker_fee_rate.to_string(), "0.00045");
        assert_eq!(
            PaperConfig::default().with_fees_of("nowhere"),
            PaperConfig::default()
        );
    }
}
