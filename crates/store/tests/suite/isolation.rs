//! One user never reaches another user's resources or state.

use super::common::*;

/// User B tries every call on user A's resources, by id and by name; every one fails and A's
/// data is unchanged.
pub async fn users_cannot_touch_each_other(ts: TestStore, _clock: Arc<ManualClock>) {
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

pub async fn state_documents_upsert_per_user(ts: TestStore, _clock: Arc<ManualClock>) {
    assert_eq!(ts.get_state("a", "paper", "acct").await.unwrap(), None);
    let v1 = serde_json::json!({"balance": "1000.00", "positions": []});
    ts.put_state("a", "paper", "acct", &v1).await.unwrap();
    let v2 = serde_json::json!({"balance": "990.5"});
    ts.put_state("a", "paper", "acct", &v2).await.unwrap();
    assert_eq!(ts.get_state("a", "paper", "acct").await.unwrap(), Some(v2));
    assert_eq!(ts.get_state("b", "paper", "acct").await.unwrap(), None);
    assert_eq!(ts.get_state("a", "other", "acct").await.unwrap(), None);
}
