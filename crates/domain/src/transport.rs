//! Why a request got no HTTP answer, in the classes a user can act on: an invalid URL (nothing
//! was sent), a host name that does not resolve, a refused connection, a failed TLS handshake,
//! no answer in time.
//!
//! One rule for every client (model providers, exchanges): HTTP clients report all of these as
//! "error sending request", and the cause lies further down the error's source chain, so the
//! chain is read here, by its I/O error kinds and its words. No IO happens in this module; it
//! only reads an error value.

use std::error::Error as StdError;
use std::io::ErrorKind as Io;

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TransportCause {
    /// The URL could not be used at all: nothing was sent.
    InvalidUrl,
    /// The host name did not resolve.
    Dns,
    /// Nothing listens at that address and port.
    ConnectionRefused,
    /// The TLS handshake failed (certificate, protocol, https to a plain-http port).
    Tls,
    /// No answer in time.
    Timeout,
    /// Any other failure to connect or to read the answer.
    Other,
}

/// The words of a source chain that name each cause (lower case).
const DNS_WORDS: [&str; 6] = [
    "dns error",
    "failed to lookup address",
    "name or service not known",
    "no such host",
    "nodename nor servname",
    "temporary failure in name resolution",
];
const TLS_WORDS: [&str; 6] = [
    "tls",
    "ssl",
    "certificate",
    "handshake",
    "corrupt message",
    "invalidcontenttype",
];

/// An error's source chain as one text (each piece once: wrappers repeat their cause's text)
/// and the I/O error kinds found in it.
pub fn source_chain(err: &(dyn StdError + 'static)) -> (String, Vec<Io>) {
    let mut parts: Vec<String> = Vec::new();
    let mut kinds = Vec::new();
    let mut source: Option<&(dyn StdError + 'static)> = Some(err);
    while let Some(e) = source {
        if let Some(io) = e.downcast_ref::<std::io::Error>() {
            kinds.push(io.kind());
        }
        let text = e.to_string();
        if !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
        source = e.source();
    }
    (parts.join(": "), kinds)
}

impl TransportCause {
    /// The cause of a transport error whose source chain reads `chain` with the I/O kinds
    /// `kinds`. `timed_out` and `invalid_request` are what the HTTP client itself knows
    /// (reqwest's `is_timeout()` and `is_builder()`).
    pub fn classify(chain: &str, kinds: &[Io], timed_out: bool, invalid_request: bool) -> Self {
        let lower = chain.to_lowercase();
        let has = |words: &[&str]| words.iter().any(|w| lower.contains(w));
        if invalid_request {
            // Checked first: a URL the client cannot build never reaches a socket.
            TransportCause::InvalidUrl
        } else if timed_out || kinds.contains(&Io::TimedOut) {
            TransportCause::Timeout
        } else if has(&DNS_WORDS) {
            TransportCause::Dns
        } else if kinds.contains(&Io::ConnectionRefused) || has(&["connection refused"]) {
            TransportCause::ConnectionRefused
        } else if has(&TLS_WORDS) {
            TransportCause::Tls
        } else {
            TransportCause::Other
        }
    }

    /// The class as a few words: `connection refused`.
    pub fn as_str(self) -> &'static str {
        match self {
            TransportCause::InvalidUrl => "invalid URL (nothing was sent)",
            TransportCause::Dns => "the host name does not resolve (DNS)",
            TransportCause::ConnectionRefused => "connection refused",
            TransportCause::Tls => "TLS handshake failed",
            TransportCause::Timeout => "no answer in time",
            TransportCause::Other => "network error",
        }
    }

    /// What to do about it.
    pub fn advice(self) -> &'static str {
        match self {
            TransportCause::InvalidUrl => "correct the URL (scheme, host, port)",
            TransportCause::Dns => "check the host name and the network's DNS",
            TransportCause::ConnectionRefused => {
                "check the port and that the server runs (or the proxy is up)"
            }
            TransportCause::Tls => {
                "check the scheme (https or http) and port, and the server's certificate"
            }
            TransportCause::Timeout => "check the network or a proxy, then try again",
            TransportCause::Other => "check the URL and the network, then try again",
        }
    }
}

impl std::fmt::Display for TransportCause {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// `url` as it may be shown: its scheme, host, port and path, without user info, query or
/// fragment (a user may have pasted a credential into any of them).
pub fn shown_url(url: &str) -> String {
    let url = url.trim();
    let cut = url.find(['?', '#']).unwrap_or(url.len());
    let url = &url[..cut];
    match url.split_once("://") {
        Some((scheme, rest)) => {
            let authority_end = rest.find('/').unwrap_or(rest.len());
            let (authority, path) = rest.split_at(authority_end);
            let host = authority.rsplit('@').next().unwrap_or(authority);
            format!("{scheme}://{host}{path}")
        }
        None => crate::redact::redact(url, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_cause_is_read_from_its_words_or_kind() {
        let c = |chain: &str, kinds: &[Io]| TransportCause::classify(chain, kinds, false, false);
        assert_eq!(
            c(
                "error sending request: dns error: failed to lookup address",
                &[]
            ),
            TransportCause::Dns
        );
        assert_eq!(
            c(
                "error sending request: tcp connect error",
                &[Io::ConnectionRefused]
            ),
            TransportCause::ConnectionRefused
        );
        assert_eq!(
            c("error sending request: invalid peer certificate", &[]),
            TransportCause::Tls
        );
        assert_eq!(
            c("error sending request", &[Io::TimedOut]),
            TransportCause::Timeout
        );
        assert_eq!(c("error sending request", &[]), TransportCause::Other);
        assert_eq!(
            TransportCause::classify("builder error", &[], false, true),
            TransportCause::InvalidUrl
        );
    }

    #[test]
    fn a_shown_url_keeps_no_credential() {
        assert_eq!(
            shown_url("https://user:pw@proxy.example:8443/fapi?key=abc#x"),
            "https://proxy.example:8443/fapi"
        );
        assert_eq!(shown_url("http://127.0.0.1:9"), "http://127.0.0.1:9");
    }
}
