//! Errors as JSON: `{"error": {"code", "message", "problems": [{"field", "message"}]}}`.
//!
//! An error carries its message in both languages and is worded for the request's reader when
//! it becomes a response ([`crate::lang::current`]). Store and validation errors keep the CLI's
//! wording (their `Display` is what `nofxi` prints; `to_zh` is the chat's), so a field named
//! in a form is the field the CLI names. Every message passes the secret scrubber on the way
//! out: a venue or model may echo a key back in its error text.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use nofxi_domain::ValidationError;
use nofxi_skills::Catalog;
use nofxi_skills::text::Lang;
use nofxi_store::StoreError;
use serde::Serialize;

/// One message in both languages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Worded {
    pub en: String,
    pub zh: String,
}

impl Worded {
    pub fn new(en: impl Into<String>, zh: impl Into<String>) -> Worded {
        Worded {
            en: en.into(),
            zh: zh.into(),
        }
    }

    /// A message of the catalogs (`skills/messages/<lang>.ftl`).
    pub fn catalog(id: &str, args: &[(&str, &str)]) -> Worded {
        let catalog = Catalog::builtin();
        Worded {
            en: catalog.text(Lang::En, id, args),
            zh: catalog.text(Lang::Zh, id, args),
        }
    }

    pub fn in_lang(&self, lang: Lang) -> &str {
        match lang {
            Lang::En => &self.en,
            Lang::Zh => &self.zh,
        }
    }
}

#[derive(Debug, Clone)]
pub struct ApiError {
    pub status: StatusCode,
    /// Stable, for programs: `validation`, `not_found`, `conflict`, `stale_confirmation`,
    /// `bad_request`, `unauthenticated`, `forbidden`, `unavailable`, `internal`.
    pub code: &'static str,
    pub message: Worded,
    /// Per field, for forms: the field's snake_case name and what to do.
    pub problems: Vec<(String, Worded)>,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: Worded) -> ApiError {
        ApiError {
            status,
            code,
            message,
            problems: Vec::new(),
        }
    }

    pub fn catalog(
        status: StatusCode,
        code: &'static str,
        id: &str,
        args: &[(&str, &str)],
    ) -> ApiError {
        ApiError::new(status, code, Worded::catalog(id, args))
    }

    pub fn bad_request(id: &str, args: &[(&str, &str)]) -> ApiError {
        ApiError::catalog(StatusCode::BAD_REQUEST, "bad_request", id, args)
    }

    /// A failure the caller cannot fix; its detail still says what failed.
    pub fn internal(detail: impl std::fmt::Display) -> ApiError {
        let detail = detail.to_string();
        ApiError::catalog(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "http-internal",
            &[("detail", &detail)],
        )
    }

    /// One field at fault: 422, the message said once at the top and under the field.
    pub fn field(field: impl Into<String>, message: Worded) -> ApiError {
        ApiError {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            code: "validation",
            problems: vec![(field.into(), message.clone())],
            message,
        }
    }

    /// Another problem of the same request, under its field.
    pub fn and_field(mut self, field: impl Into<String>, message: Worded) -> ApiError {
        self.problems.push((field.into(), message));
        self
    }

    pub fn validation(err: &ValidationError) -> ApiError {
        ApiError {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            code: "validation",
            message: Worded::new(err.to_string(), err.to_zh()),
            problems: err
                .problems
                .iter()
                .map(|p| (p.field.clone(), Worded::new(p.to_string(), p.to_zh())))
                .collect(),
        }
    }
}

impl From<StoreError> for ApiError {
    fn from(err: StoreError) -> ApiError {
        if let Some(invalid) = err.validation() {
            return ApiError::validation(invalid);
        }
        let (status, code) = match &err {
            StoreError::NotFound { .. }
            | StoreError::UnknownUser { .. }
            | StoreError::UnknownToken { .. } => (StatusCode::NOT_FOUND, "not_found"),
            StoreError::Ambiguous { .. }
            | StoreError::InUse { .. }
            | StoreError::RestoreBlocked { .. }
            | StoreError::Running { .. }
            | StoreError::RunningMove { .. }
            | StoreError::Expired { .. } => (StatusCode::CONFLICT, "conflict"),
            StoreError::PostgresUnreachable { .. } => {
                (StatusCode::SERVICE_UNAVAILABLE, "unavailable")
            }
            _ => (StatusCode::INTERNAL_SERVER_ERROR, "internal"),
        };
        ApiError::new(status, code, Worded::new(err.to_string(), err.to_zh()))
    }
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct ErrorDetail {
    pub code: String,
    pub message: String,
    pub problems: Vec<ProblemBody>,
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct ProblemBody {
    pub field: String,
    pub message: String,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let lang = crate::lang::current();
        let say = |w: &Worded| nofxi_assistant::scrub::scrub(w.in_lang(lang));
        if self.status.is_server_error() {
            tracing::warn!(code = self.code, message = %say(&self.message), "request failed");
        }
        let body = ErrorBody {
            error: ErrorDetail {
                code: self.code.to_string(),
                message: say(&self.message),
                problems: self
                    .problems
                    .iter()
                    .map(|(field, w)| ProblemBody {
                        // A field's name is the client's text too (`unknown field`).
                        field: nofxi_assistant::scrub::scrub(field),
                        message: say(w),
                    })
                    .collect(),
            },
        };
        (self.status, Json(body)).into_response()
    }
}

pub type ApiResult<T> = Result<T, ApiError>;
