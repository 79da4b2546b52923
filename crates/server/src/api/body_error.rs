//! A JSON body that is not this route's, told as field problems (not axum's plain-text
//! rejection): a missing, unknown, repeated or mistyped field is named. serde's messages quote
//! the value they refused ("invalid type: integer `8675309424242`"), and a numeric OKX or
//! Bitget passphrase is a credential: a field named like one ([`is_secret`]) is told by the
//! type it takes only, and a refusal serde cannot place in a field (a flattened map of
//! credentials) repeats no value at all.

use nofxi_domain::CredentialField;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::error::{ApiError, Worded};

/// Words of field names that hold credentials beyond the exchange fields
/// ([`CredentialField`]): a model's `api_key`, a login's `password`, tokens.
const SECRET_WORDS: &[&str] = &[
    "key",
    "secret",
    "passphrase",
    "password",
    "token",
    "private",
];

/// `text` (one whole JSON value) as a `T`, or an error naming the field at fault.
pub(super) fn parse<T: DeserializeOwned>(text: &[u8]) -> Result<T, ApiError> {
    let mut de = serde_json::Deserializer::from_slice(text);
    serde_path_to_error::deserialize(&mut de).map_err(|e| {
        // The path names the field a bad value sits in ("initial_balance": "NaN"), which
        // serde's own message leaves out.
        let path = e.path().to_string();
        let path = if path == "." { String::new() } else { path };
        explain(&path, &e.into_inner(), text)
    })
}

/// Whether the field at `path` holds a credential: its last name is an exchange credential
/// field or carries a credential word.
pub(super) fn is_secret(path: &str) -> bool {
    let name = path.rsplit('.').next().unwrap_or(path);
    let name = name.split('[').next().unwrap_or(name).to_ascii_lowercase();
    name.parse::<CredentialField>().is_ok() || SECRET_WORDS.iter().any(|w| name.contains(w))
}

fn explain(path: &str, err: &serde_json::Error, text: &[u8]) -> ApiError {
    let detail = without_position(&err.to_string());
    if !err.is_data() {
        return ApiError::bad_request("http-bad-json", &[("detail", &detail)]);
    }
    if let Some((problem, name)) = named_field(&detail) {
        // The path ends at an unknown field already, at a missing one's parent.
        let field = if path == name || path.ends_with(&format!(".{name}")) {
            path.to_string()
        } else {
            joined(path, &name)
        };
        let worded = match problem {
            Named::Missing => Worded::new(
                format!("`{field}` is required: give it a value"),
                format!("缺少 `{field}`：请填写"),
            ),
            Named::Unknown => Worded::catalog("http-unknown-field", &[("field", &field)]),
            Named::Repeated => Worded::new(
                format!("`{field}` is given twice: keep one"),
                format!("`{field}` 出现了两次：只保留一个"),
            ),
        };
        return ApiError::field(field, worded);
    }
    if !path.is_empty() {
        let worded = if is_secret(path) {
            secret_of_wrong_form(path, expected(&detail))
        } else {
            bad_value(path, &detail)
        };
        return ApiError::field(path, worded);
    }
    // serde refused a value it cannot place (a flattened map such as an exchange account's
    // credentials): the credentials of the wrong type are found in the body itself.
    let misfits = misfit_secrets(text);
    let mut misfits = misfits.into_iter();
    match misfits.next() {
        Some(first) => {
            let worded = secret_of_wrong_form(&first, Some("a string"));
            misfits.fold(ApiError::field(&first, worded), |error, field| {
                let worded = secret_of_wrong_form(&field, Some("a string"));
                error.and_field(field, worded)
            })
        }
        None => ApiError::bad_request("http-bad-json", &[("detail", &without_values(&detail))]),
    }
}

enum Named {
    Missing,
    Unknown,
    Repeated,
}

/// serde_json says "missing field `name`": the field, not a value, is in the backticks.
fn named_field(detail: &str) -> Option<(Named, String)> {
    let (problem, rest) = [
        ("missing field `", Named::Missing),
        ("unknown field `", Named::Unknown),
        ("duplicate field `", Named::Repeated),
    ]
    .into_iter()
    .find_map(|(prefix, problem)| detail.strip_prefix(prefix).map(|rest| (problem, rest)))?;
    let name = rest.split('`').next()?;
    Some((problem, name.to_string()))
}

fn joined(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_string()
    } else {
        format!("{path}.{name}")
    }
}

/// serde's message without " at line 1 column 24".
fn without_position(detail: &str) -> String {
    detail
        .split(" at line ")
        .next()
        .unwrap_or(detail)
        .to_string()
}

/// What the field takes ("a string"), from a type or value refusal; never the value given.
fn expected(detail: &str) -> Option<&str> {
    let refusal = ["invalid type: ", "invalid value: ", "invalid length "]
        .iter()
        .any(|p| detail.starts_with(p));
    if !refusal {
        return None;
    }
    detail.split_once(", expected ").map(|(_, e)| e)
}

/// "invalid type: integer `8675309424242`, expected a string" as "invalid type: integer,
/// expected a string": the kind of value refused stays, the value goes.
fn without_values(detail: &str) -> String {
    for prefix in ["invalid type: ", "invalid value: "] {
        if let Some(rest) = detail.strip_prefix(prefix) {
            let (given, expected) = rest.split_once(", expected ").unwrap_or((rest, ""));
            let kind = given.split(['`', '"']).next().unwrap_or_default().trim();
            let expected = if expected.is_empty() {
                String::new()
            } else {
                format!(", expected {expected}")
            };
            return format!("{prefix}{kind}{expected}");
        }
    }
    detail.to_string()
}

/// A credential field holding something else than text: told without its value.
fn secret_of_wrong_form(field: &str, expected: Option<&str>) -> Worded {
    let expected = expected.unwrap_or("a string");
    Worded::new(
        format!(
            "`{field}` takes {expected}: send it as text in quotes (a number loses leading zeros and digits); the value sent is not repeated here"
        ),
        format!(
            "`{field}` 需要 {expected}：请用引号把它作为文本发送（数字会丢掉前导零和位数）；这里不会重复所发的值"
        ),
    )
}

/// A value of the wrong form in `field`, said without serde's line and column.
fn bad_value(field: &str, detail: &str) -> Worded {
    Worded::new(
        format!("`{field}` has a value of the wrong form ({detail}): correct it"),
        format!("`{field}` 的值格式不对（{detail}）：请改正"),
    )
}

/// The paths of credential-named fields, at any depth, whose value is neither text nor null.
fn misfit_secrets(text: &[u8]) -> Vec<String> {
    fn walk(value: &Value, path: &str, out: &mut Vec<String>) {
        match value {
            Value::Object(map) => {
                for (name, inner) in map {
                    let at = joined(path, name);
                    if is_secret(name) && !matches!(inner, Value::String(_) | Value::Null) {
                        out.push(at);
                    } else {
                        walk(inner, &at, out);
                    }
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    walk(item, &format!("{path}[{i}]"), out);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    // The body was read whole before; a parse failure here leaves nothing to name.
    if let Ok(value) = serde_json::from_slice::<Value>(text) {
        walk(&value, "", &mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Form {
        name: String,
        api_key: Option<String>,
    }

    fn problem(text: &str) -> Option<(String, String)> {
        let error = parse::<Form>(text.as_bytes()).err()?;
        let (field, worded) = error.problems.first()?.clone();
        Some((field, worded.en))
    }

    #[test]
    fn a_missing_unknown_or_repeated_field_is_named() {
        assert_eq!(problem("{}").map(|p| p.0).as_deref(), Some("name"));
        let unknown = problem(r#"{"name":"a","nmae":"b"}"#);
        assert_eq!(unknown.map(|p| p.0).as_deref(), Some("nmae"));
        let twice = problem(r#"{"name":"a","name":"b"}"#);
        assert!(twice.is_some_and(|(f, m)| f == "name" && m.contains("twice")));
    }

    #[test]
    fn a_wrong_type_is_named_by_its_field_and_a_secret_by_its_type_only() {
        let name = problem(r#"{"name":12345678}"#);
        assert!(name.is_some_and(|(f, m)| f == "name" && m.contains("12345678")));
        for value in ["8675309424242", "86753.094", "[8675309424242]", "true"] {
            let key = problem(&format!(r#"{{"name":"a","api_key":{value}}}"#));
            assert!(
                key.as_ref().is_some_and(|(f, m)| f == "api_key"
                    && m.contains("a string")
                    && !m.contains(value.trim_matches(['[', ']']))),
                "{value}: {key:?}"
            );
        }
    }

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Account {
        account_name: String,
        #[serde(flatten)]
        credentials: std::collections::BTreeMap<String, String>,
    }

    #[test]
    fn a_flattened_credential_is_found_in_the_body_and_no_value_is_repeated() {
        let body = br#"{"account_name":"o","passphrase":8675309424242,"secret_key":"s"}"#;
        let error = parse::<Account>(body).err();
        let shown = error.as_ref().map(|e| format!("{e:?}")).unwrap_or_default();
        assert!(!shown.contains("8675309424242"), "{shown}");
        let fields: Vec<String> = error
            .map(|e| e.problems.into_iter().map(|p| p.0).collect())
            .unwrap_or_default();
        assert_eq!(fields, ["passphrase"]);
        // Not a credential's name: no field to name, and still no value.
        let error = parse::<Account>(br#"{"account_name":"o","note":8675309424242}"#).err();
        let shown = error.map(|e| format!("{e:?}")).unwrap_or_default();
        assert!(
            !shown.contains("8675309424242") && shown.contains("integer"),
            "{shown}"
        );
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

    #[test]
    fn credential_names_are_secret() {
        for field in CredentialField::ALL {
            assert!(is_secret(field.as_str()), "{field}");
        }
        assert!(is_secret("password") && is_secret("items[0].api_key"));
        assert!(!is_secret("name") && !is_secret("initial_balance"));
    }
}
