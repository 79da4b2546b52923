//! The constraints runtime against a loopback HTTP server speaking the REFERENCE §5 envelope:
//! Retry-After is honoured, backoff grows with jitter inside its bounds, non-retryable codes
//! are never retried, bad arguments and uncovered symbols never reach the server, and rate
//! limits make the caller wait — all in simulated time.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::IntoResponse;
use axum::routing::get;
use governor::clock::FakeRelativeClock;
use nofxi_skills::runtime::{CallError, CallFailure, SkillRuntime, Sleeper, parse_envelope};
use nofxi_skills::{Library, Skill};
use serde_json::{Value, json};

/// Records every wait and moves the fake clock forward by it, so no test really sleeps.
#[derive(Clone, Default)]
struct RecordingSleeper {
    waits: Arc<Mutex<Vec<Duration>>>,
    clock: FakeRelativeClock,
}

impl Sleeper for RecordingSleeper {
    fn sleep(&self, d: Duration) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        self.waits.lock().unwrap().push(d);
        self.clock.advance(d);
        Box::pin(async {})
    }
}

/// A scripted market-data server: answer `n` is `script[min(n, len-1)]`.
#[derive(Clone)]
struct Script {
    answers: Arc<Vec<(Value, Option<&'static str>)>>,
    hits: Arc<AtomicUsize>,
}

async fn kline(State(s): State<Script>) -> impl IntoResponse {
    let n = s.hits.fetch_add(1, Ordering::SeqCst);
    let (body, retry_after) = s.answers[n.min(s.answers.len() - 1)].clone();
    let mut headers = HeaderMap::new();
    if let Some(r) = retry_after {
        headers.insert("Retry-After", r.parse().unwrap());
    }
    (headers, body.to_string())
}

async fn serve(answers: Vec<(Value, Option<&'static str>)>) -> (String, Arc<AtomicUsize>) {
    let script = Script {
        answers: Arc::new(answers),
        hits: Arc::new(AtomicUsize::new(0)),
    };
    let hits = script.hits.clone();
    let app = Router::new()
        .route("/market/kline", get(kline))
        .with_state(script);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (format!("http://{addr}/market/kline"), hits)
}

fn market() -> Skill {
    Library::builtin()
        .unwrap()
        .get("market_data")
        .unwrap()
        .clone()
}

fn runtime(sleeper: &RecordingSleeper) -> SkillRuntime<FakeRelativeClock> {
    SkillRuntime::with_clock(
        &market(),
        sleeper.clock.clone(),
        Arc::new(sleeper.clone()),
        7,
    )
}

async fn fetch(url: &str, args: &serde_json::Map<String, Value>) -> Result<Value, CallFailure> {
    let resp = reqwest::Client::new()
        .get(url)
        .query(&[("symbol", args["symbol"].as_str().unwrap_or(""))])
        .send()
        .await
        .map_err(|e| CallFailure {
            code: 5001,
            message: e.to_string(),
            retry_after: None,
        })?;
    let retry_after = resp
        .headers()
        .get("Retry-After")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let body = resp.text().await.unwrap_or_default();
    parse_envelope(&body, retry_after.as_deref())
}

#[tokio::test]
async fn retry_after_then_backoff_then_success() {
    let (url, hits) = serve(vec![
        (
            json!({"code": 3001, "message": "rate limited", "data": null}),
            Some("2"),
        ),
        (
            json!({"code": 5000, "message": "internal", "data": null}),
            None,
        ),
        (
            json!({"code": 0, "message": "ok", "data": {"candles": 3}}),
            None,
        ),
    ])
    .await;
    let sleeper = RecordingSleeper::default();
    let rt = runtime(&sleeper);
    let args = json!({"symbol": "NVDA.US", "interval": "1h", "limit": 3});
    let data = rt
        .invoke("get_kline", &args, |_, a| {
            let url = url.clone();
            async move { fetch(&url, &a).await }
        })
        .await
        .unwrap();
    assert_eq!(data, json!({"candles": 3}));
    assert_eq!(hits.load(Ordering::SeqCst), 3);
    let waits = sleeper.waits.lock().unwrap().clone();
    assert_eq!(waits.len(), 2, "{waits:?}");
    // 1st: the server's Retry-After, exactly (the backoff alone would have been 1 s).
    assert_eq!(waits[0], Duration::from_secs(2));
    // 2nd: backoff for retry #2 is base·2¹ = 2 s, plus at most 10 % jitter.
    assert!(
        waits[1] >= Duration::from_millis(2000) && waits[1] <= Duration::from_millis(2200),
        "{waits:?}"
    );
}

#[tokio::test]
async fn non_retryable_code_is_never_retried() {
    let (url, hits) = serve(vec![(
        json!({"code": 1001, "message": "invalid key", "data": null}),
        Some("1"),
    )])
    .await;
    let sleeper = RecordingSleeper::default();
    let rt = runtime(&sleeper);
    let args = json!({"symbol": "NVDA.US", "interval": "1h"});
    let err = rt
        .invoke("get_kline", &args, |_, a| {
            let url = url.clone();
            async move { fetch(&url, &a).await }
        })
        .await
        .unwrap_err();
    match err {
        CallError::Failed {
            code,
            attempts,
            retryable,
            meaning,
            ..
        } => {
            assert_eq!((code, attempts, retryable), (1001, 1, false));
            assert!(meaning.unwrap().en.contains("API key is invalid"));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(hits.load(Ordering::SeqCst), 1);
    assert!(sleeper.waits.lock().unwrap().is_empty());
}

#[tokio::test]
async fn retries_stop_after_max_retries_with_growing_backoff() {
    let (url, hits) = serve(vec![(
        json!({"code": 5000, "message": "internal", "data": null}),
        None,
    )])
    .await;
    let sleeper = RecordingSleeper::default();
    let rt = runtime(&sleeper);
    let args = json!({"symbol": "BTCUSDT", "interval": "1h"});
    let err = rt
        .invoke("get_kline", &args, |_, a| {
            let url = url.clone();
            async move { fetch(&url, &a).await }
        })
        .await
        .unwrap_err();
    assert!(
        matches!(
            err,
            CallError::Failed {
                code: 5000,
                attempts: 4,
                retryable: true,
                ..
            }
        ),
        "{err:?}"
    );
    assert_eq!(hits.load(Ordering::SeqCst), 4);
    let waits = sleeper.waits.lock().unwrap().clone();
    for (w, base) in waits.iter().zip([1000u64, 2000, 4000]) {
        assert!(
            *w >= Duration::from_millis(base) && *w <= Duration::from_millis(base + base / 10),
            "{waits:?}"
        );
    }
    assert_eq!(waits.len(), 3);
}

#[tokio::test]
async fn bad_arguments_and_uncovered_symbols_never_reach_the_server() {
    let (url, hits) = serve(vec![(json!({"code": 0, "data": {}}), None)]).await;
    let sleeper = RecordingSleeper::default();
    let rt = runtime(&sleeper);
    let go = |args: Value| {
        let url = url.clone();
        let rt = &rt;
        async move {
            rt.invoke("get_kline", &args, |_, a| {
                let url = url.clone();
                async move { fetch(&url, &a).await }
            })
            .await
        }
    };
    let err = go(json!({"symbol": "nvda", "interval": "1h"}))
        .await
        .unwrap_err();
    assert!(
        err.to_string().contains(r"^[A-Z0-9]+(\.[A-Z]{2})?$"),
        "{err}"
    );
    let err = go(json!({"symbol": "NVDA.US", "interval": "1.5h"}))
        .await
        .unwrap_err();
    assert!(
        err.to_string()
            .contains(&nofxi_domain::Interval::names_text()),
        "{err}"
    );
    assert_eq!(hits.load(Ordering::SeqCst), 0);

    for symbol in ["SPX.IX", "EURUSD.FX", "XAUUSD.FX", "000300.SH"] {
        match rt.prepare("get_order_book", &json!({"symbol": symbol})) {
            Err(CallError::Refused(r)) => {
                assert!(
                    r.message.en.contains(symbol) && r.message.en.contains("no order book"),
                    "{}",
                    r.message.en
                );
                assert!(r.message.zh.contains("订单簿"), "{}", r.message.zh);
            }
            other => panic!("{symbol}: {other:?}"),
        }
    }
    assert!(
        rt.prepare("get_order_book", &json!({"symbol": "BTCUSDT"}))
            .is_ok()
    );
    assert!(
        rt.prepare("get_kline", &json!({"symbol": "SPX.IX", "interval": "1d"}))
            .is_ok(),
        "indices have candles"
    );
}

#[tokio::test]
async fn per_function_rate_limit_makes_the_caller_wait() {
    let sleeper = RecordingSleeper::default();
    let rt = runtime(&sleeper);
    // get_realtime_price allows 30 a minute: the 31st call waits for one slot (2 s).
    for _ in 0..31 {
        rt.call("get_realtime_price", |_| async { Ok::<_, CallFailure>(()) })
            .await
            .unwrap();
    }
    let waits = sleeper.waits.lock().unwrap().clone();
    let total: Duration = waits.iter().sum();
    assert!(
        total >= Duration::from_millis(1900) && total <= Duration::from_millis(2100),
        "{waits:?}"
    );
}

#[test]
fn retry_policy_rules() {
    use nofxi_skills::BackoffStrategy;
    use nofxi_skills::runtime::{Decision, RetryPolicy};
    let mut p = RetryPolicy {
        retryable: vec![3001, 5000],
        non_retryable: vec![1001],
        max_retries: 3,
        strategy: BackoffStrategy::ExponentialJitter,
        base: Duration::from_millis(1000),
        max: Duration::from_millis(5000),
        jitter: 0.1,
    };
    let fail = |code, retry_after: Option<u64>| CallFailure {
        code,
        message: String::new(),
        retry_after: retry_after.map(Duration::from_secs),
    };
    assert_eq!(
        p.decide(0, &fail(1001, Some(1)), 0.5),
        Decision::GiveUp { retryable: false }
    );
    assert_eq!(
        p.decide(0, &fail(4242, None), 0.5),
        Decision::GiveUp { retryable: false },
        "unknown codes are not retried"
    );
    assert_eq!(
        p.decide(3, &fail(5000, None), 0.5),
        Decision::GiveUp { retryable: true }
    );
    assert_eq!(
        p.decide(0, &fail(3001, Some(7)), 0.9),
        Decision::Retry(Duration::from_secs(7))
    );
    assert_eq!(
        p.decide(0, &fail(5000, None), 0.0),
        Decision::Retry(Duration::from_millis(1000))
    );
    assert_eq!(
        p.decide(1, &fail(5000, None), 1.0),
        Decision::Retry(Duration::from_millis(2200))
    );
    assert_eq!(
        p.decide(2, &fail(5000, None), 0.0),
        Decision::Retry(Duration::from_millis(4000))
    );
    assert_eq!(p.backoff(10), Duration::from_millis(5000), "capped at max");
    p.strategy = BackoffStrategy::Exponential;
    assert_eq!(
        p.decide(1, &fail(5000, None), 1.0),
        Decision::Retry(Duration::from_millis(2000))
    );
    p.strategy = BackoffStrategy::Fixed;
    assert_eq!(
        p.decide(2, &fail(5000, None), 1.0),
        Decision::Retry(Duration::from_millis(1000))
    );
}
