//! The web app as a control panel a trader trusts (issue 51, items 7 and 9):
//!
//! - the dashboard sums the traders in one row (equity, P&L, realized, unrealized, open
//!   positions, how many run), each card splits its P&L into realized and unrealized, each
//!   part saying what it rests on, and the parts add up to the P&L;
//! - keyboard focus stays on the control it was on while the dashboard redraws on every
//!   cycle, and comes back to the control that opened a confirmation once it is dismissed;
//! - the trader's journal filters to actions or errors, folds runs of quiet cycles into one
//!   row ("6 cycles with no trade decision, …"), and clips a failed cycle's kilobytes of
//!   error behind "Show all";
//! - a paper account's form hides testnet, the builtin model's hides its base URL, and the
//!   Resources tab bar shows no scrollbar;
//! - a new backtest clears the last result at once, and its own is focused when done.

use nofxi_domain::{Actor, Channel, TraderSpec};
use nofxi_server::access::LOCAL_USER;
use nofxi_store::test_support::{PaperBasics, seed_paper_basics};
use nofxi_store::{CycleRow, Store};
use rust_decimal::Decimal;
use serde_json::{Value, json};

use super::harness::{Browser, TestResult, Viewport, with_app_and_browser};
use super::no_sideways_scroll;

/// A paper account `main`, the builtin model `rules`, a strategy `s1` and paper traders with
/// these names and balances, not started.
async fn paper_traders(store: &Store, traders: &[(&str, i64)]) -> TestResult {
    let cli = Actor::new(LOCAL_USER, Channel::Cli, true);
    seed_paper_basics(store, &cli, PaperBasics::named("main", "rules", "s1")).await?;
    for (name, balance) in traders {
        let spec = TraderSpec::new(*name, "rules", "main", "s1", Decimal::from(*balance));
        store.create_trader(&cli, spec).await?;
    }
    Ok(())
}

/// Clicks the first match of `css` in the same script that finds it: the dashboard redraws
/// its cards on every cycle.
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

/// A number as the page shows it ("+1,024.81", "-2.95") as a float, for adding up.
const NUM: &str = "const num = (s) => parseFloat(String(s).replace(/[^0-9.+-]/g, ''));";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_dashboard_sums_the_traders_and_keeps_focus() -> TestResult {
    with_app_and_browser("panel", Viewport::DESKTOP, &[], async |app, b| {
        paper_traders(app.store(), &[("a", 1_000), ("b", 2_000)]).await?;
        b.goto("#/").await?;
        for name in ["a", "b"] {
            press(
                b,
                &format!("[data-trader=\"{name}\"] button[data-action=start]:not([disabled])"),
            )
            .await?;
            b.wait_for(&format!(
                "[data-trader=\"{name}\"] button[data-action=stop]:not([disabled])"
            ))
            .await?;
        }
        summary_adds_up(b).await?;
        focus_survives_redraws(b).await?;
        focus_returns_after_the_dialog(b).await?;
        no_sideways_scroll(b, "the dashboard with its summary").await?;
        Ok(())
    })
    .await
}

/// Each card's realized and unrealized add up to its P&L, and the summary row is the cards
/// added up — read in one script, so no redraw falls between the figures.
async fn summary_adds_up(b: &Browser) -> TestResult {
    let figures = b
        .wait_until_for(
            "both cards with their P&L split, and the summary",
            std::time::Duration::from_secs(60),
            &format!(
                "{NUM}\
                 const s = document.getElementById('dashboard-summary');\
                 const cards = [...document.querySelectorAll('.trader-card')];\
                 if (!s || cards.length !== 2 || cards.some(c => !c.querySelector('.pnl-split'))) return null;\
                 const kpi = (el, k) => num(el.querySelector(`[data-kpi=${{k}}] dd`).firstChild.textContent);\
                 const card = (c) => ({{\
                   equity: num(c.querySelector('.kpis dd').textContent),\
                   pnl: num(c.querySelectorAll('.kpis dd')[1].firstChild.textContent),\
                   realized: kpi(c, 'realized'), unrealized: kpi(c, 'unrealized'),\
                   basis: c.querySelector('.pnl-basis').textContent,\
                   realizedBasis: c.querySelector('[data-kpi=realized] .basis').textContent }});\
                 return {{ cards: cards.map(card),\
                   running: s.querySelector('[data-kpi=running]').textContent,\
                   equity: kpi(s, 'equity'), pnl: kpi(s, 'pnl'), realized: kpi(s, 'realized'),\
                   unrealized: kpi(s, 'unrealized'), open: kpi(s, 'open_positions'),\
                   positions: document.querySelectorAll('.trader-card .pos-list tbody tr').length }};"
            ),
        )
        .await?;
    b.screenshot("summary").await?;
    let f = |v: &Value| v.as_f64().unwrap_or(f64::NAN);
    // Each figure is shown to the cent: three roundings at most between a sum and its parts.
    let near = |a: f64, b: f64| (a - b).abs() < 0.021;
    check!(
        figures["running"] == json!("2 of 2 running"),
        "the summary says {}",
        figures["running"]
    );
    let cards = figures["cards"].as_array().cloned().unwrap_or_default();
    for card in &cards {
        check!(
            near(
                f(&card["realized"]) + f(&card["unrealized"]),
                f(&card["pnl"])
            ),
            "a card's realized and unrealized do not add up to its P&L: {card}"
        );
        check!(
            card["basis"]
                .as_str()
                .is_some_and(|s| s.contains("since its first start")),
            "a card's P&L does not say what it is measured from: {card}"
        );
        check!(
            card["realizedBasis"]
                .as_str()
                .is_some_and(|s| s.contains("closed trades after fees")),
            "a card's realized P&L does not say what it is: {card}"
        );
    }
    for (key, sum) in [
        ("equity", "equity"),
        ("pnl", "pnl"),
        ("realized", "realized"),
    ] {
        let cards_sum: f64 = cards.iter().map(|c| f(&c[key])).sum();
        check!(
            near(cards_sum, f(&figures[sum])),
            "the summary's {sum} is not the cards' sum: {figures}"
        );
    }
    let unrealized: f64 = cards.iter().map(|c| f(&c["unrealized"])).sum();
    check!(
        near(unrealized, f(&figures["unrealized"])),
        "the summary's unrealized is not the cards' sum: {figures}"
    );
    check!(
        figures["open"] == figures["positions"],
        "the summary's open positions are not the cards': {figures}"
    );
    Ok(())
}

/// Focus on a card's link and on its Stop button stays there across redraws (the engine
/// journals a cycle every few hundred milliseconds here, and each redraws the cards).
async fn focus_survives_redraws(b: &Browser) -> TestResult {
    for (what, css) in [
        ("link", "[data-trader=\"a\"] .card-foot a"),
        ("Stop", "[data-trader=\"a\"] button[data-focus=start-stop]"),
    ] {
        b.wait_until(
            &format!("the card's {what} focused"),
            &format!(
                "const x = document.querySelector({css}); if (!x) return false; x.focus();\
                 window.focusedBefore = x; return document.activeElement === x",
                css = json!(css)
            ),
        )
        .await?;
        let kept = b
            .wait_until(
                &format!("a redraw of the card with its {what} focused"),
                &format!(
                    "if (document.body.contains(window.focusedBefore)) return null;\
                     const a = document.activeElement;\
                     return a && a !== document.body ? a.matches({css}) : 'nothing focused'",
                    css = json!(css)
                ),
            )
            .await?;
        check!(
            kept == json!(true),
            "the card's {what} lost focus when the dashboard redrew: {kept}"
        );
    }
    Ok(())
}

/// Enter on a card's focused Stop opens the confirmation; Escape dismisses it, and focus is
/// on the card's Stop again (a new button by then: the cards redrew meanwhile).
async fn focus_returns_after_the_dialog(b: &Browser) -> TestResult {
    let stop = "[data-trader=\"b\"] button[data-focus=start-stop]:not([disabled])";
    b.wait_for(stop).await?.send_keys("\u{E007}").await?;
    b.wait_until(
        "the stop confirmation",
        "const d = document.getElementById('confirm-dialog'); return d && d.open",
    )
    .await?;
    b.wait_for("#confirm-dialog [data-action=cancel]")
        .await?
        .send_keys("\u{E00C}")
        .await?;
    let back = b
        .wait_until(
            "focus back on b's Stop",
            &format!(
                "const d = document.getElementById('confirm-dialog');\
                 if (d && d.open) return null;\
                 const a = document.activeElement;\
                 return a && a.matches({}) ? 'stop' : null",
                json!(stop)
            ),
        )
        .await?;
    check!(
        back == json!("stop"),
        "focus is not back on b's Stop: {back}"
    );
    let running = b
        .eval("return !!document.querySelector('[data-trader=\"b\"] .badge.state-running')")
        .await?;
    check!(running == json!(true), "dismissing the dialog stopped b");
    Ok(())
}

/// A journal with every kind of cycle, written as the engine journals them: quiet ones in
/// runs, one that traded, and one that failed with an error holding a whole prompt.
async fn handmade_journal(store: &Store, trader_id: &str) -> TestResult {
    let start = store.now_ms() - 15 * 300_000;
    let long_error = format!(
        "model call failed: context too long; the prompt was: {}",
        "BTCUSDT 1h candles, EMA 20/50, RSI 14 … ".repeat(120)
    );
    for n in 1..=15u64 {
        let at = start + (n as i64) * 300_000;
        let account = json!({"asset": "USDT", "wallet_balance": "1000", "unrealized_pnl": "0",
            "equity": "1000", "available": "1000", "margin_used": "0"});
        let (decisions, executions, error) = match n {
            5 => (
                json!([{"symbol": "BTCUSDT", "action": "open_long", "quantity": "0.001",
                        "reasoning": "EMA cross up"}]),
                json!([{"symbol": "BTCUSDT", "what": "open", "ok": true, "order_id": "o-5"}]),
                Value::Null,
            ),
            12 => (json!([]), json!([]), json!(long_error)),
            _ => (json!([]), json!([]), Value::Null),
        };
        let record = json!({
            "trader_id": trader_id, "cycle_number": n, "started_ms": at, "finished_ms": at + 1000,
            "phase": "done", "decider": "builtin", "model": {"id": "m", "name": "rules"},
            "reasoning": if n == 5 { "EMA cross up" } else { "no EMA cross on the latest closed candle" },
            "decisions": decisions, "executions": executions, "error": error,
            "approved": [], "refused": [], "invalid": [], "notes": [],
            "account_before": account, "account_after": null, "positions_after": [],
            "simulated": false,
        });
        let row = CycleRow {
            trader_id: trader_id.to_string(),
            cycle_number: n,
            phase: "done".into(),
            started_at: at,
            equity: Some(Decimal::from(1_000)),
            record,
        };
        store.save_cycle(LOCAL_USER, &row).await?;
    }
    Ok(())
}

/// The journal's rows as the page shows them: `cycle #n` or `group of n`, in order.
const ROWS: &str = "return [...document.querySelectorAll('.journal > details')].map(d =>\
     d.classList.contains('cycle-group')\
       ? 'group of ' + d.querySelectorAll('details.cycle').length\
       : 'cycle #' + d.dataset.cycle)";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_journal_filters_groups_and_clips() -> TestResult {
    with_app_and_browser("journal", Viewport::DESKTOP, &[], async |app, b| {
        paper_traders(app.store(), &[("j", 1_000)]).await?;
        let trader = app.store().get_trader(LOCAL_USER, "j").await?;
        handmade_journal(app.store(), &trader.id).await?;
        b.goto("#/traders/j").await?;
        let rows = b
            .wait_until("the journal's rows", &format!("if (!document.querySelector('.journal')) return null; {ROWS}"))
            .await?;
        // Newest first: #15 on its own, then #14–13 folded, #12 (failed), #11–6 folded, #5
        // (traded), #4–1 folded.
        check!(
            rows == json!(["cycle #15", "group of 2", "cycle #12", "group of 6", "cycle #5", "group of 4"]),
            "the journal's rows: {rows}"
        );
        let group = b
            .eval("return document.querySelectorAll('.journal > details.cycle-group')[1].querySelector('summary').textContent")
            .await?;
        check!(
            group
                .as_str()
                .is_some_and(|g| g.starts_with("6 cycles with no trade decision, ") && g.contains('–')),
            "a group of quiet cycles says {group}"
        );
        b.eval("document.getElementById('sec-trader-journal').scrollIntoView(); return true")
            .await?;
        b.screenshot("journal-grouped").await?;

        // A group opens to its cycles.
        b.eval("document.querySelectorAll('.journal > details.cycle-group')[1].querySelector('summary').click(); return true")
            .await?;
        let inside = b
            .wait_until(
                "the group's cycles",
                "const g = document.querySelectorAll('.journal > details.cycle-group')[1];\
                 return g.open && [...g.querySelectorAll('details.cycle')].map(d => d.dataset.cycle)",
            )
            .await?;
        check!(
            inside == json!(["11", "10", "9", "8", "7", "6"]),
            "the open group holds {inside}"
        );

        // Errors only: the failed cycle, its error clipped behind "Show all".
        b.click("#journal-filter-errors").await?;
        let rows = b
            .wait_until(
                "the errors-only journal",
                &format!("if (!document.querySelector('.journal[data-filter=errors]')) return null; {ROWS}"),
            )
            .await?;
        check!(rows == json!(["cycle #12"]), "errors only shows {rows}");
        b.click(".journal details.cycle[data-cycle='12'] > summary").await?;
        let clip = b
            .wait_until(
                "the failed cycle's clipped error",
                "const c = document.querySelector('.journal details.cycle[data-cycle=\"12\"] details.clip');\
                 return c && [c.querySelector('.clip-head').textContent.length, c.querySelector('.clip-more').textContent]",
            )
            .await?;
        check!(
            clip[0].as_u64().is_some_and(|n| n <= 401)
                && clip[1].as_str().is_some_and(|s| s.starts_with("Show all (") && s.contains("KB")),
            "the long error is not clipped: {clip}"
        );
        b.click(".journal details.cycle[data-cycle='12'] details.clip > summary")
            .await?;
        let full = b
            .wait_until(
                "the whole error",
                "const c = document.querySelector('.journal details.cycle[data-cycle=\"12\"] details.clip');\
                 const f = c && c.open && c.querySelector('.clip-full');\
                 const body = c && c.closest('.cycle-body');\
                 return f && f.getClientRects().length && [f.textContent.length, body.scrollWidth <= body.clientWidth + 1]",
            )
            .await?;
        check!(
            full[0].as_u64().is_some_and(|n| n > 4_000) && full[1] == json!(true),
            "the whole error is not shown, or does not wrap: {full}"
        );
        b.screenshot("journal-error-shown").await?;

        // Actions only: the cycle that traded.
        b.click("#journal-filter-actions").await?;
        let rows = b
            .wait_until(
                "the actions-only journal",
                &format!("if (!document.querySelector('.journal[data-filter=actions]')) return null; {ROWS}"),
            )
            .await?;
        check!(rows == json!(["cycle #5"]), "actions only shows {rows}");
        check!(
            b.eval("return document.activeElement && document.activeElement.id").await?
                == json!("journal-filter-actions"),
            "the filter lost focus when the journal redrew"
        );
        // Back to every cycle.
        b.click("#journal-filter-all").await?;
        b.wait_until(
            "the whole journal again",
            "return !!document.querySelector('.journal[data-filter=all] details.cycle-group')",
        )
        .await?;
        Ok(())
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forms_show_only_what_applies_and_backtests_start_clean() -> TestResult {
    with_app_and_browser("forms", Viewport::DESKTOP, &[], async |app, b| {
        paper_traders(app.store(), &[]).await?;
        b.goto("#/resources/exchanges").await?;
        let select = "#exchange-form select[name=exchange_type]";
        b.wait_for(select).await?;

        b.wait_for(select).await?.select_by_value("paper").await?;
        check!(
            testnet_shown(b).await? == json!(false),
            "a paper account's form shows testnet"
        );
        b.wait_for(select).await?.select_by_value("binance").await?;
        check!(
            testnet_shown(b).await? == json!(true),
            "a Binance account's form hides testnet"
        );
        b.wait_for(select).await?.select_by_value("paper").await?;
        check!(
            testnet_shown(b).await? == json!(false),
            "testnet shows again for paper"
        );
        // The tab bar holds its tabs without a scrollbar.
        let tabs = b
            .eval(
                "const t = document.querySelector('.tabs');\
                 return [t.scrollHeight - t.clientHeight, t.scrollWidth - t.clientWidth]",
            )
            .await?;
        check!(
            tabs == json!([0, 0]),
            "the Resources tab bar overflows (it shows a scrollbar): {tabs}"
        );
        // The builtin model has no endpoint and no model name to set.
        b.goto("#/resources/models").await?;
        b.wait_for("#model-form select[name=provider]")
            .await?
            .select_by_value("builtin")
            .await?;
        let hidden = b
            .eval(
                "return ['base_url', 'model_name'].map(n => document.querySelector(`#model-form .field[data-name=${n}]`).hidden)",
            )
            .await?;
        check!(
            hidden == json!([true, true]),
            "the builtin model's form shows [base URL, model name] hidden = {hidden}"
        );
        b.screenshot("forms").await?;

        backtest_twice(b).await?;
        Ok(())
    })
    .await
}

/// Whether the exchange form shows its testnet box.
async fn testnet_shown(b: &Browser) -> TestResult<Value> {
    b.eval(
        "const f = document.querySelector('#exchange-form .field[data-name=testnet]');\
         return !!f && !f.hidden && f.getClientRects().length > 0",
    )
    .await
}

/// A second backtest: its Run clears the first result at once, and its own result is
/// focused once it is done.
async fn backtest_twice(b: &Browser) -> TestResult {
    use std::time::Duration;
    b.goto("#/backtest").await?;
    b.wait_for("form#backtest-form select[name=strategy] option[value=s1]")
        .await?;
    b.click("form#backtest-form button[type=submit]").await?;
    let focused = b
        .wait_until_for(
            "the first result, focused",
            Duration::from_secs(120),
            "return !!document.querySelector('#backtest-equity-chart') && document.activeElement && document.activeElement.id",
        )
        .await?;
    check!(
        focused == json!("bt-result-title"),
        "the finished backtest's result is not focused: {focused}"
    );
    let cleared = b
        .eval(
            "document.querySelector('form#backtest-form button[type=submit]').click();\
             return !document.querySelector('#backtest-equity-chart, #backtest-trades, #backtest-no-trades')",
        )
        .await?;
    check!(
        cleared == json!(true),
        "the last result still shows after Run was pressed again"
    );
    b.wait_until_for(
        "the second result",
        Duration::from_secs(120),
        "return !!document.querySelector('#backtest-equity-chart')",
    )
    .await?;
    Ok(())
}
