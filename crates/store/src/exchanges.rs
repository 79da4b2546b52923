//! Exchange accounts and their credentials.
//!
//! Credentials are written field by field into the vault. Changing the account type drops the
//! credentials the new type does not use, so a leftover OKX passphrase never lingers on what
//! became a Binance account.

use std::collections::{BTreeMap, BTreeSet};

use nofxi_domain::{
    Actor, CredentialField, Credentials, Exchange, ExchangePatch, ExchangeSpec, FieldProblem,
    MarketSource, ResourceKind, ValidationError,
};
use sqlx::any::AnyRow;
use sqlx::{AnyConnection, AssertSqlSafe, Row};

use crate::Store;
use crate::audit::{AuditAction, record};
use crate::error::{DbContext, StoreError};
use crate::flag::{flag, read_flag};
use crate::resolve::{Where, combine, name_taken, resolve, unique_to_duplicate};
use crate::vault::SecretSlot;

const KIND: ResourceKind = ResourceKind::Exchange;

/// What a new account is made of, normalized.
pub(crate) struct NewExchange {
    pub spec: ExchangeSpec,
    pub credentials: Credentials,
    pub market: MarketSource,
}
const COLUMNS: &str = "id, user_id, exchange_type, account_name, enabled, testnet, market, created_at, updated_at, deleted_at";

fn row_to_exchange(
    row: &AnyRow,
    masks: Option<&BTreeMap<String, String>>,
) -> Result<Exchange, sqlx::Error> {
    let spec = ExchangeSpec {
        exchange_type: row.try_get("exchange_type")?,
        account_name: row.try_get("account_name")?,
        enabled: read_flag(row, "enabled")?,
        testnet: read_flag(row, "testnet")?,
    };
    let stored: BTreeMap<CredentialField, String> = masks
        .into_iter()
        .flatten()
        .filter_map(|(field, mask)| Some((field.parse().ok()?, mask.clone())))
        .collect();
    let market: String = row.try_get("market")?;
    let market = market
        .parse::<MarketSource>()
        .map_err(|e| sqlx::Error::Decode(format!("exchanges.market: {e:?}").into()))?;
    Ok(Exchange::view(
        row.try_get("id")?,
        row.try_get("user_id")?,
        spec,
        &stored,
        (
            row.try_get("created_at")?,
            row.try_get("updated_at")?,
            row.try_get("deleted_at")?,
        ),
    )
    .with_market(market))
}

impl Store {
    /// Creates an exchange account; nothing is written unless every check passes.
    pub async fn create_exchange(
        &self,
        actor: &Actor,
        spec: ExchangeSpec,
        credentials: Credentials,
    ) -> Result<Exchange, StoreError> {
        self.create_exchange_with_market(actor, spec, credentials, MarketSource::Simulated)
            .await
    }

    /// [`Store::create_exchange`] of a paper account whose prices come from `market`. Only a
    /// type offered for new accounts is made ([`ExchangeSpec::validate_new`]).
    pub async fn create_exchange_with_market(
        &self,
        actor: &Actor,
        spec: ExchangeSpec,
        credentials: Credentials,
        market: MarketSource,
    ) -> Result<Exchange, StoreError> {
        let new = NewExchange {
            spec: spec.normalized(),
            credentials,
            market,
        };
        self.insert_exchange(actor, new, |s, c| s.validate_new(c))
            .await
    }

    /// Writes a new account once `validated` and the name and market checks pass. Besides
    /// [`Store::create_exchange_with_market`], only the test support's account "made by an
    /// older nofxi" calls it, with the rules of its time.
    pub(crate) async fn insert_exchange(
        &self,
        actor: &Actor,
        new: NewExchange,
        validated: impl FnOnce(&ExchangeSpec, &Credentials) -> Result<(), ValidationError>,
    ) -> Result<Exchange, StoreError> {
        let NewExchange {
            spec,
            credentials,
            market,
        } = new;
        let mut tx = self.begin_write().await?;
        let dup = name_taken(&mut tx, &actor.user, KIND, &spec.account_name, "").await?;
        let mut problems: Vec<FieldProblem> = dup.into_iter().collect();
        problems.extend(
            market
                .problem_for(&spec.exchange_type)
                .map(|p| FieldProblem::new("market", p)),
        );
        combine(validated(&spec, &credentials), problems)?;
        let id = uuid::Uuid::now_v7().to_string();
        let now = self.clock.now_ms();
        sqlx::query(
            "INSERT INTO exchanges (id, user_id, exchange_type, account_name, name_key, enabled, testnet, market, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $9, $8, $8)",
        )
        .bind(&id)
        .bind(&actor.user)
        .bind(&spec.exchange_type)
        .bind(&spec.account_name)
        .bind(nofxi_domain::validation::name_key(&spec.account_name))
        .bind(flag(spec.enabled))
        .bind(flag(spec.testnet))
        .bind(now)
        .bind(market.as_str())
        .execute(&mut *tx)
        .await
        .map_err(|e| unique_to_duplicate(e, KIND, &spec.account_name, "creating an exchange"))?;
        for (field, secret) in credentials.iter() {
            self.write_secret(
                &mut tx,
                SecretSlot {
                    user: &actor.user,
                    kind: KIND,
                    resource_id: &id,
                    field: field.as_str(),
                },
                spec.exchange_type(),
                secret,
                now,
            )
            .await?;
        }
        let detail = format!("{} ({})", spec.account_name, spec.exchange_type);
        record(
            &mut tx,
            actor,
            KIND,
            &id,
            AuditAction::Create,
            now,
            Some(detail),
        )
        .await?;
        let exchange = self.load_exchange(&mut tx, &actor.user, &id).await?;
        tx.commit().await.ctx("saving the exchange")?;
        Ok(exchange)
    }

    pub(crate) async fn load_exchange(
        &self,
        conn: &mut AnyConnection,
        user: &str,
        id: &str,
    ) -> Result<Exchange, StoreError> {
        let row = sqlx::query(AssertSqlSafe(format!(
            "SELECT {COLUMNS} FROM exchanges WHERE user_id = $1 AND id = $2"
        )))
        .bind(user)
        .bind(id)
        .fetch_one(&mut *conn)
        .await
        .ctx("reading an exchange")?;
        let masks = self.secret_masks(conn, user, KIND).await?;
        row_to_exchange(&row, masks.get(id)).ctx("reading an exchange")
    }

    /// The user's exchange accounts, by name. `deleted` lists the trash instead.
    pub async fn list_exchanges(
        &self,
        user: &str,
        deleted: bool,
    ) -> Result<Vec<Exchange>, StoreError> {
        let mut conn = self.pool.acquire().await.ctx("getting a connection")?;
        let filter = if deleted { "IS NOT NULL" } else { "IS NULL" };
        let rows = sqlx::query(AssertSqlSafe(format!(
            "SELECT {COLUMNS} FROM exchanges WHERE user_id = $1 AND deleted_at {filter} ORDER BY name_key, id"
        )))
        .bind(user)
        .fetch_all(&mut *conn)
        .await
        .ctx("listing exchanges")?;
        let masks = self.secret_masks(&mut conn, user, KIND).await?;
        rows.iter()
            .map(|row| {
                let id: String = row.try_get("id")?;
                row_to_exchange(row, masks.get(&id))
            })
            .collect::<Result<_, _>>()
            .ctx("listing exchanges")
    }

    pub async fn get_exchange(&self, user: &str, reference: &str) -> Result<Exchange, StoreError> {
        let mut conn = self.pool.acquire().await.ctx("getting a connection")?;
        let found = resolve(&mut conn, user, KIND, reference, Where::Live).await?;
        self.load_exchange(&mut conn, user, &found.id).await
    }

    /// Applies `patch` and replaces the credentials given in `credentials`; others are kept.
    pub async fn update_exchange(
        &self,
        actor: &Actor,
        reference: &str,
        patch: ExchangePatch,
        credentials: Credentials,
    ) -> Result<Exchange, StoreError> {
        let mut tx = self.begin_write().await?;
        let found = resolve(&mut tx, &actor.user, KIND, reference, Where::Live).await?;
        let current = self.load_exchange(&mut tx, &actor.user, &found.id).await?;
        let spec = current.spec.clone().apply(patch);
        let masks = self.secret_masks(&mut tx, &actor.user, KIND).await?;
        let stored: BTreeSet<CredentialField> = masks
            .get(&found.id)
            .into_iter()
            .flatten()
            .filter_map(|(field, _)| field.parse().ok())
            .collect();
        let dup = name_taken(&mut tx, &actor.user, KIND, &spec.account_name, &found.id).await?;
        let mut problems: Vec<FieldProblem> = dup.into_iter().collect();
        // Moving an account to a type no longer offered would make one in all but name; an
        // account already of that type keeps it.
        if spec.exchange_type != current.spec.exchange_type {
            let not_offered = spec.offered_problem();
            problems.extend(not_offered.map(|p| FieldProblem::new("exchange_type", p)));
        }
        combine(spec.validate(&credentials, &stored), problems)?;
        let now = self.clock.now_ms();
        sqlx::query(
            "UPDATE exchanges SET exchange_type = $3, account_name = $4, name_key = $5, enabled = $6, \
             testnet = $7, updated_at = $8 WHERE user_id = $1 AND id = $2",
        )
        .bind(&actor.user)
        .bind(&found.id)
        .bind(&spec.exchange_type)
        .bind(&spec.account_name)
        .bind(nofxi_domain::validation::name_key(&spec.account_name))
        .bind(flag(spec.enabled))
        .bind(flag(spec.testnet))
        .bind(now)
        .execute(&mut *tx)
        .await
        .map_err(|e| unique_to_duplicate(e, KIND, &spec.account_name, "updating an exchange"))?;
        for (field, secret) in credentials.iter() {
            self.write_secret(
                &mut tx,
                SecretSlot {
                    user: &actor.user,
                    kind: KIND,
                    resource_id: &found.id,
                    field: field.as_str(),
                },
                spec.exchange_type(),
                secret,
                now,
            )
            .await?;
        }
        let required = spec
            .exchange_type()
            .map(|t| t.required_credentials())
            .unwrap_or_default();
        for field in stored.iter().filter(|f| !required.contains(f)) {
            self.delete_secret(&mut tx, &actor.user, &found.id, field.as_str())
                .await?;
        }
        if let Some(kind) = spec.exchange_type() {
            let kept = stored.iter().filter(|f| credentials.get(**f).is_none());
            for field in kept.filter(|f| kind.private_key_fields().contains(f)) {
                self.hide_mask(&mut tx, &actor.user, &found.id, field.as_str())
                    .await?;
            }
        }
        let mut changed: Vec<&str> = Vec::new();
        if current.spec.exchange_type != spec.exchange_type {
            changed.push("exchange_type");
        }
        if current.spec.account_name != spec.account_name {
            changed.push("account_name");
        }
        if current.spec.enabled != spec.enabled {
            changed.push("enabled");
        }
        if current.spec.testnet != spec.testnet {
            changed.push("testnet");
        }
        changed.extend(credentials.fields().map(|f| f.as_str()));
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
        let exchange = self.load_exchange(&mut tx, &actor.user, &found.id).await?;
        tx.commit().await.ctx("saving the exchange")?;
        Ok(exchange)
    }

    /// Points a paper account at another market source. Refused for any other type, which
    /// trades on its own venue's prices.
    pub async fn set_exchange_market(
        &self,
        actor: &Actor,
        reference: &str,
        market: MarketSource,
    ) -> Result<Exchange, StoreError> {
        let mut tx = self.begin_write().await?;
        let found = resolve(&mut tx, &actor.user, KIND, reference, Where::Live).await?;
        let current = self.load_exchange(&mut tx, &actor.user, &found.id).await?;
        if let Some(problem) = market.problem_for(&current.spec.exchange_type) {
            return Err(ValidationError::single("market", problem).into());
        }
        if current.market == market {
            return Ok(current);
        }
        let now = self.clock.now_ms();
        sqlx::query(
            "UPDATE exchanges SET market = $3, updated_at = $4 WHERE user_id = $1 AND id = $2",
        )
        .bind(&actor.user)
        .bind(&found.id)
        .bind(market.as_str())
        .bind(now)
        .execute(&mut *tx)
        .await
        .ctx("updating an exchange")?;
        let detail = format!("market: {} -> {}", current.market, market);
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
        let exchange = self.load_exchange(&mut tx, &actor.user, &found.id).await?;
        tx.commit().await.ctx("saving the exchange")?;
        Ok(exchange)
    }

    /// Decrypts every credential of a live exchange account, for the code that signs its
    /// requests and nothing else.
    pub async fn credentials_for_signing(
        &self,
        user: &str,
        reference: &str,
    ) -> Result<(Exchange, Credentials), StoreError> {
        let mut conn = self.pool.acquire().await.ctx("getting a connection")?;
        let found = resolve(&mut conn, user, KIND, reference, Where::Live).await?;
        let exchange = self.load_exchange(&mut conn, user, &found.id).await?;
        let secrets = self.open_secrets(&mut conn, user, KIND, &found.id).await?;
        let mut credentials = Credentials::new();
        for (field, secret) in secrets {
            if let Ok(field) = field.parse::<CredentialField>() {
                credentials.set(field, secret);
            }
        }
        Ok((exchange, credentials))
    }
}
