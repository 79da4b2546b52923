//! A clock that runs faster than real time, for paper trading in fast-forward
//! (`nofxi run --sim-speed 600`: ten simulated minutes a real second), and the record that
//! keeps its timeline between processes.
//!
//! A [`ScaledClock`] reads `anchor_sim + (real_now − anchor_real) × speed`, and sleeping on it
//! takes `duration / speed` of real time. The engine keeps its timeline in the store
//! ([`TimelineKeeper`]) and beats on it while it runs. A simulated timeline moves only while an
//! engine moves it: once the engine stops (cleanly, or killed: its beats stop), the timeline
//! is frozen where it stood. Readers of a paper account (`exchange balance`, `trader stats`,
//! the chat) read it at that frozen time, and a restarted engine continues from it. Without the
//! freeze, each read after a run priced a later simulated "now" — positions vanished, the
//! wallet moved and stats showed trades that never happened.

use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use async_trait::async_trait;
use nofxi_store::{Store, StoreError};
use nofxi_venues::{Clock, SystemClock};
use serde::{Deserialize, Serialize};

/// Where `nofxi run` keeps a fast-forward timeline's anchor (one per database): the engine
/// continues it, and a reader of a paper account reads the account at its time.
pub const TIMELINE_USER: &str = "_engine";
pub const TIMELINE_SCOPE: &str = "engine";
pub const TIMELINE_KEY: &str = "sim_clock";

/// How often a running engine says its timeline is still moving, and how long without a beat
/// before readers take the engine for gone (killed: a clean stop says so at once).
pub const BEAT_EVERY: Duration = Duration::from_secs(1);
const STALE_AFTER_MS: i64 = 3_000;

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
        ScaledClock::anchored(now, now, speed)
    }

    /// A timeline that stands at `sim_ms` at real time `real_ms` and runs `speed` times
    /// faster from there.
    pub fn anchored(real_ms: i64, sim_ms: i64, speed: f64) -> ScaledClock {
        ScaledClock {
            anchor_real_ms: real_ms,
            anchor_sim_ms: sim_ms,
            speed: speed.max(1.0),
        }
    }

    /// The timeline's time at real time `real_ms`.
    fn at(&self, real_ms: i64) -> i64 {
        let elapsed = real_ms - self.anchor_real_ms;
        self.anchor_sim_ms + (elapsed as f64 * self.speed) as i64
    }
}

#[async_trait]
impl Clock for ScaledClock {
    fn now_ms(&self) -> i64 {
        self.at(real_now_ms())
    }

    async fn sleep(&self, duration: Duration) {
        tokio::time::sleep(duration.div_f64(self.speed.max(1.0))).await;
    }

    fn simulated(&self) -> bool {
        self.speed > 1.0 || self.anchor_sim_ms != self.anchor_real_ms
    }
}

/// A simulated timeline no engine moves: it reads the time it stopped at. Waiting on it waits
/// in real time (a reader's retry backoff), and the time stays where it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FrozenClock {
    pub at_ms: i64,
}

#[async_trait]
impl Clock for FrozenClock {
    fn now_ms(&self) -> i64 {
        self.at_ms
    }

    async fn sleep(&self, duration: Duration) {
        tokio::time::sleep(duration).await;
    }

    fn simulated(&self) -> bool {
        true
    }
}

/// The stored timeline: its clock and whether an engine is moving it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SavedTimeline {
    #[serde(flatten)]
    pub clock: ScaledClock,
    /// Real time of the running engine's last beat (absent in records kept before beats).
    #[serde(default)]
    pub beat_real_ms: Option<i64>,
    /// Set by an engine that stopped cleanly: the simulated time it stopped at.
    #[serde(default)]
    pub stopped_at_sim_ms: Option<i64>,
}

impl SavedTimeline {
    /// Where a simulated timeline stands when no engine moves it (`None` while one does, and
    /// for a timeline that is the wall clock, which never stops), as far as the record alone
    /// says: for an engine that died without a word, its last beat. Its traders may have
    /// journalled cycles after that beat; [`SavedTimeline::frozen_at_in`] takes them in.
    pub fn frozen_at(&self, real_now_ms: i64) -> Option<i64> {
        if !self.clock.simulated() {
            return None;
        }
        if let Some(stopped) = self.stopped_at_sim_ms {
            return Some(stopped);
        }
        match self.beat_real_ms {
            Some(beat) if real_now_ms - beat <= STALE_AFTER_MS => None,
            Some(beat) => Some(self.clock.at(beat)),
            // Kept by an engine from before beats: when it stopped is unknown; its anchor is
            // the last moment it is known to have stood at.
            None => Some(self.clock.anchor_sim_ms),
        }
    }

    /// [`SavedTimeline::frozen_at`], and for a killed engine no earlier than the newest cycle
    /// its traders journalled: time stops where the dead engine last acted, so a restart
    /// continues right after its last cycle (not minutes of simulated time later, as freezing
    /// at the moment the beats went stale did) and never before it.
    pub async fn frozen_at_in(&self, store: &Store, real_now_ms: i64) -> Option<i64> {
        let at = self.frozen_at(real_now_ms)?;
        if self.stopped_at_sim_ms.is_some() || self.beat_real_ms.is_none() {
            return Some(at);
        }
        let newest = store.newest_leased_cycle_start().await.ok().flatten();
        Some(newest.map_or(at, |newest| newest.max(at)))
    }

    /// The clock a reader of a paper account uses: the moving timeline, or where it stopped.
    async fn reading_clock(&self, store: &Store) -> Arc<dyn Clock> {
        match self.frozen_at_in(store, real_now_ms()).await {
            Some(at_ms) => Arc::new(FrozenClock { at_ms }),
            None if self.clock.simulated() => Arc::new(self.clock),
            None => Arc::new(SystemClock),
        }
    }
}

/// The timeline `nofxi run` last kept, if any.
pub async fn saved_timeline(store: &Store) -> Result<Option<SavedTimeline>, StoreError> {
    let saved = store
        .get_state(TIMELINE_USER, TIMELINE_SCOPE, TIMELINE_KEY)
        .await?;
    Ok(saved.and_then(|v| serde_json::from_value(v).ok()))
}

/// The clock paper accounts are read at outside the engine: the saved timeline (frozen when no
/// engine moves it), or the wall clock when no simulated run ever happened.
pub async fn paper_reading_clock(store: &Store) -> Arc<dyn Clock> {
    match saved_timeline(store).await {
        Ok(Some(saved)) => saved.reading_clock(store).await,
        _ => Arc::new(SystemClock),
    }
}

/// An engine's hold on the timeline: it picks the timeline up where it stands, beats on it
/// while the engine runs, and freezes it when the engine stops.
pub struct TimelineKeeper {
    store: Arc<Store>,
    timeline: Arc<HeldTimeline>,
}

/// A timeline an engine picked up where it stood: it stands still until the engine runs a
/// trader ([`TimelineKeeper::release`]), then moves at its speed from there. An engine that
/// waits for a killed engine's leases (up to a lease's length) would otherwise let minutes or
/// hours of simulated time pass that no trader lived through (found by the outside probe).
#[derive(Debug)]
pub struct HeldTimeline {
    state: std::sync::Mutex<TimelineState>,
}

#[derive(Debug, Clone, Copy)]
struct TimelineState {
    clock: ScaledClock,
    /// Where it stands while held.
    held_at: Option<i64>,
}

impl HeldTimeline {
    fn state(&self) -> TimelineState {
        match self.state.lock() {
            Ok(s) => *s,
            Err(poisoned) => *poisoned.into_inner(),
        }
    }

    fn set(&self, state: TimelineState) {
        match self.state.lock() {
            Ok(mut s) => *s = state,
            Err(poisoned) => *poisoned.into_inner() = state,
        }
    }
}

#[async_trait]
impl Clock for HeldTimeline {
    fn now_ms(&self) -> i64 {
        let state = self.state();
        state.held_at.unwrap_or_else(|| state.clock.now_ms())
    }

    async fn sleep(&self, duration: Duration) {
        let clock = self.state().clock;
        clock.sleep(duration).await;
    }

    fn simulated(&self) -> bool {
        self.state().clock.simulated()
    }
}

/// Where the engine's paper traders' time comes from, said once in the engine's log.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TimelineStart {
    /// A new simulated timeline, starting at the wall clock.
    New,
    /// The timeline a running engine is moving (several engines share one database).
    Joined,
    /// A stopped timeline, continued from where it was frozen.
    Resumed { at_ms: i64 },
}

impl TimelineKeeper {
    /// The timeline an engine running at `speed` uses: `None` when it runs on the wall clock
    /// and no simulated timeline exists. A frozen timeline continues from where it stopped (at
    /// real speed for `speed` 1, so paper time never goes back), a moving one (another engine's)
    /// is joined.
    pub async fn resume(
        store: Arc<Store>,
        speed: f64,
    ) -> Result<Option<(TimelineKeeper, TimelineStart)>, StoreError> {
        let now = real_now_ms();
        let (clock, start) = match saved_timeline(&store).await? {
            Some(saved) => match saved.frozen_at_in(&store, now).await {
                Some(at_ms) => (
                    ScaledClock::anchored(now, at_ms.max(now), speed),
                    TimelineStart::Resumed { at_ms },
                ),
                None if (saved.clock.speed - speed.max(1.0)).abs() < f64::EPSILON => {
                    (saved.clock, TimelineStart::Joined)
                }
                // A new speed continues from where the timeline is now.
                None => (
                    ScaledClock::anchored(now, saved.clock.at(now), speed),
                    TimelineStart::Joined,
                ),
            },
            None if speed > 1.0 => (ScaledClock::anchored(now, now, speed), TimelineStart::New),
            None => return Ok(None),
        };
        // A timeline picked up where it stood waits for this engine's first trader; one
        // another engine moves goes on moving.
        let held_at = match start {
            TimelineStart::Joined => None,
            TimelineStart::New | TimelineStart::Resumed { .. } => Some(clock.now_ms()),
        };
        let timeline = Arc::new(HeldTimeline {
            state: std::sync::Mutex::new(TimelineState { clock, held_at }),
        });
        let keeper = TimelineKeeper { store, timeline };
        keeper.save(Some(now), held_at).await?;
        Ok(Some((keeper, start)))
    }

    pub fn clock(&self) -> Arc<dyn Clock> {
        self.timeline.clone()
    }

    /// The engine runs a trader: a held timeline starts moving from where it stands.
    pub fn release(&self) {
        let state = self.timeline.state();
        if let Some(at) = state.held_at {
            let speed = state.clock.speed;
            self.timeline.set(TimelineState {
                clock: ScaledClock::anchored(real_now_ms(), at, speed),
                held_at: None,
            });
        }
    }

    /// Says the timeline is still moving (or, held, where it stands); readers freeze it a few
    /// seconds after the last beat.
    pub async fn beat(&self) -> Result<(), StoreError> {
        let held_at = self.timeline.state().held_at;
        self.save(Some(real_now_ms()), held_at).await
    }

    /// The engine stopped: the timeline stands where it is until an engine moves it again.
    pub async fn freeze(&self) -> Result<i64, StoreError> {
        let at_ms = self.timeline.now_ms();
        self.save(Some(real_now_ms()), Some(at_ms)).await?;
        Ok(at_ms)
    }

    async fn save(
        &self,
        beat_real_ms: Option<i64>,
        stopped_at_sim_ms: Option<i64>,
    ) -> Result<(), StoreError> {
        let record = SavedTimeline {
            clock: self.timeline.state().clock,
            beat_real_ms,
            stopped_at_sim_ms,
        };
        let value = serde_json::to_value(record).map_err(|e| StoreError::Corrupt {
            what: "simulated timeline",
            detail: e.to_string(),
        })?;
        self.store
            .put_state(TIMELINE_USER, TIMELINE_SCOPE, TIMELINE_KEY, &value)
            .await
    }
}

fn real_now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn saved(beat_real_ms: Option<i64>, stopped_at_sim_ms: Option<i64>) -> SavedTimeline {
        SavedTimeline {
            clock: ScaledClock {
                anchor_real_ms: 1_000_000,
                anchor_sim_ms: 1_000_000,
                speed: 600.0,
            },
            beat_real_ms,
            stopped_at_sim_ms,
        }
    }

    #[test]
    fn a_timeline_moves_only_while_its_engine_beats() {
        // Beating a second ago: moving.
        assert_eq!(saved(Some(1_010_000), None).frozen_at(1_011_000), None);
        // The beats stopped (a killed engine): frozen at its last beat (the journal may move
        // that later: see `frozen_at_in`), not where the beats went stale.
        assert_eq!(
            saved(Some(1_010_000), None).frozen_at(1_100_000),
            Some(1_000_000 + 10_000 * 600)
        );
        // A clean stop says where it stopped, at once.
        assert_eq!(
            saved(Some(1_010_000), Some(7_000_000)).frozen_at(1_010_001),
            Some(7_000_000)
        );
        // Before beats existed: its anchor.
        assert_eq!(saved(None, None).frozen_at(9_000_000), Some(1_000_000));
    }

    #[test]
    fn a_wall_clock_timeline_never_freezes() {
        let mut wall = saved(None, Some(5));
        wall.clock.speed = 1.0;
        assert_eq!(wall.frozen_at(9_000_000), None);
    }
}
