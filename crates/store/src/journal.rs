//! The trading engine's journal: one JSON record per trader cycle, plus its equity.
//!
//! The store does not interpret records (the `trader` crate owns their shape); it keeps them
//! per user, replaces a cycle's record when it is saved again (planned, then done), and serves
//! the newest one, a page of history, and the equity curve.

use rust_decimal::Decimal;
use sqlx::Row;

use crate::Store;
use crate::error::{DbContext, StoreError};

/// One stored cycle, as the engine saved it.
#[derive(Debug, Clone, PartialEq)]
pub struct CycleRow {
    pub trader_id: String,
    pub cycle_number: u64,
    pub phase: String,
    pub started_at: i64,
    pub equity: Option<Decimal>,
    pub record: serde_json::Value,
}

impl Store {
    /// Inserts or replaces the record of `(trader, cycle_number)`. An engine saves under its
    /// lease with [`Store::save_cycle_fenced`]; this is for writers that hold none.
    pub async fn save_cycle(&self, user: &str, row: &CycleRow) -> Result<(), StoreError> {
        let mut conn = self.pool.acquire().await.ctx("saving a trader cycle")?;
        insert_cycle(&mut conn, user, row).await
    }

    /// The newest cycles of a trader, newest first; `before` pages back.
    pub async fn cycles(
        &self,
        user: &str,
        trader_id: &str,
        limit: i64,
        before: Option<u64>,
    ) -> Result<Vec<CycleRow>, StoreError> {
        let before = match before {
            Some(n) => cycle_i64(n)?,
            None => i64::MAX,
        };
        let rows = sqlx::query(
            "SELECT trader_id, cycle_number, phase, started_at, equity, record FROM trader_cycles \
             WHERE user_id = $1 AND trader_id = $2 AND cycle_number < $3 \
             ORDER BY cycle_number DESC LIMIT $4",
        )
        .bind(user)
        .bind(trader_id)
        .bind(before)
        .bind(limit)
        .fetch_all(&self.pool)
        .await
        .ctx("reading trader cycles")?;
        rows.iter().map(cycle_row).collect()
    }

    /// `(started_at, equity)` of every cycle that recorded one, oldest first.
    pub async fn equity_curve(
        &self,
        user: &str,
        trader_id: &str,
    ) -> Result<Vec<(i64, Decimal)>, StoreError> {
        let rows = sqlx::query(
            "SELECT started_at, equity FROM trader_cycles \
             WHERE user_id = $1 AND trader_id = $2 AND equity IS NOT NULL ORDER BY cycle_number",
        )
        .bind(user)
        .bind(trader_id)
        .fetch_all(&self.pool)
        .await
        .ctx("reading the equity curve")?;
        rows.iter()
            .map(|row| {
                let at: i64 = row.try_get("started_at").ctx("reading the equity curve")?;
                let text: String = row.try_get("equity").ctx("reading the equity curve")?;
                Ok((at, decimal(&text)?))
            })
            .collect()
    }

    /// When the newest cycle of any trader an engine ever leased started (each trader's last
    /// cycle, found by the journal's key): where a simulated timeline stands once the engine
    /// moving it died. The engine's, not a user's: it looks across every user.
    pub async fn newest_leased_cycle_start(&self) -> Result<Option<i64>, StoreError> {
        let row = sqlx::query(
            "SELECT MAX(last.started_at) AS newest FROM (SELECT (SELECT c.started_at \
             FROM trader_cycles c WHERE c.trader_id = l.trader_id \
             ORDER BY c.cycle_number DESC LIMIT 1) AS started_at FROM trader_leases l) last",
        )
        .fetch_one(&self.pool)
        .await
        .ctx("reading the newest cycle")?;
        row.try_get::<Option<i64>, _>("newest")
            .ctx("reading the newest cycle")
    }

    /// A mark that changes whenever one of the user's traders changes, journals a cycle
    /// (started, finished), or is taken up or let go by an engine (a stop is "stopping" until
    /// the engine gives the trader up): what a live view compares to know it must read again.
    pub async fn activity_mark(&self, user: &str) -> Result<String, StoreError> {
        let row = sqlx::query(
            "SELECT (SELECT COUNT(*) FROM trader_cycles WHERE user_id = $1) AS cycles, \
             (SELECT COUNT(equity) FROM trader_cycles WHERE user_id = $1) AS done, \
             (SELECT COALESCE(MAX(started_at), 0) FROM trader_cycles WHERE user_id = $1) AS last, \
             (SELECT COALESCE(MAX(updated_at), 0) FROM traders WHERE user_id = $1) AS changed, \
             (SELECT COUNT(*) FROM trader_leases WHERE user_id = $1 AND owner <> '') AS leases, \
             (SELECT CAST(COALESCE(SUM(generation), 0) AS BIGINT) FROM trader_leases WHERE user_id = $1) AS owners",
        )
        .bind(user)
        .fetch_one(&self.pool)
        .await
        .ctx("reading trader activity")?;
        let get = |col: &str| -> Result<i64, StoreError> {
            row.try_get::<i64, _>(col).ctx("reading trader activity")
        };
        Ok(format!(
            "{}/{}/{}/{}/{}/{}",
            get("cycles")?,
            get("done")?,
            get("last")?,
            get("changed")?,
            get("leases")?,
            get("owners")?
        ))
    }
}

/// The upsert of one cycle record, on whatever connection or transaction holds it.
pub(crate) async fn insert_cycle(
    conn: &mut sqlx::AnyConnection,
    user: &str,
    row: &CycleRow,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO trader_cycles (trader_id, user_id, cycle_number, phase, started_at, equity, record) \
         VALUES ($1, $2, $3, $4, $5, $6, $7) \
         ON CONFLICT (trader_id, cycle_number) DO UPDATE SET phase = excluded.phase, \
         equity = excluded.equity, record = excluded.record \
         WHERE trader_cycles.user_id = excluded.user_id",
    )
    .bind(&row.trader_id)
    .bind(user)
    .bind(cycle_i64(row.cycle_number)?)
    .bind(&row.phase)
    .bind(row.started_at)
    .bind(row.equity.map(|e| e.to_string()))
    .bind(row.record.to_string())
    .execute(&mut *conn)
    .await
    .ctx("saving a trader cycle")?;
    Ok(())
}

fn cycle_row(row: &sqlx::any::AnyRow) -> Result<CycleRow, StoreError> {
    let number: i64 = row.try_get("cycle_number").ctx("reading trader cycles")?;
    let equity: Option<String> = row.try_get("equity").ctx("reading trader cycles")?;
    let record: String = row.try_get("record").ctx("reading trader cycles")?;
    Ok(CycleRow {
        trader_id: row.try_get("trader_id").ctx("reading trader cycles")?,
        cycle_number: u64::try_from(number).unwrap_or_default(),
        phase: row.try_get("phase").ctx("reading trader cycles")?,
        started_at: row.try_get("started_at").ctx("reading trader cycles")?,
        equity: equity.as_deref().map(decimal).transpose()?,
        record: serde_json::from_str(&record).map_err(|e| StoreError::Corrupt {
            what: "trader cycle record",
            detail: e.to_string(),
        })?,
    })
}

fn decimal(text: &str) -> Result<Decimal, StoreError> {
    text.parse()
        .map_err(|e: rust_decimal::Error| StoreError::Corrupt {
            what: "equity",
            detail: e.to_string(),
        })
}

fn cycle_i64(n: u64) -> Result<i64, StoreError> {
    i64::try_from(n).map_err(|_| StoreError::Corrupt {
        what: "cycle number",
        detail: n.to_string(),
    })
}
