//! A price or an exchange rate typed into the web app: what `nofxi portfolio price CODE PRICE
//! --date D` and `nofxi portfolio fx FROM TO RATE --date D` record. Marks are the caller's,
//! shared by all their portfolios; a later one for the same code (or pair) and day replaces
//! it. Codes are read as the CLI reads them, currencies must be known ones.

use std::str::FromStr;

use axum::Json;
use axum::extract::State;
use axum::http::Method;
use axum::routing::post;
use jiff::civil::Date;
use nofxi_domain::validation::shown_input;
use nofxi_portfolio::domain::{Currency, FxMark, PriceMark};
use nofxi_portfolio::{FieldError, PortfolioError};
use rust_decimal::Decimal;
use serde::Deserialize;

use super::portfolios::{refused_by_portfolio, refused_by_store};
use super::{Body, Op, Reply, schema};
use crate::access::Caller;
use crate::error::ApiResult;
use crate::state::AppState;

pub fn operations() -> Vec<Op> {
    vec![
        Op::new(
            Method::POST,
            "/api/marks/prices",
            "portfolios",
            "Record an instrument's price on a day (`nofxi portfolio price`), used to value holdings between their trades",
            Reply::Json(200, schema::<PriceMark>),
            post(price),
        )
        .body(schema::<PriceBody>),
        Op::new(
            Method::POST,
            "/api/marks/rates",
            "portfolios",
            "Record an exchange rate on a day (`nofxi portfolio fx`): one `from` buys `rate` of `to`; both must be known currency codes",
            Reply::Json(200, schema::<FxMark>),
            post(rate),
        )
        .body(schema::<RateBody>),
    ]
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PriceBody {
    /// 600519, 00700.HK, AAPL, or MARKET:CODE (FUND:110022, CRYPTO:BTC).
    pub code: String,
    /// Per unit, in the instrument's currency, as text (`1550.00`).
    pub price: String,
    /// YYYY-MM-DD; today when absent.
    #[serde(default)]
    pub date: Option<String>,
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RateBody {
    /// The currency converted from (HKD).
    pub from: String,
    /// The currency converted to (CNY).
    pub to: String,
    /// Units of `to` one `from` buys, as text (`0.91`).
    pub rate: String,
    /// YYYY-MM-DD; today when absent.
    #[serde(default)]
    pub date: Option<String>,
}

/// A field's parse, its refusal kept under that field.
fn field<T>(
    name: &str,
    result: Result<T, FieldError>,
    problems: &mut Vec<FieldError>,
) -> Option<T> {
    result
        .map_err(|mut e| {
            e.field = name.to_string();
            problems.push(e);
        })
        .ok()
}

/// A positive amount as text.
fn amount(text: &str, what: &str) -> Result<Decimal, FieldError> {
    Decimal::from_str(text.trim()).map_err(|_| {
        FieldError::new(
            "",
            format!("`{}` is not a number", shown_input(text.trim())),
            format!("give {what} as a number, e.g. 15.20"),
        )
    })
}

/// The day a mark is of: today when not given.
fn day(text: Option<&str>) -> Result<Date, FieldError> {
    match text.map(str::trim).filter(|t| !t.is_empty()) {
        None => Ok(jiff::ZonedDateTime::now().date()),
        Some(text) => text.parse().map_err(|_| {
            FieldError::new(
                "",
                format!("`{}` is not a date", shown_input(text)),
                "write it as YYYY-MM-DD",
            )
        }),
    }
}

async fn price(
    State(state): State<AppState>,
    caller: Caller,
    Body(body): Body<PriceBody>,
) -> ApiResult<Json<PriceMark>> {
    let mut problems = Vec::new();
    let instrument = field(
        "code",
        nofxi_portfolio::csv_io::code(&body.code),
        &mut problems,
    );
    let price = field("price", amount(&body.price, "the price"), &mut problems);
    let date = field("date", day(body.date.as_deref()), &mut problems);
    let (Some(instrument), Some(price), Some(date)) = (instrument, price, date) else {
        return Err(refused_by_portfolio(PortfolioError(problems)));
    };
    let mark = PriceMark {
        instrument,
        date,
        price,
        source: "user".into(),
    };
    state
        .store
        .record_price_marks(&caller.user, std::slice::from_ref(&mark))
        .await
        .map_err(refused_by_store)?;
    Ok(Json(mark))
}

async fn rate(
    State(state): State<AppState>,
    caller: Caller,
    Body(body): Body<RateBody>,
) -> ApiResult<Json<FxMark>> {
    let mut problems = Vec::new();
    let from = field("from", body.from.parse::<Currency>(), &mut problems);
    let to = field("to", body.to.parse::<Currency>(), &mut problems);
    let rate = field("rate", amount(&body.rate, "the rate"), &mut problems);
    let date = field("date", day(body.date.as_deref()), &mut problems);
    let (Some(from), Some(to), Some(rate), Some(date)) = (from, to, rate, date) else {
        return Err(refused_by_portfolio(PortfolioError(problems)));
    };
    let mark = FxMark {
        from,
        to,
        date,
        rate,
        source: "user".into(),
    };
    state
        .store
        .record_fx_marks(&caller.user, std::slice::from_ref(&mark))
        .await
        .map_err(refused_by_store)?;
    Ok(Json(mark))
}
