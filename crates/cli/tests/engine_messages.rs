//! What the engine and `trader status` tell a user who is not watching the code: that a
//! started trader needs a running engine, that an engine with nothing to run is idle, that a
//! restart after kill -9 waits for the dead engine's lease (and how long), and which
//! preflight failure stopped a trader.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use support::*;

fn setup(home: &Path, start: bool) {
    paper_basics(home, "rules");
    ok(
        home,
        &[
            "trader",
            "add",
            "--name",
            "bot",
            "--model",
            "rules",
            "--exchange",
            "paper",
            "--strategy",
            "default",
        ],
    );
    if start {
        ok(home, &["trader", "start", "bot"]);
    }
}

fn engine(home: &Path, extra: &[&str]) -> Child {
    let mut args = vec!["run", "--lease-seconds", "4"];
    args.extend_from_slice(extra);
    nofxi(home, &args)
        .env("RUST_LOG", "info")
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn signal(child: &Child, sig: &str) {
    Command::new("kill")
        .args([sig, &child.id().to_string()])
        .status()
        .unwrap();
}

/// Until the engine has journalled the trader's first cycle (at most 20 s).
fn wait_for_a_cycle(home: &Path) {
    let start = Instant::now();
    while json(home, &["trader", "journal", "bot"])
        .as_array()
        .unwrap()
        .is_empty()
    {
        assert!(start.elapsed() < Duration::from_secs(20), "no cycle ran");
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn log_of(child: Child) -> String {
    text(&child.wait_with_output().unwrap())
}

#[test]
fn a_paper_start_without_an_engine_says_nofxi_run_must_run() {
    let (_dir, home) = home();
    setup(&home, false);
    let out = ok(&home, &["trader", "start", "bot"]);
    assert!(
        out.contains("no engine is running") && out.contains("`nofxi run`"),
        "{out}"
    );
}

#[test]
fn an_engine_with_no_started_trader_says_so_and_how_to_start_one() {
    let (_dir, home) = home();
    setup(&home, false);
    let child = engine(&home, &[]);
    std::thread::sleep(Duration::from_millis(1_500));
    signal(&child, "-TERM");
    let log = log_of(child);
    assert!(
        log.contains("no trader is started") && log.contains("nofxi trader start"),
        "{log}"
    );
    // Said once, not on every poll.
    assert_eq!(log.matches("no trader is started").count(), 1, "{log}");
}

#[test]
fn after_kill_9_status_and_the_new_engine_say_they_wait_for_the_lease() {
    let (_dir, home) = home();
    setup(&home, true);
    let mut first = engine(&home, &["--sim-speed", "600"]);
    wait_for_a_cycle(&home);
    signal(&first, "-KILL");
    first.wait().unwrap();
    // Half the 4 s term unrenewed: the engine is known dead, its lease not yet expired.
    std::thread::sleep(Duration::from_millis(2_300));
    let status = ok(&home, &["trader", "status", "bot"]);
    assert!(
        status.contains("not trading") && status.contains("stopped renewing its lease"),
        "{status}"
    );
    let second = engine(&home, &["--sim-speed", "600"]);
    std::thread::sleep(Duration::from_millis(2_500));
    signal(&second, "-TERM");
    let log = log_of(second);
    assert!(
        log.contains("waiting for the lease of a stopped engine"),
        "{log}"
    );
    assert!(log.contains("trader started in this engine"), "{log}");
}

#[test]
fn status_shows_the_preflight_failure_that_stopped_a_trader() {
    let (_dir, home) = home();
    setup(&home, true);
    ok(
        &home,
        &["exchange", "update", "paper", "--enabled", "false"],
    );
    let child = engine(&home, &[]);
    std::thread::sleep(Duration::from_millis(1_500));
    signal(&child, "-TERM");
    let log = log_of(child);
    assert!(log.contains("Preflight"), "{log}");
    let status = ok(&home, &["trader", "status", "bot"]);
    assert!(
        status.contains("stopped") && status.contains("preflight failed"),
        "{status}"
    );
    assert!(status.contains("disabled"), "{status}");
    assert!(!status.contains("Shutdown"), "{status}");
    assert!(!status.contains("waiting for an engine"), "{status}");
}

/// A stopped engine's simulated timeline stands still. It used to keep advancing at the run's
/// speed after `nofxi run --sim-speed` exited, so each later read priced a later simulated
/// "now" (positions vanished, the wallet moved). Its times are shown as simulated, not UTC,
/// and the engine's last words do not say "no trader is started" about a trader its own
/// shutdown stopped.
#[test]
fn a_stopped_simulated_run_freezes_its_timeline_and_marks_its_times() {
    let (_dir, home) = home();
    setup(&home, true);
    let child = engine(&home, &["--sim-speed", "600"]);
    wait_for_a_cycle(&home);
    signal(&child, "-TERM");
    let log = log_of(child);
    assert!(log.contains("simulated time stopped at"), "{log}");
    assert!(!log.contains("no trader is started"), "{log}");

    let read = || {
        let out = with_input(&mut nofxi(&home, &["chat"]), "how is bot doing\n");
        text(&out)
    };
    let first = read();
    assert!(first.contains("(simulated)"), "{first}");
    // 1.5 s at 600× would be 15 simulated minutes: the shown time and figures would move.
    std::thread::sleep(Duration::from_millis(1_500));
    assert_eq!(read(), first);

    let journal = ok(&home, &["trader", "journal", "bot"]);
    assert!(
        journal.contains("(simulated)") && !journal.contains("UTC"),
        "{journal}"
    );
    let status = ok(&home, &["trader", "status", "bot"]);
    assert!(status.contains("(simulated)"), "{status}");
    // Each cycle names the model it decided with; the status, the one the trader is bound to.
    let rows: Vec<&str> = journal.lines().filter(|l| l.starts_with('#')).collect();
    assert!(
        !rows.is_empty() && rows.iter().all(|r| r.contains(" rules ")),
        "{journal}"
    );
    assert!(status.contains("model      rules\n"), "{status}");
}
