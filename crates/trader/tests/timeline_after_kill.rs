//! A fast-forward timeline whose engine was killed stops where that engine last acted: at the
//! newest cycle its traders journalled, even one run after its last beat — not minutes of
//! simulated time later (where its beats went stale), and never before that cycle.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion

use nofxi_store::CycleRow;
use nofxi_store::test_support::sqlite_store;
use nofxi_trader::runtime::pace::{SavedTimeline, ScaledClock};

const REAL_START: i64 = 1_767_225_600_000;
const SPEED: f64 = 600.0;

fn timeline(beat_real_ms: i64) -> SavedTimeline {
    SavedTimeline {
        clock: ScaledClock::anchored(REAL_START, REAL_START, SPEED),
        beat_real_ms: Some(beat_real_ms),
        stopped_at_sim_ms: None,
    }
}

fn sim_at(real_ms: i64) -> i64 {
    REAL_START + ((real_ms - REAL_START) as f64 * SPEED) as i64
}

#[tokio::test]
async fn a_killed_engines_timeline_stops_at_its_last_cycle() {
    let ts = sqlite_store().await.unwrap();
    let beat = REAL_START + 10_000;
    let a_minute_later = beat + 60_000;
    let saved = timeline(beat);
    // No cycle after the last beat: the timeline stops at that beat.
    assert_eq!(
        saved.frozen_at_in(&ts, a_minute_later).await,
        Some(sim_at(beat))
    );

    // The engine ran one more cycle 0.4 s (4 simulated minutes) after its last beat, then died.
    let last_cycle = sim_at(beat + 400);
    ts.acquire_lease("u1", "t1", "engine-a", 30_000)
        .await
        .unwrap()
        .unwrap();
    for (n, started_at) in [(1, sim_at(beat - 500)), (2, last_cycle)] {
        let row = CycleRow {
            trader_id: "t1".into(),
            cycle_number: n,
            phase: "done".into(),
            started_at,
            equity: None,
            record: serde_json::json!({}),
        };
        ts.save_cycle("u1", &row).await.unwrap();
    }
    let frozen = saved.frozen_at_in(&ts, a_minute_later).await.unwrap();
    assert_eq!(frozen, last_cycle);
    // Before this, it stopped where the beats went stale, three real seconds after the last
    // one: half an hour of simulated time no trader ever lived through.
    assert!(frozen < sim_at(beat + 3_000));

    // A clean stop says where it stopped; the journal does not move that.
    let stopped = SavedTimeline {
        stopped_at_sim_ms: Some(sim_at(beat + 2_000)),
        ..saved
    };
    assert_eq!(
        stopped.frozen_at_in(&ts, a_minute_later).await,
        Some(sim_at(beat + 2_000))
    );
}

/// A restarted engine picks the timeline up where it stood and holds it there while it waits
/// for a killed engine's leases: simulated time moves only once it runs a trader. Before, it
/// moved from the moment the engine started, and a 30 s wait at 600x skipped five hours.
#[tokio::test]
async fn a_picked_up_timeline_stands_still_until_a_trader_runs() {
    use nofxi_trader::runtime::pace::{TimelineKeeper, TimelineStart};
    let ts = sqlite_store().await.unwrap();
    let store = ts.store.clone();
    let stopped = SavedTimeline {
        clock: ScaledClock::anchored(REAL_START, REAL_START, SPEED),
        beat_real_ms: Some(REAL_START + 1_000),
        stopped_at_sim_ms: Some(REAL_START + 600_000),
    };
    store
        .put_state(
            nofxi_trader::runtime::pace::TIMELINE_USER,
            nofxi_trader::runtime::pace::TIMELINE_SCOPE,
            nofxi_trader::runtime::pace::TIMELINE_KEY,
            &serde_json::to_value(stopped).unwrap(),
        )
        .await
        .unwrap();
    let (keeper, start) = TimelineKeeper::resume(store.clone(), SPEED)
        .await
        .unwrap()
        .unwrap();
    assert!(matches!(start, TimelineStart::Resumed { .. }));
    let clock = keeper.clock();
    let at = clock.now_ms();
    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    assert_eq!(
        clock.now_ms(),
        at,
        "simulated time moved before a trader ran"
    );
    keeper.release();
    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    assert!(
        clock.now_ms() > at,
        "simulated time did not move once a trader ran"
    );
}
