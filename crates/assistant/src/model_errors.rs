//! A failed model call in the error-diagnosis skill's words: the same what / why / what-now
//! texts the assistant gives for a pasted error, so `nofxi model test` and a chat turn whose
//! model failed explain it identically, in the user's language.

use nofxi_llm::{LlmError, LlmErrorKind};
use nofxi_skills::{Knowledge, Lang, Library, SkillKind};

/// The error-diagnosis entry for a typed model error, if the skill has one.
pub fn diagnosis_id(error: &LlmError) -> Option<&'static str> {
    use LlmErrorKind::*;
    Some(match error.kind {
        BadKey => "model_auth",
        InsufficientBalance => "model_balance",
        ModelNotFound => "model_not_found",
        RateLimited | QuotaExhausted => "rate_limited",
        ContextTooLong => "context_too_long",
        Overloaded if matches!(error.status, Some(500..=504)) => "server_error",
        Overloaded => "provider_overloaded",
        Timeout => "server_error",
        NotJson => "html_instead_of_json",
        Dns | Tls | ConnectionRefused | Network => "connection_failed",
        BadRequest | BadResponse | InvalidUrl => return None,
    })
}

/// What happened, why, and what to do now; the provider's own message is kept beside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explanation {
    /// The diagnosis entry used, when one fits.
    pub diagnosis: Option<String>,
    pub what: String,
    pub why: String,
    pub fix: String,
}

pub fn explain(error: &LlmError, library: &Library, lang: Lang) -> Explanation {
    let entry: Option<&Knowledge> =
        diagnosis_id(error).and_then(|id| library.knowledge(SkillKind::Diagnosis, id));
    let text = |t: Option<&nofxi_skills::Text>| t.map(|t| t.get(lang).to_string());
    let said = error.message.trim().to_string();
    Explanation {
        diagnosis: entry.map(|k| k.id.clone()),
        what: entry
            .and_then(|k| text(k.what.as_ref()))
            .unwrap_or_else(|| format!("The model call failed ({:?}).", error.kind)),
        why: entry
            .and_then(|k| text(k.why.as_ref()))
            .unwrap_or_else(|| said.clone()),
        fix: entry
            .and_then(|k| text(k.fix.as_ref()))
            .unwrap_or_else(|| error.kind.advice().to_string()),
    }
}
