//! The tools that reach out over the network: an exchange account's connectivity check and a
//! model config's real probe ([`crate::exchange_probe`], [`crate::model_probe`]), as the chat
//! runs them: a failed probe is the tool's failure, its code choosing the fix the skill offers.

use nofxi_skills::Lang;

use super::exec::{Failure, ToolRunner};
use super::{ToolError, ToolOutput};
use crate::exchange_probe::probe_exchange;
use crate::model_probe::probe_model_told;
use crate::probed::Probed;

impl ToolRunner {
    pub(super) async fn exchange_test(
        &self,
        user: &str,
        target: &str,
        lang: Lang,
    ) -> Result<ToolOutput, Failure> {
        tool_result(probe_exchange(self.store.clone(), user, target, lang).await?)
    }

    pub(super) async fn model_test(
        &self,
        user: &str,
        target: &str,
        lang: Lang,
    ) -> Result<ToolOutput, Failure> {
        tool_result(probe_model_told(&self.store, user, target, lang).await?)
    }
}

fn tool_result(probe: Probed) -> Result<ToolOutput, Failure> {
    if probe.ok {
        return Ok(ToolOutput {
            text: Some(probe.text),
            resource_name: Some(probe.name),
            ..Default::default()
        });
    }
    Err(Failure::Tool(ToolError {
        code: probe.code.unwrap_or_else(|| "test_failed".into()),
        message: probe.text,
        resource: Some(probe.name),
    }))
}
