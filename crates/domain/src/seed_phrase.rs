//! Wallet seed phrases (BIP-39 mnemonics) found in free text, so they can be hidden.
//!
//! A seed phrase is the whole wallet: twelve to twenty-four words from a fixed list of 2,048.
//! Nothing else in nofxi looks for it, because it has no key shape (no digits, no prefix, no
//! long run): "abandon ability able about …" reads as words. So a run of twelve or more
//! consecutive words that are all on a BIP-39 list is taken for one. Ordinary sentences break
//! such a run within a few words ("the", "to", "is", "and", "of" are on no list). The Chinese
//! list is of single characters, which ordinary Chinese strings together, so only characters
//! standing apart (separated by spaces, as wallets show a mnemonic) count there.
//!
//! The word lists are the BIP-39 ones (`data/bip39_*.txt`, 2,048 lines each).

use std::collections::HashSet;
use std::sync::LazyLock;

/// The shortest mnemonic wallets generate (128 bits of entropy).
pub const MIN_WORDS: usize = 12;

/// What a seed phrase is replaced with: says what was there, shows none of it.
pub const HIDDEN: &str = "[seed phrase hidden]";

static WORDS: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    include_str!("../data/bip39_english.txt")
        .lines()
        .chain(include_str!("../data/bip39_chinese_simplified.txt").lines())
        .map(str::trim)
        .filter(|w| !w.is_empty())
        .collect()
});

/// Punctuation a word may carry at its ends in a sentence ("accident," "able.").
fn bare(token: &str) -> &str {
    token.trim_matches(|c: char| c.is_ascii_punctuation() || "，。、；：！？「」“”".contains(c))
}

fn on_a_list(token: &str) -> bool {
    let word = bare(token);
    !word.is_empty() && (WORDS.contains(word) || WORDS.contains(word.to_lowercase().as_str()))
}

/// `text` with every run of [`MIN_WORDS`] or more BIP-39 words replaced by [`HIDDEN`]; the
/// text itself (no copy) when there is none. One pass over the text.
pub fn hide_seed_phrases(text: &str) -> std::borrow::Cow<'_, str> {
    // (start, end) byte ranges of whitespace-separated tokens.
    let tokens: Vec<(usize, usize)> = text
        .split_whitespace()
        .map(|t| {
            let start = t.as_ptr() as usize - text.as_ptr() as usize;
            (start, start + t.len())
        })
        .collect();
    let mut runs: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let first = i;
        while i < tokens.len() && on_a_list(&text[tokens[i].0..tokens[i].1]) {
            i += 1;
        }
        if i - first >= MIN_WORDS {
            runs.push((tokens[first].0, tokens[i - 1].1));
        }
        i += 1;
    }
    if runs.is_empty() {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (start, end) in runs {
        out.push_str(&text[at..start]);
        out.push_str(HIDDEN);
        at = end;
    }
    out.push_str(&text[at..]);
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWELVE: &str =
        "abandon ability able about above absent absorb abstract absurd abuse access accident";

    #[test]
    fn the_lists_are_whole() {
        assert_eq!(
            include_str!("../data/bip39_english.txt").lines().count(),
            2048
        );
        assert_eq!(
            include_str!("../data/bip39_chinese_simplified.txt")
                .lines()
                .count(),
            2048
        );
    }

    #[test]
    fn a_mnemonic_in_a_sentence_is_hidden() {
        let text = format!("my seed phrase is {TWELVE}, is that safe to keep here?");
        let out = hide_seed_phrases(&text);
        assert_eq!(
            out,
            format!("my seed phrase is {HIDDEN} is that safe to keep here?")
        );
        for word in ["abandon", "absurd", "accident"] {
            assert!(!out.contains(word), "{out}");
        }
        let upper = TWELVE.to_uppercase();
        assert!(!hide_seed_phrases(&upper).contains("ABANDON"));
        let zh = "助记词： 的 一 是 在 不 了 有 和 人 这 中 大 谢谢";
        assert!(!hide_seed_phrases(zh).contains("的 一 是"), "{zh}");
    }

    #[test]
    fn ordinary_text_stays() {
        for text in [
            "create a trader named alpha on binance with 1000 usdt and start it",
            "what about the balance of my account after the last trade, is it above zero",
            "把 default 的 BTC 杠杆改成 3 倍，然后启动交易员 alpha",
            "我的账户是不是有问题了为什么一直启动不了啊",
            // Eleven list words are no mnemonic.
            "abandon ability able about above absent absorb abstract absurd abuse access",
        ] {
            assert_eq!(hide_seed_phrases(text), text);
        }
    }
}
