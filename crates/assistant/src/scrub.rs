//! Secret-shaped text, masked wherever it appears.
//!
//! The secret cache masks the values it was told about (credential slots). This catches the
//! rest: a key pasted into a message the rules did not read as a credential ("帮我加一个币安账户
//! api key AKIA… secret …" routed elsewhere), or a key that landed in a non-secret slot. It is
//! applied to everything persisted or shown — replies, events, conversation state, traces, the
//! prompt an assistant model is sent — so a misunderstanding can cost a question, never a leak.
//!
//! What counts as secret-shaped is the domain's one detector (`nofxi_domain::redact`): values
//! after a credential field (`{"api_key":"…"}`, `BYBIT_API_SECRET=…`), tokens shaped like the
//! keys every supported exchange and provider issues (with or without a prefix, a version-4
//! UUID, `0x` keys and addresses, random runs of key length), a wallet seed phrase, and what a
//! URL carries as credentials. The chat adds what its sentences say: the word after a
//! credential cue (api key, secret, passphrase, private key, token, 密钥, 私钥, 密码短语 …), when it
//! looks like a credential (ASCII, a digit, ≥ 8 chars) — or any word of 4+ chars after a
//! password/passphrase cue.
//!
//! nofxi's resource ids (UUID v7), names, numbers and the rest of a URL are left alone.

use std::cell::RefCell;
use std::sync::LazyLock;

use nofxi_domain::Secret;
use regex::{Captures, Regex};

static CUE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(
        r"(?i)(api[ _-]?key|apikey|secret(?:[ _-]?key)?|pass(?:phrase|word)|private[ _-]?key|access[ _-]?token|token|key|密码短语|助记词|密钥|私钥|秘钥|密码|口令)((?:\s+(?:of|on|for)\s+\S+)?\s*(?:[:：=]|is|to|as|是|为|改成|换成|改为|设为)?\s*)([A-Za-z0-9!@#$%^&*+_~][^\s,，;；。、)）]*)",
    )
    .ok()
});

/// `text` with every secret-shaped token replaced by its mask.
pub fn scrub(text: &str) -> String {
    scrub_found(text).0
}

/// [`scrub`], and each value it masked with its mask: a credential recognised once, by its
/// label or its shape, can then be recognised wherever it shows up again without either
/// ("passphrase: Tr4de!now" … later "is Tr4de!now right?").
pub fn scrub_found(text: &str) -> (String, Vec<(String, String)>) {
    let found = RefCell::new(Vec::new());
    let masked = |value: &str, shown: String| {
        found.borrow_mut().push((value.to_string(), shown.clone()));
        shown
    };
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
                    format!("{cue}{sep}{}", masked(value, mask(value)))
                } else {
                    c[0].to_string()
                }
            })
            .into_owned();
    }
    // Signing material (a secret, a passphrase) shows only that it is set, as everywhere.
    let out = nofxi_domain::redact::replace_credentials(
        &out,
        |value, signing| {
            let shown = if signing {
                Secret::new("").mask()
            } else {
                mask(value)
            };
            masked(value, shown)
        },
        |value| masked(value, mask(value)),
    );
    (out, found.into_inner())
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
    let password_like = ["pass", "密码", "口令", "助记词"]
        .iter()
        .any(|c| cue.contains(c));
    if password_like {
        return value.chars().count() >= 4 && !says_a_state(value);
    }
    let has_digit = value.chars().any(|c| c.is_ascii_digit());
    let mixed_case = value.chars().any(|c| c.is_ascii_uppercase())
        && value.chars().any(|c| c.is_ascii_lowercase());
    value.chars().count() >= 8 && (has_digit || mixed_case)
}

/// What an error message says a password is ("apikey/password is incorrect", Bitget's words
/// for a wrong passphrase): the state of the credential, never its value.
fn says_a_state(value: &str) -> bool {
    const STATES: &[&str] = &[
        "incorrect",
        "invalid",
        "wrong",
        "required",
        "missing",
        "empty",
        "expired",
        "correct",
        "valid",
    ];
    let word = value
        .trim_end_matches(|c: char| c.is_ascii_punctuation())
        .to_ascii_lowercase();
    STATES.contains(&word.as_str())
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

    /// An exchange's words about a password keep their meaning; a password said is masked.
    #[test]
    fn a_password_said_to_be_wrong_is_no_password() {
        let said = "40012 apikey/password is incorrect: the passphrase is not the one set";
        assert_eq!(scrub(said), said);
        assert!(!scrub("my password is sunshine").contains("sunshine"));
        assert!(!scrub("the passphrase is Incorrect9").contains("Incorrect9"));
    }

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
            "btc-bot-2 bought 0.5 BTC at 2500.5 on 2026-12-07 10:30, order 8389765512345678901",
            "trace 0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b of conversation 0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c",
            "模型 claude-3-5-sonnet-20241022 和 gemini-2.5-flash-preview-05-20 都可以",
            "{\"label\": \"main\", \"has_api_key\": true, \"max_tokens\": 700}",
        ] {
            assert_eq!(scrub(text), text);
        }
    }

    /// The probe's leaks: a JSON field kept 16 of 28 characters, an 18-character Bybit key
    /// and a UUID-shaped OKX key were kept whole, a Gemini key kept 17 of 39.
    #[test]
    fn keys_pasted_without_a_sentence_label_are_masked() {
        for (text, key) in [
            (
                r#"{"api_key":"Zx81-Qm2vLr7Tn4_Wp9Ks3Hd6Yb0"}"#,
                "Zx81-Qm2vLr7Tn4_Wp9Ks3Hd6Yb0",
            ),
            ("XbG7kL2mN9pQ4rS1tU", "XbG7kL2mN9pQ4rS1tU"),
            ("我的是 XbG7kL2mN9pQ4rS1tU，谢谢", "XbG7kL2mN9pQ4rS1tU"),
            (
                "a3f1c2d4-5b6e-4f70-8a9b-0c1d2e3f4a5b",
                "a3f1c2d4-5b6e-4f70-8a9b-0c1d2e3f4a5b",
            ),
            (
                "用这个AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY试试",
                "AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY",
            ),
            ("{\"passphrase\": 8675309424242}", "8675309424242"),
            ("密码短语是 !Tr4de#now", "!Tr4de#now"),
        ] {
            let out = scrub(text);
            let chars: Vec<char> = key.chars().collect();
            for piece in chars.windows(6) {
                let piece: String = piece.iter().collect();
                assert!(!out.contains(&piece), "{text} → {out} shows {piece}");
            }
        }
    }
}
