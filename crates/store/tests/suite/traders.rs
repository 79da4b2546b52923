//! Traders: references by name or id, the scan-interval clamp, start preconditions.

use super::common::*;

pub async fn traders_resolve_references_and_clamp(ts: TestStore, _clock: Arc<ManualClock>) {
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
    // The check asked before a confirmation refuses the same way, and changes nothing.
    let err = ts
        .check_delete("a", ResourceKind::Model, "ds")
        .await
        .unwrap_err();
    assert!(matches!(err, StoreError::InUse { .. }), "{err}");
    ts.check_delete("a", ResourceKind::Trader, "bot")
        .await
        .unwrap();
    assert!(ts.get_trader("a", "bot").await.is_ok());

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
    // Said as what to restore first, by name: a restore has no flags to name.
    let text = err.to_string();
    assert!(
        matches!(&err, StoreError::RestoreBlocked { reasons, .. }
            if reasons == &[RestoreBlock::Trashed { kind: ResourceKind::Model, name: "ds".into() }]),
        "{text}"
    );
    assert!(text.contains("restore model ds first"), "{text}");
    assert!(
        !text.contains("--") || text.contains("nofxi model restore"),
        "{text}"
    );
    ts.restore(&cli("a"), ResourceKind::Model, "ds")
        .await
        .unwrap();
    ts.restore(&cli("a"), ResourceKind::Trader, "bot")
        .await
        .unwrap();
}

pub async fn traders_start_only_when_ready_and_running_ones_stay(
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
    let err = ts
        .check_delete("a", ResourceKind::Trader, "bot")
        .await
        .unwrap_err();
    assert!(matches!(err, StoreError::Running { .. }), "{err}");
    // A running trader keeps its account: moved, it would trade past the start's checks.
    ts.create_exchange(&a, binance("second"), keys())
        .await
        .unwrap();
    let move_it = TraderPatch {
        exchange_id: Some("second".into()),
        ..Default::default()
    };
    let err = ts.update_trader(&a, "bot", move_it).await.unwrap_err();
    assert!(matches!(err, StoreError::RunningMove { .. }), "{err}");
    let trader = ts.get_trader("a", "bot").await.unwrap();
    let main = ts.get_exchange("a", "main").await.unwrap();
    assert_eq!(trader.spec.exchange_id, main.id);
    // Nor a disabled model: its engine takes the binding at the next cycle, which would fail.
    let off = ModelSpec {
        enabled: false,
        ..deepseek("off")
    };
    ts.create_model(&a, off, Some(Secret::new("k")))
        .await
        .unwrap();
    let to_off = TraderPatch {
        ai_model_id: Some("off".into()),
        ..Default::default()
    };
    let err = ts.update_trader(&a, "bot", to_off).await.unwrap_err();
    assert_eq!(fields(&err), vec!["ai_model_id"]);
    assert!(err.to_string().contains("disabled"), "{err}");
    let ds = ts.get_model("a", "ds").await.unwrap();
    assert_eq!(
        ts.get_trader("a", "bot").await.unwrap().spec.ai_model_id,
        ds.id
    );
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
