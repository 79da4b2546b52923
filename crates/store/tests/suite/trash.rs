//! Delete to the trash, restore within 30 days, purge after, and the audit rows of each.

use super::common::*;

pub async fn delete_restore_and_audit(ts: TestStore, _clock: Arc<ManualClock>) {
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

pub async fn trash_expires_after_30_days(ts: TestStore, clock: Arc<ManualClock>) {
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

pub async fn restore_refuses_a_taken_name(ts: TestStore, _clock: Arc<ManualClock>) {
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
    // Said as what to rename, naming no `--name` flag: `restore` does not have one.
    let text = err.to_string();
    assert!(
        matches!(&err, StoreError::RestoreBlocked { reasons, .. }
            if matches!(reasons.as_slice(), [RestoreBlock::NameTaken { .. }])),
        "{text}"
    );
    assert!(
        !text.contains("`--name`") && text.contains("rename it"),
        "{text}"
    );
}

pub async fn purged_trader_takes_its_journal_along(ts: TestStore, clock: Arc<ManualClock>) {
    let a = cli("a");
    let builtin = ModelSpec {
        provider: "builtin".into(),
        ..deepseek("rules")
    };
    ts.create_model(&a, builtin, None).await.unwrap();
    let paper = ExchangeSpec {
        exchange_type: "paper".into(),
        ..binance("paper")
    };
    ts.create_exchange(&a, paper, Credentials::new())
        .await
        .unwrap();
    ts.create_strategy(&a, StrategySpec::new("s"))
        .await
        .unwrap();
    let (t, _) = ts
        .create_trader(
            &a,
            TraderSpec::new("bot", "rules", "paper", "s", Decimal::from(100)),
        )
        .await
        .unwrap();
    let row = nofxi_store::CycleRow {
        trader_id: t.id.clone(),
        cycle_number: 1,
        phase: "done".into(),
        started_at: 0,
        equity: Some(Decimal::from(100)),
        record: serde_json::json!({}),
    };
    ts.save_cycle("a", &row).await.unwrap();
    ts.delete(&a, ResourceKind::Trader, "bot").await.unwrap();
    assert_eq!(ts.cycles("a", &t.id, 10, None).await.unwrap().len(), 1);
    clock.advance_ms(31 * DAY);
    assert_eq!(ts.purge_expired_trash().await.unwrap(), 1);
    assert!(ts.cycles("a", &t.id, 10, None).await.unwrap().is_empty());
}

/// Names compare after NFKC (full-width letters are the same name), refuse invisible
/// characters, and cannot be another resource's id (references try ids first).
pub async fn names_are_one_after_normalisation_and_never_an_id(
    ts: TestStore,
    _clock: Arc<ManualClock>,
) {
    let a = cli("a");
    let first = ts
        .create_model(&a, deepseek("default"), Some(Secret::new("k")))
        .await
        .unwrap();
    let err = ts
        .create_model(&a, deepseek("ｄｅｆａｕｌｔ"), Some(Secret::new("k")))
        .await
        .unwrap_err();
    assert_eq!(fields(&err), vec!["name"], "{err}");
    assert!(err.to_string().contains("already taken"), "{err}");
    let err = ts
        .create_model(&a, deepseek("default\u{200b}"), Some(Secret::new("k")))
        .await
        .unwrap_err();
    assert!(err.to_string().contains("U+200B"), "{err}");
    let err = ts
        .create_exchange(&a, binance(&first.id), keys())
        .await
        .unwrap_err();
    assert_eq!(fields(&err), vec!["account_name"], "{err}");
    assert!(err.to_string().contains("is the id of another"), "{err}");
}
