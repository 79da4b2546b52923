//! JSON bodies with errors a form can show: a missing, unknown or mistyped field is named as a
//! field problem (not axum's plain-text rejection), and an empty body reads as `{}` so a
//! confirmation's first call needs none.

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use serde::de::DeserializeOwned;

use crate::error::{ApiError, Worded};

pub struct Body<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Body<T>, ApiError> {
        let bytes = Bytes::from_request(request, state)
            .await
            .map_err(|e| ApiError::bad_request("http-bad-json", &[("detail", &e.body_text())]))?;
        let text: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) {
            b"{}"
        } else {
            &bytes
        };
        parse(text).map(Body)
    }
}

/// `text` as a `T`, or an error naming the field at fault.
fn parse<T: DeserializeOwned>(text: &[u8]) -> Result<T, ApiError> {
    let mut de = serde_json::Deserializer::from_slice(text);
    serde_path_to_error::deserialize(&mut de).map_err(|e| {
        // The path names the field a bad value sits in ("initial_balance": "NaN"), which
        // serde's own message leaves out.
        let path = e.path().to_string();
        let inner = e.into_inner();
        match path.as_str() {
            "" | "." => parse_error(&inner),
            field if quoted_field(&inner.to_string()).is_none() => {
                ApiError::field(field, bad_value(field, &inner))
            }
            _ => parse_error(&inner),
        }
    })
}

/// A value of the wrong form in `field`, said without serde's line and column.
fn bad_value(field: &str, err: &serde_json::Error) -> Worded {
    let detail = err.to_string();
    let detail = detail
        .split(" at line ")
        .next()
        .unwrap_or(&detail)
        .to_string();
    Worded::new(
        format!("`{field}` has a value of the wrong form ({detail}): correct it"),
        format!("`{field}` 的值格式不对（{detail}）：请改正"),
    )
}

/// serde_json says "missing field `name` at line 1 column 2": the field becomes a problem.
fn parse_error(err: &serde_json::Error) -> ApiError {
    let detail = err.to_string();
    let Some(field) = quoted_field(&detail) else {
        return ApiError::bad_request("http-bad-json", &[("detail", &detail)]);
    };
    let problem = if detail.starts_with("missing field") {
        Worded::new(
            format!("`{field}` is required: give it a value"),
            format!("缺少 `{field}`：请填写"),
        )
    } else if detail.starts_with("unknown field") {
        Worded::catalog("http-unknown-field", &[("field", &field)])
    } else {
        Worded::new(detail.clone(), format!("`{field}` 的值不对：{detail}"))
    };
    ApiError::field(field, problem)
}

fn quoted_field(detail: &str) -> Option<String> {
    let start = detail.find('`')? + 1;
    let len = detail[start..].find('`')?;
    Some(detail[start..start + len].to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Form {
        name: String,
    }

    #[test]
    fn a_missing_or_unknown_field_is_named() {
        let missing = serde_json::from_str::<Form>("{}")
            .err()
            .map(|e| parse_error(&e));
        let missing = missing.map(|e| e.problems[0].0.clone());
        assert_eq!(missing.as_deref(), Some("name"));
        let unknown = serde_json::from_str::<Form>(r#"{"name":"a","nmae":"b"}"#)
            .err()
            .map(|e| parse_error(&e).problems[0].0.clone());
        assert_eq!(unknown.as_deref(), Some("nmae"));
        let broken = serde_json::from_str::<Form>("{")
            .err()
            .map(|e| parse_error(&e));
        assert!(broken.is_some_and(|e| e.problems.is_empty() && e.code == "bad_request"));
    }

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Money {
        initial_balance: rust_decimal::Decimal,
    }

    #[test]
    fn a_value_of_the_wrong_form_names_its_field() {
        let bad = parse::<Money>(br#"{"initial_balance": "NaN"}"#).err();
        let field = bad.as_ref().map(|e| e.problems[0].0.clone());
        assert_eq!(field.as_deref(), Some("initial_balance"));
        assert!(bad.is_some_and(|e| !e.problems[0].1.en.contains("line 1")));
        assert!(parse::<Money>(br#"{"initial_balance": "12.5"}"#).is_ok());
    }
}
