//! Booleans as 0/1 integers on both backends.
//!
//! sqlx's `Any` driver cannot decode SQLite booleans, so every flag column is BIGINT and these
//! two functions are the only place that knows it.

use sqlx::Row;
use sqlx::any::AnyRow;

pub(crate) fn flag(value: bool) -> i64 {
    i64::from(value)
}

pub(crate) fn read_flag(row: &AnyRow, column: &str) -> Result<bool, sqlx::Error> {
    Ok(row.try_get::<i64, _>(column)? != 0)
}
