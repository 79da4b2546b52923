//! CSV import and export of transactions.
//!
//! Import is two steps so nothing is written by surprise: [`preview`] reads a file against
//! the portfolio and what is already recorded, and says row by row what would be written, what
//! is a duplicate, and what is wrong (by line number); [`commit`] writes the new rows only if no
//! row was wrong. Re-importing a file writes nothing the second time.
//!
//! Text comes in decoded: a GBK export from a Chinese broker is the caller's to decode.

mod columns;
mod export;
mod fingerprint;
mod import;
mod record;
mod row;
mod symbol;

pub use columns::Column;
pub use export::{to_csv, to_json};
pub use fingerprint::Fingerprint;
pub use import::{ImportPreview, PreviewRow, RowError, RowStatus, commit, preview};
pub use record::{RECORD_FIELDS, preview_record};
pub use symbol::{code, instrument};
