//! What makes two rows the same trade.
//!
//! Account, date, instrument, type, quantity, unit price and fee (REFERENCE §4). The account is
//! part of it on purpose: the same trade in two accounts is two trades (Ghostfolio matches
//! across accounts, its issue #7728). Numbers are normalised (`10.0` and `10` are one price).

use serde::Serialize;

use crate::domain::Transaction;

/// A canonical text of a record's identifying fields.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, schemars::JsonSchema)]
pub struct Fingerprint(pub String);

impl Fingerprint {
    pub fn of(tx: &Transaction) -> Self {
        let instrument = tx.instrument.as_ref().map(|i| i.key()).unwrap_or_default();
        let fee = tx
            .fee
            .map(|f| f.normalize().to_string())
            .unwrap_or_else(|| "-".into());
        // A cash record has no quantity or price; its amount is what tells two apart.
        let size = if tx.kind.is_cash() {
            tx.amount
        } else {
            tx.quantity
        };
        Fingerprint(format!(
            "{}|{}|{}|{}|{}|{}|{}",
            tx.account.trim().to_lowercase(),
            tx.date,
            instrument,
            tx.kind,
            size.normalize(),
            tx.price.normalize(),
            fee
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::TxKind;
    use crate::domain::transaction::tests::trade;
    use rust_decimal_macros::dec;

    #[test]
    fn the_same_trade_written_differently_has_one_fingerprint() {
        let a = trade(TxKind::Buy, "2024-01-02", dec!(100), dec!(15.20));
        let mut b = trade(TxKind::Buy, "2024-01-02", dec!(100.0), dec!(15.2));
        b.account = "MAIN".into();
        b.note = "another note".into();
        assert_eq!(Fingerprint::of(&a), Fingerprint::of(&b));
        assert_eq!(
            Fingerprint::of(&a).0,
            "main|2024-01-02|SH:600519|BUY|100|15.2|0"
        );
        let mut other_account = a.clone();
        other_account.account = "hk".into();
        assert_ne!(Fingerprint::of(&a), Fingerprint::of(&other_account));
    }
}
