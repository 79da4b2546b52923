//! A strategy's config (REFERENCE §1): coin universe, indicators, risk controls and prompt
//! sections, with the original platform's defaults and ranges.
//!
//! Every struct is `#[serde(default)]`, so a user (or a model) can send only the fields that
//! differ and get the rest from the defaults. Out-of-range risk values are errors, not clamps:
//! leverage and position limits move real money, so nofxi asks rather than guesses.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::interval::Interval;
use crate::market::Symbol;
use crate::validation::{Problem, Problems};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default, schemars::JsonSchema)]
#[serde(default)]
pub struct StrategyConfig {
    pub coin_source: CoinSource,
    pub indicators: Indicators,
    pub risk_control: RiskControl,
    pub prompt_sections: PromptSections,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct CoinSource {
    /// Symbols the strategy always considers (`BTCUSDT`).
    pub static_coins: Vec<String>,
    pub excluded_coins: Vec<String>,
    /// Optional ranking sources (e.g. an open-interest top list) by name.
    pub ranking_sources: Vec<String>,
}

impl Default for CoinSource {
    fn default() -> Self {
        CoinSource {
            static_coins: vec!["BTCUSDT".into(), "ETHUSDT".into()],
            excluded_coins: Vec::new(),
            ranking_sources: Vec::new(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct Klines {
    pub primary_timeframe: Interval,
    /// Candles of the primary timeframe in the prompt, 10–30.
    pub primary_count: u32,
    pub longer_timeframe: Interval,
    /// Extra timeframes, at most 4.
    pub selected_timeframes: Vec<Interval>,
}

impl Default for Klines {
    fn default() -> Self {
        Klines {
            primary_timeframe: Interval::M5,
            primary_count: 20,
            longer_timeframe: Interval::H4,
            selected_timeframes: Vec::new(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct Indicators {
    pub klines: Klines,
    pub enable_ema: bool,
    pub ema_periods: Vec<u32>,
    pub enable_macd: bool,
    pub enable_rsi: bool,
    pub rsi_periods: Vec<u32>,
    pub enable_atr: bool,
    pub atr_periods: Vec<u32>,
    pub enable_boll: bool,
    pub boll_periods: Vec<u32>,
    pub enable_volume: bool,
    pub enable_oi: bool,
    pub enable_funding_rate: bool,
}

impl Default for Indicators {
    fn default() -> Self {
        Indicators {
            klines: Klines::default(),
            enable_ema: true,
            ema_periods: vec![20, 50],
            enable_macd: true,
            enable_rsi: true,
            rsi_periods: vec![7, 14],
            enable_atr: true,
            atr_periods: vec![14],
            enable_boll: false,
            boll_periods: vec![20],
            enable_volume: true,
            enable_oi: true,
            enable_funding_rate: true,
        }
    }
}

/// Limits every decision is checked against before it reaches an exchange.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct RiskControl {
    /// Open positions at once, 1–8.
    pub max_positions: u32,
    /// 1–20.
    pub btc_eth_max_leverage: u32,
    /// 1–20.
    pub altcoin_max_leverage: u32,
    /// A position's value may be at most this many times equity (> 0, ≤ 20).
    pub max_position_value_ratio: Decimal,
    /// Share of equity that may be used as margin, (0, 1].
    pub max_margin_usage: Decimal,
    /// Smallest position in USDT for altcoins.
    pub min_position_size: Decimal,
    /// Smallest position in USDT for BTC and ETH.
    pub btc_eth_min_position_size: Decimal,
    /// Reward must be at least this many times the risk (≥ 1).
    pub min_risk_reward_ratio: Decimal,
    /// The model's confidence needed to open, 50–100.
    pub min_confidence: u32,
}

impl Default for RiskControl {
    fn default() -> Self {
        RiskControl {
            max_positions: 2,
            btc_eth_max_leverage: 10,
            altcoin_max_leverage: 10,
            max_position_value_ratio: Decimal::from(5),
            max_margin_usage: Decimal::ONE,
            min_position_size: Decimal::from(12),
            btc_eth_min_position_size: Decimal::from(60),
            min_risk_reward_ratio: Decimal::from(3),
            min_confidence: 78,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default, schemars::JsonSchema)]
#[serde(default)]
pub struct PromptSections {
    pub role_definition: String,
    pub trading_frequency: String,
    pub entry_standards: String,
    pub decision_process: String,
    pub custom_prompt: String,
}

/// Checks `value` against the field's bounds in [`crate::bounds`].
fn bounded(p: &mut Problems, field: &str, value: Decimal) {
    if let Some(problem) = crate::bounds::of(field).and_then(|b| b.problem(value)) {
        p.push(field, problem);
    }
}

/// Longest prompt section accepted, in characters; beyond this the prompt risks the context
/// limit.
pub const PROMPT_SECTION_MAX: usize = 8_000;

/// Most extra timeframes (`indicators.klines.selected_timeframes`) a strategy may list.
pub const MAX_SELECTED_TIMEFRAMES: usize = 4;

impl StrategyConfig {
    /// Adds every problem to `p`, with dotted field names (`risk_control.max_positions`).
    pub fn check(&self, p: &mut Problems) {
        let k = &self.indicators.klines;
        bounded(
            p,
            "indicators.klines.primary_count",
            Decimal::from(k.primary_count),
        );
        if k.selected_timeframes.len() > MAX_SELECTED_TIMEFRAMES {
            p.push(
                "indicators.klines.selected_timeframes",
                Problem::TooMany {
                    max: MAX_SELECTED_TIMEFRAMES,
                },
            );
        }
        let r = &self.risk_control;
        for (field, value) in [
            ("risk_control.max_positions", Decimal::from(r.max_positions)),
            (
                "risk_control.btc_eth_max_leverage",
                Decimal::from(r.btc_eth_max_leverage),
            ),
            (
                "risk_control.altcoin_max_leverage",
                Decimal::from(r.altcoin_max_leverage),
            ),
            (
                "risk_control.min_confidence",
                Decimal::from(r.min_confidence),
            ),
            (
                "risk_control.max_position_value_ratio",
                r.max_position_value_ratio,
            ),
            ("risk_control.max_margin_usage", r.max_margin_usage),
            ("risk_control.min_position_size", r.min_position_size),
            (
                "risk_control.btc_eth_min_position_size",
                r.btc_eth_min_position_size,
            ),
            (
                "risk_control.min_risk_reward_ratio",
                r.min_risk_reward_ratio,
            ),
        ] {
            bounded(p, field, value);
        }
        let lists = [
            ("coin_source.static_coins", &self.coin_source.static_coins),
            (
                "coin_source.excluded_coins",
                &self.coin_source.excluded_coins,
            ),
        ];
        for (field, coins) in lists {
            for coin in coins {
                if coin.trim().is_empty() || coin.contains(char::is_whitespace) {
                    p.push(
                        field,
                        Problem::Malformed {
                            expected: "symbols without spaces, like BTCUSDT".into(),
                            got: coin.clone(),
                        },
                    );
                } else if let Err(unknown) = Symbol::parse_known(coin) {
                    p.push(
                        field,
                        Problem::UnknownCoin {
                            got: unknown.given,
                            nearest: unknown.nearest,
                        },
                    );
                }
            }
        }
        for source in &self.coin_source.ranking_sources {
            p.text("coin_source.ranking_sources", source);
        }
        let s = &self.prompt_sections;
        for (name, text) in [
            ("role_definition", &s.role_definition),
            ("trading_frequency", &s.trading_frequency),
            ("entry_standards", &s.entry_standards),
            ("decision_process", &s.decision_process),
            ("custom_prompt", &s.custom_prompt),
        ] {
            let field = format!("prompt_sections.{name}");
            if text.chars().count() > PROMPT_SECTION_MAX {
                p.push(
                    field,
                    Problem::TooLong {
                        max: PROMPT_SECTION_MAX,
                    },
                );
            } else {
                p.text(&field, text);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_and_match_the_reference() {
        let c = StrategyConfig::default();
        let mut p = Problems::default();
        c.check(&mut p);
        assert!(p.is_empty());
        assert_eq!(c.risk_control.max_positions, 2);
        assert_eq!(c.risk_control.min_confidence, 78);
        assert_eq!(c.risk_control.btc_eth_min_position_size, Decimal::from(60));
    }

    #[test]
    fn partial_json_fills_defaults() {
        let c: StrategyConfig =
            serde_json::from_str(r#"{"risk_control":{"max_positions":3}}"#).unwrap();
        assert_eq!(c.risk_control.max_positions, 3);
        assert_eq!(c.risk_control.altcoin_max_leverage, 10);
        assert_eq!(c.indicators.ema_periods, vec![20, 50]);
    }

    #[test]
    fn leverage_out_of_range_names_the_field() {
        let mut c = StrategyConfig::default();
        c.risk_control.btc_eth_max_leverage = 50;
        c.risk_control.max_positions = 9;
        let mut p = Problems::default();
        c.check(&mut p);
        let err = p.finish(()).unwrap_err();
        assert_eq!(
            err.fields(),
            vec![
                "risk_control.max_positions",
                "risk_control.btc_eth_max_leverage"
            ]
        );
    }
}
