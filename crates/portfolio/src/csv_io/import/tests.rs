use super::*;
use crate::domain::{Account, TxKind};
use rust_decimal_macros::dec;

fn portfolio() -> Portfolio {
    let mut p = Portfolio::new("mine", "CNY".parse().unwrap());
    for (name, ccy) in [("huatai", "CNY"), ("futu", "HKD")] {
        p.accounts.push(Account {
            name: name.into(),
            broker: String::new(),
            currency: ccy.parse().unwrap(),
        });
    }
    p
}

const ENGLISH: &str = "\
Trade Date,Action,Ticker,Shares,Unit Price,Commission,Account,Note,Amount,CCY
2024-01-02,buy,600519,100,1500.00,5,huatai,first,,
2024-01-03,SELL,00700.HK,-200,\"1,300.5\",,futu,,
2024-01-04,deposit,,,,,futu,,\"50,000\",HKD
2024-01-01,buy,00700.HK,300,1200,,futu,,,
";

#[test]
fn english_aliases_are_read() {
    let preview = preview(&portfolio(), &[], ENGLISH);
    assert_eq!(preview.error_report(), "");
    let rows: Vec<_> = preview
        .rows
        .iter()
        .map(|r| {
            (
                r.line,
                r.transaction.kind,
                r.transaction.quantity,
                r.transaction.price,
                r.transaction.fee,
            )
        })
        .collect();
    // The sell's negative quantity is its direction, already given by the type; its empty fee
    // is left to the schedule (None), not taken as 0.
    assert_eq!(
        rows,
        [
            (2, TxKind::Buy, dec!(100), dec!(1500.00), Some(dec!(5))),
            (3, TxKind::Sell, dec!(200), dec!(1300.5), None),
            (4, TxKind::Deposit, dec!(0), dec!(0), None),
            (5, TxKind::Buy, dec!(300), dec!(1200), None),
        ]
    );
    assert_eq!(preview.rows[1].transaction.currency.as_str(), "HKD");
    assert_eq!(preview.rows[0].transaction.note, "first");
    let deposit = &preview.rows[2].transaction;
    assert_eq!(
        (deposit.amount, deposit.instrument.is_none()),
        (dec!(50000), true)
    );
}

#[test]
fn chinese_headers_and_types_are_read() {
    let text = "成交日期,买卖方向,证券代码,成交数量,成交价格,手续费,账户,备注\n\
                2024/01/02,证券买入,600519,100,1500,5.00,huatai,\n\
                20240105,红利入账,600519,,30.876,,huatai,每股派息\n";
    let preview = preview(&portfolio(), &[], text);
    assert_eq!(preview.error_report(), "");
    let dividend = &preview.rows[1].transaction;
    // A dividend given as a bare price is its amount.
    assert_eq!(
        (dividend.kind, dividend.amount),
        (TxKind::Dividend, dec!(30.876))
    );
    assert_eq!(
        preview.rows[0].transaction.date,
        jiff::civil::date(2024, 1, 2)
    );
}

#[test]
fn a_file_imported_twice_writes_once() {
    let text = "date,type,symbol,quantity,price,fee,account\n\
                2024-01-02,BUY,600519,100,1500,5,huatai\n\
                2024-01-02,BUY,600519,100,1500,5,huatai\n\
                2024-01-03,BUY,000001,200,10.5,5,huatai\n";
    let mut store = Vec::new();
    let first = preview(&portfolio(), &store, text);
    assert_eq!(
        first.new_rows().count(),
        3,
        "two identical fills are both kept the first time"
    );
    assert_eq!(commit(&first, &mut store).unwrap(), 3);
    let second = preview(&portfolio(), &store, text);
    assert_eq!(
        (second.new_rows().count(), second.duplicates().count()),
        (0, 3)
    );
    assert_eq!(commit(&second, &mut store).unwrap(), 0);
    // Committing a stale preview again still writes nothing.
    assert_eq!(commit(&first, &mut store).unwrap(), 0);
    assert_eq!(store.len(), 3);
    // The same trade in another account is another trade.
    let other = text
        .replace("huatai", "futu")
        .replace("600519", "00700.HK")
        .replace("000001", "00005.HK");
    assert_eq!(preview(&portfolio(), &store, &other).new_rows().count(), 3);
}

#[test]
fn bad_rows_are_reported_by_line_and_nothing_is_written() {
    let text = "date,type,symbol,quantity,price,fee,account\n\
                2024-01-02,BUY,600519,100,1500,5,huatai\n\
                2024-13-02,BUY,600519,100,1500,5,huatai\n\
                2024-01-03,SHORT,600519,abc,1500,5,nowhere\n\
                \n\
                2024-01-04,SELL,600519,0,1500,5,huatai\n";
    let mut store = Vec::new();
    let preview = preview(&portfolio(), &store, text);
    assert_eq!(
        preview.error_report(),
        "line 3: date: `2024-13-02` is not a date; write it as YYYY-MM-DD (or YYYY/MM/DD, YYYYMMDD)\n\
         line 4: type: `SHORT` is not a transaction type; use BUY, SELL, DIVIDEND, FEE, INTEREST, SPLIT, \
         TRANSFER_IN, TRANSFER_OUT, DEPOSIT or WITHDRAWAL (or 买入, 卖出, 分红…)\n\
         line 4: quantity: `abc` is not a number; write a plain number such as 1234.56\n\
         line 4: account: `nowhere` is not an account of mine; use one of: huatai, futu\n\
         line 6: quantity: must be more than 0, got 0; give the number of units, more than 0 (the type says the direction)"
    );
    assert_eq!(preview.new_rows().count(), 1);
    let err = commit(&preview, &mut store).unwrap_err();
    assert_eq!(err.0[0].field, "line 3: date");
    assert!(store.is_empty(), "nothing half-written");
}

#[test]
fn header_problems_are_said_once_and_semicolons_are_understood() {
    let preview = preview(&portfolio(), &[], "symbol,quantity\n600519,100\n");
    assert_eq!(preview.errors.len(), 1);
    assert_eq!(preview.errors[0].line, 1);
    assert_eq!(
        preview.errors[0].problems.len(),
        2,
        "no date and no type, said once for the file"
    );
    let text = "Date;Type;Symbol;Quantity;Price;Fee;Account;Broker Ref\n2024-01-02;BUY;AAPL;10;190;0;futu;X1\n";
    let preview = super::preview(&portfolio(), &[], text);
    assert_eq!(preview.error_report(), "");
    assert_eq!(preview.rows[0].transaction.currency.as_str(), "USD");
    assert_eq!(preview.unknown_columns, ["Broker Ref"]);
}

#[test]
fn line_numbers_count_blank_lines_crlf_and_quoted_line_breaks() {
    // Line 1 header; line 2 a note with a line break inside quotes (lines 2-3); line 4 blank;
    // line 5 a bad date. CRLF line ends throughout, as Excel writes them.
    let text = "date,type,symbol,quantity,price,fee,account,note\r\n\
                2024-01-02,BUY,600519,100,1500,5,huatai,\"two\r\nlines\"\r\n\
                \r\n\
                2024-02-30,BUY,600519,100,1500,5,huatai,\r\n";
    let preview = preview(&portfolio(), &[], text);
    assert_eq!(preview.rows[0].line, 2);
    assert_eq!(preview.errors[0].line, 5, "{}", preview.error_report());
}

#[test]
fn rows_the_book_cannot_replay_are_refused_by_line_at_import() {
    // Line 3 sells more than line 2 bought; line 4 sells what was never bought; line 5 is
    // fine. Each refusal names its line and field, and nothing is half-accepted.
    let text = "\
date,code,type,quantity,price,fee,account
2024-01-02,600519.SH,BUY,100,1500,5,huatai
2024-01-03,600519.SH,SELL,150,1510,5,huatai
2024-01-04,601838.SH,SELL,10,15,5,huatai
2024-01-05,600519.SH,SELL,50,1520,5,huatai
";
    let preview = preview(&portfolio(), &[], text);
    let lines: Vec<u64> = preview.errors.iter().map(|e| e.line).collect();
    assert_eq!(lines, [3, 4], "{}", preview.error_report());
    assert!(
        preview.error_report().contains("line 3: quantity"),
        "{}",
        preview.error_report()
    );
    // What is stored counts: the same sale is fine once the buy is in the book.
    let stored: Vec<Transaction> = preview.rows[..1]
        .iter()
        .map(|r| r.transaction.clone())
        .collect();
    let later =
        "date,code,type,quantity,price,fee,account\n2024-02-01,600519.SH,SELL,100,1600,5,huatai\n";
    assert_eq!(preview_errors(&stored, later), "");
}

fn preview_errors(existing: &[Transaction], text: &str) -> String {
    preview(&portfolio(), existing, text).error_report()
}

#[test]
fn stamp_duty_and_transfer_fee_columns_add_to_the_fee() {
    let text = "成交日期,买卖方向,证券代码,成交数量,成交价格,佣金,印花税,过户费,账户\n\
                2024-01-02,证券买入,600519,100,1500,5,,1.5,huatai\n\
                2024-01-03,证券卖出,600519,100,1600,5,80,1.6,huatai\n";
    let preview = preview(&portfolio(), &[], text);
    assert_eq!(preview.error_report(), "");
    assert!(
        preview.unknown_columns.is_empty(),
        "{:?}",
        preview.unknown_columns
    );
    let fees: Vec<_> = preview.rows.iter().map(|r| r.transaction.fee).collect();
    assert_eq!(fees, [Some(dec!(6.5)), Some(dec!(86.6))]);
}

#[test]
fn a_row_dated_after_today_is_refused_by_line() {
    let tomorrow = jiff::ZonedDateTime::now()
        .date()
        .tomorrow()
        .expect("tomorrow is a date");
    let text = format!(
        "date,type,symbol,quantity,price,fee,account\n\
         2024-01-02,BUY,600519,100,1500,5,huatai\n\
         {tomorrow},BUY,600519,100,1500,5,huatai\n"
    );
    let preview = preview(&portfolio(), &[], &text);
    assert_eq!(preview.errors.len(), 1, "{}", preview.error_report());
    assert_eq!(preview.errors[0].line, 3);
    assert_eq!(preview.errors[0].problems[0].field, "date");
    assert!(
        preview.error_report().contains("is after today"),
        "{}",
        preview.error_report()
    );
}

/// A BUY of −100 was recorded as a BUY of +100: every signed column lost its sign. A sign is
/// read as a direction now: where the type says the same (a SELL of −200, a WITHDRAWAL of
/// −5000, a fee written as money out) the size is taken; where it says the opposite the row
/// is refused by line, naming the column; a price has no direction and is never negative.
#[test]
fn a_sign_against_the_type_is_refused_by_line_and_column() {
    let text = "date,type,symbol,quantity,price,fee,account,amount\n\
                2024-01-02,BUY,600519,-100,1500,5,huatai,\n\
                2024-01-02,TRANSFER_IN,600519,-100,1500,5,huatai,\n\
                2024-01-02,SPLIT,600519,-2,,,huatai,\n\
                2024-01-02,BUY,600519,100,-1500,5,huatai,\n\
                2024-01-02,DEPOSIT,,,,,huatai,-5000\n\
                2024-01-02,INTEREST,,,,,huatai,-3\n\
                2024-01-02,DIVIDEND,600519,,-30,,huatai,\n\
                2024-01-02,DIVIDEND,600519,-100,0.3,,huatai,\n";
    let preview = preview(&portfolio(), &[], text);
    let said: Vec<(u64, String)> = preview
        .errors
        .iter()
        .flat_map(|e| e.problems.iter().map(move |p| (e.line, p.field.clone())))
        .collect();
    let want: Vec<(u64, String)> = [
        (2, "quantity"),
        (3, "quantity"),
        (4, "quantity"),
        (5, "price"),
        (6, "amount"),
        (7, "amount"),
        (8, "price"),
        (9, "quantity"),
    ]
    .iter()
    .map(|(l, f)| (*l, f.to_string()))
    .collect();
    assert_eq!(said, want, "{}", preview.error_report());
    assert!(preview.rows.is_empty(), "nothing of a refused row is kept");
    let report = preview.error_report();
    assert!(
        report.contains("line 2: quantity: `-100` is negative, but a BUY adds units; give the number of units as a positive number (the type says the direction: a sale is SELL)"),
        "{report}"
    );
    assert!(
        report.contains("line 6: amount: `-5000` is negative, but a DEPOSIT brings money in"),
        "{report}"
    );
    assert!(
        report.contains("line 5: price: `-1500` is negative; give the price per unit, 0 or more"),
        "{report}"
    );
}

#[test]
fn a_sign_that_agrees_with_the_type_is_its_direction() {
    let text = "date,type,symbol,quantity,price,fee,tax,account,amount\n\
                2024-01-02,DEPOSIT,,,,,,huatai,200000\n\
                2024-01-03,BUY,600519,100,1500,-5,,huatai,-150005\n\
                2024-01-04,SELL,600519,-50,1600,-5,,huatai,79995\n\
                2024-01-05,TRANSFER_OUT,600519,-10,,,,huatai,\n\
                2024-01-06,WITHDRAWAL,,,,,,huatai,-1000\n\
                2024-01-06,FEE,,,,,,huatai,-12\n\
                2024-01-07,DIVIDEND,600519,,,,-3,huatai,30\n";
    let preview = preview(&portfolio(), &[], text);
    assert_eq!(preview.error_report(), "");
    let got: Vec<_> = preview
        .rows
        .iter()
        .map(|r| {
            let t = &r.transaction;
            (t.kind, t.quantity, t.amount, t.fee, t.tax)
        })
        .collect();
    assert_eq!(
        got,
        [
            (TxKind::Deposit, dec!(0), dec!(200000), None, dec!(0)),
            (TxKind::Buy, dec!(100), dec!(150005), Some(dec!(5)), dec!(0)),
            (TxKind::Sell, dec!(50), dec!(79995), Some(dec!(5)), dec!(0)),
            (TxKind::TransferOut, dec!(10), dec!(0), None, dec!(0)),
            (TxKind::Withdrawal, dec!(0), dec!(1000), None, dec!(0)),
            (TxKind::Fee, dec!(0), dec!(12), None, dec!(0)),
            (TxKind::Dividend, dec!(0), dec!(30), None, dec!(3)),
        ]
    );
}

/// Import errors repeated the file's fields raw: an ESC or OSC sequence in a cell rewrote the
/// terminal the errors were printed on, and a long cell flooded it. Every field an error
/// quotes is escaped and cut.
#[test]
fn errors_quote_the_file_escaped_and_cut() {
    let esc = "\u{1b}]0;pwned\u{7}\u{1b}[2J";
    // A long number with a letter after a dot: run into the digits, a letter makes the cell
    // key-shaped, and a key is masked whole rather than cut.
    let long = "9".repeat(5000);
    let text = format!(
        "date,type,symbol,quantity,price,fee,account,lots,market,currency\n\
         2024-01-02{esc},BUY{esc},600519,1{esc},1500,5,huatai,,,\n\
         2024-01-02,BUY,600519,{long}.x,1500,5,hua\u{202e}tai,,,\n\
         2024-01-02,SELL,60\u{200b}0519,100,1500,5,huatai,L1{esc},,\n\
         2024-01-02,BUY,600519,-1{esc},1500,5,huatai,,SH{esc},\n\
         2024-01-02,BUY,600519,100,1500,5,huatai,,,CNY{esc}\n"
    );
    let preview = preview(&portfolio(), &[], &text);
    assert_eq!(preview.errors.len(), 5, "{}", preview.error_report());
    let report = preview.error_report();
    let hidden: Vec<char> = report
        .chars()
        .filter(|&c| c != '\n' && nofxi_domain::validation::hidden_character(c))
        .collect();
    assert!(hidden.is_empty(), "{hidden:?} in {report:?}");
    assert!(report.contains("\\u{1b}]0;pwned\\u{7}"), "{report}");
    assert!(report.contains("hua\\u{202e}tai"), "{report}");
    assert!(report.contains("60\\u{200b}0519"), "{report}");
    assert!(report.contains("99999…` is not a number"), "{report}");
    assert!(report.len() < 4000, "{} bytes: {report}", report.len());
}

/// An empty price of a BUY was booked as a price of 0, and the holding was then valued at 0.
/// An empty cell is a value not given: a column the row's type needs is refused by line,
/// naming the column; an explicit 0 is still a price (shares received for nothing).
#[test]
fn an_empty_column_the_type_needs_is_refused_by_line_and_column() {
    let text = "date,type,symbol,quantity,price,fee,account,amount\n\
                2024-01-10,BUY,600519,10,,,huatai,\n\
                2024-01-10,SELL,600519,10,,,huatai,\n\
                2024-01-10,TRANSFER_IN,600519,10,,,huatai,\n\
                2024-01-10,BUY,600519,,1500,,huatai,\n\
                2024-01-10,BUY,,10,1500,,huatai,\n\
                2024-01-10,TRANSFER_OUT,600519,,,,huatai,\n\
                2024-01-10,SPLIT,600519,,,,huatai,\n\
                2024-01-10,DIVIDEND,,,,,huatai,30\n\
                2024-01-10,DIVIDEND,600519,,,,huatai,\n\
                2024-01-10,DEPOSIT,,,,,huatai,\n\
                2024-01-10,WITHDRAWAL,,,,,huatai,\n\
                2024-01-10,FEE,,,,,huatai,\n\
                2024-01-10,INTEREST,,,,,huatai,\n";
    let preview = preview(&portfolio(), &[], text);
    let said: Vec<(u64, String)> = preview
        .errors
        .iter()
        .flat_map(|e| e.problems.iter().map(move |p| (e.line, p.field.clone())))
        .collect();
    let want: Vec<(u64, String)> = [
        (2, "price"),
        (3, "price"),
        (4, "price"),
        (5, "quantity"),
        (6, "symbol"),
        (7, "quantity"),
        (8, "quantity"),
        (9, "symbol"),
        (10, "amount"),
        (11, "amount"),
        (12, "amount"),
        (13, "amount"),
        (14, "amount"),
    ]
    .iter()
    .map(|(l, f)| (*l, f.to_string()))
    .collect();
    assert_eq!(said, want, "{}", preview.error_report());
    assert!(preview.rows.is_empty(), "{:?}", preview.rows);
    let report = preview.error_report();
    assert!(
        report.contains("line 2: price: is empty, but a BUY needs it; fill in the price per unit"),
        "{report}"
    );
    // Given as 0, a price is a price; a dividend's amount may come as units × rate.
    let given = "date,type,symbol,quantity,price,fee,account,amount\n\
                 2024-01-10,BUY,600519,10,0,,huatai,\n\
                 2024-01-11,DIVIDEND,600519,10,0.3,,huatai,\n";
    assert_eq!(preview_errors(&[], given), "");
}

/// A note took `\e]0;pwned\a … \e[2J` without complaint, and `portfolio export` then wrote it
/// raw: the terminal was retitled and cleared. A note is data: tabs and line breaks are fine,
/// every other control character (C0, DEL, C1) is refused by line and column.
#[test]
fn a_control_character_in_a_note_is_refused_by_line_and_column() {
    let text = "date,type,symbol,quantity,price,fee,account,note\n\
                2024-01-02,BUY,600519,100,1500,5,huatai,\"tab\there, two\r\nlines\"\n\
                2024-01-03,BUY,600519,100,1500,5,huatai,hi\u{1b}]0;pwned\u{7}there\u{1b}[2J\n\
                2024-01-04,BUY,600519,100,1500,5,huatai,bell\u{7}\n\
                2024-01-05,BUY,600519,100,1500,5,huatai,csi\u{9b}31m\n\
                2024-01-06,BUY,600519,100,1500,5,huatai,del\u{7f}\n\
                2024-01-07,BUY,600519,100,1500,5,huatai,\"lone\rreturn\"\n\
                2024-13-08,BUY,600519,100,1500,5,huatai,nul\u{0}\n";
    let preview = preview(&portfolio(), &[], text);
    let said: Vec<(u64, String)> = preview
        .errors
        .iter()
        .flat_map(|e| e.problems.iter().map(move |p| (e.line, p.field.clone())))
        .collect();
    let want: Vec<(u64, String)> = [
        (4, "note"),
        (5, "note"),
        (6, "note"),
        (7, "note"),
        (8, "note"),
        (9, "date"),
        (9, "note"),
    ]
    .iter()
    .map(|(l, f)| (*l, f.to_string()))
    .collect();
    assert_eq!(said, want, "{}", preview.error_report());
    let report = preview.error_report();
    assert!(
        report.contains("line 4: note: contains the control character U+001B"),
        "{report}"
    );
    assert!(
        !report.chars().any(|c| c != '\n' && c.is_control()),
        "{report:?}"
    );
    assert_eq!(preview.rows[0].transaction.note, "tab\there, two\r\nlines");
}
