//! A personal investor's portfolios for the web app: the list, one portfolio on a day, and its
//! daily performance curve, each the caller's own.
//!
//! Every figure is the portfolio crate's (`performance::snapshot`, the one `nofxi portfolio
//! show` prints, and `performance::portfolio_curve`), computed from the caller's stored records
//! and marks; this module reads the store, picks the valuation day, and adds only the words of
//! each figure's basis in the reader's language. Portfolios hold no secrets; replies are built
//! from view types all the same, and errors go out through [`ApiError`] like every other.

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::{Method, StatusCode};
use axum::routing::get;
use jiff::civil::Date;
use nofxi_portfolio::PortfolioError;
use nofxi_portfolio::domain::{Account, CostMethod, Currency, Portfolio};
use nofxi_portfolio::performance::{
    Basis, CurvePoint, Figure, Snapshot, portfolio_curve, snapshot,
};
use nofxi_skills::text::Lang;
use nofxi_store::StoreError;
use serde::{Deserialize, Serialize};

use super::resources::Items;
use super::{Op, Reply, schema};
use crate::access::Caller;
use crate::error::{ApiError, ApiResult, Worded};
use crate::state::AppState;

pub fn operations() -> Vec<Op> {
    vec![
        Op::new(
            Method::GET,
            "/api/portfolios",
            "portfolios",
            "The caller's portfolios: base currency, cost method, accounts, how many records each holds",
            Reply::Json(200, schema::<Items<PortfolioSummary>>),
            get(list),
        ),
        Op::new(
            Method::GET,
            "/api/portfolios/{name}",
            "portfolios",
            "One portfolio on a day (`on`, YYYY-MM-DD, default today): holdings with P&L and the date of their price, cash, value, unrealized and realized with their basis, returns for five periods, allocation, warnings",
            Reply::Json(200, schema::<PortfolioView>),
            get(show),
        )
        .query(schema::<OnQuery>),
        Op::new(
            Method::GET,
            "/api/portfolios/{name}/curve",
            "portfolios",
            "Each day's value and cumulative time-weighted return from the first record to `on`; the last point's return is the snapshot's all-period one",
            Reply::Json(200, schema::<PortfolioCurve>),
            get(curve),
        )
        .query(schema::<OnQuery>),
    ]
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct OnQuery {
    /// The valuation day, YYYY-MM-DD; today on the server's calendar when absent.
    pub on: Option<String>,
}

/// A portfolio in the list.
#[derive(Serialize, schemars::JsonSchema)]
pub struct PortfolioSummary {
    pub name: String,
    pub base_currency: Currency,
    pub cost_method: CostMethod,
    pub accounts: Vec<Account>,
    /// How many transactions are recorded.
    pub records: usize,
}

impl PortfolioSummary {
    pub fn of(portfolio: Portfolio, records: usize) -> PortfolioSummary {
        PortfolioSummary {
            name: portfolio.name,
            base_currency: portfolio.base_currency,
            cost_method: portfolio.cost_method,
            accounts: portfolio.accounts,
            records,
        }
    }
}

/// A portfolio on a day: the snapshot every front end shows, and its bases in words.
#[derive(Serialize, schemars::JsonSchema)]
pub struct PortfolioView {
    #[serde(flatten)]
    pub snapshot: Snapshot,
    pub described: Described,
}

/// What each figure of the snapshot means, in the reply's language (`Accept-Language`): the
/// snapshot's `basis` objects said for a reader, in the same order as the figures.
#[derive(Serialize, schemars::JsonSchema)]
pub struct Described {
    pub unrealized: String,
    pub realized: String,
    /// One per entry of `holdings`.
    pub holdings: Vec<HoldingDescribed>,
    /// One per entry of `returns`.
    pub returns: Vec<ReturnsDescribed>,
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct HoldingDescribed {
    pub unrealized: String,
    pub realized: String,
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct ReturnsDescribed {
    pub time_weighted: String,
    pub money_weighted: Option<String>,
}

/// A portfolio's performance curve up to a day.
#[derive(Serialize, schemars::JsonSchema)]
pub struct PortfolioCurve {
    pub portfolio: String,
    pub base_currency: Currency,
    /// The last day of the curve (the valuation day asked for).
    pub on: String,
    /// Every calendar day from the first record to `on`; empty with nothing recorded by then.
    pub points: Vec<CurvePoint>,
    /// The returns' basis in words, in the reply's language; absent for an empty curve.
    pub described: Option<String>,
}

async fn list(
    State(state): State<AppState>,
    caller: Caller,
) -> ApiResult<Json<Items<PortfolioSummary>>> {
    let store = &state.store;
    let mut items = Vec::new();
    for portfolio in store.portfolios(&caller.user).await? {
        let records = store
            .portfolio_transactions(&caller.user, &portfolio.name)
            .await
            .map_err(refused_by_store)?
            .len();
        items.push(PortfolioSummary::of(portfolio, records));
    }
    Ok(Json(Items { items }))
}

async fn show(
    State(state): State<AppState>,
    caller: Caller,
    Path(name): Path<String>,
    Query(query): Query<OnQuery>,
) -> ApiResult<Json<PortfolioView>> {
    let on = valuation_day(query.on.as_deref())?;
    let inputs = state
        .store
        .portfolio_book(&caller.user, &name)
        .await
        .map_err(refused_by_store)?;
    let snapshot = snapshot(
        &inputs.portfolio,
        &inputs.records,
        &inputs.prices,
        &inputs.rates,
        on,
    )
    .map_err(refused_by_portfolio)?;
    let zh = crate::lang::current() == Lang::Zh;
    let described = describe(&snapshot, zh);
    Ok(Json(PortfolioView {
        snapshot,
        described,
    }))
}

async fn curve(
    State(state): State<AppState>,
    caller: Caller,
    Path(name): Path<String>,
    Query(query): Query<OnQuery>,
) -> ApiResult<Json<PortfolioCurve>> {
    let on = valuation_day(query.on.as_deref())?;
    let inputs = state
        .store
        .portfolio_book(&caller.user, &name)
        .await
        .map_err(refused_by_store)?;
    let portfolio = inputs.portfolio;
    let points = portfolio_curve(
        &portfolio,
        &inputs.records,
        &inputs.prices,
        &inputs.rates,
        on,
    )
    .map_err(refused_by_portfolio)?;
    let described = points.first().map(|first| {
        Basis::TimeWeighted {
            from: first.date,
            to: on,
            currency: portfolio.base_currency.clone(),
        }
        .describe(crate::lang::current() == Lang::Zh)
    });
    Ok(Json(PortfolioCurve {
        portfolio: portfolio.name,
        base_currency: portfolio.base_currency,
        on: on.to_string(),
        points,
        described,
    }))
}

/// What a valuation reads: the portfolio, its records, and the caller's marks.
/// `on`, or today on this machine's calendar (as `nofxi portfolio show` takes it). A day that
/// is not a date is the request's fault, named by its field.
pub(super) fn valuation_day(on: Option<&str>) -> ApiResult<Date> {
    let text = match on.map(str::trim) {
        None | Some("") => return Ok(jiff::ZonedDateTime::now().date()),
        Some(text) => text,
    };
    text.parse().map_err(|e| {
        let message = Worded::new(
            format!("`on`: `{text}` is not a date ({e}); write it as YYYY-MM-DD"),
            format!("`on`：「{text}」不是日期（{e}）；请写成 YYYY-MM-DD"),
        );
        ApiError {
            status: StatusCode::BAD_REQUEST,
            code: "bad_request",
            problems: vec![("on".to_string(), message.clone())],
            message,
        }
    })
}

/// The store's refusals about portfolios, with the status they deserve: an unknown portfolio
/// or record is a 404 in the store's words, a name already taken a 409, records the portfolio
/// crate refuses are a 422.
pub(super) fn refused_by_store(err: StoreError) -> ApiError {
    match err {
        StoreError::UnknownPortfolio { .. } | StoreError::UnknownPortfolioRecord { .. } => {
            ApiError::new(
                StatusCode::NOT_FOUND,
                "not_found",
                Worded::new(err.to_string(), err.to_zh()),
            )
        }
        StoreError::PortfolioExists { .. } => ApiError::new(
            StatusCode::CONFLICT,
            "conflict",
            Worded::new(err.to_string(), err.to_zh()),
        ),
        StoreError::Portfolio(refusal) => refused_by_portfolio(refusal),
        other => other.into(),
    }
}

/// Records that cannot be valued (a missing price or rate, a flow missing): 422 with every
/// problem under its field, each saying what to add.
pub(super) fn refused_by_portfolio(err: PortfolioError) -> ApiError {
    let problems = err
        .0
        .iter()
        .map(|p| (p.field.clone(), Worded::new(p.to_string(), p.to_string())))
        .collect();
    ApiError {
        status: StatusCode::UNPROCESSABLE_ENTITY,
        code: "validation",
        message: Worded::new(err.to_string(), format!("组合记录有误：{err}")),
        problems,
    }
}

fn describe(snapshot: &Snapshot, zh: bool) -> Described {
    let say = |f: &Figure| f.basis.describe(zh);
    Described {
        unrealized: say(&snapshot.unrealized),
        realized: say(&snapshot.realized),
        holdings: snapshot
            .holdings
            .iter()
            .map(|h| HoldingDescribed {
                unrealized: say(&h.pnl.unrealized),
                realized: say(&h.pnl.realized),
            })
            .collect(),
        returns: snapshot
            .returns
            .iter()
            .map(|r| ReturnsDescribed {
                time_weighted: say(&r.time_weighted),
                money_weighted: r.money_weighted.as_ref().map(say),
            })
            .collect(),
    }
}
