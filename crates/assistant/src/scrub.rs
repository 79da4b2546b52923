//! Secret-shaped text, masked wherever it appears.
//!
//! The secret cache masks the values it was told about (credential slots). This catches the
//! rest: a key pasted into a message the rules did not read as a credential ("帮我加一个币安账户
//! api key AKIA… secret …" routed elsewhere), or a key that landed in a non-secret slot. It is
//! applied to everything persisted or shown — replies, events, conversation state, traces — so a
//! misunderstanding can cost a question, never a leak.
//!
//! What counts as secret-shaped:
//! - the word after a credential cue (api key, secret, passphrase, private key, token, 密钥,
//!   私钥, 密码 …), when it looks like a credential (ASCII, a digit, ≥ 8 chars) — or any word
//!   of 4+ chars after a password/passphrase cue;
//! - `sk-…` and `ak-…` style keys;
//! - a run of 20+ letters/digits with both letters and digits (API keys, private keys);
//! - a wallet seed phrase: 12+ consecutive BIP-39 words (`nofxi_domain::seed_phrase`);
//! - what a URL carries as credentials: `user:password@`, `?token=…` (the domain's rule).
//!
//! Resource ids (UUIDs contain hyphens) and the rest of a URL are left alone.

use std::sync::LazyLock;

use nofxi_domain::Secret;
use regex::{Captures, Regex};

static CUE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(
        r"(?i)(api[ _-]?key|apikey|secret(?:[ _-]?key)?|pass(?:phrase|word)|private[ _-]?key|access[ _-]?token|token|key|密钥|私钥|秘钥|密码|口令)((?:\s+(?:of|on|for)\s+\S+)?\s*(?:[:：=]|is|to|as|是|为|改成|换成|改为|设为)?\s*)([A-Za-z0-9][^\s,，;；。、)）]*)",
    )
    .ok()
});

/// `sk-…` (model providers) and `ak-…` (access keys) with 8+ characters after the prefix.
static SK_KEY: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"\b(?:sk|ak)-[A-Za-z0-9_\-]{8,}").ok());

/// Key-like runs: letters and digits (base64's `+/` and `=` padding allowed), no `_`, so
/// identifiers such as `scan_interval_minutes=5` in a reply are not mistaken for keys.
static LONG_TOKEN: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"\b[A-Za-z0-9+/]{20,}={0,2}").ok());

/// `text` with every secret-shaped token replaced by its mask.
pub fn scrub(text: &str) -> String {
    let mut out = nofxi_domain::hide_seed_phrases(text).into_owned();
    out = nofxi_domain::redact::hide_url_credentials(&out);
    if let Some(re) = CUE.as_ref() {
        out = re
            .replace_all(&out, |c: &Captures| {
                let (cue, sep, value) = (&c[1], &c[2], &c[3]);
                // "secret key to X", "passphrase of ok: X": a value the words hand over is
                // the secret whatever it looks like.
                // An ordinary word is no secret handed over: "the key is invalid", "no new key
                // is needed" (a diagnosis must stay readable).
                let handed_over =
                    !sep.trim().is_empty() && value.chars().count() >= 6 && !is_plain_word(value);
                if (handed_over && !is_mask(value)) || looks_secret(cue, value) {
                    format!("{cue}{sep}{}", mask(value))
                } else {
                    c[0].to_string()
                }
            })
            .into_owned();
    }
    if let Some(re) = SK_KEY.as_ref() {
        out = re
            .replace_all(&out, |c: &Captures| mask(&c[0]))
            .into_owned();
    }
    if let Some(re) = LONG_TOKEN.as_ref() {
        out = re
            .replace_all(&out, |c: &Captures| {
                let token = &c[0];
                let has_digit = token.chars().any(|ch| ch.is_ascii_digit());
                let has_letter = token.chars().any(|ch| ch.is_ascii_alphabetic());
                if has_digit && has_letter && !is_mask(token) {
                    mask(token)
                } else {
                    token.to_string()
                }
            })
            .into_owned();
    }
    out
}

/// Whether `text` speaks of a credential (api key, secret, 密钥 …): it may hold one that no
/// rule read, so a client keeping text of its own (a line history) leaves it out.
pub fn mentions_credential(text: &str) -> bool {
    crate::secret_message::names_credential(text)
}

fn looks_secret(cue: &str, value: &str) -> bool {
    if is_mask(value) || value.contains("://") {
        return false;
    }
    let cue = cue.to_lowercase();
    let password_like = ["pass", "密码", "口令"].iter().any(|c| cue.contains(c));
    if password_like {
        return value.chars().count() >= 4;
    }
    let has_digit = value.chars().any(|c| c.is_ascii_digit());
    let mixed_case = value.chars().any(|c| c.is_ascii_uppercase())
        && value.chars().any(|c| c.is_ascii_lowercase());
    value.chars().count() >= 8 && (has_digit || mixed_case)
}

/// Lower-case letters only and shorter than a generated secret: a word of the language.
fn is_plain_word(value: &str) -> bool {
    let word = value.trim_end_matches(|c: char| c.is_ascii_punctuation());
    word.chars().count() < 13 && word.chars().all(|c| c.is_ascii_lowercase())
}

/// Masks already produced (`sk-…a1b2`, `••••`) are not masked again.
fn is_mask(text: &str) -> bool {
    text.contains('…') || text.contains('•')
}

fn mask(value: &str) -> String {
    Secret::new(value.to_string()).mask()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_after_cues_are_masked_in_both_languages() {
        let out =
            scrub("帮我加一个币安账户 api key AKIAZ7QLEAKTEST4821 secret SKsecretLEAK93kd02mfq7");
        assert!(
            !out.contains("Z7QLEAKTEST") && !out.contains("secretLEAK93"),
            "{out}"
        );
        assert!(out.starts_with("帮我加一个币安账户 api key "), "{out}");
        for said in [
            "change ok secret key to zxcvbnmlkjhgf",
            "set the api key of ok to zxcvbnmlkjhgf",
            "把 ok 的 passphrase 改成 zxcvbnmlkjhgf",
        ] {
            assert!(!scrub(said).contains("zxcvbnmlkjhgf"), "{said}");
        }
        let out = scrub("密钥是 Abc123xyz789QQ，密码：hunter");
        assert!(
            !out.contains("Abc123xyz789QQ") && !out.contains("hunter"),
            "{out}"
        );
    }

    #[test]
    fn bare_keys_are_masked() {
        let out = scrub("use sk-leakmodel-5566778899 and 0123456789abcdefABCDEF0123");
        assert!(
            !out.contains("leakmodel-5566") && !out.contains("abcdefABCDEF"),
            "{out}"
        );
        // A pasted access key the rules took for a name: "I found no exchange called …".
        let out = scrub("I found no exchange called \"ak-NEWKEY99999\".");
        assert!(!out.contains("NEWKEY999"), "{out}");
    }

    #[test]
    fn ordinary_text_ids_and_urls_are_left_alone() {
        for text in [
            "how do I rotate my api key safely?",
            "delete trader 01a22c95-63b4-74db-bf56-f0ac51f79e7f",
            "base url https://api.deepseek.com/v1 model deepseek-chat",
            "创建一个交易员 btc-bot，杠杆 10 倍，每 5 分钟扫描",
            "the secret is out",
            "the key is invalid, or the IP is not whitelisted. No new key is needed.",
            "api key sk-…a1b2 is stored",
            "请提供 API Key（Hyperliquid 为 agent 钱包私钥）。它会加密保存，不会再显示。",
            "Give the API key (for Hyperliquid, the agent wallet's private key).",
            "其余使用默认值（initial_balance=1000, scan_interval_minutes=5, is_cross_margin=true）",
        ] {
            assert_eq!(scrub(text), text);
        }
    }
}
