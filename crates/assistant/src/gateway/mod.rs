//! The one-pass gateway (seed 004 §2.3): when the rules are unsure and the user has an
//! assistant model, ONE model call turns the message into the same typed commands the rules
//! produce. Code validates them; an answer that does not validate becomes a clarifying
//! question, never a guess.
//!
//! - [`trigger`] decides whether the model is asked at all;
//! - [`prompt`] composes what it sees: persona, skill summaries from the skill files, the task
//!   stack, current references, and only the resource lists the missing slots need;
//! - [`parse`] reads its answer and checks every command against the skills and the user's
//!   resources.

pub mod lists;
pub mod parse;
pub mod prompt;
pub mod trigger;

use nofxi_llm::{ChatRequest, Message, Provider};
use nofxi_protocol::{Command, CommandSource, Understanding};

use crate::llm_call::LlmCallRecord;
use crate::secrets::SecretCache;
use crate::texts_llm;

/// The gateway's answer: commands to apply, and the record of the call for the trace.
pub struct GatewayOutcome {
    pub understanding: Understanding,
    pub call: LlmCallRecord,
    /// The call failed; the understanding is then the rules' own.
    pub error: Option<nofxi_llm::LlmError>,
    /// The model's answer to a question asked in the message, if it gave one.
    pub answer: Option<String>,
}

/// Asks the model once. A transport or provider error keeps the rules' understanding and says
/// why in the call record; the caller decides what to tell the user.
pub async fn understand(
    provider: &dyn Provider,
    input: &prompt::GatewayPrompt<'_>,
    rules: Understanding,
    secrets: &SecretCache,
) -> GatewayOutcome {
    // The model never sees a credential: the rules read secrets from the message, and the
    // model may not fill a secret slot (see `parse`).
    let system = secrets.redact(&input.system());
    let user = secrets.redact(&input.user());
    let request = ChatRequest {
        system,
        messages: vec![Message::user(user)],
        json_output: true,
        max_tokens: Some(512),
        temperature: Some(0.0),
        ..ChatRequest::default()
    };
    let result = provider.complete(&request).await;
    let call = LlmCallRecord::new("understand", provider, &request, &result);
    let error = result.as_ref().err().cloned();
    let mut answer = None;
    let understanding = match result {
        Ok(completion) => match parse::commands(&completion.text, input) {
            Ok(parsed) => {
                answer = parsed.answer;
                Understanding {
                    commands: parsed.commands,
                    confidence: parsed.confidence,
                    source: CommandSource::Llm,
                }
            }
            Err(why) => {
                tracing::debug!(%why, "gateway answer rejected");
                clarify(input, &rules)
            }
        },
        Err(_) => rules,
    };
    GatewayOutcome {
        understanding,
        call,
        error,
        answer,
    }
}

/// The fallback for an answer that does not validate: ask, offering what the rules saw.
fn clarify(input: &prompt::GatewayPrompt<'_>, rules: &Understanding) -> Understanding {
    let lang = input.lang;
    let options = rules
        .commands
        .iter()
        .filter_map(|c| match c {
            Command::StartTask { skill, action, .. } => input
                .library
                .action(skill, action)
                .map(|a| a.description.get(lang).to_string()),
            _ => None,
        })
        .collect::<Vec<_>>();
    Understanding {
        commands: vec![Command::Clarify {
            question: texts_llm::gateway_unsure(lang),
            options,
        }],
        confidence: 0.0,
        source: CommandSource::Llm,
    }
}
