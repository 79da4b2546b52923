//! Credentials: flags and masks on read, decryption only on request, no plaintext at rest,
//! ciphertexts bound to their row, a wrong key refused.

use super::common::*;

pub async fn exchange_secrets_are_flags_and_masks(ts: TestStore, _clock: Arc<ManualClock>) {
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
    // Signing material shows only that it is set.
    assert_eq!(
        created.credentials["secret_key"].masked.as_deref(),
        Some("••••")
    );
    let (_, creds) = ts.credentials_for_signing("a", "main").await.unwrap();
    assert_eq!(creds.get(CredentialField::ApiKey).unwrap().expose(), K);
    assert_eq!(creds.get(CredentialField::SecretKey).unwrap().expose(), S);
    assert_no_plaintext(&ts, &[K, S]).await;
}

pub async fn exchange_type_change_drops_unused_credentials(
    ts: TestStore,
    _clock: Arc<ManualClock>,
) {
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

pub async fn swapped_ciphertext_is_refused(ts: TestStore, _clock: Arc<ManualClock>) {
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

pub async fn wrong_key_is_a_clear_error(ts: TestStore, _clock: Arc<ManualClock>) {
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
