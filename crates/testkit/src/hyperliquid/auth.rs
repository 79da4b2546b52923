//! What Hyperliquid checks before it carries out an `/exchange` action: the action is read
//! into its own types (a body that does not fit is HTTP 422, "Failed to deserialize the JSON
//! body into the target type"), re-encoded as MessagePack in its canonical field order, hashed
//! with the nonce and vault flag, and the EIP-712 signature of the phantom agent over that
//! hash recovers to the signer (the reference SDK's `recover_agent_or_user_from_l1_action`).
//! The signer must be a user or an approved agent of one, else "User or API Wallet 0x… does
//! not exist."; its nonce must be new, above the smallest of its 100 highest, and within
//! (T − 2 days, T + 1 day) of the server's time (docs, "Nonces and API wallets").
//!
//! The mock computes all of this itself, with its own types and encoding: a client whose
//! field order, rounding or signature is off recovers to another address and is refused, as
//! it would be by Hyperliquid.

use k256::ecdsa::{RecoveryId, Signature, VerifyingKey};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha3::{Digest, Keccak256};

use super::state::{NONCES_KEPT, State};

const DAY_MS: i64 = 86_400_000;

/// `{"limit": {"tif": …}}` or `{"trigger": {"isMarket", "triggerPx", "tpsl"}}`.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) enum OrderKind {
    Limit {
        tif: String,
    },
    Trigger {
        #[serde(rename = "isMarket")]
        is_market: bool,
        #[serde(rename = "triggerPx")]
        trigger_px: String,
        tpsl: String,
    },
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub(crate) struct OrderWire {
    pub a: u32,
    pub b: bool,
    pub p: String,
    pub s: String,
    pub r: bool,
    pub t: OrderKind,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub c: Option<String>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub(crate) struct CancelWire {
    pub a: u32,
    pub o: u64,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub(crate) struct CancelByCloidWire {
    pub asset: u32,
    pub cloid: String,
}

/// The actions the mock serves, each in the field order Hyperliquid encodes it.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(tag = "type")]
pub(crate) enum Action {
    #[serde(rename = "order")]
    Order {
        orders: Vec<OrderWire>,
        grouping: String,
    },
    #[serde(rename = "cancel")]
    Cancel { cancels: Vec<CancelWire> },
    #[serde(rename = "cancelByCloid")]
    CancelByCloid { cancels: Vec<CancelByCloidWire> },
    #[serde(rename = "updateLeverage")]
    UpdateLeverage {
        asset: u32,
        #[serde(rename = "isCross")]
        is_cross: bool,
        leverage: u32,
    },
}

fn keccak(bytes: &[u8]) -> [u8; 32] {
    Keccak256::digest(bytes).into()
}

/// The EIP-712 digest of the phantom agent for `connection_id`.
fn digest(connection_id: &[u8; 32], mainnet: bool) -> [u8; 32] {
    let word = |n: u64| {
        let mut w = [0u8; 32];
        w[24..].copy_from_slice(&n.to_be_bytes());
        w
    };
    let domain = [
        keccak(
            b"EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)",
        ),
        keccak(b"Exchange"),
        keccak(b"1"),
        word(1337),
        [0u8; 32],
    ]
    .concat();
    let agent = [
        keccak(b"Agent(string source,bytes32 connectionId)"),
        keccak(if mainnet { b"a" } else { b"b" }),
        *connection_id,
    ]
    .concat();
    keccak(&[&[0x19u8, 0x01][..], &keccak(&domain), &keccak(&agent)].concat())
}

/// The address `private_key` (64 hex digits, `0x` optional) signs as, lower case: what a
/// test approves as an agent.
pub fn address_of_key(private_key: &str) -> Option<String> {
    let hex_key = private_key.trim().trim_start_matches("0x");
    let bytes = hex::decode(hex_key).ok()?;
    let key = k256::ecdsa::SigningKey::from_slice(&bytes).ok()?;
    Some(address_of(key.verifying_key()))
}

fn address_of(key: &VerifyingKey) -> String {
    let point = key.to_sec1_point(false);
    format!("0x{}", hex::encode(&keccak(&point.as_bytes()[1..])[12..]))
}

/// A 32-byte word from `0x…` hex of any length up to 64 digits.
fn word(v: &Value) -> Option<[u8; 32]> {
    let hex_text = v.as_str()?.strip_prefix("0x")?;
    if hex_text.is_empty() || hex_text.len() > 64 {
        return None;
    }
    let padded = format!("{hex_text:0>64}");
    let bytes = hex::decode(padded).ok()?;
    bytes.try_into().ok()
}

/// The address that signed `action` with `nonce`, or `None` when the signature is not one.
pub(crate) fn signer(
    action: &Action,
    nonce: u64,
    signature: &Value,
    mainnet: bool,
) -> Option<String> {
    let mut data = rmp_serde::to_vec_named(action).ok()?;
    data.extend_from_slice(&nonce.to_be_bytes());
    data.push(0x00);
    let digest = digest(&keccak(&data), mainnet);
    let (r, s) = (word(&signature["r"])?, word(&signature["s"])?);
    let v = signature["v"].as_u64()?;
    let recovery = RecoveryId::from_byte(u8::try_from(v.checked_sub(27)?).ok()?)?;
    let sig = Signature::from_scalars(r, s).ok()?;
    let key = VerifyingKey::recover_from_prehash(&digest, &sig, recovery).ok()?;
    Some(address_of(&key))
}

/// The main wallet `signer` acts for: itself when it is a user, the user that approved it
/// when it is an agent.
pub(crate) fn acting_for(st: &State, signer: &str) -> Result<String, String> {
    if st.users.contains_key(signer) {
        return Ok(signer.to_string());
    }
    match st.agents.get(signer) {
        Some((user, _)) => Ok(user.clone()),
        None => Err(format!("User or API Wallet {signer} does not exist.")),
    }
}

/// Record `nonce` for `signer`, or the refusal Hyperliquid gives it.
pub(crate) fn use_nonce(st: &mut State, signer: &str, nonce: u64, now: i64) -> Result<(), String> {
    let n = i64::try_from(nonce).unwrap_or(i64::MAX);
    if n <= now - 2 * DAY_MS {
        return Err(format!(
            "Invalid nonce: nonce too low {nonce} < {}",
            now - 2 * DAY_MS
        ));
    }
    if n >= now + DAY_MS {
        return Err(format!(
            "Invalid nonce: nonce too high {nonce} > {}",
            now + DAY_MS
        ));
    }
    let seen = st.nonces.entry(signer.to_string()).or_default();
    if seen.contains(&nonce) {
        return Err(format!("Invalid nonce: duplicate nonce {nonce}"));
    }
    if seen.len() >= NONCES_KEPT
        && let Some(&smallest) = seen.first()
    {
        if nonce <= smallest {
            return Err(format!("Invalid nonce: nonce too low {nonce} < {smallest}"));
        }
        seen.remove(&smallest);
    }
    seen.insert(nonce);
    Ok(())
}
