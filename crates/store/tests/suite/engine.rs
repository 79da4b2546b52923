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
