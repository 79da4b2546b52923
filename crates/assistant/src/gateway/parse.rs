//! Reading the gateway model's answer. Everything it says is checked against the skill files
//! and the user's resources before the dialogue policy sees it; one bad command rejects the
//! whole answer, because half an understanding is a guess.

use nofxi_protocol::TaskStatus;
use nofxi_protocol::{AnswerKind, Command};
use nofxi_skills::Action;
use serde::Deserialize;
use serde_json::{Map, Value};

use super::prompt::GatewayPrompt;

pub struct Parsed {
    pub commands: Vec<Command>,
    pub confidence: f32,
    /// The model's answer to a question, said in place of a second call for it.
    pub answer: Option<String>,
}

#[derive(Deserialize)]
struct Answer {
    #[serde(default)]
    commands: Vec<Command>,
    #[serde(default = "default_confidence")]
    confidence: f32,
    #[serde(default)]
    answer: Option<String>,
}

fn default_confidence() -> f32 {
    0.7
}

/// The answer's commands, or why they cannot be used.
pub fn commands(text: &str, input: &GatewayPrompt<'_>) -> Result<Parsed, String> {
    let json = json_object(text).ok_or("the answer holds no JSON object")?;
    let answer: Answer =
        serde_json::from_str(json).map_err(|e| format!("not the command schema: {e}"))?;
    let said = answer.answer.filter(|a| !a.trim().is_empty());
    let mut commands = answer.commands;
    if commands.is_empty() {
        // An answer alone ("hi!", "you can add a paper account with …") is a question answered.
        let Some(_) = &said else {
            return Err("no commands".into());
        };
        commands.push(Command::AnswerQuestion {
            kind: AnswerKind::Open,
            topic: input.message.to_string(),
        });
    }
    for command in &commands {
        check(command, input)?;
    }
    Ok(Parsed {
        commands,
        confidence: answer.confidence.clamp(0.0, 1.0),
        answer: said,
    })
}

/// The outermost `{…}` of the text: models wrap JSON in prose or code fences despite asking.
fn json_object(text: &str) -> Option<&str> {
    let start = text.find('{')?;
    let end = text.rfind('}')?;
    (end > start).then(|| &text[start..=end])
}

fn check(command: &Command, input: &GatewayPrompt<'_>) -> Result<(), String> {
    match command {
        Command::StartTask {
            skill,
            action,
            slots,
        } => {
            let act = input
                .library
                .action(skill, action)
                .ok_or_else(|| format!("no action {skill}.{action}"))?;
            check_slots(act, slots, input)
        }
        Command::SetSlots { slots } => check_slots(top_action(input)?, slots, input),
        Command::CorrectSlot { slot, value } => {
            let mut one = Map::new();
            one.insert(slot.clone(), value.clone());
            check_slots(top_action(input)?, &one.into_iter().collect(), input)
        }
        // A yes the rules did not recognise ("行 就这么办", "sure, go for it") may be read by
        // the model, but only as the answer to a confirmation already shown: the policy then
        // applies it exactly as a rule's yes, to the confirmation this client was shown. With
        // nothing waiting, there is nothing a model's yes could approve.
        Command::Confirm => match input.conv.top() {
            Some(t) if t.status == TaskStatus::AwaitingConfirmation || t.offer.is_some() => Ok(()),
            _ => Err("nothing waits for a yes".into()),
        },
        Command::Deny | Command::Resume { .. } => top_action(input).map(|_| ()),
        Command::Cancel { .. } | Command::CannotHandle { .. } => Ok(()),
        Command::Clarify { question, options } => {
            if question.trim().is_empty() || options.len() < 2 {
                Err("a clarification needs a question and at least two options".into())
            } else {
                Ok(())
            }
        }
        Command::ExplainEffects {
            skill,
            action,
            slots,
        } => {
            let act = input
                .library
                .action(skill, action)
                .ok_or_else(|| format!("no action {skill}.{action}"))?;
            check_slots(act, slots, input)
        }
        Command::CallFunction { function, .. } => {
            if input.library.function(function).is_some() && crate::market_data::runs(function) {
                Ok(())
            } else {
                Err(format!("no function {function} nofxi runs"))
            }
        }
        Command::AnswerQuestion { kind, .. } => match kind {
            AnswerKind::Open | AnswerKind::Facts | AnswerKind::Market | AnswerKind::Effects => {
                Ok(())
            }
            other => Err(format!("{other:?} answers come from the rules")),
        },
    }
}

fn top_action<'a>(input: &'a GatewayPrompt<'_>) -> Result<&'a Action, String> {
    let top = input.conv.top().ok_or("no active task")?;
    input
        .library
        .action(&top.skill, &top.action)
        .ok_or_else(|| "the active task's action is gone".into())
}

/// Slot names must exist; values for resource slots must be one of the user's resources.
fn check_slots(
    action: &Action,
    slots: &std::collections::BTreeMap<String, Value>,
    input: &GatewayPrompt<'_>,
) -> Result<(), String> {
    for (name, value) in slots {
        let slot = action
            .slot(name)
            .ok_or_else(|| format!("{} has no slot {name}", action.name))?;
        if slot.is_secret() {
            // Secrets are only ever taken from the user's own message by the rules.
            return Err(format!("the model may not fill the secret slot {name}"));
        }
        if let Some(kind) = slot.ref_kind {
            let given = value
                .as_str()
                .ok_or_else(|| format!("{name} must be a name"))?;
            let lower = given.to_lowercase();
            let known = input
                .names
                .of_kind(kind)
                .any(|e| e.lower == lower || e.id == given);
            if !known {
                return Err(format!("no {} named {given}", kind.as_str()));
            }
        }
    }
    Ok(())
}
