//! What went wrong, said so that a person can fix it.
//!
//! Every problem names the field it is about and the fix, because the user reading it is
//! usually looking at a CSV row or a form, not at our code. Validation collects every problem
//! of a record before failing: a row with a bad date and a bad price should say both at once.

use std::fmt;

use serde::Serialize;

/// One thing wrong with one field, and what to do about it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct FieldError {
    /// The field's snake_case name (`quantity`, `instrument.symbol`, `fx_rate`).
    pub field: String,
    /// What is wrong, in plain words.
    pub problem: String,
    /// What the user should do next.
    pub fix: String,
}

impl FieldError {
    pub fn new(
        field: impl Into<String>,
        problem: impl Into<String>,
        fix: impl Into<String>,
    ) -> Self {
        Self {
            field: field.into(),
            problem: problem.into(),
            fix: fix.into(),
        }
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}; {}", self.field, self.problem, self.fix)
    }
}

/// A refusal from the portfolio: one or more field problems.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", joined(.0))]
pub struct PortfolioError(pub Vec<FieldError>);

fn joined(problems: &[FieldError]) -> String {
    problems
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

impl PortfolioError {
    /// A refusal with a single problem.
    pub fn one(
        field: impl Into<String>,
        problem: impl Into<String>,
        fix: impl Into<String>,
    ) -> Self {
        Self(vec![FieldError::new(field, problem, fix)])
    }

    /// `Ok` when nothing was collected, so callers can gather problems and fail once.
    pub fn check(problems: Vec<FieldError>) -> Result<(), Self> {
        if problems.is_empty() {
            Ok(())
        } else {
            Err(Self(problems))
        }
    }

    pub fn fields(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|p| p.field.as_str())
    }
}

pub type Result<T, E = PortfolioError> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_problem_is_said_with_its_field_and_fix() {
        let err = PortfolioError(vec![
            FieldError::new(
                "date",
                "`2024-13-01` is not a date",
                "write it as YYYY-MM-DD",
            ),
            FieldError::new("price", "is negative", "give the price per unit, 0 or more"),
        ]);
        assert_eq!(
            err.to_string(),
            "date: `2024-13-01` is not a date; write it as YYYY-MM-DD\n\
             price: is negative; give the price per unit, 0 or more"
        );
        assert!(PortfolioError::check(vec![]).is_ok());
    }
}
