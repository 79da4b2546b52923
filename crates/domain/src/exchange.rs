//! An exchange account config: its type, name, switches, and which credentials it holds.
//!
//! Credentials are validated against the type's table (every required field present, none that
//! the type does not use, `api_key_index` in 0–255) but never stored here: the spec is the clear
//! part, the vault keeps the rest, and readers see [`Exchange::credentials`] flags only.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::credentials::{CredentialField, Credentials, ExchangeType};
use crate::resource::NAME_MAX;
use crate::validation::{Problem, Problems, ValidationError};

/// The non-secret fields of an exchange account.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ExchangeSpec {
    pub exchange_type: String,
    pub account_name: String,
    pub enabled: bool,
    pub testnet: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExchangePatch {
    pub exchange_type: Option<String>,
    pub account_name: Option<String>,
    pub enabled: Option<bool>,
    pub testnet: Option<bool>,
}

impl ExchangeSpec {
    pub fn normalized(mut self) -> Self {
        self.exchange_type = self.exchange_type.trim().to_ascii_lowercase();
        self.account_name = self.account_name.trim().to_string();
        self
    }

    pub fn apply(mut self, patch: ExchangePatch) -> Self {
        if let Some(v) = patch.exchange_type {
            self.exchange_type = v;
        }
        if let Some(v) = patch.account_name {
            self.account_name = v;
        }
        if let Some(v) = patch.enabled {
            self.enabled = v;
        }
        if let Some(v) = patch.testnet {
            self.testnet = v;
        }
        self.normalized()
    }

    pub fn exchange_type(&self) -> Option<ExchangeType> {
        self.exchange_type.parse().ok()
    }

    /// [`ExchangeSpec::validate`] of a new account, which must also be of a type offered for
    /// new accounts ([`ExchangeType::offered`]). For a type that is not, its credentials are
    /// not judged: what they lack matters only for a type the account cannot have.
    pub fn validate_new(&self, provided: &Credentials) -> Result<(), ValidationError> {
        let Some(not_offered) = self.offered_problem() else {
            return self.validate(provided, &BTreeSet::new());
        };
        let mut p = Problems::default();
        p.name("account_name", &self.account_name, NAME_MAX);
        p.push("exchange_type", not_offered);
        p.finish(())
    }

    /// The problem of a type nofxi knows but no longer offers for new accounts: `None` for an
    /// offered type, and for an unknown one (which [`ExchangeSpec::validate`] names).
    pub fn offered_problem(&self) -> Option<Problem> {
        let kind = self.exchange_type()?;
        (!kind.offered()).then(|| Problem::NotOffered {
            exchange_type: kind.as_str().into(),
            offered: ExchangeType::offered_types()
                .iter()
                .map(|t| t.as_str().to_string())
                .collect(),
        })
    }

    /// Every problem at once. `provided` are values given now; `stored` are fields the vault
    /// already holds for this account (empty on create).
    pub fn validate(
        &self,
        provided: &Credentials,
        stored: &BTreeSet<CredentialField>,
    ) -> Result<(), ValidationError> {
        let mut p = Problems::default();
        p.name("account_name", &self.account_name, NAME_MAX);
        let Some(kind) = self.exchange_type() else {
            p.push(
                "exchange_type",
                Problem::NotOneOf {
                    allowed: ExchangeType::names(),
                    got: self.exchange_type.clone(),
                },
            );
            return p.finish(());
        };
        let required = kind.required_credentials();
        for field in required {
            if provided.get(*field).is_none() && !stored.contains(field) {
                p.push(
                    field.as_str(),
                    Problem::MissingCredential {
                        exchange_type: kind.as_str().into(),
                    },
                );
            }
        }
        for (field, value) in provided.iter() {
            // Given with nothing in it: said so (a field this type does not use is said
            // below), never taken for "not given", which kept the stored value and said
            // "updated" over a change that was never made.
            if value.expose().trim().is_empty() {
                if required.contains(&field) {
                    p.push(
                        field.as_str(),
                        Problem::EmptyCredential {
                            issuer: kind.as_str().into(),
                        },
                    );
                }
                continue;
            }
            p.credential(field.as_str(), value);
            if kind.private_key_fields().contains(&field)
                && let Some(problem) = private_key_problem(kind, value.expose())
            {
                p.push(field.as_str(), problem);
            }
            if is_wallet_address(field)
                && matches!(
                    kind,
                    ExchangeType::Hyperliquid | ExchangeType::Aster | ExchangeType::Lighter
                )
                && !evm_address(value.expose())
            {
                p.push(
                    field.as_str(),
                    Problem::CredentialFormat {
                        expected: "a wallet address: 0x and 40 hexadecimal characters".into(),
                    },
                );
            }
        }
        for field in provided.fields() {
            if !required.contains(&field) {
                p.push(
                    field.as_str(),
                    Problem::UnusedCredential {
                        exchange_type: kind.as_str().into(),
                    },
                );
            }
        }
        if let Some(index) = provided.get(CredentialField::ApiKeyIndex)
            && !index.expose().trim().is_empty()
        {
            match index.expose().parse::<i64>() {
                Ok(n) => {
                    if let Some(problem) = crate::bounds::API_KEY_INDEX.problem(n.into()) {
                        p.push("api_key_index", problem);
                    }
                }
                Err(_) => p.push(
                    "api_key_index",
                    Problem::Malformed {
                        expected: "a whole number from 0 to 255".into(),
                        got: index.expose().to_string(),
                    },
                ),
            }
        }
        p.finish(())
    }
}

/// The fields that hold a wallet address (public, but a key pasted there is stored and shown).
fn is_wallet_address(field: CredentialField) -> bool {
    matches!(
        field,
        CredentialField::WalletAddr | CredentialField::User | CredentialField::Signer
    )
}

/// `0x` and 40 hex digits: an EVM address, as Hyperliquid, Aster and Lighter use.
fn evm_address(value: &str) -> bool {
    let value = value.trim();
    let hex = value
        .strip_prefix("0x")
        .or_else(|| value.strip_prefix("0X"));
    hex.is_some_and(|h| h.len() == 40 && h.chars().all(|c| c.is_ascii_hexdigit()))
}

/// A private key must be hex: an `sk-…` model key or an address in its place (an environment
/// variable meant for something else) was stored and failed only at the venue. Hyperliquid's
/// and Aster's are EVM wallet keys, 32 bytes.
fn private_key_problem(kind: ExchangeType, value: &str) -> Option<Problem> {
    let hex = value.trim();
    let hex = hex
        .strip_prefix("0x")
        .or_else(|| hex.strip_prefix("0X"))
        .unwrap_or(hex);
    let all_hex = !hex.is_empty() && hex.chars().all(|c| c.is_ascii_hexdigit());
    let evm = matches!(kind, ExchangeType::Hyperliquid | ExchangeType::Aster);
    match (all_hex, evm) {
        (true, true) if hex.len() == 64 => None,
        (true, false) => None,
        (_, true) => Some(Problem::CredentialFormat {
            expected: "a wallet private key: 64 hexadecimal characters, with or without 0x".into(),
        }),
        (false, false) => Some(Problem::CredentialFormat {
            expected: "a private key in hexadecimal (0-9, a-f), with or without 0x".into(),
        }),
    }
}

/// What a reader may know about one credential field.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct CredentialStatus {
    pub present: bool,
    /// `sk-…a1b2` style; `None` when absent.
    pub masked: Option<String>,
}

/// A stored exchange account as every reader sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Exchange {
    pub id: String,
    pub user_id: String,
    #[serde(flatten)]
    pub spec: ExchangeSpec,
    /// `has_api_key`, `has_secret_key`, … for every field the type needs.
    #[serde(flatten)]
    pub has: BTreeMap<String, bool>,
    /// Masked forms of the stored credentials, by field.
    pub credentials: BTreeMap<String, CredentialStatus>,
    /// True when every credential the type needs is stored.
    pub credentials_complete: bool,
    /// Where a paper account's prices come from (always `simulated` for other types, which
    /// trade on their own venue's prices). Kept beside the spec, not in it, as its own column.
    #[serde(default)]
    pub market: crate::MarketSource,
    pub created_at: i64,
    pub updated_at: i64,
    pub deleted_at: Option<i64>,
}

impl Exchange {
    /// Builds the reader's view from the spec and the vault's field list with masks.
    pub fn view(
        id: String,
        user_id: String,
        spec: ExchangeSpec,
        stored: &BTreeMap<CredentialField, String>,
        times: (i64, i64, Option<i64>),
    ) -> Exchange {
        let required = spec
            .exchange_type()
            .map(|t| t.required_credentials())
            .unwrap_or_default();
        let mut has = BTreeMap::new();
        let mut credentials = BTreeMap::new();
        for field in required {
            let masked = stored.get(field).cloned();
            has.insert(format!("has_{}", field.as_str()), masked.is_some());
            credentials.insert(
                field.as_str().to_string(),
                CredentialStatus {
                    present: masked.is_some(),
                    masked,
                },
            );
        }
        let credentials_complete = required.iter().all(|f| stored.contains_key(f));
        Exchange {
            id,
            user_id,
            spec,
            has,
            credentials,
            credentials_complete,
            market: crate::MarketSource::Simulated,
            created_at: times.0,
            updated_at: times.1,
            deleted_at: times.2,
        }
    }
}

impl Exchange {
    /// The view with its market source, as the store read it.
    pub fn with_market(mut self, market: crate::MarketSource) -> Exchange {
        self.market = market;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(t: &str) -> ExchangeSpec {
        ExchangeSpec {
            exchange_type: t.into(),
            account_name: "main".into(),
            enabled: true,
            testnet: false,
        }
        .normalized()
    }

    #[test]
    fn okx_with_only_a_key_names_both_missing_fields() {
        let given = Credentials::new().with(CredentialField::ApiKey, "K");
        let err = spec("okx").validate(&given, &BTreeSet::new()).unwrap_err();
        assert_eq!(err.fields(), vec!["secret_key", "passphrase"]);
    }

    #[test]
    fn an_empty_credential_is_said_empty_never_taken_for_not_given() {
        let stored: BTreeSet<_> = ExchangeType::Okx
            .required_credentials()
            .iter()
            .copied()
            .collect();
        for empty in ["", "   "] {
            let given = Credentials::new().with(CredentialField::Passphrase, empty);
            let err = spec("okx").validate(&given, &stored).unwrap_err();
            assert_eq!(err.fields(), vec!["passphrase"]);
            assert_eq!(
                err.problems[0].to_string(),
                "`passphrase` is empty: give the passphrase you set when creating the OKX API key"
            );
            assert!(err.problems[0].to_zh().contains("OKX"), "{}", err.to_zh());
        }
        // On a new account too, said once (not also "required").
        let given = Credentials::new()
            .with(CredentialField::ApiKey, "AKIAKEY0123456789")
            .with(CredentialField::SecretKey, "")
            .with(CredentialField::Passphrase, "p");
        let err = spec("okx").validate(&given, &BTreeSet::new()).unwrap_err();
        assert_eq!(err.fields(), vec!["secret_key"]);
        // Hyperliquid's empty key is said empty, not "not hex".
        let given = Credentials::new().with(CredentialField::ApiKey, "");
        let stored = [CredentialField::ApiKey, CredentialField::WalletAddr].into();
        let err = spec("hyperliquid").validate(&given, &stored).unwrap_err();
        assert!(
            err.to_string().contains("agent (API) wallet's private key"),
            "{err}"
        );
        // A field the type does not use is said unused, empty or not.
        let given = Credentials::new().with(CredentialField::Passphrase, "");
        let stored = [CredentialField::ApiKey, CredentialField::SecretKey].into();
        let err = spec("binance").validate(&given, &stored).unwrap_err();
        assert!(err.to_string().contains("not used by binance"), "{err}");
    }

    #[test]
    fn stored_credentials_count_on_update() {
        let stored: BTreeSet<_> = [CredentialField::ApiKey, CredentialField::SecretKey].into();
        assert!(
            spec("binance")
                .validate(&Credentials::new(), &stored)
                .is_ok()
        );
    }

    #[test]
    fn paper_needs_nothing_and_rejects_stray_keys() {
        assert!(
            spec("paper")
                .validate(&Credentials::new(), &BTreeSet::new())
                .is_ok()
        );
        let given = Credentials::new().with(CredentialField::ApiKey, "K");
        let err = spec("paper")
            .validate(&given, &BTreeSet::new())
            .unwrap_err();
        assert_eq!(err.fields(), vec!["api_key"]);
    }

    /// A model key pasted as a wallet address was stored and shown as `sk-…2345`.
    #[test]
    fn a_wallet_address_must_be_one() {
        let creds = |addr: &str| {
            Credentials::new()
                .with(
                    CredentialField::ApiKey,
                    "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318",
                )
                .with(CredentialField::WalletAddr, addr)
        };
        let good = creds("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed");
        assert!(
            spec("hyperliquid")
                .validate(&good, &BTreeSet::new())
                .is_ok()
        );
        let bad = creds("sk-WalletWrongAsdf12345");
        let err = spec("hyperliquid")
            .validate(&bad, &BTreeSet::new())
            .unwrap_err();
        assert_eq!(err.fields(), vec!["wallet_addr"]);
        assert!(!format!("{err:?}").contains("WalletWrong"));
    }

    #[test]
    fn lighter_index_must_be_0_to_255() {
        let base = Credentials::new()
            .with(
                CredentialField::WalletAddr,
                "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
            )
            .with(CredentialField::ApiKeyPrivateKey, "ab12cd");
        let ok = base.clone().with(CredentialField::ApiKeyIndex, "255");
        assert!(spec("lighter").validate(&ok, &BTreeSet::new()).is_ok());
        let bad = base.clone().with(CredentialField::ApiKeyIndex, "256");
        let err = spec("lighter")
            .validate(&bad, &BTreeSet::new())
            .unwrap_err();
        assert_eq!(err.fields(), vec!["api_key_index"]);
        let junk = base.with(CredentialField::ApiKeyIndex, "x");
        assert!(spec("lighter").validate(&junk, &BTreeSet::new()).is_err());
    }

    /// Gate, KuCoin, Aster and Lighter are known (accounts made earlier still validate on
    /// update) but no new account of theirs is made; the refusal names the types that trade.
    #[test]
    fn a_new_account_of_a_type_that_cannot_trade_is_refused() {
        let keys = Credentials::new()
            .with(CredentialField::ApiKey, "K")
            .with(CredentialField::SecretKey, "S");
        assert!(spec("gate").validate(&keys, &BTreeSet::new()).is_ok());
        for t in ["gate", "kucoin", "aster", "lighter"] {
            let err = spec(t).validate_new(&keys).unwrap_err();
            assert_eq!(err.fields(), vec!["exchange_type"], "{t}");
            let said = err.to_string();
            assert!(said.contains(&format!("cannot trade on {t}")), "{said}");
            assert!(
                said.contains("paper, binance, bybit, okx, bitget, hyperliquid"),
                "{said}"
            );
            assert!(err.to_zh().contains("不能在"), "{}", err.to_zh());
        }
        assert!(spec("binance").validate_new(&keys).is_ok());
        let mut blank = spec("kucoin");
        blank.account_name = " ".into();
        let err = blank.validate_new(&keys).unwrap_err();
        assert_eq!(err.fields(), vec!["account_name", "exchange_type"]);
        // An unknown type is still said as one, with every type it could be.
        let err = spec("ftx").validate_new(&keys).unwrap_err();
        assert_eq!(err.fields(), vec!["exchange_type"]);
    }

    #[test]
    fn unknown_type_and_blank_name_are_reported_together() {
        let mut s = spec("ftx");
        s.account_name = " ".into();
        let err = s
            .validate(&Credentials::new(), &BTreeSet::new())
            .unwrap_err();
        assert_eq!(err.fields(), vec!["account_name", "exchange_type"]);
    }

    #[test]
    fn view_flags_without_values() {
        let stored: BTreeMap<_, _> = [(CredentialField::ApiKey, "…a1b2".to_string())].into();
        let v = Exchange::view(
            "id".into(),
            "u".into(),
            spec("binance"),
            &stored,
            (1, 1, None),
        );
        assert_eq!(v.has.get("has_api_key"), Some(&true));
        assert_eq!(v.has.get("has_secret_key"), Some(&false));
        assert!(!v.credentials_complete);
    }

    proptest::proptest! {
        /// Arbitrary type names, account names and credential values never panic.
        #[test]
        fn validation_never_panics(t in "\\PC{0,12}", name in "\\PC{0,80}", v in "\\PC{0,8}") {
            let s = ExchangeSpec {
                exchange_type: t,
                account_name: name,
                enabled: true,
                testnet: false,
            }
            .normalized();
            let given = Credentials::new()
                .with(CredentialField::ApiKeyIndex, v.clone())
                .with(CredentialField::ApiKey, v);
            let _ = s.validate(&given, &BTreeSet::new());
        }
    }
}
