//! A remote source someone is waiting on: every call gets a time budget, all its attempts
//! included, and a source that did not answer is not asked again for a while. Without this a
//! chat turn on an unreachable venue waited out the venue client's retries times the skill's
//! (about 25 s offline), and every later turn waited as long again; now the first turn waits
//! at most [`BUDGET`] and the next ones say at once that the source is not answering, so the
//! reply can fall back to the paper account's market, labelled.

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use nofxi_skills::runtime::{CallError, Reach};

use super::call::{MarketError, UNREACHABLE};
use super::source::DataSource;

/// The longest one call to a remote source may take, retries included.
pub const BUDGET: Duration = Duration::from_secs(5);
/// How long a source that did not answer is left alone before it is asked again.
pub const RETRY_AFTER: Duration = Duration::from_secs(60);

/// When each source (by [`DataSource::name`]) last failed to answer.
fn silent_since() -> &'static Mutex<HashMap<String, Instant>> {
    static SILENT: OnceLock<Mutex<HashMap<String, Instant>>> = OnceLock::new();
    SILENT.get_or_init(|| Mutex::new(HashMap::new()))
}

/// How long ago `source` last failed to answer, while that is under [`RETRY_AFTER`].
fn recently_silent(source: &str) -> Option<Duration> {
    let silent = silent_since().lock().ok()?;
    let ago = silent.get(source)?.elapsed();
    (ago < RETRY_AFTER).then_some(ago)
}

fn remember(source: &str, answered: bool) {
    if let Ok(mut silent) = silent_since().lock() {
        if answered {
            silent.remove(source);
        } else {
            silent.insert(source.to_string(), Instant::now());
        }
    }
}

/// `call` on `source` within [`BUDGET`]; a remote source that timed out or could not be
/// reached through all its retries is remembered, and while it is, refused at once with
/// [`MarketError::NotAnswering`] (a 5xx or a refusal is an answer, and is not). The simulated market is local and never held.
pub async fn within<T>(
    source: &DataSource,
    call: impl Future<Output = Result<T, CallError>>,
) -> Result<T, MarketError> {
    within_for(source, BUDGET, call).await
}

async fn within_for<T>(
    source: &DataSource,
    budget: Duration,
    call: impl Future<Output = Result<T, CallError>>,
) -> Result<T, MarketError> {
    if source.reach == Reach::Local {
        return call.await.map_err(MarketError::from);
    }
    if let Some(ago) = recently_silent(&source.name) {
        return Err(MarketError::NotAnswering {
            ago,
            again_in: RETRY_AFTER.saturating_sub(ago),
        });
    }
    match tokio::time::timeout(budget, call).await {
        Err(_) => {
            remember(&source.name, false);
            Err(MarketError::NoAnswerWithin { budget })
        }
        Ok(Err(
            e @ CallError::Failed {
                code: UNREACHABLE, ..
            },
        )) => {
            remember(&source.name, false);
            Err(e.into())
        }
        Ok(result) => {
            if result.is_ok() {
                remember(&source.name, true);
            }
            result.map_err(MarketError::from)
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use nofxi_skills::Lang;

    use super::*;
    use crate::market_data::source::simulated;

    fn remote(name: &str) -> DataSource {
        DataSource {
            name: name.into(),
            reach: Reach::Remote,
            ..simulated(Lang::En)
        }
    }

    #[tokio::test]
    async fn a_source_that_does_not_answer_is_given_up_within_the_budget_and_then_left_alone() {
        let source = remote("test-silent-venue");
        let budget = Duration::from_millis(20);
        let slow = within_for(&source, budget, async {
            tokio::time::sleep(Duration::from_secs(600)).await;
            Ok::<_, CallError>(())
        });
        assert!(matches!(
            slow.await,
            Err(MarketError::NoAnswerWithin { budget: b }) if b == budget
        ));
        // The next call is refused at once: the call itself is never run.
        let ran = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flag = ran.clone();
        let next = within(&source, async move {
            flag.store(true, std::sync::atomic::Ordering::SeqCst);
            Ok::<_, CallError>(())
        })
        .await;
        assert!(matches!(next, Err(MarketError::NotAnswering { .. })));
        assert!(!ran.load(std::sync::atomic::Ordering::SeqCst));
    }

    #[tokio::test]
    async fn a_refusal_is_not_silence_and_the_local_market_is_never_held() {
        let source = remote("test-refusing-venue");
        let refused = within(&source, async {
            Err::<(), _>(CallError::Failed {
                code: 0,
                message: "bad symbol".into(),
                attempts: 1,
                retryable: false,
                meaning: None,
            })
        })
        .await;
        assert!(matches!(refused, Err(MarketError::Call(_))));
        assert!(
            within(&source, async { Ok::<_, CallError>(1) })
                .await
                .is_ok()
        );

        remember("simulated", false);
        let local = simulated(Lang::En);
        assert!(
            within(&local, async { Ok::<_, CallError>(1) })
                .await
                .is_ok()
        );
    }
}
