//! The rate limits against the injected clock: local data is never held, and a caller with a
//! longest wait gets the limit back instead of sleeping.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::*;
use crate::Library;

/// Records every wait and moves the fake clock on by it: nothing really sleeps.
#[derive(Clone, Default)]
struct RecordingSleeper {
    waits: Arc<Mutex<Vec<Duration>>>,
    clock: FakeRelativeClock,
}

impl Sleeper for RecordingSleeper {
    fn sleep(&self, d: Duration) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        if let Ok(mut waits) = self.waits.lock() {
            waits.push(d);
        }
        self.clock.advance(d);
        Box::pin(async {})
    }
}

impl RecordingSleeper {
    fn waited(&self) -> Vec<Duration> {
        self.waits.lock().map(|w| w.clone()).unwrap_or_default()
    }
}

fn market(sleeper: &RecordingSleeper) -> SkillRuntime<FakeRelativeClock> {
    let library = Library::builtin().expect("builtin skills");
    let skill = library.get("market_data").expect("the market-data skill");
    SkillRuntime::with_clock(skill, sleeper.clock.clone(), Arc::new(sleeper.clone()), 7)
}

async fn ok(_: u32) -> Result<(), CallFailure> {
    Ok(())
}

#[tokio::test]
async fn local_calls_are_not_counted_against_the_budget() {
    let sleeper = RecordingSleeper::default();
    let rt = market(&sleeper);
    for _ in 0..200 {
        rt.call_on(Reach::Local, "get_realtime_price", ok)
            .await
            .expect("a local call");
    }
    assert!(sleeper.waited().is_empty(), "{:?}", sleeper.waited());
    // The budget is untouched: 30 remote calls still go at once.
    for _ in 0..30 {
        rt.call("get_realtime_price", ok)
            .await
            .expect("a remote call");
    }
    assert!(sleeper.waited().is_empty(), "{:?}", sleeper.waited());
}

#[tokio::test]
async fn a_caller_that_waits_briefly_gets_the_limit_and_when_to_retry() {
    let sleeper = RecordingSleeper::default();
    let rt = market(&sleeper).with_max_wait(Duration::from_secs(1));
    for _ in 0..30 {
        rt.call("get_realtime_price", ok)
            .await
            .expect("within the budget");
    }
    match rt.call("get_realtime_price", ok).await {
        Err(CallError::RateLimited {
            by:
                LimitedBy::Budget {
                    function,
                    per_minute,
                },
            retry_in,
        }) => {
            assert_eq!(function.as_deref(), Some("get_realtime_price"));
            assert_eq!(per_minute, 30);
            assert_eq!(retry_in, Duration::from_secs(2));
        }
        other => panic!("expected the budget's limit, got {other:?}"),
    }
    assert!(sleeper.waited().is_empty(), "{:?}", sleeper.waited());
}

#[tokio::test]
async fn the_sources_own_limit_is_returned_when_its_wait_is_too_long() {
    let sleeper = RecordingSleeper::default();
    let rt = market(&sleeper).with_max_wait(Duration::from_secs(1));
    let code = rt
        .limit_code()
        .expect("the skill names its rate-limit code");
    let limited = |wait: u64| {
        move |_| async move {
            Err::<(), _>(CallFailure {
                code,
                message: "rate limited".into(),
                retry_after: Some(Duration::from_secs(wait)),
            })
        }
    };
    match rt.call("get_realtime_price", limited(30)).await {
        Err(CallError::RateLimited {
            by: LimitedBy::Source { code: c, message },
            retry_in,
        }) => {
            assert_eq!((c, message.as_str()), (code, "rate limited"));
            assert_eq!(retry_in, Duration::from_secs(30));
        }
        other => panic!("expected the source's limit, got {other:?}"),
    }
    assert!(sleeper.waited().is_empty(), "{:?}", sleeper.waited());
    // A wait within the caller's is still waited out and retried, as the skill says.
    let short = rt.call("get_realtime_price", limited(1)).await;
    assert!(
        matches!(short, Err(CallError::Failed { attempts: 4, .. })),
        "{short:?}"
    );
    assert_eq!(sleeper.waited(), vec![Duration::from_secs(1); 3]);
}
