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
}
