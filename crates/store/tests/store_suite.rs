//! The store suite, written once and run on SQLite and on a fresh PostgreSQL database.
//!
//! Each scenario in `suite/` is an `async fn (TestStore, Arc<ManualClock>)`; the `both!` macro
//! below turns each into a `sqlite::name` and a `postgres::name` test.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod suite;

use suite::engine::*;
use suite::isolation::*;
use suite::portfolios::*;
use suite::secrets::*;
use suite::traders::*;
use suite::trash::*;
use suite::validation::*;

macro_rules! both {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test]
                async fn $name() {
                    let clock = std::sync::Arc::new(nofxi_store::ManualClock::new(1_767_225_600_000));
                    let ts = nofxi_store::test_support::sqlite_store_with_clock(clock.clone())
                        .await
                        .unwrap();
                    super::$name(ts, clock).await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test]
                async fn $name() {
                    let clock = std::sync::Arc::new(nofxi_store::ManualClock::new(1_767_225_600_000));
                    let ts = nofxi_store::test_support::postgres_store_with_clock(clock.clone())
                        .await
                        .unwrap();
                    super::$name(ts, clock).await;
                }
            )*
        }
    };
}

both!(
    exchange_secrets_are_flags_and_masks,
    invalid_exchange_names_every_problem_and_writes_nothing,
    names_are_unique_case_insensitively,
    types_that_cannot_trade_are_not_made_but_earlier_ones_are_kept,
    model_rules_and_key_decryption,
    delete_restore_and_audit,
    trash_expires_after_30_days,
    restore_refuses_a_taken_name,
    names_are_one_after_normalisation_and_never_an_id,
    purged_trader_takes_its_journal_along,
    strategies_one_active_and_ranges,
    traders_resolve_references_and_clamp,
    traders_start_only_when_ready_and_running_ones_stay,
    exchange_type_change_drops_unused_credentials,
    hyperliquid_private_key_shows_no_characters,
    swapped_ciphertext_is_refused,
    wrong_key_is_a_clear_error,
    state_documents_upsert_per_user,
    users_cannot_touch_each_other,
    cycles_replace_page_and_chart_per_user,
    leases_have_one_owner_until_they_expire,
    fenced_writes_stop_with_the_holding,
    newest_leased_cycle_is_each_traders_last,
    portfolios_store_imports_once_per_user_and_audit,
    portfolio_marks_replace_by_date_and_stay_per_user,
);

/// Servers share one store across tasks: the handle must be `Send + Sync` and its futures
/// `Send`, or `tokio::spawn` would not compile here.
#[tokio::test]
async fn store_can_be_shared_across_tasks() {
    let ts = nofxi_store::test_support::sqlite_store().await.unwrap();
    let store = std::sync::Arc::new(ts.store);
    let task = {
        let store = store.clone();
        tokio::spawn(async move {
            store
                .put_state("a", "paper", "acct", &serde_json::json!({"cash": "10"}))
                .await
        })
    };
    task.await.unwrap().unwrap();
    let value = store.get_state("a", "paper", "acct").await.unwrap();
    assert_eq!(value, Some(serde_json::json!({"cash": "10"})));
}

/// The SQLite file is in WAL mode (readers never block the writer) and owner-only.
#[tokio::test]
async fn sqlite_is_wal_and_private() {
    use sqlx::Row;
    let ts = nofxi_store::test_support::sqlite_store().await.unwrap();
    let mode: String = sqlx::query("PRAGMA journal_mode")
        .fetch_one(ts.raw_pool())
        .await
        .unwrap()
        .try_get(0)
        .unwrap();
    assert_eq!(mode.to_lowercase(), "wal");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let path = ts.home().join(nofxi_store::SQLITE_FILE_NAME);
        let mode = std::fs::metadata(path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
}
