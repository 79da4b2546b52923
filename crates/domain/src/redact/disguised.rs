//! Echoes of a known credential in disguise: upper- or lower-cased, reversed, spread out with
//! spaces, dashes or zero-width characters, or cut into pieces ("key AKIA… … 4821"). An
//! echoing endpoint (or a proxy that pretty-prints the request) does all of these; exact
//! matching caught none.
//!
//! Text and value are both reduced to their ASCII letters and digits, lower-cased (the
//! skeleton); every run of [`GRAM`] characters the value has — forwards or backwards — that
//! also appears in the text's skeleton is covered, and each covered stretch of the original
//! text is replaced. One pass over the text and one over each value, with hashing: linear.

use std::collections::HashSet;

/// Shortest piece of a value taken for an echo of it. Eight random letters and digits do not
/// occur in ordinary text by chance; shorter pieces would match words.
const GRAM: usize = 8;

/// The byte spans of `text` that echo one of `values` in disguise, merged and in order.
pub(super) fn disguised_spans(text: &str, values: &[&str]) -> Vec<(usize, usize)> {
    let grams: HashSet<Vec<u8>> = values
        .iter()
        .map(|v| skeleton_of(v))
        .filter(|v| v.len() >= GRAM)
        .flat_map(|v| {
            let reversed: Vec<u8> = v.iter().rev().copied().collect();
            let forward: Vec<Vec<u8>> = v.windows(GRAM).map(<[u8]>::to_vec).collect();
            let backward: Vec<Vec<u8>> = reversed.windows(GRAM).map(<[u8]>::to_vec).collect();
            forward.into_iter().chain(backward)
        })
        .collect();
    if grams.is_empty() {
        return Vec::new();
    }
    // The text's skeleton, each character with the byte span it came from.
    let chars: Vec<(u8, usize, usize)> = text
        .char_indices()
        .filter(|(_, c)| c.is_ascii_alphanumeric())
        .map(|(i, c)| (c.to_ascii_lowercase() as u8, i, i + c.len_utf8()))
        .collect();
    let letters: Vec<u8> = chars.iter().map(|c| c.0).collect();
    let mut covered = vec![false; chars.len()];
    let mut reach = 0;
    for (start, gram) in letters.windows(GRAM).enumerate() {
        if grams.contains(gram) {
            // Mark only what earlier grams did not: each character is marked once.
            for flag in covered.iter_mut().take(start + GRAM).skip(reach.max(start)) {
                *flag = true;
            }
            reach = start + GRAM;
        }
    }
    let mut spans: Vec<(usize, usize)> = Vec::new();
    for (i, &(_, from, to)) in chars.iter().enumerate() {
        if !covered[i] {
            continue;
        }
        match spans.last_mut() {
            Some(last) if i > 0 && covered[i - 1] => last.1 = to,
            _ => spans.push((from, to)),
        }
    }
    spans
}

fn skeleton_of(value: &str) -> Vec<u8> {
    value
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase() as u8)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hidden(text: &str, value: &str) -> String {
        let mut out = text.to_string();
        for (from, to) in disguised_spans(text, &[value]).into_iter().rev() {
            out.replace_range(from..to, "#");
        }
        out
    }

    #[test]
    fn disguises_of_the_value_are_found() {
        let key = "AKIAZ7QLEAKTEST4821";
        for echo in [
            "akiaz7qleaktest4821",
            "1284TSETKAELQ7ZAIKA",
            "A K I A Z 7 Q L E A K T E S T 4 8 2 1",
            "AKIA\u{200b}Z7QL\u{200b}EAKT\u{200b}EST4821",
            "AKIA-Z7QL-EAKT-EST4-821",
        ] {
            assert_eq!(hidden(&format!("got {echo} here"), key), "got # here");
        }
        // Cut into two pieces, each long enough to be recognised.
        assert_eq!(
            hidden("first AKIAZ7QLE, then AKTEST4821.", key),
            "first #, then #."
        );
    }

    #[test]
    fn ordinary_text_and_short_values_are_left_alone() {
        let text = "Invalid API-key, IP, or permissions for action. (code -2015)";
        assert_eq!(hidden(text, "AKIAZ7QLEAKTEST4821"), text);
        assert_eq!(hidden("abc", "abcdefg"), "abc");
    }
}
