//! Filling in the fees a user left out, and keeping the ones they gave.
//!
//! A fee given by the user (from a statement, a fill) wins: it is what was actually charged.
//! Only buys and sells are computed; other records without a fee are taken as free, and the
//! outcome says so, so a caller can show every fee with where it came from.
//!
//! Fill a working copy, not the stored records: a record keeps `fee: None` when the user gave
//! none, so its import fingerprint stays the same and a corrected schedule corrects its fee.

use rust_decimal::Decimal;
use serde::Serialize;

use super::quote::{FeeQuote, TradeSide};
use super::schedule::FeeSchedules;
use crate::domain::{Transaction, TxKind};
use crate::error::{FieldError, PortfolioError};

/// Where a transaction's fee came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "source", rename_all = "snake_case")]
pub enum FeeSource {
    /// Given by the user; kept as is.
    Given { fee: Decimal },
    /// Computed from the market's schedule, line by line.
    Schedule { quote: FeeQuote },
    /// Not a trade and no fee given: none charged.
    NotCharged,
}

/// Sets every missing fee: buys and sells from the schedule, other kinds to 0. Returns each
/// record's fee source, in order. On any failure nothing is changed, and every problem names
/// its record by position.
pub fn fill_fees(
    schedules: &FeeSchedules,
    transactions: &mut [Transaction],
) -> Result<Vec<FeeSource>, PortfolioError> {
    let mut sources = Vec::with_capacity(transactions.len());
    let mut problems = Vec::new();
    for (i, tx) in transactions.iter().enumerate() {
        let side = match tx.kind {
            TxKind::Buy => Some(TradeSide::Buy),
            TxKind::Sell => Some(TradeSide::Sell),
            _ => None,
        };
        let source = match (tx.fee, side, &tx.instrument) {
            (Some(fee), _, _) => FeeSource::Given { fee },
            (None, Some(side), Some(instrument)) => {
                match schedules.quote(instrument, side, tx.date, tx.quantity, tx.price) {
                    Ok(quote) => FeeSource::Schedule { quote },
                    Err(e) => {
                        problems.extend(e.0.into_iter().map(|p| FieldError {
                            field: format!("transactions[{i}].{}", p.field),
                            ..p
                        }));
                        continue;
                    }
                }
            }
            (None, _, _) => FeeSource::NotCharged,
        };
        sources.push(source);
    }
    PortfolioError::check(problems)?;
    for (tx, source) in transactions.iter_mut().zip(&sources) {
        tx.fee = Some(match source {
            FeeSource::Given { fee } => *fee,
            FeeSource::Schedule { quote } => quote.total,
            FeeSource::NotCharged => Decimal::ZERO,
        });
    }
    Ok(sources)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::transaction::tests::trade;
    use rust_decimal_macros::dec;

    #[test]
    fn a_given_fee_wins_and_a_missing_one_is_computed() {
        let schedules = FeeSchedules::embedded().unwrap();
        let mut given = trade(TxKind::Sell, "2024-01-02", dec!(1000), dec!(10));
        given.fee = Some(dec!(3.21));
        let mut missing = given.clone();
        missing.fee = None;
        let mut split = trade(TxKind::Split, "2024-01-02", dec!(2), dec!(0));
        split.fee = None;
        let mut txs = [given, missing, split];
        let sources = fill_fees(&schedules, &mut txs).unwrap();
        // The computed sell: 5.00 commission + 5.00 stamp (0.05 %) + 0.10 transfer = 10.10.
        let fees: Vec<_> = txs.iter().map(|t| t.fee).collect();
        assert_eq!(fees, [Some(dec!(3.21)), Some(dec!(10.10)), Some(dec!(0))]);
        assert!(matches!(sources[1], FeeSource::Schedule { ref quote } if quote.lines.len() == 3));
        assert_eq!(sources[2], FeeSource::NotCharged);
    }

    #[test]
    fn a_trade_the_schedule_cannot_price_changes_nothing() {
        let schedules = FeeSchedules::embedded().unwrap();
        let mut ok = trade(TxKind::Buy, "2024-01-02", dec!(100), dec!(10));
        ok.fee = None;
        let mut old = ok.clone();
        old.date = "2010-01-04".parse().unwrap();
        let mut txs = [ok, old];
        let err = fill_fees(&schedules, &mut txs).unwrap_err();
        assert_eq!(err.0[0].field, "transactions[1].fee");
        assert_eq!(txs[0].fee, None);
    }
}
