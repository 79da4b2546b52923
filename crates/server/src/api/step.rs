//! The two steps of a risky call (start, stop, delete): a summary and a token first, the act
//! only when the same call comes back with that token (see [`crate::confirm`]).

use axum::http::StatusCode;
use serde::{Deserialize, Serialize};

use crate::access::Caller;
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;
use nofxi_assistant::confirm_token::{Subject, Verdict};

/// The body of a risky call: empty the first time, the token the second.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ConfirmBody {
    /// The token the first call returned.
    #[serde(default)]
    pub confirm: Option<String>,
}

/// The answer to a risky call.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum Step<T> {
    /// Nothing was done: show `summary`, and send `token` back to act.
    Confirm {
        confirm_required: bool,
        summary: String,
        token: String,
    },
    /// It was done.
    Done { done: bool, object: T },
}

/// The object a risky call is about, as its summary showed it.
pub struct Risky<'a> {
    pub action: &'a str,
    pub id: &'a str,
    pub version: String,
    pub summary: String,
}

/// `Ok(Some(step))`: the first call, to be answered with `step` (the summary and a token);
/// `Ok(None)`: confirmed, act now; `Err`: a token that does not confirm this object as it is.
pub fn confirmation<T>(
    state: &AppState,
    caller: &Caller,
    body: &ConfirmBody,
    risky: Risky<'_>,
) -> ApiResult<Option<Step<T>>> {
    let subject = Subject {
        user: &caller.user,
        action: risky.action,
        id: risky.id,
        version: risky.version,
    };
    let now = state.store.now_ms();
    let Some(token) = &body.confirm else {
        return Ok(Some(Step::Confirm {
            confirm_required: true,
            summary: risky.summary,
            token: state.confirmer.issue(&subject, now),
        }));
    };
    match state.confirmer.check(token, &subject, now) {
        Verdict::Valid => Ok(None),
        Verdict::Stale | Verdict::Expired => Err(ApiError::catalog(
            StatusCode::CONFLICT,
            "stale_confirmation",
            "http-stale-confirmation",
            &[],
        )),
    }
}

/// A summary from the catalogs, in the request's language.
pub fn summary(id: &str, args: &[(&str, &str)]) -> String {
    nofxi_skills::Catalog::builtin().text(crate::lang::current(), id, args)
}
