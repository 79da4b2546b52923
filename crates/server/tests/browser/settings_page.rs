//! The settings page and what the page now says where it used to print commands: the assistant's
//! model chosen among the usable ones (the builtin rules greyed out, with why) and tested; this
//! browser's theme and up/down colours applied and kept; a Test button on an exchange row;
//! a chat reply that names a command links to the page that does it; a confirmation's Yes / No
//! sit on the reply that asked and stay through a side question until the task ends.

use nofxi_domain::{Actor, Channel, ExchangeSpec, ModelSpec, Secret, StrategySpec, TraderSpec};
use nofxi_server::access::LOCAL_USER;
use nofxi_testkit::{MockLlm, Reply};
use rust_decimal::Decimal;
use serde_json::json;

use super::harness::{App, Browser, TestResult, Viewport, with_app_and_browser};
use super::no_sideways_scroll;

const KEY: &str = "sk-browser-settings-0123456789";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn settings_choose_the_assistant_model_theme_and_colours() -> TestResult {
    let llm = MockLlm::start().await;
    llm.set_default(Reply::Text("OK".into()));
    with_app_and_browser("settings", Viewport::DESKTOP, &[], async |app, b| {
        resources(app, &llm).await?;
        choose_and_test_the_model(app, b).await?;
        theme_and_colours(b).await?;
        test_an_exchange_row(b).await?;
        commands_become_links(b).await?;
        confirmation_on_the_message(app, b).await?;
        Ok(())
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_settings_page_works_on_a_phone() -> TestResult {
    let llm = MockLlm::start().await;
    llm.set_default(Reply::Text("OK".into()));
    with_app_and_browser("settings-phone", Viewport::PHONE, &[], async |app, b| {
        resources(app, &llm).await?;
        choose_and_test_the_model(app, b).await?;
        no_sideways_scroll(b, "the settings page").await?;
        Ok(())
    })
    .await
}

/// A paper account, the builtin rules, a deepseek model on the mock, a strategy and a trader.
async fn resources(app: &App, llm: &MockLlm) -> TestResult {
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
    let rules = ModelSpec {
        name: "rules".into(),
        provider: "builtin".into(),
        enabled: true,
        base_url: None,
        model_name: None,
    };
    store.create_model(&cli, rules, None).await?;
    let ds = ModelSpec {
        name: "ds".into(),
        provider: "deepseek".into(),
        enabled: true,
        base_url: Some(format!("{}/v1", llm.base_url())),
        model_name: None,
    };
    store.create_model(&cli, ds, Some(Secret::new(KEY))).await?;
    store.create_strategy(&cli, StrategySpec::new("s1")).await?;
    let spec = TraderSpec::new("bot", "rules", "main", "s1", Decimal::from(1_000));
    store.create_trader(&cli, spec).await?;
    Ok(())
}

async fn choose_and_test_the_model(app: &App, b: &Browser) -> TestResult {
    b.goto("#/settings").await?;
    b.wait_for("#assistant-model-form select[name=model]")
        .await?;
    let rules_disabled = b
        .eval(
            "const o = [...document.querySelectorAll('#assistant-model-form option')]\
             .find(o => o.textContent.startsWith('rules'));\
             return !!o && o.disabled",
        )
        .await?;
    check!(
        rules_disabled == json!(true),
        "the builtin rules can be chosen as the assistant's model"
    );
    let ds = app.store().get_model(LOCAL_USER, "ds").await?.id;
    b.wait_for("#assistant-model-form select[name=model]")
        .await?
        .select_by_value(&ds)
        .await?;
    b.click("#assistant-model-form button[type=submit]").await?;
    b.wait_until(
        "the settings saying ds is the assistant's model",
        "const n = document.getElementById('assistant-model-now');\
         return n && n.textContent.includes('ds')",
    )
    .await?;
    let set = nofxi_assistant::assistant_model::assistant_model(app.store(), LOCAL_USER).await?;
    check!(
        set.is_some_and(|m| m.spec.name == "ds"),
        "the page said ds but the store holds another assistant model"
    );
    b.click("#assistant-model-now .probe button").await?;
    let said = b
        .wait_until(
            "the model's Test result",
            "const r = document.querySelector('#assistant-model-now .probe-result.tone-ok');\
             return r && r.textContent",
        )
        .await?;
    check!(
        said.as_str()
            .is_some_and(|s| s.contains("ds") && !s.contains(KEY)),
        "the Test result: {said}"
    );
    b.screenshot("model-tested").await?;
    Ok(())
}

async fn theme_and_colours(b: &Browser) -> TestResult {
    b.click("#pref-theme-dark").await?;
    b.click("#pref-colors-red-up").await?;
    // Kept by this browser: a reload starts in the chosen theme and colours.
    b.goto("#/").await?;
    b.eval("location.reload(); return true").await?;
    let shown = b
        .wait_until(
            "the dark theme and red-up colours after a reload",
            "if (document.documentElement.dataset.theme !== 'dark') return null;\
             const up = document.createElement('span'); up.className = 'pos';\
             document.body.append(up);\
             const c = [getComputedStyle(document.body).backgroundColor, getComputedStyle(up).color];\
             up.remove(); return c",
        )
        .await?;
    check!(
        shown == json!(["rgb(15, 19, 24)", "rgb(248, 113, 113)"]),
        "dark background and red for up were expected, got {shown}"
    );
    b.screenshot("dark-red-up").await?;
    b.goto("#/settings").await?;
    b.wait_for("#pref-theme-system").await?;
    b.click("#pref-theme-system").await?;
    b.click("#pref-colors-green-up").await?;
    Ok(())
}

async fn test_an_exchange_row(b: &Browser) -> TestResult {
    b.goto("#/resources/exchanges").await?;
    b.wait_for_row("main").await?;
    b.click("button[aria-label=\"Test main\"]").await?;
    let said = b
        .wait_until(
            "the account's Test result",
            "const r = document.querySelector('#probe-out.tone-ok');\
             return r && r.textContent",
        )
        .await?;
    check!(
        said.as_str().is_some_and(|s| s.contains("main")),
        "the exchange Test result: {said}"
    );
    Ok(())
}

/// "bot journal" of a trader that never ran tells to run the engine: the page links to it.
async fn commands_become_links(b: &Browser) -> TestResult {
    b.goto("#/chat").await?;
    let reply = b.say("bot journal").await?;
    check!(
        !reply.contains("nofxi run"),
        "the page prints a command: {reply}"
    );
    let link = b
        .eval(
            "const ms = document.querySelectorAll('#chat-log .msg.assistant');\
             const a = ms[ms.length - 1].querySelector('a.cmd-link');\
             return a && [a.getAttribute('href'), a.title]",
        )
        .await?;
    check!(
        link == json!(["#/settings", "nofxi run"]),
        "the engine's command is not a link to Settings: {link} in {reply}"
    );
    Ok(())
}

/// Yes / No on the reply that asked (not on the user's message); a side question withdraws
/// the confirmation, and that reply then offers to go back to it, which asks again with fresh
/// buttons; No cancels.
async fn confirmation_on_the_message(app: &App, b: &Browser) -> TestResult {
    b.say("delete bot").await?;
    let on_reply = "const ms = [...document.querySelectorAll('#chat-log .msg')];\
         const asked = ms.filter(m => m.querySelector('.msg-actions button[data-confirm=yes]:not([disabled])'));\
         return asked.length === 1 && asked[0].classList.contains('assistant')";
    b.wait_until("Yes on the reply that asked, once", on_reply)
        .await?;
    b.say("list exchanges").await?;
    b.wait_until(
        "the asking reply offering to go back to it",
        "return !!document.querySelector('.msg.assistant .msg-actions button[data-resume]')",
    )
    .await?;
    b.screenshot("confirm-paused").await?;
    b.click(".msg.assistant .msg-actions button[data-resume]")
        .await?;
    b.wait_until(
        "the question asked again, with its buttons",
        "const ms = document.querySelectorAll('#chat-log .msg.assistant');\
         const m = ms[ms.length - 1];\
         return !!m.dataset.done && !!m.querySelector('button[data-confirm=no]:not([disabled])')",
    )
    .await?;
    b.click(".msg.assistant .msg-actions button[data-confirm=no]:not([disabled])")
        .await?;
    b.wait_until(
        "the buttons answered",
        "return !document.querySelector('.msg-actions button[data-confirm=no]:not([disabled])')",
    )
    .await?;
    check!(
        app.store().get_trader(LOCAL_USER, "bot").await.is_ok(),
        "No deleted the trader"
    );
    Ok(())
}
