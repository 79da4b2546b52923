//! The tools that reach out over the network: an exchange account's connectivity check and a
//! model config's real probe. Both report in the user's language; a failed probe comes back
//! as what happened / why / what to do now.

use std::sync::Arc;

use nofxi_skills::{Lang, Library};
use nofxi_venues::SystemClock;
use nofxi_venues::connectivity::{Check, Diagnosis, Problem};

use super::exec::{Failure, ToolRunner};
use super::{ToolError, ToolOutput};
use crate::exchange_errors;
use crate::model_errors::Explanation;
use crate::model_probe::{ProbeFailure, probe_model};
use crate::{msg, texts};

impl ToolRunner {
    /// The exchange check of `nofxi exchange test` (clock → key → IP whitelist →
    /// permissions → mode → balance for an exchange account; mode, balance and the public
    /// market it follows for paper).
    /// A failed step comes back as what happened / why / what now for each problem; warnings
    /// (a drifting clock, an empty wallet) are told beside a working connection.
    pub(super) async fn exchange_test(
        &self,
        user: &str,
        target: &str,
        lang: Lang,
    ) -> Result<ToolOutput, Failure> {
        use nofxi_trader::runtime::connect::{ConnectError, PaperAccount, connect};
        // The slot holds the account's id; the reply names it as the user does.
        let config = self.store.get_exchange(user, target).await?;
        let name = config.spec.account_name.as_str();
        let venue = connect(
            self.store.clone(),
            user,
            &config.id,
            PaperAccount::Exchange,
            Arc::new(SystemClock),
        )
        .await
        .map_err(|e| match e {
            ConnectError::Store(e) => Failure::Store(e),
            other => match trading_not_available(lang, &other) {
                Some(said) => Failure::Tool(ToolError::new("trading_not_available", said)),
                None => Failure::Tool(ToolError::new("test_failed", other.to_string())),
            },
        })?;
        let report = venue.check().await;
        let library = Library::builtin().ok();
        let overridden = venue.base_url_override();
        let explain_all = |problems: &[&Problem]| {
            problems
                .iter()
                .map(|p| match &library {
                    Some(library) => {
                        exchange_errors::explained_at(p, library, lang, overridden.as_ref())
                    }
                    None => p.to_string(),
                })
                .collect::<Vec<_>>()
                .join("\n\n")
        };
        let problems = report.problems();
        if !report.ok() {
            // A refused key or signature is fixed by new credentials: the skill offers that
            // update for this code; other failures are fixed outside nofxi.
            let code = match problems.first().map(|p| p.diagnosis) {
                Some(
                    Diagnosis::BadSignature
                    | Diagnosis::BadPassphrase
                    | Diagnosis::BadKeyFormat
                    | Diagnosis::KeyOrIpRejected
                    | Diagnosis::AgentWallet,
                ) => "credentials_rejected",
                _ => "test_failed",
            };
            return Err(Failure::Tool(ToolError {
                code: code.into(),
                message: explain_all(&problems),
                resource: Some(name.to_string()),
            }));
        }
        let mut text = match &report.balance {
            Check::Passed { value } | Check::Warning { value, .. } => msg(
                lang,
                "probe-exchange-works-balance",
                &[
                    ("name", name),
                    ("equity", &value.equity.round_dp(2).to_string()),
                    ("asset", &value.asset),
                    ("available", &value.available.round_dp(2).to_string()),
                ],
            ),
            _ => msg(lang, "probe-exchange-works", &[("name", name)]),
        };
        // A paper account on a venue's prices: the probe of that market, which answered.
        if let Some(Check::Passed { value: m }) = &report.market {
            text.push(' ');
            text.push_str(&msg(
                lang,
                "probe-exchange-prices",
                &[
                    ("source", &m.source),
                    ("symbol", &m.symbol),
                    ("last", &m.last.to_string()),
                ],
            ));
        }
        if !problems.is_empty() {
            text.push_str("\n\n");
            text.push_str(&explain_all(&problems));
        }
        Ok(ToolOutput {
            text: Some(text),
            resource_name: Some(name.to_string()),
            ..Default::default()
        })
    }

    /// One real call to the model's endpoint (see [`crate::model_probe`]).
    pub(super) async fn model_test(
        &self,
        user: &str,
        target: &str,
        lang: Lang,
    ) -> Result<ToolOutput, Failure> {
        let report = probe_model(&self.store, user, target, lang).await?;
        if let Some(failure) = &report.error {
            // A key, model name or base URL the provider refused is fixed in the config: the
            // skill offers that update for this code; a balance or a rate limit is not.
            let in_config = failure
                .diagnosis
                .as_deref()
                .is_some_and(|d| FIXED_IN_CONFIG.contains(&d));
            let code = if in_config {
                "config_rejected"
            } else {
                "test_failed"
            };
            return Err(Failure::Tool(ToolError {
                code: code.into(),
                message: explained(lang, failure),
                resource: Some(report.model),
            }));
        }
        let text = match (&report.note, report.latency_ms) {
            (Some(note), _) => note.clone(),
            (None, latency) => {
                let ms = latency.unwrap_or_default();
                let by = report.answered_by.as_deref().unwrap_or("?");
                msg(
                    lang,
                    "probe-model-works",
                    &[("name", &report.model), ("by", by), ("ms", &ms.to_string())],
                )
            }
        };
        Ok(ToolOutput {
            text: Some(text),
            resource_name: Some(report.model),
            ..Default::default()
        })
    }
}

/// What the chat says of an account of a type nofxi cannot trade on (one an earlier nofxi
/// made: no new one is offered), in the user's language; `None` for any other failure.
pub(super) fn trading_not_available(
    lang: Lang,
    e: &nofxi_trader::runtime::connect::ConnectError,
) -> Option<String> {
    use nofxi_domain::ExchangeType;
    use nofxi_trader::runtime::connect::ConnectError;
    let ConnectError::Unsupported { kind } = e else {
        return None;
    };
    let kind = kind
        .parse::<ExchangeType>()
        .ok()
        .filter(|k| !k.can_trade())?;
    let tradable = ExchangeType::tradable();
    Some(msg(
        lang,
        "exchange-trading-not-available",
        &[("kind", kind.as_str()), ("tradable", &tradable)],
    ))
}

/// The error-diagnosis entries of a model probe whose fix is a change to the model config.
const FIXED_IN_CONFIG: &[&str] = &[
    "model_auth",
    "model_not_found",
    "html_instead_of_json",
    "connection_failed",
];

/// One explanation as the chat shows it.
fn said(lang: Lang, e: &Explanation) -> String {
    texts::what_why_fix(lang, Some(&e.what), Some(&e.why), Some(&e.fix)).unwrap_or_default()
}

fn explained(lang: Lang, f: &ProbeFailure) -> String {
    let status = f.status.map(|s| format!("HTTP {s}, ")).unwrap_or_default();
    let explanation = Explanation {
        diagnosis: f.diagnosis.clone(),
        what: msg(
            lang,
            "probe-failure-what",
            &[("what", &f.what), ("status", &status), ("kind", &f.kind)],
        ),
        why: f.why.clone(),
        fix: f.fix.clone(),
    };
    said(lang, &explanation)
}
