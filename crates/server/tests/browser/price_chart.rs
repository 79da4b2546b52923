//! The trader page's price chart and drawdown: a paper trader runs on the fast engine (paper
//! time 600× faster) until it has closed a trade; its page then draws candles of the symbol it
//! traded last, read from its own account's market on its simulated timeline, with the trade's
//! entry and exit marked where they filled (each fill inside its candle's range: the prices it
//! traded at, not another clock's), each marker reachable by keyboard with a tooltip naming its
//! price; the other symbol of its strategy is a tab away; under the equity chart the drawdown
//! names its maximum. On a desktop and on a 375 px phone, which never scrolls sideways.

use std::time::Duration;

use nofxi_domain::{Actor, Channel, TraderSpec};
use nofxi_server::access::LOCAL_USER;
use nofxi_store::test_support::{PaperBasics, seed_paper_basics};
use rust_decimal::Decimal;
use serde_json::json;

use super::harness::{App, Browser, TestResult, Viewport, with_app_and_browser};
use super::no_sideways_scroll;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_trader_page_draws_candles_with_its_trades_and_its_drawdown() -> TestResult {
    with_app_and_browser("price-chart", Viewport::DESKTOP, &[], async |app, b| {
        price_chart_story(app, b, false).await
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_price_chart_and_drawdown_fit_a_phone() -> TestResult {
    with_app_and_browser("price-chart-phone", Viewport::PHONE, &[], async |app, b| {
        check!(
            b.eval("return window.innerWidth").await? == json!(375),
            "the phone viewport is not 375 px wide"
        );
        price_chart_story(app, b, true).await
    })
    .await
}

async fn price_chart_story(app: &App, b: &Browser, phone: bool) -> TestResult {
    running_paper_trader(app).await?;
    b.goto("#/traders/bot").await?;
    // The first closed trade, as its trade list shows it.
    let traded = b
        .wait_until_for(
            "bot's first closed trade",
            Duration::from_secs(300),
            "const r = document.querySelector('#trader-trades tbody tr');\
             return r && r.dataset.symbol",
        )
        .await?;
    let traded = traded.as_str().unwrap_or_default().to_string();

    // The chart opens on the symbol of the newest trade, its entry and exit marked.
    let marked = b
        .wait_until_for(
            "candles with an entry and an exit marked",
            Duration::from_secs(60),
            "const svg = document.getElementById('trader-price-chart');\
             if (!svg) return false;\
             const n = (css) => svg.querySelectorAll(css).length;\
             return n('g.candle') >= 10 && n('.chart-marker.marker-entry') >= 1\
               && n('.chart-marker.marker-exit') >= 1\
               && [n('g.candle'), n('.chart-marker.marker-entry'), n('.chart-marker.marker-exit')]",
        )
        .await?;
    let pressed = b
        .eval("const x = document.querySelector('.symbol-tabs button[aria-pressed=true]'); return x && x.dataset.symbol")
        .await?;
    check!(
        pressed == json!(traded),
        "the chart opened on {pressed}, not {traded} (the newest trade's symbol); [candles, entries, exits] = {marked}"
    );
    let source = b
        .eval("return document.getElementById('price-chart-source').textContent")
        .await?;
    check!(
        source.as_str().is_some_and(|s| s.contains("main")),
        "the chart does not say its candles are the account main's: {source}"
    );
    fills_sit_in_their_candles(b).await?;
    b.eval("document.getElementById('trader-price-chart').scrollIntoView(); return true")
        .await?;
    b.screenshot("price-chart").await?;

    // The keyboard reaches an exit marker; its tooltip names the price it filled at.
    for kind in ["exit", "entry"] {
        let tip = b
            .eval(&format!(
                "const m = document.querySelector('#trader-price-chart .chart-marker.marker-{kind}');\
                 m.scrollIntoView({{block: 'center'}});\
                 m.focus();\
                 const tip = document.getElementById('chart-tip');\
                 const r = tip && tip.getBoundingClientRect();\
                 const p = m.dataset.price.includes('.') ? m.dataset.price.replace(/0+$/, '').replace(/\\.$/, '') : m.dataset.price;\
                 return [document.activeElement === m, m.tabIndex, !!tip && !tip.hidden,\
                   !!tip && tip.textContent.replace(/,/g, '').includes(p), tip && tip.textContent,\
                   !!r && r.left >= 0 && r.right <= window.innerWidth]"
            ))
            .await?;
        check!(
            tip[0] == json!(true) && tip[1] == json!(0),
            "the {kind} marker cannot take the keyboard's focus: {tip}"
        );
        check!(
            tip[2] == json!(true) && tip[3] == json!(true),
            "the focused {kind} marker's tooltip does not name its price: {tip}"
        );
        check!(
            tip[5] == json!(true),
            "the {kind} tooltip is off screen: {tip}"
        );
        if kind == "exit" {
            b.screenshot("price-chart-exit-tooltip").await?;
        }
    }
    let legend = b
        .eval("return [...document.querySelectorAll('.candle-legend li')].map(li => li.dataset.legend)")
        .await?;
    check!(
        legend == json!(["up", "down", "long", "short", "exit"]),
        "the legend lists {legend}"
    );

    // Under the equity chart: the drawdown, its maximum named.
    let drawdown = b
        .eval(
            "const svg = document.getElementById('trader-drawdown-chart');\
             const c = document.querySelector('.drawdown-caption [data-max-drawdown]');\
             return [!!svg && !!svg.querySelector('path.drawdown-line'), c && c.textContent, c && c.dataset.maxDrawdown]",
        )
        .await?;
    check!(
        drawdown[0] == json!(true),
        "no drawdown chart under the equity chart: {drawdown}"
    );
    let max: f64 = drawdown[2]
        .as_str()
        .unwrap_or("x")
        .parse()
        .unwrap_or(f64::NAN);
    check!(
        max <= 0.0
            && drawdown[1].as_str().is_some_and(|c| if max < 0.0 {
                c.contains('%')
            } else {
                c.contains("never")
            }),
        "the drawdown caption does not name the maximum: {drawdown}"
    );
    b.eval("document.getElementById('trader-drawdown-chart').scrollIntoView({block: 'center'}); return true")
        .await?;
    b.screenshot("drawdown").await?;

    // The strategy's other coin is a tab away; then back.
    let other = b
        .eval("const x = document.querySelector('.symbol-tabs button[aria-pressed=false]'); return x && x.dataset.symbol")
        .await?;
    let other = other.as_str().unwrap_or_default().to_string();
    check!(
        !other.is_empty(),
        "no second symbol to pick (the strategy trades BTC and ETH)"
    );
    b.click(&format!("#price-symbol-{other}")).await?;
    b.wait_until(
        &format!("{other}'s candles"),
        &format!(
            "const svg = document.getElementById('trader-price-chart');\
             return !!svg && svg.getAttribute('aria-label').startsWith({}) && svg.querySelectorAll('g.candle').length >= 10",
            json!(other)
        ),
    )
    .await?;
    b.screenshot("price-chart-other-symbol").await?;
    if phone {
        no_sideways_scroll(b, "the trader page with its price chart").await?;
    }
    b.click(&format!("#price-symbol-{traded}")).await?;
    b.wait_for("#trader-price-chart .chart-marker.marker-exit")
        .await?;
    if phone {
        no_sideways_scroll(b, "the trader page with its drawdown").await?;
    }
    Ok(())
}

/// Every entry and exit marked filled inside the range of the candle it falls in: the candles
/// are the prices the trader traded at, on its own timeline. Two basis points' leeway for the
/// tick of spread a taker crosses.
async fn fills_sit_in_their_candles(b: &Browser) -> TestResult {
    let misses = b
        .wait_until_for(
            "every marked fill inside its candles",
            Duration::from_secs(60),
            "const svg = document.getElementById('trader-price-chart');\
             if (!svg) return false;\
             const step = +svg.dataset.intervalMs;\
             const candles = [...svg.querySelectorAll('g.candle')].map(g => [+g.dataset.t, +g.dataset.low, +g.dataset.high]);\
             const within = (from, to, p) => {\
               const span = candles.filter(([t]) => t + step > from && t <= to);\
               if (!span.length) return null;\
               const lo = Math.min(...span.map(c => c[1])), hi = Math.max(...span.map(c => c[2]));\
               const leeway = hi * 0.0002;\
               return p >= lo - leeway && p <= hi + leeway ? 'in' : `${p} outside ${lo}..${hi}`;\
             };\
             const marks = [...svg.querySelectorAll('.chart-marker')];\
             const out = marks.map(m => within(+m.dataset.t, +m.dataset.t, +m.dataset.price));\
             if (out.some(o => o === null)) return false;\
             return JSON.stringify(out.filter(o => o !== 'in'))",
        )
        .await?;
    check!(
        misses == json!("[]"),
        "marked fills outside their candles (not the prices the trader traded at): {misses}"
    );
    Ok(())
}

/// A paper account `main` on nofxi's simulated market, the builtin model, the default
/// strategy (BTC and ETH) and the trader `bot`, running.
async fn running_paper_trader(app: &App) -> TestResult {
    let store = app.store();
    let cli = Actor::new(LOCAL_USER, Channel::Cli, true);
    seed_paper_basics(store, &cli, PaperBasics::named("main", "rules", "s1")).await?;
    let spec = TraderSpec::new("bot", "rules", "main", "s1", Decimal::from(1_000));
    store.create_trader(&cli, spec).await?;
    store.set_trader_running(&cli, "bot", true).await?;
    Ok(())
}
