//! Two-step confirmations for risky API calls (start, stop, delete): the first call returns
//! the summary and a token; the same call with that token acts.
//!
//! The token is a MAC over the user, the action, the object's id and its current version
//! (`updated_at`, and whether it runs) and the time it was issued, under a key of this
//! process. So it confirms exactly what the summary described: a token for another action or
//! object fails, one for an object that changed since is stale, one older than five minutes
//! expired. Nothing is stored; a restart makes open tokens stale, which only asks again.

use hmac::{Hmac, KeyInit, Mac};
use rand::RngCore;
use sha2::Sha256;

/// How long a confirmation stays good.
pub const CONFIRM_TTL_MS: i64 = 5 * 60 * 1000;

/// What a token is bound to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subject<'a> {
    pub user: &'a str,
    /// `trader.start`, `trader.stop`, `exchange.delete`, …
    pub action: &'a str,
    pub id: &'a str,
    /// The object's version as the summary showed it.
    pub version: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Valid,
    /// The object changed, or the token was made for something else.
    Stale,
    Expired,
}

pub struct Confirmer {
    key: [u8; 32],
}

impl std::fmt::Debug for Confirmer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Confirmer")
    }
}

impl Default for Confirmer {
    fn default() -> Self {
        let mut key = [0u8; 32];
        rand::rng().fill_bytes(&mut key);
        Confirmer { key }
    }
}

impl Confirmer {
    pub fn issue(&self, subject: &Subject<'_>, now_ms: i64) -> String {
        format!("{now_ms}.{}", self.mac(subject, now_ms))
    }

    pub fn check(&self, token: &str, subject: &Subject<'_>, now_ms: i64) -> Verdict {
        let Some((issued, mac)) = token.split_once('.') else {
            return Verdict::Stale;
        };
        let Ok(issued) = issued.parse::<i64>() else {
            return Verdict::Stale;
        };
        let expected = self.mac(subject, issued);
        let same = expected.len() == mac.len()
            && expected
                .bytes()
                .zip(mac.bytes())
                .fold(0u8, |acc, (a, b)| acc | (a ^ b))
                == 0;
        if !same {
            Verdict::Stale
        } else if now_ms - issued > CONFIRM_TTL_MS || issued > now_ms + 60_000 {
            Verdict::Expired
        } else {
            Verdict::Valid
        }
    }

    fn mac(&self, s: &Subject<'_>, issued: i64) -> String {
        // The key is 32 bytes: HMAC takes any length, so this cannot fail.
        let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(&self.key) else {
            return String::new();
        };
        // Length-prefixed fields: ("a|b", "c") and ("a", "b|c") must not collide.
        for part in [s.user, s.action, s.id, s.version.as_str()] {
            mac.update(&(part.len() as u64).to_be_bytes());
            mac.update(part.as_bytes());
        }
        mac.update(&issued.to_be_bytes());
        hex::encode(mac.finalize().into_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn subject(version: &str) -> Subject<'static> {
        Subject {
            user: "local",
            action: "trader.start",
            id: "t1",
            version: version.to_string(),
        }
    }

    #[test]
    fn a_token_confirms_only_its_subject_for_five_minutes() {
        let c = Confirmer::default();
        let token = c.issue(&subject("v1"), 1_000);
        assert_eq!(c.check(&token, &subject("v1"), 2_000), Verdict::Valid);
        assert_eq!(c.check(&token, &subject("v2"), 2_000), Verdict::Stale);
        let other = Subject {
            action: "trader.stop",
            ..subject("v1")
        };
        assert_eq!(c.check(&token, &other, 2_000), Verdict::Stale);
        assert_eq!(
            c.check(&token, &subject("v1"), 1_000 + CONFIRM_TTL_MS + 1),
            Verdict::Expired
        );
        assert_eq!(c.check("garbage", &subject("v1"), 2_000), Verdict::Stale);
        assert_eq!(
            Confirmer::default().check(&token, &subject("v1"), 2_000),
            Verdict::Stale
        );
    }
}
