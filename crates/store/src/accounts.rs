//! Accounts of `nofxi serve`'s multi-user mode: users who log in with a password, their
//! browser sessions, and API tokens for scripts.
//!
//! Nothing usable is stored: a password as an argon2id hash (PHC string, salted), a session id
//! and a token's secret as their SHA-256 digest (each is 256 random bits, so the digest
//! cannot be reversed and a lookup needs no slow hash). The plain values exist only in the
//! reply that creates them.
//!
//! A disabled user keeps their data but can no longer log in; their sessions are closed and
//! their tokens stop working at once (every check joins on the user).

use argon2::{Argon2, PasswordHasher, PasswordVerifier};
use nofxi_domain::validation::Problems;
use nofxi_domain::{Problem, Secret, ValidationError};
use rand::RngCore;
use sha2::{Digest, Sha256};
use sqlx::Row;
use zeroize::Zeroizing;

use crate::Store;
use crate::error::{DbContext, StoreError};

/// How long a browser session lasts after login.
pub const SESSION_TTL_MS: i64 = 7 * 24 * 3600 * 1000;
/// Shortest password accepted.
pub const MIN_PASSWORD_CHARS: usize = 10;
const MAX_USER_CHARS: usize = 32;
const MAX_LABEL_CHARS: usize = 64;
/// What an API token's text starts with, so a leaked one is recognisable (and scrubbed).
pub const TOKEN_PREFIX: &str = "nofxi_";

/// What an API token may do. A browser session may do everything its user may.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Scope {
    /// Every read.
    Read,
    /// Create, change, delete and restore objects; chat; backtests.
    Write,
    /// Start and stop traders (with `write`, what a chat may lead to).
    Trade,
}

impl Scope {
    pub const ALL: [Scope; 3] = [Scope::Read, Scope::Write, Scope::Trade];

    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Read => "read",
            Scope::Write => "write",
            Scope::Trade => "trade",
        }
    }

    pub fn parse(text: &str) -> Option<Scope> {
        Scope::ALL
            .into_iter()
            .find(|s| s.as_str().eq_ignore_ascii_case(text.trim()))
    }

    /// A comma-separated list (`read,write`), each named; the field is `scopes`.
    pub fn parse_list(text: &str) -> Result<Vec<Scope>, ValidationError> {
        let mut scopes = Vec::new();
        for part in text.split(',').filter(|p| !p.trim().is_empty()) {
            let Some(scope) = Scope::parse(part) else {
                return Err(ValidationError::single(
                    "scopes",
                    Problem::NotOneOf {
                        allowed: Scope::ALL.iter().map(|s| s.as_str().into()).collect(),
                        got: part.trim().chars().take(32).collect(),
                    },
                ));
            };
            if !scopes.contains(&scope) {
                scopes.push(scope);
            }
        }
        if scopes.is_empty() {
            return Err(ValidationError::single("scopes", Problem::Required));
        }
        scopes.sort();
        Ok(scopes)
    }

    fn join(scopes: &[Scope]) -> String {
        scopes
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join(",")
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    pub name: String,
    pub created_at: i64,
    pub disabled_at: Option<i64>,
}

/// A logged-in browser.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    pub user: String,
    /// Every state change of this session must carry it (`X-CSRF-Token`).
    pub csrf_token: String,
    pub expires_at: i64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiToken {
    /// Public part of the token, shown in lists and used to revoke it.
    pub id: String,
    pub user: String,
    pub label: String,
    pub scopes: Vec<Scope>,
    pub created_at: i64,
    pub last_used_at: Option<i64>,
    pub revoked_at: Option<i64>,
}

/// A token just created: `text` is shown once and never stored.
pub struct NewToken {
    pub token: ApiToken,
    pub text: Zeroizing<String>,
}

fn random_hex(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    rand::rng().fill_bytes(&mut buf);
    hex::encode(buf)
}

fn digest(text: &str) -> String {
    hex::encode(Sha256::digest(text.as_bytes()))
}

/// Compares two secrets in time that depends only on their lengths, so a timing probe
/// learns nothing of how much of a guessed token or CSRF value matched.
pub fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// A user name: 1–32 of `a-z 0-9 . _ -`, starting with a letter or digit, so it reads the
/// same in a URL, a log line and a shell.
fn user_name_problem(name: &str) -> Option<Problem> {
    let ok = !name.is_empty()
        && name.chars().count() <= MAX_USER_CHARS
        && name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '.' | '_' | '-'));
    (!ok).then(|| Problem::Malformed {
        expected: format!(
            "1 to {MAX_USER_CHARS} of a-z, 0-9, '.', '_' or '-', starting with a letter or digit"
        ),
        got: name.chars().take(40).collect(),
    })
}

fn password_problem(password: &Secret) -> Option<Problem> {
    let chars = password.expose().chars().count();
    // The password itself is never repeated, only its length.
    (chars < MIN_PASSWORD_CHARS).then(|| Problem::Malformed {
        expected: format!("at least {MIN_PASSWORD_CHARS} characters"),
        got: format!("{chars} characters"),
    })
}

/// Argon2id with the crate's defaults (19 MiB, 2 passes) and a random 16-byte salt. Slow on
/// purpose: callers on an async runtime run it on a blocking thread.
fn hash_password(password: &Secret) -> Result<String, StoreError> {
    let mut salt = [0u8; 16];
    rand::rng().fill_bytes(&mut salt);
    Argon2::default()
        .hash_password_with_salt(password.expose().as_bytes(), &salt)
        .map(|hash| hash.to_string())
        .map_err(|e| StoreError::Corrupt {
            what: "password hash",
            detail: e.to_string(),
        })
}

fn password_matches(password: &Secret, hash: &str) -> bool {
    Argon2::default()
        .verify_password(password.expose().as_bytes(), hash)
        .is_ok()
}

/// A hash no password matches, checked when the user does not exist so that a wrong name
/// takes as long as a wrong password (the reply alone must not reveal which users exist).
fn decoy_hash() -> &'static str {
    static DECOY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DECOY.get_or_init(|| hash_password(&Secret::new(random_hex(16))).unwrap_or_default())
}

async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, StoreError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| StoreError::Corrupt {
            what: "password check",
            detail: e.to_string(),
        })
}

fn row_to_user(row: &sqlx::any::AnyRow) -> Result<User, StoreError> {
    Ok(User {
        name: row.try_get("name").ctx("reading a user")?,
        created_at: row.try_get("created_at").ctx("reading a user")?,
        disabled_at: row.try_get("disabled_at").ctx("reading a user")?,
    })
}

fn row_to_token(row: &sqlx::any::AnyRow) -> Result<ApiToken, StoreError> {
    let scopes: String = row.try_get("scopes").ctx("reading a token")?;
    Ok(ApiToken {
        id: row.try_get("id").ctx("reading a token")?,
        user: row.try_get("user_id").ctx("reading a token")?,
        label: row.try_get("label").ctx("reading a token")?,
        scopes: scopes.split(',').filter_map(Scope::parse).collect(),
        created_at: row.try_get("created_at").ctx("reading a token")?,
        last_used_at: row.try_get("last_used_at").ctx("reading a token")?,
        revoked_at: row.try_get("revoked_at").ctx("reading a token")?,
    })
}

/// `nofxi_<id>_<secret>` split into its id and secret.
fn split_token(text: &str) -> Option<(&str, &str)> {
    let rest = text.trim().strip_prefix(TOKEN_PREFIX)?;
    let (id, secret) = rest.split_once('_')?;
    (id.len() == 12 && secret.len() == 64).then_some((id, secret))
}

impl Store {
    /// Adds a user who logs in with `password`.
    pub async fn add_user(&self, name: &str, password: &Secret) -> Result<User, StoreError> {
        let mut problems = Problems::default();
        if let Some(problem) = user_name_problem(name) {
            problems.push("name", problem);
        }
        if let Some(problem) = password_problem(password) {
            problems.push("password", problem);
        }
        problems.finish(())?;
        if self.find_user(name).await?.is_some() {
            return Err(ValidationError::single(
                "name",
                Problem::DuplicateName {
                    name: name.to_string(),
                },
            )
            .into());
        }
        let secret = Secret::new(password.expose());
        let hash = blocking(move || hash_password(&secret)).await??;
        let now = self.now_ms();
        sqlx::query("INSERT INTO users (name, password_hash, created_at) VALUES ($1, $2, $3)")
            .bind(name)
            .bind(hash)
            .bind(now)
            .execute(&self.pool)
            .await
            .ctx("adding a user")?;
        Ok(User {
            name: name.to_string(),
            created_at: now,
            disabled_at: None,
        })
    }

    pub async fn find_user(&self, name: &str) -> Result<Option<User>, StoreError> {
        let row = sqlx::query("SELECT name, created_at, disabled_at FROM users WHERE name = $1")
            .bind(name)
            .fetch_optional(&self.pool)
            .await
            .ctx("reading a user")?;
        row.as_ref().map(row_to_user).transpose()
    }

    pub async fn list_users(&self) -> Result<Vec<User>, StoreError> {
        let rows = sqlx::query("SELECT name, created_at, disabled_at FROM users ORDER BY name")
            .fetch_all(&self.pool)
            .await
            .ctx("listing users")?;
        rows.iter().map(row_to_user).collect()
    }

    /// Users who can log in. With none, `nofxi serve` runs in local mode.
    pub async fn active_user_count(&self) -> Result<i64, StoreError> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM users WHERE disabled_at IS NULL")
            .fetch_one(&self.pool)
            .await
            .ctx("counting users")?;
        row.try_get("n").ctx("counting users")
    }

    /// Disables a user: no more logins, their sessions end, their tokens stop working. Their
    /// objects stay.
    pub async fn disable_user(&self, name: &str) -> Result<User, StoreError> {
        let Some(user) = self.find_user(name).await? else {
            return Err(StoreError::UnknownUser {
                name: name.to_string(),
            });
        };
        let now = self.now_ms();
        let mut tx = self.begin_write().await?;
        sqlx::query("UPDATE users SET disabled_at = $1 WHERE name = $2 AND disabled_at IS NULL")
            .bind(now)
            .bind(name)
            .execute(&mut *tx)
            .await
            .ctx("disabling a user")?;
        sqlx::query("DELETE FROM sessions WHERE user_id = $1")
            .bind(name)
            .execute(&mut *tx)
            .await
            .ctx("disabling a user")?;
        tx.commit().await.ctx("disabling a user")?;
        Ok(User {
            disabled_at: user.disabled_at.or(Some(now)),
            ..user
        })
    }

    /// The active user `name` if `password` is theirs. An unknown or disabled user costs as
    /// much time as a wrong password.
    pub async fn check_login(
        &self,
        name: &str,
        password: &Secret,
    ) -> Result<Option<String>, StoreError> {
        let row =
            sqlx::query("SELECT password_hash FROM users WHERE name = $1 AND disabled_at IS NULL")
                .bind(name)
                .fetch_optional(&self.pool)
                .await
                .ctx("checking a login")?;
        let hash: Option<String> = match row {
            Some(row) => Some(row.try_get("password_hash").ctx("checking a login")?),
            None => None,
        };
        let known = hash.is_some();
        let secret = Secret::new(password.expose());
        let matches = blocking(move || {
            let hash = hash.unwrap_or_else(|| decoy_hash().to_string());
            password_matches(&secret, &hash)
        })
        .await?;
        Ok((known && matches).then(|| name.to_string()))
    }

    /// Opens a browser session for `user`; returns the cookie value (shown once) and the
    /// session.
    pub async fn open_session(
        &self,
        user: &str,
    ) -> Result<(Zeroizing<String>, Session), StoreError> {
        let id = Zeroizing::new(random_hex(32));
        let session = Session {
            user: user.to_string(),
            csrf_token: random_hex(32),
            expires_at: self.now_ms() + SESSION_TTL_MS,
        };
        sqlx::query(
            "INSERT INTO sessions (id_digest, user_id, csrf_token, created_at, expires_at) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(digest(&id))
        .bind(user)
        .bind(&session.csrf_token)
        .bind(self.now_ms())
        .bind(session.expires_at)
        .execute(&self.pool)
        .await
        .ctx("opening a session")?;
        Ok((id, session))
    }

    /// The live session of a cookie value, if it has not expired and its user is active.
    pub async fn session(&self, cookie: &str) -> Result<Option<Session>, StoreError> {
        let row = sqlx::query(
            "SELECT s.user_id, s.csrf_token, s.expires_at FROM sessions s \
             JOIN users u ON u.name = s.user_id \
             WHERE s.id_digest = $1 AND s.expires_at > $2 AND u.disabled_at IS NULL",
        )
        .bind(digest(cookie))
        .bind(self.now_ms())
        .fetch_optional(&self.pool)
        .await
        .ctx("reading a session")?;
        let Some(row) = row else {
            return Ok(None);
        };
        Ok(Some(Session {
            user: row.try_get("user_id").ctx("reading a session")?,
            csrf_token: row.try_get("csrf_token").ctx("reading a session")?,
            expires_at: row.try_get("expires_at").ctx("reading a session")?,
        }))
    }

    /// Ends a session (logout); expired ones are swept at the same time.
    pub async fn close_session(&self, cookie: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM sessions WHERE id_digest = $1 OR expires_at <= $2")
            .bind(digest(cookie))
            .bind(self.now_ms())
            .execute(&self.pool)
            .await
            .ctx("closing a session")?;
        Ok(())
    }

    /// Creates an API token for an active user. Its text is in the reply only.
    pub async fn create_token(
        &self,
        user: &str,
        label: &str,
        scopes: &[Scope],
    ) -> Result<NewToken, StoreError> {
        let mut problems = Problems::default();
        problems.name("label", label, MAX_LABEL_CHARS);
        if scopes.is_empty() {
            problems.push("scopes", Problem::Required);
        }
        problems.finish(())?;
        match self.find_user(user).await? {
            Some(u) if u.disabled_at.is_none() => {}
            _ => {
                return Err(StoreError::UnknownUser {
                    name: user.to_string(),
                });
            }
        }
        let id = random_hex(6);
        let secret = Zeroizing::new(random_hex(32));
        let now = self.now_ms();
        sqlx::query(
            "INSERT INTO api_tokens (id, user_id, label, secret_digest, scopes, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(&id)
        .bind(user)
        .bind(label.trim())
        .bind(digest(&secret))
        .bind(Scope::join(scopes))
        .bind(now)
        .execute(&self.pool)
        .await
        .ctx("creating a token")?;
        let text = Zeroizing::new(format!("{TOKEN_PREFIX}{id}_{}", secret.as_str()));
        Ok(NewToken {
            token: ApiToken {
                id,
                user: user.to_string(),
                label: label.trim().to_string(),
                scopes: scopes.to_vec(),
                created_at: now,
                last_used_at: None,
                revoked_at: None,
            },
            text,
        })
    }

    /// The user's tokens, revoked ones included, newest first.
    pub async fn list_tokens(&self, user: &str) -> Result<Vec<ApiToken>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, user_id, label, scopes, created_at, last_used_at, revoked_at \
             FROM api_tokens WHERE user_id = $1 ORDER BY created_at DESC, id",
        )
        .bind(user)
        .fetch_all(&self.pool)
        .await
        .ctx("listing tokens")?;
        rows.iter().map(row_to_token).collect()
    }

    /// Revokes one of the user's tokens by id; it stops working at once.
    pub async fn revoke_token(&self, user: &str, id: &str) -> Result<ApiToken, StoreError> {
        sqlx::query(
            "UPDATE api_tokens SET revoked_at = $1 \
             WHERE user_id = $2 AND id = $3 AND revoked_at IS NULL",
        )
        .bind(self.now_ms())
        .bind(user)
        .bind(id)
        .execute(&self.pool)
        .await
        .ctx("revoking a token")?;
        self.list_tokens(user)
            .await?
            .into_iter()
            .find(|t| t.id == id)
            .ok_or_else(|| StoreError::UnknownToken { id: id.to_string() })
    }

    /// The live token a request presents, if any: not revoked, its user active. Records when
    /// it was last used.
    pub async fn token_for(&self, text: &str) -> Result<Option<ApiToken>, StoreError> {
        let Some((id, secret)) = split_token(text) else {
            return Ok(None);
        };
        let row = sqlx::query(
            "SELECT t.id, t.user_id, t.label, t.scopes, t.created_at, t.last_used_at, \
             t.revoked_at, t.secret_digest FROM api_tokens t JOIN users u ON u.name = t.user_id \
             WHERE t.id = $1 AND t.revoked_at IS NULL AND u.disabled_at IS NULL",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await
        .ctx("checking a token")?;
        let Some(row) = row else {
            return Ok(None);
        };
        let stored: String = row.try_get("secret_digest").ctx("checking a token")?;
        if !constant_time_eq(stored.as_bytes(), digest(secret).as_bytes()) {
            return Ok(None);
        }
        let token = row_to_token(&row)?;
        sqlx::query("UPDATE api_tokens SET last_used_at = $1 WHERE id = $2")
            .bind(self.now_ms())
            .bind(id)
            .execute(&self.pool)
            .await
            .ctx("checking a token")?;
        Ok(Some(token))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_names_are_plain() {
        assert!(user_name_problem("alice").is_none());
        assert!(user_name_problem("bob-2.x_y").is_none());
        for bad in ["", "Alice", "-bob", "a b", "ä", &"a".repeat(33)] {
            assert!(user_name_problem(bad).is_some(), "{bad:?}");
        }
    }

    #[test]
    fn scopes_parse_as_a_list_and_name_the_bad_one() {
        assert_eq!(
            Scope::parse_list("trade, read,read").ok(),
            Some(vec![Scope::Read, Scope::Trade])
        );
        let err = Scope::parse_list("read,admin").err().map(|e| e.to_string());
        assert!(err.is_some_and(|e| e.contains("scopes") && e.contains("admin")));
        assert!(Scope::parse_list(" , ").is_err());
    }

    #[test]
    fn token_text_splits_into_id_and_secret() {
        let secret = "a".repeat(64);
        let text = format!("nofxi_0123456789ab_{secret}");
        assert_eq!(split_token(&text), Some(("0123456789ab", secret.as_str())));
        assert_eq!(split_token("nofxi_short_x"), None);
        assert_eq!(split_token("Bearer nofxi_"), None);
    }

    #[test]
    fn a_password_hash_verifies_only_its_password() {
        let hash = hash_password(&Secret::new("correct horse battery")).unwrap_or_default();
        assert!(hash.starts_with("$argon2id$"));
        assert!(password_matches(
            &Secret::new("correct horse battery"),
            &hash
        ));
        assert!(!password_matches(
            &Secret::new("correct horse batter"),
            &hash
        ));
        assert!(!password_matches(&Secret::new("x"), decoy_hash()));
    }
}
