//! Transactions: what happened in an account, one record each.
//!
//! Security transactions (BUY, SELL, SPLIT, TRANSFER_IN / OUT) carry an instrument, a quantity
//! and a unit price; cash transactions (DEPOSIT, WITHDRAWAL, FEE, INTEREST) carry an amount;
//! a DIVIDEND carries both an instrument and an amount, with any tax withheld at source.
//! Portfolio Performance keeps these two families apart too; here they share one record so an
//! import file can hold both, and [`Transaction::validate`] says which fields each needs.

use nofxi_domain::validation::{shown_input, text_control};
use std::fmt;
use std::str::FromStr;

use jiff::civil::Date;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::instrument::{Currency, Instrument};
use super::money::money;
use crate::error::{FieldError, PortfolioError};

/// What a transaction is.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum TxKind {
    Buy,
    Sell,
    Dividend,
    Fee,
    Interest,
    /// A split or reverse split; `quantity` is the ratio of new units per old unit (2 for a
    /// 2-for-1 split, 0.1 for a 1-for-10 reverse split).
    Split,
    /// Securities moved into the account from outside, at `price` as their cost.
    TransferIn,
    /// Securities moved out of the account, taking their cost with them (nothing realized).
    TransferOut,
    Deposit,
    Withdrawal,
}

impl TxKind {
    pub const ALL: [TxKind; 10] = [
        TxKind::Buy,
        TxKind::Sell,
        TxKind::Dividend,
        TxKind::Fee,
        TxKind::Interest,
        TxKind::Split,
        TxKind::TransferIn,
        TxKind::TransferOut,
        TxKind::Deposit,
        TxKind::Withdrawal,
    ];

    pub fn code(self) -> &'static str {
        match self {
            TxKind::Buy => "BUY",
            TxKind::Sell => "SELL",
            TxKind::Dividend => "DIVIDEND",
            TxKind::Fee => "FEE",
            TxKind::Interest => "INTEREST",
            TxKind::Split => "SPLIT",
            TxKind::TransferIn => "TRANSFER_IN",
            TxKind::TransferOut => "TRANSFER_OUT",
            TxKind::Deposit => "DEPOSIT",
            TxKind::Withdrawal => "WITHDRAWAL",
        }
    }

    /// Kinds that move units of an instrument.
    pub fn moves_units(self) -> bool {
        matches!(
            self,
            TxKind::Buy | TxKind::Sell | TxKind::Split | TxKind::TransferIn | TxKind::TransferOut
        )
    }

    /// Kinds whose money is the `amount` field rather than quantity × price.
    pub fn is_cash(self) -> bool {
        matches!(
            self,
            TxKind::Dividend
                | TxKind::Fee
                | TxKind::Interest
                | TxKind::Deposit
                | TxKind::Withdrawal
        )
    }
}

impl fmt::Display for TxKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl FromStr for TxKind {
    type Err = FieldError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let code = text.trim().to_ascii_uppercase().replace([' ', '-'], "_");
        TxKind::ALL
            .into_iter()
            .find(|k| k.code() == code)
            .ok_or_else(|| {
                FieldError::new(
                    "type",
                    format!("`{}` is not a transaction type", shown_input(text.trim())),
                    "use BUY, SELL, DIVIDEND, FEE, INTEREST, SPLIT, TRANSFER_IN, TRANSFER_OUT, \
                 DEPOSIT or WITHDRAWAL",
                )
            })
    }
}

/// Part of a specific-lot sale: which lot (by id) and how many of its units.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
pub struct LotPick {
    pub lot: String,
    pub quantity: Decimal,
}

/// One record in an account.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Transaction {
    /// The account's name in the portfolio.
    pub account: String,
    /// YYYY-MM-DD.
    #[schemars(with = "String")]
    pub date: Date,
    pub kind: TxKind,
    /// Present for security transactions and dividends.
    #[serde(default)]
    pub instrument: Option<Instrument>,
    /// Units traded; for a SPLIT the ratio of new units per old unit.
    #[serde(default)]
    pub quantity: Decimal,
    /// Price per unit in `currency`.
    #[serde(default)]
    pub price: Decimal,
    /// The cash of a cash transaction (a dividend's gross amount), in `currency`; 0 otherwise.
    #[serde(default)]
    pub amount: Decimal,
    /// Fees paid on this record. `None`: not given, so computed from the market's schedule;
    /// a fee the user gives always wins over the schedule.
    #[serde(default)]
    pub fee: Option<Decimal>,
    /// Tax withheld at source (a dividend's withholding).
    #[serde(default)]
    pub tax: Decimal,
    pub currency: Currency,
    #[serde(default)]
    pub note: String,
    /// For a SELL under the specific-lot method: the lots it sells from.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lots: Vec<LotPick>,
}

impl Transaction {
    /// A trade's gross value, quantity × price, at money precision.
    pub fn gross(&self) -> Decimal {
        money(self.quantity * self.price)
    }

    /// The fee as recorded, 0 when it is still to be computed.
    pub fn fee_or_zero(&self) -> Decimal {
        self.fee.unwrap_or_default()
    }

    /// Every problem with this record at once, each naming its field and its fix.
    pub fn validate(&self) -> Result<(), PortfolioError> {
        let mut problems = Vec::new();
        let mut push = |field: &str, problem: &str, fix: &str| {
            problems.push(FieldError::new(field, problem, fix));
        };
        if self.account.trim().is_empty() {
            push(
                "account",
                "is empty",
                "say which account the record belongs to",
            );
        }
        let needs_instrument = self.kind.moves_units() || self.kind == TxKind::Dividend;
        match (&self.instrument, needs_instrument) {
            (None, true) => push(
                "instrument",
                &format!("a {} needs an instrument", self.kind),
                "give the security's code (and its market if the code is ambiguous)",
            ),
            (Some(_), false) => push(
                "instrument",
                &format!("a {} is a cash record and takes no instrument", self.kind),
                "leave the code empty, or use the type that moves securities",
            ),
            _ => {}
        }
        if self.kind.moves_units() && self.quantity <= Decimal::ZERO {
            let fix = if self.kind == TxKind::Split {
                "give the ratio of new units per old unit, e.g. 2 for a 2-for-1 split"
            } else {
                "give the number of units, more than 0 (the type says the direction)"
            };
            push(
                "quantity",
                &format!("must be more than 0, got {}", self.quantity),
                fix,
            );
        }
        let whole_shares = self
            .instrument
            .as_ref()
            .is_some_and(|i| i.market.trades_whole_shares());
        if whole_shares
            && self.kind != TxKind::Split
            && self.kind.moves_units()
            && self.quantity > Decimal::ZERO
            && !self.quantity.fract().is_zero()
        {
            push(
                "quantity",
                &format!(
                    "{} is not a whole number of shares",
                    self.quantity.normalize()
                ),
                "shares listed in Shanghai, Shenzhen, Beijing and Hong Kong trade in whole shares: give the number of shares",
            );
        }
        if matches!(self.kind, TxKind::Buy | TxKind::Sell | TxKind::TransferIn)
            && self.price < Decimal::ZERO
        {
            push("price", "is negative", "give the price per unit, 0 or more");
        }
        if self.kind.is_cash() && self.amount <= Decimal::ZERO {
            push(
                "amount",
                &format!(
                    "a {} needs an amount more than 0, got {}",
                    self.kind, self.amount
                ),
                "give the cash amount as a positive number (the type says the direction)",
            );
        }
        if self.fee.is_some_and(|f| f < Decimal::ZERO) {
            push(
                "fee",
                "is negative",
                "give fees as a positive number, or leave empty to compute",
            );
        }
        if self.tax < Decimal::ZERO || (self.kind.is_cash() && self.tax > self.amount) {
            push(
                "tax",
                "must be between 0 and the amount",
                "give the tax withheld, 0 if none",
            );
        }
        if let Some(instrument) = &self.instrument
            && instrument.currency != self.currency
        {
            push(
                "currency",
                &format!(
                    "is {} but {} trades in {}",
                    self.currency,
                    instrument.key(),
                    instrument.currency
                ),
                "record the trade in the instrument's currency; FX is applied for totals",
            );
        }
        if !self.lots.is_empty() && self.kind != TxKind::Sell && self.kind != TxKind::TransferOut {
            push(
                "lots",
                "only a sale chooses lots",
                "remove the lot list from this record",
            );
        }
        problems.extend(self.currency.unknown("currency"));
        problems.extend(note_problem(&self.note));
        PortfolioError::check(problems)
    }
}

/// A note is shown in terminals, exports and chats, where a control character (ESC, BEL, a
/// lone carriage return) retitles, clears or overwrites what is on screen; tabs and line
/// breaks are text and stay.
pub(crate) fn note_problem(note: &str) -> Option<FieldError> {
    text_control(note).map(|c| {
        FieldError::new(
            "note",
            format!("contains the control character U+{:04X}", u32::from(c)),
            "remove it: a note is plain text (tabs and line breaks are fine)",
        )
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::domain::Market;
    use rust_decimal_macros::dec;

    pub(crate) fn trade(
        kind: TxKind,
        date: &str,
        quantity: Decimal,
        price: Decimal,
    ) -> Transaction {
        let instrument = Instrument::new(Market::Sh, "600519").unwrap();
        Transaction {
            account: "main".into(),
            date: date.parse().unwrap(),
            kind,
            currency: instrument.currency.clone(),
            instrument: Some(instrument),
            quantity,
            price,
            amount: Decimal::ZERO,
            fee: Some(Decimal::ZERO),
            tax: Decimal::ZERO,
            note: String::new(),
            lots: vec![],
        }
    }

    #[test]
    fn a_valid_buy_passes_and_its_gross_is_rounded_to_cents() {
        let t = trade(TxKind::Buy, "2024-01-02", dec!(100), dec!(15.2345));
        t.validate().unwrap();
        assert_eq!(t.gross(), dec!(1523.45));
    }

    #[test]
    fn every_problem_is_reported_at_once() {
        let mut t = trade(TxKind::Sell, "2024-01-02", dec!(0), dec!(-1));
        t.fee = Some(dec!(-5));
        t.currency = "USD".parse().unwrap();
        let err = t.validate().unwrap_err();
        let fields: Vec<_> = err.fields().collect();
        assert_eq!(fields, ["quantity", "price", "fee", "currency"]);
    }

    #[test]
    fn cash_records_need_an_amount_and_no_instrument() {
        let mut t = trade(TxKind::Deposit, "2024-01-02", dec!(0), dec!(0));
        let err = t.validate().unwrap_err();
        assert_eq!(err.fields().collect::<Vec<_>>(), ["instrument", "amount"]);
        t.instrument = None;
        t.amount = dec!(10000);
        t.validate().unwrap();
    }

    #[test]
    fn kinds_parse_loosely() {
        assert_eq!("transfer in".parse::<TxKind>().unwrap(), TxKind::TransferIn);
        assert_eq!(
            "Transfer-Out".parse::<TxKind>().unwrap(),
            TxKind::TransferOut
        );
        assert_eq!("bought".parse::<TxKind>().unwrap_err().field, "type");
    }
}
