//! A clock that runs faster than real time, for paper trading in fast-forward
//! (`nofxi run --sim-speed 600`: ten simulated minutes a real second).
//!
//! It reads `anchor_sim + (real_now − anchor_real) × speed`, and sleeping on it takes
//! `duration / speed` of real time. The anchor is kept in the store by `nofxi run`, so a
//! restarted engine continues the same simulated timeline instead of jumping back.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use async_trait::async_trait;
use nofxi_store::{Store, StoreError};
use nofxi_venues::Clock;
use serde::{Deserialize, Serialize};

/// Where `nofxi run` keeps a fast-forward timeline's anchor (one per database): the engine
/// continues it, and a reader of a paper account reads the account at its time.
pub const TIMELINE_USER: &str = "_engine";
pub const TIMELINE_SCOPE: &str = "engine";
pub const TIMELINE_KEY: &str = "sim_clock";

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ScaledClock {
    pub anchor_real_ms: i64,
    pub anchor_sim_ms: i64,
    pub speed: f64,
}

impl ScaledClock {
    /// A timeline that starts now and runs `speed` times faster than real time.
    pub fn starting_now(speed: f64) -> ScaledClock {
        let now = real_now_ms();
        ScaledClock {
            anchor_real_ms: now,
            anchor_sim_ms: now,
            speed: speed.max(1.0),
        }
    }
}

#[async_trait]
impl Clock for ScaledClock {
    fn now_ms(&self) -> i64 {
        let elapsed = real_now_ms() - self.anchor_real_ms;
        self.anchor_sim_ms + (elapsed as f64 * self.speed) as i64
    }

    async fn sleep(&self, duration: Duration) {
        tokio::time::sleep(duration.div_f64(self.speed.max(1.0))).await;
    }
}

/// The fast-forward timeline `nofxi run --sim-speed` last kept, if any.
pub async fn saved_timeline(store: &Store) -> Result<Option<ScaledClock>, StoreError> {
    let saved = store
        .get_state(TIMELINE_USER, TIMELINE_SCOPE, TIMELINE_KEY)
        .await?;
    Ok(saved.and_then(|v| serde_json::from_value(v).ok()))
}

fn real_now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}
