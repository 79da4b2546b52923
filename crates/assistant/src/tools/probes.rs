//! The tools that reach out over the network: an exchange account's connectivity check and a
//! model config's real probe. Both report in the user's language; a failed probe comes back
//! as what happened / why / what to do now.

use std::sync::Arc;

use nofxi_skills::Lang;
use nofxi_venues::SystemClock;

use super::exec::{Failure, ToolRunner};
use super::{ToolError, ToolOutput};
use crate::model_probe::{ProbeFailure, probe_model};
use crate::texts::t;

impl ToolRunner {
    pub(super) async fn exchange_test(
        &self,
        user: &str,
        target: &str,
        lang: Lang,
    ) -> Result<ToolOutput, Failure> {
        use nofxi_trader::runtime::connect::{PaperAccount, connect};
        let venue = connect(
            self.store.clone(),
            user,
            target,
            PaperAccount::Exchange,
            Arc::new(SystemClock),
        )
        .await
        .map_err(|e| Failure::Tool(ToolError::new("connect", e.to_string())))?;
        let report =
            nofxi_venues::connectivity::ConnectivityReport::for_exchange(venue.exchange.as_ref())
                .await;
        let text = match (report.ok(), lang) {
            (true, Lang::Zh) => "连接正常。".to_string(),
            (true, Lang::En) => "The connection works.".to_string(),
            (false, _) => report
                .problems()
                .iter()
                .map(|p| format!("{p:?}"))
                .collect::<Vec<_>>()
                .join("; "),
        };
        Ok(ToolOutput {
            text: Some(text),
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
            return Err(Failure::Tool(ToolError {
                code: "test_failed".into(),
                message: explained(lang, failure),
                resource: Some(report.model),
            }));
        }
        let text = match (&report.note, report.latency_ms) {
            (Some(note), _) => note.clone(),
            (None, latency) => {
                let ms = latency.unwrap_or_default();
                let by = report.answered_by.as_deref().unwrap_or("?");
                t(
                    lang,
                    &format!(
                        "模型配置「{}」可以正常调用：{by} 在 {ms} 毫秒内作答。",
                        report.model
                    ),
                    &format!(
                        "Model config \"{}\" works: {by} answered in {ms} ms.",
                        report.model
                    ),
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

fn explained(lang: Lang, f: &ProbeFailure) -> String {
    let status = f.status.map(|s| format!("HTTP {s}, ")).unwrap_or_default();
    t(
        lang,
        &format!(
            "发生了什么：{}（{status}{}）\n原因：{}\n现在怎么做：{}",
            f.what, f.kind, f.why, f.fix
        ),
        &format!(
            "What happened: {} ({status}{})\nWhy: {}\nWhat to do now: {}",
            f.what, f.kind, f.why, f.fix
        ),
    )
}
