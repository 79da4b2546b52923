//! Hyperliquid's "L1 action" signature, as the reference SDK computes it
//! (hyperliquid-dex/hyperliquid-python-sdk, `hyperliquid/utils/signing.py`: `action_hash`,
//! `construct_phantom_agent`, `l1_payload`, `sign_inner`; the docs' "Signing" page points there):
//!
//! 1. the action is MessagePack-encoded with its fields in the wire order (a map, string keys),
//!    then the nonce as 8 big-endian bytes, then `0x00` (no vault) or `0x01` and the vault's 20
//!    address bytes; the Keccak-256 of that is the `connectionId`;
//! 2. a "phantom agent" `Agent { source: "a" (mainnet) | "b" (testnet), connectionId }` is
//!    signed as EIP-712 typed data in the domain `{name: "Exchange", version: "1", chainId: 1337,
//!    verifyingContract: 0x0…0}`, with the agent wallet's secp256k1 key;
//! 3. the signature goes out as `{"r": "0x…", "s": "0x…", "v": 27 | 28}`.
//!
//! The crypto is `k256` (RustCrypto's secp256k1 ECDSA with recovery ids) and `sha3`'s
//! Keccak-256; what is written here is only the EIP-712 encoding of two fixed structs, checked
//! against the SDK's own fixed-key vectors (`tests/signing_test.py`) below.

use k256::ecdsa::{RecoveryId, Signature, SigningKey, VerifyingKey};
use serde::Serialize;
use serde_json::{Value, json};
use sha3::{Digest, Keccak256};

use crate::VenueError;

/// `keccak256(bytes)`.
pub fn keccak(bytes: &[u8]) -> [u8; 32] {
    Keccak256::digest(bytes).into()
}

/// EIP-712's `hashStruct` of the `EIP712Domain` Hyperliquid signs L1 actions in.
fn domain_separator() -> [u8; 32] {
    let type_hash = keccak(
        b"EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)",
    );
    let mut chain_id = [0u8; 32];
    chain_id[30..].copy_from_slice(&1337u16.to_be_bytes());
    let mut encoded = Vec::with_capacity(5 * 32);
    encoded.extend_from_slice(&type_hash);
    encoded.extend_from_slice(&keccak(b"Exchange"));
    encoded.extend_from_slice(&keccak(b"1"));
    encoded.extend_from_slice(&chain_id);
    // `verifyingContract`: the zero address, left-padded to a word.
    encoded.extend_from_slice(&[0u8; 32]);
    keccak(&encoded)
}

/// The digest signed for a `connectionId`: `keccak(0x19 0x01 ‖ domain ‖ hashStruct(Agent))`.
pub fn agent_digest(connection_id: &[u8; 32], mainnet: bool) -> [u8; 32] {
    let type_hash = keccak(b"Agent(string source,bytes32 connectionId)");
    let source: &[u8] = if mainnet { b"a" } else { b"b" };
    let mut encoded = Vec::with_capacity(3 * 32);
    encoded.extend_from_slice(&type_hash);
    encoded.extend_from_slice(&keccak(source));
    encoded.extend_from_slice(connection_id);
    let struct_hash = keccak(&encoded);
    let mut message = Vec::with_capacity(2 + 64);
    message.extend_from_slice(&[0x19, 0x01]);
    message.extend_from_slice(&domain_separator());
    message.extend_from_slice(&struct_hash);
    keccak(&message)
}

/// The `connectionId` of `action` sent with `nonce` (and no vault address).
pub fn action_hash<A: Serialize>(action: &A, nonce: u64) -> Result<[u8; 32], VenueError> {
    let mut data = rmp_serde::to_vec_named(action).map_err(|e| {
        VenueError::InvalidRequest(format!("the action cannot be encoded for signing: {e}"))
    })?;
    data.extend_from_slice(&nonce.to_be_bytes());
    // No vault: nofxi trades the main account the agent acts for.
    data.push(0x00);
    Ok(keccak(&data))
}

/// An agent wallet's private key, parsed: 32 bytes as 64 hex digits, `0x` optional.
pub fn signing_key(private_key: &str) -> Result<SigningKey, VenueError> {
    let hex_key = private_key.trim();
    let hex_key = hex_key
        .strip_prefix("0x")
        .or_else(|| hex_key.strip_prefix("0X"))
        .unwrap_or(hex_key);
    let bad = || {
        VenueError::InvalidRequest(
            "the API key is no wallet private key: Hyperliquid's api_key is the agent wallet's private key, 0x and 64 hexadecimal characters".into(),
        )
    };
    if hex_key.len() != 64 {
        return Err(bad());
    }
    let bytes = hex::decode(hex_key).map_err(|_| bad())?;
    SigningKey::from_slice(&bytes).map_err(|_| bad())
}

/// The address of a public key: the last 20 bytes of the Keccak-256 of its uncompressed
/// point without the `0x04` prefix, as `0x` and 40 lower-case hex digits.
pub fn address_of(key: &VerifyingKey) -> String {
    let point = key.to_sec1_point(false);
    let hash = keccak(&point.as_bytes()[1..]);
    format!("0x{}", hex::encode(&hash[12..]))
}

/// `0x` and the hex of a 32-byte big-endian number without its leading zeros, as the SDK's
/// `to_hex` writes `r` and `s`.
fn word_hex(bytes: &[u8]) -> String {
    let digits = hex::encode(bytes);
    let trimmed = digits.trim_start_matches('0');
    format!("0x{}", if trimmed.is_empty() { "0" } else { trimmed })
}

/// The `signature` object of an `/exchange` request for `action` and `nonce`.
pub fn sign_l1_action<A: Serialize>(
    key: &SigningKey,
    action: &A,
    nonce: u64,
    mainnet: bool,
) -> Result<Value, VenueError> {
    let digest = agent_digest(&action_hash(action, nonce)?, mainnet);
    let (signature, recovery) = sign_digest(key, &digest)?;
    let bytes = signature.to_bytes();
    Ok(json!({
        "r": word_hex(&bytes[..32]),
        "s": word_hex(&bytes[32..]),
        "v": 27 + u8::from(recovery.is_y_odd()),
    }))
}

/// A low-S signature (as Ethereum requires) and its recovery id.
fn sign_digest(key: &SigningKey, digest: &[u8; 32]) -> Result<(Signature, RecoveryId), VenueError> {
    let (signature, recovery) = key.sign_prehash_recoverable(digest);
    match signature.normalize_s() {
        normalized if normalized == signature => Ok((signature, recovery)),
        normalized => {
            // Negating s mirrors the nonce point: the other y parity.
            let flipped = RecoveryId::new(!recovery.is_y_odd(), recovery.is_x_reduced());
            Ok((normalized, flipped))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Serialize;

    /// The fixed key of the SDK's signing tests.
    const KEY: &str = "0x0123456789012345678901234567890123456789012345678901234567890123";

    #[derive(Serialize)]
    struct Dummy {
        r#type: &'static str,
        num: u64,
    }

    #[derive(Serialize)]
    struct Limit {
        tif: &'static str,
    }

    #[derive(Serialize)]
    struct Trigger {
        #[serde(rename = "isMarket")]
        is_market: bool,
        #[serde(rename = "triggerPx")]
        trigger_px: &'static str,
        tpsl: &'static str,
    }

    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    enum Kind {
        Limit(Limit),
        Trigger(Trigger),
    }

    #[derive(Serialize)]
    struct Wire {
        a: u32,
        b: bool,
        p: &'static str,
        s: &'static str,
        r: bool,
        t: Kind,
        #[serde(skip_serializing_if = "Option::is_none")]
        c: Option<&'static str>,
    }

    #[derive(Serialize)]
    struct OrderAction {
        r#type: &'static str,
        orders: Vec<Wire>,
        grouping: &'static str,
    }

    fn order(
        asset: u32,
        p: &'static str,
        s: &'static str,
        t: Kind,
        c: Option<&'static str>,
    ) -> OrderAction {
        OrderAction {
            r#type: "order",
            orders: vec![Wire {
                a: asset,
                b: true,
                p,
                s,
                r: false,
                t,
                c,
            }],
            grouping: "na",
        }
    }

    fn rsv(sig: &Value) -> (&str, &str, u64) {
        (
            sig["r"].as_str().unwrap(),
            sig["s"].as_str().unwrap(),
            sig["v"].as_u64().unwrap(),
        )
    }

    /// `test_phantom_agent_creation_matches_production`: an order Hyperliquid accepted in
    /// production (ETH is asset 4 there; 0.0147 at 1670.1 IOC, nonce 1677777606040).
    #[test]
    fn the_connection_id_matches_a_production_order() {
        let action = order(
            4,
            "1670.1",
            "0.0147",
            Kind::Limit(Limit { tif: "Ioc" }),
            None,
        );
        assert_eq!(
            hex::encode(action_hash(&action, 1_677_777_606_040).unwrap()),
            "0fcbeda5ae3c4950a548021552a4fea2226858c4453571bf3f24ba017eac2908"
        );
    }

    /// `test_l1_action_signing_matches`: a dummy action (`float_to_int_for_hashing(1000)` is
    /// 100000000000), nonce 0, on mainnet and testnet.
    #[test]
    fn a_dummy_action_signs_as_the_sdk_signs_it() {
        let key = signing_key(KEY).unwrap();
        let action = Dummy {
            r#type: "dummy",
            num: 100_000_000_000,
        };
        let mainnet = sign_l1_action(&key, &action, 0, true).unwrap();
        assert_eq!(
            rsv(&mainnet),
            (
                "0x53749d5b30552aeb2fca34b530185976545bb22d0b3ce6f62e31be961a59298",
                "0x755c40ba9bf05223521753995abb2f73ab3229be8ec921f350cb447e384d8ed8",
                27
            )
        );
        let testnet = sign_l1_action(&key, &action, 0, false).unwrap();
        assert_eq!(
            rsv(&testnet),
            (
                "0x542af61ef1f429707e3c76c5293c80d01f74ef853e34b76efffcb57e574f9510",
                "0x17b8b32f086e8cdede991f1e2c529f5dd5297cbe8128500e00cbaf766204a613",
                28
            )
        );
    }

    /// `test_l1_action_signing_order_matches` and `…_order_with_cloid_matches`: ETH (asset 1)
    /// 100 at 100 GTC, nonce 0, without and with the cloid `0x…01`.
    #[test]
    fn orders_sign_as_the_sdk_signs_them() {
        let key = signing_key(KEY).unwrap();
        let plain = order(1, "100", "100", Kind::Limit(Limit { tif: "Gtc" }), None);
        assert_eq!(
            rsv(&sign_l1_action(&key, &plain, 0, true).unwrap()),
            (
                "0xd65369825a9df5d80099e513cce430311d7d26ddf477f5b3a33d2806b100d78e",
                "0x2b54116ff64054968aa237c20ca9ff68000f977c93289157748a3162b6ea940e",
                28
            )
        );
        assert_eq!(
            rsv(&sign_l1_action(&key, &plain, 0, false).unwrap()),
            (
                "0x82b2ba28e76b3d761093aaded1b1cdad4960b3af30212b343fb2e6cdfa4e3d54",
                "0x6b53878fc99d26047f4d7e8c90eb98955a109f44209163f52d8dc4278cbbd9f5",
                27
            )
        );
        let cloid = Some("0x00000000000000000000000000000001");
        let with_cloid = order(1, "100", "100", Kind::Limit(Limit { tif: "Gtc" }), cloid);
        assert_eq!(
            rsv(&sign_l1_action(&key, &with_cloid, 0, true).unwrap()),
            (
                "0x41ae18e8239a56cacbc5dad94d45d0b747e5da11ad564077fcac71277a946e3",
                "0x3c61f667e747404fe7eea8f90ab0e76cc12ce60270438b2058324681a00116da",
                27
            )
        );
    }

    /// `test_l1_action_signing_tpsl_order_matches`: a market stop-loss trigger at 103.
    #[test]
    fn a_trigger_order_signs_as_the_sdk_signs_it() {
        let key = signing_key(KEY).unwrap();
        let trigger = Kind::Trigger(Trigger {
            is_market: true,
            trigger_px: "103",
            tpsl: "sl",
        });
        let action = order(1, "100", "100", trigger, None);
        assert_eq!(
            rsv(&sign_l1_action(&key, &action, 0, true).unwrap()),
            (
                "0x98343f2b5ae8e26bb2587daad3863bc70d8792b09af1841b6fdd530a2065a3f9",
                "0x6b5bb6bb0633b710aa22b721dd9dee6d083646a5f8e581a20b545be6c1feb405",
                27
            )
        );
    }

    /// web3.js's documented account (`web3.eth.accounts.privateKeyToAccount`): this key is
    /// 0x2c7536E3605D9C16a7a3D7b1898e529396a65c23.
    #[test]
    fn a_key_has_one_address_and_bad_keys_are_refused() {
        let known = "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318";
        assert_eq!(
            address_of(signing_key(known).unwrap().verifying_key()),
            "0x2c7536e3605d9c16a7a3d7b1898e529396a65c23"
        );
        let key = signing_key(KEY).unwrap();
        let address = address_of(key.verifying_key());
        assert_eq!(address.len(), 42);
        assert_eq!(
            address_of(signing_key(&KEY[2..]).unwrap().verifying_key()),
            address
        );
        for bad in [
            "",
            "0x12",
            &format!("{KEY}00"),
            "0xzz23456789012345678901234567890123456789012345678901234567890123",
        ] {
            let e = signing_key(bad).unwrap_err().to_string();
            assert!(
                e.contains("private key") && !e.contains("0123456789"),
                "{e}"
            );
        }
    }
}
