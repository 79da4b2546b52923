//! Conversation cases that start traders on a live (Binance) account: `tests/conversations/live/`.
//!
//! `trader.start` runs the live preflight, which talks to Binance at `NOFXI_BINANCE_BASE_URL`.
//! That variable is read from the process environment, and setting it inside this process
//! would need `unsafe`; so the test starts crates/testkit's MockBinance, then runs itself again
//! as a child process with the variable pointing at the mock, and the child runs the cases.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use nofxi_eval::{AssistantFactory, load_suite, render_case, render_totals, run_suite};
use nofxi_skills::Library;
use nofxi_testkit::binance::MockBinance;
use rust_decimal::Decimal;

/// Marks the child run; its value is unused.
const CHILD: &str = "NOFXI_EVAL_LIVE_CHILD";
const CHILD_TEST: &str = "live_cases_in_the_child";

fn live_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/conversations/live")
}

#[test]
fn live_start_cases_pass_against_the_mock_binance() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let mock = runtime.block_on(MockBinance::start()).unwrap();
    // The keys the case files give `main` / 主账户.
    mock.add_account(
        "AKlive0123456789",
        "SKlive0123456789",
        Decimal::from(10_000),
    );
    // One account per fault the exchange diagnosis must name (tests/conversations/live/
    // exchange_diagnosis_*.yaml): the key is refused from this IP, the key cannot trade
    // futures, the account is in hedge (dual-side) position mode, the machine using the key
    // has a clock a minute ahead.
    let faulty = [
        ("AKnoip0123456789", "SKnoip0123456789"),
        ("AKnofutures01234", "SKnofutures01234"),
        ("AKhedge012345678", "SKhedge012345678"),
        ("AKskew0123456789", "SKskew0123456789"),
    ];
    for (key, secret) in faulty {
        mock.add_account(key, secret, Decimal::from(10_000));
    }
    mock.set_ip_whitelisted("AKnoip0123456789", false);
    mock.set_futures_enabled("AKnofutures01234", false);
    mock.set_hedge_mode("AKhedge012345678", true);
    mock.set_client_clock_off_ms("AKskew0123456789", 60_000);
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([CHILD_TEST, "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD, "1")
        .env("NOFXI_BINANCE_BASE_URL", mock.url())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("1 passed"),
        "the child ran no case:\n{stdout}"
    );
    drop(mock);
}

/// Runs only as the child of the test above (it returns at once otherwise).
#[test]
fn live_cases_in_the_child() {
    if std::env::var_os(CHILD).is_none() {
        return;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let files = load_suite(&[live_dir()]).unwrap();
    let library = Arc::new(Library::builtin().unwrap());
    let started = Instant::now();
    let results = runtime.block_on(run_suite(&AssistantFactory, library, &files, |_| {}));
    let totals = render_totals(&results, started.elapsed());
    let failed: String = results
        .iter()
        .filter(|r| !r.passed())
        .map(render_case)
        .collect();
    assert!(!results.is_empty(), "no live case found");
    assert!(failed.is_empty(), "failing cases:\n{failed}{totals}");
}
