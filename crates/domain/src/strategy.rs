//! A strategy: a named, reusable trading template. At most one per user is active; the store
//! enforces that by deactivating the others when one is activated.

use serde::{Deserialize, Serialize};

use crate::market::Symbol;
use crate::resource::NAME_MAX;
use crate::strategy_config::StrategyConfig;
use crate::validation::{Problem, Problems, ValidationError};

const DESCRIPTION_MAX: usize = 2_000;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct StrategySpec {
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub is_active: bool,
    #[serde(default)]
    pub config: StrategyConfig,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StrategyPatch {
    pub name: Option<String>,
    pub description: Option<String>,
    pub is_active: Option<bool>,
    /// Replaces the whole config; callers edit a copy of the current one.
    pub config: Option<StrategyConfig>,
}

impl StrategySpec {
    pub fn new(name: impl Into<String>) -> Self {
        StrategySpec {
            name: name.into(),
            description: String::new(),
            is_active: false,
            config: StrategyConfig::default(),
        }
    }

    pub fn normalized(mut self) -> Self {
        self.name = self.name.trim().to_string();
        self.description = self.description.trim().to_string();
        for list in [
            &mut self.config.coin_source.static_coins,
            &mut self.config.coin_source.excluded_coins,
        ] {
            for coin in list.iter_mut() {
                // A coin the table knows is stored in its exchange form (btc, 比特币 →
                // BTCUSDT); another is kept as typed, for validation to refuse by name.
                *coin = match Symbol::parse_known(coin) {
                    Ok(symbol) => symbol.to_string(),
                    Err(_) => coin.trim().to_ascii_uppercase(),
                };
            }
        }
        self
    }

    pub fn apply(mut self, patch: StrategyPatch) -> Self {
        if let Some(v) = patch.name {
            self.name = v;
        }
        if let Some(v) = patch.description {
            self.description = v;
        }
        if let Some(v) = patch.is_active {
            self.is_active = v;
        }
        if let Some(v) = patch.config {
            self.config = v;
        }
        self.normalized()
    }

    pub fn validate(&self) -> Result<(), ValidationError> {
        let mut p = Problems::default();
        p.name("name", &self.name, NAME_MAX);
        if self.description.chars().count() > DESCRIPTION_MAX {
            p.push(
                "description",
                Problem::TooLong {
                    max: DESCRIPTION_MAX,
                },
            );
        }
        p.text("description", &self.description);
        self.config.check(&mut p);
        p.finish(())
    }
}

/// A stored strategy as readers see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Strategy {
    pub id: String,
    pub user_id: String,
    #[serde(flatten)]
    pub spec: StrategySpec,
    pub created_at: i64,
    pub updated_at: i64,
    pub deleted_at: Option<i64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_strategy_is_valid_with_defaults() {
        assert!(StrategySpec::new("s").normalized().validate().is_ok());
    }

    #[test]
    fn coins_are_normalised_to_upper_case() {
        let mut s = StrategySpec::new("s");
        s.config.coin_source.static_coins = vec![" btcusdt ".into()];
        assert_eq!(
            s.normalized().config.coin_source.static_coins,
            vec!["BTCUSDT"]
        );
    }

    #[test]
    fn coins_resolve_to_symbols_and_unknown_ones_are_refused_by_list() {
        let mut s = StrategySpec::new("s");
        s.config.coin_source.static_coins = vec!["btc".into(), " foo".into()];
        s.config.coin_source.excluded_coins = vec!["狗狗币".into(), "dogee".into()];
        let s = s.normalized();
        assert_eq!(s.config.coin_source.static_coins[0], "BTCUSDT");
        assert_eq!(s.config.coin_source.excluded_coins[0], "DOGEUSDT");
        let err = s.validate().unwrap_err();
        assert_eq!(
            err.fields(),
            vec!["coin_source.static_coins", "coin_source.excluded_coins"]
        );
        let text = err.to_string();
        assert!(text.contains("unknown coin \"FOO\""), "{text}");
        assert!(text.contains("did you mean DOGE"), "{text}");
    }

    #[test]
    fn blank_name_and_bad_leverage_together() {
        let mut s = StrategySpec::new(" ");
        s.config.risk_control.altcoin_max_leverage = 0;
        let err = s.normalized().validate().unwrap_err();
        assert_eq!(
            err.fields(),
            vec!["name", "risk_control.altcoin_max_leverage"]
        );
    }

    /// A strategy's description and prompt sections took a key and showed it in clear: every
    /// free-text field follows the rule names follow for keys, and holds no control character
    /// (tabs and line breaks are text).
    #[test]
    fn a_key_or_a_control_in_free_text_is_refused_by_field() {
        let key = "sk-proj-ZZSECRETabcdefghijklmnopqrstuvwx";
        let mut s = StrategySpec::new("s");
        s.description = format!("my key is {key}");
        s.config.prompt_sections.custom_prompt = format!("use {key}");
        s.config.prompt_sections.role_definition = "clear\u{1b}[2J".into();
        s.config.coin_source.ranking_sources = vec![key.into()];
        let err = s.normalized().validate().unwrap_err();
        assert_eq!(
            err.fields(),
            vec![
                "description",
                "coin_source.ranking_sources",
                "prompt_sections.role_definition",
                "prompt_sections.custom_prompt",
            ]
        );
        assert!(!err.to_string().contains("ZZSECRET"), "{err}");
        let mut fine = StrategySpec::new("s");
        fine.description = "Trend following on BTC and ETH:\n\tbuy 5m breakouts, 3:1 reward".into();
        fine.config.prompt_sections.custom_prompt =
            "Prefer BTCUSDT; never hold more than 2 positions (scan_interval_minutes=5).".into();
        assert!(fine.normalized().validate().is_ok());
    }
}
