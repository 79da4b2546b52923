//! A paper account on Binance's live prices, made in the Exchanges form: the "Market prices"
//! choice shows for a paper account only, the list says the source, and the trader on it says
//! on its page and its dashboard card that its figures rest on live Binance prices (paper),
//! while the engine reads them from a mock Binance over loopback. On a desktop and on a
//! 375 px phone.
//!
//! The server runs in this process and reads `NOFXI_BINANCE_BASE_URL` from the environment,
//! which a test may not change while others run beside it. So each test starts the mock and
//! runs itself again in a child process with the variable pointing at it: the flow runs
//! there, and the parent checks that the engine asked the mock for its prices.

use std::time::Duration;

use nofxi_domain::{Actor, Channel, ModelSpec, StrategySpec, TraderSpec};
use nofxi_server::access::LOCAL_USER;
use nofxi_testkit::binance::MockBinance;
use nofxi_trader::runtime::connect::BINANCE_BASE_URL_ENV;
use rust_decimal::Decimal;
use serde_json::json;

use super::harness::{App, Browser, TestResult, Viewport, with_app_and_browser};
use super::no_sideways_scroll;

const LIVE: &str = "Live Binance prices (paper)";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paper_account_on_live_binance_prices_says_so_on_the_trader_page() -> TestResult {
    if let Some(outcome) = in_child_beside_a_mock(
        "paper_prices::a_paper_account_on_live_binance_prices_says_so_on_the_trader_page",
    )
    .await
    {
        return outcome;
    }
    with_app_and_browser("paper-prices", Viewport::DESKTOP, &[], async |app, b| {
        live_paper_flow(app, b, false).await
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_price_source_shows_on_a_phone() -> TestResult {
    if let Some(outcome) =
        in_child_beside_a_mock("paper_prices::the_price_source_shows_on_a_phone").await
    {
        return outcome;
    }
    with_app_and_browser(
        "paper-prices-phone",
        Viewport::PHONE,
        &[],
        async |app, b| {
            check!(
                b.eval("return window.innerWidth").await? == json!(375),
                "the phone viewport is not 375 px wide"
            );
            live_paper_flow(app, b, true).await
        },
    )
    .await
}

/// In the parent (the variable unset): start the mock, run `test` in a child process with the
/// variable pointing at it, and say how that went; `None` in the child, which runs the flow.
async fn in_child_beside_a_mock(test: &str) -> Option<TestResult> {
    if std::env::var_os(BINANCE_BASE_URL_ENV).is_some() {
        return None;
    }
    Some(run_child(test).await)
}

async fn run_child(test: &str) -> TestResult {
    let mock = MockBinance::start().await?;
    mock.set_price("BTCUSDT", Decimal::new(612_345, 1));
    let out = tokio::process::Command::new(std::env::current_exe()?)
        .args([test, "--exact", "--nocapture", "--test-threads=1"])
        .env(BINANCE_BASE_URL_ENV, mock.url())
        .output()
        .await?;
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    check!(
        out.status.success() && said.contains("1 passed"),
        "the flow failed in its process:\n{said}"
    );
    // The trader's prices were Binance's public ones, read from the mock; nothing traded there.
    check!(
        mock.request_count("GET", "/fapi/v1/ticker/bookTicker") > 0,
        "the engine never read the mock's prices:\n{said}"
    );
    check!(
        mock.request_count("POST", "/fapi/v1/order") == 0,
        "a paper account sent an order to the venue"
    );
    Ok(())
}

async fn live_paper_flow(app: &App, b: &Browser, phone: bool) -> TestResult {
    create_in_the_form(b).await?;
    if phone {
        no_sideways_scroll(b, "the exchanges").await?;
    }
    running_trader_on(app, "live").await?;

    b.goto("#/traders/bot").await?;
    let said = b
        .wait_until(
            "the trader page saying where its prices come from",
            "const p = document.getElementById('trader-prices'); return p && p.textContent",
        )
        .await?;
    check!(
        said.as_str() == Some(&format!("Prices: {LIVE}")),
        "the trader page says {said}"
    );
    // The engine runs it on the mock's prices: a cycle is journalled.
    b.wait_until_for(
        "a journalled cycle",
        Duration::from_secs(60),
        "return document.querySelectorAll('.journal details.cycle').length > 0",
    )
    .await?;
    b.screenshot("trader-live-prices").await?;
    if phone {
        no_sideways_scroll(b, "the trader").await?;
    }

    b.goto("#/").await?;
    let card = b
        .wait_until(
            "the dashboard card's price source",
            "const c = document.querySelector('.trader-card[data-trader=bot] .prices-source');\
             return c && c.textContent",
        )
        .await?;
    check!(
        card.as_str() == Some(&format!("Prices: {LIVE}")),
        "the dashboard card says {card}"
    );
    b.screenshot("dashboard-live-prices").await?;
    if phone {
        no_sideways_scroll(b, "the dashboard").await?;
    }
    Ok(())
}

/// The Exchanges form: the market choice is there for a paper account and gone for a live one;
/// a paper account `live` on Binance's prices is created and listed with its source.
async fn create_in_the_form(b: &Browser) -> TestResult {
    b.goto("#/resources/exchanges").await?;
    b.wait_for("form#exchange-form select[name=market] option[value=binance]")
        .await?;
    let type_select = b
        .wait_for("form#exchange-form select[name=exchange_type]")
        .await?;
    type_select.select_by_value("binance").await?;
    let hidden = "return document.querySelector('form#exchange-form [data-name=market]').hidden";
    check!(
        b.eval(hidden).await? == json!(true),
        "the market choice shows for a Binance account"
    );
    type_select.select_by_value("paper").await?;
    check!(
        b.eval(hidden).await? == json!(false),
        "the market choice is hidden for a paper account"
    );
    let choices = b
        .eval(
            "return [...document.querySelectorAll('form#exchange-form select[name=market] option')]\
             .map(o => o.textContent)",
        )
        .await?;
    check!(
        choices.get(0) == Some(&json!("Simulated prices (offline)"))
            && choices.get(1) == Some(&json!(LIVE)),
        "the choices are {choices}"
    );
    b.wait_for("form#exchange-form select[name=market]")
        .await?
        .select_by_value("binance")
        .await?;
    b.wait_for("form#exchange-form input[name=account_name]")
        .await?
        .send_keys("live")
        .await?;
    b.screenshot("exchange-form-market").await?;
    b.click("form#exchange-form button[type=submit]").await?;
    b.wait_for_row("live").await?;
    let listed = b
        .eval(
            "const r = [...document.querySelectorAll('.resource-table tbody tr')]\
             .find(r => r.textContent.includes('live'));\
             const c = r && r.querySelector('.prices-source'); return c && c.textContent",
        )
        .await?;
    check!(
        listed.as_str() == Some(LIVE),
        "the list says the source is {listed}"
    );
    b.screenshot("exchange-list-market").await?;
    Ok(())
}

/// The builtin model, a strategy on BTC, and the trader `bot` on `exchange`, started: the
/// engine in the server runs it.
async fn running_trader_on(app: &App, exchange: &str) -> TestResult {
    let store = app.store();
    let cli = Actor::new(LOCAL_USER, Channel::Cli, true);
    let model = ModelSpec {
        name: "rules".into(),
        provider: "builtin".into(),
        enabled: true,
        base_url: None,
        model_name: None,
    };
    store.create_model(&cli, model, None).await?;
    store.create_strategy(&cli, StrategySpec::new("s1")).await?;
    let spec = TraderSpec::new("bot", "rules", exchange, "s1", Decimal::from(1_000));
    store.create_trader(&cli, spec).await?;
    store.set_trader_running(&cli, "bot", true).await?;
    Ok(())
}
