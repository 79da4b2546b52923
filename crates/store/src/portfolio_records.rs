//! A portfolio's records one by one: listed with the id each was stored under, and one
//! corrected in place (a price typed wrong, the wrong day). A correction keeps the record's
//! place in the written order, so a later valuation replays it where the original was; the
//! portfolio crate decides beforehand whether the book can take the corrected record (the
//! web app previews it as an import's line), and this module checks it again as
//! `record_transactions` does, writes it, and audits it in the same transaction.

use nofxi_domain::Actor;
use nofxi_domain::validation::shown_input;
use nofxi_portfolio::csv_io::Fingerprint;
use nofxi_portfolio::domain::Transaction;
use nofxi_portfolio::{FieldError, PortfolioError};
use serde::Serialize;
use sqlx::Row;

use crate::Store;
use crate::audit::{AuditAction, record_row};
use crate::error::{DbContext, StoreError};
use crate::portfolios::{PORTFOLIO_KIND, find};

/// A record with the id it is stored under.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct StoredRecord {
    pub id: String,
    #[serde(flatten)]
    pub record: Transaction,
}

impl Store {
    /// A portfolio's records in the order they were written, each with its id.
    pub async fn portfolio_records(
        &self,
        user: &str,
        portfolio: &str,
    ) -> Result<Vec<StoredRecord>, StoreError> {
        let mut conn = self.pool.acquire().await.ctx("reading transactions")?;
        let Some((id, _)) = find(&mut conn, user, portfolio).await? else {
            return Err(StoreError::UnknownPortfolio {
                name: portfolio.to_string(),
            });
        };
        let rows = sqlx::query(
            "SELECT id, record FROM portfolio_transactions \
             WHERE user_id = $1 AND portfolio_id = $2 ORDER BY seq",
        )
        .bind(user)
        .bind(&id)
        .fetch_all(&mut *conn)
        .await
        .ctx("reading transactions")?;
        rows.iter()
            .map(|row| {
                let id: String = row.try_get("id").ctx("reading transactions")?;
                let text: String = row.try_get("record").ctx("reading transactions")?;
                let record = serde_json::from_str(&text).map_err(|e| StoreError::Corrupt {
                    what: "portfolio transaction",
                    detail: e.to_string(),
                })?;
                Ok(StoredRecord { id, record })
            })
            .collect()
    }

    /// Replaces the record stored under `id` with `record`, validated and its account
    /// checked, in the same place of the written order.
    pub async fn correct_transaction(
        &self,
        actor: &Actor,
        portfolio: &str,
        id: &str,
        record: &Transaction,
    ) -> Result<(), StoreError> {
        let now = self.clock.now_ms();
        let mut tx = self.begin_write().await?;
        let Some((portfolio_id, spec)) = find(&mut tx, &actor.user, portfolio).await? else {
            return Err(StoreError::UnknownPortfolio {
                name: portfolio.to_string(),
            });
        };
        let mut problems = record.validate().err().map(|e| e.0).unwrap_or_default();
        if spec.account(&record.account).is_none() {
            problems.push(FieldError::new(
                "account",
                format!(
                    "`{}` is not an account of {}",
                    shown_input(&record.account),
                    shown_input(&spec.name)
                ),
                "add the account to the portfolio, or correct the name",
            ));
        }
        PortfolioError::check(problems)?;
        let json = serde_json::to_string(record).map_err(|e| StoreError::Corrupt {
            what: "portfolio transaction",
            detail: e.to_string(),
        })?;
        let changed = sqlx::query(
            "UPDATE portfolio_transactions \
             SET trade_date = $1, kind = $2, fingerprint = $3, record = $4 \
             WHERE id = $5 AND user_id = $6 AND portfolio_id = $7",
        )
        .bind(record.date.to_string())
        .bind(record.kind.code())
        .bind(Fingerprint::of(record).0)
        .bind(json)
        .bind(id)
        .bind(&actor.user)
        .bind(&portfolio_id)
        .execute(&mut *tx)
        .await
        .ctx("correcting a transaction")?
        .rows_affected();
        if changed == 0 {
            return Err(StoreError::UnknownPortfolioRecord {
                portfolio: spec.name,
                id: id.to_string(),
            });
        }
        let detail = format!("{}: corrected transaction {id}", spec.name);
        record_row(
            &mut tx,
            actor,
            PORTFOLIO_KIND,
            &portfolio_id,
            AuditAction::Update,
            now,
            Some(detail),
        )
        .await?;
        tx.commit().await.ctx("correcting a transaction")
    }
}
