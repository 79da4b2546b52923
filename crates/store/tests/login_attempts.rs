//! Login attempts kept in the store, on SQLite and PostgreSQL, on a manual clock: a key runs
//! out after its budget and is free again when its window has passed; a right password takes
//! its attempt back (and clears the user name's count); guesses sent at once are all counted.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use nofxi_store::test_support::{TestStore, postgres_store_with_clock, sqlite_store_with_clock};
use nofxi_store::{LoginBudget, LoginGate, ManualClock};

const BUDGET: LoginBudget = LoginBudget {
    attempts: 3,
    window_ms: 60_000,
};

/// Every key held to [`BUDGET`].
fn each<'a>(keys: &[&'a str]) -> Vec<(&'a str, LoginBudget)> {
    keys.iter().map(|k| (*k, BUDGET)).collect()
}

async fn scenario(ts: TestStore, clock: Arc<ManualClock>) {
    let keys = ["user:alice", "ip:203.0.113.7"];
    for _ in 0..3 {
        assert_eq!(ts.begin_login(&each(&keys)).await.unwrap(), LoginGate::Open);
    }
    clock.advance_ms(10_000);
    let LoginGate::Closed { wait_ms } = ts.begin_login(&each(&keys)).await.unwrap() else {
        panic!("a fourth attempt in the window was let through");
    };
    assert_eq!(wait_ms, 50_000);
    // Another name from the same address is refused too; another address for another name
    // is not.
    assert!(matches!(
        ts.begin_login(&each(&["user:bob", "ip:203.0.113.7"]))
            .await
            .unwrap(),
        LoginGate::Closed { .. }
    ));
    assert_eq!(
        ts.begin_login(&each(&["user:bob", "ip:198.51.100.9"]))
            .await
            .unwrap(),
        LoginGate::Open
    );
    // The window passes: free again.
    clock.advance_ms(50_000);
    assert_eq!(ts.begin_login(&each(&keys)).await.unwrap(), LoginGate::Open);

    // A right password takes its attempt back from the address and clears the name.
    let carol = ["user:carol", "ip:192.0.2.1"];
    for _ in 0..2 {
        assert_eq!(
            ts.begin_login(&each(&carol)).await.unwrap(),
            LoginGate::Open
        );
    }
    assert_eq!(
        ts.begin_login(&each(&carol)).await.unwrap(),
        LoginGate::Open
    );
    ts.login_succeeded("user:carol", &["ip:192.0.2.1"])
        .await
        .unwrap();
    // The address has two failures left counted, the name none: one more try is let in.
    assert_eq!(
        ts.begin_login(&each(&["user:dave", "ip:192.0.2.1"]))
            .await
            .unwrap(),
        LoginGate::Open
    );
    assert!(matches!(
        ts.begin_login(&each(&["user:erin", "ip:192.0.2.1"]))
            .await
            .unwrap(),
        LoginGate::Closed { .. }
    ));

    // Guesses sent at once: exactly the budget gets through.
    let store = ts.store.clone();
    let tries = (0..8).map(|i| {
        let store = store.clone();
        tokio::spawn(async move {
            let user = format!("user:p{i}");
            store
                .begin_login(&each(&[user.as_str(), "ip:100.64.0.1"]))
                .await
                .unwrap()
        })
    });
    let mut open = 0;
    for t in tries {
        if t.await.unwrap() == LoginGate::Open {
            open += 1;
        }
    }
    assert_eq!(open, 3);
    ts.cleanup().await.unwrap();
}

/// Each key is held to its own budget: a pair of user and address to a few attempts, the
/// user name alone to a ceiling. A key runs out by its own count and window; one that ran
/// out closes the gate for the others, and a key whose window passed starts counting afresh.
async fn keys_have_their_own_budgets(ts: TestStore, clock: Arc<ManualClock>) {
    const CEILING: LoginBudget = LoginBudget {
        attempts: 6,
        window_ms: 120_000,
    };
    let from = |addr: &'static str| [("user:alice", CEILING), (addr, BUDGET)];
    for _ in 0..3 {
        assert_eq!(
            ts.begin_login(&from("pair:alice@a")).await.unwrap(),
            LoginGate::Open
        );
    }
    assert!(matches!(
        ts.begin_login(&from("pair:alice@a")).await.unwrap(),
        LoginGate::Closed { .. }
    ));
    // Three used of the name's six: another address still gets its own three.
    for _ in 0..3 {
        assert_eq!(
            ts.begin_login(&from("pair:alice@b")).await.unwrap(),
            LoginGate::Open
        );
    }
    let LoginGate::Closed { wait_ms } = ts.begin_login(&from("pair:alice@c")).await.unwrap() else {
        panic!("the ceiling of the name was passed");
    };
    assert_eq!(wait_ms, 120_000);
    // The pairs' windows pass, the name's does not.
    clock.advance_ms(60_000);
    assert!(matches!(
        ts.begin_login(&from("pair:alice@a")).await.unwrap(),
        LoginGate::Closed { wait_ms: 60_000 }
    ));
    clock.advance_ms(60_000);
    assert_eq!(
        ts.begin_login(&from("pair:alice@a")).await.unwrap(),
        LoginGate::Open
    );
    ts.cleanup().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn budgets_per_key_on_sqlite() {
    let clock = clock();
    keys_have_their_own_budgets(sqlite_store_with_clock(clock.clone()).await.unwrap(), clock).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn budgets_per_key_on_postgres() {
    let clock = clock();
    keys_have_their_own_budgets(
        postgres_store_with_clock(clock.clone()).await.unwrap(),
        clock,
    )
    .await;
}

fn clock() -> Arc<ManualClock> {
    Arc::new(ManualClock::new(1_767_225_600_000))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_sqlite() {
    let clock = clock();
    scenario(sqlite_store_with_clock(clock.clone()).await.unwrap(), clock).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgres() {
    let clock = clock();
    scenario(
        postgres_store_with_clock(clock.clone()).await.unwrap(),
        clock,
    )
    .await;
}
