//! Whether the turn being answered is the web app's: its chat posts turns over HTTP (channel
//! `api`), the terminal's are `cli` and an MCP client's `mcp`. A reply that would send a web
//! user to a terminal (`nofxi portfolio add NAME`) has a variant in the catalogs, `<id>-web`,
//! that points at the page instead; [`crate::msg`] picks it while a web turn is answered.
//!
//! The audit trail records the web's chat as the chat (see `audit_channel`), so the tools
//! cannot tell it apart by their context's channel; the turn is marked here instead, for its
//! whole run, as the server marks a request's reply language.

use std::future::Future;

use nofxi_protocol::Channel;

tokio::task_local! {
    static WEB: bool;
}

/// Runs `turn` as a turn of `channel`'s client.
pub async fn within<F: Future>(channel: Channel, turn: F) -> F::Output {
    WEB.scope(channel == Channel::Api, turn).await
}

/// Whether a web turn is being answered (false outside any turn).
pub fn in_web_app() -> bool {
    WEB.try_with(|web| *web).unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn only_the_http_chat_is_the_web_app() {
        assert!(!in_web_app());
        assert!(within(Channel::Api, async { in_web_app() }).await);
        for other in [Channel::Cli, Channel::Chat, Channel::Mcp] {
            assert!(!within(other, async { in_web_app() }).await, "{other:?}");
        }
    }
}
