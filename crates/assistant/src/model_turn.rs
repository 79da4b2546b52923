//! The model-backed steps of a turn: asking the gateway when the rules are unsure, and
//! answering open questions over composed facts. Both go through the user's assistant model;
//! without one they fall back to the rules' reading and a "set a model" note.

use std::sync::Arc;

use nofxi_llm::{ChatRequest, Message, Provider, StreamDelta};
use nofxi_protocol::{AnswerKind, Command, CommandSource, Event, Understanding};

use crate::gateway::prompt::GatewayPrompt;
use crate::gateway::{self, lists, trigger};
use crate::llm_call::LlmCallRecord;
use crate::secrets::RedactedStream;
use crate::turn::Turn;
use crate::{Assistant, assistant_model, compose, model_errors, policy, texts_llm};

/// Tokens of facts the gateway's call may carry for a message the rules could not place.
const GATEWAY_FACTS_TOKENS: u64 = 600;

/// Whether the rules' reading places the message in a task (starts, fills, answers one):
/// then the gateway needs no facts to answer a question.
fn places_something(rules: &Understanding) -> bool {
    rules.commands.iter().any(|c| {
        matches!(
            c,
            Command::StartTask { .. }
                | Command::SetSlots { .. }
                | Command::CorrectSlot { .. }
                | Command::Confirm
                | Command::Deny
                | Command::ExplainEffects { .. }
        )
    })
}

impl Assistant {
    /// The rules' reading, or, where they are unsure and an assistant model is set, the
    /// gateway's (one call). A question the rules could not place goes to an open answer.
    pub(crate) async fn consult_model(
        &self,
        turn: &mut Turn<'_>,
        message: &str,
        rules: Understanding,
    ) -> Understanding {
        if trigger::is_open_question(&rules, message, &self.engine.library, &self.engine.lexicon) {
            return Understanding {
                commands: vec![Command::AnswerQuestion {
                    kind: AnswerKind::Open,
                    topic: message.to_string(),
                }],
                confidence: rules.confidence,
                source: CommandSource::Rules,
            };
        }
        if !trigger::wants_model(
            &rules,
            message,
            &self.engine.library,
            &self.engine.lexicon,
            &turn.names,
        ) {
            return rules;
        }
        let Some(provider) = self.provider(turn).await else {
            return rules;
        };
        let kinds = lists::needed_kinds(&self.engine.library, &turn.conv, &rules);
        let resource_lists =
            lists::render(&self.engine.store, turn.user, &turn.names, &kinds).await;
        let names = turn.names.clone();
        // A message the rules could not place may be a question about the user's figures:
        // the facts it names go with it, so the one call can answer it (no second call).
        let facts = if places_something(&rules) {
            String::new()
        } else {
            let store = &self.engine.store;
            let gathered = compose::gather(store, turn.user, &names, message, turn.lang).await;
            compose::facts_section(gathered, GATEWAY_FACTS_TOKENS)
        };
        let prompt = GatewayPrompt {
            library: &self.engine.library,
            lang: turn.lang,
            message,
            conv: &turn.conv,
            names: &names,
            rules: &rules,
            resource_lists,
            facts,
        };
        let outcome = gateway::understand(
            provider.as_ref(),
            &prompt,
            rules.clone(),
            &self.engine.secrets,
        )
        .await;
        if let Some(error) = &outcome.error {
            let why = model_errors::explain(error, &self.engine.library, turn.lang);
            turn.say(texts_llm::model_failed(turn.lang, &why));
        }
        turn.llm_calls.push(outcome.call);
        turn.model_answer = outcome.answer.map(|a| self.engine.secrets.redact(&a));
        outcome.understanding
    }

    /// The user's assistant model, ready to call; `None` (and a note) when it cannot be used.
    async fn provider(&self, turn: &mut Turn<'_>) -> Option<Arc<dyn Provider>> {
        if let Some(known) = &turn.model {
            return known.clone();
        }
        let model =
            match assistant_model::connect_assistant_model(&self.engine.store, turn.user).await {
                Ok(p) => p,
                Err(e) => {
                    turn.say(texts_llm::model_unusable(turn.lang, &e.to_string()));
                    None
                }
            };
        turn.model = Some(model.clone());
        model
    }

    /// An open question answered by the model over composed facts, streamed to `on_delta`.
    /// A turn makes one model call at most: when the gateway was asked already, its own answer
    /// is said (it saw the same facts), or that it gave none.
    pub(crate) async fn answer_open(
        &self,
        turn: &mut Turn<'_>,
        message: &str,
        on_delta: &(dyn Fn(&str) + Send + Sync),
    ) {
        if let Some(answer) = turn.model_answer.take() {
            on_delta(&answer);
            turn.events.push(Event::Answered {
                kind: AnswerKind::Open,
            });
            turn.say(answer);
            policy::reprompt(turn);
            return;
        }
        if !turn.llm_calls.is_empty() {
            turn.say(texts_llm::gateway_unsure(turn.lang));
            policy::reprompt(turn);
            return;
        }
        let Some(provider) = self.provider(turn).await else {
            turn.say(texts_llm::open_question_needs_model(turn.lang));
            let lower = message.to_lowercase();
            if crate::nlu::route::names_function_subject(&self.engine.library, &lower) {
                turn.say(texts_llm::market_data_without_model(turn.lang));
            }
            policy::reprompt(turn);
            return;
        };
        let composed = compose::compose(
            &self.engine.store,
            turn.user,
            &turn.names,
            &turn.conv.recent,
            message,
            turn.lang,
        )
        .await;
        // The model never sees a credential, from this message or the recent turns.
        let secrets = &self.engine.secrets;
        let request = ChatRequest {
            system: secrets.redact(&composed.system),
            messages: vec![Message::user(secrets.redact(&composed.user))],
            max_tokens: Some(700),
            temperature: Some(0.2),
            ..ChatRequest::default()
        };
        let stream = RedactedStream::new(secrets);
        let sink = |d: StreamDelta| {
            if let StreamDelta::Text(text) = d
                && let Some(shown) = stream.push(&text)
            {
                on_delta(&shown);
            }
        };
        let result = provider.stream(&request, &sink).await;
        if let Some(rest) = stream.finish() {
            on_delta(&rest);
        }
        let call = LlmCallRecord::new("answer", provider.as_ref(), &request, &result);
        match result {
            Ok(completion) => {
                turn.events.push(Event::Answered {
                    kind: AnswerKind::Open,
                });
                turn.say(completion.text);
            }
            Err(e) => {
                let why = model_errors::explain(&e, &self.engine.library, turn.lang);
                turn.say(texts_llm::model_failed(turn.lang, &why));
                turn.say(texts_llm::open_question_needs_model(turn.lang));
            }
        }
        turn.llm_calls.push(call);
        policy::reprompt(turn);
    }
}
