//! The store suite, written once and run on SQLite and on a fresh PostgreSQL database.
//!
//! Each `async fn` below takes a `TestStore` plus its manual clock; the `both!` macro at the
//! bottom turns each into `sqlite::name` and `postgres::name` tests.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use nofxi_domain::{
    Actor, Channel, CredentialField, Credentials, ExchangePatch, ExchangeSpec, ModelPatch,
    ModelSpec, ResourceKind, Secret, StrategyPatch, StrategySpec, TraderPatch, TraderSpec,
};
use nofxi_store::test_support::TestStore;
use nofxi_store::{Backend, ManualClock, StoreConfig, StoreError};
use rust_decimal::Decimal;
use sqlx::Row;

const K: &str = "AKIAKEYMATERIAL7f3e9c1d2b";
const S: &str = "SECRETMATERIAL9a8b7c6d5e4f3";
const DAY: i64 = 24 * 60 * 60 * 1000;

fn cli(user: &str) -> Actor {
    Actor::new(user, Channel::Cli, true)
}

fn binance(name: &str) -> ExchangeSpec {
    ExchangeSpec {
        exchange_type: "binance".into(),
        account_name: name.into(),
        enabled: true,
        testnet: false,
    }
}

fn keys() -> Credentials {
    Credentials::new()
        .with(CredentialField::ApiKey, K)
        .with(CredentialField::SecretKey, S)
}

fn deepseek(name: &str) -> ModelSpec {
    ModelSpec {
        name: name.into(),
        provider: "deepseek".into(),
        enabled: true,
        base_url: None,
        model_name: None,
    }
}

fn fields(err: &StoreError) -> Vec<String> {
    err.validation()
        .unwrap_or_else(|| panic!("expected a validation error, got {err}"))
        .problems
        .iter()
        .map(|p| p.field.clone())
        .collect()
}

async fn exchange_secrets_are_flags_and_masks(ts: TestStore, _clock: Arc<ManualClock>) {
    let created = ts
        .create_exchange(&cli("a"), binance("Main"), keys())
        .await
        .unwrap();
    assert_eq!(created.has.get("has_api_key"), Some(&true));
    assert_eq!(created.has.get("has_secret_key"), Some(&true));
    assert!(created.credentials_complete);
    let listed = ts.list_exchanges("a", false).await.unwrap();
    assert_eq!(listed.len(), 1);
    let json = serde_json::to_string(&listed).unwrap();
    assert!(json.contains("\"has_api_key\":true"), "{json}");
    assert!(!json.contains(K) && !json.contains(S), "{json}");
    assert!(
        !json.contains(&K[K.len() - 8..]),
        "mask shows at most 4 chars: {json}"
    );
    assert_eq!(
        created.credentials["api_key"].masked.as_deref(),
        Some(Secret::new(K).mask().as_str())
    );
    let (_, creds) = ts.credentials_for_signing("a", "main").await.unwrap();
    assert_eq!(creds.get(CredentialField::ApiKey).unwrap().expose(), K);
    assert_eq!(creds.get(CredentialField::SecretKey).unwrap().expose(), S);
    assert_no_plaintext(&ts, &[K, S]).await;
}

/// Neither the database file(s) nor any row holds the plaintext.
async fn assert_no_plaintext(ts: &TestStore, needles: &[&str]) {
    match ts.backend() {
        Backend::Sqlite => {
            // Checkpoint so the WAL content is in the main file too; then read both.
            sqlx::query("PRAGMA wal_checkpoint(FULL)")
                .execute(ts.raw_pool())
                .await
                .unwrap();
            for entry in std::fs::read_dir(ts.home()).unwrap() {
                let path = entry.unwrap().path();
                let bytes = std::fs::read(&path).unwrap();
                for needle in needles {
                    assert!(
                        !bytes.windows(needle.len()).any(|w| w == needle.as_bytes()),
                        "{needle} found in {}",
                        path.display()
                    );
                }
            }
        }
        Backend::Postgres => {
            for table in [
                "models",
                "exchanges",
                "strategies",
                "traders",
                "secrets",
                "audit",
                "states",
                "vault_check",
            ] {
                let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
                    "SELECT t::text AS row FROM {table} t"
                )))
                .fetch_all(ts.raw_pool())
                .await
                .unwrap();
                for row in rows {
                    let text: String = row.try_get("row").unwrap();
                    for needle in needles {
                        assert!(!text.contains(needle), "{needle} found in {table}: {text}");
                        // bytea renders as hex: check that form too.
                        let hex = hex_of(needle);
                        assert!(!text.contains(&hex), "{needle} (hex) found in {table}");
                    }
                }
            }
        }
    }
}

fn hex_of(s: &str) -> String {
    s.bytes().map(|b| format!("{b:02x}")).collect()
}

async fn invalid_exchange_names_every_problem_and_writes_nothing(
    ts: TestStore,
    _clock: Arc<ManualClock>,
) {
    let okx = ExchangeSpec {
        exchange_type: "okx".into(),
        ..binance("x")
    };
    let only_key = Credentials::new().with(CredentialField::ApiKey, K);
    let err = ts
        .create_exchange(&cli("a"), okx, only_key)
        .await
        .unwrap_err();
    assert_eq!(fields(&err), vec!["secret_key", "passphrase"]);
    assert!(ts.list_exchanges("a", false).await.unwrap().is_empty());
    assert!(ts.audit_log("a", 100).await.unwrap().is_empty());
    assert_no_plaintext(&ts, &[K]).await;
}

async fn names_are_unique_case_insensitively(ts: TestStore, _clock: Arc<ManualClock>) {
    ts.create_exchange(&cli("a"), binance("Main"), keys())
        .await
        .unwrap();
    let err = ts
        .create_exchange(&cli("a"), binance("MAIN"), keys())
        .await
        .unwrap_err();
    assert_eq!(fields(&err), vec!["account_name"]);
    // Another user may use the same name.
    ts.create_exchange(&cli("b"), binance("main"), keys())
        .await
        .unwrap();
    // Renaming onto a taken name fails too.
    ts.create_exchange(&cli("a"), binance("second"), keys())
        .await
        .unwrap();
    let err = ts
        .update_exchange(
            &cli("a"),
            "second",
            ExchangePatch {
                account_name: Some("main".into()),
                ..Default::default()
            },
            Credentials::new(),
        )
        .await
        .unwrap_err();
    assert_eq!(fields(&err), vec!["account_name"]);
}

async fn model_rules_and_key_decryption(ts: TestStore, _clock: Arc<ManualClock>) {
    let key = Secret::new("sk-0123456789abcdefa1b2");
    let m = ts
        .create_model(&cli("a"), deepseek("DS"), Some(key))
        .await
        .unwrap();
    assert!(m.has_api_key);
    assert_eq!(m.api_key_masked.as_deref(), Some("sk-…a1b2"));
    assert_eq!(m.effective_model_name.as_deref(), Some("deepseek-chat"));
    let mut http = deepseek("other");
    http.base_url = Some("http://api.deepseek.com".into());
    let err = ts
        .create_model(&cli("a"), http, Some(Secret::new("k")))
        .await
        .unwrap_err();
    assert_eq!(fields(&err), vec!["base_url"]);
    let err = ts
        .create_model(&cli("a"), deepseek("ds"), None)
        .await
        .unwrap_err();
    assert_eq!(fields(&err), vec!["api_key", "name"]);
    let updated = ts
        .update_model(
            &cli("a"),
            "ds",
            ModelPatch {
                model_name: Some("deepseek-reasoner".into()),
                ..Default::default()
            },
            None,
        )
        .await
        .unwrap();
    assert_eq!(
        updated.spec.model_name.as_deref(),
        Some("deepseek-reasoner")
    );
    assert!(
        updated.has_api_key,
        "the key survives an update without one"
    );
    let key = ts.model_api_key("a", &m.id).await.unwrap().unwrap();
    assert_eq!(key.expose(), "sk-0123456789abcdefa1b2");
    let builtin = ModelSpec {
        provider: "builtin".into(),
        ..deepseek("rules")
    };
    assert!(
        !ts.create_model(&cli("a"), builtin, None)
            .await
            .unwrap()
            .has_api_key
    );
}

async fn delete_restore_and_audit(ts: TestStore, _clock: Arc<ManualClock>) {
    let ex = ts
        .create_exchange(&cli("a"), binance("main"), keys())
        .await
        .unwrap();
    ts.delete(&cli("a"), ResourceKind::Exchange, "MAIN")
        .await
        .unwrap();
    assert!(ts.list_exchanges("a", false).await.unwrap().is_empty());
    assert_eq!(ts.list_exchanges("a", true).await.unwrap().len(), 1);
    assert!(matches!(
        ts.get_exchange("a", "main").await,
        Err(StoreError::NotFound { .. })
    ));
    ts.restore(
        &Actor::new("a", Channel::Chat, true),
        ResourceKind::Exchange,
        "main",
    )
    .await
    .unwrap();
    let back = ts.list_exchanges("a", false).await.unwrap();
    assert_eq!(back.len(), 1);
    assert_eq!(back[0].id, ex.id);
    let (_, creds) = ts.credentials_for_signing("a", "main").await.unwrap();
    assert_eq!(creds.get(CredentialField::SecretKey).unwrap().expose(), S);
    let audit = ts.audit_log("a", 10).await.unwrap();
    let actions: Vec<(&str, &str)> = audit
        .iter()
        .rev()
        .map(|e| (e.action.as_str(), e.channel.as_str()))
        .collect();
    assert_eq!(
        actions,
        vec![("create", "cli"), ("delete", "cli"), ("restore", "chat")]
    );
    assert!(audit.iter().all(|e| e.resource_id == ex.id && e.confirmed));
    assert!(audit.iter().all(|e| e.resource_kind == "exchange"));
}

async fn trash_expires_after_30_days(ts: TestStore, clock: Arc<ManualClock>) {
    ts.create_exchange(&cli("a"), binance("old"), keys())
        .await
        .unwrap();
    ts.create_exchange(&cli("a"), binance("recent"), keys())
        .await
        .unwrap();
    ts.delete(&cli("a"), ResourceKind::Exchange, "old")
        .await
        .unwrap();
    clock.advance_ms(20 * DAY);
    ts.delete(&cli("a"), ResourceKind::Exchange, "recent")
        .await
        .unwrap();
    clock.advance_ms(11 * DAY);
    let err = ts
        .restore(&cli("a"), ResourceKind::Exchange, "old")
        .await
        .unwrap_err();
    assert!(matches!(err, StoreError::Expired { .. }), "{err}");
    assert!(matches!(
        ts.restore(&cli("a"), ResourceKind::Exchange, "old").await,
        Err(StoreError::NotFound { .. })
    ));
    ts.restore(&cli("a"), ResourceKind::Exchange, "recent")
        .await
        .unwrap();
    let secrets: i64 = sqlx::query("SELECT COUNT(*) AS n FROM secrets")
        .fetch_one(ts.raw_pool())
        .await
        .unwrap()
        .try_get("n")
        .unwrap();
    assert_eq!(secrets, 2, "the purged account's credentials are gone");
    let audit = ts.audit_log("a", 100).await.unwrap();
    assert!(
        audit
            .iter()
            .any(|e| e.action == "purge" && e.channel == "system")
    );
}

async fn restore_refuses_a_taken_name(ts: TestStore, _clock: Arc<ManualClock>) {
    ts.create_exchange(&cli("a"), binance("main"), keys())
        .await
        .unwrap();
    ts.delete(&cli("a"), ResourceKind::Exchange, "main")
        .await
        .unwrap();
    ts.create_exchange(&cli("a"), binance("Main"), keys())
        .await
        .unwrap();
    let err = ts
        .restore(&cli("a"), ResourceKind::Exchange, "main")
        .await
        .unwrap_err();
    assert_eq!(fields(&err), vec!["account_name"]);
}

async fn strategies_one_active_and_ranges(ts: TestStore, _clock: Arc<ManualClock>) {
    let mut first = StrategySpec::new("first");
    first.is_active = true;
    ts.create_strategy(&cli("a"), first).await.unwrap();
    let mut second = StrategySpec::new("second");
    second.is_active = true;
    second.config.risk_control.max_positions = 3;
    let s2 = ts.create_strategy(&cli("a"), second).await.unwrap();
    assert_eq!(s2.spec.config.risk_control.max_positions, 3);
    let all = ts.list_strategies("a", false).await.unwrap();
    let active: Vec<_> = all.iter().filter(|s| s.spec.is_active).collect();
    assert_eq!(active.len(), 1);
    assert_eq!(active[0].spec.name, "second");
    let mut config = s2.spec.config.clone();
    config.risk_control.btc_eth_max_leverage = 25;
    let err = ts
        .update_strategy(
            &cli("a"),
            "second",
            StrategyPatch {
                config: Some(config),
                ..Default::default()
            },
        )
        .await
        .unwrap_err();
    assert_eq!(fields(&err), vec!["risk_control.btc_eth_max_leverage"]);
    let decimal = ts.get_strategy("a", "second").await.unwrap();
    assert_eq!(
        decimal.spec.config.risk_control.max_margin_usage,
        Decimal::ONE
    );
}

async fn traders_resolve_references_and_clamp(ts: TestStore, _clock: Arc<ManualClock>) {
    let model = ts
        .create_model(&cli("a"), deepseek("ds"), Some(Secret::new("k")))
        .await
        .unwrap();
    let paper = ExchangeSpec {
        exchange_type: "paper".into(),
        ..binance("paper")
    };
    let ex = ts
        .create_exchange(&cli("a"), paper, Credentials::new())
        .await
        .unwrap();
    ts.create_strategy(&cli("a"), StrategySpec::new("s"))
        .await
        .unwrap();
    let mut spec = TraderSpec::new("bot", "DS", &ex.id, "s", "1000.50".parse().unwrap());
    spec.scan_interval_minutes = 1;
    let (trader, adjustments) = ts.create_trader(&cli("a"), spec).await.unwrap();
    assert_eq!(trader.spec.ai_model_id, model.id);
    assert_eq!(trader.spec.scan_interval_minutes, 3);
    assert_eq!(adjustments.len(), 1);
    assert_eq!(adjustments[0].field, "scan_interval_minutes");
    assert_eq!(trader.spec.initial_balance.to_string(), "1000.50");
    assert!(!trader.is_running);

    let bad = TraderSpec::new("bot2", "nope", "paper", "s", Decimal::ZERO);
    let err = ts.create_trader(&cli("a"), bad).await.unwrap_err();
    assert_eq!(fields(&err), vec!["initial_balance", "ai_model_id"]);

    let err = ts
        .delete(&cli("a"), ResourceKind::Model, "ds")
        .await
        .unwrap_err();
    assert!(matches!(err, StoreError::InUse { .. }), "{err}");
    assert!(err.to_string().contains("bot"));

    let (t, adj) = ts
        .update_trader(
            &cli("a"),
            "bot",
            TraderPatch {
                scan_interval_minutes: Some(90),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(t.spec.scan_interval_minutes, 60);
    assert_eq!(adj[0].applied, "60");

    // A trashed trader whose model is gone cannot come back until the model does.
    ts.delete(&cli("a"), ResourceKind::Trader, "bot")
        .await
        .unwrap();
    ts.delete(&cli("a"), ResourceKind::Model, "ds")
        .await
        .unwrap();
    let err = ts
        .restore(&cli("a"), ResourceKind::Trader, "bot")
        .await
        .unwrap_err();
    assert_eq!(fields(&err), vec!["ai_model_id"]);
    ts.restore(&cli("a"), ResourceKind::Model, "ds")
        .await
        .unwrap();
    ts.restore(&cli("a"), ResourceKind::Trader, "bot")
        .await
        .unwrap();
}

async fn traders_start_only_when_ready_and_running_ones_stay(
    ts: TestStore,
    _clock: Arc<ManualClock>,
) {
    let a = cli("a");
    ts.create_model(&a, deepseek("ds"), Some(Secret::new("k")))
        .await
        .unwrap();
    ts.create_exchange(&a, binance("main"), keys())
        .await
        .unwrap();
    ts.create_strategy(&a, StrategySpec::new("s"))
        .await
        .unwrap();
    ts.create_trader(
        &a,
        TraderSpec::new("bot", "ds", "main", "s", Decimal::from(50)),
    )
    .await
    .unwrap();
    ts.update_model(
        &a,
        "ds",
        ModelPatch {
            enabled: Some(false),
            ..Default::default()
        },
        None,
    )
    .await
    .unwrap();
    ts.update_exchange(
        &a,
        "main",
        ExchangePatch {
            enabled: Some(false),
            ..Default::default()
        },
        Credentials::new(),
    )
    .await
    .unwrap();
    let err = ts.set_trader_running(&a, "bot", true).await.unwrap_err();
    assert_eq!(fields(&err), vec!["ai_model_id", "exchange_id"]);
    assert!(!ts.get_trader("a", "bot").await.unwrap().is_running);
    ts.update_model(
        &a,
        "ds",
        ModelPatch {
            enabled: Some(true),
            ..Default::default()
        },
        None,
    )
    .await
    .unwrap();
    ts.update_exchange(
        &a,
        "main",
        ExchangePatch {
            enabled: Some(true),
            ..Default::default()
        },
        Credentials::new(),
    )
    .await
    .unwrap();
    assert!(
        ts.set_trader_running(&a, "bot", true)
            .await
            .unwrap()
            .is_running
    );
    let err = ts
        .delete(&a, ResourceKind::Trader, "bot")
        .await
        .unwrap_err();
    assert!(matches!(err, StoreError::Running { .. }), "{err}");
    assert!(
        !ts.set_trader_running(&a, "bot", false)
            .await
            .unwrap()
            .is_running
    );
    ts.delete(&a, ResourceKind::Trader, "bot").await.unwrap();
    let actions: Vec<String> = ts
        .audit_log("a", 100)
        .await
        .unwrap()
        .into_iter()
        .filter(|e| e.resource_kind == "trader")
        .map(|e| e.action)
        .collect();
    assert_eq!(actions, vec!["delete", "stop", "start", "create"]);
}

async fn exchange_type_change_drops_unused_credentials(ts: TestStore, _clock: Arc<ManualClock>) {
    let okx = ExchangeSpec {
        exchange_type: "okx".into(),
        ..binance("o")
    };
    ts.create_exchange(
        &cli("a"),
        okx,
        keys().with(CredentialField::Passphrase, "pass-phrase-value"),
    )
    .await
    .unwrap();
    let ex = ts
        .update_exchange(
            &cli("a"),
            "o",
            ExchangePatch {
                exchange_type: Some("binance".into()),
                ..Default::default()
            },
            Credentials::new(),
        )
        .await
        .unwrap();
    assert!(ex.credentials_complete);
    let (_, creds) = ts.credentials_for_signing("a", "o").await.unwrap();
    assert!(creds.get(CredentialField::Passphrase).is_none());
    assert_eq!(creds.get(CredentialField::ApiKey).unwrap().expose(), K);
}

async fn swapped_ciphertext_is_refused(ts: TestStore, _clock: Arc<ManualClock>) {
    let one = ts
        .create_exchange(&cli("a"), binance("one"), keys())
        .await
        .unwrap();
    let other = Credentials::new()
        .with(CredentialField::ApiKey, "other-key")
        .with(CredentialField::SecretKey, "other-secret");
    let two = ts
        .create_exchange(&cli("a"), binance("two"), other)
        .await
        .unwrap();
    // Copy account one's sealed secret_key onto account two.
    let sealed: Vec<u8> =
        sqlx::query("SELECT sealed FROM secrets WHERE resource_id = $1 AND field = 'secret_key'")
            .bind(&one.id)
            .fetch_one(ts.raw_pool())
            .await
            .unwrap()
            .try_get("sealed")
            .unwrap();
    sqlx::query("UPDATE secrets SET sealed = $1 WHERE resource_id = $2 AND field = 'secret_key'")
        .bind(sealed)
        .bind(&two.id)
        .execute(ts.raw_pool())
        .await
        .unwrap();
    let err = ts.credentials_for_signing("a", "two").await.unwrap_err();
    assert!(matches!(err, StoreError::SecretCorrupt { .. }), "{err}");
}

async fn wrong_key_is_a_clear_error(ts: TestStore, _clock: Arc<ManualClock>) {
    ts.create_exchange(&cli("a"), binance("main"), keys())
        .await
        .unwrap();
    let config = StoreConfig {
        database: ts.database().clone(),
        key: nofxi_store::KeySpec::Text(zeroize::Zeroizing::new("ff".repeat(32))),
    };
    let err = nofxi_store::Store::open_with(config).await.unwrap_err();
    assert!(matches!(err, StoreError::VaultKeyMismatch { .. }), "{err}");
    assert!(err.to_string().contains("does not match"), "{err}");
}

async fn state_documents_upsert_per_user(ts: TestStore, _clock: Arc<ManualClock>) {
    assert_eq!(ts.get_state("a", "paper", "acct").await.unwrap(), None);
    let v1 = serde_json::json!({"balance": "1000.00", "positions": []});
    ts.put_state("a", "paper", "acct", &v1).await.unwrap();
    let v2 = serde_json::json!({"balance": "990.5"});
    ts.put_state("a", "paper", "acct", &v2).await.unwrap();
    assert_eq!(ts.get_state("a", "paper", "acct").await.unwrap(), Some(v2));
    assert_eq!(ts.get_state("b", "paper", "acct").await.unwrap(), None);
    assert_eq!(ts.get_state("a", "other", "acct").await.unwrap(), None);
}

/// User B tries every call on user A's resources, by id and by name; every one fails and A's
/// data is unchanged.
async fn users_cannot_touch_each_other(ts: TestStore, _clock: Arc<ManualClock>) {
    let a = cli("alice");
    let m = ts
        .create_model(&a, deepseek("m"), Some(Secret::new("alice-model-key")))
        .await
        .unwrap();
    let e = ts.create_exchange(&a, binance("e"), keys()).await.unwrap();
    let s = ts
        .create_strategy(&a, StrategySpec::new("s"))
        .await
        .unwrap();
    let (t, _) = ts
        .create_trader(
            &a,
            TraderSpec::new("t", &m.id, &e.id, &s.id, Decimal::from(100)),
        )
        .await
        .unwrap();
    ts.put_state("alice", "paper", "k", &serde_json::json!(1))
        .await
        .unwrap();
    let b = cli("bob");
    let not_found = |r: Result<_, StoreError>| {
        assert!(
            matches!(r, Err(StoreError::NotFound { .. })),
            "bob got through"
        );
    };
    for reference in [m.id.as_str(), "m"] {
        not_found(ts.get_model("bob", reference).await.map(|_| ()));
        not_found(ts.model_api_key("bob", reference).await.map(|_| ()));
        not_found(
            ts.update_model(&b, reference, ModelPatch::default(), None)
                .await
                .map(|_| ()),
        );
        not_found(
            ts.resolve_id("bob", ResourceKind::Model, reference)
                .await
                .map(|_| ()),
        );
    }
    for reference in [e.id.as_str(), "e"] {
        not_found(ts.get_exchange("bob", reference).await.map(|_| ()));
        not_found(
            ts.credentials_for_signing("bob", reference)
                .await
                .map(|_| ()),
        );
        not_found(
            ts.update_exchange(&b, reference, ExchangePatch::default(), keys())
                .await
                .map(|_| ()),
        );
    }
    for reference in [s.id.as_str(), "s"] {
        not_found(ts.get_strategy("bob", reference).await.map(|_| ()));
        not_found(
            ts.update_strategy(&b, reference, StrategyPatch::default())
                .await
                .map(|_| ()),
        );
    }
    for reference in [t.id.as_str(), "t"] {
        not_found(ts.get_trader("bob", reference).await.map(|_| ()));
        not_found(
            ts.update_trader(&b, reference, TraderPatch::default())
                .await
                .map(|_| ()),
        );
        not_found(ts.set_trader_running(&b, reference, true).await.map(|_| ()));
        not_found(
            ts.set_trader_running(&b, reference, false)
                .await
                .map(|_| ()),
        );
    }
    // Bob cannot build a trader on Alice's resources either.
    let err = ts
        .create_trader(
            &b,
            TraderSpec::new("t", &m.id, &e.id, &s.id, Decimal::from(1)),
        )
        .await
        .unwrap_err();
    assert_eq!(
        fields(&err),
        vec!["ai_model_id", "exchange_id", "strategy_id"]
    );
    for (kind, id) in [
        (ResourceKind::Trader, &t.id),
        (ResourceKind::Model, &m.id),
        (ResourceKind::Exchange, &e.id),
        (ResourceKind::Strategy, &s.id),
    ] {
        not_found(ts.delete(&b, kind, id).await.map(|_| ()));
    }
    // Alice trashes her trader; Bob can neither restore it nor see it in his trash.
    ts.delete(&a, ResourceKind::Trader, "t").await.unwrap();
    not_found(
        ts.restore(&b, ResourceKind::Trader, &t.id)
            .await
            .map(|_| ()),
    );
    assert!(ts.list_traders("bob", true).await.unwrap().is_empty());
    assert!(ts.list_models("bob", false).await.unwrap().is_empty());
    assert!(ts.list_exchanges("bob", false).await.unwrap().is_empty());
    assert!(ts.list_strategies("bob", false).await.unwrap().is_empty());
    assert!(ts.audit_log("bob", 100).await.unwrap().is_empty());
    assert_eq!(ts.get_state("bob", "paper", "k").await.unwrap(), None);
    // Alice's data is untouched.
    let (_, creds) = ts.credentials_for_signing("alice", "e").await.unwrap();
    assert_eq!(creds.get(CredentialField::ApiKey).unwrap().expose(), K);
    assert_eq!(ts.get_model("alice", "m").await.unwrap().spec.name, "m");
    assert_eq!(ts.list_traders("alice", true).await.unwrap().len(), 1);
}

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
    model_rules_and_key_decryption,
    delete_restore_and_audit,
    trash_expires_after_30_days,
    restore_refuses_a_taken_name,
    strategies_one_active_and_ranges,
    traders_resolve_references_and_clamp,
    traders_start_only_when_ready_and_running_ones_stay,
    exchange_type_change_drops_unused_credentials,
    swapped_ciphertext_is_refused,
    wrong_key_is_a_clear_error,
    state_documents_upsert_per_user,
    users_cannot_touch_each_other,
);
