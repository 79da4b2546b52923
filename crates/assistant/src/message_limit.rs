//! How long a message may be. A chat message is a sentence or a pasted error, never a file:
//! past the cap a message is refused whole (nothing of it understood, executed or stored), and
//! the user is told the limit in their language. Clients that read lines themselves (the CLI)
//! keep only a little more than the cap, so a 10 MB line never sits in memory whole.

/// The longest message a turn reads, in bytes of UTF-8.
pub const MAX_MESSAGE_BYTES: usize = 16 * 1024;

use nofxi_skills::Lang;

/// Whether `message` is over the cap.
pub fn over_cap(message: &str) -> bool {
    message.len() > MAX_MESSAGE_BYTES
}

/// The language of an over-long message, told from its first few KB only (reading all of a
/// 10 MB line to pick a language is the cost the cap is there to avoid).
pub fn lang_of(message: &str) -> Lang {
    let head = &message[..message.floor_char_boundary(4096)];
    Lang::detect(head)
}

/// What an over-long message is answered with, in the user's language.
pub fn too_long(lang: Lang, bytes: usize) -> String {
    let kb = bytes.div_ceil(1024);
    let cap = MAX_MESSAGE_BYTES / 1024;
    crate::msg(
        lang,
        "message-too-long",
        &[("kb", &kb.to_string()), ("cap", &cap.to_string())],
    )
}

/// What the trace and the recent turns keep of an over-long message: its size, none of it.
pub fn stored_note(bytes: usize) -> String {
    format!("[a message of {bytes} bytes, over the {MAX_MESSAGE_BYTES}-byte limit, not read]")
}
