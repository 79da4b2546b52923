//! Traders. The three references (model, exchange, strategy) may be given by name or id; they
//! are resolved among the user's live resources and stored as ids, so renaming a model never
//! breaks a trader. An unknown reference is a validation problem on that field.

use nofxi_domain::{
    Actor, Adjustment, FieldProblem, Problem, ResourceKind, Trader, TraderPatch, TraderSpec,
    ValidationError,
};
use rust_decimal::Decimal;
use sqlx::any::AnyRow;
use sqlx::{AnyConnection, AssertSqlSafe, Row};

use crate::Store;
use crate::audit::{AuditAction, record};
use crate::error::{DbContext, StoreError};
use crate::flag::{flag, read_flag};
use crate::resolve::{Where, combine, name_taken, resolve, unique_to_duplicate, with_extra};

const KIND: ResourceKind = ResourceKind::Trader;
const COLUMNS: &str = "id, user_id, name, ai_model_id, exchange_id, strategy_id, initial_balance, \
     scan_interval_minutes, is_running, is_cross_margin, created_at, updated_at, deleted_at";

fn row_to_trader(row: &AnyRow) -> Result<Trader, StoreError> {
    let get = |e: sqlx::Error| StoreError::Database {
        context: "reading a trader",
        cause: e,
    };
    let balance: String = row.try_get("initial_balance").map_err(get)?;
    let initial_balance: Decimal = balance.parse().map_err(|_| StoreError::Corrupt {
        what: "trader initial_balance",
        detail: format!("{balance:?} is not a decimal"),
    })?;
    Ok(Trader {
        id: row.try_get("id").map_err(get)?,
        user_id: row.try_get("user_id").map_err(get)?,
        spec: TraderSpec {
            name: row.try_get("name").map_err(get)?,
            ai_model_id: row.try_get("ai_model_id").map_err(get)?,
            exchange_id: row.try_get("exchange_id").map_err(get)?,
            strategy_id: row.try_get("strategy_id").map_err(get)?,
            initial_balance,
            scan_interval_minutes: row.try_get("scan_interval_minutes").map_err(get)?,
            is_cross_margin: read_flag(row, "is_cross_margin").map_err(get)?,
        },
        is_running: read_flag(row, "is_running").map_err(get)?,
        created_at: row.try_get("created_at").map_err(get)?,
        updated_at: row.try_get("updated_at").map_err(get)?,
        deleted_at: row.try_get("deleted_at").map_err(get)?,
    })
}

/// Replaces each reference in `spec` by the id it names; unknown ones become problems.
async fn resolve_references(
    conn: &mut AnyConnection,
    user: &str,
    spec: &mut TraderSpec,
) -> Result<Vec<FieldProblem>, StoreError> {
    let mut problems = Vec::new();
    for (field, kind, reference) in [
        ("ai_model_id", ResourceKind::Model, &mut spec.ai_model_id),
        ("exchange_id", ResourceKind::Exchange, &mut spec.exchange_id),
        ("strategy_id", ResourceKind::Strategy, &mut spec.strategy_id),
    ] {
        if reference.is_empty() {
            continue; // the domain reports it as required
        }
        match resolve(conn, user, kind, reference, Where::Live).await {
            Ok(found) => *reference = found.id,
            Err(StoreError::NotFound { .. }) => problems.push(FieldProblem::new(
                field,
                Problem::UnknownReference {
                    kind: kind.as_str().into(),
                    reference: reference.clone(),
                },
            )),
            Err(other) => return Err(other),
        }
    }
    Ok(problems)
}

impl Store {
    /// Creates a trader. A scan interval outside 3–60 is clamped and returned as an adjustment.
    pub async fn create_trader(
        &self,
        actor: &Actor,
        spec: TraderSpec,
    ) -> Result<(Trader, Vec<Adjustment>), StoreError> {
        let mut spec = spec.normalized();
        let mut tx = self.begin_write().await?;
        let mut extra = resolve_references(&mut tx, &actor.user, &mut spec).await?;
        extra.extend(name_taken(&mut tx, &actor.user, KIND, &spec.name, "").await?);
        // Both lists of problems are reported together: the domain's and the store's.
        let adjustments = spec.validate().map_err(|e| with_extra(e, extra.clone()))?;
        combine(Ok(()), extra)?;
        let id = uuid::Uuid::now_v7().to_string();
        let now = self.clock.now_ms();
        sqlx::query(
            "INSERT INTO traders (id, user_id, name, name_key, ai_model_id, exchange_id, strategy_id, \
             initial_balance, scan_interval_minutes, is_running, is_cross_margin, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12)",
        )
        .bind(&id)
        .bind(&actor.user)
        .bind(&spec.name)
        .bind(nofxi_domain::validation::name_key(&spec.name))
        .bind(&spec.ai_model_id)
        .bind(&spec.exchange_id)
        .bind(&spec.strategy_id)
        .bind(spec.initial_balance.to_string())
        .bind(spec.scan_interval_minutes)
        .bind(flag(false))
        .bind(flag(spec.is_cross_margin))
        .bind(now)
        .execute(&mut *tx)
        .await
        .map_err(|e| unique_to_duplicate(e, KIND, &spec.name, "creating a trader"))?;
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
        let trader = load(&mut tx, &actor.user, &id).await?;
        tx.commit().await.ctx("saving the trader")?;
        Ok((trader, adjustments))
    }

    /// Marks a trader running or stopped. Starting checks REFERENCE §1's preconditions
    /// ([`nofxi_domain::trader::start_problems`]) and reports every unmet one; the trading
    /// engine calls this, so the flag never claims a trader runs that could not.
    pub async fn set_trader_running(
        &self,
        actor: &Actor,
        reference: &str,
        running: bool,
    ) -> Result<Trader, StoreError> {
        let mut tx = self.begin_write().await?;
        let found = resolve(&mut tx, &actor.user, KIND, reference, Where::Live).await?;
        let trader = load(&mut tx, &actor.user, &found.id).await?;
        if running {
            let user = &actor.user;
            let spec = &trader.spec;
            let model = match live(&mut tx, user, ResourceKind::Model, &spec.ai_model_id).await? {
                Some(id) => Some(self.load_model(&mut tx, user, &id).await?),
                None => None,
            };
            let exchange =
                match live(&mut tx, user, ResourceKind::Exchange, &spec.exchange_id).await? {
                    Some(id) => Some(self.load_exchange(&mut tx, user, &id).await?),
                    None => None,
                };
            let strategy =
                match live(&mut tx, user, ResourceKind::Strategy, &spec.strategy_id).await? {
                    Some(id) => Some(crate::strategies::load(&mut tx, user, &id).await?),
                    None => None,
                };
            nofxi_domain::trader::start_problems(
                spec,
                model.as_ref(),
                exchange.as_ref(),
                strategy.as_ref(),
            )?;
        }
        let now = self.clock.now_ms();
        sqlx::query(
            "UPDATE traders SET is_running = $3, updated_at = $4 WHERE user_id = $1 AND id = $2",
        )
        .bind(&actor.user)
        .bind(&found.id)
        .bind(flag(running))
        .bind(now)
        .execute(&mut *tx)
        .await
        .ctx("marking the trader running or stopped")?;
        let action = if running {
            AuditAction::Start
        } else {
            AuditAction::Stop
        };
        record(
            &mut tx,
            actor,
            KIND,
            &found.id,
            action,
            now,
            Some(found.name.clone()),
        )
        .await?;
        let trader = load(&mut tx, &actor.user, &found.id).await?;
        tx.commit().await.ctx("saving the trader")?;
        Ok(trader)
    }

    pub async fn list_traders(&self, user: &str, deleted: bool) -> Result<Vec<Trader>, StoreError> {
        let filter = if deleted { "IS NOT NULL" } else { "IS NULL" };
        let rows = sqlx::query(AssertSqlSafe(format!(
            "SELECT {COLUMNS} FROM traders WHERE user_id = $1 AND deleted_at {filter} ORDER BY name_key, id"
        )))
        .bind(user)
        .fetch_all(&self.pool)
        .await
        .ctx("listing traders")?;
        rows.iter().map(row_to_trader).collect()
    }

    pub async fn get_trader(&self, user: &str, reference: &str) -> Result<Trader, StoreError> {
        let mut conn = self.pool.acquire().await.ctx("getting a connection")?;
        let found = resolve(&mut conn, user, KIND, reference, Where::Live).await?;
        load(&mut conn, user, &found.id).await
    }

    pub async fn update_trader(
        &self,
        actor: &Actor,
        reference: &str,
        patch: TraderPatch,
    ) -> Result<(Trader, Vec<Adjustment>), StoreError> {
        let mut tx = self.begin_write().await?;
        let (current, spec, adjustments) = self
            .checked_update(&mut tx, &actor.user, reference, patch)
            .await?;
        let found = &current;
        let now = self.clock.now_ms();
        sqlx::query(
            "UPDATE traders SET name = $3, name_key = $4, ai_model_id = $5, exchange_id = $6, \
             strategy_id = $7, initial_balance = $8, scan_interval_minutes = $9, \
             is_cross_margin = $10, updated_at = $11 WHERE user_id = $1 AND id = $2",
        )
        .bind(&actor.user)
        .bind(&found.id)
        .bind(&spec.name)
        .bind(nofxi_domain::validation::name_key(&spec.name))
        .bind(&spec.ai_model_id)
        .bind(&spec.exchange_id)
        .bind(&spec.strategy_id)
        .bind(spec.initial_balance.to_string())
        .bind(spec.scan_interval_minutes)
        .bind(flag(spec.is_cross_margin))
        .bind(now)
        .execute(&mut *tx)
        .await
        .map_err(|e| unique_to_duplicate(e, KIND, &spec.name, "updating a trader"))?;
        let old = &current.spec;
        let mut changed = Vec::new();
        for (name, differs) in [
            ("name", old.name != spec.name),
            ("ai_model_id", old.ai_model_id != spec.ai_model_id),
            ("exchange_id", old.exchange_id != spec.exchange_id),
            ("strategy_id", old.strategy_id != spec.strategy_id),
            (
                "initial_balance",
                old.initial_balance != spec.initial_balance,
            ),
            (
                "scan_interval_minutes",
                old.scan_interval_minutes != spec.scan_interval_minutes,
            ),
            (
                "is_cross_margin",
                old.is_cross_margin != spec.is_cross_margin,
            ),
        ] {
            if differs {
                changed.push(name);
            }
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
        let trader = load(&mut tx, &actor.user, &found.id).await?;
        tx.commit().await.ctx("saving the trader")?;
        Ok((trader, adjustments))
    }
}

impl Store {
    /// The trader `reference` names and what `patch` would make of it (references resolved to
    /// ids, values clamped), checked as [`Store::update_trader`] checks it, nothing written: a
    /// surface that asks the user first refuses a change now rather than after the yes, and
    /// shows what it changes.
    pub async fn check_trader_update(
        &self,
        user: &str,
        reference: &str,
        patch: TraderPatch,
    ) -> Result<(Trader, TraderSpec, Vec<Adjustment>), StoreError> {
        let mut conn = self.pool.acquire().await.ctx("getting a connection")?;
        self.checked_update(&mut conn, user, reference, patch).await
    }

    async fn checked_update(
        &self,
        conn: &mut AnyConnection,
        user: &str,
        reference: &str,
        patch: TraderPatch,
    ) -> Result<(Trader, TraderSpec, Vec<Adjustment>), StoreError> {
        let found = resolve(conn, user, KIND, reference, Where::Live).await?;
        let current = load(conn, user, &found.id).await?;
        let mut spec = current.spec.clone().apply(patch);
        let mut extra = resolve_references(conn, user, &mut spec).await?;
        if current.is_running {
            self.check_running_rebind(conn, user, &current, &spec)
                .await?;
        }
        extra.extend(name_taken(conn, user, KIND, &spec.name, &found.id).await?);
        // Both lists of problems are reported together: the domain's and the store's.
        let adjustments = spec.validate().map_err(|e| with_extra(e, extra.clone()))?;
        combine(Ok(()), extra)?;
        Ok((current, spec, adjustments))
    }

    /// What a running trader may be bound to, since its engine takes the new binding at the
    /// next cycle. Not another account: it would trade there past the start's preflight (and
    /// its live-money confirmation), and leave its open positions unmanaged where they are.
    /// Not a disabled model: its next cycles would fail (the start refuses one too).
    async fn check_running_rebind(
        &self,
        conn: &mut AnyConnection,
        user: &str,
        current: &Trader,
        spec: &TraderSpec,
    ) -> Result<(), StoreError> {
        if spec.exchange_id != current.spec.exchange_id {
            return Err(StoreError::RunningMove {
                name: current.spec.name.clone(),
            });
        }
        if spec.ai_model_id == current.spec.ai_model_id || spec.ai_model_id.is_empty() {
            return Ok(());
        }
        let Some(id) = live(conn, user, ResourceKind::Model, &spec.ai_model_id).await? else {
            return Ok(()); // an unknown reference: reported with the other problems
        };
        let model = self.load_model(conn, user, &id).await?;
        if model.spec.enabled {
            return Ok(());
        }
        let disabled = Problem::Disabled {
            kind: "model".into(),
            name: model.spec.name,
        };
        Err(ValidationError::single("ai_model_id", disabled).into())
    }
}

/// The id of a live resource, or `None` when it is gone or in the trash.
async fn live(
    conn: &mut AnyConnection,
    user: &str,
    kind: ResourceKind,
    id: &str,
) -> Result<Option<String>, StoreError> {
    match resolve(conn, user, kind, id, Where::Live).await {
        Ok(found) => Ok(Some(found.id)),
        Err(StoreError::NotFound { .. }) => Ok(None),
        Err(other) => Err(other),
    }
}

async fn load(conn: &mut AnyConnection, user: &str, id: &str) -> Result<Trader, StoreError> {
    let row = sqlx::query(AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM traders WHERE user_id = $1 AND id = $2"
    )))
    .bind(user)
    .bind(id)
    .fetch_one(&mut *conn)
    .await
    .ctx("reading a trader")?;
    row_to_trader(&row)
}
