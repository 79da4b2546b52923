//! Every problem named at once; names unique per user and kind regardless of case.

use super::common::*;

pub async fn invalid_exchange_names_every_problem_and_writes_nothing(
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

pub async fn names_are_unique_case_insensitively(ts: TestStore, _clock: Arc<ManualClock>) {
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

pub async fn model_rules_and_key_decryption(ts: TestStore, _clock: Arc<ManualClock>) {
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

pub async fn strategies_one_active_and_ranges(ts: TestStore, _clock: Arc<ManualClock>) {
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

/// Gate, KuCoin, Aster and Lighter are no longer offered for new accounts, nor as the type an
/// account moves to; one an older nofxi made still loads, lists, updates and deletes.
pub async fn types_that_cannot_trade_are_not_made_but_earlier_ones_are_kept(
    ts: TestStore,
    _clock: Arc<ManualClock>,
) {
    let gate = ExchangeSpec {
        exchange_type: "gate".into(),
        ..binance("g1")
    };
    let err = ts
        .create_exchange(&cli("a"), gate.clone(), keys())
        .await
        .unwrap_err();
    assert_eq!(fields(&err), vec!["exchange_type"]);
    assert!(err.to_string().contains("cannot trade on gate"), "{err}");
    assert!(ts.list_exchanges("a", false).await.unwrap().is_empty());
    assert!(ts.audit_log("a", 100).await.unwrap().is_empty());
    assert_no_plaintext(&ts, &[K, S]).await;

    ts.create_exchange(&cli("a"), binance("b1"), keys())
        .await
        .unwrap();
    let to_gate = ExchangePatch {
        exchange_type: Some("gate".into()),
        ..Default::default()
    };
    let err = ts
        .update_exchange(&cli("a"), "b1", to_gate, Credentials::new())
        .await
        .unwrap_err();
    assert_eq!(fields(&err), vec!["exchange_type"]);

    let made =
        nofxi_store::test_support::insert_exchange_made_earlier(&ts, &cli("a"), gate, keys())
            .await
            .unwrap();
    assert_eq!(made.spec.exchange_type, "gate");
    assert!(made.credentials_complete);
    let listed = ts.list_exchanges("a", false).await.unwrap();
    assert!(listed.iter().any(|e| e.spec.account_name == "g1"));
    // Renamed, its key rotated, its type restated as it is: all kept as a gate account.
    let patch = ExchangePatch {
        exchange_type: Some("gate".into()),
        account_name: Some("g2".into()),
        ..Default::default()
    };
    let rotated = Credentials::new().with(CredentialField::ApiKey, "AKIAROTATED0123456789");
    let updated = ts
        .update_exchange(&cli("a"), "g1", patch, rotated)
        .await
        .unwrap();
    assert_eq!(updated.spec.exchange_type, "gate");
    assert_eq!(updated.spec.account_name, "g2");
    let removed = ts
        .delete(&cli("a"), ResourceKind::Exchange, "g2")
        .await
        .unwrap();
    assert_eq!(removed.name, "g2");
}
