//! Controls where people watch, and the trade list: a paper trader started from its dashboard
//! card (no question, "Starting…"), one of its positions closed from the card through the
//! confirmation ("Closing…"), stopped from the card through the confirmation ("Stopping…"),
//! and its page then lists its closed trades with the manual exit. On a phone the close and
//! "stop and close all" are made from the trader's page. Each state the button passed through
//! is recorded in the page as it happens, so a state too short to poll for is still checked.

use nofxi_domain::{Actor, Channel, ExchangeSpec, ModelSpec, StrategySpec, TraderSpec};
use nofxi_server::access::LOCAL_USER;
use rust_decimal::Decimal;
use serde_json::{Value, json};

use super::harness::{App, Browser, TestResult, Viewport, with_app_and_browser};
use super::no_sideways_scroll;

const CARD: &str = "[data-trader=\"bot\"]";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trader_is_started_closed_and_stopped_from_its_dashboard_card() -> TestResult {
    with_app_and_browser("controls", Viewport::DESKTOP, &[], async |app, b| {
        a_paper_trader(app).await?;
        b.goto("#/").await?;
        record_button_labels(b).await?;
        start_from_card(b).await?;
        close_from(b, CARD, "card").await?;
        stop_from_card(b).await?;
        trade_list_shows_the_manual_exit(b, false).await?;
        Ok(())
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_controls_and_the_trade_list_work_on_a_phone() -> TestResult {
    with_app_and_browser("controls-phone", Viewport::PHONE, &[], async |app, b| {
        check!(
            b.eval("return window.innerWidth").await? == json!(375),
            "the phone viewport is not 375 px wide"
        );
        a_paper_trader(app).await?;
        b.goto("#/").await?;
        record_button_labels(b).await?;
        start_from_card(b).await?;
        no_sideways_scroll(b, "the dashboard with its controls").await?;
        b.goto("#/traders/bot").await?;
        b.wait_for("#trader-stop").await?;
        close_from(b, ".trader-page", "page").await?;
        no_sideways_scroll(b, "the trader page with its positions").await?;
        stop_and_close_all(b).await?;
        trade_list_shows_the_manual_exit(b, true).await?;
        Ok(())
    })
    .await
}

/// A paper account, the builtin model, a strategy and the trader `bot`, not started.
async fn a_paper_trader(app: &App) -> TestResult {
    let store = app.store();
    let cli = Actor::new(LOCAL_USER, Channel::Cli, true);
    let paper = ExchangeSpec {
        exchange_type: "paper".into(),
        account_name: "main".into(),
        enabled: true,
        testnet: false,
    };
    store
        .create_exchange(&cli, paper, Default::default())
        .await?;
    let model = ModelSpec {
        name: "rules".into(),
        provider: "builtin".into(),
        enabled: true,
        base_url: None,
        model_name: None,
    };
    store.create_model(&cli, model, None).await?;
    store.create_strategy(&cli, StrategySpec::new("s1")).await?;
    let spec = TraderSpec::new("bot", "rules", "main", "s1", Decimal::from(1_000));
    store.create_trader(&cli, spec).await?;
    Ok(())
}

/// From now on every label a control button shows is kept in `window.seenLabels`.
async fn record_button_labels(b: &Browser) -> TestResult {
    b.eval(
        "window.seenLabels = new Set();\
         const note = () => document.querySelectorAll('button[data-action]').forEach(x => window.seenLabels.add(x.textContent));\
         new MutationObserver(note).observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true});\
         return true",
    )
    .await?;
    Ok(())
}

/// Clicks the first element matching `css` once there is one, finding and clicking it in one
/// script: the dashboard redraws its cards on every cycle, and an element found by one
/// WebDriver call may be gone by the next.
async fn press(b: &Browser, css: &str) -> TestResult {
    b.wait_until(
        &format!("{css} to press"),
        &format!(
            "const x = document.querySelector({}); if (!x) return false; x.click(); return true",
            json!(css)
        ),
    )
    .await?;
    Ok(())
}

async fn saw_label(b: &Browser, label: &str) -> TestResult<bool> {
    let seen = b
        .eval(&format!("return window.seenLabels.has({})", json!(label)))
        .await?;
    Ok(seen == json!(true))
}

async fn dialog_open(b: &Browser) -> TestResult<Value> {
    b.wait_until(
        "the confirmation dialog",
        "const d = document.getElementById('confirm-dialog');\
         return d && d.open && d.querySelector('#confirm-dialog-summary').textContent",
    )
    .await
}

/// The card's Start: a paper trader starts at once, saying "Starting…" meanwhile, and the
/// card then offers Stop.
async fn start_from_card(b: &Browser) -> TestResult {
    press(
        b,
        &format!("{CARD} button[data-action=start]:not([disabled])"),
    )
    .await?;
    b.wait_for(&format!("{CARD} button[data-action=stop]:not([disabled])"))
        .await?;
    let asked = b
        .eval("const d = document.getElementById('confirm-dialog'); return !!d && d.open")
        .await?;
    check!(asked == json!(false), "a paper start opened a confirmation");
    check!(
        saw_label(b, "Starting…").await?,
        "the Start button never said Starting…"
    );
    b.screenshot("started-from-card").await?;
    Ok(())
}

/// Closes a position listed under `scope` (the card or the trader's page) through its
/// confirmation. The engine may close the position itself between the list and the Confirm
/// (an opposite cross, a stop): the refusal then says so in words, and the next position is
/// closed instead.
async fn close_from(b: &Browser, scope: &str, place: &str) -> TestResult {
    let button = format!("{scope} button[data-action=close-position]:not([disabled])");
    for attempt in 0..4 {
        let symbol = b
            .wait_until_for(
                "a position to close",
                std::time::Duration::from_secs(90),
                &format!(
                    "const x = document.querySelector('{button}'); return x && x.dataset.symbol"
                ),
            )
            .await?;
        press(b, &button).await?;
        let summary = dialog_open(b).await?;
        b.screenshot(&format!("close-dialog-{place}")).await?;
        let symbol = symbol.as_str().unwrap_or_default().to_string();
        check!(
            summary
                .as_str()
                .is_some_and(|s| s.contains(&symbol) && s.contains("bot")),
            "the close dialog does not name bot's {symbol} position: {summary}"
        );
        b.click("#confirm-dialog [data-action=confirm]").await?;
        let outcome = b
            .wait_until(
                "the close's outcome",
                "const ok = [...document.querySelectorAll('#toasts .toast.ok')].find(t => t.textContent.includes('closed'));\
                 const no = document.querySelector('[data-trader-error]');\
                 return ok ? 'closed' : no ? 'refused: ' + no.textContent : null",
            )
            .await?;
        let outcome = outcome.as_str().unwrap_or_default().to_string();
        if outcome == "closed" {
            check!(
                saw_label(b, "Closing…").await?,
                "the Close button never said Closing…"
            );
            b.screenshot(&format!("closed-from-{place}")).await?;
            return Ok(());
        }
        check!(
            outcome.contains("holds no") && attempt < 3,
            "the close was refused: {outcome}"
        );
    }
    Err("no close went through".into())
}

/// The card's Stop: asked first (a running trader, paper included), "Stopping…", then the
/// card offers Start again.
async fn stop_from_card(b: &Browser) -> TestResult {
    b.goto("#/").await?;
    press(
        b,
        &format!("{CARD} button[data-action=stop]:not([disabled])"),
    )
    .await?;
    let summary = dialog_open(b).await?;
    b.screenshot("stop-dialog").await?;
    check!(
        summary
            .as_str()
            .is_some_and(|s| s.contains("Stop trader bot")),
        "the stop dialog does not name bot: {summary}"
    );
    b.click("#confirm-dialog [data-action=confirm]").await?;
    b.wait_for(&format!("{CARD} button[data-action=start]:not([disabled])"))
        .await?;
    b.wait_for(&format!("{CARD} .badge.state-stopped")).await?;
    check!(
        saw_label(b, "Stopping…").await?,
        "the Stop button never said Stopping…"
    );
    b.screenshot("stopped-from-card").await?;
    Ok(())
}

/// The trader page's "Stop and close all": the dialog lists what it closes; the trader ends
/// stopped with no open position.
async fn stop_and_close_all(b: &Browser) -> TestResult {
    b.wait_until_for(
        "another position to close",
        std::time::Duration::from_secs(90),
        "return !!document.querySelector('.trader-page button[data-action=close-position]')",
    )
    .await?;
    // The token is bound to the positions the dialog listed: one the trader opened or closed
    // while it was open makes it stale, said in words, and the user asks again.
    for attempt in 0..3 {
        press(b, "#trader-stop-close:not([disabled])").await?;
        let summary = dialog_open(b).await?;
        b.screenshot("stop-close-dialog").await?;
        check!(
            summary.as_str().is_some_and(|s| s.contains("close all")),
            "the dialog does not say it closes everything: {summary}"
        );
        no_sideways_scroll(b, "the stop-and-close confirmation").await?;
        b.click("#confirm-dialog [data-action=confirm]").await?;
        let outcome = b
            .wait_until_for(
                "the trader stopped with no open position",
                std::time::Duration::from_secs(90),
                "const no = document.querySelector('[data-trader-error]');\
                 if (no) return 'refused: ' + no.textContent;\
                 return !!document.querySelector('#trader-start:not([disabled])')\
                   && !document.querySelector('.trader-page button[data-action=close-position]')\
                   && 'done'",
            )
            .await?;
        let outcome = outcome.as_str().unwrap_or_default().to_string();
        if outcome == "done" {
            break;
        }
        check!(
            outcome.contains("no longer the pending one") && attempt < 2,
            "stop and close all was refused: {outcome}"
        );
    }
    b.screenshot("stopped-and-closed").await?;
    Ok(())
}

/// The trader's page lists its closed trades, newest first, one of them the manual exit with
/// its entry and exit; in Chinese too.
async fn trade_list_shows_the_manual_exit(b: &Browser, phone: bool) -> TestResult {
    b.goto("#/traders/bot").await?;
    let row = b
        .wait_until(
            "the manual exit in the trade list",
            "const r = document.querySelector('#trader-trades tr[data-exit-reason=manual]');\
             return r && [...r.querySelectorAll('td')].map(td => [td.dataset.label, td.textContent])",
        )
        .await?;
    b.eval("document.getElementById('trader-trades').scrollIntoView(); return true")
        .await?;
    b.screenshot("trade-list").await?;
    let cells: Vec<(String, String)> = serde_json::from_value(row.clone())?;
    let cell = |label: &str| {
        cells
            .iter()
            .find(|(l, _)| l == label)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    check!(
        cell("Exit reason") == "Closed by hand",
        "the manual exit says {row}"
    );
    for label in ["Entry price", "Exit price", "Size", "Fees", "P&L", "Held"] {
        check!(
            !cell(label).is_empty() && cell(label) != "—",
            "{label} is empty in {row}"
        );
    }
    // The equity chart marks the exit, its tooltip saying what it was.
    let marked = b
        .eval(
            "return [...document.querySelectorAll('#trader-equity-chart .chart-marker.marker-exit title')]\
             .some(t => t.textContent.includes('Closed by hand'))",
        )
        .await?;
    check!(
        marked == json!(true),
        "the equity chart has no marker for the manual exit"
    );
    let summary = b
        .eval("return document.querySelector('#trader-trades .trades-summary').textContent")
        .await?;
    check!(
        summary.as_str().is_some_and(|s| s.contains("closed trade")),
        "the list has no summary line: {summary}"
    );
    if phone {
        no_sideways_scroll(b, "the trade list").await?;
    }
    b.wait_for("#lang-switch")
        .await?
        .select_by_value("zh")
        .await?;
    let reason = b
        .wait_until(
            "the manual exit in Chinese",
            "const r = document.querySelector('#trader-trades tr[data-exit-reason=manual] td[data-label=\"平仓原因\"]');\
             return r && r.textContent",
        )
        .await?;
    b.eval("document.getElementById('trader-trades').scrollIntoView(); return true")
        .await?;
    b.screenshot("trade-list-zh").await?;
    check!(
        reason == json!("手动平仓"),
        "the Chinese list says {reason}"
    );
    b.wait_for("#lang-switch")
        .await?
        .select_by_value("en")
        .await?;
    Ok(())
}
