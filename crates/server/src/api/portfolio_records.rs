//! One record at a time from the web app: the list with each record's id, a trade (or any
//! record) typed into a form, and a correction of one already stored.
//!
//! A form's fields are read as the one line of a CSV with those columns
//! (`csv_io::preview_record`): the import's parser, its messages and its checks against the
//! book, so a trade typed in is taken or refused as the same line of a broker's file would be.
//! A record identical to one already there (same day, type, code, quantity, price) is what an
//! import skips as a duplicate; typed in, it may be a second fill of the same order, so it is
//! written only when the body says `again`.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{Method, StatusCode};
use axum::routing::{get, put};
use nofxi_portfolio::PortfolioError;
use nofxi_portfolio::csv_io::{Column, ImportPreview, RowStatus, preview_record};
use nofxi_portfolio::domain::{Portfolio, Transaction};
use nofxi_store::StoredRecord;
use serde::{Deserialize, Serialize};

use super::portfolios::{refused_by_portfolio, refused_by_store};
use super::resources::Items;
use super::{Body, Op, Reply, schema};
use crate::access::Caller;
use crate::error::{ApiError, ApiResult, Worded};
use crate::state::AppState;

pub fn operations() -> Vec<Op> {
    vec![
        Op::new(
            Method::GET,
            "/api/portfolios/{name}/records",
            "portfolios",
            "The portfolio's records in the order they were written, each with the id a correction names",
            Reply::Json(200, schema::<Items<StoredRecord>>),
            get(list),
        ),
        Op::new(
            Method::POST,
            "/api/portfolios/{name}/records",
            "portfolios",
            "Record one transaction given field by field, read as one line of a CSV import; every problem is named by its field; one identical to a stored record is written only with `again`",
            Reply::Json(201, schema::<RecordReply>),
            axum::routing::post(record),
        )
        .body(schema::<RecordBody>),
        Op::new(
            Method::PUT,
            "/api/portfolios/{name}/records/{id}",
            "portfolios",
            "Correct one stored record: the body is the whole record again, checked as a new one would be, and it keeps its place in the written order",
            Reply::Json(200, schema::<RecordReply>),
            put(correct),
        )
        .body(schema::<RecordBody>),
    ]
}

/// A record as a person types it; each field is read as the CSV column of its name reads it
/// (`2024/1/2`, `买入`, `1,500.00`, `600519.SH` are all understood). Empty text is a field not
/// given.
#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RecordBody {
    /// YYYY-MM-DD (or 2024/1/2, 20240102).
    pub date: String,
    /// BUY, SELL, DIVIDEND, FEE, INTEREST, SPLIT, TRANSFER_IN, TRANSFER_OUT, DEPOSIT or
    /// WITHDRAWAL (or a broker's word for one: 买入, 卖出…).
    #[serde(rename = "type")]
    pub kind: String,
    /// The security's code (600519, 00700.HK, AAPL); empty for a cash record.
    #[serde(default)]
    pub symbol: String,
    /// SH, SZ, BJ, HK, US, FUND or CRYPTO, when the code does not tell.
    #[serde(default)]
    pub market: String,
    #[serde(default)]
    pub quantity: String,
    /// Per unit, in the security's currency.
    #[serde(default)]
    pub price: String,
    /// The cash of a cash record (a deposit, a dividend's gross).
    #[serde(default)]
    pub amount: String,
    /// Empty: computed from the market's fee schedule.
    #[serde(default)]
    pub fee: String,
    #[serde(default)]
    pub tax: String,
    #[serde(default)]
    pub currency: String,
    /// Which account; the only one when the portfolio has one.
    #[serde(default)]
    pub account: String,
    #[serde(default)]
    pub note: String,
    /// Write it even though an identical record is already there (a second fill).
    #[serde(default)]
    pub again: bool,
}

impl RecordBody {
    fn fields(&self) -> Vec<(Column, &str)> {
        vec![
            (Column::Date, &self.date),
            (Column::Kind, &self.kind),
            (Column::Symbol, &self.symbol),
            (Column::Market, &self.market),
            (Column::Quantity, &self.quantity),
            (Column::Price, &self.price),
            (Column::Amount, &self.amount),
            (Column::Fee, &self.fee),
            (Column::Tax, &self.tax),
            (Column::Currency, &self.currency),
            (Column::Account, &self.account),
            (Column::Note, &self.note),
        ]
    }
}

/// The record written.
#[derive(Serialize, schemars::JsonSchema)]
pub struct RecordReply {
    pub portfolio: String,
    /// Its id; for a new record, the id it was stored under.
    pub id: String,
    pub record: Transaction,
}

async fn list(
    State(state): State<AppState>,
    caller: Caller,
    Path(name): Path<String>,
) -> ApiResult<Json<Items<StoredRecord>>> {
    let items = state
        .store
        .portfolio_records(&caller.user, &name)
        .await
        .map_err(refused_by_store)?;
    Ok(Json(Items { items }))
}

async fn record(
    State(state): State<AppState>,
    caller: Caller,
    Path(name): Path<String>,
    Body(body): Body<RecordBody>,
) -> ApiResult<(StatusCode, Json<RecordReply>)> {
    let store = &state.store;
    let portfolio = store
        .portfolio(&caller.user, &name)
        .await
        .map_err(refused_by_store)?;
    let existing = store
        .portfolio_transactions(&caller.user, &portfolio.name)
        .await
        .map_err(refused_by_store)?;
    let record = checked(&portfolio, &existing, &body)?;
    store
        .record_transactions(
            &caller.actor(true),
            &portfolio.name,
            std::slice::from_ref(&record),
        )
        .await
        .map_err(refused_by_store)?;
    // The id it was stored under: the last record that is this one.
    let stored = store
        .portfolio_records(&caller.user, &portfolio.name)
        .await
        .map_err(refused_by_store)?;
    let id = stored
        .iter()
        .rev()
        .find(|r| r.record == record)
        .map(|r| r.id.clone())
        .unwrap_or_default();
    Ok((
        StatusCode::CREATED,
        Json(RecordReply {
            portfolio: portfolio.name,
            id,
            record,
        }),
    ))
}

async fn correct(
    State(state): State<AppState>,
    caller: Caller,
    Path((name, id)): Path<(String, String)>,
    Body(body): Body<RecordBody>,
) -> ApiResult<Json<RecordReply>> {
    let store = &state.store;
    let portfolio = store
        .portfolio(&caller.user, &name)
        .await
        .map_err(refused_by_store)?;
    let stored = store
        .portfolio_records(&caller.user, &portfolio.name)
        .await
        .map_err(refused_by_store)?;
    if !stored.iter().any(|r| r.id == id) {
        return Err(refused_by_store(
            nofxi_store::StoreError::UnknownPortfolioRecord {
                portfolio: portfolio.name,
                id,
            },
        ));
    }
    // Checked against every other record, as if it were new: the book replays it in its
    // place by date, without the record it replaces.
    let others: Vec<Transaction> = stored
        .into_iter()
        .filter(|r| r.id != id)
        .map(|r| r.record)
        .collect();
    let record = checked(&portfolio, &others, &body)?;
    store
        .correct_transaction(&caller.actor(true), &portfolio.name, &id, &record)
        .await
        .map_err(refused_by_store)?;
    Ok(Json(RecordReply {
        portfolio: portfolio.name,
        id,
        record,
    }))
}

/// The body read as a CSV line against `existing`: the record, or every problem by field, or
/// a 409 for a record already there unless `again`.
fn checked(
    portfolio: &Portfolio,
    existing: &[Transaction],
    body: &RecordBody,
) -> ApiResult<Transaction> {
    let plan: ImportPreview = preview_record(portfolio, existing, &body.fields());
    if let Some(line) = plan.errors.into_iter().next() {
        return Err(refused_by_portfolio(PortfolioError(line.problems)));
    }
    let Some(row) = plan.rows.into_iter().next() else {
        return Err(refused_by_portfolio(PortfolioError::one(
            "type",
            "is empty",
            "fill in the type and the fields it needs",
        )));
    };
    if row.status == RowStatus::Duplicate && !body.again {
        return Err(ApiError {
            status: StatusCode::CONFLICT,
            code: "conflict",
            message: Worded::new(
                "an identical record is already there (same day, type, code, quantity and price): an import would skip it as a duplicate",
                "已有一条完全相同的记录（同一天、类型、代码、数量和价格）：导入时会当作重复跳过",
            ),
            problems: vec![(
                "again".to_string(),
                Worded::new(
                    "if this is a second fill of the same order, send it again with `again` set; otherwise nothing needs recording",
                    "如果这是同一笔委托的第二次成交，请勾选“再记一笔”后重新提交；否则无需再记",
                ),
            )],
        });
    }
    Ok(row.transaction)
}
