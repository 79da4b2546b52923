//! Model configs: create, read, update, and the one call that decrypts a model's API key.

use nofxi_domain::{Actor, Model, ModelPatch, ModelSpec, ResourceKind, Secret};
use sqlx::any::AnyRow;
use sqlx::{AnyConnection, AssertSqlSafe, Row};

use crate::Store;
use crate::audit::{AuditAction, record};
use crate::error::{DbContext, StoreError};
use crate::flag::{flag, read_flag};
use crate::resolve::{Where, combine, name_taken, resolve, unique_to_duplicate};
use crate::vault::SecretSlot;

const KIND: ResourceKind = ResourceKind::Model;
const API_KEY: &str = "api_key";
const COLUMNS: &str = "id, user_id, name, provider, enabled, base_url, model_name, created_at, updated_at, deleted_at";

fn row_to_model(row: &AnyRow, masked_key: Option<String>) -> Result<Model, sqlx::Error> {
    let spec = ModelSpec {
        name: row.try_get("name")?,
        provider: row.try_get("provider")?,
        enabled: read_flag(row, "enabled")?,
        base_url: row.try_get("base_url")?,
        model_name: row.try_get("model_name")?,
    };
    Ok(Model {
        id: row.try_get("id")?,
        user_id: row.try_get("user_id")?,
        effective_base_url: spec.effective_base_url(),
        effective_model_name: spec.effective_model_name(),
        spec,
        has_api_key: masked_key.is_some(),
        api_key_masked: masked_key,
        created_at: row.try_get("created_at")?,
        updated_at: row.try_get("updated_at")?,
        deleted_at: row.try_get("deleted_at")?,
    })
}

impl Store {
    /// Creates a model. The key, when given, goes to the vault; the result shows its mask only.
    pub async fn create_model(
        &self,
        actor: &Actor,
        spec: ModelSpec,
        api_key: Option<Secret>,
    ) -> Result<Model, StoreError> {
        let spec = spec.normalized();
        let mut tx = self.begin_write().await?;
        let dup = name_taken(&mut tx, &actor.user, KIND, &spec.name, "").await?;
        combine(
            spec.validate(api_key.as_ref(), false),
            dup.into_iter().collect(),
        )?;
        // An empty key got this far only where the provider takes none: nothing to keep.
        let api_key = api_key.filter(|k| !k.expose().trim().is_empty());
        let id = uuid::Uuid::now_v7().to_string();
        let now = self.clock.now_ms();
        sqlx::query(
            "INSERT INTO models (id, user_id, name, name_key, provider, enabled, base_url, model_name, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)",
        )
        .bind(&id)
        .bind(&actor.user)
        .bind(&spec.name)
        .bind(nofxi_domain::validation::name_key(&spec.name))
        .bind(&spec.provider)
        .bind(flag(spec.enabled))
        .bind(&spec.base_url)
        .bind(&spec.model_name)
        .bind(now)
        .execute(&mut *tx)
        .await
        .map_err(|e| unique_to_duplicate(e, KIND, &spec.name, "creating a model"))?;
        if let Some(key) = &api_key {
            self.write_secret(
                &mut tx,
                SecretSlot {
                    user: &actor.user,
                    kind: KIND,
                    resource_id: &id,
                    field: API_KEY,
                },
                None,
                key,
                now,
            )
            .await?;
        }
        record(
            &mut tx,
            actor,
            KIND,
            &id,
            AuditAction::Create,
            now,
            Some(spec.name.clone()),
        )
        .await?;
        let model = self.load_model(&mut tx, &actor.user, &id).await?;
        tx.commit().await.ctx("saving the model")?;
        Ok(model)
    }

    pub(crate) async fn load_model(
        &self,
        conn: &mut AnyConnection,
        user: &str,
        id: &str,
    ) -> Result<Model, StoreError> {
        let row = sqlx::query(AssertSqlSafe(format!(
            "SELECT {COLUMNS} FROM models WHERE user_id = $1 AND id = $2"
        )))
        .bind(user)
        .bind(id)
        .fetch_one(&mut *conn)
        .await
        .ctx("reading a model")?;
        let masks = self.secret_masks(conn, user, KIND).await?;
        let key = masks.get(id).and_then(|m| m.get(API_KEY)).cloned();
        row_to_model(&row, key).ctx("reading a model")
    }

    /// The user's models, by name. `deleted` lists the trash instead.
    pub async fn list_models(&self, user: &str, deleted: bool) -> Result<Vec<Model>, StoreError> {
        let mut conn = self.pool.acquire().await.ctx("getting a connection")?;
        let filter = if deleted { "IS NOT NULL" } else { "IS NULL" };
        let rows = sqlx::query(AssertSqlSafe(format!(
            "SELECT {COLUMNS} FROM models WHERE user_id = $1 AND deleted_at {filter} ORDER BY name_key, id"
        )))
        .bind(user)
        .fetch_all(&mut *conn)
        .await
        .ctx("listing models")?;
        let masks = self.secret_masks(&mut conn, user, KIND).await?;
        rows.iter()
            .map(|row| {
                let id: String = row.try_get("id")?;
                let key = masks.get(&id).and_then(|m| m.get(API_KEY)).cloned();
                row_to_model(row, key)
            })
            .collect::<Result<_, _>>()
            .ctx("listing models")
    }

    /// One live model by id or name (case-insensitive).
    pub async fn get_model(&self, user: &str, reference: &str) -> Result<Model, StoreError> {
        let mut conn = self.pool.acquire().await.ctx("getting a connection")?;
        let found = resolve(&mut conn, user, KIND, reference, Where::Live).await?;
        self.load_model(&mut conn, user, &found.id).await
    }

    /// Applies `patch`; a new `api_key` replaces the stored one, `None` keeps it.
    pub async fn update_model(
        &self,
        actor: &Actor,
        reference: &str,
        patch: ModelPatch,
        api_key: Option<Secret>,
    ) -> Result<Model, StoreError> {
        let mut tx = self.begin_write().await?;
        let found = resolve(&mut tx, &actor.user, KIND, reference, Where::Live).await?;
        let current = self.load_model(&mut tx, &actor.user, &found.id).await?;
        let spec = current.spec.clone().apply(patch);
        let dup = name_taken(&mut tx, &actor.user, KIND, &spec.name, &found.id).await?;
        combine(
            spec.validate(api_key.as_ref(), current.has_api_key),
            dup.into_iter().collect(),
        )?;
        // An empty key got this far only where the provider takes none: nothing to keep.
        let api_key = api_key.filter(|k| !k.expose().trim().is_empty());
        let now = self.clock.now_ms();
        sqlx::query(
            "UPDATE models SET name = $3, name_key = $4, provider = $5, enabled = $6, base_url = $7, \
             model_name = $8, updated_at = $9 WHERE user_id = $1 AND id = $2",
        )
        .bind(&actor.user)
        .bind(&found.id)
        .bind(&spec.name)
        .bind(nofxi_domain::validation::name_key(&spec.name))
        .bind(&spec.provider)
        .bind(flag(spec.enabled))
        .bind(&spec.base_url)
        .bind(&spec.model_name)
        .bind(now)
        .execute(&mut *tx)
        .await
        .map_err(|e| unique_to_duplicate(e, KIND, &spec.name, "updating a model"))?;
        if let Some(key) = &api_key {
            self.write_secret(
                &mut tx,
                SecretSlot {
                    user: &actor.user,
                    kind: KIND,
                    resource_id: &found.id,
                    field: API_KEY,
                },
                None,
                key,
                now,
            )
            .await?;
        }
        let detail = changed_fields(&current.spec, &spec, api_key.is_some());
        record(
            &mut tx,
            actor,
            KIND,
            &found.id,
            AuditAction::Update,
            now,
            Some(detail),
        )
        .await?;
        let model = self.load_model(&mut tx, &actor.user, &found.id).await?;
        tx.commit().await.ctx("saving the model")?;
        Ok(model)
    }

    /// Decrypts the model's API key, for the code that calls the model and nothing else.
    pub async fn model_api_key(
        &self,
        user: &str,
        reference: &str,
    ) -> Result<Option<Secret>, StoreError> {
        let mut conn = self.pool.acquire().await.ctx("getting a connection")?;
        let found = resolve(&mut conn, user, KIND, reference, Where::Live).await?;
        let mut secrets = self.open_secrets(&mut conn, user, KIND, &found.id).await?;
        Ok(secrets.remove(API_KEY))
    }
}

/// `name, base_url, api_key`: which fields an update touched, for the audit row.
fn changed_fields(old: &ModelSpec, new: &ModelSpec, key: bool) -> String {
    let mut out = Vec::new();
    if old.name != new.name {
        out.push("name");
    }
    if old.provider != new.provider {
        out.push("provider");
    }
    if old.enabled != new.enabled {
        out.push("enabled");
    }
    if old.base_url != new.base_url {
        out.push("base_url");
    }
    if old.model_name != new.model_name {
        out.push("model_name");
    }
    if key {
        out.push("api_key");
    }
    out.join(", ")
}
