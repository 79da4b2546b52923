//! What every venue's REST client does the same way after a failed request: how long to wait
//! before the next attempt, and how to quote an answer nofxi could not read.

use std::time::Duration;

use rand::Rng;

use crate::VenueError;

/// The exchange's own Retry-After when it gave one; otherwise exponential backoff from `base`
/// (doubling per attempt, capped at `max`) with full jitter over the upper half, so clients
/// that failed together do not retry together.
pub(crate) fn backoff(base: Duration, max: Duration, attempt: u32, err: &VenueError) -> Duration {
    if let VenueError::Rejected {
        retry_after: Some(after),
        ..
    } = err
    {
        return *after;
    }
    let cap = base.saturating_mul(2u32.saturating_pow(attempt)).min(max);
    let half = cap / 2;
    let jitter_ms = rand::rng().random_range(0..=u64::try_from(half.as_millis()).unwrap_or(0));
    half + Duration::from_millis(jitter_ms)
}

/// The start of a body for an error message; an HTML page usually means a wrong base URL.
pub(crate) fn snippet(body: &str) -> String {
    let text: String = body.chars().take(120).collect();
    if body.trim_start().starts_with('<') {
        format!("an HTML page instead of JSON (is the base URL right?): {text}")
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_grows_within_its_cap_and_honours_retry_after() {
        let (base, max) = (Duration::from_millis(100), Duration::from_millis(1000));
        let other = VenueError::InvalidRequest("x".into());
        for attempt in 0..6 {
            let wait = backoff(base, max, attempt, &other);
            let cap = (base * 2u32.pow(attempt)).min(max);
            assert!(wait >= cap / 2 && wait <= cap, "{attempt}: {wait:?}");
        }
        let told = VenueError::Rejected {
            venue: "v".into(),
            kind: crate::RejectKind::RateLimited,
            code: 429,
            message: String::new(),
            http_status: 429,
            retry_after: Some(Duration::from_secs(7)),
        };
        assert_eq!(backoff(base, max, 3, &told), Duration::from_secs(7));
        assert!(snippet("<html>").starts_with("an HTML page"));
    }
}
