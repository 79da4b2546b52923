//! Exchange types and the credential fields each one needs (REFERENCE §1).
//!
//! The table lives in [`ExchangeType::required_credentials`]; validation, the CLI's flags, the
//! vault's field names and the skills' secret slots all read it, so a new exchange is one match
//! arm here.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::secret::Secret;
use crate::validation::shown_input;

/// A credential field. Every one is secret and encrypted at rest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CredentialField {
    ApiKey,
    SecretKey,
    Passphrase,
    WalletAddr,
    User,
    Signer,
    PrivateKey,
    ApiKeyPrivateKey,
    ApiKeyIndex,
}

impl CredentialField {
    pub const ALL: [CredentialField; 9] = [
        CredentialField::ApiKey,
        CredentialField::SecretKey,
        CredentialField::Passphrase,
        CredentialField::WalletAddr,
        CredentialField::User,
        CredentialField::Signer,
        CredentialField::PrivateKey,
        CredentialField::ApiKeyPrivateKey,
        CredentialField::ApiKeyIndex,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            CredentialField::ApiKey => "api_key",
            CredentialField::SecretKey => "secret_key",
            CredentialField::Passphrase => "passphrase",
            CredentialField::WalletAddr => "wallet_addr",
            CredentialField::User => "user",
            CredentialField::Signer => "signer",
            CredentialField::PrivateKey => "private_key",
            CredentialField::ApiKeyPrivateKey => "api_key_private_key",
            CredentialField::ApiKeyIndex => "api_key_index",
        }
    }
}

impl CredentialField {
    /// Whether a partial mask (`…a1b2`) may be shown. Identifiers (API key, addresses) help a
    /// user tell accounts apart; signing material (secrets, passphrases, private keys) shows
    /// only that it is set, since even a few characters of it narrow a search.
    pub fn shows_partial_mask(self) -> bool {
        matches!(
            self,
            CredentialField::ApiKey
                | CredentialField::WalletAddr
                | CredentialField::User
                | CredentialField::Signer
                | CredentialField::ApiKeyIndex
        )
    }
}

/// The form of a credential a user may see, by the field it fills: an identifier (API key,
/// address) partially (`…a1b2`), signing material (secret, passphrase, private key) only as
/// set (`••••`). Fields that are no exchange credential (a model's API key) are identifiers.
/// A value shaped like a private key shows nothing in any field ([`Secret::mask`]); when the
/// exchange type is known, [`ExchangeType::shown_mask`] also knows which fields hold one.
pub fn shown_mask(field: &str, secret: &Secret) -> String {
    match field.parse::<CredentialField>() {
        Ok(f) if !f.shows_partial_mask() => Secret::new("").mask(),
        _ => secret.mask(),
    }
}

impl fmt::Display for CredentialField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for CredentialField {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        CredentialField::ALL
            .into_iter()
            .find(|f| f.as_str() == s)
            .ok_or_else(|| format!("unknown credential field \"{}\"", shown_input(s)))
    }
}

/// The exchange account types nofxi knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ExchangeType {
    Paper,
    Binance,
    Bybit,
    Gate,
    Okx,
    Bitget,
    Kucoin,
    Hyperliquid,
    Aster,
    Lighter,
}

impl ExchangeType {
    pub const ALL: [ExchangeType; 10] = [
        ExchangeType::Paper,
        ExchangeType::Binance,
        ExchangeType::Bybit,
        ExchangeType::Gate,
        ExchangeType::Okx,
        ExchangeType::Bitget,
        ExchangeType::Kucoin,
        ExchangeType::Hyperliquid,
        ExchangeType::Aster,
        ExchangeType::Lighter,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ExchangeType::Paper => "paper",
            ExchangeType::Binance => "binance",
            ExchangeType::Bybit => "bybit",
            ExchangeType::Gate => "gate",
            ExchangeType::Okx => "okx",
            ExchangeType::Bitget => "bitget",
            ExchangeType::Kucoin => "kucoin",
            ExchangeType::Hyperliquid => "hyperliquid",
            ExchangeType::Aster => "aster",
            ExchangeType::Lighter => "lighter",
        }
    }

    /// Every credential the type needs to sign requests; all of them are required.
    pub fn required_credentials(self) -> &'static [CredentialField] {
        use CredentialField as F;
        match self {
            ExchangeType::Paper => &[],
            ExchangeType::Binance | ExchangeType::Bybit | ExchangeType::Gate => {
                &[F::ApiKey, F::SecretKey]
            }
            ExchangeType::Okx | ExchangeType::Bitget | ExchangeType::Kucoin => {
                &[F::ApiKey, F::SecretKey, F::Passphrase]
            }
            ExchangeType::Hyperliquid => &[F::ApiKey, F::WalletAddr],
            ExchangeType::Aster => &[F::User, F::Signer, F::PrivateKey],
            ExchangeType::Lighter => &[F::WalletAddr, F::ApiKeyPrivateKey, F::ApiKeyIndex],
        }
    }

    /// The fields that hold a private key on this exchange, whatever the field is called:
    /// Hyperliquid's `api_key` is the agent wallet's private key (REFERENCE §1).
    pub fn private_key_fields(self) -> &'static [CredentialField] {
        use CredentialField as F;
        match self {
            ExchangeType::Hyperliquid => &[F::ApiKey],
            ExchangeType::Aster => &[F::PrivateKey],
            ExchangeType::Lighter => &[F::ApiKeyPrivateKey],
            _ => &[],
        }
    }

    /// [`shown_mask`] for a field of this exchange: a private key shows none of its characters.
    pub fn shown_mask(self, field: CredentialField, secret: &Secret) -> String {
        if self.private_key_fields().contains(&field) {
            return Secret::new("").mask();
        }
        shown_mask(field.as_str(), secret)
    }

    /// Whether the field named `field` holds a private key on this exchange. Readers of a
    /// mask stored earlier ask this too: an account whose type changed keeps its `api_key`,
    /// which on Hyperliquid is a private key.
    pub fn holds_private_key(self, field: &str) -> bool {
        field
            .parse::<CredentialField>()
            .is_ok_and(|f| self.private_key_fields().contains(&f))
    }

    /// Whether nofxi can trade on accounts of this type today (see [`ExchangeType::tradable`]);
    /// the others are not offered for new accounts ([`ExchangeType::offered`]), and a test or
    /// a trader on one made earlier is refused, saying that trading on it is not available.
    pub fn can_trade(self) -> bool {
        matches!(
            self,
            ExchangeType::Paper
                | ExchangeType::Binance
                | ExchangeType::Bybit
                | ExchangeType::Okx
                | ExchangeType::Bitget
                | ExchangeType::Hyperliquid
        )
    }

    /// Whether a new account of this type may be made (the one rule every place that makes
    /// one asks: the store, and so the CLI, the chat, the HTTP API and MCP; the CLI's, the
    /// web form's and the skill's lists of choices). Nothing is offered that cannot trade:
    /// accounts of the other types made by an older nofxi still load, list, update and
    /// delete, and say that trading on them is not available.
    pub fn offered(self) -> bool {
        self.can_trade()
    }

    /// The types offered for new accounts, in [`ExchangeType::ALL`]'s order.
    pub fn offered_types() -> Vec<ExchangeType> {
        ExchangeType::ALL
            .into_iter()
            .filter(|t| t.offered())
            .collect()
    }

    /// The types nofxi trades on, as a person reads them: `paper, binance and okx`.
    pub fn tradable() -> String {
        let names: Vec<&str> = ExchangeType::ALL
            .iter()
            .filter(|t| t.can_trade())
            .map(|t| t.as_str())
            .collect();
        match names.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
            _ => names.join(""),
        }
    }

    pub fn names() -> Vec<String> {
        ExchangeType::ALL
            .iter()
            .map(|t| t.as_str().to_string())
            .collect()
    }
}

impl fmt::Display for ExchangeType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ExchangeType {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        ExchangeType::ALL
            .into_iter()
            .find(|t| t.as_str().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("unknown exchange type \"{}\"", shown_input(s)))
    }
}

impl ExchangeType {
    /// The venue's name as it writes it (`OKX`, `Bitget`), for a sentence about its keys.
    pub fn display_name(self) -> &'static str {
        match self {
            ExchangeType::Paper => "paper",
            ExchangeType::Binance => "Binance",
            ExchangeType::Bybit => "Bybit",
            ExchangeType::Gate => "Gate",
            ExchangeType::Okx => "OKX",
            ExchangeType::Bitget => "Bitget",
            ExchangeType::Kucoin => "KuCoin",
            ExchangeType::Hyperliquid => "Hyperliquid",
            ExchangeType::Aster => "Aster",
            ExchangeType::Lighter => "Lighter",
        }
    }
}

/// What to give for the credential `field` that `issuer` (an exchange type, or a model
/// provider) issued, in English or Chinese: "the passphrase you set when creating the OKX API
/// key". What an empty value is refused with, so the fix names the thing to look up.
pub fn what_to_give(field: &str, issuer: &str, zh: bool) -> String {
    let kind = issuer.parse::<ExchangeType>().ok();
    let name = kind
        .map(ExchangeType::display_name)
        .or_else(|| crate::provider::provider(issuer).map(|p| p.display_name))
        .unwrap_or(issuer);
    let field = field.parse::<CredentialField>().ok();
    use CredentialField as F;
    match (field, kind, zh) {
        (Some(F::ApiKey), Some(ExchangeType::Hyperliquid), false) => {
            "the agent (API) wallet's private key, from the wallet that approved it on Hyperliquid"
                .into()
        }
        (Some(F::ApiKey), Some(ExchangeType::Hyperliquid), true) => {
            "在 Hyperliquid 上批准的 agent（API）钱包的私钥".into()
        }
        (Some(F::ApiKey), _, false) => format!("the API key shown when you created it on {name}"),
        (Some(F::ApiKey), _, true) => format!("创建 {name} API Key 时显示的 API Key"),
        (Some(F::SecretKey), _, false) => {
            format!("the secret key shown once when you created the {name} API key")
        }
        (Some(F::SecretKey), _, true) => format!("创建 {name} API Key 时只显示一次的 Secret Key"),
        (Some(F::Passphrase), _, false) => {
            format!("the passphrase you set when creating the {name} API key")
        }
        (Some(F::Passphrase), _, true) => {
            format!("创建 {name} API Key 时你设置的密码短语（Passphrase）")
        }
        (Some(F::WalletAddr | F::User), _, false) => {
            format!("your {name} main wallet's address (0x and 40 hexadecimal characters)")
        }
        (Some(F::WalletAddr | F::User), _, true) => {
            format!("你的 {name} 主钱包地址（0x 加 40 位十六进制字符）")
        }
        (Some(F::Signer), _, false) => format!("the {name} signer's address"),
        (Some(F::Signer), _, true) => format!("{name} 签名者（signer）的地址"),
        (Some(F::PrivateKey), _, false) => format!("the {name} signer's private key"),
        (Some(F::PrivateKey), _, true) => format!("{name} 签名者的私钥"),
        (Some(F::ApiKeyPrivateKey), _, false) => {
            format!("the private key of the {name} API key")
        }
        (Some(F::ApiKeyPrivateKey), _, true) => format!("{name} API Key 的私钥"),
        (Some(F::ApiKeyIndex), _, false) => {
            format!("the index of the {name} API key, a whole number from 0 to 255")
        }
        (Some(F::ApiKeyIndex), _, true) => format!("{name} API Key 的序号（0 到 255 的整数）"),
        (None, _, false) => {
            format!("the value {name} gave you, or leave the flag out to keep the stored one")
        }
        (None, _, true) => format!("{name} 给你的值，或不填以保留已保存的值"),
    }
}

/// Credential values by field, as given by a user or decrypted for signing.
/// `Debug` shows field names only, because [`Secret`] never prints.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Credentials(BTreeMap<CredentialField, Secret>);

impl Credentials {
    pub fn new() -> Self {
        Credentials::default()
    }

    pub fn set(&mut self, field: CredentialField, value: Secret) {
        self.0.insert(field, value);
    }

    pub fn with(mut self, field: CredentialField, value: impl Into<Secret>) -> Self {
        self.set(field, value.into());
        self
    }

    pub fn get(&self, field: CredentialField) -> Option<&Secret> {
        self.0.get(&field)
    }

    pub fn fields(&self) -> impl Iterator<Item = CredentialField> + '_ {
        self.0.keys().copied()
    }

    pub fn iter(&self) -> impl Iterator<Item = (CredentialField, &Secret)> {
        self.0.iter().map(|(f, s)| (*f, s))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn okx_family_needs_a_passphrase() {
        for t in [
            ExchangeType::Okx,
            ExchangeType::Bitget,
            ExchangeType::Kucoin,
        ] {
            assert!(
                t.required_credentials()
                    .contains(&CredentialField::Passphrase)
            );
        }
        assert!(ExchangeType::Paper.required_credentials().is_empty());
    }

    #[test]
    fn the_tradable_types_are_listed_as_read() {
        assert_eq!(
            ExchangeType::tradable(),
            "paper, binance, bybit, okx, bitget and hyperliquid"
        );
        assert!(!ExchangeType::Gate.can_trade());
    }

    #[test]
    fn only_the_types_that_trade_are_offered_for_new_accounts() {
        let offered: Vec<&str> = ExchangeType::offered_types()
            .iter()
            .map(|t| t.as_str())
            .collect();
        assert_eq!(
            offered,
            ["paper", "binance", "bybit", "okx", "bitget", "hyperliquid"]
        );
        for t in ExchangeType::ALL {
            assert_eq!(t.offered(), t.can_trade(), "{t}");
        }
    }

    #[test]
    fn names_round_trip() {
        for t in ExchangeType::ALL {
            assert_eq!(t.as_str().parse::<ExchangeType>().unwrap(), t);
        }
        for f in CredentialField::ALL {
            assert_eq!(f.as_str().parse::<CredentialField>().unwrap(), f);
        }
    }

    #[test]
    fn a_private_key_shows_none_of_its_characters() {
        // Hyperliquid's api_key is the agent wallet's private key (REFERENCE §1).
        let key = "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318";
        for hl in [key, &key[2..]] {
            let secret = Secret::new(hl);
            assert_eq!(shown_mask("api_key", &secret), "••••", "{hl}");
            assert_eq!(secret.mask(), "••••", "{hl}");
            assert_eq!(
                ExchangeType::Hyperliquid.shown_mask(CredentialField::ApiKey, &secret),
                "••••"
            );
        }
        // An address (40 hex digits) and a Binance API key still show their tail.
        let addr = Secret::new("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed");
        assert_eq!(shown_mask("wallet_addr", &addr), "…eAed");
        let binance =
            Secret::new("vmPUZE6mv9SD5VNHk4HlWFsOr6aKE2zvsw0MuIgwCIPy6utIco14y7Ju91duEh8A");
        assert_eq!(
            ExchangeType::Binance.shown_mask(CredentialField::ApiKey, &binance),
            "…Eh8A"
        );
    }

    #[test]
    fn debug_of_credentials_shows_no_values() {
        let c = Credentials::new().with(CredentialField::ApiKey, "my-very-secret-key-123");
        assert!(!format!("{c:?}").contains("very-secret"));
    }
}
