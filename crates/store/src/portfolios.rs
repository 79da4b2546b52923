//! Portfolios and their transactions (seed 001, crate `nofxi-portfolio`).
//!
//! The portfolio crate decides what is valid and what is a duplicate; this module stores what
//! it accepted, scoped by user, and audits every change in the same transaction. Derived state
//! (lots, P&L, returns) is never stored: it is replayed from the transactions when asked for.
//! An import is all or nothing: the preview's rows are checked for duplicates again against the
//! rows inside the write transaction, so two imports of one file racing still write it once.

use nofxi_domain::Actor;
use nofxi_domain::validation::{name_key, shown_input};
use nofxi_portfolio::PortfolioError;
use nofxi_portfolio::csv_io::{Fingerprint, ImportPreview, commit};
use nofxi_portfolio::domain::{FxMark, Portfolio, PriceMark, Transaction};
use sqlx::{AnyConnection, Row};

use crate::Store;
use crate::audit::{AuditAction, record_row};
use crate::error::{DbContext, StoreError};

/// What portfolio changes are audited as (a portfolio is not one of the four resources).
pub const PORTFOLIO_KIND: &str = "portfolio";

fn corrupt(what: &'static str) -> impl Fn(serde_json::Error) -> StoreError {
    move |e| StoreError::Corrupt {
        what,
        detail: e.to_string(),
    }
}

/// Everything a valuation of one portfolio reads: its records and the user's marks.
#[derive(Debug, Clone)]
pub struct PortfolioBook {
    pub portfolio: Portfolio,
    pub records: Vec<Transaction>,
    pub prices: Vec<PriceMark>,
    pub rates: Vec<FxMark>,
}

impl Store {
    /// A portfolio (by name, ignoring case) with its records and the user's price and FX
    /// marks: what `performance::snapshot` and the curve are computed from.
    pub async fn portfolio_book(
        &self,
        user: &str,
        name: &str,
    ) -> Result<PortfolioBook, StoreError> {
        let portfolio = self.portfolio(user, name).await?;
        let records = self.portfolio_transactions(user, &portfolio.name).await?;
        Ok(PortfolioBook {
            portfolio,
            records,
            prices: self.price_marks(user).await?,
            rates: self.fx_marks(user).await?,
        })
    }

    /// Creates a portfolio; its name is unique per user, ignoring case.
    pub async fn create_portfolio(
        &self,
        actor: &Actor,
        portfolio: &Portfolio,
    ) -> Result<(), StoreError> {
        portfolio.validate()?;
        let now = self.clock.now_ms();
        let mut tx = self.begin_write().await?;
        if find(&mut tx, &actor.user, &portfolio.name).await?.is_some() {
            return Err(StoreError::PortfolioExists {
                name: portfolio.name.clone(),
            });
        }
        let id = uuid::Uuid::now_v7().to_string();
        let spec = serde_json::to_string(portfolio).map_err(corrupt("portfolio"))?;
        sqlx::query(
            "INSERT INTO portfolios (id, user_id, name, name_key, spec, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $6)",
        )
        .bind(&id)
        .bind(&actor.user)
        .bind(&portfolio.name)
        .bind(name_key(&portfolio.name))
        .bind(spec)
        .bind(now)
        .execute(&mut *tx)
        .await
        .ctx("creating a portfolio")?;
        record_row(
            &mut tx,
            actor,
            PORTFOLIO_KIND,
            &id,
            AuditAction::Create,
            now,
            Some(portfolio.name.clone()),
        )
        .await?;
        tx.commit().await.ctx("creating a portfolio")
    }

    /// Replaces a portfolio's settings and accounts (found by its name). Accounts that
    /// recorded transactions cannot be dropped: those records would point nowhere.
    pub async fn update_portfolio(
        &self,
        actor: &Actor,
        portfolio: &Portfolio,
    ) -> Result<(), StoreError> {
        portfolio.validate()?;
        let now = self.clock.now_ms();
        let mut tx = self.begin_write().await?;
        let Some((id, _)) = find(&mut tx, &actor.user, &portfolio.name).await? else {
            return Err(StoreError::UnknownPortfolio {
                name: portfolio.name.clone(),
            });
        };
        let records = load_records(&mut tx, &actor.user, &id).await?;
        let orphans: Vec<String> = records
            .iter()
            .filter(|r| portfolio.account(&r.account).is_none())
            .map(|r| r.account.clone())
            .collect();
        if let Some(account) = orphans.first() {
            return Err(PortfolioError::one(
                "accounts",
                format!(
                    "account `{}` has transactions and would be removed",
                    shown_input(account)
                ),
                "keep the account, or delete its transactions first",
            )
            .into());
        }
        let spec = serde_json::to_string(portfolio).map_err(corrupt("portfolio"))?;
        sqlx::query(
            "UPDATE portfolios SET spec = $1, updated_at = $2 WHERE id = $3 AND user_id = $4",
        )
        .bind(spec)
        .bind(now)
        .bind(&id)
        .bind(&actor.user)
        .execute(&mut *tx)
        .await
        .ctx("updating a portfolio")?;
        record_row(
            &mut tx,
            actor,
            PORTFOLIO_KIND,
            &id,
            AuditAction::Update,
            now,
            Some(portfolio.name.clone()),
        )
        .await?;
        tx.commit().await.ctx("updating a portfolio")
    }

    /// A portfolio by name (ignoring case).
    pub async fn portfolio(&self, user: &str, name: &str) -> Result<Portfolio, StoreError> {
        let mut conn = self.pool.acquire().await.ctx("reading a portfolio")?;
        find(&mut conn, user, name)
            .await?
            .map(|(_, p)| p)
            .ok_or_else(|| StoreError::UnknownPortfolio {
                name: name.to_string(),
            })
    }

    /// The user's portfolios, by name.
    pub async fn portfolios(&self, user: &str) -> Result<Vec<Portfolio>, StoreError> {
        let rows = sqlx::query("SELECT spec FROM portfolios WHERE user_id = $1 ORDER BY name_key")
            .bind(user)
            .fetch_all(&self.pool)
            .await
            .ctx("listing portfolios")?;
        rows.iter()
            .map(|row| {
                let spec: String = row.try_get("spec").ctx("listing portfolios")?;
                serde_json::from_str(&spec).map_err(corrupt("portfolio"))
            })
            .collect()
    }

    /// A portfolio's transactions in the order they were written.
    pub async fn portfolio_transactions(
        &self,
        user: &str,
        portfolio: &str,
    ) -> Result<Vec<Transaction>, StoreError> {
        let mut conn = self.pool.acquire().await.ctx("reading transactions")?;
        let Some((id, _)) = find(&mut conn, user, portfolio).await? else {
            return Err(StoreError::UnknownPortfolio {
                name: portfolio.to_string(),
            });
        };
        load_records(&mut conn, user, &id).await
    }

    /// Records transactions as given (a trade confirmed in chat, a form): each validated and
    /// its account checked, all or none written. Returns how many were written.
    pub async fn record_transactions(
        &self,
        actor: &Actor,
        portfolio: &str,
        transactions: &[Transaction],
    ) -> Result<usize, StoreError> {
        let now = self.clock.now_ms();
        let mut tx = self.begin_write().await?;
        let Some((id, spec)) = find(&mut tx, &actor.user, portfolio).await? else {
            return Err(StoreError::UnknownPortfolio {
                name: portfolio.to_string(),
            });
        };
        let mut problems = Vec::new();
        for (i, record) in transactions.iter().enumerate() {
            let mut check = record.validate().err().map(|e| e.0).unwrap_or_default();
            if spec.account(&record.account).is_none() {
                check.push(nofxi_portfolio::FieldError::new(
                    "account",
                    format!(
                        "`{}` is not an account of {}",
                        shown_input(&record.account),
                        shown_input(&spec.name)
                    ),
                    "add the account to the portfolio, or correct the name",
                ));
            }
            problems.extend(check.into_iter().map(|mut p| {
                p.field = format!("transactions[{i}].{}", p.field);
                p
            }));
        }
        PortfolioError::check(problems)?;
        insert_records(&mut tx, &actor.user, &id, transactions, now, &|_, _| {}).await?;
        let detail = format!(
            "{}: recorded {} transaction(s)",
            spec.name,
            transactions.len()
        );
        record_row(
            &mut tx,
            actor,
            PORTFOLIO_KIND,
            &id,
            AuditAction::Update,
            now,
            Some(detail),
        )
        .await?;
        tx.commit().await.ctx("recording transactions")?;
        Ok(transactions.len())
    }

    /// Writes an import's new rows: nothing if the preview has any row error, and rows already
    /// stored are skipped (see the module's comment). Returns how many were written.
    pub async fn import_transactions(
        &self,
        actor: &Actor,
        portfolio: &str,
        preview: &ImportPreview,
    ) -> Result<usize, StoreError> {
        self.import_transactions_reporting(actor, portfolio, preview, &|_, _| {})
            .await
    }

    /// [`Store::import_transactions`], telling `progress(written, to_write)` after each row,
    /// for a progress bar over a big file.
    pub async fn import_transactions_reporting(
        &self,
        actor: &Actor,
        portfolio: &str,
        preview: &ImportPreview,
        progress: &(dyn Fn(usize, usize) + Send + Sync),
    ) -> Result<usize, StoreError> {
        let now = self.clock.now_ms();
        let mut tx = self.begin_write().await?;
        let Some((id, spec)) = find(&mut tx, &actor.user, portfolio).await? else {
            return Err(StoreError::UnknownPortfolio {
                name: portfolio.to_string(),
            });
        };
        let mut records = load_records(&mut tx, &actor.user, &id).await?;
        let before = records.len();
        let written = commit(preview, &mut records)?;
        insert_records(&mut tx, &actor.user, &id, &records[before..], now, progress).await?;
        let skipped = preview.rows.len() - written;
        let detail = format!(
            "{}: imported {written} transaction(s), {skipped} duplicate(s) skipped",
            spec.name
        );
        record_row(
            &mut tx,
            actor,
            PORTFOLIO_KIND,
            &id,
            AuditAction::Update,
            now,
            Some(detail),
        )
        .await?;
        tx.commit().await.ctx("importing transactions")?;
        Ok(written)
    }
}

/// The id and settings of the user's portfolio called `name`.
pub(crate) async fn find(
    conn: &mut AnyConnection,
    user: &str,
    name: &str,
) -> Result<Option<(String, Portfolio)>, StoreError> {
    let row = sqlx::query("SELECT id, spec FROM portfolios WHERE user_id = $1 AND name_key = $2")
        .bind(user)
        .bind(name_key(name))
        .fetch_optional(&mut *conn)
        .await
        .ctx("finding a portfolio")?;
    let Some(row) = row else { return Ok(None) };
    let id: String = row.try_get("id").ctx("finding a portfolio")?;
    let spec: String = row.try_get("spec").ctx("finding a portfolio")?;
    let portfolio = serde_json::from_str(&spec).map_err(corrupt("portfolio"))?;
    Ok(Some((id, portfolio)))
}

async fn load_records(
    conn: &mut AnyConnection,
    user: &str,
    portfolio_id: &str,
) -> Result<Vec<Transaction>, StoreError> {
    let rows = sqlx::query(
        "SELECT record FROM portfolio_transactions WHERE user_id = $1 AND portfolio_id = $2 ORDER BY seq",
    )
    .bind(user)
    .bind(portfolio_id)
    .fetch_all(&mut *conn)
    .await
    .ctx("reading transactions")?;
    rows.iter()
        .map(|row| {
            let text: String = row.try_get("record").ctx("reading transactions")?;
            serde_json::from_str(&text).map_err(corrupt("portfolio transaction"))
        })
        .collect()
}

pub(crate) async fn insert_records(
    conn: &mut AnyConnection,
    user: &str,
    portfolio_id: &str,
    records: &[Transaction],
    now: i64,
    progress: &(dyn Fn(usize, usize) + Send + Sync),
) -> Result<(), StoreError> {
    let last: Option<i64> =
        sqlx::query("SELECT MAX(seq) AS last FROM portfolio_transactions WHERE portfolio_id = $1")
            .bind(portfolio_id)
            .fetch_one(&mut *conn)
            .await
            .ctx("writing transactions")?
            .try_get("last")
            .ctx("writing transactions")?;
    let mut seq = last.unwrap_or(0);
    for (done, record) in records.iter().enumerate() {
        progress(done, records.len());
        seq += 1;
        let json = serde_json::to_string(record).map_err(corrupt("portfolio transaction"))?;
        sqlx::query(
            "INSERT INTO portfolio_transactions \
             (id, user_id, portfolio_id, seq, trade_date, kind, fingerprint, record, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(uuid::Uuid::now_v7().to_string())
        .bind(user)
        .bind(portfolio_id)
        .bind(seq)
        .bind(record.date.to_string())
        .bind(record.kind.code())
        .bind(Fingerprint::of(record).0)
        .bind(json)
        .bind(now)
        .execute(&mut *conn)
        .await
        .ctx("writing transactions")?;
    }
    progress(records.len(), records.len());
    Ok(())
}
