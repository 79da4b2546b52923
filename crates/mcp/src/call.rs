//! One tool call, end to end: the arguments checked against the tool's schema, the caller's
//! scopes, then the assistant's turn for the command the call is, and for a risky action the
//! pending id or, with one, the confirmation.

use std::sync::Arc;

use nofxi_assistant::Assistant;
use nofxi_assistant::confirm_token::{Confirmer, Verdict};
use nofxi_protocol::{Channel, Command, TurnRequest};
use nofxi_skills::{Catalog, Lang, Library};
use nofxi_store::Store;
use serde_json::{Map, Value};

use crate::Principal;
use crate::catalog::{CONFIRM_ARG, Target, scopes_needed};
use crate::outcome::{Outcome, Status};
use crate::pending::{self, Binding};

/// What every call runs with.
pub struct Calls {
    pub store: Arc<Store>,
    pub library: Arc<Library>,
    pub assistant: Arc<Assistant>,
    pub confirmer: Arc<Confirmer>,
    /// The language of replies to tool calls (a chat message's own language wins).
    pub lang: Lang,
}

impl Calls {
    pub async fn call(&self, who: &Principal, tool: &str, mut args: Map<String, Value>) -> Outcome {
        let lang = self.lang;
        let Some(target) = Target::resolve(&self.library, tool, lang) else {
            return refused(lang, "mcp-unknown-tool", &[("tool", tool)]);
        };
        if let Some(scope) = scopes_needed(&target)
            .iter()
            .find(|s| !who.scopes.contains(s))
        {
            return refused(
                lang,
                "mcp-scope",
                &[("tool", tool), ("scope", scope.as_str())],
            );
        }
        if let Target::Chat = target {
            return self.chat(who, &args).await;
        }
        let confirm = args.remove(CONFIRM_ARG);
        if let Err(problems) = check_arguments(&target, &args) {
            return refused(
                lang,
                "mcp-invalid-arguments",
                &[("tool", tool), ("problems", &problems)],
            );
        }
        match confirm {
            Some(Value::String(id)) => self.confirm(who, tool, &target, &args, &id).await,
            Some(_) => refused(
                lang,
                "mcp-invalid-arguments",
                &[("tool", tool), ("problems", "confirm: a string")],
            ),
            None => self.first(who, tool, &target, &args).await,
        }
    }

    /// The call as a command in a new conversation; a confirmation it asks for becomes a
    /// pending id.
    async fn first(
        &self,
        who: &Principal,
        tool: &str,
        target: &Target,
        args: &Map<String, Value>,
    ) -> Outcome {
        let Some(command) = target.command(args) else {
            return refused(self.lang, "mcp-unknown-tool", &[("tool", tool)]);
        };
        let request = self.request(who, tool, args, None, None);
        let response = match self
            .assistant
            .command_turn(request, vec![command], self.lang)
            .await
        {
            Ok(response) => response,
            Err(e) => return self.failed(who, &e.to_string()).await,
        };
        let mut outcome = Outcome::of_turn(&response);
        if outcome.status != Status::ConfirmationRequired {
            return outcome;
        }
        let Some(confirmation) = response.confirmation_binding() else {
            return outcome;
        };
        let objects = self.objects(who, target, args).await;
        let binding = Binding {
            user: &who.user,
            tool,
            conversation_id: &response.conversation_id,
            confirmation,
            args,
            objects: &objects,
        };
        let id = pending::issue(&self.confirmer, &binding, self.store.now_ms());
        let summary = outcome.summary.clone().unwrap_or_default();
        outcome.reply = Catalog::builtin().text(
            self.lang,
            "mcp-confirm-needed",
            &[("summary", &summary), ("tool", tool), ("pending", &id)],
        );
        outcome.pending_id = Some(id);
        outcome
    }

    /// The second step: acts only if the pending id still binds these arguments, the summary
    /// the conversation waits on, and the objects as they were.
    async fn confirm(
        &self,
        who: &Principal,
        tool: &str,
        target: &Target,
        args: &Map<String, Value>,
        pending_id: &str,
    ) -> Outcome {
        let lang = self.lang;
        let stale = || refused(lang, "mcp-pending-stale", &[("tool", tool)]);
        let Some(conversation) = pending::conversation_of(pending_id) else {
            return stale();
        };
        let waiting = match self
            .assistant
            .pending_binding(&who.user, conversation)
            .await
        {
            Ok(Some(waiting)) => waiting,
            Ok(None) => return stale(),
            Err(e) => return self.failed(who, &e.to_string()).await,
        };
        let objects = self.objects(who, target, args).await;
        let binding = Binding {
            user: &who.user,
            tool,
            conversation_id: conversation,
            confirmation: &waiting,
            args,
            objects: &objects,
        };
        match pending::check(&self.confirmer, pending_id, &binding, self.store.now_ms()) {
            Verdict::Valid => {}
            Verdict::Stale => return stale(),
            Verdict::Expired => return refused(lang, "mcp-pending-expired", &[("tool", tool)]),
        }
        let request = self.request(who, tool, args, Some(conversation), Some(waiting.clone()));
        match self
            .assistant
            .command_turn(request, vec![Command::Confirm], lang)
            .await
        {
            Ok(response) => Outcome::of_turn(&response),
            Err(e) => self.failed(who, &e.to_string()).await,
        }
    }

    /// `nofxi_chat`: one message, as a person would type it.
    async fn chat(&self, who: &Principal, args: &Map<String, Value>) -> Outcome {
        let Some(message) = args.get("message").and_then(Value::as_str) else {
            return refused(
                self.lang,
                "mcp-invalid-arguments",
                &[
                    ("tool", crate::catalog::CHAT_TOOL),
                    ("problems", "message: required, a string"),
                ],
            );
        };
        let request = TurnRequest {
            conversation_id: args
                .get("conversation_id")
                .and_then(Value::as_str)
                .map(str::to_string),
            user: who.user.clone(),
            message: message.to_string(),
            channel: Channel::Mcp,
            seen_confirmation: None,
            received_bytes: None,
        };
        // The conversation's own confirmation is the one a "yes" in it answers.
        let request = match &request.conversation_id {
            Some(id) => TurnRequest {
                seen_confirmation: self
                    .assistant
                    .pending_binding(&who.user, id)
                    .await
                    .ok()
                    .flatten(),
                ..request
            },
            None => request,
        };
        match self.assistant.turn(request).await {
            Ok(response) => Outcome::of_turn(&response),
            Err(e) => self.failed(who, &e.to_string()).await,
        }
    }

    fn request(
        &self,
        who: &Principal,
        tool: &str,
        args: &Map<String, Value>,
        conversation: Option<&str>,
        seen: Option<String>,
    ) -> TurnRequest {
        // What the trace shows for the call; secrets are masked by the turn before it is kept.
        let message = format!("{tool} {}", Value::Object(args.clone()));
        TurnRequest {
            conversation_id: conversation.map(str::to_string),
            user: who.user.clone(),
            message,
            channel: Channel::Mcp,
            seen_confirmation: seen,
            received_bytes: None,
        }
    }

    async fn objects(
        &self,
        who: &Principal,
        target: &Target,
        args: &Map<String, Value>,
    ) -> Vec<String> {
        match target {
            Target::Action { refs, .. } => {
                pending::object_versions(&self.store, &who.user, refs, args).await
            }
            _ => Vec::new(),
        }
    }

    /// A failure of nofxi itself (the database), said without anything secret in it.
    async fn failed(&self, who: &Principal, detail: &str) -> Outcome {
        let detail = self
            .assistant
            .redact_for(&who.user, detail)
            .await
            .unwrap_or_default();
        refused(self.lang, "mcp-failed", &[("detail", &detail)])
    }
}

/// The arguments against the tool's input schema, every problem named by its field. A
/// secret field's problem never quotes its value.
fn check_arguments(target: &Target, args: &Map<String, Value>) -> Result<(), String> {
    let (schema, secrets) = match target {
        Target::Action {
            schema, secrets, ..
        } => (schema, secrets.as_slice()),
        Target::Quote { schema } | Target::Function { schema, .. } => (schema, &[][..]),
        Target::Chat => return Ok(()),
    };
    let Ok(validator) = jsonschema::validator_for(schema) else {
        return Ok(());
    };
    let instance = Value::Object(args.clone());
    let problems: Vec<String> = validator
        .iter_errors(&instance)
        .map(|e| {
            let path = e.instance_path().to_string();
            let field = path.trim_start_matches('/');
            let field = field.split('/').next().unwrap_or_default();
            match (field.is_empty(), secrets.iter().any(|s| s == field)) {
                (true, _) => nofxi_assistant::scrub::scrub(&e.to_string()),
                (false, true) => format!("{field}: not a valid value"),
                (false, false) => {
                    format!("{field}: {}", nofxi_assistant::scrub::scrub(&e.to_string()))
                }
            }
        })
        .collect();
    match problems.is_empty() {
        true => Ok(()),
        false => Err(problems.join("; ")),
    }
}

fn refused(lang: Lang, id: &str, args: &[(&str, &str)]) -> Outcome {
    Outcome::refused(Catalog::builtin().text(lang, id, args))
}
