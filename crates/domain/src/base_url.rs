//! The rule for a model's custom base URL: https, except to the machine itself.
//!
//! An API key sent over plain http to another host can be read by anyone on the path, so nofxi
//! refuses it; a local model (Ollama on 127.0.0.1) never leaves the machine, so http is fine
//! there. A trailing `#` is kept: it means "use this URL exactly, append no path" (REFERENCE §1).
//!
//! Credentials never ride in the URL: a `user:password@` or a query string (`?api_key=…`) would
//! be stored and shown in clear wherever the URL is (reads, errors, chat), and nofxi appends the
//! API path after the query, so the request goes to the wrong place. The key goes in its own
//! encrypted field (`--api-key`). The refusal does not repeat the URL, which holds the secret.

use crate::validation::Problem;

/// Checks `url` and returns the problem, if any. The domain crate does no IO and has no URL
/// parser, so this reads just enough of the URL: scheme and host.
pub fn check_base_url(url: &str) -> Option<Problem> {
    let url = url.trim();
    // Anything shown back of a refused URL is redacted first: it may hold a key.
    let shown = crate::redact::redact(url, None);
    let malformed = || Problem::Malformed {
        expected: "a URL like https://api.example.com/v1".into(),
        got: shown.clone(),
    };
    // What follows a blank may be a key ("…/v1 token=…"): said, never repeated.
    if url.contains(char::is_whitespace) {
        return Some(Problem::Malformed {
            expected: "a URL without spaces".into(),
            got: "(not repeated: what follows the space may be a key)".into(),
        });
    }
    if carries_credentials(url) {
        return Some(Problem::CredentialsInUrl);
    }
    let Some((scheme, rest)) = url.split_once("://") else {
        return Some(malformed());
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    // The port after the host (brackets keep IPv6 colons apart from the port's).
    let (host, port) = if let Some(v6) = authority.strip_prefix('[') {
        let (host, after) = v6.split_once(']').unwrap_or((v6, ""));
        (host, after.strip_prefix(':'))
    } else {
        match authority.split_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (authority, None),
        }
    };
    if host.is_empty() || host.contains(char::is_whitespace) {
        return Some(malformed());
    }
    if port.is_some_and(|p| p.parse::<u16>().map_or(true, |n| n == 0)) {
        return Some(Problem::Malformed {
            expected: "a URL whose port is a number from 1 to 65535".into(),
            got: shown,
        });
    }
    match scheme.to_ascii_lowercase().as_str() {
        "https" => None,
        "http" if is_loopback(host) => None,
        "http" => Some(Problem::InsecureUrl { got: shown }),
        _ => Some(malformed()),
    }
}

/// Whether `url` holds something that is a credential wherever it sits: user info (an `@`
/// anywhere, `https:\\user:pass@host` included), a query (`?`) or matrix parameter (`;`), a
/// fragment other than the lone trailing `#` that means "exactly as given", or a path segment that starts like a provider key (`/v1/sk-…`). Long hex path
/// segments stay: gateways put account ids there.
fn carries_credentials(url: &str) -> bool {
    const KEY_PREFIXES: &[&str] = &["sk-", "sk_", "gsk_", "xai-", "aiza"];
    let body = url.strip_suffix('#').unwrap_or(url);
    body.contains(['@', '?', ';', '#'])
        || body.split('/').any(|segment| {
            let lower = segment.to_ascii_lowercase();
            KEY_PREFIXES.iter().any(|p| lower.starts_with(p))
        })
}

fn is_loopback(host: &str) -> bool {
    let host = host.to_ascii_lowercase();
    if host == "localhost" || host.ends_with(".localhost") || host == "::1" {
        return true;
    }
    // 127.0.0.0/8 is all loopback.
    let octets: Vec<&str> = host.split('.').collect();
    octets.len() == 4 && octets[0] == "127" && octets.iter().all(|o| o.parse::<u8>().is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn https_anywhere_is_fine() {
        assert_eq!(check_base_url("https://api.deepseek.com"), None);
        assert_eq!(check_base_url("https://gw.example.com:8443/v1#"), None);
    }

    #[test]
    fn http_only_on_loopback() {
        assert_eq!(check_base_url("http://localhost:11434/v1"), None);
        assert_eq!(check_base_url("http://127.0.0.1:11434"), None);
        assert_eq!(check_base_url("http://[::1]:8080/v1"), None);
        assert!(matches!(
            check_base_url("http://api.openai.com/v1"),
            Some(Problem::InsecureUrl { .. })
        ));
        // A hostname that merely starts like a loopback address is not one.
        assert!(matches!(
            check_base_url("http://127.0.0.1.evil.com/v1"),
            Some(Problem::InsecureUrl { .. })
        ));
        assert!(matches!(
            check_base_url("http://localhost@evil.com/"),
            Some(Problem::CredentialsInUrl)
        ));
    }

    #[test]
    fn credentials_in_the_url_are_refused_without_repeating_them() {
        for bad in [
            "https://user:URLPASSWORD123@api.example.com/v1",
            "https://token@api.example.com",
            "https://api.example.com/v1?api_key=URLQUERYSECRET456",
            "http://127.0.0.1:8080/v1?key=abc#",
        ] {
            let problem = check_base_url(bad);
            assert_eq!(problem, Some(Problem::CredentialsInUrl), "{bad}");
        }
        // A fragment is no query: `#` keeps the URL as given.
        assert_eq!(check_base_url("https://gw.example.com/v1/chat#"), None);
        // Wherever else a URL can carry one (an outside probe found each accepted or echoed).
        for bad in [
            "https:\\\\frank:Backslash12345678@llm.example.com",
            "https://llm.example.com/v1#frag=FragSecret7777777",
            "https://llm.example.com/v1;token=SemiSecret12345678",
            "https://llm.example.com/v1/sk-PathSecret12345678",
        ] {
            assert_eq!(
                check_base_url(bad),
                Some(Problem::CredentialsInUrl),
                "{bad}"
            );
        }
        let spaced = check_base_url("https://llm.example.com/v1 token=SpcTok88776655");
        assert!(
            matches!(&spaced, Some(Problem::Malformed { got, .. }) if !got.contains("SpcTok")),
            "{spaced:?}"
        );
    }

    #[test]
    fn ports_are_numbers_in_range() {
        assert_eq!(check_base_url("https://localhost:8443/v1"), None);
        assert_eq!(check_base_url("http://[::1]:11434"), None);
        for bad in [
            "https://localhost:99999/v1",
            "https://localhost:0/v1",
            "https://localhost:abc/v1",
            "https://localhost:/v1",
        ] {
            assert!(
                matches!(check_base_url(bad), Some(Problem::Malformed { .. })),
                "{bad}"
            );
        }
    }

    #[test]
    fn garbage_is_malformed() {
        for bad in ["api.openai.com", "ftp://x", "https://", "https:// x"] {
            assert!(
                matches!(check_base_url(bad), Some(Problem::Malformed { .. })),
                "{bad}"
            );
        }
    }

    proptest::proptest! {
        /// User input never panics, and anything accepted really is https or loopback http.
        #[test]
        fn any_text_gets_a_verdict_without_panicking(url in "\\PC{0,60}") {
            if check_base_url(&url).is_none() {
                let lower = url.trim().to_ascii_lowercase();
                proptest::prop_assert!(lower.starts_with("https://") || lower.starts_with("http://"));
            }
        }
    }
}
