//! What a probe of a model config or an exchange account found, as words a person reads: the
//! shape the chat's "test …", the web app's Test buttons and their HTTP routes share.

use serde::Serialize;

/// One probe's result.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Probed {
    /// The model config or account, by the name its owner gave it.
    pub name: String,
    /// It answered, and every check that judges passed (warnings may still be told).
    pub ok: bool,
    /// Why it failed, as the skill's error codes that choose the fix offered:
    /// `credentials_rejected` / `config_rejected` (new credentials or settings fix it),
    /// `trading_not_available` (an account type nofxi does not trade on), `test_failed`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// The result, or each problem as what happened / why / what now.
    pub text: String,
}

impl Probed {
    pub fn passed(name: impl Into<String>, text: String) -> Probed {
        Probed {
            name: name.into(),
            ok: true,
            code: None,
            text,
        }
    }

    pub fn failed(name: impl Into<String>, code: &str, text: String) -> Probed {
        Probed {
            name: name.into(),
            ok: false,
            code: Some(code.to_string()),
            text,
        }
    }
}
