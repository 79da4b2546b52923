//! A strategy made and changed with the form, not JSON: coins typed as people say them ("btc",
//! "以太坊") become their symbols through the server's parser and an unknown one is refused
//! with the coins it may mean; a leverage past its bound is refused under its field before
//! anything is sent, and the server's own refusal (a key pasted into a prompt) sits under the
//! prompt it is about; the risk limits and timeframes set are saved, shown again on reopening,
//! and the Advanced (JSON) view and the form show each other's edits, keeping a key nofxi does
//! not know. On a desktop and on a 375 px phone, where nothing scrolls sideways.

use nofxi_server::access::LOCAL_USER;
use rust_decimal::Decimal;
use serde_json::{Value, json};

use super::harness::{App, Browser, TestResult, Viewport, with_app_and_browser};
use super::no_sideways_scroll;

const FORM: &str = "form#strategy-form";
const COINS: &str = "form#strategy-form .sf-coins[data-name=\"coin_source.static_coins\"]";
const ENTER: char = '\u{E007}';
const KEY: &str = "sk-proj-ZZSECRETabcdefghijklmnopqrstuvwx";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_strategy_is_made_and_changed_with_the_form() -> TestResult {
    with_app_and_browser("strategy-form", Viewport::DESKTOP, &[], async |app, b| {
        strategy_by_form(app, b, false).await
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_strategy_form_works_on_a_phone() -> TestResult {
    with_app_and_browser(
        "strategy-form-phone",
        Viewport::PHONE,
        &[],
        async |app, b| {
            check!(
                b.eval("return window.innerWidth").await? == json!(375),
                "the phone viewport is not 375 px wide"
            );
            strategy_by_form(app, b, true).await
        },
    )
    .await
}

async fn strategy_by_form(app: &App, b: &Browser, phone: bool) -> TestResult {
    b.goto("#/resources/strategies").await?;
    // A new strategy starts from the server's defaults, its bounds said beside each field.
    let shown = b
        .wait_until(
            "the strategy form built from the server's defaults",
            &format!(
                "const lev = document.querySelector('{FORM} input[name=\"risk_control.btc_eth_max_leverage\"]');\
                 const chips = [...document.querySelectorAll('{COINS} .sf-chip')].map(c => c.dataset.symbol);\
                 return lev && [chips, lev.value, lev.closest('.field').querySelector('.hint').textContent]"
            ),
        )
        .await?;
    check!(
        shown == json!([["BTCUSDT", "ETHUSDT"], "10", "1–20×"]),
        "the new form does not show the defaults and the bound: {shown}"
    );
    b.screenshot("new").await?;
    if phone {
        no_sideways_scroll(b, "the new strategy form").await?;
    }

    type_into(b, &format!("{FORM} input[name=name]"), "trend").await?;
    // The defaults' coins go; then the user types their own, as they say them.
    for _ in 0..2 {
        press(b, &format!("{COINS} .sf-chip-remove")).await?;
    }
    chips_are(b, &[]).await?;
    let coin_input = format!("{COINS} input[name=\"coin_source.static_coins\"]");
    type_into(b, &coin_input, &format!("btc{ENTER}")).await?;
    chips_are(b, &["BTCUSDT"]).await?;
    type_into(b, &coin_input, &format!("以太坊{ENTER}")).await?;
    chips_are(b, &["BTCUSDT", "ETHUSDT"]).await?;
    // An unknown coin is refused under the field, with the known coins it may mean to pick.
    type_into(b, &coin_input, &format!("dogee{ENTER}")).await?;
    let refused = b
        .wait_until(
            "the refusal of dogee under the coins",
            &format!(
                "const e = document.querySelector('{COINS} .field-error');\
                 const s = [...document.querySelectorAll('{COINS} .sf-candidate')].map(c => c.dataset.symbol);\
                 return e && e.textContent && [e.textContent, s]"
            ),
        )
        .await?;
    check!(
        refused[0]
            .as_str()
            .is_some_and(|r| r.contains("dogee") && r.contains("DOGE"))
            && refused[1][0] == json!("DOGEUSDT"),
        "dogee is not refused with DOGE offered: {refused}"
    );
    b.screenshot("coin-refused").await?;
    b.wait_for(&coin_input).await?.clear().await?;

    // A leverage past its bound is refused under it, before anything is sent.
    set_field(b, "risk_control.btc_eth_max_leverage", "25").await?;
    set_field(b, "risk_control.max_positions", "3").await?;
    set_field(b, "risk_control.max_margin_usage", "0.5").await?;
    press(
        b,
        &format!("{FORM} input[name=\"indicators.klines.selected_timeframes\"][value=\"1h\"]"),
    )
    .await?;
    press(b, &format!("{FORM} input[name=\"indicators.enable_boll\"]")).await?;
    press(b, &format!("{FORM} button[type=submit]")).await?;
    let over = field_error(b, "risk_control.btc_eth_max_leverage").await?;
    check!(
        over.contains("between 1 and 20") && over.contains("25"),
        "the leverage of 25 is not refused under its field: {over}"
    );
    b.screenshot("leverage-refused").await?;
    if phone {
        no_sideways_scroll(b, "the form with a refused leverage").await?;
    }
    check!(
        app.store().get_strategy(LOCAL_USER, "trend").await.is_err(),
        "a strategy was made with a leverage of 25"
    );

    // The server's refusal of what only it checks (a key pasted into a prompt) sits under it.
    set_field(b, "risk_control.btc_eth_max_leverage", "15").await?;
    type_into(
        b,
        &format!("{FORM} textarea[name=\"prompt_sections.custom_prompt\"]"),
        &format!("use {KEY}"),
    )
    .await?;
    press(b, &format!("{FORM} button[type=submit]")).await?;
    let key = field_error(b, "prompt_sections.custom_prompt").await?;
    check!(
        key.contains("key") && !key.contains("ZZSECRET") && !key.contains("prompt_sections."),
        "the key in the prompt is not refused under it in words: {key}"
    );
    b.screenshot("server-refusal").await?;
    let prompt = format!("{FORM} textarea[name=\"prompt_sections.custom_prompt\"]");
    b.wait_for(&prompt).await?.clear().await?;
    type_into(b, &prompt, "Follow the 4h trend.").await?;
    press(b, &format!("{FORM} button[type=submit]")).await?;
    b.wait_for_row("trend").await?;

    let saved = app
        .store()
        .get_strategy(LOCAL_USER, "trend")
        .await?
        .spec
        .config;
    check!(
        saved.coin_source.static_coins == ["BTCUSDT", "ETHUSDT"]
            && saved.risk_control.btc_eth_max_leverage == 15
            && saved.risk_control.max_positions == 3
            && saved.risk_control.max_margin_usage == Decimal::new(5, 1)
            && saved.indicators.klines.selected_timeframes.len() == 1
            && saved.indicators.enable_boll
            && saved.prompt_sections.custom_prompt == "Follow the 4h trend.",
        "the strategy saved is not what the form said: {saved:?}"
    );

    // Reopened, the form shows what was saved.
    open_edit(b).await?;
    let reopened = b
        .eval(&format!(
            "const v = (n) => document.querySelector(`{FORM} [name=\"${{n}}\"]`).value;\
             return [[...document.querySelectorAll('{COINS} .sf-chip')].map(c => c.dataset.symbol),\
               v('risk_control.btc_eth_max_leverage'), v('risk_control.max_positions'), v('risk_control.max_margin_usage'),\
               document.querySelector('{FORM} input[name=\"indicators.klines.selected_timeframes\"][value=\"1h\"]').checked,\
               v('prompt_sections.custom_prompt')]"
        ))
        .await?;
    check!(
        reopened
            == json!([
                ["BTCUSDT", "ETHUSDT"],
                "15",
                "3",
                "0.5",
                true,
                "Follow the 4h trend."
            ]),
        "the reopened form shows {reopened}"
    );
    b.screenshot("reopened").await?;

    // The JSON view shows the form's values; an edit there (and a key nofxi does not know)
    // shows in the form, and the form's next edit shows in the JSON with that key kept.
    press(b, &format!("{FORM} button[data-view=json]")).await?;
    let json = json_view(b).await?;
    check!(
        json["risk_control"]["btc_eth_max_leverage"] == json!(15)
            && json["risk_control"]["max_positions"] == json!(3),
        "the JSON view does not show the form's values: {json}"
    );
    if phone {
        no_sideways_scroll(b, "the Advanced (JSON) view").await?;
    }
    let mut edited = json.clone();
    edited["risk_control"]["max_positions"] = json!(4);
    edited["my_note"] = json!("keep me");
    b.eval(&format!(
        "const a = document.querySelector('{FORM} textarea[name=config]');\
         a.value = {}; a.dispatchEvent(new Event('input', {{bubbles: true}})); return true",
        json!(serde_json::to_string_pretty(&edited)?)
    ))
    .await?;
    let note = b
        .wait_until(
            "the note naming the key nofxi does not read",
            &format!(
                "const n = document.querySelector('{FORM} .sf-unknown');\
                 return n && !n.hidden && n.textContent"
            ),
        )
        .await?;
    check!(
        note.as_str().is_some_and(|n| n.contains("my_note")),
        "the unknown key is not named: {note}"
    );
    b.screenshot("json-view").await?;
    press(b, &format!("{FORM} button[data-view=form]")).await?;
    let positions = b
        .wait_until(
            "the form showing the JSON's max positions",
            &format!(
                "const i = document.querySelector('{FORM} input[name=\"risk_control.max_positions\"]');\
                 return i && i.offsetParent && i.value"
            ),
        )
        .await?;
    check!(
        positions == json!("4"),
        "the form shows max positions {positions} after the JSON said 4"
    );
    set_field(b, "risk_control.altcoin_max_leverage", "5").await?;
    press(b, &format!("{FORM} button[data-view=json]")).await?;
    let json = json_view(b).await?;
    check!(
        json["risk_control"]["altcoin_max_leverage"] == json!(5)
            && json["risk_control"]["max_positions"] == json!(4)
            && json["my_note"] == json!("keep me"),
        "the JSON after the form's edit: {json}"
    );
    press(b, &format!("{FORM} button[data-view=form]")).await?;
    press(b, &format!("{FORM} button[type=submit]")).await?;
    b.wait_until(
        "the form back to a new strategy after saving",
        "const t = document.getElementById('form-title'); return t && !t.textContent.includes('trend')",
    )
    .await?;
    let saved = app
        .store()
        .get_strategy(LOCAL_USER, "trend")
        .await?
        .spec
        .config;
    check!(
        saved.risk_control.max_positions == 4
            && saved.risk_control.altcoin_max_leverage == 5
            && saved.risk_control.btc_eth_max_leverage == 15,
        "the edit saved is not what the views said: {saved:?}"
    );
    if phone {
        no_sideways_scroll(b, "the strategies page after saving").await?;
    }
    Ok(())
}

/// Clicks `css` once it is there, brought to the middle of the screen first: scrolled only
/// just into view, a control at the top sits under the sticky header, which takes the click.
async fn press(b: &Browser, css: &str) -> TestResult {
    let el = b.wait_for(css).await?;
    b.eval(&format!(
        "document.querySelector({}).scrollIntoView({{block: 'center'}}); return true",
        json!(css)
    ))
    .await?;
    el.click().await?;
    Ok(())
}

/// Clicks into `css` and types `text` as a user does.
async fn type_into(b: &Browser, css: &str, text: &str) -> TestResult {
    press(b, css).await?;
    b.wait_for(css).await?.send_keys(text).await?;
    Ok(())
}

/// The config field `path` emptied and typed anew.
async fn set_field(b: &Browser, path: &str, value: &str) -> TestResult {
    let css = format!("{FORM} input[name=\"{path}\"]");
    let el = b.wait_for(&css).await?;
    el.clear().await?;
    el.send_keys(value).await?;
    // Leaving the field is what a user does next; it commits the value.
    b.eval(&format!(
        "document.querySelector('{css}').dispatchEvent(new Event('change', {{bubbles: true}})); return true"
    ))
    .await?;
    Ok(())
}

async fn chips_are(b: &Browser, symbols: &[&str]) -> TestResult {
    b.wait_until(
        &format!("the coins {symbols:?}"),
        &format!(
            "const s = [...document.querySelectorAll('{COINS} .sf-chip')].map(c => c.dataset.symbol);\
             return JSON.stringify(s) === {}",
            json!(json!(symbols).to_string())
        ),
    )
    .await?;
    Ok(())
}

async fn field_error(b: &Browser, path: &str) -> TestResult<String> {
    let said = b
        .wait_until(
            &format!("a problem under {path}"),
            &format!(
                "const e = document.querySelector('{FORM} .field-error[data-field=\"{path}\"]');\
                 const i = document.querySelector('{FORM} [name=\"{path}\"]');\
                 return e && e.textContent && i.getAttribute('aria-invalid') === 'true' && e.textContent"
            ),
        )
        .await?;
    Ok(said.as_str().unwrap_or_default().to_string())
}

async fn open_edit(b: &Browser) -> TestResult {
    press(b, "button[aria-label=\"Edit trend\"]").await?;
    b.wait_until(
        "the edit form for trend, filled",
        &format!(
            "const t = document.getElementById('form-title');\
             return t && t.textContent === 'Edit trend' && document.querySelectorAll('{COINS} .sf-chip').length > 0"
        ),
    )
    .await?;
    Ok(())
}

async fn json_view(b: &Browser) -> TestResult<Value> {
    let text = b
        .wait_until(
            "the Advanced (JSON) view",
            &format!(
                "const a = document.querySelector('{FORM} textarea[name=config]');\
                 return a && a.offsetParent && a.value"
            ),
        )
        .await?;
    Ok(serde_json::from_str(text.as_str().unwrap_or_default())?)
}
