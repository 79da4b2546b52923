//! How long a message may be. A chat message is a sentence or a pasted error, never a file:
//! past the cap a message is refused whole (nothing of it understood, executed or stored), and
//! the user is told the limit in their language. Clients that read lines themselves (the CLI)
//! keep only a little more than the cap, so a 10 MB line never sits in memory whole.

/// The longest message a turn reads, in bytes of UTF-8.
pub const MAX_MESSAGE_BYTES: usize = 16 * 1024;
