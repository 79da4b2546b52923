//! Portfolios and the broker accounts in them.
//!
//! A portfolio is what the user asks about ("my portfolio"); an account is where trades
//! happen (a broker, an exchange). Totals are shown in the portfolio's base currency; lots are
//! booked by the portfolio's cost method, which the user chooses once for the whole portfolio
//! so that a holding's P&L does not change meaning between accounts.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::instrument::Currency;
use crate::error::{FieldError, PortfolioError};

/// How a sale chooses which lots it consumes.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum CostMethod {
    /// Oldest lot first: the default, and what tax rules in most places assume.
    #[default]
    Fifo,
    /// One pooled cost per holding (the "diluted average" broker statements in China show).
    Average,
    /// Newest lot first.
    Lifo,
    /// Highest unit cost first (the least realized gain).
    Hifo,
    /// The sale names its lots.
    Specific,
}

impl CostMethod {
    pub const ALL: [CostMethod; 5] = [
        CostMethod::Fifo,
        CostMethod::Average,
        CostMethod::Lifo,
        CostMethod::Hifo,
        CostMethod::Specific,
    ];

    pub fn name(self) -> &'static str {
        match self {
            CostMethod::Fifo => "fifo",
            CostMethod::Average => "average",
            CostMethod::Lifo => "lifo",
            CostMethod::Hifo => "hifo",
            CostMethod::Specific => "specific",
        }
    }
}

impl fmt::Display for CostMethod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for CostMethod {
    type Err = FieldError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let lower = text.trim().to_ascii_lowercase();
        CostMethod::ALL
            .into_iter()
            .find(|m| m.name() == lower)
            .ok_or_else(|| {
                FieldError::new(
                    "cost_method",
                    format!("`{}` is not a cost method", text.trim()),
                    "use fifo, average, lifo, hifo or specific",
                )
            })
    }
}

/// Where trades happen: a broker or exchange account.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Account {
    /// The name transactions and CSV rows refer to it by (unique in the portfolio).
    pub name: String,
    /// The broker or exchange, for the user's eyes only.
    #[serde(default)]
    pub broker: String,
    /// The currency its cash is kept in when a deposit does not say.
    pub currency: Currency,
}

/// A user's portfolio: its accounts, its base currency and its cost method.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Portfolio {
    pub name: String,
    /// The currency totals and allocations are shown in.
    pub base_currency: Currency,
    #[serde(default)]
    pub cost_method: CostMethod,
    #[serde(default)]
    pub accounts: Vec<Account>,
}

impl Portfolio {
    pub fn new(name: &str, base_currency: Currency) -> Self {
        Self {
            name: name.to_string(),
            base_currency,
            cost_method: CostMethod::default(),
            accounts: Vec::new(),
        }
    }

    /// Checks the name and that account names are present and unique (case-insensitively,
    /// since a CSV's `account` column is typed by hand).
    pub fn validate(&self) -> Result<(), PortfolioError> {
        let mut problems = Vec::new();
        if self.name.trim().is_empty() {
            problems.push(FieldError::new(
                "name",
                "is empty",
                "give the portfolio a name",
            ));
        }
        let mut seen: Vec<String> = Vec::new();
        for (i, account) in self.accounts.iter().enumerate() {
            let key = account.name.trim().to_lowercase();
            if key.is_empty() {
                problems.push(FieldError::new(
                    format!("accounts[{i}].name"),
                    "is empty",
                    "name the account (e.g. the broker's name)",
                ));
            } else if seen.contains(&key) {
                problems.push(FieldError::new(
                    format!("accounts[{i}].name"),
                    format!("`{}` is already used by another account", account.name),
                    "give each account its own name",
                ));
            } else {
                seen.push(key);
            }
        }
        PortfolioError::check(problems)
    }

    /// The account a record refers to, by name, ignoring case.
    pub fn account(&self, name: &str) -> Option<&Account> {
        let name = name.trim();
        self.accounts
            .iter()
            .find(|a| a.name.trim().eq_ignore_ascii_case(name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn account(name: &str) -> Account {
        Account {
            name: name.into(),
            broker: String::new(),
            currency: "CNY".parse().unwrap(),
        }
    }

    #[test]
    fn fifo_is_the_default_and_methods_parse() {
        assert_eq!(CostMethod::default(), CostMethod::Fifo);
        assert_eq!("HIFO".parse::<CostMethod>().unwrap(), CostMethod::Hifo);
        assert!(
            "wac"
                .parse::<CostMethod>()
                .unwrap_err()
                .fix
                .contains("average")
        );
    }

    #[test]
    fn account_names_are_required_and_unique_ignoring_case() {
        let mut p = Portfolio::new("mine", "CNY".parse().unwrap());
        p.accounts = vec![account("Huatai"), account("huatai"), account(" ")];
        let err = p.validate().unwrap_err();
        let fields: Vec<_> = err.fields().collect();
        assert_eq!(fields, ["accounts[1].name", "accounts[2].name"]);
        assert!(p.account("HUATAI").is_some());
    }
}
