//! A trader: one bot bound to one exchange account, one model and one strategy.
//!
//! The scan interval is the one value nofxi corrects instead of refusing: 1 minute or 600 are
//! obvious slips with one sensible reading, so it is clamped into 3–60 and the change comes
//! back as an [`Adjustment`] for the caller to show. Everything else that is wrong is an error.
//! Whether the three referenced resources exist is the store's check; this module only knows
//! that the ids are there.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::exchange::Exchange;
use crate::model::Model;
use crate::resource::NAME_MAX;
use crate::strategy::Strategy;
use crate::validation::{Adjustment, Problem, Problems, ValidationError};

pub const SCAN_INTERVAL_MIN: i64 = 3;
pub const SCAN_INTERVAL_MAX: i64 = 60;
pub const SCAN_INTERVAL_DEFAULT: i64 = 5;
/// The balance P&L is measured against when none is given (USDT): the paper account's size
/// in the README's first session, and what the assistant proposes.
pub const INITIAL_BALANCE_DEFAULT: Decimal = Decimal::ONE_THOUSAND;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TraderSpec {
    pub name: String,
    pub ai_model_id: String,
    pub exchange_id: String,
    pub strategy_id: String,
    /// Account size the trader's P&L is measured against, > 0.
    pub initial_balance: Decimal,
    pub scan_interval_minutes: i64,
    pub is_cross_margin: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TraderPatch {
    pub name: Option<String>,
    pub ai_model_id: Option<String>,
    pub exchange_id: Option<String>,
    pub strategy_id: Option<String>,
    pub initial_balance: Option<Decimal>,
    pub scan_interval_minutes: Option<i64>,
    pub is_cross_margin: Option<bool>,
}

impl TraderSpec {
    /// A spec with the reference defaults: 5-minute scans, cross margin.
    pub fn new(
        name: impl Into<String>,
        ai_model_id: impl Into<String>,
        exchange_id: impl Into<String>,
        strategy_id: impl Into<String>,
        initial_balance: Decimal,
    ) -> Self {
        TraderSpec {
            name: name.into(),
            ai_model_id: ai_model_id.into(),
            exchange_id: exchange_id.into(),
            strategy_id: strategy_id.into(),
            initial_balance,
            scan_interval_minutes: SCAN_INTERVAL_DEFAULT,
            is_cross_margin: true,
        }
    }

    pub fn normalized(mut self) -> Self {
        self.name = self.name.trim().to_string();
        for id in [
            &mut self.ai_model_id,
            &mut self.exchange_id,
            &mut self.strategy_id,
        ] {
            *id = id.trim().to_string();
        }
        self
    }

    pub fn apply(mut self, patch: TraderPatch) -> Self {
        if let Some(v) = patch.name {
            self.name = v;
        }
        if let Some(v) = patch.ai_model_id {
            self.ai_model_id = v;
        }
        if let Some(v) = patch.exchange_id {
            self.exchange_id = v;
        }
        if let Some(v) = patch.strategy_id {
            self.strategy_id = v;
        }
        if let Some(v) = patch.initial_balance {
            self.initial_balance = v;
        }
        if let Some(v) = patch.scan_interval_minutes {
            self.scan_interval_minutes = v;
        }
        if let Some(v) = patch.is_cross_margin {
            self.is_cross_margin = v;
        }
        self.normalized()
    }

    /// Clamps the scan interval (reported as an adjustment) and checks everything else.
    pub fn validate(&mut self) -> Result<Vec<Adjustment>, ValidationError> {
        let mut adjustments = Vec::new();
        let clamped = self
            .scan_interval_minutes
            .clamp(SCAN_INTERVAL_MIN, SCAN_INTERVAL_MAX);
        if clamped != self.scan_interval_minutes {
            adjustments.push(Adjustment {
                field: "scan_interval_minutes".into(),
                given: self.scan_interval_minutes.to_string(),
                applied: clamped.to_string(),
                rule: format!("allowed range is {SCAN_INTERVAL_MIN}–{SCAN_INTERVAL_MAX} minutes"),
            });
            self.scan_interval_minutes = clamped;
        }
        let mut p = Problems::default();
        p.name("name", &self.name, NAME_MAX);
        for (field, id) in [
            ("ai_model_id", &self.ai_model_id),
            ("exchange_id", &self.exchange_id),
            ("strategy_id", &self.strategy_id),
        ] {
            if id.is_empty() {
                p.push(field, Problem::Required);
            }
        }
        if let Some(problem) = crate::bounds::INITIAL_BALANCE.problem(self.initial_balance) {
            p.push("initial_balance", problem);
        }
        p.finish(adjustments)
    }
}

/// REFERENCE §1: a trader may start only when its strategy exists, its model exists and is
/// enabled, and its exchange exists, is enabled and holds every credential its type needs.
/// `None` means the reference no longer resolves to a live resource.
pub fn start_problems(
    spec: &TraderSpec,
    model: Option<&Model>,
    exchange: Option<&Exchange>,
    strategy: Option<&Strategy>,
) -> Result<(), ValidationError> {
    let mut p = Problems::default();
    let unknown = |kind: &str, reference: &str| Problem::UnknownReference {
        kind: kind.into(),
        reference: reference.into(),
    };
    match model {
        None => p.push("ai_model_id", unknown("model", &spec.ai_model_id)),
        Some(m) if !m.spec.enabled => p.push(
            "ai_model_id",
            Problem::Disabled {
                kind: "model".into(),
                name: m.spec.name.clone(),
            },
        ),
        Some(_) => {}
    }
    match exchange {
        None => p.push("exchange_id", unknown("exchange", &spec.exchange_id)),
        Some(e) => {
            if !e.spec.enabled {
                p.push(
                    "exchange_id",
                    Problem::Disabled {
                        kind: "exchange".into(),
                        name: e.spec.account_name.clone(),
                    },
                );
            }
            let missing: Vec<String> = e
                .credentials
                .iter()
                .filter(|(_, status)| !status.present)
                .map(|(field, _)| field.clone())
                .collect();
            if !missing.is_empty() {
                p.push(
                    "exchange_id",
                    Problem::IncompleteCredentials {
                        name: e.spec.account_name.clone(),
                        missing,
                    },
                );
            }
        }
    }
    if strategy.is_none() {
        p.push("strategy_id", unknown("strategy", &spec.strategy_id));
    }
    p.finish(())
}

/// A stored trader as readers see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Trader {
    pub id: String,
    pub user_id: String,
    #[serde(flatten)]
    pub spec: TraderSpec,
    pub is_running: bool,
    pub created_at: i64,
    pub updated_at: i64,
    pub deleted_at: Option<i64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> TraderSpec {
        TraderSpec::new("t", "m", "e", "s", Decimal::from(1000))
    }

    #[test]
    fn defaults_follow_the_reference() {
        let s = spec();
        assert_eq!(s.scan_interval_minutes, 5);
        assert!(s.is_cross_margin);
    }

    #[test]
    fn scan_interval_is_clamped_and_reported() {
        let mut s = spec();
        s.scan_interval_minutes = 1;
        let adj = s.validate().unwrap();
        assert_eq!(s.scan_interval_minutes, 3);
        assert_eq!(adj.len(), 1);
        assert_eq!(adj[0].given, "1");
        assert_eq!(adj[0].applied, "3");
        let mut s = spec();
        s.scan_interval_minutes = 600;
        s.validate().unwrap();
        assert_eq!(s.scan_interval_minutes, 60);
        let mut s = spec();
        assert!(s.validate().unwrap().is_empty());
    }

    #[test]
    fn start_needs_enabled_model_and_complete_enabled_exchange() {
        use crate::exchange::{Exchange, ExchangeSpec};
        use crate::model::{Model, ModelSpec};
        use std::collections::BTreeMap;
        let s = spec();
        let model = Model {
            id: "m".into(),
            user_id: "u".into(),
            spec: ModelSpec {
                name: "ds".into(),
                provider: "deepseek".into(),
                enabled: false,
                base_url: None,
                model_name: None,
            },
            effective_base_url: None,
            effective_model_name: None,
            has_api_key: true,
            api_key_masked: None,
            created_at: 0,
            updated_at: 0,
            deleted_at: None,
        };
        let stored: BTreeMap<_, _> = [(crate::CredentialField::ApiKey, "…".to_string())].into();
        let exchange = Exchange::view(
            "e".into(),
            "u".into(),
            ExchangeSpec {
                exchange_type: "binance".into(),
                account_name: "main".into(),
                enabled: true,
                testnet: false,
            },
            &stored,
            (0, 0, None),
        );
        let err = start_problems(&s, Some(&model), Some(&exchange), None).unwrap_err();
        assert_eq!(
            err.fields(),
            vec!["ai_model_id", "exchange_id", "strategy_id"]
        );
        assert!(err.to_string().contains("secret_key"), "{err}");
        assert!(err.to_string().contains("disabled"), "{err}");
    }

    #[test]
    fn a_balance_the_engine_cannot_compute_with_is_refused_naming_the_range() {
        for bad in [
            "70000000000000000000000000000",
            "1000000000000.01",
            "0.0000001",
            "-5",
        ] {
            let mut s = spec();
            s.initial_balance = bad.parse().unwrap();
            let err = s.validate().unwrap_err();
            assert_eq!(err.fields(), vec!["initial_balance"], "{bad}");
            let text = err.to_string();
            assert!(
                text.contains("0.01") && text.contains("1000000000000"),
                "{text}"
            );
        }
        for good in ["0.01", "1000000000000"] {
            let mut s = spec();
            s.initial_balance = good.parse().unwrap();
            assert!(s.validate().is_ok(), "{good}");
        }
        let b = crate::bounds::SCAN_INTERVAL_MINUTES;
        assert_eq!(
            (b.min, b.max),
            (SCAN_INTERVAL_MIN.into(), SCAN_INTERVAL_MAX.into())
        );
    }

    #[test]
    fn zero_balance_and_missing_refs_are_all_reported() {
        let mut s = TraderSpec::new("t", "", "e", "", Decimal::ZERO);
        let err = s.validate().unwrap_err();
        assert_eq!(
            err.fields(),
            vec!["ai_model_id", "strategy_id", "initial_balance"]
        );
    }
}
