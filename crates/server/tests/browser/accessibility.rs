//! Every page of the web app passes axe-core (the vendored `vendor/axe-core/axe.min.js`, run in
//! the page) with no serious or critical violation, in English and Chinese, on a desktop and a
//! 375 px phone, each in the light and the dark colour scheme; and each of those pages is
//! screenshotted (`a11y-<viewport>-<lang>-<page>.png`) for a person to look at.
//!
//! The data is what a user has after a while: a paper account, the builtin model, a strategy,
//! the trader `bot` running with cycles in its journal and a closed trade (a position closed
//! through the page's dialog), a chat conversation waiting on a confirmation, a backtest result,
//! and two portfolios. The app is in multi-user mode, so the login page is checked too, and so
//! is every state a page opens into: the confirmation dialog, the portfolio's action panels, a
//! form showing the server's errors, the phone's menu. On the phone no page scrolls sideways.
//!
//! While axe reads a page, its live updates are held back (the engine journals a cycle every
//! tenth of a second here, and a page redrawn mid-check would be checked half old, half new);
//! a page counts as read once it has its content and nothing in it changed for a moment. The
//! screenshots land in `$CARGO_TARGET_DIR/browser-screenshots/` (else `target/`).

use std::fmt::Write as _;
use std::time::Duration;

use nofxi_domain::{Actor, Channel, TraderSpec};
use nofxi_store::test_support::{PaperBasics, seed_paper_basics};
use rust_decimal::Decimal;
use serde_json::{Value, json};

use super::harness::{App, Browser, TestResult, Viewport, with_app, with_browser};
use super::no_sideways_scroll;
use super::support::portfolio::{SAMPLE_DAY, add_sample_portfolio};

/// axe-core, injected into the page under test (test-only: it never ships in the binary).
const AXE: &str = include_str!("vendor/axe-core/axe.min.js");
const USER: (&str, &str) = ("ada", "correct horse battery");
const TRADER: &str = "bot";
/// The impacts that fail the test; moderate and minor ones are reported only.
const FAILING: [&str; 2] = ["serious", "critical"];
/// Elements named per violation; the rest are counted (a journal repeats one badge 50 times).
const SHOWN_NODES: usize = 4;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_page_passes_axe_on_a_desktop_light_and_dark() -> TestResult {
    every_page_passes_axe([
        ("desktop", Viewport::DESKTOP),
        ("desktop-dark", Viewport::DESKTOP.dark()),
    ])
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_page_passes_axe_on_a_phone_light_and_dark() -> TestResult {
    every_page_passes_axe([
        ("phone", Viewport::PHONE),
        ("phone-dark", Viewport::PHONE.dark()),
    ])
    .await
}

/// The violations found so far, one entry each (page, rule, impact, every node's target and
/// why): the serious and critical ones, and all of them.
#[derive(Default)]
struct Findings {
    failing: Vec<String>,
    all: Vec<String>,
}

async fn every_page_passes_axe(viewports: [(&str, Viewport); 2]) -> TestResult {
    with_app(&[USER], async |app| {
        realistic_data(app).await?;
        let mut found = Findings::default();
        let mut outcome = Ok(());
        for (i, (label, viewport)) in viewports.into_iter().enumerate() {
            let name = format!("a11y-{label}");
            let found = &mut found;
            outcome = with_browser(app, &name, viewport, async |b| {
                session(b, label, viewport.is_phone(), i == 0, found).await
            })
            .await;
            if outcome.is_err() {
                break;
            }
        }
        // What was found so far, even when a step failed before the end.
        eprintln!(
            "axe: {} violation(s) in all, {} serious or critical:\n{}",
            found.all.len(),
            found.failing.len(),
            found.all.join("\n")
        );
        outcome?;
        check!(
            found.failing.is_empty(),
            "{} serious or critical accessibility violation(s):\n{}",
            found.failing.len(),
            found.failing.join("\n")
        );
        Ok(())
    })
    .await
}

/// The user's objects, written as the CLI writes them: a paper account, the builtin model, a
/// strategy, the trader (started later, from its page) and two portfolios (so the portfolio
/// list shows instead of opening the only one).
async fn realistic_data(app: &App) -> TestResult {
    let store = app.store();
    let cli = Actor::new(USER.0, Channel::Cli, true);
    seed_paper_basics(store, &cli, PaperBasics::named("main", "builtin", "s1")).await?;
    let spec = TraderSpec::new(TRADER, "builtin", "main", "s1", Decimal::from(1_000));
    store.create_trader(&cli, spec).await?;
    add_sample_portfolio(store, USER.0, "mine").await?;
    add_sample_portfolio(store, USER.0, "family").await?;
    Ok(())
}

/// One browser: the login page, then (the first time) the trader started and a position closed,
/// the chat and a backtest, then every page in both languages.
async fn session(
    b: &Browser,
    viewport: &str,
    phone: bool,
    first: bool,
    found: &mut Findings,
) -> TestResult {
    install_hold_and_clock(b).await?;
    for lang in ["en", "zh"] {
        set_lang(b, lang).await?;
        let at = format!("{viewport} {lang} login");
        visit(
            b,
            &at,
            "return !!document.querySelector('form#login-form input')",
        )
        .await?;
        audit(b, &at, None, found).await?;
        b.screenshot(&format!("{lang}-login")).await?;
    }
    set_lang(b, "en").await?;
    log_in(b).await?;
    if first {
        a_closed_trade(b, viewport, found).await?;
    }
    b.goto("#/chat").await?;
    b.say("list my traders").await?;
    b.say("stop all").await?;
    b.wait_for("#task-panel .confirmation button[data-confirm=no]")
        .await?;
    a_backtest_result(b).await?;

    hold(b, true).await?;
    for lang in ["en", "zh"] {
        set_lang(b, lang).await?;
        for (page, route, ready) in pages() {
            let at = format!("{viewport} {lang} {page}");
            b.goto(&route).await?;
            visit(b, &at, ready).await?;
            if page == "trader" {
                // The newest cycles opened, as a reader opens them.
                b.eval(
                    "document.querySelectorAll('.journal details.cycle').forEach((d, i) => { if (i < 3) d.open = true; });\
                     return true",
                )
                .await?;
                settle(b, &at).await?;
            }
            audit(b, &at, None, found).await?;
            screenshots(b, &format!("{lang}-{page}"), phone).await?;
            if phone {
                no_sideways_scroll(b, &at).await?;
            }
            match page {
                "dashboard" if phone => menu_open(b, &at, found).await?,
                "trader" => stop_dialog(b, &at, found).await?,
                "exchanges" => form_errors(b, &at, found).await?,
                "portfolio" => portfolio_panels(b, &at, lang, found).await?,
                _ => {}
            }
        }
    }
    hold(b, false).await?;
    set_lang(b, "en").await?;
    b.goto("#/chat").await?;
    b.wait_for("#task-panel h2").await?;
    // Pressed in the page: a WebDriver click scrolls the button under the phone's sticky header.
    press(b, "#task-panel button[data-confirm=no]:not([disabled])").await?;
    b.wait_until(
        "the confirmation answered",
        "return !document.querySelector('#task-panel .confirmation')",
    )
    .await?;
    Ok(())
}

/// (name, route, the page's content is there) for every route of web/app.js.
fn pages() -> Vec<(&'static str, String, &'static str)> {
    let rows = "return !!document.querySelector('.resource-table tbody tr')";
    vec![
        (
            "dashboard",
            "#/".into(),
            "return !!document.querySelector('[data-trader=\"bot\"] svg.equity-chart path.equity-line')\
             && !!document.querySelector('#compare-chart')",
        ),
        (
            "chat",
            "#/chat".into(),
            "return !!document.querySelector('#chat-log .msg.assistant[data-done]')\
             && !!document.querySelector('#task-panel .confirmation')",
        ),
        (
            "trader",
            format!("#/traders/{TRADER}"),
            "return !!document.querySelector('#trader-trades tbody tr')\
             && !!document.querySelector('.journal details.cycle')\
             && !!document.querySelector('#trader-equity-chart')",
        ),
        ("exchanges", "#/resources/exchanges".into(), rows),
        ("models", "#/resources/models".into(), rows),
        ("strategies", "#/resources/strategies".into(), rows),
        ("traders", "#/resources/traders".into(), rows),
        (
            "backtest",
            "#/backtest".into(),
            "return !!document.querySelector('main svg.equity-chart path.equity-line')\
             && !!document.querySelector('#backtest-trades, #backtest-no-trades')",
        ),
        (
            "portfolios",
            "#/portfolio".into(),
            "return document.querySelectorAll('#portfolios-table tbody tr').length === 2",
        ),
        (
            "portfolio-new",
            "#/portfolio?new=1".into(),
            "return !!document.querySelector('.portfolio-create form')",
        ),
        (
            "portfolio",
            format!("#/portfolio/mine?on={SAMPLE_DAY}"),
            "return !!document.querySelector('#holdings-table tr[data-holding]')\
             && !!document.querySelector('svg#performance-chart path.equity-line')\
             && !!document.querySelector('#returns-table')\
             && !!document.querySelector('.page-header input[type=date]')",
        ),
        (
            "settings",
            "#/settings".into(),
            "return !!document.querySelector('.settings-page #settings-tokens')",
        ),
        ("not-found", "#/no-such-page".into(), "return true"),
    ]
}

// ---------------------------------------------------------------------------------------------
// The states a page opens into.

/// The phone's navigation menu, opened.
async fn menu_open(b: &Browser, at: &str, found: &mut Findings) -> TestResult {
    b.click(".menu-btn").await?;
    b.wait_for("#nav-links.open a").await?;
    let at = format!("{at} (menu open)");
    settle(b, &at).await?;
    audit(b, &at, Some("#top"), found).await?;
    let lang = lang_of(b).await?;
    b.screenshot(&format!("{lang}-menu")).await?;
    b.click(".menu-btn").await?;
    Ok(())
}

/// The trader page's Stop asks in the confirmation dialog; Cancel leaves it running.
async fn stop_dialog(b: &Browser, at: &str, found: &mut Findings) -> TestResult {
    press(b, "#trader-stop:not([disabled])").await?;
    dialog_open(b).await?;
    let at = format!("{at} (stop dialog)");
    audit(b, &at, Some("#confirm-dialog"), found).await?;
    let lang = lang_of(b).await?;
    b.screenshot(&format!("{lang}-stop-dialog")).await?;
    b.click("#confirm-dialog [data-action=cancel]").await?;
    b.wait_until(
        "the dialog closed",
        "const d = document.getElementById('confirm-dialog'); return !d || !d.open",
    )
    .await?;
    Ok(())
}

/// The new-account form sent empty: the server's problems under its fields.
async fn form_errors(b: &Browser, at: &str, found: &mut Findings) -> TestResult {
    b.click("form#exchange-form button[type=submit]").await?;
    b.wait_until(
        "a field error on the empty account form",
        "return !!document.querySelector('form#exchange-form .field-error:not(:empty)')",
    )
    .await?;
    let at = format!("{at} (form errors)");
    settle(b, &at).await?;
    audit(b, &at, None, found).await?;
    let lang = lang_of(b).await?;
    b.screenshot(&format!("{lang}-exchange-form-errors"))
        .await?;
    Ok(())
}

/// Each of the portfolio's action panels (import, record, price, rate, account), opened.
async fn portfolio_panels(b: &Browser, at: &str, lang: &str, found: &mut Findings) -> TestResult {
    for action in ["import", "record", "price", "rate", "account"] {
        press(b, &format!("#portfolio-{action}[aria-expanded=false]")).await?;
        b.wait_until(
            &format!("the {action} panel"),
            "const p = document.getElementById('portfolio-panel');\
             return !!p && !p.hidden && !!p.querySelector('input, select, textarea')",
        )
        .await?;
        let at = format!("{at} ({action} panel)");
        settle(b, &at).await?;
        audit(b, &at, Some("#portfolio-panel"), found).await?;
        b.screenshot(&format!("{lang}-portfolio-{action}")).await?;
        press(b, &format!("#portfolio-{action}[aria-expanded=true]")).await?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Getting the data a user would have.

async fn log_in(b: &Browser) -> TestResult {
    b.wait_for("form#login-form input[name=user]")
        .await?
        .send_keys(USER.0)
        .await?;
    b.wait_for("form#login-form input[name=password]")
        .await?
        .send_keys(USER.1)
        .await?;
    b.click("form#login-form button[type=submit]").await?;
    b.wait_until(
        "the dashboard after logging in",
        "return !document.getElementById('login-form') && !!document.querySelector('.dashboard .card-grid')",
    )
    .await?;
    Ok(())
}

/// The trader started from its page, then one of its positions closed through the dialog (the
/// dialog checked on the way): its page then lists a closed trade. A position the engine closed
/// itself first is a closed trade as well.
async fn a_closed_trade(b: &Browser, viewport: &str, found: &mut Findings) -> TestResult {
    b.goto(&format!("#/traders/{TRADER}")).await?;
    press(b, "#trader-start:not([disabled])").await?;
    b.wait_for("#trader-stop:not([disabled])").await?;
    b.wait_until_for(
        "a position to close",
        Duration::from_secs(90),
        "return !!document.querySelector('.trader-page button[data-action=close-position]:not([disabled])')",
    )
    .await?;
    press(
        b,
        ".trader-page button[data-action=close-position]:not([disabled])",
    )
    .await?;
    dialog_open(b).await?;
    audit(
        b,
        &format!("{viewport} en trader (close dialog)"),
        Some("#confirm-dialog"),
        found,
    )
    .await?;
    b.screenshot("en-close-dialog").await?;
    b.click("#confirm-dialog [data-action=confirm]").await?;
    b.wait_until_for(
        "a closed trade on the trader's page",
        Duration::from_secs(90),
        "return !!document.querySelector('#trader-trades tbody tr')",
    )
    .await?;
    Ok(())
}

/// The Backtest page's form run as it comes (the strategy, the simulated market, a month).
async fn a_backtest_result(b: &Browser) -> TestResult {
    b.goto("#/backtest").await?;
    b.wait_for("form#backtest-form select[name=strategy] option[value]")
        .await?;
    b.click("form#backtest-form button[type=submit]").await?;
    b.wait_until_for(
        "the backtest's result",
        Duration::from_secs(120),
        "return !!document.querySelector('main svg.equity-chart path.equity-line')\
         && !!document.querySelector('#backtest-trades, #backtest-no-trades')",
    )
    .await?;
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// The helpers.

/// Wraps the page's live-update listeners so that `window.a11yHold` holds them back, and keeps
/// the time of the page's last change in `window.a11yChanged`. Installed before the app opens
/// its event stream (it does after the login).
async fn install_hold_and_clock(b: &Browser) -> TestResult {
    b.eval(
        "const add = EventSource.prototype.addEventListener;\
         EventSource.prototype.addEventListener = function (type, fn, opts) {\
           return add.call(this, type, (e) => { if (!window.a11yHold) fn(e); }, opts);\
         };\
         window.a11yChanged = performance.now();\
         new MutationObserver(() => { window.a11yChanged = performance.now(); })\
           .observe(document, {subtree: true, childList: true, attributes: true, characterData: true});\
         return true",
    )
    .await?;
    Ok(())
}

async fn hold(b: &Browser, on: bool) -> TestResult {
    b.eval(&format!("window.a11yHold = {on}; return true"))
        .await?;
    Ok(())
}

async fn set_lang(b: &Browser, lang: &str) -> TestResult {
    b.wait_for("#lang-switch")
        .await?
        .select_by_value(lang)
        .await?;
    let html = if lang == "zh" { "zh-CN" } else { "en" };
    b.wait_until(
        &format!("the page in {lang}"),
        &format!("return document.documentElement.lang === '{html}'"),
    )
    .await?;
    Ok(())
}

async fn lang_of(b: &Browser) -> TestResult<String> {
    let lang = b
        .eval("return document.documentElement.lang.slice(0, 2)")
        .await?;
    Ok(lang.as_str().unwrap_or("en").to_string())
}

/// Waits for the page's content (`ready`, a function body), its headline and no loading line,
/// then for the page to stop changing.
async fn visit(b: &Browser, at: &str, ready: &str) -> TestResult {
    b.wait_until(
        &format!("the content of {at}"),
        &format!(
            "const m = document.getElementById('main');\
             const h = m && m.querySelector('h1');\
             if (!h || !h.textContent.trim() || m.querySelector('.loading')) return false;\
             {ready}"
        ),
    )
    .await?;
    settle(b, at).await
}

/// Nothing in the page changed for 400 ms: its reads have landed and been drawn.
async fn settle(b: &Browser, at: &str) -> TestResult {
    b.wait_until(
        &format!("{at} to stop changing"),
        "return performance.now() - window.a11yChanged > 400",
    )
    .await?;
    Ok(())
}

/// Clicks `css` once there is one, finding and clicking it in one script (a redraw between a
/// find and a click would lose the element).
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

async fn dialog_open(b: &Browser) -> TestResult {
    b.wait_until(
        "the confirmation dialog",
        "const d = document.getElementById('confirm-dialog');\
         return !!d && d.open && d.querySelector('#confirm-dialog-summary').textContent.length > 0",
    )
    .await?;
    Ok(())
}

/// The page as a person sees it: on a desktop one picture of the whole page (the window made
/// as tall as the page for it); on a phone one per screenful, down to the end (at most 4).
async fn screenshots(b: &Browser, state: &str, phone: bool) -> TestResult {
    let sizes = b
        .eval(
            "return [document.documentElement.scrollHeight, window.innerHeight, \
             window.outerHeight - window.innerHeight]",
        )
        .await?;
    let size = |i: usize| sizes[i].as_u64().unwrap_or(0);
    let (height, screen, chrome) = (size(0), size(1).max(1), size(2));
    if !phone {
        // The window made as tall as the page (plus the window's own frame), then put back.
        let tall = height.min(6000);
        if tall > screen {
            b.client
                .set_window_size(1280, (tall + chrome) as u32)
                .await?;
            b.wait_until(
                "the window as tall as the page",
                &format!("return window.innerHeight >= {tall}"),
            )
            .await?;
        }
        b.screenshot(state).await?;
        if tall > screen {
            b.client
                .set_window_size(1280, (screen + chrome) as u32)
                .await?;
            b.wait_until(
                "the window back to its size",
                &format!("return window.innerHeight === {screen}"),
            )
            .await?;
        }
        return Ok(());
    }
    let screens = height.div_ceil(screen).clamp(1, 4);
    for i in 0..screens {
        b.eval(&format!("window.scrollTo(0, {}); return true", i * screen))
            .await?;
        let name = if screens == 1 {
            state.to_string()
        } else {
            format!("{state}-{}", i + 1)
        };
        b.screenshot(&name).await?;
    }
    b.eval("window.scrollTo(0, 0); return true").await?;
    Ok(())
}

/// Runs axe on the page (or on `context`, a CSS selector) and adds what it finds.
async fn audit(b: &Browser, at: &str, context: Option<&str>, found: &mut Findings) -> TestResult {
    if b.eval("return !!window.axe").await? != json!(true) {
        // The vendored file run as a script of the page, defining window.axe.
        b.client
            .execute(
                "(0, eval)(arguments[0]); return !!window.axe",
                vec![json!(AXE)],
            )
            .await?;
    }
    let result = b
        .client
        .execute_async(
            "const [context, done] = arguments;\
             const root = context ? document.querySelector(context) : document;\
             if (!root) { done({error: 'nothing matches ' + context}); return; }\
             axe.run(root, {resultTypes: ['violations']}).then(\
               (r) => done({violations: r.violations.map((v) => ({\
                 id: v.id, impact: v.impact, help: v.help,\
                 nodes: v.nodes.map((n) => ({target: n.target.map(String).join(' '), impact: n.impact,\
                   summary: (n.failureSummary || '').replace(/\\s+/g, ' ').trim()}))}))}),\
               (e) => done({error: String(e)}))",
            vec![json!(context)],
        )
        .await?;
    if let Some(error) = result["error"].as_str() {
        return Err(format!("axe did not run on {at}: {error}").into());
    }
    let violations = result["violations"].as_array().cloned().unwrap_or_default();
    for v in &violations {
        let (id, impact, help) = (str_of(&v["id"]), str_of(&v["impact"]), str_of(&v["help"]));
        let nodes = v["nodes"].as_array().cloned().unwrap_or_default();
        let mut line = format!("[{at}] {id} ({impact}): {help}");
        for n in nodes.iter().take(SHOWN_NODES) {
            let _ = write!(
                line,
                "\n    {} — {}",
                str_of(&n["target"]),
                str_of(&n["summary"])
            );
        }
        if nodes.len() > SHOWN_NODES {
            let _ = write!(line, "\n    … and {} more", nodes.len() - SHOWN_NODES);
        }
        if nodes
            .iter()
            .any(|n| FAILING.contains(&str_of(&n["impact"])))
        {
            found.failing.push(line.clone());
        }
        found.all.push(line);
    }
    Ok(())
}

fn str_of(v: &Value) -> &str {
    v.as_str().unwrap_or("?")
}
