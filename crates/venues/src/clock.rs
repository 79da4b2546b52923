//! Time as a dependency. Everything in this crate that reads "now" or waits (retry backoff,
//! rate-limit windows, the simulated market's latest candle, paper fills) goes through
//! [`Clock`], so a test can move time forward instead of sleeping.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use async_trait::async_trait;

#[async_trait]
pub trait Clock: Send + Sync + std::fmt::Debug {
    /// Unix epoch milliseconds.
    fn now_ms(&self) -> i64;
    /// Wait `duration`. A simulated clock advances instead of waiting.
    async fn sleep(&self, duration: Duration);
    /// Whether its times are a simulated timeline's (`nofxi run --sim-speed`), not the wall
    /// clock's: what is stamped with them is shown as simulated, never as UTC.
    fn simulated(&self) -> bool {
        false
    }
}

/// The wall clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

#[async_trait]
impl Clock for SystemClock {
    fn now_ms(&self) -> i64 {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        i64::try_from(now.as_millis()).unwrap_or(i64::MAX)
    }

    async fn sleep(&self, duration: Duration) {
        tokio::time::sleep(duration).await;
    }
}

/// A clock that only moves when told to (or when something sleeps on it). Cloning shares the
/// same time, so a test keeps one handle and gives another to the code under test.
#[derive(Debug, Clone)]
pub struct ManualClock {
    now: Arc<AtomicI64>,
    slept_ms: Arc<AtomicI64>,
}

impl ManualClock {
    pub fn new(start_ms: i64) -> ManualClock {
        ManualClock {
            now: Arc::new(AtomicI64::new(start_ms)),
            slept_ms: Arc::new(AtomicI64::new(0)),
        }
    }

    pub fn set(&self, ms: i64) {
        self.now.store(ms, Ordering::SeqCst);
    }

    pub fn advance(&self, by: Duration) {
        let ms = i64::try_from(by.as_millis()).unwrap_or(i64::MAX);
        self.now.fetch_add(ms, Ordering::SeqCst);
    }

    /// Total time code under test has slept on this clock: how tests see backoff happen.
    pub fn slept(&self) -> Duration {
        Duration::from_millis(u64::try_from(self.slept_ms.load(Ordering::SeqCst)).unwrap_or(0))
    }
}

#[async_trait]
impl Clock for ManualClock {
    fn now_ms(&self) -> i64 {
        self.now.load(Ordering::SeqCst)
    }

    async fn sleep(&self, duration: Duration) {
        let ms = i64::try_from(duration.as_millis()).unwrap_or(i64::MAX);
        self.slept_ms.fetch_add(ms, Ordering::SeqCst);
        self.advance(duration);
        // Let other tasks run, as a real sleep would.
        tokio::task::yield_now().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn manual_clock_advances_when_slept_on() {
        let clock = ManualClock::new(1_000);
        let shared = clock.clone();
        shared.sleep(Duration::from_secs(2)).await;
        assert_eq!(clock.now_ms(), 3_000);
        assert_eq!(clock.slept(), Duration::from_secs(2));
        assert!(SystemClock.now_ms() > 1_600_000_000_000);
    }
}
