//! Nothing offered that cannot trade, in the Exchanges form: its type choice lists only the
//! types nofxi trades on, and a KuCoin account an earlier nofxi made is listed with a "trading
//! not available" badge, and its Edit form keeps its type and renames it.

use nofxi_domain::{Actor, Channel, CredentialField, Credentials, ExchangeSpec};
use nofxi_server::access::LOCAL_USER;
use nofxi_store::test_support::insert_exchange_made_earlier;
use serde_json::json;

use super::harness::{TestResult, Viewport, with_app_and_browser};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_exchange_form_offers_only_types_that_trade() -> TestResult {
    with_app_and_browser("types-offered", Viewport::DESKTOP, &[], async |app, b| {
        let spec = ExchangeSpec {
            exchange_type: "kucoin".into(),
            account_name: "ku-old".into(),
            enabled: true,
            testnet: false,
        };
        let keys = Credentials::new()
            .with(CredentialField::ApiKey, "AKIAKEYMATERIAL7f3e9c1d2b")
            .with(CredentialField::SecretKey, "SECRETMATERIAL9a8b7c6d5e4f3")
            .with(CredentialField::Passphrase, "pass-phrase-42");
        let actor = Actor::new(LOCAL_USER, Channel::Cli, true);
        insert_exchange_made_earlier(app.store(), &actor, spec, keys).await?;

        b.goto("#/resources/exchanges").await?;
        b.wait_for("form#exchange-form select[name=exchange_type] option[value=paper]")
            .await?;
        let offered = b
            .eval(
                "return [...document.querySelectorAll('form#exchange-form select[name=exchange_type] option')]\
                 .map(o => o.value)",
            )
            .await?;
        check!(
            offered == json!(["paper", "binance", "bybit", "okx", "bitget", "hyperliquid"]),
            "the new-account form offers {offered}"
        );
        b.wait_for_row("ku-old").await?;
        let row = b
            .wait_until(
                "the kucoin account's row says trading is not available",
                "const r = [...document.querySelectorAll('.resource-table tbody tr')]\
                 .find(r => r.textContent.includes('ku-old'));\
                 return r && r.querySelector('.badge.tone-warn') && r.textContent",
            )
            .await?;
        check!(
            row.as_str()
                .is_some_and(|r| r.contains("trading not available")),
            "the row says {row}"
        );
        b.screenshot("exchange-types-offered").await?;

        // Its Edit form keeps its own type, says it cannot trade, and saves a new name.
        b.click("button[aria-label=\"Edit ku-old\"]").await?;
        let kind = b
            .wait_until(
                "the account's edit form with its own type",
                "const s = document.querySelector('form#exchange-form select[name=exchange_type]');\
                 const t = document.getElementById('form-title');\
                 return t && t.textContent === 'Edit ku-old' && s && s.value === 'kucoin'\
                 && s.selectedOptions[0].textContent",
            )
            .await?;
        check!(
            kind.as_str()
                .is_some_and(|k| k.contains("trading not available")),
            "the edit form's type reads {kind}"
        );
        let name = b
            .wait_for("form#exchange-form input[name=account_name]")
            .await?;
        name.clear().await?;
        name.send_keys("ku-kept").await?;
        b.click("form#exchange-form button[type=submit]").await?;
        b.wait_for_row("ku-kept").await?;
        let kept = app.store().get_exchange(LOCAL_USER, "ku-kept").await?;
        check!(
            kept.spec.exchange_type == "kucoin",
            "the renamed account is now {}",
            kept.spec.exchange_type
        );
        Ok(())
    })
    .await
}
