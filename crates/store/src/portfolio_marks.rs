//! Prices and exchange rates by date that value a user's portfolios (see the `0007` migration).
//!
//! Writing a mark again for the same subject and date replaces it: a corrected close wins.
//! Marks are facts about the market, not changes to a portfolio, so they are not audited.

use nofxi_portfolio::domain::{FxMark, PriceMark};
use serde::Serialize;
use serde::de::DeserializeOwned;
use sqlx::Row;

use crate::Store;
use crate::error::{DbContext, StoreError};

const PRICE: &str = "price";
const FX: &str = "fx";

impl Store {
    /// Records prices, each validated first; all or none written.
    pub async fn record_price_marks(
        &self,
        user: &str,
        marks: &[PriceMark],
    ) -> Result<(), StoreError> {
        marks.iter().try_for_each(PriceMark::validate)?;
        let rows = marks
            .iter()
            .map(|m| (m.instrument.key(), m.date.to_string(), m));
        self.write_marks(user, PRICE, rows).await
    }

    /// Records exchange rates, each validated first; all or none written.
    pub async fn record_fx_marks(&self, user: &str, marks: &[FxMark]) -> Result<(), StoreError> {
        marks.iter().try_for_each(FxMark::validate)?;
        let rows = marks
            .iter()
            .map(|m| (format!("{}/{}", m.from, m.to), m.date.to_string(), m));
        self.write_marks(user, FX, rows).await
    }

    /// Every price the user has recorded, oldest first.
    pub async fn price_marks(&self, user: &str) -> Result<Vec<PriceMark>, StoreError> {
        self.read_marks(user, PRICE).await
    }

    /// Every exchange rate the user has recorded, oldest first.
    pub async fn fx_marks(&self, user: &str) -> Result<Vec<FxMark>, StoreError> {
        self.read_marks(user, FX).await
    }

    async fn write_marks<'a, T: Serialize + 'a>(
        &self,
        user: &str,
        kind: &str,
        rows: impl Iterator<Item = (String, String, &'a T)>,
    ) -> Result<(), StoreError> {
        let now = self.clock.now_ms();
        let mut tx = self.begin_write().await?;
        for (subject, date, mark) in rows {
            let record = serde_json::to_string(mark).map_err(|e| StoreError::Corrupt {
                what: "portfolio mark",
                detail: e.to_string(),
            })?;
            sqlx::query(
                "INSERT INTO portfolio_marks (user_id, kind, subject, mark_date, record, updated_at) \
                 VALUES ($1, $2, $3, $4, $5, $6) \
                 ON CONFLICT (user_id, kind, subject, mark_date) \
                 DO UPDATE SET record = excluded.record, updated_at = excluded.updated_at",
            )
            .bind(user)
            .bind(kind)
            .bind(subject)
            .bind(date)
            .bind(record)
            .bind(now)
            .execute(&mut *tx)
            .await
            .ctx("recording portfolio marks")?;
        }
        tx.commit().await.ctx("recording portfolio marks")
    }

    async fn read_marks<T: DeserializeOwned>(
        &self,
        user: &str,
        kind: &str,
    ) -> Result<Vec<T>, StoreError> {
        let rows = sqlx::query(
            "SELECT record FROM portfolio_marks WHERE user_id = $1 AND kind = $2 \
             ORDER BY mark_date, subject",
        )
        .bind(user)
        .bind(kind)
        .fetch_all(&self.pool)
        .await
        .ctx("reading portfolio marks")?;
        rows.iter()
            .map(|row| {
                let text: String = row.try_get("record").ctx("reading portfolio marks")?;
                serde_json::from_str(&text).map_err(|e| StoreError::Corrupt {
                    what: "portfolio mark",
                    detail: e.to_string(),
                })
            })
            .collect()
    }
}
