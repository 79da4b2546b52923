//! Transactions out, as CSV (the import's own columns, so an export imports back unchanged)
//! and as JSON (the records as they are, for other programs).

use nofxi_domain::validation::{json_without_raw_controls, shown_text};

use super::columns::Column;
use crate::domain::Transaction;
use crate::error::PortfolioError;

const COLUMNS: [Column; 13] = [
    Column::Date,
    Column::Kind,
    Column::Account,
    Column::Market,
    Column::Symbol,
    Column::Quantity,
    Column::Price,
    Column::Amount,
    Column::Fee,
    Column::Tax,
    Column::Currency,
    Column::Note,
    Column::Lots,
];

/// CSV with a header row; a fee not given is left empty (to be computed), never written as 0.
/// Text is written as stored, but for a control character a record stored before notes were
/// checked may hold: it goes out as its escape (`\u{1b}`), since an export is often read on a
/// terminal, which such a character retitles or clears.
pub fn to_csv(transactions: &[Transaction]) -> Result<String, PortfolioError> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    let failed = |e: csv::Error| {
        PortfolioError::one(
            "export",
            format!("CSV writing failed: {e}"),
            "report this as a bug",
        )
    };
    writer
        .write_record(COLUMNS.iter().map(|c| c.canonical()))
        .map_err(failed)?;
    for tx in transactions {
        let number = |d: rust_decimal::Decimal| {
            if d.is_zero() {
                String::new()
            } else {
                d.normalize().to_string()
            }
        };
        let row = [
            tx.date.to_string(),
            tx.kind.to_string(),
            shown_text(&tx.account).into_owned(),
            tx.instrument
                .as_ref()
                .map(|i| i.market.to_string())
                .unwrap_or_default(),
            tx.instrument
                .as_ref()
                .map(|i| shown_text(&i.symbol).into_owned())
                .unwrap_or_default(),
            number(tx.quantity),
            number(tx.price),
            number(tx.amount),
            tx.fee
                .map(|f| f.normalize().to_string())
                .unwrap_or_default(),
            number(tx.tax),
            tx.currency.to_string(),
            shown_text(&tx.note).into_owned(),
            tx.lots
                .iter()
                .map(|p| format!("{}:{}", shown_text(&p.lot), p.quantity.normalize()))
                .collect::<Vec<_>>()
                .join(";"),
        ];
        writer.write_record(&row).map_err(failed)?;
    }
    let bytes = writer.into_inner().map_err(|e| {
        PortfolioError::one(
            "export",
            format!("CSV writing failed: {e}"),
            "report this as a bug",
        )
    })?;
    String::from_utf8(bytes).map_err(|e| {
        PortfolioError::one(
            "export",
            format!("CSV is not UTF-8: {e}"),
            "report this as a bug",
        )
    })
}

/// Pretty-printed JSON array of the records, amounts as strings (exact decimals), with no
/// control character raw (JSON's own escapes, so the data reads back unchanged).
pub fn to_json(transactions: &[Transaction]) -> Result<String, PortfolioError> {
    serde_json::to_string_pretty(transactions)
        .map(json_without_raw_controls)
        .map_err(|e| {
            PortfolioError::one(
                "export",
                format!("JSON writing failed: {e}"),
                "report this as a bug",
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::csv_io::{RowStatus, preview};
    use crate::domain::{Account, Portfolio};

    const FILE: &str = "date,type,symbol,quantity,price,fee,account,amount,tax,note,lots\n\
                        2024-01-02,BUY,600519,100,1500,5,main,,,,\n\
                        2024-01-03,SELL,600519,40,1600,,main,,,\"partly, \"\"first\"\"\",\n\
                        2024-01-04,DIVIDEND,600519,,,,main,300,30,,\n\
                        2024-01-05,DEPOSIT,,,,,main,10000,,,\n";

    #[test]
    fn an_export_imports_back_as_the_same_records() {
        let mut p = Portfolio::new("mine", "CNY".parse().unwrap());
        p.accounts.push(Account {
            name: "main".into(),
            broker: String::new(),
            currency: "CNY".parse().unwrap(),
        });
        let first = preview(&p, &[], FILE);
        assert_eq!(first.error_report(), "");
        let records: Vec<_> = first.rows.iter().map(|r| r.transaction.clone()).collect();
        let csv = to_csv(&records).unwrap();
        assert!(csv.starts_with(
            "date,type,account,market,symbol,quantity,price,amount,fee,tax,currency,note,lots\n"
        ));
        assert!(
            csv.contains(
                "2024-01-03,SELL,main,SH,600519,40,1600,,,,CNY,\"partly, \"\"first\"\"\",\n"
            ),
            "{csv}"
        );
        let again = preview(&p, &[], &csv);
        let back: Vec<_> = again.rows.iter().map(|r| r.transaction.clone()).collect();
        assert_eq!(back, records);
        // And against the originals, every row is a duplicate.
        let dup = preview(&p, &records, &csv);
        assert!(dup.rows.iter().all(|r| r.status == RowStatus::Duplicate));
    }

    #[test]
    fn json_keeps_decimals_exact_and_a_missing_fee_null() {
        let mut p = Portfolio::new("mine", "CNY".parse().unwrap());
        p.accounts.push(Account {
            name: "main".into(),
            broker: String::new(),
            currency: "CNY".parse().unwrap(),
        });
        let records: Vec<_> = preview(&p, &[], FILE)
            .rows
            .into_iter()
            .map(|r| r.transaction)
            .collect();
        let json = to_json(&records).unwrap();
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(value[0]["price"], "1500");
        assert_eq!(value[1]["fee"], serde_json::Value::Null);
        assert_eq!(value[0]["instrument"]["market"], "SH");
        let back: Vec<Transaction> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, records);
    }

    /// Records stored before notes were checked may hold control characters: an export to a
    /// terminal wrote them raw and so retitled and cleared it. Every control character a text
    /// may not hold is written as its escape, in CSV and in JSON alike.
    #[test]
    fn an_export_writes_no_control_character_raw() {
        let mut p = Portfolio::new("mine", "CNY".parse().unwrap());
        p.accounts.push(Account {
            name: "main".into(),
            broker: String::new(),
            currency: "CNY".parse().unwrap(),
        });
        let mut records: Vec<_> = preview(&p, &[], FILE)
            .rows
            .into_iter()
            .map(|r| r.transaction)
            .collect();
        records[0].note = "hi\u{1b}]0;pwned\u{7}there\u{1b}[2J\u{9b}31m\u{7f}".into();
        records[1].note = "tab\there\r\nnext".into();
        for out in [to_csv(&records).unwrap(), to_json(&records).unwrap()] {
            let raw: Vec<char> = out
                .chars()
                .filter(|&c| c.is_control() && !matches!(c, '\n' | '\t' | '\r'))
                .collect();
            assert!(raw.is_empty(), "{raw:?} in {out}");
        }
        let csv = to_csv(&records).unwrap();
        assert!(csv.contains("hi\\u{1b}]0;pwned\\u{7}there"), "{csv}");
        assert!(csv.contains("\"tab\there\r\nnext\""), "{csv}");
        let json = to_json(&records).unwrap();
        let back: Vec<Transaction> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, records, "JSON escapes keep the data as it is");
    }
}
