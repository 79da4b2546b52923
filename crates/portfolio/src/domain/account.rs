//! Portfolios and the broker accounts in them.
//!
//! A portfolio is what the user asks about ("my portfolio"); an account is where trades
//! happen (a broker, an exchange). Totals are shown in the portfolio's base currency; lots are
//! booked by the portfolio's cost method, which the user chooses once for the whole portfolio
//! so that a holding's P&L does not change meaning between accounts.

use nofxi_domain::resource::NAME_MAX;
use nofxi_domain::validation::{FieldProblem, Problem, name_problem, shown_input};
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
                    format!("`{}` is not a cost method", shown_input(text.trim())),
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

    /// Checks the portfolio's name and its accounts' names by the rule every resource's
    /// names follow ([`name_problem`]), and that account names are unique (case-insensitively,
    /// since a CSV's `account` column is typed by hand).
    pub fn validate(&self) -> Result<(), PortfolioError> {
        let mut problems = Vec::new();
        problems.extend(name_error("name", &self.name, "give the portfolio a name"));
        problems.extend(self.base_currency.unknown("base_currency"));
        let mut seen: Vec<String> = Vec::new();
        for (i, account) in self.accounts.iter().enumerate() {
            let key = account.name.trim().to_lowercase();
            let field = format!("accounts[{i}].name");
            if let Some(bad) = name_error(
                &field,
                &account.name,
                "name the account (e.g. the broker's name)",
            ) {
                problems.push(bad);
            } else if seen.contains(&key) {
                problems.push(FieldError::new(
                    format!("accounts[{i}].name"),
                    format!(
                        "`{}` is already used by another account",
                        shown_input(&account.name)
                    ),
                    "give each account its own name",
                ));
            } else {
                seen.push(key);
            }
            problems.extend(account.currency.unknown(&format!("accounts[{i}].currency")));
            // The broker is optional, and shown beside the name wherever the name is.
            if !account.broker.is_empty() {
                problems.extend(name_error(
                    &format!("accounts[{i}].broker"),
                    &account.broker,
                    "leave the broker empty or name it",
                ));
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

/// `name`'s problem under the one rule for names ([`name_problem`]), said as the portfolio
/// crate says problems; `required` is the fix for a name left empty.
fn name_error(field: &str, name: &str, required: &str) -> Option<FieldError> {
    let (problem, fix) = match name_problem(name, NAME_MAX)? {
        Problem::Required => ("is empty".to_string(), required.to_string()),
        Problem::TooLong { max } => (
            format!("is longer than {max} characters"),
            "shorten it".to_string(),
        ),
        Problem::HiddenCharacter { code_point } => (
            format!(
                "contains the invisible or control character {code_point}, which hides or \
                 rewrites text where the name is shown (terminals, logs, chats)"
            ),
            "remove it".to_string(),
        ),
        Problem::LooksLikeKey => (
            "looks like an API key or private key, and a name is shown in every list and reply"
                .to_string(),
            "choose a name that is not a key".to_string(),
        ),
        other => (
            FieldProblem::new(field, other).fix(),
            "choose another name".to_string(),
        ),
    };
    Some(FieldError::new(field, problem, fix))
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

    /// Portfolio names took ESC and OSC sequences, control and zero-width characters and a
    /// kilobyte of text, which every other resource's name refuses: the one name rule holds
    /// for a portfolio and for each of its accounts.
    #[test]
    fn names_that_hide_or_rewrite_text_or_flood_are_refused() {
        let long = "n".repeat(1024);
        for bad in [
            "red\u{1b}[31m",
            "\u{1b}]0;pwned\u{7}",
            "tab\there",
            "zero\u{200b}width",
            "evil\u{202e}txt",
            long.as_str(),
        ] {
            let p = Portfolio::new(bad, "CNY".parse().unwrap());
            let err = p.validate().unwrap_err();
            assert_eq!(err.fields().collect::<Vec<_>>(), ["name"], "{bad:?}");
            let said = err.to_string();
            assert!(
                !said.chars().any(nofxi_domain::validation::hidden_character) && said.len() < 400,
                "{bad:?}: {said}"
            );
            let mut p = Portfolio::new("mine", "CNY".parse().unwrap());
            p.accounts = vec![account("huatai"), account(bad)];
            let err = p.validate().unwrap_err();
            assert_eq!(
                err.fields().collect::<Vec<_>>(),
                ["accounts[1].name"],
                "{bad:?}"
            );
            p.accounts[1].name = "futu".into();
            p.accounts[1].broker = bad.into();
            let err = p.validate().unwrap_err();
            assert_eq!(
                err.fields().collect::<Vec<_>>(),
                ["accounts[1].broker"],
                "{bad:?}"
            );
        }
        let err = Portfolio::new("a\u{1b}b", "CNY".parse().unwrap())
            .validate()
            .unwrap_err()
            .to_string();
        assert!(err.contains("U+001B"), "{err}");
        let err = Portfolio::new(&long, "CNY".parse().unwrap())
            .validate()
            .unwrap_err()
            .to_string();
        assert!(err.contains("longer than 64 characters"), "{err}");
        for good in ["mine", "我的组合", "IRA 2024", "Ünïcödé"] {
            let mut p = Portfolio::new(good, "CNY".parse().unwrap());
            p.accounts = vec![account(good)];
            assert!(p.validate().is_ok(), "{good:?}");
        }
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
