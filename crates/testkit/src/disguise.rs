//! The forms an echoing server (or a proxy that pretty-prints a request) puts a credential in:
//! as sent, upper- and lower-cased, reversed, spaced out, joined with zero-width spaces, and cut
//! in two. A redactor that only matches the exact value lets all but the first through.

/// `value` in every disguised form, one after another.
pub fn disguises(value: &str) -> String {
    let reversed: String = value.chars().rev().collect();
    let spaced: Vec<String> = value.chars().map(String::from).collect();
    let half = value.len() / 2;
    let (head, tail) = value.split_at(value.floor_char_boundary(half));
    format!(
        "{value} | upper {} | lower {} | reversed {reversed} | spaced {} | joined {} | split {head} … {tail}",
        value.to_uppercase(),
        value.to_lowercase(),
        spaced.join(" "),
        spaced.join("\u{200b}"),
    )
}
