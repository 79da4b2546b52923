//! Preview, then commit: an import that says what it will do before doing it.
//!
//! Duplicates are counted, not merely matched: if the store already holds two records with a
//! fingerprint and the file has three rows with it, the first two rows are duplicates and the
//! third is new. So a file imported twice writes once, while two genuinely identical fills on
//! one day (common on A-shares) are both kept the first time.
//!
//! Records are stored as given: a row without a fee keeps `fee: None`, and fees are computed
//! on a working copy when figures are needed (`fees::fill_fees`). Storing the computed fee would
//! change the record's fingerprint, and the same file would then import again.

use std::collections::HashMap;

use serde::Serialize;

use super::columns::HeaderMap;
use super::fingerprint::Fingerprint;
use super::row::{Cells, parse_row};
use crate::domain::{Portfolio, Transaction};
use crate::error::{FieldError, PortfolioError};

/// Whether a row would be written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RowStatus {
    New,
    /// Already recorded (or as many times as the file repeats it).
    Duplicate,
}

/// A good row and what would happen to it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct PreviewRow {
    /// The row's line in the file (the header is line 1).
    pub line: u64,
    pub status: RowStatus,
    pub fingerprint: Fingerprint,
    pub transaction: Transaction,
}

/// Everything wrong with one line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct RowError {
    pub line: u64,
    pub problems: Vec<FieldError>,
}

/// What an import would do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ImportPreview {
    pub rows: Vec<PreviewRow>,
    pub errors: Vec<RowError>,
    /// Headers that were not understood and so not read.
    pub unknown_columns: Vec<String>,
}

impl ImportPreview {
    pub fn new_rows(&self) -> impl Iterator<Item = &PreviewRow> {
        self.rows.iter().filter(|r| r.status == RowStatus::New)
    }

    pub fn duplicates(&self) -> impl Iterator<Item = &PreviewRow> {
        self.rows
            .iter()
            .filter(|r| r.status == RowStatus::Duplicate)
    }

    /// The per-row report: one line per problem, `line N: field: problem; fix`.
    pub fn error_report(&self) -> String {
        self.errors
            .iter()
            .flat_map(|e| {
                e.problems
                    .iter()
                    .map(move |p| format!("line {}: {p}", e.line))
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// Reads `text` as a CSV of transactions for `portfolio`, against the records in `existing`.
pub fn preview(portfolio: &Portfolio, existing: &[Transaction], text: &str) -> ImportPreview {
    let text = text.trim_start_matches('\u{feff}');
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .flexible(true)
        .delimiter(sniff_delimiter(text))
        .from_reader(text.as_bytes());
    let mut result = ImportPreview {
        rows: Vec::new(),
        errors: Vec::new(),
        unknown_columns: Vec::new(),
    };
    let map = match reader.headers() {
        Ok(headers) => HeaderMap::read(&headers.iter().collect::<Vec<_>>()),
        Err(e) => Err(vec![FieldError::new(
            "header",
            format!("cannot be read: {e}"),
            "save the file as CSV (UTF-8)",
        )]),
    };
    let map = match map {
        Ok(map) => map,
        Err(problems) => {
            result.errors.push(RowError { line: 1, problems });
            return result;
        }
    };
    result.unknown_columns = map.unknown.clone();
    let today = jiff::ZonedDateTime::now().date();
    let mut parsed = Vec::new();
    let mut lines = LineCounter::new(text);
    for record in reader.records() {
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                let line = e
                    .position()
                    .map(|p| lines.line_of(p.byte()))
                    .unwrap_or_default();
                result.errors.push(RowError {
                    line,
                    problems: vec![FieldError::new(
                        "row",
                        format!("cannot be read: {e}"),
                        "fix the quoting of this line",
                    )],
                });
                continue;
            }
        };
        let line = record
            .position()
            .map(|p| lines.line_of(p.byte()))
            .unwrap_or_default();
        if record.iter().all(|cell| cell.trim().is_empty()) {
            continue;
        }
        match parse_row(
            &Cells {
                map: &map,
                record: &record,
            },
            portfolio,
        ) {
            // A record is of a trade already made: a later date is a typo (2062 for 2026).
            Ok(tx) if tx.date > today => result.errors.push(RowError {
                line,
                problems: vec![FieldError::new(
                    "date",
                    format!("{} is after today ({today})", tx.date),
                    "a record is of a trade already made: fix the date",
                )],
            }),
            Ok(tx) => parsed.push((line, tx)),
            Err(problems) => result.errors.push(RowError { line, problems }),
        }
    }
    result.rows = classify(existing, parsed);
    if result.errors.is_empty() {
        result.errors = replayed::refused(portfolio, existing, &result.rows);
    }
    result
}

/// Writes the new rows of `preview` into `store`, all or nothing: any row error refuses the
/// whole file. Duplicates are counted again against the store as it is now, so committing
/// the same preview twice writes once. Returns how many records were written.
pub fn commit(
    preview: &ImportPreview,
    store: &mut Vec<Transaction>,
) -> Result<usize, PortfolioError> {
    if !preview.errors.is_empty() {
        let problems = preview
            .errors
            .iter()
            .flat_map(|e| {
                e.problems.iter().map(move |p| FieldError {
                    field: format!("line {}: {}", e.line, p.field),
                    problem: p.problem.clone(),
                    fix: p.fix.clone(),
                })
            })
            .collect();
        return Err(PortfolioError(problems));
    }
    let rows = preview
        .rows
        .iter()
        .map(|r| (r.line, r.transaction.clone()))
        .collect();
    let fresh: Vec<Transaction> = classify(store, rows)
        .into_iter()
        .filter(|r| r.status == RowStatus::New)
        .map(|r| r.transaction)
        .collect();
    let written = fresh.len();
    store.extend(fresh);
    Ok(written)
}

/// Marks rows as new or duplicate by counting fingerprints (see the module's comment).
fn classify(existing: &[Transaction], rows: Vec<(u64, Transaction)>) -> Vec<PreviewRow> {
    let mut recorded: HashMap<Fingerprint, usize> = HashMap::new();
    for tx in existing {
        *recorded.entry(Fingerprint::of(tx)).or_default() += 1;
    }
    let mut seen: HashMap<Fingerprint, usize> = HashMap::new();
    rows.into_iter()
        .map(|(line, transaction)| {
            let fingerprint = Fingerprint::of(&transaction);
            let n = seen.entry(fingerprint.clone()).or_default();
            *n += 1;
            let status = if *n <= recorded.get(&fingerprint).copied().unwrap_or_default() {
                RowStatus::Duplicate
            } else {
                RowStatus::New
            };
            PreviewRow {
                line,
                status,
                fingerprint,
                transaction,
            }
        })
        .collect()
}

/// The 1-based line a record starting near `byte` is on. The csv crate's own line numbers do
/// not count blank lines and are one short after CRLF line ends, and its byte offset can point
/// at the end of the line before, so the offset is moved past line ends first and the line is
/// counted here. Records come in file order, so the count goes on from the last record's place:
/// counting from the start each time made a 50,000-row import take minutes.
struct LineCounter<'a> {
    bytes: &'a [u8],
    at: usize,
    newlines: usize,
}

impl<'a> LineCounter<'a> {
    fn new(text: &'a str) -> Self {
        Self {
            bytes: text.as_bytes(),
            at: 0,
            newlines: 0,
        }
    }

    fn line_of(&mut self, byte: u64) -> u64 {
        let bytes = self.bytes;
        let mut start = usize::try_from(byte)
            .unwrap_or(bytes.len())
            .min(bytes.len());
        while bytes.get(start).is_some_and(|b| matches!(b, b'\r' | b'\n')) {
            start += 1;
        }
        if start < self.at {
            (self.at, self.newlines) = (0, 0);
        }
        self.newlines += bytes[self.at..start]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        self.at = start;
        u64::try_from(self.newlines)
            .unwrap_or(u64::MAX)
            .saturating_add(1)
    }
}

/// Comma unless the header line holds more semicolons or tabs (European and Excel exports).
fn sniff_delimiter(text: &str) -> u8 {
    let header = text.lines().next().unwrap_or_default();
    [b',', b';', b'\t']
        .into_iter()
        .max_by_key(|&d| (header.matches(d as char).count(), d == b','))
        .unwrap_or(b',')
}

mod replayed;
#[cfg(test)]
mod tests;
