//! A running trader's model changed from the Traders form: the form shows the chat's summary
//! of the change with Confirm and Cancel; Cancel changes nothing, Confirm saves it, and the
//! trader's journal then shows its next cycle deciding with the new model. On a desktop and on
//! a 375 px phone.

use nofxi_domain::{Actor, Channel, ExchangeSpec, ModelSpec, StrategySpec, TraderSpec};
use nofxi_server::access::LOCAL_USER;
use rust_decimal::Decimal;
use serde_json::json;

use super::harness::{App, Browser, TestResult, Viewport, with_app_and_browser};
use super::no_sideways_scroll;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_running_traders_model_changed_in_the_form_is_confirmed_then_used() -> TestResult {
    with_app_and_browser("edit-running", Viewport::DESKTOP, &[], async |app, b| {
        change_the_model(app, b, false).await
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_model_change_works_on_a_phone() -> TestResult {
    with_app_and_browser(
        "edit-running-phone",
        Viewport::PHONE,
        &[],
        async |app, b| {
            check!(
                b.eval("return window.innerWidth").await? == json!(375),
                "the phone viewport is not 375 px wide"
            );
            change_the_model(app, b, true).await
        },
    )
    .await
}

async fn change_the_model(app: &App, b: &Browser, phone: bool) -> TestResult {
    running_trader(app).await?;
    journal_names(b, "rules-a").await?;
    let rules_b = app.store().get_model(LOCAL_USER, "rules-b").await?.id;

    // Cancel first: the dialog goes, the trader keeps its model.
    let summary = submit_model(b, &rules_b).await?;
    b.screenshot("edit-dialog").await?;
    check!(
        summary.contains("bot") && summary.contains("rules-b (was rules-a)"),
        "the dialog does not describe the change: {summary}"
    );
    if phone {
        no_sideways_scroll(b, "the edit confirmation").await?;
    }
    b.click("#confirm-dialog [data-action=cancel]").await?;
    dialog_closed(b).await?;
    let bound = app.store().get_trader(LOCAL_USER, "bot").await?.spec;
    let rules_a = app.store().get_model(LOCAL_USER, "rules-a").await?.id;
    check!(
        bound.ai_model_id == rules_a,
        "Cancel changed the trader's model"
    );

    // Then Confirm: saved, and the engine's next cycle decides with it.
    submit_model(b, &rules_b).await?;
    b.click("#confirm-dialog [data-action=confirm]").await?;
    dialog_closed(b).await?;
    b.wait_until(
        "the trader saved with rules-b",
        "const r = [...document.querySelectorAll('.resource-table tbody tr')].find(r => r.textContent.includes('bot'));\
         return r && r.querySelector('.model-binding').textContent.includes('rules-b')",
    )
    .await?;
    b.screenshot("edit-saved").await?;
    // Said as waiting for the next cycle only until the engine has taken it.
    b.wait_until(
        "the list showing rules-b as the model in use",
        "const r = [...document.querySelectorAll('.resource-table tbody tr')].find(r => r.textContent.includes('bot'));\
         const m = r && r.querySelector('.model-binding');\
         return m && !m.dataset.pending && m.textContent === 'rules-b'",
    )
    .await?;
    journal_names(b, "rules-b").await?;
    let shown = b
        .eval("return document.querySelector('.trader-page .model-binding').textContent")
        .await?;
    check!(
        shown.as_str().is_some_and(|s| s.starts_with("rules-b")),
        "the trader's settings show {shown}"
    );
    b.screenshot("journal-new-model").await?;
    if phone {
        no_sideways_scroll(b, "the trader page").await?;
    }
    Ok(())
}

/// A paper account, two builtin models, a strategy, and the trader `bot` on `rules-a`,
/// started: the engine in the server runs it.
async fn running_trader(app: &App) -> TestResult {
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
    for name in ["rules-a", "rules-b"] {
        let model = ModelSpec {
            name: name.into(),
            provider: "builtin".into(),
            enabled: true,
            base_url: None,
            model_name: None,
        };
        store.create_model(&cli, model, None).await?;
    }
    store.create_strategy(&cli, StrategySpec::new("s1")).await?;
    let spec = TraderSpec::new("bot", "rules-a", "main", "s1", Decimal::from(1_000));
    store.create_trader(&cli, spec).await?;
    store.set_trader_running(&cli, "bot", true).await?;
    Ok(())
}

/// The Traders form for `bot` with `model` chosen, submitted; returns the dialog's summary.
async fn submit_model(b: &Browser, model: &str) -> TestResult<String> {
    b.goto("#/resources/traders").await?;
    b.wait_for_row("bot").await?;
    // Edit replaces the form showing with one built from the trader read again. After a
    // Cancel the edit form for bot is still showing (same route, no remount), so the title
    // alone says nothing: wait for the form this press builds, not the one it replaces.
    b.eval("window.formBeforeEdit = document.getElementById('trader-form'); return true")
        .await?;
    b.click("button[aria-label=\"Edit bot\"]").await?;
    b.wait_until(
        "the edit form for bot",
        "const f = document.getElementById('trader-form');\
         const t = document.getElementById('form-title');\
         return f && f !== window.formBeforeEdit && t && t.textContent === 'Edit bot'",
    )
    .await?;
    b.wait_for("form#trader-form select[name=ai_model_id]")
        .await?
        .select_by_value(model)
        .await?;
    b.click("form#trader-form button[type=submit]").await?;
    let summary = b
        .wait_until(
            "the change's confirmation dialog",
            "const d = document.getElementById('confirm-dialog');\
             return d && d.open && d.querySelector('#confirm-dialog-summary').textContent",
        )
        .await?;
    Ok(summary.as_str().unwrap_or_default().to_string())
}

async fn dialog_closed(b: &Browser) -> TestResult {
    b.wait_until(
        "the dialog to close",
        "const d = document.getElementById('confirm-dialog'); return !d || !d.open",
    )
    .await?;
    Ok(())
}

/// The trader page's journal: its newest cycle names `model`.
async fn journal_names(b: &Browser, model: &str) -> TestResult {
    b.goto("#/traders/bot").await?;
    let named = b
        .wait_until(
            &format!("a journal cycle on {model}"),
            &format!(
                "const m = document.querySelector('.journal details.cycle .cycle-model');\
                 return m && m.textContent.includes({}) && m.textContent",
                json!(model)
            ),
        )
        .await?;
    check!(
        named.as_str().is_some_and(|n| n.contains(model)),
        "the newest cycle names {named}"
    );
    Ok(())
}
