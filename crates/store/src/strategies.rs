//! Strategies. The config is stored as JSON text (decimals inside are strings, so exact);
//! activating one strategy deactivates the user's others in the same transaction.

use nofxi_domain::{Actor, ResourceKind, Strategy, StrategyConfig, StrategyPatch, StrategySpec};
use sqlx::any::AnyRow;
use sqlx::{AnyConnection, AssertSqlSafe, Row};

use crate::Store;
use crate::audit::{AuditAction, record};
use crate::error::{DbContext, StoreError};
use crate::flag::{flag, read_flag};
use crate::resolve::{Where, combine, name_taken, resolve, unique_to_duplicate};

const KIND: ResourceKind = ResourceKind::Strategy;
const COLUMNS: &str =
    "id, user_id, name, description, is_active, config, created_at, updated_at, deleted_at";

fn row_to_strategy(row: &AnyRow) -> Result<Strategy, StoreError> {
    let get = |e: sqlx::Error| StoreError::Database {
        context: "reading a strategy",
        cause: e,
    };
    let config_text: String = row.try_get("config").map_err(get)?;
    let config: StrategyConfig =
        serde_json::from_str(&config_text).map_err(|e| StoreError::Corrupt {
            what: "strategy config",
            detail: e.to_string(),
        })?;
    Ok(Strategy {
        id: row.try_get("id").map_err(get)?,
        user_id: row.try_get("user_id").map_err(get)?,
        spec: StrategySpec {
            name: row.try_get("name").map_err(get)?,
            description: row.try_get("description").map_err(get)?,
            is_active: read_flag(row, "is_active").map_err(get)?,
            config,
        },
        created_at: row.try_get("created_at").map_err(get)?,
        updated_at: row.try_get("updated_at").map_err(get)?,
        deleted_at: row.try_get("deleted_at").map_err(get)?,
    })
}

fn config_json(config: &StrategyConfig) -> Result<String, StoreError> {
    serde_json::to_string(config).map_err(|e| StoreError::Corrupt {
        what: "strategy config",
        detail: e.to_string(),
    })
}

impl Store {
    pub async fn create_strategy(
        &self,
        actor: &Actor,
        spec: StrategySpec,
    ) -> Result<Strategy, StoreError> {
        let spec = spec.normalized();
        let mut tx = self.begin_write().await?;
        let dup = name_taken(&mut tx, &actor.user, KIND, &spec.name, "").await?;
        combine(spec.validate(), dup.into_iter().collect())?;
        let id = uuid::Uuid::now_v7().to_string();
        let now = self.clock.now_ms();
        if spec.is_active {
            deactivate_others(&mut tx, &actor.user, &id, now).await?;
        }
        sqlx::query(
            "INSERT INTO strategies (id, user_id, name, name_key, description, is_active, config, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)",
        )
        .bind(&id)
        .bind(&actor.user)
        .bind(&spec.name)
        .bind(nofxi_domain::validation::name_key(&spec.name))
        .bind(&spec.description)
        .bind(flag(spec.is_active))
        .bind(config_json(&spec.config)?)
        .bind(now)
        .execute(&mut *tx)
        .await
        .map_err(|e| unique_to_duplicate(e, KIND, &spec.name, "creating a strategy"))?;
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
        let strategy = load(&mut tx, &actor.user, &id).await?;
        tx.commit().await.ctx("saving the strategy")?;
        Ok(strategy)
    }

    pub async fn list_strategies(
        &self,
        user: &str,
        deleted: bool,
    ) -> Result<Vec<Strategy>, StoreError> {
        let filter = if deleted { "IS NOT NULL" } else { "IS NULL" };
        let rows = sqlx::query(AssertSqlSafe(format!(
            "SELECT {COLUMNS} FROM strategies WHERE user_id = $1 AND deleted_at {filter} ORDER BY name_key, id"
        )))
        .bind(user)
        .fetch_all(&self.pool)
        .await
        .ctx("listing strategies")?;
        rows.iter().map(row_to_strategy).collect()
    }

    pub async fn get_strategy(&self, user: &str, reference: &str) -> Result<Strategy, StoreError> {
        let mut conn = self.pool.acquire().await.ctx("getting a connection")?;
        let found = resolve(&mut conn, user, KIND, reference, Where::Live).await?;
        load(&mut conn, user, &found.id).await
    }

    pub async fn update_strategy(
        &self,
        actor: &Actor,
        reference: &str,
        patch: StrategyPatch,
    ) -> Result<Strategy, StoreError> {
        let mut tx = self.begin_write().await?;
        let found = resolve(&mut tx, &actor.user, KIND, reference, Where::Live).await?;
        let current = load(&mut tx, &actor.user, &found.id).await?;
        let spec = current.spec.clone().apply(patch);
        let dup = name_taken(&mut tx, &actor.user, KIND, &spec.name, &found.id).await?;
        combine(spec.validate(), dup.into_iter().collect())?;
        let now = self.clock.now_ms();
        if spec.is_active && !current.spec.is_active {
            deactivate_others(&mut tx, &actor.user, &found.id, now).await?;
        }
        sqlx::query(
            "UPDATE strategies SET name = $3, name_key = $4, description = $5, is_active = $6, \
             config = $7, updated_at = $8 WHERE user_id = $1 AND id = $2",
        )
        .bind(&actor.user)
        .bind(&found.id)
        .bind(&spec.name)
        .bind(nofxi_domain::validation::name_key(&spec.name))
        .bind(&spec.description)
        .bind(flag(spec.is_active))
        .bind(config_json(&spec.config)?)
        .bind(now)
        .execute(&mut *tx)
        .await
        .map_err(|e| unique_to_duplicate(e, KIND, &spec.name, "updating a strategy"))?;
        let mut changed = Vec::new();
        if current.spec.name != spec.name {
            changed.push("name");
        }
        if current.spec.description != spec.description {
            changed.push("description");
        }
        if current.spec.is_active != spec.is_active {
            changed.push("is_active");
        }
        if current.spec.config != spec.config {
            changed.push("config");
        }
        record(
            &mut tx,
            actor,
            KIND,
            &found.id,
            AuditAction::Update,
            now,
            Some(changed.join(", ")),
        )
        .await?;
        let strategy = load(&mut tx, &actor.user, &found.id).await?;
        tx.commit().await.ctx("saving the strategy")?;
        Ok(strategy)
    }
}

pub(crate) async fn load(
    conn: &mut AnyConnection,
    user: &str,
    id: &str,
) -> Result<Strategy, StoreError> {
    let row = sqlx::query(AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM strategies WHERE user_id = $1 AND id = $2"
    )))
    .bind(user)
    .bind(id)
    .fetch_one(&mut *conn)
    .await
    .ctx("reading a strategy")?;
    row_to_strategy(&row)
}

/// At most one active strategy per user.
async fn deactivate_others(
    conn: &mut AnyConnection,
    user: &str,
    keep_id: &str,
    now: i64,
) -> Result<(), StoreError> {
    sqlx::query(
        "UPDATE strategies SET is_active = $3, updated_at = $4 \
         WHERE user_id = $1 AND id <> $2 AND is_active = $5 AND deleted_at IS NULL",
    )
    .bind(user)
    .bind(keep_id)
    .bind(flag(false))
    .bind(now)
    .bind(flag(true))
    .execute(&mut *conn)
    .await
    .ctx("deactivating the other strategies")?;
    Ok(())
}
