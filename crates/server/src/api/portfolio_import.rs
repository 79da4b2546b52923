//! A broker's CSV uploaded from the web app, as `nofxi portfolio import` reads it: the
//! portfolio crate's `preview` says row by row what would be written, which rows are already
//! recorded (duplicates, skipped) and what is wrong on which line; with `confirm` the new rows
//! are written through the same store call the CLI makes, all or nothing.
//!
//! The text comes decoded: the page reads a GBK export as GBK before sending it, as the CLI
//! does, and a body is JSON, so it is UTF-8 by the time it is here.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{Method, StatusCode};
use axum::routing::post;
use nofxi_portfolio::csv_io::{ImportPreview, PreviewRow, RowError, preview};
use serde::{Deserialize, Serialize};

use super::portfolios::refused_by_store;
use super::{Body, Op, Reply, schema};
use crate::access::Caller;
use crate::error::{ApiError, ApiResult, Worded};
use crate::state::AppState;

/// The rows a reply lists; the counts cover every row.
const ROWS_SHOWN: usize = 200;

pub fn operations() -> Vec<Op> {
    vec![
        Op::new(
            Method::POST,
            "/api/portfolios/{name}/import",
            "portfolios",
            "Read a CSV of transactions (`nofxi portfolio import`): without `confirm`, what would be written, the duplicates that would be skipped and every line's problems; with `confirm`, write the new rows (nothing if any line has a problem: 422 naming each line)",
            Reply::Json(200, schema::<ImportReply>),
            post(import),
        )
        .body(schema::<ImportBody>),
    ]
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ImportBody {
    /// The file's text (comma, semicolon or tab separated; a header line first).
    pub csv: String,
    /// Write the new rows; without it nothing is written.
    #[serde(default)]
    pub confirm: bool,
}

/// What an import would do, or did.
#[derive(Serialize, schemars::JsonSchema)]
pub struct ImportReply {
    pub portfolio: String,
    /// Rows that would be (or were) written.
    pub new: usize,
    /// Rows already recorded, skipped.
    pub duplicates: usize,
    /// Rows written by this call: 0 without `confirm`.
    pub written: usize,
    pub confirmed: bool,
    /// Headers that were not understood and so not read.
    pub unknown_columns: Vec<String>,
    /// Every line with a problem; while there is one, nothing is written.
    pub errors: Vec<RowError>,
    /// The first 200 good rows, each new or duplicate, in file order.
    pub rows: Vec<PreviewRow>,
    /// How many good rows the file has in all.
    pub rows_total: usize,
}

async fn import(
    State(state): State<AppState>,
    caller: Caller,
    Path(name): Path<String>,
    Body(body): Body<ImportBody>,
) -> ApiResult<Json<ImportReply>> {
    let store = &state.store;
    let portfolio = store
        .portfolio(&caller.user, &name)
        .await
        .map_err(refused_by_store)?;
    let existing = store
        .portfolio_transactions(&caller.user, &portfolio.name)
        .await
        .map_err(refused_by_store)?;
    let plan = preview(&portfolio, &existing, &body.csv);
    if body.confirm && !plan.errors.is_empty() {
        return Err(refused_lines(&plan));
    }
    let written = if body.confirm {
        store
            .import_transactions(&caller.actor(true), &portfolio.name, &plan)
            .await
            .map_err(refused_by_store)?
    } else {
        0
    };
    Ok(Json(ImportReply {
        portfolio: portfolio.name,
        new: plan.new_rows().count(),
        duplicates: plan.duplicates().count(),
        written,
        confirmed: body.confirm,
        rows_total: plan.rows.len(),
        rows: plan.rows.iter().take(ROWS_SHOWN).cloned().collect(),
        unknown_columns: plan.unknown_columns,
        errors: plan.errors,
    }))
}

/// A confirmed file with problems: nothing written, each problem under `line N: field`, as
/// the CLI lists them.
fn refused_lines(plan: &ImportPreview) -> ApiError {
    let lines = plan.errors.len().to_string();
    let problems = plan
        .errors
        .iter()
        .flat_map(|e| {
            e.problems.iter().map(move |p| {
                let said = format!("line {}: {p}", e.line);
                (
                    format!("line {}: {}", e.line, p.field),
                    Worded::new(said.clone(), format!("第 {} 行：{p}", e.line)),
                )
            })
        })
        .collect();
    ApiError {
        status: StatusCode::UNPROCESSABLE_ENTITY,
        code: "validation",
        message: Worded::new(
            format!(
                "nothing was imported: {lines} line(s) have problems (each under `problems`); fix them and upload the file again"
            ),
            format!("没有导入任何记录：{lines} 行有问题（见 `problems`）；改好后请重新上传文件"),
        ),
        problems,
    }
}
