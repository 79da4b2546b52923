//! Which header names mean which field.
//!
//! Broker and tracker exports name the same thing many ways (Ghostfolio's aliases, the Chinese
//! column names of A-share broker statements). Headers are compared after trimming, lower-casing
//! and dropping spaces, `_` and `-`, so `Trade Date`, `trade_date` and `TRADEDATE` are one name.

use nofxi_domain::validation::shown_input;
use serde::Serialize;

use crate::error::FieldError;

/// A field an import row can carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Column {
    Date,
    Symbol,
    Market,
    Quantity,
    Price,
    Amount,
    Fee,
    /// One more part of a trade's fees (stamp duty, transfer fee): a statement may have
    /// several such columns, and each is added to the fee.
    FeePart,
    Tax,
    Kind,
    Currency,
    Account,
    Note,
    Lots,
}

/// Every accepted header name per column, in the folded form (see [`fold`]).
const ALIASES: &[(Column, &[&str])] = &[
    (
        Column::Date,
        &[
            "date",
            "tradedate",
            "time",
            "成交日期",
            "交易日期",
            "日期",
            "发生日期",
        ],
    ),
    (
        Column::Symbol,
        &[
            "code",
            "symbol",
            "ticker",
            "securitycode",
            "证券代码",
            "代码",
            "股票代码",
        ],
    ),
    (Column::Market, &["market", "exchange", "市场", "交易市场"]),
    (
        Column::Quantity,
        &[
            "quantity",
            "qty",
            "shares",
            "units",
            "成交数量",
            "数量",
            "成交股数",
        ],
    ),
    (
        Column::Price,
        &[
            "price",
            "unitprice",
            "value",
            "成交价格",
            "成交均价",
            "价格",
        ],
    ),
    (
        Column::Amount,
        &[
            "amount",
            "total",
            "cashamount",
            "金额",
            "发生金额",
            "成交金额",
        ],
    ),
    (
        Column::Fee,
        &["fee", "fees", "commission", "手续费", "佣金", "交易费用"],
    ),
    (
        Column::FeePart,
        &[
            "stampduty",
            "transferfee",
            "levy",
            "tradingfee",
            "settlementfee",
            "otherfees",
            "印花税",
            "过户费",
            "经手费",
            "证管费",
            "规费",
            "交易规费",
            "结算费",
            "其他费用",
        ],
    ),
    (
        Column::Tax,
        &["tax", "withholding", "withholdingtax", "税费", "预扣税"],
    ),
    (
        Column::Kind,
        &[
            "type",
            "action",
            "buysell",
            "side",
            "买卖方向",
            // What brokers' exports call it too (华泰 买卖标志, others 买卖类别 / 交易方向).
            "买卖标志",
            "买卖类别",
            "交易方向",
            "操作",
            "业务名称",
            "交易类型",
            "类型",
        ],
    ),
    (Column::Currency, &["currency", "ccy", "币种", "货币"]),
    (Column::Account, &["account", "账户", "资金账号", "账号"]),
    (Column::Note, &["note", "comment", "memo", "备注"]),
    (Column::Lots, &["lots", "lot", "批次"]),
];

/// A header folded for comparison.
pub(crate) fn fold(header: &str) -> String {
    header
        .trim()
        .trim_start_matches('\u{feff}')
        .chars()
        .filter(|c| !matches!(c, ' ' | '_' | '-'))
        .flat_map(char::to_lowercase)
        .collect()
}

impl Column {
    /// The column a header names, if any.
    pub fn from_header(header: &str) -> Option<Column> {
        let folded = fold(header);
        ALIASES
            .iter()
            .find(|(_, names)| names.contains(&folded.as_str()))
            .map(|(c, _)| *c)
    }

    /// The name export writes.
    pub fn canonical(self) -> &'static str {
        match self {
            Column::Date => "date",
            Column::Symbol => "symbol",
            Column::Market => "market",
            Column::Quantity => "quantity",
            Column::Price => "price",
            Column::Amount => "amount",
            Column::Fee => "fee",
            Column::FeePart => "fee_part",
            Column::Tax => "tax",
            Column::Kind => "type",
            Column::Currency => "currency",
            Column::Account => "account",
            Column::Note => "note",
            Column::Lots => "lots",
        }
    }
}

/// Where each known column is in a file's header, and which headers were not understood.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct HeaderMap {
    positions: Vec<(Column, usize)>,
    pub unknown: Vec<String>,
}

impl HeaderMap {
    /// Maps a header row; two headers meaning one column, or a missing date or type, is refused
    /// (every row would be wrong the same way, so it is said once).
    pub fn read(headers: &[&str]) -> Result<Self, Vec<FieldError>> {
        let mut map = HeaderMap::default();
        let mut problems = Vec::new();
        for (i, header) in headers.iter().enumerate() {
            match Column::from_header(header) {
                Some(column) => {
                    let repeated = map.positions.iter().find(|(c, _)| *c == column);
                    if let Some(&(_, first)) = repeated.filter(|_| column != Column::FeePart) {
                        problems.push(FieldError::new(
                            "header",
                            format!(
                                "`{}` and `{}` both mean {}",
                                shown_input(headers[first].trim()),
                                shown_input(header.trim()),
                                column.canonical()
                            ),
                            "keep one of the two columns, or rename the other",
                        ));
                    } else {
                        map.positions.push((column, i));
                    }
                }
                None => map.unknown.push(header.trim().to_string()),
            }
        }
        for required in [Column::Date, Column::Kind] {
            if map.position(required).is_none() {
                problems.push(FieldError::new(
                    "header",
                    format!("no {} column", required.canonical()),
                    format!(
                        "add a `{}` column (other accepted names: {})",
                        required.canonical(),
                        aliases(required)
                    ),
                ));
            }
        }
        if problems.is_empty() {
            Ok(map)
        } else {
            Err(problems)
        }
    }

    /// Every place a column repeats (the parts of a fee).
    pub fn positions(&self, column: Column) -> impl Iterator<Item = usize> + '_ {
        self.positions
            .iter()
            .filter(move |(c, _)| *c == column)
            .map(|(_, i)| *i)
    }

    pub fn position(&self, column: Column) -> Option<usize> {
        self.positions
            .iter()
            .find(|(c, _)| *c == column)
            .map(|(_, i)| *i)
    }
}

fn aliases(column: Column) -> String {
    ALIASES
        .iter()
        .find(|(c, _)| *c == column)
        .map(|(_, names)| names.join(", "))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aliases_in_english_and_chinese_map_to_one_column() {
        for (header, column) in [
            ("Trade Date", Column::Date),
            ("成交日期", Column::Date),
            ("ticker", Column::Symbol),
            ("证券代码", Column::Symbol),
            ("Shares", Column::Quantity),
            ("成交数量", Column::Quantity),
            ("Unit Price", Column::Price),
            ("成交价格", Column::Price),
            ("Commission", Column::Fee),
            ("手续费", Column::Fee),
            ("buy-sell", Column::Kind),
            ("买卖方向", Column::Kind),
            ("买卖标志", Column::Kind),
            ("\u{feff}Date", Column::Date),
        ] {
            assert_eq!(Column::from_header(header), Some(column), "{header}");
        }
        assert_eq!(Column::from_header("broker ref"), None);
    }

    #[test]
    fn a_header_twice_or_a_missing_type_is_said_once() {
        let err = HeaderMap::read(&["date", "trade date", "symbol"]).unwrap_err();
        assert_eq!(err.len(), 2);
        assert!(err[0].problem.contains("both mean date"));
        assert!(err[1].fix.contains("buysell"), "{}", err[1]);
        let map = HeaderMap::read(&["Date", "Type", "Broker Ref"]).unwrap();
        assert_eq!(map.unknown, ["Broker Ref"]);
        assert_eq!(map.position(Column::Kind), Some(1));
    }
}
