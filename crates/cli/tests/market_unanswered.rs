//! A chat that asks for market data while the user's live venue does not answer (no network,
//! a firewall that drops packets): the first turn gives up within the time a person waits and
//! says so, then shows the paper account's market labelled; the turns after it do not ask the
//! silent venue again but say at once that it is not answering, with the same fallback. A
//! market named outright ("on okx", "用binance的") is the one read.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::net::TcpListener;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::Value;
use support::{add_binance, home, nofxi, ok, with_input};

/// A venue host that takes connections and never says a word; counts the connections.
fn black_hole() -> (String, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let accepted = Arc::new(AtomicUsize::new(0));
    let count = accepted.clone();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for stream in listener.incoming().flatten() {
            count.fetch_add(1, Ordering::SeqCst);
            held.push(stream);
        }
    });
    (url, accepted)
}

fn chat(home: &std::path::Path, url: &str, lines: &[&str]) -> Vec<String> {
    let mut cmd = nofxi(home, &["chat", "--json", "--new"]);
    cmd.env("NOFXI_BINANCE_BASE_URL", url);
    let out = with_input(&mut cmd, &(lines.join("\n") + "\n"));
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            v["reply"].as_str().unwrap_or_default().to_string()
        })
        .collect()
}

#[test]
fn a_silent_venue_is_given_up_once_then_said_at_once_with_the_paper_market_beside_it() {
    let (_dir, home) = home();
    let (url, accepted) = black_hole();
    ok(
        &home,
        &["exchange", "add", "--type", "paper", "--name", "paper"],
    );
    add_binance(&home);

    let replies = chat(
        &home,
        &url,
        &["btc price", "eth order book", "比特币多少钱"],
    );
    assert_eq!(replies.len(), 3, "{replies:?}");
    let asked = accepted.load(Ordering::SeqCst);
    assert!(asked >= 1, "the venue was asked once: {replies:?}");

    let [first, second, third] = [&replies[0], &replies[1], &replies[2]];
    assert!(
        first.contains("main (binance)") && first.contains("no answer within 5 s"),
        "{first}"
    );
    assert!(
        second.contains("main (binance)") && second.contains("not asked again"),
        "{second}"
    );
    assert!(third.contains("没有响应"), "{third}");
    // Each beside the paper account's market, labelled as not live.
    for reply in [first, second] {
        assert!(reply.contains("paper's simulated market"), "{reply}");
    }
    assert!(third.contains("paper"), "{third}");
}

#[test]
fn a_market_named_outright_is_the_one_read() {
    let (_dir, home) = home();
    let (url, _accepted) = black_hole();
    ok(
        &home,
        &["exchange", "add", "--type", "paper", "--name", "paper"],
    );
    add_binance(&home);
    // The paper account named by its name: its simulated market, and the silent venue is
    // never asked.
    let replies = chat(&home, &url, &["btc price on paper", "sim 上的 eth 盘口"]);
    assert!(
        replies[0].contains("paper's simulated market") && !replies[0].contains("binance"),
        "{replies:?}"
    );
    assert!(
        replies[1].contains("模拟") && !replies[1].contains("binance"),
        "{replies:?}"
    );
}

/// The market that answers instead is always local: a paper account on a venue's prices is as
/// silent as the venue, so it is passed over; with no paper account on the simulated market,
/// nofxi's own, said as offline (the user has an account, so never "no account yet"). Candles
/// asked without an interval are the skill's default, 1h.
#[test]
fn the_fallback_is_a_local_market_and_candles_default_to_one_hour() {
    let (_dir, home) = home();
    let (url, _accepted) = black_hole();
    ok(
        &home,
        &[
            "exchange", "add", "--type", "paper", "--name", "follower", "--market", "binance",
        ],
    );
    ok(
        &home,
        &["exchange", "add", "--type", "paper", "--name", "sim1"],
    );
    let replies = chat(&home, &url, &["btc candles", "币安上btc多少钱"]);
    assert!(
        replies[0].contains("follower")
            && replies[0].contains("1h candles on sim1's simulated market"),
        "{replies:?}"
    );
    assert!(replies[1].contains("binance"), "{replies:?}");

    let (_live_dir, live_home) = support::home();
    add_binance(&live_home);
    let replies = chat(&live_home, &url, &["btc price"]);
    assert!(
        replies[0].contains("nofxi's simulated market (offline, not a live quote)"),
        "{replies:?}"
    );
}
