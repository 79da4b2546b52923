//! The credentials a chat request gives an exchange account, sorted by what its type uses.
//! A passphrase said for a Binance account is left out and said so, rather than failing the
//! whole request over a field the account never reads.

use nofxi_domain::{CredentialField, Credentials, ExchangeType, Secret};
use nofxi_skills::Lang;
use serde_json::{Map, Value};

/// The credential slots of `args`, all of them when the type is unknown (validation names
/// the type problem then), else only those `kind` uses; and the names of the ones left out.
pub(super) fn credentials_for(
    args: &Map<String, Value>,
    kind: Option<ExchangeType>,
) -> (Credentials, Vec<&'static str>) {
    let mut kept = Credentials::new();
    let mut left_out = Vec::new();
    for field in CredentialField::ALL {
        let Some(value) = args.get(field.as_str()).and_then(Value::as_str) else {
            continue;
        };
        if kind.is_some_and(|k| !k.required_credentials().contains(&field)) {
            left_out.push(field.as_str());
            continue;
        }
        kept.set(field, Secret::new(value.to_string()));
    }
    (kept, left_out)
}

/// "binance accounts do not use passphrase; left out."
pub(super) fn left_out_note(lang: Lang, kind: &str, left_out: &[&str]) -> Option<String> {
    if left_out.is_empty() {
        return None;
    }
    let fields = left_out.join(", ");
    Some(crate::msg(
        lang,
        "credentials-left-out",
        &[("kind", kind), ("fields", &fields)],
    ))
}
