//! Rows that parse but that the book cannot take: a sale of more than is held on its date, a
//! specific-lot sale naming no lot, a fee the market's schedule cannot charge. Found at import
//! by replaying what is stored plus the new rows in date order, so they are refused by line
//! now instead of making every later `show`, `lots` and `perf` fail.

use crate::csv_io::import::{PreviewRow, RowError, RowStatus};
use crate::domain::{Portfolio, Transaction};
use crate::fees::{FeeSchedules, fill_fees};
use crate::lots::{Ledger, date_order};

/// Every new row the replay refuses, by its line; a refused row is left out and the replay
/// goes on, so one import reports every such row at once.
pub(super) fn refused(
    portfolio: &Portfolio,
    existing: &[Transaction],
    rows: &[PreviewRow],
) -> Vec<RowError> {
    let Ok(schedules) = FeeSchedules::embedded() else {
        return Vec::new();
    };
    let new: Vec<&PreviewRow> = rows.iter().filter(|r| r.status == RowStatus::New).collect();
    // (line of the row, or none for a stored record; the record with its fee filled in)
    let mut all: Vec<(Option<u64>, Transaction)> = existing
        .iter()
        .map(|t| (None, t.clone()))
        .chain(new.iter().map(|r| (Some(r.line), r.transaction.clone())))
        .collect();
    let mut errors: Vec<RowError> = Vec::new();
    let mut priced: Vec<bool> = Vec::with_capacity(all.len());
    for (line, tx) in &mut all {
        match fill_fees(&schedules, std::slice::from_mut(tx)) {
            Ok(_) => priced.push(true),
            Err(e) => {
                priced.push(false);
                if let Some(line) = line {
                    errors.push(row_error(*line, e));
                }
            }
        }
    }
    let records: Vec<Transaction> = all.iter().map(|(_, t)| t.clone()).collect();
    let mut ledger = Ledger::start(portfolio);
    for i in date_order(&records) {
        if !priced[i] {
            continue;
        }
        if let Err(e) = ledger.record(portfolio, i, &records[i])
            && let Some(line) = all[i].0
        {
            errors.push(row_error(line, e));
        }
    }
    errors.sort_by_key(|e| e.line);
    errors
}

/// The problems of one row, named by their field alone (the line says which row).
fn row_error(line: u64, e: crate::PortfolioError) -> RowError {
    let problems =
        e.0.into_iter()
            .map(|mut p| {
                if let Some((_, field)) = p.field.split_once("].") {
                    p.field = field.to_string();
                }
                p
            })
            .collect();
    RowError { line, problems }
}
