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

/// The stored `masked` column of one credential field of one resource.
async fn stored_mask(ts: &TestStore, resource_id: &str, field: &str) -> String {
    sqlx::query("SELECT masked FROM secrets WHERE resource_id = $1 AND field = $2")
        .bind(resource_id)
        .bind(field)
        .fetch_one(ts.raw_pool())
        .await
        .unwrap()
        .try_get("masked")
        .unwrap()
}

/// Hyperliquid's `api_key` is the agent wallet's private key: none of its characters is shown,
/// whatever its shape, in the stored mask, in every read and in the redactor's list; on a
/// Binance account the same field shows its tail.
pub async fn hyperliquid_private_key_shows_no_characters(ts: TestStore, _clock: Arc<ManualClock>) {
    let hex = "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318";
    // Not shaped like 64 hex digits (pasted with a label, say): refused, never repeated.
    let odd = "agent-4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f36";
    let addr = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
    let refused = ts
        .create_exchange(
            &cli("a"),
            ExchangeSpec {
                exchange_type: "hyperliquid".into(),
                ..binance("hl2")
            },
            Credentials::new()
                .with(CredentialField::ApiKey, odd)
                .with(CredentialField::WalletAddr, addr),
        )
        .await
        .unwrap_err()
        .to_string();
    assert!(
        refused.contains("64 hexadecimal") && !refused.contains("4c0883"),
        "{refused}"
    );
    let (name, key) = ("hl1", hex);
    let spec = ExchangeSpec {
        exchange_type: "hyperliquid".into(),
        ..binance(name)
    };
    let creds = Credentials::new()
        .with(CredentialField::ApiKey, key)
        .with(CredentialField::WalletAddr, addr);
    let created = ts.create_exchange(&cli("a"), spec, creds).await.unwrap();
    let tail = &key[key.len() - 4..];
    let stored = stored_mask(&ts, &created.id, "api_key").await;
    assert!(!stored.contains(tail), "{name}: stored mask {stored}");
    let shown = ts.get_exchange("a", name).await.unwrap();
    let json = serde_json::to_string(&shown).unwrap();
    assert!(!json.contains(tail), "{name}: {json}");
    assert_eq!(shown.credentials["api_key"].masked.as_deref(), Some("••••"));
    // The wallet address is public: it keeps its tail.
    assert!(json.contains("eAed"), "{json}");
    let known = ts.credentials_to_mask("a").await.unwrap();
    for (secret, mask) in &known {
        if secret.expose() == hex {
            assert_eq!(mask, "••••");
        }
    }
    // A Binance account turned into a Hyperliquid one keeps its `api_key`, which is now read
    // as a private key: the mask stored for Binance is not shown.
    let moved = ts
        .create_exchange(&cli("a"), binance("moved"), keys())
        .await
        .unwrap();
    assert!(
        moved.credentials["api_key"]
            .masked
            .as_deref()
            .is_some_and(|m| m.ends_with(&K[K.len() - 4..]))
    );
    let hl = ts
        .update_exchange(
            &cli("a"),
            "moved",
            ExchangePatch {
                exchange_type: Some("hyperliquid".into()),
                ..Default::default()
            },
            Credentials::new().with(CredentialField::WalletAddr, addr),
        )
        .await
        .unwrap();
    assert_eq!(hl.credentials["api_key"].masked.as_deref(), Some("••••"));
    let stored = stored_mask(&ts, &moved.id, "api_key").await;
    assert!(!stored.contains(&K[K.len() - 4..]), "stored mask {stored}");
}
