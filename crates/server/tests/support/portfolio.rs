//! The sample portfolio the API and browser tests value: a broker's export (deposit 100000,
//! buy 10 600519 at 1500, buy 1000 510300 at 3.5, sell 4 600519 at 1600, fees from the
//! schedules) and the closes of 2024-01-05 (600519 at 1550, 510300 at 3.6), written through
//! the store as `nofxi portfolio add / import / price` write them.
//!
//! On 2024-01-05 `nofxi portfolio show` says: value 100781.59 CNY, unrealized 391.91,
//! realized 389.68; `perf`: time-weighted 0.78 % over all of it (0.0078159).

use nofxi_domain::{Actor, Channel};
use nofxi_portfolio::csv_io::preview;
use nofxi_portfolio::domain::{Account, Currency, Instrument, Market, Portfolio, PriceMark};
use nofxi_store::Store;
use rust_decimal::Decimal;

use super::TestResult;

pub const SAMPLE_CSV: &str = "成交日期,买卖方向,证券代码,成交数量,成交价格,手续费,发生金额
2024-01-02,银行转证券,,,,,100000
2024-01-02,证券买入,600519,10,1500.00,,
2024-01-03,证券买入,510300,1000,3.500,,
2024-01-04,证券卖出,600519,4,1600.00,,
";

/// The valuation day the figures above are for.
pub const SAMPLE_DAY: &str = "2024-01-05";

/// A currency code, its refusal as a test error.
pub fn currency(code: &str) -> TestResult<Currency> {
    code.parse()
        .map_err(|e: nofxi_portfolio::FieldError| e.to_string().into())
}

/// `user`'s portfolio `name` (base CNY, FIFO, one account `main`) with the sample imported
/// and the day's closes recorded.
pub async fn add_sample_portfolio(store: &Store, user: &str, name: &str) -> TestResult {
    let actor = Actor::new(user, Channel::Cli, true);
    let mut portfolio = Portfolio::new(name, currency("CNY")?);
    portfolio.accounts.push(Account {
        name: "main".into(),
        broker: String::new(),
        currency: currency("CNY")?,
    });
    store.create_portfolio(&actor, &portfolio).await?;
    let plan = preview(&portfolio, &[], SAMPLE_CSV);
    if !plan.errors.is_empty() {
        return Err(format!("the sample does not import: {}", plan.error_report()).into());
    }
    store.import_transactions(&actor, name, &plan).await?;
    let close = |symbol: &str, price: Decimal| -> TestResult<PriceMark> {
        Ok(PriceMark {
            instrument: Instrument::new(Market::Sh, symbol)?,
            date: SAMPLE_DAY.parse()?,
            price,
            source: "user".into(),
        })
    };
    let marks = [
        close("600519", Decimal::new(1550, 0))?,
        close("510300", Decimal::new(36, 1))?,
    ];
    store.record_price_marks(user, &marks).await?;
    Ok(())
}
