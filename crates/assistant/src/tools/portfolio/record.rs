//! `portfolio.record`: "今天买了 100 股成都银行，15.2 元", "sold 10 AAPL at 190 yesterday".
//! Before the confirmation the trade is prepared: the security resolved by the ladder, the
//! portfolio and account picked, the day fixed, a sale checked against the units held, and
//! the fees the user did not give computed line by line from the market's schedule of that
//! day. The confirmation shows all of it; the yes writes exactly that record. A fee the user
//! gave wins and is stored; a computed one is not stored, so a corrected schedule corrects it.

use async_trait::async_trait;
use jiff::ToSpan;
use jiff::civil::Date;
use nofxi_domain::validation::shown_input;
use nofxi_portfolio::domain::{Account, Instrument, Transaction, TxKind};
use nofxi_portfolio::fees::{FeeBound, FeeLine, FeeQuote, FeeSchedules, TradeSide};
use nofxi_portfolio::lots::{Ledger, refusals};
use nofxi_portfolio::names::Named;
use nofxi_portfolio::performance::with_fees;
use nofxi_skills::Lang;
use nofxi_store::PortfolioBook;
use rust_decimal::Decimal;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value};

use super::{
    book, code, directory, held, label, optional_decimal, portfolio_error, resolve, today,
};
use crate::msg;
use crate::tools::exec::store_error;
use crate::tools::registry::{Tool, ToolContext};
use crate::tools::{RiskLevel, ToolError, ToolOutput};

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Buy,
    Sell,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct RecordArgs {
    pub side: Side,
    /// The security as said (成都银行, Tencent, 600519, AAPL.US).
    pub stock: String,
    /// Units bought or sold, more than 0; or `board_lots`.
    #[serde(default, deserialize_with = "optional_decimal")]
    #[schemars(with = "Option<String>")]
    pub quantity: Option<Decimal>,
    /// Board lots instead of units: 100 shares each for A-shares.
    #[serde(default, deserialize_with = "optional_decimal")]
    #[schemars(with = "Option<String>")]
    pub board_lots: Option<Decimal>,
    /// Price per unit, in the security's currency; or `total`.
    #[serde(default, deserialize_with = "optional_decimal")]
    #[schemars(with = "Option<String>")]
    pub price: Option<Decimal>,
    /// The trade's total instead of its price: the price is the total over the quantity.
    #[serde(default, deserialize_with = "optional_decimal")]
    #[schemars(with = "Option<String>")]
    pub total: Option<Decimal>,
    /// `today`, `yesterday`, `day_before_yesterday` or YYYY-MM-DD; today when absent.
    #[serde(default)]
    pub day: Option<String>,
    /// The fee charged, when the user knows it; computed from the schedule otherwise.
    #[serde(default, deserialize_with = "optional_decimal")]
    #[schemars(with = "Option<String>")]
    pub fee: Option<Decimal>,
    /// The currency the price or total was said in (CNY, HKD, USD), when said.
    #[serde(default)]
    pub currency: Option<String>,
    /// Which account; the portfolio's only one when it has one.
    #[serde(default)]
    pub account: Option<String>,
    /// Which portfolio; the user's only one when there is one.
    #[serde(default)]
    pub portfolio: Option<String>,
}

pub struct PortfolioRecord;

/// A trade ready to write, and what the confirmation says about it.
struct Prepared {
    book: PortfolioBook,
    named: Named,
    record: Transaction,
    /// The computed fees, when the user gave none.
    quote: Option<FeeQuote>,
}

#[async_trait]
impl Tool for PortfolioRecord {
    type Args = RecordArgs;
    const NAME: &'static str = "portfolio.record";
    const SCOPES: &'static [&'static str] = &["portfolio:write"];
    const RISK: RiskLevel = RiskLevel::Write;

    async fn precheck(
        &self,
        cx: &ToolContext<'_>,
        args: RecordArgs,
    ) -> Result<Map<String, Value>, ToolError> {
        let p = prepare(cx, &args).await?;
        let lang = cx.lang;
        let mut fixed = Map::new();
        let mut set = |k: &str, v: String| {
            fixed.insert(k.to_string(), Value::String(v));
        };
        // What the yes binds to: the resolved code, the portfolio, the account and the day.
        set("stock", code(&p.named.instrument));
        set("portfolio", p.book.portfolio.name.clone());
        set("account", p.record.account.clone());
        set("day", p.record.date.to_string());
        set("trade", trade_text(&p, lang));
        set("fees", fees_text(&p, lang));
        Ok(fixed)
    }

    async fn run(&self, cx: &ToolContext<'_>, args: RecordArgs) -> Result<ToolOutput, ToolError> {
        let p = prepare(cx, &args).await?;
        cx.store
            .record_transactions(
                &cx.actor(),
                &p.book.portfolio.name,
                std::slice::from_ref(&p.record),
            )
            .await
            .map_err(|e| store_error(&e, cx.lang))?;
        let held = held_after(&p)?;
        let text = msg(
            cx.lang,
            "portfolio-recorded",
            &[
                ("trade", &trade_text(&p, cx.lang)),
                ("fees", &fees_text(&p, cx.lang)),
                ("held", &held.normalize().to_string()),
                ("name", &label(&p.named, cx.lang)),
            ],
        );
        Ok(ToolOutput {
            text: Some(text),
            mutated: true,
            ..ToolOutput::default()
        })
    }
}

async fn prepare(cx: &ToolContext<'_>, args: &RecordArgs) -> Result<Prepared, ToolError> {
    let lang = cx.lang;
    let book = book(cx.store, cx.user, lang, args.portfolio.as_deref()).await?;
    let directory = directory(&book)?;
    let held = held(&book);
    let named = resolve(&directory, &held, &args.stock, lang)?;
    let account = account(
        &book.portfolio.accounts,
        args.account.as_deref(),
        &named.instrument,
        lang,
    )?;
    // "苹果 1350 元人民币": a price said in another currency than the security trades in is
    // never stored as if it were in that one (a 7× error); the trade is said again.
    if let Some(said) = args.currency.as_deref()
        && !said.eq_ignore_ascii_case(named.instrument.currency.as_str())
    {
        return Err(ToolError::new(
            "currency_mismatch",
            msg(
                lang,
                "portfolio-currency-mismatch",
                &[
                    ("name", &label(&named, lang)),
                    ("currency", named.instrument.currency.as_str()),
                    ("said", &shown_input(said)),
                ],
            ),
        ));
    }
    let date = day(args.day.as_deref(), lang)?;
    let quantity = units(args, &named.instrument, lang)?;
    let price = match (args.price, args.total) {
        (Some(price), _) => price,
        (None, Some(total)) => (total / quantity).round_dp(6).normalize(),
        (None, None) => {
            return Err(ToolError::new(
                "invalid",
                msg(lang, "portfolio-no-price", &[]),
            ));
        }
    };
    let kind = match args.side {
        Side::Buy => TxKind::Buy,
        Side::Sell => TxKind::Sell,
    };
    let record = Transaction {
        account: account.name.clone(),
        date,
        kind,
        instrument: Some(named.instrument.clone()),
        quantity,
        price,
        amount: Decimal::ZERO,
        fee: args.fee,
        tax: Decimal::ZERO,
        currency: named.instrument.currency.clone(),
        note: String::new(),
        lots: Vec::new(),
    };
    record.validate().map_err(|e| invalid(e, lang))?;
    let quote = match args.fee {
        Some(_) => None,
        None => {
            let side = match kind {
                TxKind::Sell => TradeSide::Sell,
                _ => TradeSide::Buy,
            };
            let schedules = FeeSchedules::embedded().map_err(portfolio_error)?;
            Some(
                schedules
                    .quote(&named.instrument, side, date, quantity, price)
                    .map_err(|e| invalid(e, lang))?,
            )
        }
    };
    let p = Prepared {
        book,
        named,
        record,
        quote,
    };
    if kind == TxKind::Sell {
        let before = units_held(&p, &p.book.records)?;
        if before < p.record.quantity {
            return Err(ToolError::new(
                "not_enough_held",
                msg(
                    lang,
                    "portfolio-sell-more-than-held",
                    &[
                        ("name", &label(&p.named, lang)),
                        ("account", &p.record.account),
                        ("held", &before.normalize().to_string()),
                        ("quantity", &p.record.quantity.normalize().to_string()),
                        ("date", &p.record.date.to_string()),
                    ],
                ),
            ));
        }
    }
    // What the book replayed with this record refuses: a back-dated sale that leaves a later
    // one short, a fee the schedule cannot charge. Asked before any confirmation.
    if let Some((_, refusal)) = refusals(
        &p.book.portfolio,
        &p.book.records,
        std::slice::from_ref(&p.record),
    )
    .into_iter()
    .next()
    {
        let code = match kind {
            TxKind::Sell => "not_enough_held",
            _ => "invalid",
        };
        return Err(ToolError::new(
            code,
            msg(
                lang,
                "portfolio-record-invalid",
                &[("error", &refusal.to_string())],
            ),
        ));
    }
    Ok(p)
}

/// Units traded: as said, or board lots of 100 shares on the A-share markets. Elsewhere a
/// lot's size is the stock's own (Hong Kong), so lots there are refused with what to say.
fn units(args: &RecordArgs, instrument: &Instrument, lang: Lang) -> Result<Decimal, ToolError> {
    match (args.quantity, args.board_lots) {
        // "0.5 股茅台": shares in Shanghai, Shenzhen, Beijing and Hong Kong are whole.
        (Some(quantity), _)
            if instrument.market.trades_whole_shares() && !quantity.fract().is_zero() =>
        {
            Err(ToolError::new(
                "whole_shares",
                msg(
                    lang,
                    "portfolio-whole-shares",
                    &[
                        ("quantity", &quantity.normalize().to_string()),
                        ("code", &code(instrument)),
                    ],
                ),
            ))
        }
        (Some(quantity), _) => Ok(quantity),
        (None, Some(lots)) if instrument.market.is_a_share() => Ok(lots * Decimal::ONE_HUNDRED),
        _ => Err(ToolError::new(
            "lots_unknown",
            msg(
                lang,
                "portfolio-lots-unknown",
                &[("code", &code(instrument))],
            ),
        )),
    }
}

/// A refusal of the record's own values, every problem said.
fn invalid(e: nofxi_portfolio::PortfolioError, lang: Lang) -> ToolError {
    ToolError::new(
        "invalid",
        msg(
            lang,
            "portfolio-record-invalid",
            &[("error", &e.to_string())],
        ),
    )
}

/// The account named, or the portfolio's only one, or its only one in the security's
/// currency (成都银行 goes to the CNY account, AAPL to the USD one).
fn account<'a>(
    accounts: &'a [Account],
    said: Option<&str>,
    instrument: &Instrument,
    lang: Lang,
) -> Result<&'a Account, ToolError> {
    let names = || {
        accounts
            .iter()
            .map(|a| a.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    if let Some(said) = said.map(str::trim).filter(|s| !s.is_empty()) {
        return accounts
            .iter()
            .find(|a| a.name.eq_ignore_ascii_case(said))
            .ok_or_else(|| {
                ToolError::new(
                    "which_account",
                    msg(
                        lang,
                        "portfolio-unknown-account",
                        &[("said", &shown_input(said)), ("list", &names())],
                    ),
                )
            });
    }
    let in_currency: Vec<&Account> = accounts
        .iter()
        .filter(|a| a.currency == instrument.currency)
        .collect();
    if let [only] = in_currency.as_slice() {
        return Ok(only);
    }
    match accounts {
        [only] => Ok(only),
        [] => Err(ToolError::new(
            "no_account",
            msg(lang, "portfolio-no-account", &[]),
        )),
        _ => Err(ToolError::new(
            "which_account",
            msg(lang, "portfolio-which-account", &[("list", &names())]),
        )),
    }
}

/// The trade's day: a word the skill's `day` values give, or a date; today when unsaid. A
/// day after today is refused: a record is of a trade that happened.
fn day(said: Option<&str>, lang: Lang) -> Result<Date, ToolError> {
    let today = today();
    let date = match said.map(str::trim) {
        None | Some("") | Some("today") => today,
        Some("yesterday") => today.saturating_sub(1.day()),
        Some("day_before_yesterday") => today.saturating_sub(2.days()),
        Some(text) => text.parse().map_err(|_| {
            ToolError::new(
                "invalid",
                msg(lang, "portfolio-bad-day", &[("said", &shown_input(text))]),
            )
        })?,
    };
    if date > today {
        return Err(ToolError::new(
            "invalid",
            msg(lang, "portfolio-future-day", &[("date", &date.to_string())]),
        ));
    }
    Ok(date)
}

/// Units of the trade's security in its account after `records`, up to the trade's day.
fn units_held(p: &Prepared, records: &[Transaction]) -> Result<Decimal, ToolError> {
    let upto: Vec<Transaction> = with_fees(records)
        .map_err(portfolio_error)?
        .into_iter()
        .filter(|t| t.date <= p.record.date)
        .collect();
    let ledger = Ledger::replay(&p.book.portfolio, &upto).map_err(portfolio_error)?;
    Ok(ledger
        .holdings()
        .find(|h| h.key.account == p.record.account && h.key.instrument == p.named.instrument)
        .map(|h| h.book.quantity())
        .unwrap_or_default())
}

/// Units held once the trade is written.
fn held_after(p: &Prepared) -> Result<Decimal, ToolError> {
    let mut records = p.book.records.clone();
    records.push(p.record.clone());
    units_held(p, &records)
}

/// "BUY 100 成都银行 (601838.SH) at 15.2 CNY on 2026-12-06 (gross 1520.00 CNY), account broker
/// of core".
fn trade_text(p: &Prepared, lang: Lang) -> String {
    let side = match p.record.kind {
        TxKind::Sell => "portfolio-side-sell",
        _ => "portfolio-side-buy",
    };
    msg(
        lang,
        "portfolio-trade",
        &[
            ("side", &msg(lang, side, &[])),
            ("quantity", &p.record.quantity.normalize().to_string()),
            ("name", &label(&p.named, lang)),
            ("price", &p.record.price.normalize().to_string()),
            ("currency", &p.record.currency.to_string()),
            ("date", &p.record.date.to_string()),
            ("gross", &format!("{:.2}", p.record.gross())),
            ("account", &p.record.account),
            ("portfolio", &p.book.portfolio.name),
        ],
    )
}

/// The fees line by line with their rates and the day each rate took effect, or the fee
/// the user gave.
fn fees_text(p: &Prepared, lang: Lang) -> String {
    let currency = p.record.currency.to_string();
    let Some(quote) = &p.quote else {
        return msg(
            lang,
            "portfolio-fee-given",
            &[
                ("fee", &format!("{:.2}", p.record.fee_or_zero())),
                ("currency", &currency),
            ],
        );
    };
    let lines: Vec<String> = quote
        .lines
        .iter()
        .map(|l| {
            let name = match lang {
                Lang::Zh if !l.label_zh.is_empty() => l.label_zh.as_str(),
                _ => l.label.as_str(),
            };
            msg(
                lang,
                "portfolio-fee-line",
                &[
                    ("name", name),
                    ("amount", &format!("{:.2}", l.amount)),
                    ("rate", &rate_text(l, lang)),
                    ("from", &l.rate_from.to_string()),
                ],
            )
        })
        .collect();
    msg(
        lang,
        "portfolio-fees-computed",
        &[
            ("lines", &lines.join(&msg(lang, "list-separator", &[]))),
            ("total", &format!("{:.2}", quote.total)),
            ("currency", &quote.currency.to_string()),
        ],
    )
}

/// `0.01%, minimum 5.00 applied` or `0.000166 per share`: how the line's amount came about.
fn rate_text(line: &FeeLine, lang: Lang) -> String {
    let rate = match line.per_unit {
        true => msg(
            lang,
            "portfolio-fee-rate-unit",
            &[("rate", &line.rate.normalize().to_string())],
        ),
        false => msg(
            lang,
            "portfolio-fee-rate-pct",
            &[(
                "rate",
                &(line.rate * Decimal::ONE_HUNDRED).normalize().to_string(),
            )],
        ),
    };
    match line.bound {
        Some(FeeBound::Minimum(min)) => msg(
            lang,
            "portfolio-fee-minimum",
            &[("rate", &rate), ("amount", &format!("{min:.2}"))],
        ),
        Some(FeeBound::Maximum(max)) => msg(
            lang,
            "portfolio-fee-maximum",
            &[("rate", &rate), ("amount", &format!("{max:.2}"))],
        ),
        None => rate,
    }
}
