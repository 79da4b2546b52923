//! Trader leases: how several `nofxi` processes on one database share the running traders.
//!
//! A process runs a trader only while it holds the trader's lease. It takes a lease that is
//! free, expired or already its own, in one conditional upsert (no read-then-write race), and
//! renews it with every heartbeat. A process that dies stops renewing; once `expires_at`
//! passes, another process takes the trader over.
//!
//! `generation` is the lease's epoch: it grows with every fresh take (another owner, an
//! expired or a released lease), never with a renewal, and survives a release (the row stays,
//! ownerless), so one owner and epoch name exactly one unbroken holding. The writes a cycle
//! makes are fenced by it (see [`crate::fence`]).
//!
//! These calls are the engine's, not a user's: a lease names the user it belongs to, but the
//! engine asks about every running trader of every user.

use sqlx::Row;

use crate::Store;
use crate::error::{DbContext, StoreError};

/// A lease as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lease {
    pub trader_id: String,
    pub user_id: String,
    pub owner: String,
    pub generation: i64,
    pub heartbeat_at: i64,
    pub expires_at: i64,
}

/// How often an owner renews a lease of `term_ms`: four times a term, between 0.2 and 5
/// seconds. The engine polls at this pace; readers judge its silence by it.
pub fn renew_every_ms(term_ms: i64) -> i64 {
    (term_ms / 4).clamp(200, 5_000)
}

impl Lease {
    /// Whether the owner missed two renewals in a row and a second more (or half the term,
    /// if sooner): it renews every [`renew_every_ms`], so an owner that stopped doing that has
    /// stopped (a kill -9, a frozen process, a lost machine) and the lease is only waiting to
    /// expire. Said as soon as that is likely, not after most of the term: until then a
    /// reader is told the trader is running.
    pub fn unrenewed(&self, now_ms: i64) -> bool {
        let term = self.expires_at - self.heartbeat_at;
        let silence = (2 * renew_every_ms(term) + 1_000).min(term / 2);
        self.expires_at > now_ms && now_ms - self.heartbeat_at > silence
    }
}

/// A running trader somewhere in the database, whoever runs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunningTrader {
    pub user_id: String,
    pub trader_id: String,
    /// A person asked for its positions to be closed and the engine running it has not taken
    /// the request yet (a state document under [`CLOSE_REQUEST_SCOPE`]).
    pub close_asked: bool,
}

/// Where a request to close a running trader's positions waits for its engine, keyed by the
/// trader's id: the engine polling the running traders sees it in the same query.
pub const CLOSE_REQUEST_SCOPE: &str = "trader_close";

impl Store {
    /// Take or renew the lease of `trader_id` for `owner` until `now + ttl_ms`. `Some(lease)`
    /// when `owner` holds it afterwards, `None` when another live owner does.
    pub async fn acquire_lease(
        &self,
        user: &str,
        trader_id: &str,
        owner: &str,
        ttl_ms: i64,
    ) -> Result<Option<Lease>, StoreError> {
        let now = self.clock.now_ms();
        sqlx::query(
            "INSERT INTO trader_leases (trader_id, user_id, owner, generation, heartbeat_at, expires_at) \
             VALUES ($1, $2, $3, 1, $4, $5) \
             ON CONFLICT (trader_id) DO UPDATE SET \
               generation = CASE WHEN trader_leases.owner = excluded.owner \
                 AND trader_leases.expires_at >= $4 \
                 THEN trader_leases.generation ELSE trader_leases.generation + 1 END, \
               owner = excluded.owner, heartbeat_at = excluded.heartbeat_at, \
               expires_at = excluded.expires_at \
             WHERE trader_leases.owner = excluded.owner OR trader_leases.expires_at < $4",
        )
        .bind(trader_id)
        .bind(user)
        .bind(owner)
        .bind(now)
        .bind(now + ttl_ms)
        .execute(&self.pool)
        .await
        .ctx("taking a trader lease")?;
        Ok(self
            .lease(trader_id)
            .await?
            .filter(|lease| lease.owner == owner && lease.expires_at > now))
    }

    /// Give a lease up (a trader stopped, a process shutting down cleanly), so another process
    /// need not wait for it to expire. The row stays, with no owner, to keep its epoch.
    pub async fn release_lease(&self, trader_id: &str, owner: &str) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE trader_leases SET owner = '', expires_at = 0 \
             WHERE trader_id = $1 AND owner = $2",
        )
        .bind(trader_id)
        .bind(owner)
        .execute(&self.pool)
        .await
        .ctx("releasing a trader lease")?;
        Ok(())
    }

    /// The lease of `trader_id`, unless nobody holds it (never taken, or released).
    pub async fn lease(&self, trader_id: &str) -> Result<Option<Lease>, StoreError> {
        let row = sqlx::query(
            "SELECT trader_id, user_id, owner, generation, heartbeat_at, expires_at \
             FROM trader_leases WHERE trader_id = $1 AND owner <> ''",
        )
        .bind(trader_id)
        .fetch_optional(&self.pool)
        .await
        .ctx("reading a trader lease")?;
        row.map(|row| {
            Ok(Lease {
                trader_id: row.try_get("trader_id").ctx("reading a trader lease")?,
                user_id: row.try_get("user_id").ctx("reading a trader lease")?,
                owner: row.try_get("owner").ctx("reading a trader lease")?,
                generation: row.try_get("generation").ctx("reading a trader lease")?,
                heartbeat_at: row.try_get("heartbeat_at").ctx("reading a trader lease")?,
                expires_at: row.try_get("expires_at").ctx("reading a trader lease")?,
            })
        })
        .transpose()
    }

    /// The owners of leases still being renewed: the engines running now (an engine with no
    /// trader holds no lease and does not show).
    pub async fn live_lease_owners(&self) -> Result<Vec<String>, StoreError> {
        let now = self.clock.now_ms();
        let rows = sqlx::query(
            "SELECT owner, heartbeat_at, expires_at FROM trader_leases WHERE expires_at > $1",
        )
        .bind(now)
        .fetch_all(&self.pool)
        .await
        .ctx("listing lease owners")?;
        let mut owners = Vec::new();
        for row in &rows {
            let owner: String = row.try_get("owner").ctx("listing lease owners")?;
            let heartbeat_at: i64 = row.try_get("heartbeat_at").ctx("listing lease owners")?;
            let expires_at: i64 = row.try_get("expires_at").ctx("listing lease owners")?;
            let lease = Lease {
                trader_id: String::new(),
                user_id: String::new(),
                owner,
                generation: 0,
                heartbeat_at,
                expires_at,
            };
            if !lease.unrenewed(now) && !owners.contains(&lease.owner) {
                owners.push(lease.owner);
            }
        }
        Ok(owners)
    }

    /// An engine process says it runs (with or without traders), every few seconds; see
    /// [`Store::engine_running`].
    pub async fn engine_beat(&self, owner: &str) -> Result<(), StoreError> {
        let value = serde_json::json!({ "at": self.clock.now_ms() });
        self.put_state(ENGINE_USER, ENGINE_SCOPE, owner, &value)
            .await
    }

    /// An engine that stops cleanly says so at once, instead of letting its beat age out.
    pub async fn engine_gone(&self, owner: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM states WHERE user_id = $1 AND scope = $2 AND key = $3")
            .bind(ENGINE_USER)
            .bind(ENGINE_SCOPE)
            .bind(owner)
            .execute(&self.pool)
            .await
            .ctx("removing an engine's beat")?;
        Ok(())
    }

    /// Whether any engine process beat within `within_ms`, or holds a live lease: a trader
    /// started now will trade. (An engine with no trader holds no lease, so the beat is what
    /// tells a fresh `nofxi serve` from no engine at all.)
    pub async fn engine_running(&self, within_ms: i64) -> Result<bool, StoreError> {
        let since = self.clock.now_ms() - within_ms;
        let row = sqlx::query(
            "SELECT 1 AS one FROM states WHERE user_id = $1 AND scope = $2 AND updated_at > $3 \
             LIMIT 1",
        )
        .bind(ENGINE_USER)
        .bind(ENGINE_SCOPE)
        .bind(since)
        .fetch_optional(&self.pool)
        .await
        .ctx("looking for a running engine")?;
        Ok(row.is_some() || !self.live_lease_owners().await?.is_empty())
    }

    /// Every trader marked running and not deleted, of every user: what the engine must run,
    /// and whether a close waits for it.
    pub async fn running_traders(&self) -> Result<Vec<RunningTrader>, StoreError> {
        let rows = sqlx::query(
            "SELECT t.user_id, t.id, CAST(CASE WHEN EXISTS (SELECT 1 FROM states s \
               WHERE s.user_id = t.user_id AND s.scope = $1 AND s.key = t.id) THEN 1 ELSE 0 END \
               AS BIGINT) AS close_asked \
             FROM traders t WHERE t.is_running = 1 AND t.deleted_at IS NULL ORDER BY t.id",
        )
        .bind(CLOSE_REQUEST_SCOPE)
        .fetch_all(&self.pool)
        .await
        .ctx("listing running traders")?;
        rows.iter()
            .map(|row| {
                let asked: i64 = row.try_get("close_asked").ctx("listing running traders")?;
                Ok(RunningTrader {
                    user_id: row.try_get("user_id").ctx("listing running traders")?,
                    trader_id: row.try_get("id").ctx("listing running traders")?,
                    close_asked: asked != 0,
                })
            })
            .collect()
    }
}

/// Engine beats live in the state documents under this pseudo-user (no user is named `-`:
/// user names start with a letter or digit).
const ENGINE_USER: &str = "-";
const ENGINE_SCOPE: &str = "engine";

#[cfg(test)]
mod tests {
    use super::*;

    fn lease(heartbeat_at: i64, term: i64) -> Lease {
        Lease {
            trader_id: "t".into(),
            user_id: "u".into(),
            owner: "e".into(),
            generation: 1,
            heartbeat_at,
            expires_at: heartbeat_at + term,
        }
    }

    #[test]
    fn an_owner_is_silent_after_two_missed_renewals_not_half_the_term() {
        // A 30 s lease is renewed every 5 s: 12 s without a renewal is a stopped engine,
        // 18 s before its lease lets another engine in.
        let l = lease(0, 30_000);
        assert!(!l.unrenewed(6_000));
        assert!(l.unrenewed(12_000));
        assert!(!l.unrenewed(30_001), "an expired lease waits for nobody");
        // A 4 s lease, renewed every second: half the term comes first.
        let l = lease(0, 4_000);
        assert!(!l.unrenewed(1_500));
        assert!(l.unrenewed(2_100));
    }
}
