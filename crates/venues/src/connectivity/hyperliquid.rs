//! The connectivity check of a Hyperliquid account: the clock, then the pairing of the agent
//! (API) wallet and the main wallet, then one signed action, then the balance.
//!
//! Hyperliquid has no API key to look up and no IP whitelist: the agent wallet's private key
//! signs, and every query names the main wallet's address. The fault users meet most is the
//! pairing (REFERENCE §3: "the agent wallet's key used where the main wallet address is
//! needed"), so the key check reads both addresses' roles (`{"type": "userRole"}`: `user`,
//! `agent` with the user it acts for, or `missing`; docs, "Info endpoint") and says which of
//! these it is: the agent not approved (never, or pruned: replaced by another unnamed agent,
//! expired), approved for another main wallet, or the agent's own address entered as the main
//! wallet's. Then a cancel of an order that does not exist proves Hyperliquid takes the
//! signature (a testnet switch that does not match the network signs for the other chain:
//! "does not exist" although the agent is approved). Addresses are public but shaped like
//! keys, so they are named by their last four digits.
//!
//! Hyperliquid keeps one position per coin: there is no position mode to check, and the
//! report says so.

use serde_json::Value;

use super::{
    Check, ConnectivityReport, Diagnosis, Permissions, Problem, clock_step, diagnose, skip_rest,
};
use crate::hyperliquid::{HyperliquidPerp, unknown_signer};
use crate::{Exchange, VenueError};

const NO_WHITELIST: &str =
    "Hyperliquid has no IP whitelist: an approved agent wallet signs from any machine";
const ONE_WAY_ONLY: &str = "Hyperliquid has no position mode: one position per coin (one-way only)";

/// `…5a13`: an address by its last four digits.
fn tail(address: &str) -> String {
    let start = address.len().saturating_sub(4);
    format!("…{}", &address[start..])
}

/// What a `userRole` answer says an address is.
enum Role {
    User,
    /// An agent, acting for this main wallet.
    Agent(String),
    Other,
}

fn role(answer: &Value) -> Option<Role> {
    Some(match answer["role"].as_str()? {
        "user" => Role::User,
        "agent" => Role::Agent(answer["data"]["user"].as_str()?.to_ascii_lowercase()),
        _ => Role::Other,
    })
}

/// The agent-wallet problem: fixed by approving the agent or by new credentials, never by an
/// IP whitelist, which Hyperliquid does not have.
fn pairing(message: String) -> Check<()> {
    Check::Failed {
        problem: Problem {
            diagnosis: Diagnosis::AgentWallet,
            code: None,
            message,
        },
    }
}

/// Run every check against a Hyperliquid account.
pub async fn check_hyperliquid(perp: &HyperliquidPerp) -> ConnectivityReport {
    let mut report = ConnectivityReport {
        venue: perp.venue().to_string(),
        clock: Check::skipped("not checked"),
        api_key: Check::skipped("the clock check failed"),
        ip_whitelist: Check::skipped(NO_WHITELIST),
        permissions: Check::skipped("the agent wallet check failed"),
        position_mode: Check::skipped(ONE_WAY_ONLY),
        balance: Check::skipped("the agent wallet check failed"),
        market: None,
    };
    let client = perp.client();
    if !clock_step(&mut report, client.clock_offset().await) {
        return hyperliquid_skips(report);
    }
    let credentials = match client.credentials() {
        Ok(c) => c,
        Err(e) => {
            report.api_key = Check::from_error(Diagnosis::BadKeyFormat, &e);
            return report;
        }
    };
    let (agent, wallet) = (credentials.agent_address(), credentials.wallet_address());
    let roles = async {
        let of_agent = perp.user_role(agent).await?;
        let of_wallet = perp.user_role(wallet).await?;
        Ok::<_, VenueError>((of_agent, of_wallet))
    };
    let (of_agent, of_wallet) = match roles.await {
        Ok(answers) => answers,
        Err(e) => {
            report.api_key = Check::from_error(diagnose(&e), &e);
            return hyperliquid_skips(skip_rest(report, "the agent wallet could not be checked"));
        }
    };
    let (Some(agent_role), Some(wallet_role)) = (role(&of_agent), role(&of_wallet)) else {
        let e = VenueError::unreadable(perp.venue(), "role").in_answer_to("POST /info userRole");
        report.api_key = Check::from_error(Diagnosis::Unreadable, &e);
        return hyperliquid_skips(skip_rest(report, "the agent wallet could not be checked"));
    };
    report.api_key = match (agent_role, wallet_role) {
        // The main wallet's own key: it signs for itself.
        (Role::User, _) if agent == wallet => Check::Passed { value: () },
        (Role::Agent(main), _) if agent == wallet => pairing(format!(
            "wrong main wallet address: wallet_addr {} is the address of the agent wallet this API key signs as, not of the main wallet it trades for ({}); enter the main wallet's address as wallet_addr",
            tail(wallet),
            tail(&main)
        )),
        (_, Role::Agent(main)) => pairing(format!(
            "wrong main wallet address: wallet_addr {} is an agent (API) wallet acting for {}, not a main wallet; enter the address of the wallet that approved the agent as wallet_addr",
            tail(wallet),
            tail(&main)
        )),
        (Role::Agent(main), _) if main == wallet => Check::Passed { value: () },
        (Role::Agent(main), _) => pairing(format!(
            "agent wallet approved for another main wallet: the agent wallet {} this API key signs as acts for {}, not for wallet_addr {}; enter {} as wallet_addr, or approve this agent from {} on Hyperliquid's API page",
            tail(agent),
            tail(&main),
            tail(wallet),
            tail(&main),
            tail(wallet)
        )),
        (Role::User, _) => pairing(format!(
            "the API key is the private key of wallet {}, not of an agent of wallet_addr {}: paste the private key of an agent wallet wallet_addr approved (Hyperliquid → More → API), or enter {} as wallet_addr",
            tail(agent),
            tail(wallet),
            tail(agent)
        )),
        (Role::Other, _) => pairing(format!(
            "agent wallet not approved: Hyperliquid does not know the agent wallet {} this API key signs as (never approved, replaced when another unnamed agent was approved, or expired); approve it for main wallet {} on Hyperliquid's API page (More → API), or paste the private key of an agent wallet that is approved",
            tail(agent),
            tail(wallet)
        )),
    };
    if report.api_key.is_failed() {
        return hyperliquid_skips(skip_rest(report, "the agent wallet check failed"));
    }
    // The pairing holds; a signed action proves the signature is taken on this network.
    if let Err(e) = perp.signed_probe().await {
        report.api_key = if unknown_signer(&e) {
            pairing(format!(
                "Hyperliquid refused the agent wallet's signature although the agent is approved ({}): the account's testnet switch does not match the network its agent was approved on; switch testnet on or off for this account",
                signature_words(&e)
            ))
        } else {
            Check::from_error(diagnose(&e), &e)
        };
        return hyperliquid_skips(skip_rest(report, "the signed check failed"));
    }
    report.permissions = Check::Passed {
        value: Permissions {
            futures: true,
            ip_restricted: None,
        },
    };
    report.balance = match perp.account().await {
        Ok(value) if value.equity.is_zero() => Check::Warning {
            problem: Problem {
                diagnosis: Diagnosis::NoBalance,
                code: None,
                message: format!(
                    "the perp account of main wallet {} holds no USDC: deposit USDC, or move it from Spot to Perps on Hyperliquid",
                    tail(wallet)
                ),
            },
            value,
        },
        Ok(value) => Check::Passed { value },
        Err(e) => Check::from_error(diagnose(&e), &e),
    };
    report
}

/// Hyperliquid's own reasons for the checks it has nothing to run, in place of "skipped
/// because an earlier check failed".
fn hyperliquid_skips(mut report: ConnectivityReport) -> ConnectivityReport {
    report.ip_whitelist = Check::skipped(NO_WHITELIST);
    report.position_mode = Check::skipped(ONE_WAY_ONLY);
    report
}

/// Hyperliquid's words for a refusal.
fn signature_words(e: &VenueError) -> String {
    match e {
        VenueError::Rejected { message, .. } => format!("\"{message}\""),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_named_by_their_last_four_digits() {
        assert_eq!(tail("0x5e9ee1089755c3435139848e47e6635505d5a13a"), "…a13a");
        assert_eq!(tail("ab"), "…ab");
    }
}
