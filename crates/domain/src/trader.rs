//! A trader: one bot bound to one exchange account, one model and one strategy.
//!
//! The scan interval is the one value nofxi corrects instead of refusing: 1 minute or 600 are
//! obvious slips with one sensible reading, so it is clamped into 3–60 and the change comes
//! back as an [`Adjustment`] for the caller to show. Everything else that is wrong is an error.
//! Whether the three referenced resources exist is the store's check; this module only knows
//! that the ids are there.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::resource::NAME_MAX;
use crate::validation::{Adjustment, Problem, Problems, ValidationError};

pub const SCAN_INTERVAL_MIN: i64 = 3;
pub const SCAN_INTERVAL_MAX: i64 = 60;
pub const SCAN_INTERVAL_DEFAULT: i64 = 5;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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
        if self.initial_balance <= Decimal::ZERO {
            p.push(
                "initial_balance",
                Problem::OutOfRange {
                    min: "more than 0".into(),
                    max: "any amount".into(),
                    got: self.initial_balance.to_string(),
                },
            );
        }
        p.finish(adjustments)
    }
}

/// A stored trader as readers see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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
    fn zero_balance_and_missing_refs_are_all_reported() {
        let mut s = TraderSpec::new("t", "", "e", "", Decimal::ZERO);
        let err = s.validate().unwrap_err();
        assert_eq!(
            err.fields(),
            vec!["ai_model_id", "strategy_id", "initial_balance"]
        );
    }
}
