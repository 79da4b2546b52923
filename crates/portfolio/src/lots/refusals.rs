//! Which new records the book cannot take: replayed after what is stored, in date order, a
//! record the ledger refuses (a sale of more than is held on its date, a lot that does not
//! exist, a fee the schedule cannot charge) is refused with its reason. A new record that
//! makes a stored one fail (a back-dated sale that leaves a later sale short) is refused for
//! it. The import and the chat ask this before writing, so nothing that breaks every later
//! valuation is ever stored.

use crate::domain::{Portfolio, Transaction};
use crate::error::PortfolioError;
use crate::fees::{FeeSchedules, fill_fees};
use crate::lots::{Ledger, date_order};

/// Every new record refused, by its index in `new`, with why. A refused record is left out
/// and the replay goes on, so all of them are found at once.
pub fn refusals(
    portfolio: &Portfolio,
    existing: &[Transaction],
    new: &[Transaction],
) -> Vec<(usize, PortfolioError)> {
    let Ok(schedules) = FeeSchedules::embedded() else {
        return Vec::new();
    };
    let stored = existing.len();
    let mut records: Vec<Transaction> = existing.iter().chain(new).cloned().collect();
    let mut out: Vec<(usize, PortfolioError)> = Vec::new();
    let mut skip = vec![false; records.len()];
    for (i, tx) in records.iter_mut().enumerate() {
        if let Err(e) = fill_fees(&schedules, std::slice::from_mut(tx)) {
            skip[i] = true;
            if i >= stored {
                out.push((i - stored, unlocated(e)));
            }
        }
    }
    let mut ledger = Ledger::start(portfolio);
    // The last new record replayed for each holding: what a stored record failing after it
    // is refused for.
    let mut last_new: Vec<(String, Option<String>, usize)> = Vec::new();
    for i in date_order(&records) {
        if skip[i] {
            continue;
        }
        let tx = &records[i];
        let holding = (tx.account.clone(), tx.instrument.as_ref().map(|x| x.key()));
        match ledger.record(portfolio, i, tx) {
            Ok(()) if i >= stored => {
                last_new.retain(|(a, x, _)| (a, x) != (&holding.0, &holding.1));
                last_new.push((holding.0, holding.1, i - stored));
            }
            Ok(()) => {}
            Err(e) if i >= stored => out.push((i - stored, unlocated(e))),
            Err(e) => {
                let blamed = last_new
                    .iter()
                    .find(|(a, x, _)| (a, x) == (&holding.0, &holding.1))
                    .map(|(_, _, n)| *n);
                if let Some(n) = blamed {
                    out.push((n, unlocated(e)));
                }
            }
        }
    }
    out.sort_by_key(|(n, _)| *n);
    out
}

/// A problem named by its field alone (`quantity`, not `transactions[7].quantity`): the
/// caller says which record.
fn unlocated(e: PortfolioError) -> PortfolioError {
    PortfolioError(
        e.0.into_iter()
            .map(|mut p| {
                if let Some((_, field)) = p.field.split_once("].") {
                    p.field = field.to_string();
                }
                p
            })
            .collect(),
    )
}
