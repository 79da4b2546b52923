//! A trader set up and started on each live venue in the browser alone, against the venue's
//! testkit mock: the model and a strategy in their forms, the account in the Exchanges form
//! with that venue's own credential fields, the trader in the Traders form, the start from
//! the trader's page through the live-money confirmation; then the engine in the server places
//! the entry, stop-loss and take-profit on the mock and the trader's page shows them. No
//! credential shows in the page. Every venue on a desktop. On a 375 px phone, OKX with its
//! passphrase mistyped first: the refused start says why in words, the passphrase is corrected
//! in the account's Edit form, and the trader then starts and trades.
//!
//! The server reads `NOFXI_<VENUE>_BASE_URL` from the environment, which a test may not change
//! while others run beside it. So each test starts the mocks and runs itself again in a child
//! process with the variables pointing at them and the accounts' credentials in
//! [`VENUES_ENV`]: the flow runs there, and the parent then counts the orders each mock holds.

use std::collections::BTreeMap;

use nofxi_trader::runtime::host::HostOptions;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::harness::{TestResult, Viewport, with_engine_app_and_browser};
use super::live_steps::{Venue, add_model_and_strategy, mistyped_passphrase_then_fixed, trade_on};
use super::no_sideways_scroll;
use super::support::fast_engine;

#[allow(clippy::unwrap_used, dead_code)]
#[path = "../../../cli/tests/support/live.rs"]
mod live;

use live::Live;

/// The venues the child sets up: their kinds and credentials, as JSON.
const VENUES_ENV: &str = "NOFXI_BROWSER_LIVE_VENUES";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trader_is_set_up_and_started_on_each_live_venue_in_the_browser() -> TestResult {
    let test = "live_venues::a_trader_is_set_up_and_started_on_each_live_venue_in_the_browser";
    let Some(venues) = child_venues()? else {
        return run_child(test, live::all().await).await;
    };
    let engine = live_engine();
    with_engine_app_and_browser(
        "live-venues",
        Viewport::DESKTOP,
        &[],
        engine,
        async |_, b| {
            let llm = add_model_and_strategy(b).await?;
            for venue in &venues {
                trade_on(b, venue)
                    .await
                    .map_err(|e| format!("{}: {e}", venue.kind))?;
            }
            drop(llm);
            Ok(())
        },
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mistyped_okx_passphrase_is_fixed_on_a_phone_then_it_trades() -> TestResult {
    let test = "live_venues::a_mistyped_okx_passphrase_is_fixed_on_a_phone_then_it_trades";
    let Some(venues) = child_venues()? else {
        return run_child(test, vec![live::okx().await]).await;
    };
    let engine = live_engine();
    with_engine_app_and_browser(
        "live-venues-phone",
        Viewport::PHONE,
        &[],
        engine,
        async |_, b| {
            check!(
                b.eval("return window.innerWidth").await? == json!(375),
                "the phone viewport is not 375 px wide"
            );
            let llm = add_model_and_strategy(b).await?;
            for venue in &venues {
                mistyped_passphrase_then_fixed(b, venue).await?;
            }
            no_sideways_scroll(b, "the trader page").await?;
            drop(llm);
            Ok(())
        },
    )
    .await
}

/// The engine as `nofxi serve --cycle-seconds 600` hosts it: serve's own 30 s lease (a live
/// venue may take 10 s to answer an order, which the paper tests' 5 s lease does not allow),
/// and one cycle at the start, none again while the flow looks at it.
fn live_engine() -> HostOptions {
    HostOptions {
        cycle_seconds: Some(600),
        lease_seconds: 30,
        ..fast_engine("browser-live")
    }
}

/// What the parent hands the child: a venue's kind and its account's credentials by field.
#[derive(Serialize, Deserialize)]
struct Handed {
    kind: String,
    fields: BTreeMap<String, String>,
}

/// In the child, the venues to set up; `None` in the parent.
fn child_venues() -> TestResult<Option<Vec<Venue>>> {
    let Ok(text) = std::env::var(VENUES_ENV) else {
        return Ok(None);
    };
    let handed: Vec<Handed> = serde_json::from_str(&text)?;
    Ok(Some(
        handed
            .into_iter()
            .map(|h| Venue {
                kind: h.kind,
                fields: h.fields,
            })
            .collect(),
    ))
}

/// `nofxi exchange add`'s flags as the form's field names: `--wallet-addr` is `wallet_addr`.
fn handed(live: &Live) -> Handed {
    let fields = live
        .credentials
        .chunks(2)
        .filter_map(|pair| match pair {
            [flag, value] => Some((
                flag.trim_start_matches("--").replace('-', "_"),
                value.to_string(),
            )),
            _ => None,
        })
        .collect();
    Handed {
        kind: live.kind.to_string(),
        fields,
    }
}

/// Runs `test` in a child process pointed at `venues`' mocks; then each mock must hold the
/// trader's one entry and its two protective orders, placed by the engine the child served.
async fn run_child(test: &str, venues: Vec<Live>) -> TestResult {
    let handed: Vec<Handed> = venues.iter().map(handed).collect();
    let mut child = tokio::process::Command::new(std::env::current_exe()?);
    child
        .args([test, "--exact", "--nocapture", "--test-threads=1"])
        .env(VENUES_ENV, serde_json::to_string(&handed)?);
    for live in &venues {
        child.env(live.url_env, &live.url);
    }
    let out = child.output().await?;
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    check!(
        out.status.success() && said.contains("1 passed"),
        "the flow failed in its process:\n{said}"
    );
    for live in &venues {
        let (entries, protections) = ((live.entries)(), (live.protections)());
        check!(
            entries == 1 && protections == 2,
            "{}: the mock holds {entries} entries and {protections} protective orders, \
             not 1 and 2:\n{said}",
            live.kind
        );
    }
    Ok(())
}
