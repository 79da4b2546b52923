//! Tokens shaped like a credential, found without any label: what a key pasted bare into a
//! chat, or echoed by a venue or a provider, looks like.
//!
//! The shapes are those the supported exchanges and providers issue:
//! - a known prefix: `sk-` (OpenAI, DeepSeek, Qwen, Kimi; `sk-proj-`, `sk-ant-`), `xai-`,
//!   `gsk_`, `AIza` (Gemini), `bg_` (Bitget), `pk-`/`rk-`/`ak-`, and JWTs (`eyJ….….…`, MiniMax);
//! - `0x` and 40 or more hex digits: a wallet address or private key (Hyperliquid, Aster,
//!   Lighter);
//! - a UUID of any version but 7 (OKX's API key, KuCoin's secret are version 4). nofxi's own
//!   ids are version 7 and are shown to the user, so they stay;
//! - a run of letters and digits of key length that reads as random, not as a word or a
//!   number: 20 or more mixing letters and digits (Binance, Gate, Bybit's secret, hex keys),
//!   16 or more with enough changes between lower case, upper case and digits (Bybit's
//!   18-character key), or letters alone whose case changes like noise, not like CamelCase;
//! - base64 of 20 or more characters that reads as random.
//!
//! Numbers (prices, amounts, order ids, timestamps), dates, words, identifiers
//! (`scan_interval_minutes`), model names (`claude-3-5-sonnet-20241022`), trader names
//! (`btc-bot-2`), URLs and non-ASCII text are not keys. One pass over the text, and one over
//! each token: linear, with no backtracking.

use std::ops::Range;

/// Prefixes keys are issued with, and how many characters must follow for a key.
const PREFIXES: &[(&str, usize)] = &[
    ("sk-", 8),
    ("pk-", 8),
    ("rk-", 8),
    ("ak-", 8),
    ("xai-", 8),
    ("gsk_", 8),
    ("bg_", 16),
    ("AIza", 16),
];

/// Shorter runs are words, tickers or ids; every supported key is at least this long.
const MIN_KEY: usize = 16;
/// From this length, letters mixed with digits are taken for a key whatever their order.
const LONG_KEY: usize = 20;

/// The byte ranges of `text` shaped like a credential, in order, not overlapping.
pub fn key_spans(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if !is_blob_byte(bytes[i]) {
            i += 1;
            continue;
        }
        let start = i;
        if let Some(end) = jwt_end(bytes, start) {
            spans.push(start..end);
            i = end;
            continue;
        }
        while i < bytes.len() && is_blob_byte(bytes[i]) {
            i += 1;
        }
        blob_spans(text, start, i, &mut spans);
    }
    spans
}

/// Letters, digits and the characters keys are written with (`-`, `_`, base64's `+` and `/`).
fn is_blob_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'+' | b'/')
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_')
}

/// A JSON Web Token starting at `start` (`eyJ…` header, `.` payload, `.` signature): its end.
fn jwt_end(bytes: &[u8], start: usize) -> Option<usize> {
    if !bytes[start..].starts_with(b"eyJ") {
        return None;
    }
    let mut end = start;
    let mut dots = 0;
    while end < bytes.len() && (is_word_byte(bytes[end]) || bytes[end] == b'.') {
        dots += usize::from(bytes[end] == b'.');
        end += 1;
    }
    // A sentence's full stop after the token is not part of it.
    while end > start && bytes[end - 1] == b'.' {
        end -= 1;
        dots -= 1;
    }
    (dots >= 2 && end - start >= 32).then_some(end)
}

/// The key-shaped parts of one run of key characters `text[start..end]`.
fn blob_spans(text: &str, start: usize, end: usize, spans: &mut Vec<Range<usize>>) {
    let blob = &text[start..end];
    let bytes = text.as_bytes();
    if blob.bytes().any(|b| b == b'+' || b == b'/') && reads_random(blob, 3) {
        // base64 padding belongs to the value.
        let mut padded = end;
        while padded < bytes.len() && padded < end + 2 && bytes[padded] == b'=' {
            padded += 1;
        }
        spans.push(start..padded);
        return;
    }
    let mut i = start;
    while i < end {
        if !is_word_byte(bytes[i]) {
            i += 1;
            continue;
        }
        let from = i;
        while i < end && is_word_byte(bytes[i]) {
            i += 1;
        }
        if is_key_word(&text[from..i]) {
            spans.push(from..i);
        }
    }
}

/// Whether one word (letters, digits, `-`, `_`) is shaped like a key.
fn is_key_word(word: &str) -> bool {
    if word.len() < 8 {
        return false;
    }
    if PREFIXES
        .iter()
        .any(|(p, rest)| word.starts_with(p) && word.len() >= p.len() + rest)
    {
        return true;
    }
    if let Some(hex) = word.strip_prefix("0x")
        && hex.len() >= 40
        && hex.bytes().all(|b| b.is_ascii_hexdigit())
    {
        return true;
    }
    if let Some(version) = uuid_version(word) {
        return version != b'7';
    }
    if word.split(['-', '_']).any(is_key_segment) {
        return true;
    }
    // Random text that happens to hold a `-` or `_` (base64url): long pieces, noisy overall.
    // Model names (`Qwen3-235B-A22B-Instruct-2507`) are short pieces joined.
    let longest = word.split(['-', '_']).map(str::len).max().unwrap_or(0);
    longest >= 12 && reads_random(word, 4)
}

/// The version digit of a UUID (`8-4-4-4-12` hex digits), if `word` is one.
fn uuid_version(word: &str) -> Option<u8> {
    let groups: Vec<&str> = word.split('-').collect();
    let shaped = groups.len() == 5
        && groups
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(g, n)| g.len() == n && g.bytes().all(|b| b.is_ascii_hexdigit()));
    shaped.then(|| groups[2].as_bytes()[0])
}

#[derive(Clone, Copy, PartialEq)]
enum Class {
    Lower,
    Upper,
    Digit,
    Other,
}

fn class(b: u8) -> Class {
    match b {
        b'a'..=b'z' => Class::Lower,
        b'A'..=b'Z' => Class::Upper,
        b'0'..=b'9' => Class::Digit,
        _ => Class::Other,
    }
}

/// How often the class (lower, upper, digit) changes between neighbouring letters and digits.
fn changes(s: &str) -> usize {
    let classes: Vec<Class> = s
        .bytes()
        .map(class)
        .filter(|c| *c != Class::Other)
        .collect();
    classes.windows(2).filter(|w| w[0] != w[1]).count()
}

/// Letters and digits of `s` that change class at least once every `per` characters, with
/// at least two classes and key length: noise rather than words.
fn reads_random(s: &str, per: usize) -> bool {
    let skeleton = s.bytes().filter(u8::is_ascii_alphanumeric).count();
    skeleton >= LONG_KEY && changes(s) * per >= skeleton && changes(s) >= 3
}

/// Whether a run of letters and digits alone (no separators) is a key.
fn is_key_segment(s: &str) -> bool {
    let len = s.len();
    if len < MIN_KEY || !s.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return false;
    }
    let digits = s.bytes().filter(u8::is_ascii_digit).count();
    let letters = len - digits;
    if digits == len {
        // A number: an order id, a timestamp, an amount.
        return false;
    }
    if digits > 0 {
        // 16–19 characters: a compact date (`20241207T153000Z`) or a name with a number
        // (`mybinanceaccount2`) changes class once or twice; a random key many times.
        return len >= LONG_KEY || (letters >= 3 && changes(s) >= 3);
    }
    mixed_case_noise(s)
}

/// Letters only, in both cases: a key when its case changes like noise. CamelCase words
/// (`ConfirmationRequested`, `newClientOrderId`) start words with one capital and keep
/// their lower-case runs long and voiced; random letters have lone lower-case letters,
/// runs of capitals, long consonant clusters and few vowels.
fn mixed_case_noise(s: &str) -> bool {
    let bytes = s.as_bytes();
    let (lower, upper) = (
        bytes.iter().any(u8::is_ascii_lowercase),
        bytes.iter().any(u8::is_ascii_uppercase),
    );
    if !lower || !upper || changes(s) < 4 {
        return false;
    }
    // Runs of one class: (class, length).
    let mut runs: Vec<(Class, usize)> = Vec::new();
    for &b in bytes {
        match runs.last_mut() {
            Some((c, n)) if *c == class(b) => *n += 1,
            _ => runs.push((class(b), 1)),
        }
    }
    let odd_runs = runs
        .iter()
        .enumerate()
        .filter(|(i, (c, n))| {
            (*c == Class::Lower && *n == 1) || (*c == Class::Upper && *n >= 2 && i + 1 < runs.len())
        })
        .count();
    let is_vowel = |b: &u8| b"aeiouAEIOU".contains(b);
    let vowels = bytes.iter().filter(|b| is_vowel(b)).count();
    let mut cluster = 0;
    let mut longest_cluster = 0;
    for b in bytes {
        cluster = if is_vowel(b) { 0 } else { cluster + 1 };
        longest_cluster = longest_cluster.max(cluster);
    }
    odd_runs >= 2 || longest_cluster >= 5 || vowels * 5 < bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<&str> {
        key_spans(text).into_iter().map(|r| &text[r]).collect()
    }

    #[test]
    fn every_supported_format_is_found_bare() {
        for key in [
            // Binance key and secret: 64 letters and digits.
            "vmPUZE6mv9SD5VNHk4HlWFsOr6aKE2zvsw0MuIgwCIPy6utIco14y7Ju91duEh8A",
            // OKX: a version-4 UUID key and a 32-digit hex secret.
            "a3f1c2d4-5b6e-4f70-8a9b-0c1d2e3f4a5b",
            "8F3A2B1C4D5E6F708192A3B4C5D6E7F8",
            // Bybit: an 18-character key.
            "XbG7kL2mN9pQ4rS1tU",
            "kPqRsTuVwXyZaBcDeF",
            // Gate and KuCoin hex keys, Bitget's prefixed one.
            "0f1e2d3c4b5a69788796a5b4c3d2e1f0",
            "5f8a9b2c3d4e5f6a7b8c9d0e",
            "bg_0f1e2d3c4b5a69788796a5b4c3d2e1f0",
            // Hyperliquid / Aster: a private key and a wallet address.
            "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318",
            "0x8Ba1f109551bD432803012645Ac136ddd64DBA72",
            // Lighter's 80-digit hex private key.
            "0b4a3c6e5d8f7a9b0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d",
            // Model providers.
            "sk-8f3a2b1c4d5e6f708192a3b4c5d6e7f8",
            "sk-proj-Ab3_dE-fGh1jKlMnOpQrStUvWxYz0123456789",
            "sk-ant-api03-Zx_9-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AA",
            "AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY",
            "xai-Q1w2E3r4T5y6U7i8O9p0AsDfGhJkLzXcVbNm",
            "gsk_Q1w2E3r4T5y6U7i8O9p0AsDfGhJkLzXcVbNm",
            "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dBjftJeZ4CVPmB92K27uhbUJU1p1r_wW1gFWFOEjXk",
            // base64 with `+` and `/`.
            "kQ2vX8+Lm3/Zp9Rt4Wy7Bn1Hc6Jd0Fs5Ga==",
        ] {
            for text in [
                key.to_string(),
                format!("here: {key}."),
                format!("帮我看看{key}能不能用"),
                format!("{{\"k\":\"{key}\"}}"),
            ] {
                let spans = found(&text);
                assert_eq!(spans.len(), 1, "{key} in {text:?}: {spans:?}");
                assert!(
                    key.starts_with(spans[0]) || spans[0].starts_with(key),
                    "{key} in {text:?}: {spans:?}"
                );
                assert!(spans[0].len() >= key.len() - 2, "{key}: {spans:?}");
            }
        }
    }

    #[test]
    fn what_nofxi_and_its_users_write_is_no_key() {
        for text in [
            "delete trader 01a22c95-63b4-74db-bf56-f0ac51f79e7f",
            "trace 0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b",
            "btc-bot-2 and eth_scalper_v2 and mybinanceaccount2",
            "buy 0.5 BTC at 2500.5, order 8389765512345678901, at 1764000000000",
            "2026-12-07 10:30:00, 20241207T153000Z, 2026-12-07T10:00:00Z",
            "models/gemini-2.5-flash-preview-05-20 and claude-3-5-sonnet-20241022",
            "Qwen3-235B-A22B-Instruct-2507, Meta-Llama-3.1-70B-Instruct, moonshot-v1-auto",
            "scan_interval_minutes=5, is_cross_margin=true, risk-reward-ratio",
            "https://generativelanguage.googleapis.com/v1beta/openai/chat/completions",
            "https://127.0.0.1:37411/api/v3/order/test/BTCUSDT/123456789",
            "ConfirmationRequested, AwaitingConfirmation, newClientOrderId, HTTPSConnectionPool",
            "internationalization and antidisestablishmentarianism",
            "创建一个交易员 btc-bot，杠杆 10 倍，每 5 分钟扫描，ETHUSDT 1000PEPEUSDT",
            "sk-bot-2 and the key sk-…a1b2 and ••••",
        ] {
            assert!(found(text).is_empty(), "{text}: {:?}", found(text));
        }
    }

    #[test]
    fn long_and_odd_input_is_read_without_panicking() {
        // 16 KB (the message cap) of one key character, of alternating classes, of
        // separators, of JWT-like dots: each is one token or none.
        let n = 16 * 1024;
        assert!(key_spans(&"a".repeat(n)).is_empty());
        assert!(key_spans(&"-".repeat(n)).is_empty());
        assert!(key_spans(&"+/".repeat(n / 2)).is_empty());
        assert_eq!(key_spans(&"a1".repeat(n / 2)), vec![0..n]);
        assert_eq!(key_spans(&"eyJ.".repeat(n / 4)), vec![0..n - 1]);
    }
}
