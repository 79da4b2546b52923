//! Rows that parse but that the book cannot take ([`crate::lots::refusals`]), refused by line
//! at import instead of making every later `show`, `lots` and `perf` fail.

use crate::csv_io::import::{PreviewRow, RowError, RowStatus};
use crate::domain::{Portfolio, Transaction};
use crate::lots::refusals;

/// Every new row the replay refuses, by its line.
pub(super) fn refused(
    portfolio: &Portfolio,
    existing: &[Transaction],
    rows: &[PreviewRow],
) -> Vec<RowError> {
    let new: Vec<&PreviewRow> = rows.iter().filter(|r| r.status == RowStatus::New).collect();
    let records: Vec<Transaction> = new.iter().map(|r| r.transaction.clone()).collect();
    refusals(portfolio, existing, &records)
        .into_iter()
        .map(|(n, e)| RowError {
            line: new[n].line,
            problems: e.0,
        })
        .collect()
}
