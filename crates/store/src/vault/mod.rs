//! The secret vault: AES-256-GCM per credential field, with a fresh random 96-bit nonce each
//! time and the owner, resource and field bound in as associated data.
//!
//! Binding `user|kind|resource_id|field` means a ciphertext copied onto another row, another
//! user or another field fails to decrypt instead of quietly signing with the wrong key. A key
//! check value (a known text sealed with the key) lives in the database, so a wrong key is
//! caught at open with a clear error before any credential is touched.
//!
//! Stored form: `nonce (12 bytes) || ciphertext || tag (16 bytes)` in one binary column.
//!
//! Format v2 (written now) seals `length (u32, big-endian) || secret || zeros` padded to a
//! multiple of [`PAD_BLOCK`] bytes, so a blob no longer tells how long its secret is (v1 sealed
//! the bare secret: plaintext + 28 bytes). The version is part of the associated data, so a
//! blob authenticates under exactly one format; v1 blobs of existing databases still open.

pub mod key;

use aes_gcm::aead::{Aead, KeyInit, Payload};
use aes_gcm::{Aes256Gcm, Nonce};
use nofxi_domain::{ResourceKind, Secret};
use rand::RngCore;
use zeroize::Zeroizing;

use crate::error::StoreError;
use key::{KeyBytes, KeySource};

const NONCE_LEN: usize = 12;
/// The key check and v1 credential blobs (unpadded) are bound to this.
const AD_VERSION: &str = "nofxi/v1";
/// Padded credential blobs are bound to this.
const AD_VERSION_PADDED: &str = "nofxi/v2";
/// Sealed plaintexts are a multiple of this many bytes: every secret up to 60 bytes looks alike.
const PAD_BLOCK: usize = 64;
const LEN_PREFIX: usize = 4;
const CHECK_PLAINTEXT: &[u8] = b"nofxi vault key check";

/// Which secret a ciphertext belongs to; becomes the associated data.
#[derive(Debug, Clone, Copy)]
pub struct SecretSlot<'a> {
    pub user: &'a str,
    pub kind: ResourceKind,
    pub resource_id: &'a str,
    pub field: &'a str,
}

impl SecretSlot<'_> {
    fn associated_data(&self, version: &str) -> Vec<u8> {
        // Lengths prefix each part so "a|b" + "c" can never equal "a" + "b|c".
        let mut ad = Vec::new();
        for part in [
            version,
            self.user,
            self.kind.as_str(),
            self.resource_id,
            self.field,
        ] {
            ad.extend_from_slice(&(part.len() as u32).to_be_bytes());
            ad.extend_from_slice(part.as_bytes());
        }
        ad
    }
}

/// The vault as a store holds it: ready, or opened without its key file (a database that
/// holds secrets, whose key file is gone). Without the key everything that needs no secret
/// still works; sealing and opening fail with [`StoreError::VaultKeyMissing`], which names
/// the file and `NOFXI_MASTER_KEY`.
pub enum Keyed {
    Ready(Box<Vault>),
    Missing { path: std::path::PathBuf },
}

impl Keyed {
    pub fn ready(&self) -> Result<&Vault, StoreError> {
        match self {
            Keyed::Ready(vault) => Ok(vault),
            Keyed::Missing { path } => Err(StoreError::VaultKeyMissing { path: path.clone() }),
        }
    }

    /// Where the key comes (or would come) from, fit to print.
    pub fn describe(&self) -> String {
        match self {
            Keyed::Ready(vault) => vault.source().describe(),
            Keyed::Missing { path } => {
                format!("{} (missing)", KeySource::File(path.clone()).describe())
            }
        }
    }
}

pub struct Vault {
    cipher: Aes256Gcm,
    source: KeySource,
}

impl Vault {
    pub fn new(key: &KeyBytes, source: KeySource) -> Vault {
        let cipher = Aes256Gcm::new(&(*key.0).into());
        Vault { cipher, source }
    }

    pub fn source(&self) -> &KeySource {
        &self.source
    }

    fn seal_raw(&self, plaintext: &[u8], aad: &[u8]) -> Result<Vec<u8>, StoreError> {
        let mut nonce_bytes = [0u8; NONCE_LEN];
        rand::rng().fill_bytes(&mut nonce_bytes);
        let nonce = Nonce::from(nonce_bytes);
        let ciphertext = self
            .cipher
            .encrypt(
                &nonce,
                Payload {
                    msg: plaintext,
                    aad,
                },
            )
            .map_err(|_| StoreError::Corrupt {
                what: "vault",
                detail: "encryption failed".into(),
            })?;
        let mut out = Vec::with_capacity(NONCE_LEN + ciphertext.len());
        out.extend_from_slice(&nonce_bytes);
        out.extend_from_slice(&ciphertext);
        Ok(out)
    }

    fn open_raw(&self, sealed: &[u8], aad: &[u8]) -> Option<Zeroizing<Vec<u8>>> {
        if sealed.len() < NONCE_LEN + 16 {
            return None;
        }
        let (nonce_bytes, ciphertext) = sealed.split_at(NONCE_LEN);
        let mut nonce_arr = [0u8; NONCE_LEN];
        nonce_arr.copy_from_slice(nonce_bytes);
        let nonce = Nonce::from(nonce_arr);
        self.cipher
            .decrypt(
                &nonce,
                Payload {
                    msg: ciphertext,
                    aad,
                },
            )
            .ok()
            .map(Zeroizing::new)
    }

    pub fn seal(&self, slot: SecretSlot<'_>, secret: &Secret) -> Result<Vec<u8>, StoreError> {
        let padded = pad(secret.expose().as_bytes()).ok_or_else(|| StoreError::Corrupt {
            what: "vault",
            detail: "a secret longer than 4 GB cannot be sealed".into(),
        })?;
        self.seal_raw(&padded, &slot.associated_data(AD_VERSION_PADDED))
    }

    pub fn open(&self, slot: SecretSlot<'_>, sealed: &[u8]) -> Result<Secret, StoreError> {
        let corrupt = || StoreError::SecretCorrupt {
            kind: slot.kind,
            resource_id: slot.resource_id.to_string(),
            field: slot.field.to_string(),
        };
        let plain = match self.open_raw(sealed, &slot.associated_data(AD_VERSION_PADDED)) {
            Some(padded) => unpad(&padded).map(|p| Zeroizing::new(p.to_vec())),
            // Sealed before padding existed: the bare secret.
            None => self.open_raw(sealed, &slot.associated_data(AD_VERSION)),
        }
        .ok_or_else(corrupt)?;
        let text = std::str::from_utf8(&plain).map_err(|_| corrupt())?;
        Ok(Secret::new(text))
    }

    /// A fresh key check value to store next to the secrets.
    pub fn key_check(&self) -> Result<Vec<u8>, StoreError> {
        self.seal_raw(CHECK_PLAINTEXT, AD_VERSION.as_bytes())
    }

    /// Fails with [`StoreError::VaultKeyMismatch`] when `check` was made with another key.
    pub fn verify_key_check(&self, check: &[u8]) -> Result<(), StoreError> {
        match self.open_raw(check, AD_VERSION.as_bytes()) {
            Some(plain) if plain.as_slice() == CHECK_PLAINTEXT => Ok(()),
            _ => Err(StoreError::VaultKeyMismatch {
                source_desc: self.source.describe(),
            }),
        }
    }
}

/// `length || plain || zeros`, a multiple of [`PAD_BLOCK`] bytes; `None` past u32 lengths.
fn pad(plain: &[u8]) -> Option<Zeroizing<Vec<u8>>> {
    let len = u32::try_from(plain.len()).ok()?;
    let total = (LEN_PREFIX + plain.len()).div_ceil(PAD_BLOCK) * PAD_BLOCK;
    let mut out = Zeroizing::new(Vec::with_capacity(total));
    out.extend_from_slice(&len.to_be_bytes());
    out.extend_from_slice(plain);
    out.resize(total, 0);
    Some(out)
}

/// The secret inside a padded plaintext; `None` when the length prefix does not fit.
fn unpad(padded: &[u8]) -> Option<&[u8]> {
    let (prefix, rest) = padded.split_at_checked(LEN_PREFIX)?;
    let len = usize::try_from(u32::from_be_bytes(prefix.try_into().ok()?)).ok()?;
    rest.get(..len)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vault(byte: u8) -> Vault {
        Vault::new(&KeyBytes(Zeroizing::new([byte; 32])), KeySource::Explicit)
    }

    fn slot<'a>(user: &'a str, id: &'a str, field: &'a str) -> SecretSlot<'a> {
        SecretSlot {
            user,
            kind: ResourceKind::Exchange,
            resource_id: id,
            field,
        }
    }

    #[test]
    fn round_trip_and_no_plaintext_in_ciphertext() {
        let v = vault(1);
        let secret = Secret::new("plain-secret-value");
        let sealed = v.seal(slot("u", "r", "api_key"), &secret).unwrap();
        assert!(
            !sealed
                .windows(b"plain-secret".len())
                .any(|w| w == b"plain-secret")
        );
        assert_eq!(
            v.open(slot("u", "r", "api_key"), &sealed).unwrap().expose(),
            "plain-secret-value"
        );
    }

    #[test]
    fn a_blob_does_not_tell_the_length_of_its_secret() {
        let v = vault(1);
        let lens: Vec<usize> = [1, 10, 32, 60]
            .into_iter()
            .map(|n| {
                let sealed = v
                    .seal(slot("u", "r", "api_key"), &Secret::new("k".repeat(n)))
                    .unwrap();
                let opened = v.open(slot("u", "r", "api_key"), &sealed).unwrap();
                assert_eq!(opened.expose(), "k".repeat(n));
                sealed.len()
            })
            .collect();
        assert!(lens.iter().all(|l| *l == lens[0]), "{lens:?}");
        let long = v
            .seal(slot("u", "r", "api_key"), &Secret::new("k".repeat(61)))
            .unwrap();
        assert_eq!(long.len(), lens[0] + PAD_BLOCK);
    }

    #[test]
    fn blobs_sealed_before_padding_still_open() {
        let v = vault(1);
        let slot = slot("u", "r", "secret_key");
        // What the v1 vault wrote: the bare secret, bound to the v1 associated data.
        let old = v
            .seal_raw(b"old-secret-value", &slot.associated_data(AD_VERSION))
            .unwrap();
        assert_eq!(old.len(), "old-secret-value".len() + 28);
        assert_eq!(v.open(slot, &old).unwrap().expose(), "old-secret-value");
    }

    #[test]
    fn same_secret_twice_gives_different_ciphertexts() {
        let v = vault(1);
        let s = Secret::new("x");
        assert_ne!(
            v.seal(slot("u", "r", "f"), &s).unwrap(),
            v.seal(slot("u", "r", "f"), &s).unwrap()
        );
    }

    #[test]
    fn ciphertext_cannot_move_to_another_user_row_or_field() {
        let v = vault(1);
        let sealed = v
            .seal(slot("a", "r1", "api_key"), &Secret::new("k"))
            .unwrap();
        for other in [
            slot("b", "r1", "api_key"),
            slot("a", "r2", "api_key"),
            slot("a", "r1", "secret_key"),
        ] {
            assert!(matches!(
                v.open(other, &sealed),
                Err(StoreError::SecretCorrupt { .. })
            ));
        }
    }

    #[test]
    fn wrong_key_is_detected_by_the_check_value() {
        let check = vault(1).key_check().unwrap();
        assert!(vault(1).verify_key_check(&check).is_ok());
        let err = vault(2).verify_key_check(&check).unwrap_err();
        assert!(err.to_string().contains("does not match"), "{err}");
    }
}
