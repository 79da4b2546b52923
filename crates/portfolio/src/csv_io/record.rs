//! One record given field by field (a form in the web app), read as the one row of a CSV with
//! those columns: the import's own parser, messages, duplicate count and book check, so a
//! trade typed into a form is taken or refused exactly as the same line of a file would be.

use super::columns::Column;
use super::import::{ImportPreview, RowError, preview};
use crate::domain::{Portfolio, Transaction};
use crate::error::FieldError;

/// The columns a record can be given by, each named as the CSV export names it (and so as
/// the problems of [`preview_record`] name their field).
pub const RECORD_FIELDS: [Column; 12] = [
    Column::Date,
    Column::Kind,
    Column::Symbol,
    Column::Market,
    Column::Quantity,
    Column::Price,
    Column::Amount,
    Column::Fee,
    Column::Tax,
    Column::Currency,
    Column::Account,
    Column::Note,
];

/// What writing one record given as `(column, text)` pairs would do, against the records in
/// `existing`: the preview of a one-row file (its line is 2). Columns left out, or given as
/// empty text, are empty cells.
pub fn preview_record(
    portfolio: &Portfolio,
    existing: &[Transaction],
    fields: &[(Column, &str)],
) -> ImportPreview {
    match one_row_csv(fields) {
        Ok(text) => preview(portfolio, existing, &text),
        Err(e) => ImportPreview {
            rows: Vec::new(),
            errors: vec![RowError {
                line: 2,
                problems: vec![FieldError::new(
                    "record",
                    format!("cannot be read: {e}"),
                    "send each field as plain text",
                )],
            }],
            unknown_columns: Vec::new(),
        },
    }
}

/// The header of every column given and the one row of their values, quoted as CSV needs.
fn one_row_csv(fields: &[(Column, &str)]) -> Result<String, csv::Error> {
    let mut out = csv::Writer::from_writer(Vec::new());
    out.write_record(fields.iter().map(|(column, _)| column.canonical()))?;
    out.write_record(fields.iter().map(|(_, value)| value.trim()))?;
    let bytes = out
        .into_inner()
        .map_err(|e| csv::Error::from(e.into_error()))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::csv_io::RowStatus;
    use crate::domain::{Account, TxKind};
    use rust_decimal_macros::dec;

    fn portfolio() -> Portfolio {
        let mut p = Portfolio::new("mine", "CNY".parse().unwrap());
        p.accounts.push(Account {
            name: "main".into(),
            broker: String::new(),
            currency: "CNY".parse().unwrap(),
        });
        p
    }

    #[test]
    fn every_field_is_read_back_as_its_own_column() {
        for column in RECORD_FIELDS {
            assert_eq!(Column::from_header(column.canonical()), Some(column));
        }
    }

    #[test]
    fn a_form_s_trade_is_read_as_a_csv_line_is() {
        let p = portfolio();
        let buy = [
            (Column::Date, "2024/1/2"),
            (Column::Kind, "买入"),
            (Column::Symbol, "600519"),
            (Column::Quantity, "10"),
            (Column::Price, "1,500.00"),
            (Column::Note, "first, \"quoted\""),
        ];
        let plan = preview_record(&p, &[], &buy);
        assert!(plan.errors.is_empty(), "{}", plan.error_report());
        let tx = &plan.rows[0].transaction;
        assert_eq!(
            (tx.kind, tx.quantity, tx.price),
            (TxKind::Buy, dec!(10), dec!(1500))
        );
        assert_eq!(tx.note, "first, \"quoted\"");
        assert_eq!(
            tx.instrument.as_ref().map(|i| i.key()).as_deref(),
            Some("SH:600519")
        );
        // The same trade again is a duplicate, as in a file imported twice.
        let again = preview_record(&p, std::slice::from_ref(tx), &buy);
        assert_eq!(again.rows[0].status, RowStatus::Duplicate);
    }

    #[test]
    fn every_problem_names_its_field_and_a_sale_of_nothing_is_refused() {
        let p = portfolio();
        let bad = [
            (Column::Date, "2024-13-01"),
            (Column::Kind, "BUY"),
            (Column::Symbol, "600519"),
            (Column::Quantity, "ten"),
            (Column::Price, ""),
        ];
        let plan = preview_record(&p, &[], &bad);
        let fields: Vec<&str> = plan.errors[0]
            .problems
            .iter()
            .map(|e| e.field.as_str())
            .collect();
        assert!(
            fields.contains(&"date") && fields.contains(&"quantity"),
            "{fields:?}"
        );
        assert!(fields.contains(&"price"), "{fields:?}");
        let sale = [
            (Column::Date, "2024-01-02"),
            (Column::Kind, "SELL"),
            (Column::Symbol, "600519"),
            (Column::Quantity, "10"),
            (Column::Price, "1500"),
        ];
        let plan = preview_record(&p, &[], &sale);
        assert_eq!(plan.errors.len(), 1, "{}", plan.error_report());
        assert_eq!(plan.errors[0].line, 2);
    }
}
