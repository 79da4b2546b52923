//! Which client a request comes from, for the login limit. Directly, the socket's peer.
//! Behind a reverse proxy every request comes from the proxy, so one address would stand for
//! every user; `serve --behind-proxy` keys on the address the proxy forwards instead: the
//! right-most entry of the header it appends to (`X-Forwarded-For`, or `Forwarded`'s
//! `for=`) that is not a proxy of its own (`--trusted-proxy`). Entries further left were
//! written by whoever sent the request and are not believed. Without the flag these headers
//! are ignored altogether: any client can write them.

use std::net::IpAddr;
use std::str::FromStr;

use axum::http::HeaderMap;

/// The header the proxy in front of the server appends the client's address to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ForwardedHeader {
    /// `X-Forwarded-For: client, proxy1, …` (nginx, Caddy, HAProxy, Traefik, cloud balancers).
    XForwardedFor,
    /// RFC 7239 `Forwarded: for=client;proto=https, for=…`.
    Forwarded,
}

impl ForwardedHeader {
    fn name(self) -> &'static str {
        match self {
            ForwardedHeader::XForwardedFor => "x-forwarded-for",
            ForwardedHeader::Forwarded => "forwarded",
        }
    }
}

/// How far forwarded addresses are believed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProxyTrust {
    /// `None`: not behind a proxy, the peer is the client. `Some`: the peer is the proxy
    /// (the server must be reachable only through it) and appends to this header.
    pub header: Option<ForwardedHeader>,
    /// Proxies in front of that one (a CDN, a load balancer), skipped from the right.
    pub trusted: Vec<Cidr>,
}

/// An address block, `10.0.0.0/8`, `2001:db8::/32`, or one address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cidr {
    network: IpAddr,
    bits: u8,
}

impl Cidr {
    pub fn contains(&self, ip: IpAddr) -> bool {
        match (self.network, canonical(ip)) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => prefix_eq(&net.octets(), &ip.octets(), self.bits),
            (IpAddr::V6(net), IpAddr::V6(ip)) => prefix_eq(&net.octets(), &ip.octets(), self.bits),
            _ => false,
        }
    }
}

fn prefix_eq(a: &[u8], b: &[u8], bits: u8) -> bool {
    let whole = usize::from(bits / 8);
    if a[..whole] != b[..whole] {
        return false;
    }
    let rest = bits % 8;
    if rest == 0 {
        return true;
    }
    let mask = 0xffu8 << (8 - rest);
    (a[whole] & mask) == (b[whole] & mask)
}

impl FromStr for Cidr {
    type Err = String;

    fn from_str(text: &str) -> Result<Cidr, String> {
        let text = text.trim();
        let (address, bits) = match text.split_once('/') {
            Some((address, bits)) => (address, Some(bits)),
            None => (text, None),
        };
        let bad = || {
            "not an address or block: give one such as 10.0.0.0/8, 203.0.113.7 or 2001:db8::/32"
                .to_string()
        };
        let network = canonical(IpAddr::from_str(address).map_err(|_| bad())?);
        let max = if network.is_ipv4() { 32 } else { 128 };
        let bits = match bits {
            Some(bits) => bits
                .parse::<u8>()
                .ok()
                .filter(|b| *b <= max)
                .ok_or_else(bad)?,
            None => max,
        };
        Ok(Cidr { network, bits })
    }
}

/// The client of a request from `peer` with `headers`, as `trust` allows: an address, or the
/// proxy's opaque name for one (`unknown`, `_hidden`). `None` when nothing is known.
pub fn client(peer: Option<IpAddr>, headers: &HeaderMap, trust: &ProxyTrust) -> Option<String> {
    let direct = peer.map(|ip| canonical(ip).to_string());
    let Some(header) = trust.header else {
        return direct;
    };
    let entries: Vec<&str> = headers
        .get_all(header.name())
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .map(str::trim)
        .filter(|entry| !entry.is_empty())
        .collect();
    let mut leftmost = None;
    for entry in entries.iter().rev() {
        let given = match header {
            ForwardedHeader::XForwardedFor => *entry,
            ForwardedHeader::Forwarded => match forwarded_for(entry) {
                Some(given) => given,
                // An element without `for=` says nothing of the client.
                None => continue,
            },
        };
        match address(given) {
            Some(ip) if trust.trusted.iter().any(|c| c.contains(ip)) => {
                leftmost = Some(ip.to_string());
            }
            Some(ip) => return Some(ip.to_string()),
            // Not an address: the proxy's name for the client, bounded.
            None => return Some(given.chars().take(64).collect()),
        }
    }
    // Only proxies in the chain (or no header): the furthest one known.
    leftmost.or(direct)
}

/// `for=` of one `Forwarded` element (`for=192.0.2.60;proto=http`).
fn forwarded_for(element: &str) -> Option<&str> {
    element.split(';').find_map(|pair| {
        let (name, value) = pair.split_once('=')?;
        name.trim()
            .eq_ignore_ascii_case("for")
            .then(|| value.trim().trim_matches('"'))
    })
}

/// `203.0.113.7`, `203.0.113.7:4711`, `2001:db8::1`, `[2001:db8::1]:4711`.
fn address(text: &str) -> Option<IpAddr> {
    let text = text.trim();
    if let Some(rest) = text.strip_prefix('[') {
        let (inside, _) = rest.split_once(']')?;
        return IpAddr::from_str(inside).ok().map(canonical);
    }
    if let Ok(ip) = IpAddr::from_str(text) {
        return Some(canonical(ip));
    }
    let (host, port) = text.rsplit_once(':')?;
    port.parse::<u16>().ok()?;
    IpAddr::from_str(host).ok().map(canonical)
}

/// An IPv4 address however it arrives (`::ffff:203.0.113.7` is `203.0.113.7`).
fn canonical(ip: IpAddr) -> IpAddr {
    ip.to_canonical()
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(name: &'static str, values: &[&'static str]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for v in values {
            map.append(name, HeaderValue::from_static(v));
        }
        map
    }

    fn proxy(header: ForwardedHeader, trusted: &[&str]) -> ProxyTrust {
        ProxyTrust {
            header: Some(header),
            trusted: trusted.iter().filter_map(|c| c.parse().ok()).collect(),
        }
    }

    const PEER: Option<IpAddr> = Some(IpAddr::V4(std::net::Ipv4Addr::LOCALHOST));

    #[test]
    fn without_the_flag_forwarded_headers_are_ignored() {
        let h = headers("x-forwarded-for", &["203.0.113.7"]);
        assert_eq!(
            client(PEER, &h, &ProxyTrust::default()).as_deref(),
            Some("127.0.0.1")
        );
    }

    #[test]
    fn the_right_most_untrusted_entry_is_the_client() {
        let xff = proxy(ForwardedHeader::XForwardedFor, &["10.0.0.0/8"]);
        // What a client wrote (the left) is not believed; the proxy's entry is.
        let h = headers("x-forwarded-for", &["6.6.6.6, 203.0.113.7"]);
        assert_eq!(client(PEER, &h, &xff).as_deref(), Some("203.0.113.7"));
        // Further proxies are skipped; several header lines are one list.
        let h = headers(
            "x-forwarded-for",
            &["6.6.6.6", "203.0.113.7:5000, 10.1.2.3"],
        );
        assert_eq!(client(PEER, &h, &xff).as_deref(), Some("203.0.113.7"));
        let h = headers("x-forwarded-for", &["::ffff:198.51.100.1"]);
        assert_eq!(client(PEER, &h, &xff).as_deref(), Some("198.51.100.1"));
        // No header: the peer itself.
        assert_eq!(
            client(PEER, &HeaderMap::new(), &xff).as_deref(),
            Some("127.0.0.1")
        );
    }

    #[test]
    fn forwarded_elements_are_read_by_their_for() {
        let fwd = proxy(ForwardedHeader::Forwarded, &[]);
        let h = headers(
            "forwarded",
            &["for=6.6.6.6, for=\"[2001:db8:cafe::17]:4711\";proto=https"],
        );
        assert_eq!(client(PEER, &h, &fwd).as_deref(), Some("2001:db8:cafe::17"));
        // The other header is not read.
        let h = headers("x-forwarded-for", &["203.0.113.7"]);
        assert_eq!(client(PEER, &h, &fwd).as_deref(), Some("127.0.0.1"));
        let h = headers("forwarded", &["for=_hidden;by=10.0.0.1"]);
        assert_eq!(client(PEER, &h, &fwd).as_deref(), Some("_hidden"));
    }

    #[test]
    fn blocks_hold_their_addresses_only() {
        let block: Cidr = "10.0.0.0/8".parse().unwrap();
        assert!(block.contains("10.200.3.4".parse().unwrap()));
        assert!(!block.contains("11.0.0.1".parse().unwrap()));
        let one: Cidr = "203.0.113.7".parse().unwrap();
        assert!(one.contains("::ffff:203.0.113.7".parse().unwrap()));
        assert!(!one.contains("203.0.113.8".parse().unwrap()));
        assert!("2001:db8::/33".parse::<Cidr>().is_ok());
        assert!("10.0.0.0/33".parse::<Cidr>().is_err());
        assert!("nope".parse::<Cidr>().is_err());
    }
}
