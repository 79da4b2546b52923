//! Creating a portfolio and adding accounts to it from the web app: what `nofxi portfolio add
//! NAME --base CNY --method fifo --account huatai:CNY` does, with the same defaults (base
//! CNY, FIFO, one account `main` in the base currency) and the portfolio crate's checks, each
//! refusal under the body's field.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{Method, StatusCode};
use axum::routing::post;
use nofxi_portfolio::domain::{Account, CostMethod, Currency, Portfolio};
use nofxi_portfolio::{FieldError, PortfolioError};
use serde::Deserialize;

use super::portfolios::{PortfolioSummary, refused_by_portfolio, refused_by_store};
use super::{Body, Op, Reply, schema};
use crate::access::Caller;
use crate::error::ApiResult;
use crate::state::AppState;

pub fn operations() -> Vec<Op> {
    vec![
        Op::new(
            Method::POST,
            "/api/portfolios",
            "portfolios",
            "Create a portfolio with its accounts (`nofxi portfolio add`): base currency CNY, cost method fifo and one account `main` unless given; every invalid field is named in `problems`",
            Reply::Json(201, schema::<PortfolioSummary>),
            post(create),
        )
        .body(schema::<NewPortfolio>),
        Op::new(
            Method::POST,
            "/api/portfolios/{name}/accounts",
            "portfolios",
            "Add an account to a portfolio; its currency is the base currency unless given",
            Reply::Json(200, schema::<PortfolioSummary>),
            post(add_account),
        )
        .body(schema::<NewAccount>),
    ]
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NewPortfolio {
    pub name: String,
    /// The currency totals are shown in (an ISO 4217 code, or USDT…); CNY when absent.
    #[serde(default)]
    pub base_currency: Option<String>,
    /// fifo, average, lifo, hifo or specific; fifo when absent.
    #[serde(default)]
    pub cost_method: Option<String>,
    /// The accounts a CSV's `account` column names; one called `main` when none is given.
    #[serde(default)]
    pub accounts: Vec<NewAccount>,
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NewAccount {
    pub name: String,
    /// The currency its cash is kept in; the portfolio's base currency when absent.
    #[serde(default)]
    pub currency: Option<String>,
    /// The broker or exchange, for your eyes only.
    #[serde(default)]
    pub broker: String,
}

/// Text of a field, or `None` when absent or blank.
fn given(text: Option<&str>) -> Option<&str> {
    text.map(str::trim).filter(|t| !t.is_empty())
}

/// `text` parsed, its refusal put under `field`.
fn parsed<T: std::str::FromStr<Err = FieldError>>(
    field: &str,
    text: &str,
    problems: &mut Vec<FieldError>,
) -> Option<T> {
    text.parse()
        .map_err(|mut e: FieldError| {
            e.field = field.to_string();
            problems.push(e);
        })
        .ok()
}

/// The account a body describes, in `base` unless it names its currency; its problems under
/// `prefix` (`accounts[1].`, or nothing for a body that is the account).
fn account(
    body: &NewAccount,
    base: &Currency,
    prefix: &str,
    problems: &mut Vec<FieldError>,
) -> Option<Account> {
    let currency = match given(body.currency.as_deref()) {
        Some(text) => parsed(&format!("{prefix}currency"), text, problems)?,
        None => base.clone(),
    };
    Some(Account {
        name: body.name.trim().to_string(),
        broker: body.broker.trim().to_string(),
        currency,
    })
}

/// The portfolio a body describes, or every problem of it.
fn portfolio(body: &NewPortfolio) -> Result<Portfolio, Vec<FieldError>> {
    let mut problems = Vec::new();
    let base: Option<Currency> = parsed(
        "base_currency",
        given(body.base_currency.as_deref()).unwrap_or("CNY"),
        &mut problems,
    );
    let method: Option<CostMethod> = parsed(
        "cost_method",
        given(body.cost_method.as_deref()).unwrap_or("fifo"),
        &mut problems,
    );
    let (Some(base), Some(method)) = (base, method) else {
        return Err(problems);
    };
    let mut portfolio = Portfolio::new(body.name.trim(), base.clone());
    portfolio.cost_method = method;
    for (i, spec) in body.accounts.iter().enumerate() {
        let prefix = format!("accounts[{i}].");
        portfolio
            .accounts
            .extend(account(spec, &base, &prefix, &mut problems));
    }
    if body.accounts.is_empty() {
        portfolio.accounts.push(Account {
            name: "main".into(),
            broker: String::new(),
            currency: base,
        });
    }
    problems.extend(portfolio.validate().err().map(|e| e.0).unwrap_or_default());
    if problems.is_empty() {
        Ok(portfolio)
    } else {
        Err(problems)
    }
}

async fn create(
    State(state): State<AppState>,
    caller: Caller,
    Body(body): Body<NewPortfolio>,
) -> ApiResult<(StatusCode, Json<PortfolioSummary>)> {
    let portfolio = portfolio(&body).map_err(|p| refused_by_portfolio(PortfolioError(p)))?;
    state
        .store
        .create_portfolio(&caller.actor(true), &portfolio)
        .await
        .map_err(refused_by_store)?;
    Ok((
        StatusCode::CREATED,
        Json(PortfolioSummary::of(portfolio, 0)),
    ))
}

async fn add_account(
    State(state): State<AppState>,
    caller: Caller,
    Path(name): Path<String>,
    Body(body): Body<NewAccount>,
) -> ApiResult<Json<PortfolioSummary>> {
    let store = &state.store;
    let mut portfolio = store
        .portfolio(&caller.user, &name)
        .await
        .map_err(refused_by_store)?;
    let mut problems = Vec::new();
    let base = portfolio.base_currency.clone();
    let added = account(&body, &base, "", &mut problems);
    if let Some(added) = added {
        portfolio.accounts.push(added);
    }
    // The new account's problems under the body's own fields (`name`, `currency`).
    let at = portfolio.accounts.len().saturating_sub(1);
    let own = format!("accounts[{at}].");
    problems.extend(
        portfolio
            .validate()
            .err()
            .map(|e| e.0)
            .unwrap_or_default()
            .into_iter()
            .map(|mut p| {
                if let Some(rest) = p.field.strip_prefix(&own) {
                    p.field = rest.to_string();
                }
                p
            }),
    );
    PortfolioError::check(problems).map_err(refused_by_portfolio)?;
    store
        .update_portfolio(&caller.actor(true), &portfolio)
        .await
        .map_err(refused_by_store)?;
    let records = store
        .portfolio_transactions(&caller.user, &portfolio.name)
        .await
        .map_err(refused_by_store)?
        .len();
    Ok(Json(PortfolioSummary::of(portfolio, records)))
}
