//! A credential held in memory: readable on purpose, never printable by accident.
//!
//! `Debug` and `Display` show a fixed placeholder, it has no `Serialize` impl, and the bytes
//! are zeroed when the value is dropped. The only way to the content is [`Secret::expose`],
//! which code that signs a request or calls a model uses and nothing else should.
//! [`Secret::mask`] gives the form a user may see to recognise a key (`sk-…a1b2`).

use std::fmt;

use zeroize::Zeroizing;

use crate::validation::{Problem, hidden_character};

/// A secret string (API key, private key, passphrase).
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(Zeroizing<String>);

/// Keys shorter than this are masked completely: showing 4 of 10 characters tells too much.
const MIN_LEN_FOR_PARTIAL_MASK: usize = 16;
/// A recognisable prefix such as `sk-` or `pk-` is kept only when it is this short.
const MAX_PREFIX_LEN: usize = 4;
const FULL_MASK: &str = "••••";

impl Secret {
    /// Wraps a value, trimming surrounding whitespace (a pasted key often carries a newline).
    pub fn new(value: impl Into<String>) -> Self {
        let mut raw: String = value.into();
        let trimmed = raw.trim();
        if trimmed.len() != raw.len() {
            let owned = trimmed.to_string();
            zeroize::Zeroize::zeroize(&mut raw);
            raw = owned;
        }
        Secret(Zeroizing::new(raw))
    }

    /// The content, for signing requests and calling models only.
    pub fn expose(&self) -> &str {
        &self.0
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// 32 bytes in hex, with or without `0x`: a wallet's private key (Hyperliquid, Aster,
    /// Lighter). Any characters of one narrow a search, so its mask shows none.
    fn looks_like_private_key(&self) -> bool {
        let hex = self.0.strip_prefix("0x").unwrap_or(&self.0);
        hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_hexdigit())
    }

    /// `sk-…a1b2`: a short prefix up to the first `-` (when there is one early on) and the last
    /// four characters; short secrets and private keys are masked completely.
    pub fn mask(&self) -> String {
        let chars: Vec<char> = self.0.chars().collect();
        if chars.len() < MIN_LEN_FOR_PARTIAL_MASK || self.looks_like_private_key() {
            return FULL_MASK.to_string();
        }
        let prefix: String = match chars.iter().position(|c| *c == '-') {
            Some(dash) if dash < MAX_PREFIX_LEN => chars[..=dash].iter().collect(),
            _ => String::new(),
        };
        let tail: String = chars[chars.len() - 4..].iter().collect();
        format!("{prefix}…{tail}")
    }
}

/// The longest credential value accepted, in characters.
pub const CREDENTIAL_MAX_CHARS: usize = 1024;

/// The quote marks `value` is wrapped in, if it is: `"AK…"`, `'AK…'`, `“AK…”`, `「AK…」`.
fn wrapping_quote(value: &str) -> Option<(char, char)> {
    let first = value.chars().next()?;
    let last = value.chars().next_back()?;
    let pairs = [
        ('"', '"'),
        ('\'', '\''),
        ('`', '`'),
        ('\u{201C}', '\u{201D}'),
        ('\u{2018}', '\u{2019}'),
        ('\u{300C}', '\u{300D}'),
    ];
    (value.chars().count() >= 2 && pairs.contains(&(first, last))).then_some((first, last))
}

/// Fields whose format allows a space inside: a passphrase is a password the user chose when
/// creating the API key (OKX, Bitget, KuCoin), and nothing in those venues' rules forbids one.
/// Keys, secrets, addresses and private keys are generated strings with no space in them.
const SPACES_ALLOWED: &[&str] = &["passphrase"];

/// What makes a credential value unusable, checked by every entry point (CLI flag, environment
/// variable, standard input, chat slot) through the store's validation. A space inside, a
/// control character or an invisible one (zero-width space, BOM, bidi mark) is what a copy from
/// a web page or a chat picks up: stored as-is, it fails at the venue as a wrong key, far from
/// where it was typed. Surrounding whitespace is not a problem: [`Secret::new`] trims it. The
/// problem names the character by code point and never carries the value.
pub fn credential_value_problem(field: &str, value: &str) -> Option<Problem> {
    let value = value.trim();
    // A value pasted whole into a field, 100,000 characters of it, is no credential: the
    // longest any venue or provider issues is a few hundred.
    if value.chars().count() > CREDENTIAL_MAX_CHARS {
        return Some(Problem::TooLong {
            max: CREDENTIAL_MAX_CHARS,
        });
    }
    if let Some((open, close)) = wrapping_quote(value) {
        return Some(Problem::QuotedCredential { open, close });
    }
    let bad = value.chars().find(|&c| {
        hidden_character(c) || c.is_whitespace() && !(c == ' ' && SPACES_ALLOWED.contains(&field))
    })?;
    let code_point = format!("U+{:04X}", u32::from(bad));
    let what = if bad == ' ' {
        format!("a space ({code_point})")
    } else if bad.is_whitespace() && !bad.is_control() {
        format!("the blank character {code_point}")
    } else if bad.is_control() {
        format!("the control character {code_point}")
    } else {
        format!("the invisible character {code_point}")
    };
    Some(Problem::CredentialCharacter { what })
}

impl From<String> for Secret {
    fn from(value: String) -> Self {
        Secret::new(value)
    }
}

impl From<&str> for Secret {
    fn from(value: &str) -> Self {
        Secret::new(value)
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(••••)")
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(FULL_MASK)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_and_display_never_show_content() {
        let s = Secret::new("sk-supersecretvalue1234");
        assert!(!format!("{s:?}").contains("supersecret"));
        assert!(!format!("{s}").contains("supersecret"));
        assert!(!format!("{s}").contains("1234"));
    }

    #[test]
    fn mask_keeps_short_prefix_and_last_four() {
        assert_eq!(Secret::new("sk-abcdefghijklmna1b2").mask(), "sk-…a1b2");
        assert_eq!(Secret::new("abcdefghijklmnopqrstuvwxyz").mask(), "…wxyz");
        // A dash far into the key is not a prefix.
        assert_eq!(Secret::new("abcdefgh-ijklmnopqrst").mask(), "…qrst");
    }

    #[test]
    fn short_secrets_are_fully_masked() {
        assert_eq!(Secret::new("abc").mask(), "••••");
        assert_eq!(Secret::new("sk-1234567890").mask(), "••••");
        assert_eq!(Secret::new("").mask(), "••••");
    }

    #[test]
    fn surrounding_whitespace_is_trimmed() {
        assert_eq!(Secret::new("  key\n").expose(), "key");
    }

    #[test]
    fn credentials_with_inner_blanks_or_invisible_characters_are_refused() {
        for (field, bad, said) in [
            ("api_key", "sk-with space inside", "a space (U+0020)"),
            (
                "api_key",
                "sk-abc\u{200b}def",
                "the invisible character U+200B",
            ),
            ("secret_key", "abc\tdef", "the control character U+0009"),
            (
                "api_key",
                "\u{feff}sk-abcdef",
                "the invisible character U+FEFF",
            ),
            ("api_key", "abc\u{3000}def", "the blank character U+3000"),
            (
                "passphrase",
                "my pass\u{200d}word",
                "the invisible character U+200D",
            ),
            ("passphrase", "two\nlines", "the control character U+000A"),
        ] {
            match credential_value_problem(field, bad) {
                Some(Problem::CredentialCharacter { what }) => assert_eq!(what, said, "{bad:?}"),
                other => panic!("{field} {bad:?}: {other:?}"),
            }
        }
        // A passphrase is a password the user chose: a space inside is allowed there only.
        assert_eq!(
            credential_value_problem("passphrase", "correct horse battery"),
            None
        );
        assert_eq!(credential_value_problem("api_key", "  sk-abcdef\n"), None);
        assert_eq!(
            credential_value_problem("api_key", "sk-abcdefghijklmnop"),
            None
        );
    }

    /// Both were stored as typed and failed at the venue as a wrong key.
    #[test]
    fn quoted_and_oversized_values_are_refused() {
        for quoted in [
            "\"AKIAKEY123\"",
            "'AKIAKEY123'",
            "“AKIAKEY123”",
            "「AKIAKEY123」",
        ] {
            assert!(
                matches!(
                    credential_value_problem("api_key", quoted),
                    Some(Problem::QuotedCredential { .. })
                ),
                "{quoted}"
            );
        }
        // A quote inside a passphrase the user chose is theirs.
        assert_eq!(credential_value_problem("passphrase", "it's\"mine"), None);
        assert_eq!(
            credential_value_problem("api_key", &"a".repeat(100_000)),
            Some(Problem::TooLong {
                max: CREDENTIAL_MAX_CHARS
            })
        );
    }

    proptest::proptest! {
        #[test]
        fn mask_never_reveals_more_than_eight_chars(s in "\\PC{0,64}") {
            let secret = Secret::new(s.clone());
            let masked = secret.mask();
            let shown = masked.chars().filter(|c| *c != '…' && *c != '•').count();
            proptest::prop_assert!(shown <= 8);
            if secret.expose().chars().count() >= MIN_LEN_FOR_PARTIAL_MASK {
                proptest::prop_assert!(shown * 2 <= secret.expose().chars().count());
            }
        }
    }
}
