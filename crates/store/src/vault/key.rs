//! Where the vault key comes from: `NOFXI_MASTER_KEY`, or `$NOFXI_HOME/vault.key`.
//!
//! Format (both places): 64 hex characters, or standard base64 of exactly 32 bytes; surrounding
//! whitespace is ignored. The key file is created on first run with 32 random bytes as hex and
//! mode 0600, and only when the database holds no secrets yet: a missing file next to existing
//! ciphertext means the key was lost or moved, and silently making a new one would turn every
//! stored credential into garbage.

use std::io::Write;
use std::path::{Path, PathBuf};

use base64::Engine;
use rand::RngCore;
use zeroize::Zeroizing;

use crate::error::StoreError;

pub const MASTER_KEY_ENV: &str = "NOFXI_MASTER_KEY";
pub const KEY_FILE_NAME: &str = "vault.key";

/// 32 key bytes, zeroed on drop.
pub struct KeyBytes(pub(crate) Zeroizing<[u8; 32]>);

/// Where a key came from, for error messages (never the key itself).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeySource {
    Env,
    File(PathBuf),
    /// Handed in by code (tests, embedding).
    Explicit,
}

impl KeySource {
    pub fn describe(&self) -> String {
        match self {
            KeySource::Env => format!("the {MASTER_KEY_ENV} environment variable"),
            KeySource::File(path) => format!("the key file {}", path.display()),
            KeySource::Explicit => "the key passed in by the caller".to_string(),
        }
    }
}

/// How a store should obtain its key.
#[derive(Clone)]
pub enum KeySpec {
    /// `NOFXI_MASTER_KEY` if set, else the key file in this directory.
    EnvOrFile { home: PathBuf },
    /// A key in text form (hex or base64), e.g. from a test.
    Text(Zeroizing<String>),
}

impl std::fmt::Debug for KeySpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KeySpec::EnvOrFile { home } => write!(f, "EnvOrFile({})", home.display()),
            KeySpec::Text(_) => f.write_str("Text(••••)"),
        }
    }
}

pub fn key_file_path(home: &Path) -> PathBuf {
    home.join(KEY_FILE_NAME)
}

/// Parses 64 hex characters or base64 of 32 bytes.
pub fn parse_key(text: &str, source: &KeySource) -> Result<KeyBytes, StoreError> {
    let text = text.trim();
    let invalid = |reason: &str| StoreError::VaultKeyInvalid {
        source_desc: source.describe(),
        reason: reason.to_string(),
    };
    let bytes: Zeroizing<Vec<u8>> =
        if text.len() == 64 && text.chars().all(|c| c.is_ascii_hexdigit()) {
            Zeroizing::new(hex::decode(text).map_err(|_| invalid("not valid hex"))?)
        } else {
            Zeroizing::new(
                base64::engine::general_purpose::STANDARD
                    .decode(text)
                    .map_err(|_| invalid("neither 64 hex characters nor base64"))?,
            )
        };
    if bytes.len() != 32 {
        return Err(invalid(&format!(
            "it decodes to {} bytes, not 32",
            bytes.len()
        )));
    }
    let mut key = Zeroizing::new([0u8; 32]);
    key.copy_from_slice(&bytes);
    Ok(KeyBytes(key))
}

/// A warning when the key file exists and others than its owner may read it: whoever can read
/// it can decrypt every credential. `None` for a key from the environment or from code.
pub fn file_warning(spec: &KeySpec) -> Option<String> {
    let KeySpec::EnvOrFile { home } = spec else {
        return None;
    };
    if std::env::var_os(MASTER_KEY_ENV).is_some() {
        return None;
    }
    let path = key_file_path(home);
    group_or_world_readable(&path).then(|| {
        format!(
            "the vault key file {} can be read by other users, and it decrypts every stored credential: run `chmod 600 {}`",
            path.display(),
            path.display()
        )
    })
}

#[cfg(unix)]
fn group_or_world_readable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o077 != 0)
}

#[cfg(not(unix))]
fn group_or_world_readable(_path: &Path) -> bool {
    false
}

/// Loads the key. `may_create` is false when the database already holds secrets.
pub fn load_key(spec: &KeySpec, may_create: bool) -> Result<(KeyBytes, KeySource), StoreError> {
    match spec {
        KeySpec::Text(text) => Ok((parse_key(text, &KeySource::Explicit)?, KeySource::Explicit)),
        KeySpec::EnvOrFile { home } => {
            if let Ok(text) = std::env::var(MASTER_KEY_ENV) {
                let text = Zeroizing::new(text);
                return Ok((parse_key(&text, &KeySource::Env)?, KeySource::Env));
            }
            let path = key_file_path(home);
            let source = KeySource::File(path.clone());
            match std::fs::read_to_string(&path) {
                Ok(text) => {
                    let text = Zeroizing::new(text);
                    Ok((parse_key(&text, &source)?, source))
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    if !may_create {
                        return Err(StoreError::VaultKeyMissing { path });
                    }
                    match create_key_file(&path) {
                        Ok(key) => Ok((key, source)),
                        // Another nofxi process created it first: use theirs.
                        Err(StoreError::Io { source: e, .. })
                            if e.kind() == std::io::ErrorKind::AlreadyExists =>
                        {
                            let text = Zeroizing::new(std::fs::read_to_string(&path).map_err(
                                |source_err| StoreError::Io {
                                    action: "read the vault key file",
                                    path: path.clone(),
                                    source: source_err,
                                },
                            )?);
                            Ok((parse_key(&text, &source)?, source))
                        }
                        Err(other) => Err(other),
                    }
                }
                Err(source_err) => Err(StoreError::Io {
                    action: "read the vault key file",
                    path,
                    source: source_err,
                }),
            }
        }
    }
}

/// Writes a fresh random key, readable by the owner only. `create_new` makes two processes
/// starting at once fail loudly rather than overwrite each other's key.
fn create_key_file(path: &Path) -> Result<KeyBytes, StoreError> {
    let mut key = Zeroizing::new([0u8; 32]);
    rand::rng().fill_bytes(key.as_mut());
    let text = Zeroizing::new(format!("{}\n", hex::encode(key.as_ref())));
    let io = |source| StoreError::Io {
        action: "create the vault key file",
        path: path.to_path_buf(),
        source,
    };
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options.open(path).map_err(io)?;
    file.write_all(text.as_bytes()).map_err(io)?;
    file.sync_all().map_err(io)?;
    Ok(KeyBytes(key))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_and_base64_both_parse_to_the_same_key() {
        let raw = [7u8; 32];
        let hex_key = parse_key(&hex::encode(raw), &KeySource::Explicit).unwrap();
        let b64 = base64::engine::general_purpose::STANDARD.encode(raw);
        let b64_key = parse_key(&b64, &KeySource::Explicit).unwrap();
        assert_eq!(*hex_key.0, *b64_key.0);
    }

    #[test]
    fn wrong_length_is_a_clear_error() {
        let err = parse_key("abcd", &KeySource::Env).err().unwrap();
        assert!(err.to_string().contains("NOFXI_MASTER_KEY"), "{err}");
        assert!(err.to_string().contains("64 hex"), "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn key_file_is_created_owner_only_and_reused() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = key_file_path(dir.path());
        let first = create_key_file(&path).unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        let text = std::fs::read_to_string(&path).unwrap();
        let again = parse_key(&text, &KeySource::File(path.clone())).unwrap();
        assert_eq!(*first.0, *again.0);
        assert!(create_key_file(&path).is_err(), "never overwrite a key");
    }
}
