//! The engine's tables: cycle journal and equity per user; leases that only one owner holds.

use nofxi_store::CycleRow;

use super::common::*;

fn row(trader: &str, n: u64, phase: &str, equity: Option<&str>) -> CycleRow {
    CycleRow {
        trader_id: trader.into(),
        cycle_number: n,
        phase: phase.into(),
        started_at: 1_000 * n as i64,
        equity: equity.map(|e| e.parse().unwrap()),
        record: serde_json::json!({"cycle_number": n, "phase": phase}),
    }
}

pub async fn cycles_replace_page_and_chart_per_user(ts: TestStore, _clock: Arc<ManualClock>) {
    ts.save_cycle("a", &row("t1", 1, "done", Some("1000")))
        .await
        .unwrap();
    ts.save_cycle("a", &row("t1", 2, "planned", None))
        .await
        .unwrap();
    // The same cycle saved again (planned -> done) replaces the first save.
    ts.save_cycle("a", &row("t1", 2, "done", Some("1012.34")))
        .await
        .unwrap();
    ts.save_cycle("a", &row("t1", 3, "done", Some("998.1")))
        .await
        .unwrap();

    let newest = ts.cycles("a", "t1", 2, None).await.unwrap();
    assert_eq!(
        newest.iter().map(|c| c.cycle_number).collect::<Vec<_>>(),
        [3, 2]
    );
    assert_eq!(newest[1].phase, "done");
    assert_eq!(newest[1].record["phase"], "done");
    let older = ts.cycles("a", "t1", 10, Some(2)).await.unwrap();
    assert_eq!(older.len(), 1);

    let curve = ts.equity_curve("a", "t1").await.unwrap();
    let equities: Vec<String> = curve.iter().map(|(_, e)| e.to_string()).collect();
    assert_eq!(equities, ["1000", "1012.34", "998.1"]);

    // Another user sees nothing of it and cannot overwrite it.
    assert!(ts.cycles("b", "t1", 10, None).await.unwrap().is_empty());
    assert!(ts.equity_curve("b", "t1").await.unwrap().is_empty());
    ts.save_cycle("b", &row("t1", 3, "done", Some("1")))
        .await
        .unwrap();
    assert_eq!(
        ts.cycles("a", "t1", 1, None).await.unwrap()[0].equity,
        Some("998.1".parse().unwrap())
    );
}

pub async fn leases_have_one_owner_until_they_expire(ts: TestStore, clock: Arc<ManualClock>) {
    let first = ts
        .acquire_lease("a", "t1", "proc-1", 30_000)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(first.generation, 1);
    assert!(
        ts.acquire_lease("a", "t1", "proc-2", 30_000)
            .await
            .unwrap()
            .is_none()
    );

    // Renewing keeps the generation and pushes the expiry.
    clock.advance_ms(20_000);
    let renewed = ts
        .acquire_lease("a", "t1", "proc-1", 30_000)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(renewed.generation, 1);
    assert!(renewed.expires_at > first.expires_at);

    // proc-1 dies: after expiry proc-2 takes over, and proc-1 cannot take it back.
    clock.advance_ms(30_001);
    let taken = ts
        .acquire_lease("a", "t1", "proc-2", 30_000)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(taken.owner, "proc-2");
    assert_eq!(taken.generation, 2);
    assert!(
        ts.acquire_lease("a", "t1", "proc-1", 30_000)
            .await
            .unwrap()
            .is_none()
    );

    // A clean release frees it at once.
    ts.release_lease("t1", "proc-1").await.unwrap(); // not the owner: no effect
    assert!(ts.lease("t1").await.unwrap().is_some());
    ts.release_lease("t1", "proc-2").await.unwrap();
    assert!(
        ts.acquire_lease("a", "t1", "proc-1", 30_000)
            .await
            .unwrap()
            .is_some()
    );
}

/// Writes under a lease (the paper account, the journal) are made only while that holding of
/// the lease stands: after a takeover, after a release and a retake, or once it expired, the
/// old holder's writes are refused and change nothing.
pub async fn fenced_writes_stop_with_the_holding(ts: TestStore, clock: Arc<ManualClock>) {
    use nofxi_store::{Fence, StoreError};
    let fence_of = |lease: &nofxi_store::Lease| Fence {
        trader_id: lease.trader_id.clone(),
        owner: lease.owner.clone(),
        epoch: lease.generation,
    };
    let refused = |r: Result<(), StoreError>| matches!(r, Err(StoreError::Fenced { .. }));
    let doc = |n: i64| serde_json::json!({ "n": n });
    let first = ts
        .acquire_lease("a", "t1", "proc-1", 30_000)
        .await
        .unwrap()
        .unwrap();
    let held = fence_of(&first);
    ts.put_state_fenced(&held, "a", "paper", "acct", &doc(1))
        .await
        .unwrap();
    ts.save_cycle_fenced(&held, "a", &row("t1", 1, "done", Some("1000")))
        .await
        .unwrap();
    // Renewals keep the holding.
    clock.advance_ms(20_000);
    ts.acquire_lease("a", "t1", "proc-1", 30_000)
        .await
        .unwrap()
        .unwrap();
    assert!(ts.fence_holds(&held).await.unwrap());

    // The lease lapses: even with nobody else holding it, proc-1's writes stop.
    clock.advance_ms(30_001);
    assert!(refused(
        ts.put_state_fenced(&held, "a", "paper", "acct", &doc(2))
            .await
    ));
    // proc-1 taking its own lapsed lease again is a new holding, with a new epoch.
    let again = ts
        .acquire_lease("a", "t1", "proc-1", 30_000)
        .await
        .unwrap()
        .unwrap();
    assert!(again.generation > first.generation);
    assert!(refused(
        ts.put_state_fenced(&held, "a", "paper", "acct", &doc(3))
            .await
    ));

    // proc-2 takes over after expiry: proc-1's holding writes nothing more.
    let proc1 = fence_of(&again);
    clock.advance_ms(30_001);
    let taken = ts
        .acquire_lease("a", "t1", "proc-2", 30_000)
        .await
        .unwrap()
        .unwrap();
    assert!(refused(
        ts.put_state_fenced(&proc1, "a", "paper", "acct", &doc(4))
            .await
    ));
    assert!(refused(
        ts.save_cycle_fenced(&proc1, "a", &row("t1", 2, "done", Some("1")))
            .await
    ));
    let proc2 = fence_of(&taken);
    ts.put_state_fenced(&proc2, "a", "paper", "acct", &doc(5))
        .await
        .unwrap();

    // A release keeps the epoch counting: the next holder never reuses one.
    ts.release_lease("t1", "proc-2").await.unwrap();
    assert!(ts.lease("t1").await.unwrap().is_none());
    assert!(refused(
        ts.put_state_fenced(&proc2, "a", "paper", "acct", &doc(6))
            .await
    ));
    let next = ts
        .acquire_lease("a", "t1", "proc-2", 30_000)
        .await
        .unwrap()
        .unwrap();
    assert!(next.generation > taken.generation);

    // Only the holders' own writes are there.
    assert_eq!(
        ts.get_state("a", "paper", "acct").await.unwrap(),
        Some(doc(5))
    );
    let journal = ts.cycles("a", "t1", 10, None).await.unwrap();
    assert_eq!(journal.len(), 1);
}

/// The newest cycle any leased trader journalled, found by each trader's last cycle.
pub async fn newest_leased_cycle_is_each_traders_last(ts: TestStore, _clock: Arc<ManualClock>) {
    assert_eq!(ts.newest_leased_cycle_start().await.unwrap(), None);
    for (trader, n, phase) in [("t1", 1, "done"), ("t1", 2, "done"), ("t2", 1, "planned")] {
        ts.save_cycle("a", &row(trader, n, phase, None))
            .await
            .unwrap();
    }
    // Journals of traders no engine leased do not count.
    assert_eq!(ts.newest_leased_cycle_start().await.unwrap(), None);
    ts.acquire_lease("a", "t1", "proc-1", 30_000)
        .await
        .unwrap()
        .unwrap();
    ts.acquire_lease("a", "t2", "proc-1", 30_000)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(ts.newest_leased_cycle_start().await.unwrap(), Some(2_000));
}
