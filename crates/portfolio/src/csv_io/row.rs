//! One CSV row into one transaction, or every problem of that row.
//!
//! Lenient where exports differ harmlessly (date separators, thousands separators, a currency
//! sign before a number, a sell written as a negative quantity, `sh600519` or `00700.HK` for a
//! code), strict where a guess could book the wrong trade: an unknown type, an unknown account,
//! a code whose market cannot be told, a sign that says the opposite of the type (a BUY of
//! −100) all stop the row.

use jiff::civil::Date;
use nofxi_domain::validation::shown_input;
use rust_decimal::Decimal;

use super::columns::{Column, HeaderMap};
use super::symbol::instrument;
use crate::domain::transaction::note_problem;
use crate::domain::{Currency, LotPick, Market, Portfolio, Transaction, TxKind};
use crate::error::FieldError;

/// Type words accepted besides the canonical names (`BUY`, `TRANSFER_IN`…), folded to lower case.
const KIND_WORDS: &[(TxKind, &[&str])] = &[
    (
        TxKind::Buy,
        &["b", "bought", "purchase", "买", "买入", "证券买入"],
    ),
    (TxKind::Sell, &["s", "sold", "卖", "卖出", "证券卖出"]),
    (
        TxKind::Dividend,
        &[
            "div",
            "dividends",
            "分红",
            "红利",
            "股息",
            "红利入账",
            "股息入账",
        ],
    ),
    (TxKind::Fee, &["fees", "charge", "费用", "扣费"]),
    (TxKind::Interest, &["利息", "利息归本"]),
    (TxKind::Split, &["拆股", "拆分"]),
    (TxKind::TransferIn, &["transferin", "转入", "转托管转入"]),
    (TxKind::TransferOut, &["transferout", "转出", "转托管转出"]),
    (TxKind::Deposit, &["入金", "存入", "银行转证券", "银证转入"]),
    (
        TxKind::Withdrawal,
        &["withdraw", "出金", "取出", "证券转银行", "银证转出"],
    ),
];

/// The cells of one row, by column.
pub(crate) struct Cells<'a> {
    pub map: &'a HeaderMap,
    pub record: &'a csv::StringRecord,
}

impl Cells<'_> {
    /// Every non-empty cell of a column that may repeat.
    fn all(&self, column: Column) -> impl Iterator<Item = &str> {
        self.map
            .positions(column)
            .filter_map(|i| self.record.get(i))
            .map(str::trim)
            .filter(|s| !s.is_empty())
    }

    fn get(&self, column: Column) -> Option<&str> {
        self.map
            .position(column)
            .and_then(|i| self.record.get(i))
            .map(str::trim)
            .filter(|s| !s.is_empty())
    }
}

/// Parses a row for `portfolio`; every problem of the row at once.
pub(crate) fn parse_row(
    cells: &Cells<'_>,
    portfolio: &Portfolio,
) -> Result<Transaction, Vec<FieldError>> {
    let mut problems = Vec::new();
    let date = required(cells, Column::Date, &mut problems)
        .and_then(|t| record(parse_date(t), &mut problems));
    let kind = required(cells, Column::Kind, &mut problems)
        .and_then(|t| record(parse_kind(t), &mut problems));
    if let Some(kind) = kind {
        problems.extend(missing(cells, kind));
    }
    // Each number's size, its sign read against the type (see [`size`]).
    let mut number = |column: Column| {
        cells.get(column).and_then(|t| {
            let signed = parse_number(column, t);
            record(signed.and_then(|n| size(column, n, t, kind)), &mut problems)
        })
    };
    let quantity = number(Column::Quantity);
    let price = number(Column::Price);
    let amount = number(Column::Amount);
    let fee = number(Column::Fee);
    let tax = number(Column::Tax);
    // 印花税, 过户费 beside 佣金: every part given is added to the fee.
    let parts: Vec<Decimal> = cells
        .all(Column::FeePart)
        .filter_map(|t| {
            let signed = parse_number(Column::Fee, t);
            record(
                signed.and_then(|n| size(Column::Fee, n, t, kind)),
                &mut problems,
            )
        })
        .collect();
    let fee = match (fee, parts.is_empty()) {
        (fee, true) => fee,
        (fee, false) => Some(fee.unwrap_or_default() + parts.iter().sum::<Decimal>()),
    };

    let account = match cells.get(Column::Account) {
        Some(name) => match portfolio.account(name) {
            Some(a) => Some(a),
            None => {
                problems.push(unknown_account(
                    portfolio,
                    &format!(
                        "`{}` is not an account of {}",
                        shown_input(name),
                        shown_input(&portfolio.name)
                    ),
                ));
                None
            }
        },
        None if portfolio.accounts.len() == 1 => portfolio.accounts.first(),
        None => {
            problems.push(unknown_account(
                portfolio,
                "no account given and the portfolio has several",
            ));
            None
        }
    };
    let currency = cells
        .get(Column::Currency)
        .and_then(|t| record(t.parse::<Currency>(), &mut problems));
    let market = cells
        .get(Column::Market)
        .and_then(|t| record(t.parse::<Market>(), &mut problems));
    let instrument = cells
        .get(Column::Symbol)
        .and_then(|symbol| record(instrument(symbol, market, currency.as_ref()), &mut problems));
    let lots = cells
        .get(Column::Lots)
        .and_then(|t| record(parse_lots(t), &mut problems))
        .unwrap_or_default();
    let note = cells.get(Column::Note).unwrap_or_default();
    problems.extend(note_problem(note));

    let (Some(date), Some(kind), Some(account)) = (date, kind, account) else {
        return Err(problems);
    };
    if !problems.is_empty() {
        return Err(problems);
    }
    // A cash row may give its amount as quantity × price (Ghostfolio writes dividends so) or
    // as a bare price.
    let amount = match (kind.is_cash(), amount, quantity, price) {
        (_, Some(a), _, _) => a,
        (true, None, Some(q), Some(p)) => q * p,
        (true, None, None, Some(p)) => p,
        _ => Decimal::ZERO,
    };
    let is_cash_only = kind.is_cash() && kind != TxKind::Dividend;
    let currency = currency
        .or_else(|| instrument.as_ref().map(|i| i.currency.clone()))
        .unwrap_or_else(|| account.currency.clone());
    let tx = Transaction {
        account: account.name.clone(),
        date,
        kind,
        instrument: if is_cash_only { None } else { instrument },
        quantity: if kind.is_cash() {
            Decimal::ZERO
        } else {
            quantity.unwrap_or_default()
        },
        price: if kind.is_cash() {
            Decimal::ZERO
        } else {
            price.unwrap_or_default()
        },
        amount,
        fee,
        tax: tax.unwrap_or_default(),
        currency,
        note: note.to_string(),
        lots,
    };
    tx.validate().map_err(|e| e.0)?;
    Ok(tx)
}

/// The size of a number read from `column`, its sign taken as a direction: exports write what
/// leaves the account as negative (a sale's units, a withdrawal, a fee paid), and where the
/// type says the same the sign adds nothing and is dropped. Where the type says the opposite
/// (a BUY of −100, a DEPOSIT of −5000, interest charged written as INTEREST) the row is
/// refused: dropping the sign would book the opposite of what the file says. A price has no
/// direction and is never negative. With the type unknown (its own problem is said) no sign
/// is judged.
fn size(
    column: Column,
    value: Decimal,
    text: &str,
    kind: Option<TxKind>,
) -> Result<Decimal, FieldError> {
    if value >= Decimal::ZERO {
        return Ok(value);
    }
    let said = format!("`{}` is negative", shown_input(text.trim()));
    if column == Column::Price {
        return Err(FieldError::new(
            "price",
            said,
            "give the price per unit, 0 or more",
        ));
    }
    let Some(kind) = kind else {
        return Ok(value.abs());
    };
    let field = column.canonical();
    match column {
        // Money paid is money out however it is written.
        Column::Fee | Column::FeePart | Column::Tax => Ok(value.abs()),
        // A trade's amount is its gross value or its cash flow: exports write either.
        Column::Amount if !kind.is_cash() => Ok(value.abs()),
        // Cash records: an amount, or a dividend's units × rate.
        _ if matches!(kind, TxKind::Withdrawal | TxKind::Fee) => Ok(value.abs()),
        _ if kind.is_cash() => Err(FieldError::new(
            field,
            format!("{said}, but a {kind} brings money in"),
            "give the amount as a positive number (the type says the direction: money taken \
             out is WITHDRAWAL, a charge or interest paid is FEE)",
        )),
        _ if matches!(kind, TxKind::Sell | TxKind::TransferOut) => Ok(value.abs()),
        _ if kind == TxKind::Split => Err(FieldError::new(
            field,
            format!("{said}, but a SPLIT's quantity is a ratio"),
            "give the ratio of new units per old unit, e.g. 2 for a 2-for-1 split",
        )),
        _ => Err(FieldError::new(
            field,
            format!("{said}, but a {kind} adds units"),
            "give the number of units as a positive number (the type says the direction: a \
             sale is SELL)",
        )),
    }
}

fn record<T>(result: Result<T, FieldError>, problems: &mut Vec<FieldError>) -> Option<T> {
    result.map_err(|e| problems.push(e)).ok()
}

fn required<'a>(
    cells: &'a Cells<'_>,
    column: Column,
    problems: &mut Vec<FieldError>,
) -> Option<&'a str> {
    let value = cells.get(column);
    if value.is_none() {
        problems.push(FieldError::new(
            column.canonical(),
            "is empty",
            format!("fill in the {}", column.canonical()),
        ));
    }
    value
}

/// The columns a row of `kind` cannot do without, each with what to fill in. An empty cell is
/// a value not given, never a 0: a BUY whose price was left out was booked at 0 and valued the
/// holding at nothing. A cash row's amount may come as units × rate or a bare price instead
/// (see [`parse_row`]), so a price stands in for it.
fn missing(cells: &Cells<'_>, kind: TxKind) -> Vec<FieldError> {
    const SYMBOL: (Column, &str) = (Column::Symbol, "the security's code");
    const UNITS: (Column, &str) = (Column::Quantity, "the number of units");
    const PRICE: (Column, &str) = (Column::Price, "the price per unit");
    const AMOUNT: (Column, &str) = (Column::Amount, "the cash amount");
    let needed: &[(Column, &str)] = match kind {
        TxKind::Buy | TxKind::Sell | TxKind::TransferIn => &[SYMBOL, UNITS, PRICE],
        TxKind::TransferOut => &[SYMBOL, UNITS],
        TxKind::Split => &[
            SYMBOL,
            (Column::Quantity, "the ratio of new units per old unit"),
        ],
        TxKind::Dividend => &[SYMBOL, AMOUNT],
        TxKind::Deposit | TxKind::Withdrawal | TxKind::Fee | TxKind::Interest => &[AMOUNT],
    };
    let given = |column: Column| {
        cells.get(column).is_some()
            || (column == Column::Amount && cells.get(Column::Price).is_some())
    };
    needed
        .iter()
        .filter(|(column, _)| !given(*column))
        .map(|(column, what)| {
            FieldError::new(
                column.canonical(),
                format!("is empty, but a {kind} needs it"),
                format!("fill in {what}"),
            )
        })
        .collect()
}

fn unknown_account(portfolio: &Portfolio, problem: &str) -> FieldError {
    let names: Vec<_> = portfolio.accounts.iter().map(|a| a.name.as_str()).collect();
    FieldError::new(
        "account",
        problem,
        if names.is_empty() {
            "add an account to the portfolio first".to_string()
        } else {
            format!("use one of: {}", names.join(", "))
        },
    )
}

/// `2024-01-02`, `2024/1/2`, `20240102`, or any of these followed by a time.
fn parse_date(text: &str) -> Result<Date, FieldError> {
    let day = text.split([' ', 'T']).next().unwrap_or(text);
    let normalised = if day.len() == 8 && day.chars().all(|c| c.is_ascii_digit()) {
        format!("{}-{}-{}", &day[..4], &day[4..6], &day[6..])
    } else {
        let parts: Vec<&str> = day.split(['-', '/', '.']).collect();
        match parts.as_slice() {
            [y, m, d] => format!("{y}-{m:0>2}-{d:0>2}"),
            _ => day.to_string(),
        }
    };
    normalised.parse().map_err(|_| {
        FieldError::new(
            "date",
            format!("`{}` is not a date", shown_input(text)),
            "write it as YYYY-MM-DD (or YYYY/MM/DD, YYYYMMDD)",
        )
    })
}

fn parse_kind(text: &str) -> Result<TxKind, FieldError> {
    if let Ok(kind) = text.parse::<TxKind>() {
        return Ok(kind);
    }
    let folded: String = text
        .trim()
        .chars()
        .filter(|c| !matches!(c, ' ' | '_' | '-'))
        .flat_map(char::to_lowercase)
        .collect();
    KIND_WORDS
        .iter()
        .find(|(_, words)| words.contains(&folded.as_str()))
        .map(|(kind, _)| *kind)
        .ok_or_else(|| {
            FieldError::new(
                "type",
                format!("`{}` is not a transaction type", shown_input(text.trim())),
                "use BUY, SELL, DIVIDEND, FEE, INTEREST, SPLIT, TRANSFER_IN, TRANSFER_OUT, DEPOSIT or \
                 WITHDRAWAL (or 买入, 卖出, 分红…)",
            )
        })
}

/// A number with thousands separators or a currency sign tolerated; never a float parse.
fn parse_number(column: Column, text: &str) -> Result<Decimal, FieldError> {
    let cleaned: String = text
        .trim()
        .trim_start_matches(['¥', '￥', '$'])
        .trim_start_matches("HK$")
        .chars()
        .filter(|c| !matches!(c, ',' | '_' | ' '))
        .collect();
    cleaned
        .parse::<Decimal>()
        .or_else(|_| Decimal::from_scientific(&cleaned))
        .map_err(|_| {
            FieldError::new(
                column.canonical(),
                format!("`{}` is not a number", shown_input(text)),
                "write a plain number such as 1234.56",
            )
        })
}

/// `L1:100;L3:50`.
fn parse_lots(text: &str) -> Result<Vec<LotPick>, FieldError> {
    text.split(';')
        .filter(|p| !p.trim().is_empty())
        .map(|part| {
            let (lot, quantity) = part.split_once(':').unwrap_or((part, ""));
            let quantity = quantity.trim().parse::<Decimal>().map_err(|_| {
                FieldError::new(
                    "lots",
                    format!("`{}` is not lot:quantity", shown_input(part)),
                    "write lots as L1:100;L3:50",
                )
            })?;
            Ok(LotPick {
                lot: lot.trim().to_string(),
                quantity,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal_macros::dec;

    #[test]
    fn dates_numbers_and_types_as_exports_write_them() {
        assert_eq!(
            parse_date("2024/1/2").unwrap(),
            jiff::civil::date(2024, 1, 2)
        );
        assert_eq!(
            parse_date("20240102").unwrap(),
            jiff::civil::date(2024, 1, 2)
        );
        assert_eq!(
            parse_date("2024-01-02 09:31:00").unwrap(),
            jiff::civil::date(2024, 1, 2)
        );
        assert_eq!(parse_date("02/01/2024").unwrap_err().field, "date");
        assert_eq!(
            parse_number(Column::Price, "¥1,234.50").unwrap(),
            dec!(1234.50)
        );
        assert_eq!(parse_number(Column::Price, "HK$300").unwrap(), dec!(300));
        assert_eq!(parse_number(Column::Fee, "five").unwrap_err().field, "fee");
        assert_eq!(parse_kind("证券买入").unwrap(), TxKind::Buy);
        assert_eq!(parse_kind("Transfer In").unwrap(), TxKind::TransferIn);
        assert_eq!(parse_kind("sell").unwrap(), TxKind::Sell);
        assert!(parse_kind("short").is_err());
        assert_eq!(parse_lots("L1:100; L3:50").unwrap().len(), 2);
        assert!(parse_lots("L1").is_err());
    }
}
