//! The market-data error envelope of REFERENCE §5, `{code, message, data}`, and `Retry-After`.

use std::time::Duration;

use serde_json::Value;

use super::CallFailure;

/// `code == 0` → the `data`; anything else → a `CallFailure` carrying the `Retry-After` wait.
/// A body that is not the envelope is reported as code -1, which no skill lists as retryable.
pub fn parse_envelope(body: &str, retry_after: Option<&str>) -> Result<Value, CallFailure> {
    let wait = retry_after.and_then(parse_retry_after);
    let parsed: Value = serde_json::from_str(body).map_err(|e| CallFailure {
        code: -1,
        message: format!("the response is not JSON ({e}); the base URL may point at a web page"),
        retry_after: wait,
    })?;
    let code = parsed
        .get("code")
        .and_then(Value::as_i64)
        .ok_or_else(|| CallFailure {
            code: -1,
            message: "the response has no numeric `code`".into(),
            retry_after: wait,
        })?;
    if code == 0 {
        return Ok(parsed.get("data").cloned().unwrap_or(Value::Null));
    }
    Err(CallFailure {
        code,
        message: parsed
            .get("message")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string(),
        retry_after: wait,
    })
}

/// `Retry-After` in seconds (integer or decimal). HTTP-date values are not used by the sources
/// we speak to; they yield None and the backoff applies instead.
pub fn parse_retry_after(value: &str) -> Option<Duration> {
    let secs: f64 = value.trim().parse().ok()?;
    (secs.is_finite() && (0.0..86_400.0).contains(&secs)).then(|| Duration::from_secs_f64(secs))
}
