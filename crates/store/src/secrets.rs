//! Credential rows: sealing on write, masks on read, decryption only on explicit request.

use std::collections::BTreeMap;

use nofxi_domain::{ExchangeType, ResourceKind, Secret, shown_mask};
use sqlx::{AnyConnection, Row};

use crate::Store;
use crate::error::{DbContext, StoreError};
use crate::vault::SecretSlot;

/// The form readers see. Exchange signing material is never partially shown, and neither is a
/// field that holds a private key on the account's type (Hyperliquid's `api_key`), whatever
/// the key looks like.
fn display_mask(
    kind: ResourceKind,
    exchange_type: Option<ExchangeType>,
    field: &str,
    secret: &Secret,
) -> String {
    match kind {
        ResourceKind::Exchange if exchange_type.is_some_and(|t| t.holds_private_key(field)) => {
            Secret::new("").mask()
        }
        ResourceKind::Exchange => shown_mask(field, secret),
        _ => secret.mask(),
    }
}

/// A mask as read: one stored before the account's type made the field a private key (a
/// Binance account turned Hyperliquid keeps its `api_key`) is not shown as stored.
fn read_mask(exchange_type: Option<&str>, field: &str, stored: String) -> String {
    let private = exchange_type
        .and_then(|t| t.parse::<ExchangeType>().ok())
        .is_some_and(|t| t.holds_private_key(field));
    if private {
        Secret::new("").mask()
    } else {
        stored
    }
}

impl Store {
    /// Seals and upserts one credential field.
    pub(crate) async fn write_secret(
        &self,
        conn: &mut AnyConnection,
        slot: SecretSlot<'_>,
        exchange_type: Option<ExchangeType>,
        secret: &Secret,
        now: i64,
    ) -> Result<(), StoreError> {
        let SecretSlot {
            user,
            kind,
            resource_id,
            field,
        } = slot;
        let sealed = self.vault.ready()?.seal(slot, secret)?;
        sqlx::query(
            "INSERT INTO secrets (user_id, resource_kind, resource_id, field, sealed, masked, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7) \
             ON CONFLICT (resource_id, field) DO UPDATE SET \
               sealed = excluded.sealed, masked = excluded.masked, updated_at = excluded.updated_at",
        )
        .bind(user)
        .bind(kind.as_str())
        .bind(resource_id)
        .bind(field)
        .bind(sealed)
        .bind(display_mask(kind, exchange_type, field, secret))
        .bind(now)
        .execute(&mut *conn)
        .await
        .ctx("storing an encrypted credential")?;
        Ok(())
    }

    pub(crate) async fn delete_secret(
        &self,
        conn: &mut AnyConnection,
        user: &str,
        resource_id: &str,
        field: &str,
    ) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM secrets WHERE user_id = $1 AND resource_id = $2 AND field = $3")
            .bind(user)
            .bind(resource_id)
            .bind(field)
            .execute(&mut *conn)
            .await
            .ctx("removing a credential")?;
        Ok(())
    }

    /// Replaces a stored mask by the full one: the field became a private key when the
    /// account's type changed, and its value was kept.
    pub(crate) async fn hide_mask(
        &self,
        conn: &mut AnyConnection,
        user: &str,
        resource_id: &str,
        field: &str,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE secrets SET masked = $4 WHERE user_id = $1 AND resource_id = $2 AND field = $3",
        )
        .bind(user)
        .bind(resource_id)
        .bind(field)
        .bind(Secret::new("").mask())
        .execute(&mut *conn)
        .await
        .ctx("hiding a credential's mask")?;
        Ok(())
    }

    /// Field → masked form for every stored credential of one kind, grouped by resource id.
    pub(crate) async fn secret_masks(
        &self,
        conn: &mut AnyConnection,
        user: &str,
        kind: ResourceKind,
    ) -> Result<BTreeMap<String, BTreeMap<String, String>>, StoreError> {
        let rows = sqlx::query(
            "SELECT s.resource_id, s.field, s.masked, e.exchange_type FROM secrets s \
             LEFT JOIN exchanges e ON e.id = s.resource_id AND s.resource_kind = 'exchange' \
             WHERE s.user_id = $1 AND s.resource_kind = $2",
        )
        .bind(user)
        .bind(kind.as_str())
        .fetch_all(&mut *conn)
        .await
        .ctx("reading credential flags")?;
        let mut out: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
        for row in rows {
            let id: String = row.try_get("resource_id").ctx("reading credential flags")?;
            let field: String = row.try_get("field").ctx("reading credential flags")?;
            let masked: String = row.try_get("masked").ctx("reading credential flags")?;
            let exchange_type: Option<String> = row
                .try_get("exchange_type")
                .ctx("reading credential flags")?;
            let masked = read_mask(exchange_type.as_deref(), &field, masked);
            out.entry(id).or_default().insert(field, masked);
        }
        Ok(out)
    }

    /// Every stored credential of `user`, decrypted, with the form readers see. Only for the
    /// assistant's redactor: a stored value the user pastes again (in a question, an error)
    /// is masked before a model, a reply or the saved conversation sees it.
    pub async fn credentials_to_mask(
        &self,
        user: &str,
    ) -> Result<Vec<(Secret, String)>, StoreError> {
        let what = "reading encrypted credentials";
        let mut conn = self.pool.acquire().await.ctx("getting a connection")?;
        let rows = sqlx::query(
            "SELECT s.resource_kind, s.resource_id, s.field, s.sealed, s.masked, e.exchange_type \
             FROM secrets s LEFT JOIN exchanges e ON e.id = s.resource_id AND s.resource_kind = 'exchange' WHERE s.user_id = $1",
        )
        .bind(user)
        .fetch_all(&mut *conn)
        .await
        .ctx(what)?;
        let mut out = Vec::with_capacity(rows.len());
        for row in rows {
            let kind: String = row.try_get("resource_kind").ctx(what)?;
            let Ok(kind) = kind.parse::<ResourceKind>() else {
                continue;
            };
            let resource_id: String = row.try_get("resource_id").ctx(what)?;
            let field: String = row.try_get("field").ctx(what)?;
            let sealed: Vec<u8> = row.try_get("sealed").ctx(what)?;
            let masked: String = row.try_get("masked").ctx(what)?;
            let exchange_type: Option<String> = row.try_get("exchange_type").ctx(what)?;
            let masked = read_mask(exchange_type.as_deref(), &field, masked);
            let slot = SecretSlot {
                user,
                kind,
                resource_id: &resource_id,
                field: &field,
            };
            out.push((self.vault.ready()?.open(slot, &sealed)?, masked));
        }
        Ok(out)
    }

    /// Decrypts every credential of one resource. Only for signing and model calls.
    pub(crate) async fn open_secrets(
        &self,
        conn: &mut AnyConnection,
        user: &str,
        kind: ResourceKind,
        resource_id: &str,
    ) -> Result<BTreeMap<String, Secret>, StoreError> {
        let rows = sqlx::query(
            "SELECT field, sealed FROM secrets \
             WHERE user_id = $1 AND resource_kind = $2 AND resource_id = $3",
        )
        .bind(user)
        .bind(kind.as_str())
        .bind(resource_id)
        .fetch_all(&mut *conn)
        .await
        .ctx("reading encrypted credentials")?;
        let mut out = BTreeMap::new();
        for row in rows {
            let field: String = row.try_get("field").ctx("reading encrypted credentials")?;
            let sealed: Vec<u8> = row.try_get("sealed").ctx("reading encrypted credentials")?;
            let slot = SecretSlot {
                user,
                kind,
                resource_id,
                field: &field,
            };
            let secret = self.vault.ready()?.open(slot, &sealed)?;
            out.insert(field, secret);
        }
        Ok(out)
    }
}
