//! The basis (口径) of a figure: what it counts, how, in which currency and over which dates.
//!
//! A return without its basis invites the wrong comparison (a time-weighted 12 % next to a
//! money-weighted 3 % are both right). Every figure this crate computes is a [`Figure`], which
//! cannot be built without a [`Basis`], and a basis can describe itself in both languages.

use jiff::ToSpan;
use jiff::civil::Date;
use rust_decimal::Decimal;
use serde::Serialize;

use crate::domain::{CostMethod, Currency};

/// What a figure means.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(tag = "basis", rename_all = "snake_case")]
pub enum Basis {
    /// Net sale proceeds less the cost of the lots consumed by `method`, fees included, plus
    /// dividends beyond cost, interest and account fees; converted at each event's date.
    Realized {
        method: CostMethod,
        currency: Currency,
        #[schemars(with = "String")]
        to: Date,
    },
    /// Market value less the remaining cost of open lots, at prices on `priced_on`.
    Unrealized {
        method: CostMethod,
        currency: Currency,
        #[schemars(with = "String")]
        priced_on: Date,
    },
    /// Daily sub-period returns linked geometrically; external flows at the start of their
    /// day; not annualised.
    TimeWeighted {
        #[schemars(with = "String")]
        from: Date,
        #[schemars(with = "String")]
        to: Date,
        currency: Currency,
    },
    /// The annual rate that discounts every external flow and the end value to zero (XIRR,
    /// actual days / 365); only for windows of a year or more, never extrapolated from less.
    MoneyWeighted {
        #[schemars(with = "String")]
        from: Date,
        #[schemars(with = "String")]
        to: Date,
        currency: Currency,
    },
    /// Market value share, cash included, at prices on `priced_on`.
    Allocation {
        by: String,
        currency: Currency,
        #[schemars(with = "String")]
        priced_on: Date,
    },
}

impl Basis {
    /// The basis in words, for a reply.
    pub fn describe(&self, zh: bool) -> String {
        match (self, zh) {
            (
                Basis::Realized {
                    method,
                    currency,
                    to,
                },
                false,
            ) => format!(
                "realized to {to}: proceeds net of fees less {method} cost, with dividends beyond cost, in {currency}"
            ),
            (
                Basis::Realized {
                    method,
                    currency,
                    to,
                },
                true,
            ) => format!(
                "已实现盈亏（截至 {to}）：卖出净额减 {method} 成本，含费用与超出成本的分红，{currency} 计"
            ),
            (
                Basis::Unrealized {
                    method,
                    currency,
                    priced_on,
                },
                false,
            ) => format!(
                "unrealized at prices of {priced_on}: market value less remaining {method} cost, in {currency}"
            ),
            (
                Basis::Unrealized {
                    method,
                    currency,
                    priced_on,
                },
                true,
            ) => {
                format!("浮动盈亏（按 {priced_on} 价格）：市值减剩余 {method} 成本，{currency} 计")
            }
            (Basis::TimeWeighted { from, to, currency }, false) => format!(
                "time-weighted return {from} to {to}: daily returns linked, flows at the start of their day, in {currency}, not annualised"
            ),
            (Basis::TimeWeighted { from, to, currency }, true) => format!(
                "时间加权收益率（{from} 至 {to}）：逐日收益连乘，资金进出计在当日开始，{currency} 计，未年化"
            ),
            (Basis::MoneyWeighted { from, to, currency }, false) => format!(
                "money-weighted return {from} to {to}: XIRR of the flows and end value, annualised (given for a year or more only), in {currency}"
            ),
            (Basis::MoneyWeighted { from, to, currency }, true) => format!(
                "资金加权收益率（{from} 至 {to}）：按资金流和期末市值计算的 XIRR，年化（只对一年及以上的区间给出），{currency} 计"
            ),
            (
                Basis::Allocation {
                    by,
                    currency,
                    priced_on,
                },
                false,
            ) => {
                format!(
                    "share of market value by {by} at prices of {priced_on}, cash included, in {currency}"
                )
            }
            (
                Basis::Allocation {
                    by,
                    currency,
                    priced_on,
                },
                true,
            ) => {
                format!("按{by}的市值占比（{priced_on} 价格），含现金，{currency} 计")
            }
        }
    }
}

/// A number and what it means.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Figure<T = Decimal> {
    pub value: T,
    pub basis: Basis,
}

/// The windows performance is asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Period {
    Today,
    MonthToDate,
    YearToDate,
    OneYear,
    All,
}

impl Period {
    /// The first day of the window ending on `today`; `All` starts at `first` (the first
    /// record's date), and no window starts before it.
    pub fn start(self, today: Date, first: Date) -> Date {
        let start = match self {
            Period::Today => today,
            Period::MonthToDate => today.first_of_month(),
            Period::YearToDate => today.first_of_year(),
            // A year back, plus a day: 2024-06-15's one year is 2023-06-16 to 2024-06-15.
            Period::OneYear => today
                .checked_sub(1.year())
                .and_then(|d| d.checked_add(1.day()))
                .unwrap_or(first),
            Period::All => first,
        };
        start.max(first)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::civil::date;

    #[test]
    fn periods_start_where_a_person_expects_and_never_before_the_first_record() {
        let today = date(2024, 6, 15);
        let first = date(2020, 1, 1);
        assert_eq!(Period::Today.start(today, first), today);
        assert_eq!(Period::MonthToDate.start(today, first), date(2024, 6, 1));
        assert_eq!(Period::YearToDate.start(today, first), date(2024, 1, 1));
        assert_eq!(Period::OneYear.start(today, first), date(2023, 6, 16));
        assert_eq!(Period::All.start(today, first), first);
        assert_eq!(
            Period::YearToDate.start(today, date(2024, 3, 1)),
            date(2024, 3, 1)
        );
    }

    #[test]
    fn a_basis_says_itself_in_both_languages() {
        let b = Basis::TimeWeighted {
            from: date(2024, 1, 1),
            to: date(2024, 1, 4),
            currency: "CNY".parse().unwrap(),
        };
        assert!(b.describe(false).contains("not annualised"));
        assert!(b.describe(true).contains("未年化"));
    }
}
