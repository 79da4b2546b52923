//! A portfolio with one CNY account `main`, its records imported from CSV text the way
//! `nofxi portfolio import` does it: what portfolio benchmarks and tests start from.

use nofxi_domain::{Actor, Channel};
use nofxi_portfolio::csv_io::preview;
use nofxi_portfolio::domain::{Account, Portfolio};

use crate::Store;
use crate::error::StoreError;

/// Creates `name` for `user` (base CNY, FIFO, one account `main`) and imports `csv` (none when
/// blank); a row the import refuses is an error naming its line.
pub async fn seed_portfolio(
    store: &Store,
    user: &str,
    name: &str,
    csv: &str,
) -> Result<Portfolio, StoreError> {
    let actor = Actor::new(user, Channel::Cli, true);
    let cny = nofxi_portfolio::domain::Market::Sh.default_currency();
    let mut portfolio = Portfolio::new(name, cny.clone());
    portfolio.accounts.push(Account {
        name: "main".into(),
        broker: String::new(),
        currency: cny,
    });
    store.create_portfolio(&actor, &portfolio).await?;
    if csv.trim().is_empty() {
        return Ok(portfolio);
    }
    let plan = preview(&portfolio, &[], csv);
    if !plan.errors.is_empty() {
        return Err(StoreError::Portfolio(nofxi_portfolio::PortfolioError::one(
            "csv",
            plan.error_report(),
            "fix the seeded CSV",
        )));
    }
    store.import_transactions(&actor, name, &plan).await?;
    Ok(portfolio)
}
