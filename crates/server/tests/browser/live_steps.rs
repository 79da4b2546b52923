//! The steps of a live venue's flow in the browser (see `live_venues.rs`): each one what a new
//! user does in the forms and on the trader's page, and what they must see.

use std::collections::BTreeMap;
use std::time::Duration;

use nofxi_testkit::llm::{MockLlm, Reply};
use serde_json::{Value, json};

use super::harness::{Browser, TestResult};
use super::no_sideways_scroll;

/// The model's key, typed in the Models form: never shown again either.
const MODEL_KEY: &str = "sk-browservenue0123456789abcdef";

/// One live venue as the child sees it: its exchange type and its account's credentials by
/// the form's field names.
pub struct Venue {
    pub kind: String,
    pub fields: BTreeMap<String, String>,
}

impl Venue {
    fn account(&self) -> String {
        format!("{}-acct", self.kind)
    }
    fn trader(&self) -> String {
        format!("{}-bot", self.kind)
    }
}

/// The deepseek model `ds` on a mock answering a BTC long with its stop and target (REFERENCE
/// §2's answer, as the CLI tests script it), and the strategy `default`, both in their forms.
/// The mock serves until the returned value is dropped.
pub async fn add_model_and_strategy(b: &Browser) -> TestResult<MockLlm> {
    let llm = MockLlm::start().await;
    llm.set_default(Reply::Text(
        "Trend up.\n```json\n[{\"symbol\":\"BTCUSDT\",\"action\":\"open_long\",\"leverage\":3,\
         \"position_size_usd\":300,\"stop_loss\":58800,\"take_profit\":64800,\"confidence\":85,\
         \"reasoning\":\"trend up\"}]\n```"
            .into(),
    ));
    b.goto("#/resources/models").await?;
    b.wait_for("form#model-form select[name=provider] option[value=deepseek]")
        .await?;
    b.wait_for("form#model-form select[name=provider]")
        .await?
        .select_by_value("deepseek")
        .await?;
    type_in(b, "form#model-form input[name=name]", "ds").await?;
    let base = format!("{}/v1", llm.base_url());
    type_in(b, "form#model-form input[name=base_url]", &base).await?;
    type_in(b, "form#model-form input[name=api_key]", MODEL_KEY).await?;
    b.click("form#model-form button[type=submit]").await?;
    b.wait_for_row("ds").await?;
    nothing_secret(b, &[MODEL_KEY], "the models").await?;

    b.goto("#/resources/strategies").await?;
    type_in(b, "form#strategy-form input[name=name]", "default").await?;
    b.click("form#strategy-form button[type=submit]").await?;
    b.wait_for_row("default").await?;
    Ok(llm)
}

/// The whole flow on one venue: account, trader, the confirmed start, the orders seen on the
/// trader's page, then a confirmed stop (the engine would otherwise decide again next cycle).
pub async fn trade_on(b: &Browser, venue: &Venue) -> TestResult {
    let secrets: Vec<&str> = venue.fields.values().map(String::as_str).collect();
    add_account(b, venue).await?;
    nothing_secret(b, &secrets, "the exchanges").await?;
    create_trader(b, venue).await?;
    start_after_confirming(b, venue, false).await?;
    sees_its_orders(b, venue).await?;
    nothing_secret(b, &secrets, "the trader page").await?;
    stop_after_confirming(b, venue).await?;
    Ok(())
}

/// A passphrase mistyped in the Exchanges form, as new OKX users do: the confirmed start is
/// refused with what went wrong in words (OKX's own code, no internal names), the passphrase
/// is corrected in the account's Edit form, and then the trader starts and trades.
pub async fn mistyped_passphrase_then_fixed(b: &Browser, venue: &Venue) -> TestResult {
    let mut mistyped = Venue {
        kind: venue.kind.clone(),
        fields: venue.fields.clone(),
    };
    mistyped
        .fields
        .insert("passphrase".into(), "wrongPass9".into());
    add_account(b, &mistyped).await?;
    no_sideways_scroll(b, "the exchanges").await?;
    create_trader(b, venue).await?;
    let refused = start_refused(b, venue).await?;
    check!(
        refused.contains("passphrase") && refused.contains("50105"),
        "the refused start does not say the passphrase is wrong: {refused:?}"
    );
    check!(
        !refused.contains("account_refused") && !refused.contains('{'),
        "the refused start is shown raw: {refused:?}"
    );
    // The figures cannot be read from the account either: said as the venue's refusal.
    let inside = b
        .eval("return document.querySelector('.trader-page').innerText.includes('inside nofxi')")
        .await?;
    check!(
        inside == json!(false),
        "the trader page calls the account's refusal a failure inside nofxi"
    );
    nothing_secret(b, &["wrongPass9"], "the refused start").await?;
    no_sideways_scroll(b, "the refused start").await?;
    correct_passphrase(b, venue).await?;
    start_after_confirming(b, venue, true).await?;
    sees_its_orders(b, venue).await?;
    let secrets: Vec<&str> = venue.fields.values().map(String::as_str).collect();
    nothing_secret(b, &secrets, "the trader page").await?;
    Ok(())
}

/// From the Traders list to the trader's page; the start, confirmed, is refused: what the page
/// says.
async fn start_refused(b: &Browser, venue: &Venue) -> TestResult<String> {
    open_trader_page(b, venue).await?;
    b.click("#trader-start:not([disabled])").await?;
    b.wait_until(
        "the start confirmation dialog",
        "const d = document.getElementById('confirm-dialog'); return d && d.open",
    )
    .await?;
    b.click("#confirm-dialog [data-action=confirm]").await?;
    let said = b
        .wait_until(
            "the refused start's message",
            "const e = document.getElementById('trader-action-error'); return e && e.textContent",
        )
        .await?;
    b.screenshot(&format!("{}-start-refused", venue.kind))
        .await?;
    Ok(said.as_str().unwrap_or_default().to_string())
}

/// The account's Edit form: only the passphrase typed again, saved.
async fn correct_passphrase(b: &Browser, venue: &Venue) -> TestResult {
    b.goto("#/resources/exchanges").await?;
    let account = venue.account();
    b.wait_for_row(&account).await?;
    b.click(&format!("button[aria-label=\"Edit {account}\"]"))
        .await?;
    b.wait_until(
        "the account's edit form",
        &format!(
            "const t = document.getElementById('form-title'); return t && t.textContent === {}",
            json!(format!("Edit {account}"))
        ),
    )
    .await?;
    let passphrase = venue.fields.get("passphrase").ok_or("no passphrase")?;
    type_in(b, "form#exchange-form input[name=passphrase]", passphrase).await?;
    b.click("form#exchange-form button[type=submit]").await?;
    b.wait_until(
        "the create form back after saving",
        "const t = document.getElementById('form-title'); return t && t.textContent === 'Add an exchange'",
    )
    .await?;
    Ok(())
}

/// The Exchanges form for `venue`: exactly its credential fields, each labelled in words, typed
/// in; the account is then listed.
async fn add_account(b: &Browser, venue: &Venue) -> TestResult {
    b.goto("#/resources/exchanges").await?;
    let kind = &venue.kind;
    b.wait_for(&format!(
        "form#exchange-form select[name=exchange_type] option[value={kind}]"
    ))
    .await?;
    b.wait_for("form#exchange-form select[name=exchange_type]")
        .await?
        .select_by_value(kind)
        .await?;
    let shown = b
        .eval(
            "return [...document.querySelectorAll('form#exchange-form .cred-box .field')]\
             .filter(f => !f.hidden && !f.closest('[hidden]'))\
             .map(f => [f.dataset.name, f.querySelector('label').textContent.replace(/\\s*\\*\\s*$/, '').trim()])",
        )
        .await?;
    let mut names: Vec<&str> = shown
        .as_array()
        .map(|a| a.iter().filter_map(|f| f[0].as_str()).collect())
        .unwrap_or_default();
    names.sort_unstable();
    let wanted: Vec<&str> = venue.fields.keys().map(String::as_str).collect();
    check!(
        names == wanted,
        "the form asks for {names:?}, a {kind} account needs {wanted:?}"
    );
    labelled_in_words(venue, &shown)?;
    for (field, value) in &venue.fields {
        type_in(b, &format!("form#exchange-form input[name={field}]"), value).await?;
    }
    type_in(
        b,
        "form#exchange-form input[name=account_name]",
        &venue.account(),
    )
    .await?;
    b.screenshot(&format!("{kind}-exchange-form")).await?;
    b.click("form#exchange-form button[type=submit]").await?;
    b.wait_for_row(&venue.account()).await?;
    b.screenshot(&format!("{kind}-exchange-listed")).await?;
    Ok(())
}

/// Each credential field's label is words, not the field's key; Hyperliquid's key field says
/// it is the agent wallet's, which is what a user must paste there.
fn labelled_in_words(venue: &Venue, shown: &Value) -> TestResult {
    for field in shown.as_array().into_iter().flatten() {
        let (name, label) = (
            field[0].as_str().unwrap_or_default(),
            field[1].as_str().unwrap_or_default(),
        );
        check!(
            !label.is_empty() && !label.contains('_'),
            "{name} is labelled {label:?}"
        );
        if venue.kind == "hyperliquid" && name == "api_key" {
            check!(
                label.to_lowercase().contains("agent"),
                "Hyperliquid's key field is labelled {label:?}, not as the agent wallet's key"
            );
        }
    }
    Ok(())
}

/// The Traders form: the trader on the venue's account with `ds` and `default`.
async fn create_trader(b: &Browser, venue: &Venue) -> TestResult {
    b.goto("#/resources/traders").await?;
    let account = venue.account();
    b.wait_until(
        &format!("{account} among the trader form's exchanges"),
        &format!(
            "return [...document.querySelectorAll('form#trader-form select[name=exchange_id] option')]\
             .some(o => o.textContent === {})",
            json!(account)
        ),
    )
    .await?;
    type_in(b, "form#trader-form input[name=name]", &venue.trader()).await?;
    for (select, choice) in [
        ("exchange_id", account.as_str()),
        ("ai_model_id", "ds"),
        ("strategy_id", "default"),
    ] {
        b.wait_for(&format!("form#trader-form select[name={select}]"))
            .await?
            .select_by_label(choice)
            .await?;
    }
    b.click("form#trader-form button[type=submit]").await?;
    b.wait_for_row(&venue.trader()).await?;
    Ok(())
}

/// From the Traders list to the trader's page; Start asks first, saying real money is at
/// stake, and Confirm starts it.
async fn start_after_confirming(b: &Browser, venue: &Venue, phone: bool) -> TestResult {
    let name = venue.trader();
    open_trader_page(b, venue).await?;
    b.click("#trader-start:not([disabled])").await?;
    let summary = b
        .wait_until(
            "the start confirmation dialog",
            "const d = document.getElementById('confirm-dialog');\
             return d && d.open && d.querySelector('#confirm-dialog-summary').textContent",
        )
        .await?;
    b.screenshot(&format!("{}-start-dialog", venue.kind))
        .await?;
    let summary = summary.as_str().unwrap_or_default();
    check!(
        summary.contains(&name) && summary.contains("real money"),
        "the start dialog does not say {name} would trade real money: {summary:?}"
    );
    if phone {
        no_sideways_scroll(b, "the start confirmation").await?;
    }
    b.click("#confirm-dialog [data-action=confirm]").await?;
    b.wait_for("#trader-stop:not([disabled])").await?;
    Ok(())
}

/// The trader's page, reached from its link in the Traders list.
async fn open_trader_page(b: &Browser, venue: &Venue) -> TestResult {
    b.goto("#/resources/traders").await?;
    let name = venue.trader();
    b.wait_for_row(&name).await?;
    b.eval(&format!(
        "[...document.querySelectorAll('.resource-table a')]\
         .find(a => a.textContent === {}).click(); return true",
        json!(name)
    ))
    .await?;
    b.wait_until(
        &format!("{name}'s page"),
        &format!(
            "const h = document.querySelector('.trader-page h1'); return !!h && h.textContent.startsWith({})",
            json!(name)
        ),
    )
    .await?;
    Ok(())
}

/// The trader's page shows the cycle's entry, stop-loss and take-profit among the journal's
/// orders, and the open BTC position read from the venue.
async fn sees_its_orders(b: &Browser, venue: &Venue) -> TestResult {
    let orders = b
        .wait_until_for(
            "the journal's orders: an entry, a stop-loss and a take-profit",
            Duration::from_secs(90),
            "for (const h of document.querySelectorAll('.journal details.cycle h3')) {\
               if (h.textContent !== 'Orders') continue;\
               const kinds = [...h.nextElementSibling.querySelectorAll('td[data-label=Type]')].map(td => td.textContent);\
               if (['open', 'stop loss', 'take profit'].every(k => kinds.includes(k))) return kinds;\
             }\
             const stopped = document.querySelector('#trader-start:not([disabled])');\
             const why = document.querySelector('.trader-page .reason');\
             return stopped ? 'stopped: ' + (why ? why.textContent : 'no reason shown') : false",
        )
        .await?;
    check!(
        orders.as_array().is_some_and(|o| o.len() == 3),
        "the cycle's orders are {orders}"
    );
    let position = b
        .wait_until(
            "the open BTCUSDT position",
            "const s = document.getElementById('sec-trader-positions');\
             const t = s && s.closest('section').querySelector('table');\
             return t && t.textContent.includes('BTCUSDT') && t.textContent",
        )
        .await?;
    // The picture shows the cycle's orders, opened.
    b.eval(
        "const h = [...document.querySelectorAll('.journal details.cycle h3')].find(h => h.textContent === 'Orders');\
         h.closest('details').open = true; h.scrollIntoView(); return true",
    )
    .await?;
    b.screenshot(&format!("{}-trader-orders", venue.kind))
        .await?;
    b.eval("window.scrollTo(0, 0); return true").await?;
    check!(
        position.as_str().is_some_and(|p| p.contains("Long")),
        "the position is not a long: {position}"
    );
    Ok(())
}

async fn stop_after_confirming(b: &Browser, venue: &Venue) -> TestResult {
    b.click("#trader-stop:not([disabled])").await?;
    b.wait_until(
        "the stop confirmation dialog",
        "const d = document.getElementById('confirm-dialog'); return d && d.open",
    )
    .await?;
    b.click("#confirm-dialog [data-action=confirm]").await?;
    b.wait_for("#trader-start:not([disabled])").await?;
    b.screenshot(&format!("{}-trader-stopped", venue.kind))
        .await?;
    Ok(())
}

async fn type_in(b: &Browser, css: &str, text: &str) -> TestResult {
    b.wait_for(css).await?.send_keys(text).await?;
    Ok(())
}

/// No secret in the page: not in its text, nor anywhere in its markup (a placeholder, a title).
async fn nothing_secret(b: &Browser, secrets: &[&str], page: &str) -> TestResult {
    let page_now = b
        .eval("return document.body.innerText + '\\n' + document.documentElement.outerHTML")
        .await?;
    let page_now = page_now.as_str().unwrap_or_default();
    for secret in secrets {
        check!(
            !page_now.contains(secret),
            "{page} show a credential ({} characters)",
            secret.len()
        );
    }
    Ok(())
}
