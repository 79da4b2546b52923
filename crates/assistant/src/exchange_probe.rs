//! An exchange account's connectivity check, told in the user's language: clock → key → IP
//! whitelist → permissions → mode → balance for a venue account; mode, balance and the public
//! market it follows for a paper one. The chat's "test main", `POST /api/exchanges/{id}/test`
//! (the web app's Test button) and `nofxi exchange test` read the same checks, so all of them
//! say the same.

use std::sync::Arc;

use crate::probed::Probed;
use crate::{exchange_errors, msg};
use nofxi_domain::ExchangeType;
use nofxi_skills::{Lang, Library};
use nofxi_store::{Store, StoreError};
use nofxi_trader::runtime::connect::{ConnectError, PaperAccount, connect};
use nofxi_venues::SystemClock;
use nofxi_venues::connectivity::{Check, Diagnosis, Problem};

/// Checks the account `reference` of `user`. Only a missing account (or a store failure) is
/// an error; a check that fails is a probe with `ok: false`.
pub async fn probe_exchange(
    store: Arc<Store>,
    user: &str,
    reference: &str,
    lang: Lang,
) -> Result<Probed, StoreError> {
    let config = store.get_exchange(user, reference).await?;
    let account = config.spec.account_name.clone();
    let failed = |code: &str, text: String| Probed::failed(&account, code, text);
    let venue = match connect(
        store.clone(),
        user,
        &config.id,
        PaperAccount::Exchange,
        Arc::new(SystemClock),
    )
    .await
    {
        Ok(venue) => venue,
        Err(ConnectError::Store(e)) => return Err(e),
        Err(other) => {
            return Ok(match trading_not_available(lang, &other) {
                Some(said) => failed("trading_not_available", said),
                None => failed("test_failed", other.to_string()),
            });
        }
    };
    let report = venue.check().await;
    let library = Library::builtin().ok();
    let overridden = venue.base_url_override();
    let explain_all = |problems: &[&Problem]| {
        problems
            .iter()
            .map(|p| match &library {
                Some(library) => {
                    exchange_errors::explained_at(p, library, lang, overridden.as_ref())
                }
                None => p.to_string(),
            })
            .collect::<Vec<_>>()
            .join("\n\n")
    };
    let problems = report.problems();
    if !report.ok() {
        // A refused key or signature is fixed by new credentials: the skill offers that update
        // for this code; other failures are fixed outside nofxi.
        let code = match problems.first().map(|p| p.diagnosis) {
            Some(
                Diagnosis::BadSignature
                | Diagnosis::BadPassphrase
                | Diagnosis::BadKeyFormat
                | Diagnosis::KeyOrIpRejected
                | Diagnosis::AgentWallet,
            ) => "credentials_rejected",
            _ => "test_failed",
        };
        return Ok(failed(code, explain_all(&problems)));
    }
    let mut text = match &report.balance {
        Check::Passed { value } | Check::Warning { value, .. } => msg(
            lang,
            "probe-exchange-works-balance",
            &[
                ("name", &account),
                ("equity", &value.equity.round_dp(2).to_string()),
                ("asset", &value.asset),
                ("available", &value.available.round_dp(2).to_string()),
            ],
        ),
        _ => msg(lang, "probe-exchange-works", &[("name", &account)]),
    };
    // A paper account on a venue's prices: the probe of that market, which answered.
    if let Some(Check::Passed { value: m }) = &report.market {
        text.push(' ');
        text.push_str(&msg(
            lang,
            "probe-exchange-prices",
            &[
                ("source", &m.source),
                ("symbol", &m.symbol),
                ("last", &m.last.to_string()),
            ],
        ));
    }
    if !problems.is_empty() {
        text.push_str("\n\n");
        text.push_str(&explain_all(&problems));
    }
    Ok(Probed::passed(account, text))
}

/// What the chat says of an account of a type nofxi cannot trade on (one an earlier nofxi
/// made: no new one is offered), in the user's language; `None` for any other failure.
pub fn trading_not_available(lang: Lang, e: &ConnectError) -> Option<String> {
    let ConnectError::Unsupported { kind } = e else {
        return None;
    };
    let kind = kind
        .parse::<ExchangeType>()
        .ok()
        .filter(|k| !k.can_trade())?;
    let tradable = ExchangeType::tradable();
    Some(msg(
        lang,
        "exchange-trading-not-available",
        &[("kind", kind.as_str()), ("tradable", &tradable)],
    ))
}
