//! The engine as real processes: a SIGKILL mid-run loses and duplicates no order, and two
//! engines on one PostgreSQL database run each trader in exactly one process, taking over a
//! dead one's traders after its leases expire.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use support::*;

fn paper_setup(home: &Path, db: Option<&str>, traders: usize) {
    let run = |args: &[&str]| {
        let mut cmd = nofxi(home, args);
        if let Some(url) = db {
            cmd.env("NOFXI_DATABASE_URL", url);
        }
        let out = cmd.output().unwrap();
        assert!(
            out.status.success(),
            "nofxi {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    run(&["exchange", "add", "--type", "paper", "--name", "paper"]);
    run(&["model", "add", "--name", "rules", "--provider", "builtin"]);
    run(&["strategy", "add", "--name", "default"]);
    for i in 0..traders {
        let name = format!("bot-{i:02}");
        run(&[
            "trader",
            "add",
            "--name",
            &name,
            "--model",
            "rules",
            "--exchange",
            "paper",
            "--strategy",
            "default",
            "--initial-balance",
            "1000",
        ]);
        run(&["trader", "start", &name]);
    }
}

fn engine(home: &Path, db: Option<&str>, owner: &str, extra: &[&str]) -> Child {
    let mut args = vec!["run", "--owner", owner];
    args.extend_from_slice(extra);
    let mut cmd = nofxi(home, &args);
    if let Some(url) = db {
        cmd.env("NOFXI_DATABASE_URL", url);
    }
    cmd.env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

fn terminate(child: &mut Child) {
    Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    let status = child.wait().unwrap();
    assert!(
        status.success(),
        "the engine did not stop cleanly on SIGTERM: {status}"
    );
}

fn journal(home: &Path, db: Option<&str>, trader: &str) -> Vec<Value> {
    let mut cmd = nofxi(
        home,
        &["trader", "journal", trader, "--limit", "10000", "--json"],
    );
    if let Some(url) = db {
        cmd.env("NOFXI_DATABASE_URL", url);
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut records: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    records.reverse();
    records
}

fn wait_until(what: &str, limit: Duration, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < limit, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(250));
    }
}

fn orders_placed(records: &[Value]) -> usize {
    records
        .iter()
        .flat_map(|r| r["executions"].as_array().cloned().unwrap_or_default())
        .filter(|e| e["ok"] == true)
        .count()
}

#[test]
fn sigkill_then_restart_loses_and_duplicates_no_order() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    paper_setup(home, None, 1);
    // Ten simulated minutes a second: two five-minute cycles a second, crosses within seconds.
    let fast = ["--sim-speed", "600", "--lease-seconds", "3"];
    let mut first = engine(home, None, "first", &fast);
    wait_until(
        "orders from the first engine",
        Duration::from_secs(90),
        || orders_placed(&journal(home, None, "bot-00")) >= 6,
    );
    first.kill().unwrap(); // SIGKILL: no cleanup, the lease is left to expire
    first.wait().unwrap();
    let killed_at = journal(home, None, "bot-00").len();

    let mut second = engine(home, None, "second", &fast);
    wait_until(
        "the second engine to take over and trade",
        Duration::from_secs(90),
        || {
            let records = journal(home, None, "bot-00");
            records.len() >= killed_at + 20
                && records.last().is_some_and(|r| r["engine"] == "second")
        },
    );
    // The user stops it from another shell: the engine ends it after the cycle in progress.
    ok(home, &["trader", "stop", "bot-00"]);
    wait_until(
        "the engine to stop the trader",
        Duration::from_secs(30),
        || json(home, &["trader", "status", "bot-00"])["engine"]["stop_reason"] == "user",
    );
    let stopped_at = journal(home, None, "bot-00").len();
    std::thread::sleep(Duration::from_secs(2));
    assert_eq!(
        journal(home, None, "bot-00").len(),
        stopped_at,
        "a stopped trader kept trading"
    );
    terminate(&mut second);

    let records = journal(home, None, "bot-00");
    // Every cycle number once, in order, and every cycle finished (a cut-off one was resumed).
    let numbers: Vec<u64> = records
        .iter()
        .map(|r| r["cycle_number"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, (1..=records.len() as u64).collect::<Vec<_>>());
    assert!(
        records.iter().all(|r| r["phase"] == "done"),
        "a cycle was left half done"
    );
    let engines: BTreeSet<&str> = records
        .iter()
        .filter_map(|r| r["engine"].as_str())
        .collect();
    assert_eq!(engines, BTreeSet::from(["first", "second"]));

    // The paper account's orders against the journal: nothing lost, nothing twice.
    let state = paper_state(home);
    let placed: Vec<String> = state["orders"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["client_order_id"].as_str().unwrap().to_string())
        .filter(|id| id.starts_with("nx"))
        .collect();
    let unique: BTreeSet<&String> = placed.iter().collect();
    assert_eq!(unique.len(), placed.len(), "an order was placed twice");
    let journalled: BTreeSet<String> = records
        .iter()
        .flat_map(|r| r["executions"].as_array().cloned().unwrap_or_default())
        .filter(|e| e["ok"] == true)
        .map(|e| e["client_order_id"].as_str().unwrap().to_string())
        .collect();
    let on_venue: BTreeSet<String> = placed.into_iter().collect();
    assert_eq!(
        journalled, on_venue,
        "the journal and the venue disagree about which orders exist"
    );
}

/// The paper sub-account's state document, read straight from the database.
fn paper_state(home: &Path) -> Value {
    tokio::runtime::Runtime::new().unwrap().block_on(async {
        let store = nofxi_store::Store::open(home).await.unwrap();
        let trader = store.get_trader("local", "bot-00").await.unwrap();
        let key = format!("{}:{}", trader.spec.exchange_id, trader.id);
        store
            .get_state("local", "paper", &key)
            .await
            .unwrap()
            .unwrap()
    })
}

#[test]
fn two_engines_on_postgres_run_each_of_twenty_traders_once_and_take_over_the_dead() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let pg = rt
        .block_on(nofxi_store::test_support::PgTestDatabase::create())
        .unwrap();
    let url = pg.url.clone();
    let db = Some(url.as_str());
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    paper_setup(home, db, 20);

    let opts = ["--cycle-seconds", "1", "--lease-seconds", "4"];
    let a = engine(home, db, "A", &opts);
    let b = engine(home, db, "B", &opts);
    let names: Vec<String> = (0..20).map(|i| format!("bot-{i:02}")).collect();
    wait_until(
        "every trader to run a few cycles",
        Duration::from_secs(120),
        || names.iter().all(|n| journal(home, db, n).len() >= 3),
    );

    // Exactly one process per trader: its cycles never alternate between engines and never
    // come faster than the one-second cycle allows.
    let owner_of = |records: &[Value]| {
        records
            .last()
            .and_then(|r| r["engine"].as_str())
            .map(String::from)
    };
    let mut by_engine: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for name in &names {
        let records = journal(home, db, name);
        let engines: Vec<&str> = records
            .iter()
            .filter_map(|r| r["engine"].as_str())
            .collect();
        let switches = engines.windows(2).filter(|w| w[0] != w[1]).count();
        assert_eq!(switches, 0, "{name} was run by both engines: {engines:?}");
        assert_no_overlap(name, &records, 500);
        by_engine
            .entry(owner_of(&records).unwrap())
            .or_default()
            .push(name.clone());
    }

    // Kill whichever engine holds traders (A if it holds any); the other takes them over.
    let (victim, heir, mut victim_child, mut heir_child) = if by_engine.contains_key("A") {
        ("A", "B", a, b)
    } else {
        ("B", "A", b, a)
    };
    let orphans = by_engine.get(victim).cloned().unwrap_or_default();
    assert!(!orphans.is_empty());
    let killed = Instant::now();
    victim_child.kill().unwrap();
    victim_child.wait().unwrap();
    wait_until(
        "the survivor to take over every orphaned trader",
        Duration::from_secs(30),
        || {
            orphans
                .iter()
                .all(|n| owner_of(&journal(home, db, n)).as_deref() == Some(heir))
        },
    );
    let took = killed.elapsed();
    // Lease 4 s + a poll (1 s) + a cycle (1 s), with room for a loaded machine.
    assert!(took < Duration::from_secs(15), "takeover took {took:?}");
    for name in &orphans {
        let records = journal(home, db, name);
        let engines: Vec<&str> = records
            .iter()
            .filter_map(|r| r["engine"].as_str())
            .collect();
        assert_eq!(
            engines.windows(2).filter(|w| w[0] != w[1]).count(),
            1,
            "{name}: {engines:?}"
        );
        assert_no_overlap(name, &records, 500);
    }
    terminate(&mut heir_child);
    drop(victim_child);
    rt.block_on(pg.drop_now()).unwrap();
}

/// Cycles of one trader must be at least `min_gap_ms` apart: two engines running it at once
/// would interleave closer cycles.
fn assert_no_overlap(name: &str, records: &[Value], min_gap_ms: i64) {
    let starts: Vec<i64> = records
        .iter()
        .map(|r| r["started_ms"].as_i64().unwrap())
        .collect();
    for w in starts.windows(2) {
        assert!(
            w[1] - w[0] >= min_gap_ms,
            "{name}: cycles {} ms apart",
            w[1] - w[0]
        );
    }
}
