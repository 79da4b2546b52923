//! The dialogue policy: applies commands to the task stack, deterministically. Each repair
//! (Rasa CALM's named patterns) is one function here: start/interrupt, fill and correct,
//! confirm and deny (bound to the summary shown), cancel (asking about a waiting parent),
//! accept a fix offer, answer a side question and return to the task.

use nofxi_protocol::{AnswerKind, CancelScope, Command, Event, ListEdit, TaskStatus};
use nofxi_skills::ResourceKind;
use serde_json::{Map, Value};

use crate::act::{advance, finish, resume_below, same_item};
use crate::conversation::{Pending, Task};
use crate::nlu::names::Resolution;
use crate::nlu::{
    ADD_TO_REASON, NO_BULK_REASON, NOT_FOUND_REASON, OTHER_RESOURCE_REASON, OTHER_VENUE_REASON,
    PART_OF_REASON, UNREAD_WHILE_WAITING_REASON,
};
use crate::turn::Turn;
use crate::{msg, texts};

pub async fn apply(turn: &mut Turn<'_>, command: Command) {
    match command {
        Command::StartTask {
            skill,
            action,
            slots,
        } => start(turn, &skill, &action, slots.into_iter().collect()).await,
        Command::SetSlots { slots } => set_slots(turn, slots.into_iter().collect()).await,
        Command::CorrectSlot { slot, value } => {
            let mut m = Map::new();
            m.insert(slot, value);
            set_slots(turn, m).await
        }
        Command::Confirm => confirm(turn).await,
        Command::Deny => deny(turn).await,
        Command::Cancel { scope } => cancel(turn, scope).await,
        Command::Resume { task_id } => resume(turn, task_id).await,
        Command::Clarify { question, options } => {
            // The question asked now is the one a "yes" answers: a confirmation that waited
            // before it is no longer the open question, and is shown again before it can run.
            if let Some(top) = turn.conv.top_mut()
                && top.status == TaskStatus::AwaitingConfirmation
            {
                top.status = TaskStatus::Collecting;
            }
            // One option offered ("2.5k: is it the initial balance?"): a yes is that option.
            match options.as_slice() {
                [] => {}
                [only] => {
                    turn.conv.pending = Some(Pending::Retry {
                        message: only.clone(),
                    })
                }
                // An offer made this turn before the question (a diagnosis's "say yes to
                // enable it") keeps its yes: the options are then only shown.
                several if turn.conv.pending.is_none() => {
                    turn.conv.pending = Some(Pending::Pick {
                        options: several.to_vec(),
                    })
                }
                _ => {}
            }
            turn.events.push(Event::Clarification { options });
            turn.say(question);
        }
        Command::AnswerQuestion {
            kind: AnswerKind::HowTo,
            topic,
        } => crate::how_to::answer(turn, &topic),
        Command::AnswerQuestion { kind, topic } => answer(turn, kind, &topic),
        Command::ExplainEffects {
            skill,
            action,
            slots,
        } => crate::effects::explain(turn, &skill, &action, slots.into_iter().collect()),
        // A skill function's call is a tool call the assistant makes itself, beside any task
        // (`Assistant::answer_function`): it never reaches the task stack.
        Command::CallFunction { .. } => {}
        Command::CannotHandle { reason } => {
            let text = if let Some(word) = reason.strip_prefix(NOT_FOUND_REASON) {
                texts::nothing_called(turn.lang, word, &similar_names(turn, word))
            } else if let Some(whole) = reason.strip_prefix(PART_OF_REASON) {
                texts::part_not_deleted(turn.lang, whole)
            } else if let Some(whole) = reason.strip_prefix(ADD_TO_REASON) {
                texts::nothing_created(turn.lang, whole)
            } else if let Some(other) = reason.strip_prefix(OTHER_RESOURCE_REASON) {
                texts::values_for_other(turn.lang, other)
            } else if let Some(action) = reason.strip_prefix(NO_BULK_REASON) {
                texts::no_bulk(turn.lang, action)
            } else if let Some(venue) = reason.strip_prefix(OTHER_VENUE_REASON) {
                msg(turn.lang, "venue-not-supported", &[("venue", venue)])
            } else if reason == UNREAD_WHILE_WAITING_REASON {
                msg(turn.lang, "dialogue-unread-confirmation-dropped", &[])
            } else {
                texts::cannot_handle(turn.lang)
            };
            turn.say(text);
            // Words about the user's resources that were not read while a confirmation
            // waits may have changed what the user wants: a later yes must not confirm it.
            let unread_about_resources =
                reason == UNREAD_WHILE_WAITING_REASON || reason.starts_with(OTHER_RESOURCE_REASON);
            if unread_about_resources
                && drop_waiting_confirmation(turn)
                && reason != UNREAD_WHILE_WAITING_REASON
            {
                turn.say(msg(turn.lang, "dialogue-confirmation-dropped", &[]));
            }
            reprompt(turn);
        }
    }
}

/// Drops the task whose confirmation waits, if one does (see `UNREAD_WHILE_WAITING_REASON`);
/// whether one did.
fn drop_waiting_confirmation(turn: &mut Turn<'_>) -> bool {
    let waits = turn
        .conv
        .top()
        .is_some_and(|t| t.status == TaskStatus::AwaitingConfirmation);
    if !waits {
        return false;
    }
    turn.conv.pending = None;
    if let Some(mut t) = turn.conv.stack.pop() {
        t.status = TaskStatus::Cancelled;
        turn.engine.secrets.forget_task(&turn.conv.id, &t.id.0);
        turn.events.push(Event::TaskCancelled { task_id: t.id });
    }
    true
}

/// Names of any kind close to `word` (a typo of one), for "did you mean".
pub(crate) fn similar_names(turn: &Turn<'_>, word: &str) -> Vec<String> {
    let kinds = [
        ResourceKind::Trader,
        ResourceKind::Exchange,
        ResourceKind::Model,
        ResourceKind::Strategy,
    ];
    let mut out = Vec::new();
    for kind in kinds {
        match turn.names.resolve(kind, word, None, false) {
            Resolution::Found(e) => out.push(e.name),
            Resolution::Ambiguous(many) => out.extend(many.into_iter().map(|e| e.name)),
            Resolution::NotFound => {}
        }
    }
    out
}

/// Shows the active task's pending confirmation to this client, as it was asked (a binding is
/// made for one stored without).
fn show_confirmation_again(turn: &mut Turn<'_>) {
    let lang = turn.lang;
    let Some(task) = turn.conv.top_mut() else {
        return;
    };
    let Some(c) = task.confirmation.as_mut() else {
        return;
    };
    if c.binding.is_empty() {
        c.binding = uuid::Uuid::now_v7().to_string();
    }
    let event = Event::ConfirmationRequested {
        task_id: task.id.clone(),
        summary: c.summary.clone(),
        binding: c.binding.clone(),
    };
    let summary = c.summary.clone();
    turn.events.push(event);
    turn.say(msg(lang, "dialogue-confirmation-not-shown", &[]));
    turn.say(summary);
}

/// Brings an interrupted task back to the top; the one it replaces is interrupted in turn.
async fn resume(turn: &mut Turn<'_>, task_id: Option<nofxi_protocol::TaskId>) {
    let at = match task_id {
        Some(id) => turn.conv.stack.iter().position(|t| t.id == id),
        None => turn.conv.stack.len().checked_sub(1),
    };
    let Some(at) = at else {
        turn.say(msg(turn.lang, "dialogue-nothing-to-resume", &[]));
        return;
    };
    if at + 1 != turn.conv.stack.len() {
        let task = turn.conv.stack.remove(at);
        if let Some(top) = turn.conv.top_mut()
            && !top.status.is_finished()
        {
            top.status = TaskStatus::Interrupted;
            let id = top.id.clone();
            turn.events.push(Event::TaskInterrupted { task_id: id });
        }
        turn.conv.stack.push(task);
    }
    if resume_below(turn, false) {
        advance(turn).await;
    }
}

async fn start(turn: &mut Turn<'_>, skill: &str, action: &str, slots: Map<String, Value>) {
    if started_this_turn(turn) {
        queue(turn, skill, action, slots);
        return;
    }
    drop_waiting_reads(turn);
    if let Some(top) = turn.conv.top_mut()
        && !top.status.is_finished()
    {
        top.status = TaskStatus::Interrupted;
        let id = top.id.clone();
        turn.events.push(Event::TaskInterrupted { task_id: id });
    }
    push_started(turn, Task::new(skill, action), slots);
    advance(turn).await;
}

/// Puts `task` on top of the stack as started, with its first values.
fn push_started(turn: &mut Turn<'_>, task: Task, slots: Map<String, Value>) {
    turn.events.push(Event::TaskStarted {
        task_id: task.id.clone(),
        skill: task.skill.clone(),
        action: task.action.clone(),
    });
    turn.conv.stack.push(task);
    put_slots(turn, slots);
}

/// Whether the active task was started by this very message and still waits (for a value or a
/// confirmation): a second request of the same message then waits its turn below it.
fn started_this_turn(turn: &Turn<'_>) -> bool {
    let Some(top) = turn.conv.top().filter(|t| !t.status.is_finished()) else {
        return false;
    };
    turn.events
        .iter()
        .any(|e| matches!(e, Event::TaskStarted { task_id, .. } if *task_id == top.id))
}

/// Puts a task below the active one, with its values, to run when that one is done
/// ([`crate::act::resume_below`] says "Next").
fn queue(turn: &mut Turn<'_>, skill: &str, action: &str, slots: Map<String, Value>) {
    let mut task = Task::new(skill, action);
    task.status = TaskStatus::Interrupted;
    task.queued = true;
    push_started(turn, task, slots);
    if let Some(task) = turn.conv.stack.pop() {
        let below = turn.conv.stack.len().saturating_sub(1);
        turn.conv.stack.insert(below, task);
    }
}

/// Sets values on the active task; a value for a slot already given is a correction: it
/// replaces the old one and drops any confirmation shown for the old values.
fn put_slots(turn: &mut Turn<'_>, slots: Map<String, Value>) {
    if turn.read_by_model
        && let Some(task) = turn.conv.top_mut()
    {
        task.read_by_model = true;
    }
    let conv_id = turn.conv.id.clone();
    let library = turn.engine.library.clone();
    let Some(task) = turn.conv.stack.last_mut() else {
        return;
    };
    let action = library.action(&task.skill, &task.action);
    let mut events = Vec::new();
    let mut said = Vec::new();
    let secrets = &turn.engine.secrets;
    // What the values arriving now say of the account (its type, its name), for masks.
    let given = slots.clone();
    for (name, value) in slots {
        // Named without a value ("change the api key of main"): asked for, not set.
        if value.is_null() {
            if name != "target" && !task.asked.contains(&name) {
                task.asked.push(name);
            }
            continue;
        }
        let slot = action.and_then(|a| a.slot(&name));
        let secret = slot.is_some_and(|s| s.is_secret());
        // A secret is checked before it is kept: it is never shown again to be corrected,
        // and "later" stored as a key makes an account that fails only when it trades.
        if secret && let Some(Err(e)) = slot.map(|s| s.check_value(&value)) {
            said.push(e.message.get(turn.lang).to_string());
            continue;
        }
        // The domain's one rule for credential values (a space inside, a control or
        // zero-width character), as the CLI and the store apply it, said before it is kept.
        if secret
            && let Some(text) = value.as_str()
            && let Some(problem) = nofxi_domain::secret::credential_value_problem(&name, text)
        {
            let problem = nofxi_domain::FieldProblem::new(name.clone(), problem);
            said.push(texts::t(turn.lang, &problem.to_zh(), &problem.fix()));
            continue;
        }
        // A name said at a sentence's end ("call it dog-bot.", "called temp: rules, …") keeps
        // none of the sentence's punctuation around it.
        let value = match (value, action.and_then(crate::nlu::new_create::name_slot)) {
            (Value::String(text), Some(naming)) if naming == name => {
                Value::String(crate::nlu::words::trim_punct(&text).to_string())
            }
            (value, _) => value,
        };
        // A key as a name ("rename live2 to akfakekey…") would be shown in every list, and
        // masked in every reply: refused, without repeating it.
        let url = slot.is_some_and(|s| s.ty == nofxi_skills::SlotType::Url);
        if !secret
            && !url
            && let Some(text) = value.as_str()
            && (secrets.is_known(text) || crate::scrub::scrub(text) != text)
        {
            said.push(msg(turn.lang, "dialogue-value-is-key", &[]));
            continue;
        }
        let shown = if secret {
            let clear = value
                .as_str()
                .map(str::to_string)
                .unwrap_or(value.to_string());
            task.secret_slots.insert(name.clone());
            let account = crate::secrets::account_type(&given, &task.slots, &turn.names);
            Value::String(
                turn.engine
                    .secrets
                    .put(&conv_id, &task.id.0, &name, &clear, account),
            )
        } else {
            edited(task, &name, value)
        };
        // Another target: what was read of the old one is stale, and the coin lists its edits
        // gave are recomputed from the new one's lists.
        if name == "target" && task.slots.get("target") != Some(&shown) {
            task.before.clear();
            for (slot, edit) in std::mem::take(&mut task.edits) {
                task.slots.insert(slot, edit);
            }
        }
        task.resolved.remove(&name);
        task.confirmed = None;
        task.confirmation = None;
        task.given.insert(name.clone());
        task.slots.insert(name.clone(), shown.clone());
        events.push(Event::SlotSet {
            task_id: task.id.clone(),
            slot: name,
            value: shown,
            adjusted: None,
        });
    }
    if task.status == TaskStatus::AwaitingConfirmation {
        task.status = TaskStatus::Collecting;
    }
    turn.events.extend(events);
    for line in said {
        turn.say(line);
    }
}

/// A list edit on a task that already holds the list ("coins BTC" … "also SOL") applies to
/// that list; one on a task without it stays an edit, for `act` to apply to the stored value.
fn edited(task: &mut Task, name: &str, value: Value) -> Value {
    let Some(edit) = ListEdit::from_value(&value) else {
        task.edits.remove(name);
        return value;
    };
    if let Some(earlier) = task.edits.get(name).and_then(ListEdit::from_value) {
        task.edits
            .insert(name.to_string(), earlier.then(edit.clone()).to_value());
    }
    match task.slots.get(name) {
        Some(Value::Array(list)) => Value::Array(edit.apply(list, same_item)),
        Some(earlier) => {
            ListEdit::from_value(earlier).map_or(value, |earlier| earlier.then(edit).to_value())
        }
        None => value,
    }
}

async fn set_slots(turn: &mut Turn<'_>, slots: Map<String, Value>) {
    let Some(top) = turn.conv.top() else {
        turn.say(texts::cannot_handle(turn.lang));
        return;
    };
    if restates_for_another_target(top, &slots) {
        let (skill, action) = (top.skill.clone(), top.action.clone());
        // "test m1" failed and its fix is offered, then "test m2": m1's task is done, its
        // offer left; the request on m2 is a new one (it was dropped with the offer before).
        if top.offer.is_some() {
            finish(turn, TaskStatus::Cancelled, None);
        }
        start(turn, &skill, &action, slots).await;
        return;
    }
    if slots.is_empty() {
        // "use the defaults": fill every missing slot that has one.
        let library = turn.engine.library.clone();
        if let Some(task) = turn.conv.top_mut()
            && let Some(action) = library.action(&task.skill, &task.action)
        {
            for s in &action.slots {
                if let (false, Some(d)) = (task.slots.contains_key(&s.name), &s.default) {
                    task.slots.insert(s.name.clone(), d.clone());
                }
            }
        }
    }
    put_slots(turn, slots);
    advance(turn).await;
}

/// "rotate the key on main …" then "rename sandbox to paper2": a new target together with
/// new values of its own is a new request of the same kind, not a correction. Correcting
/// would carry the first request's values (the new key) over to the other resource.
/// A new target alone ("actually, beta") stays a correction.
fn restates_for_another_target(task: &Task, slots: &Map<String, Value>) -> bool {
    let Some(new_target) = slots.get("target") else {
        return false;
    };
    let old_target = task.slots.get("target");
    let changes_target = old_target.is_some_and(|old| {
        old.as_str().map(str::to_lowercase) != new_target.as_str().map(str::to_lowercase)
    });
    let own_values = slots.keys().any(|k| k != "target");
    let earlier_values = task.given.iter().any(|k| k != "target");
    // A task whose steps ran (only its fix offer waits) has nothing left to correct.
    let ran = task.offer.is_some();
    changes_target && (ran || own_values && earlier_values)
}

async fn confirm(turn: &mut Turn<'_>) {
    match turn.conv.pending.take() {
        Some(Pending::CancelParent { .. }) => {
            if let Some(mut parent) = turn.conv.stack.pop() {
                parent.status = TaskStatus::Cancelled;
                turn.events
                    .push(Event::TaskCancelled { task_id: parent.id });
                turn.say(msg(turn.lang, "dialogue-parent-cancelled", &[]));
            }
            return;
        }
        // "算了 还是启用吧" was offered its inverse: the yes starts it, confirmed by its rule.
        Some(Pending::Undo { inverse }) => {
            if let Some((skill, action)) = inverse.task.split_once('.') {
                let (skill, action) = (skill.to_string(), action.to_string());
                start(turn, &skill, &action, inverse.slots).await;
            }
            return;
        }
        Some(other) => turn.conv.pending = Some(other),
        None => {}
    }
    let Some(task) = turn.conv.top() else {
        turn.say(msg(turn.lang, "dialogue-nothing-to-confirm", &[]));
        return;
    };
    if let Some(offer) = task.offer.clone() {
        let Some((skill, action)) = offer.task.split_once('.') else {
            return;
        };
        if let Some(parent) = turn.conv.top_mut() {
            parent.offer = None;
            parent.status = TaskStatus::Interrupted;
        }
        let mut sub = Task::new(skill, action);
        sub.resume_parent = offer.resume_on_success;
        push_started(turn, sub, offer.slots);
        advance(turn).await;
        return;
    }
    // A confirmation a tool call asked for is that call's to confirm, with its pending id:
    // a yes typed anywhere else (`nofxi_chat`, the web chat) does nothing.
    if let Some(c) = &task.confirmation
        && c.by_tool_call
        && !turn.tool_call
    {
        let tool = nofxi_skills::export::action_tool_name(&task.skill, &task.action);
        turn.say(msg(
            turn.lang,
            "dialogue-confirm-by-tool-call",
            &[("tool", &tool)],
        ));
        return;
    }
    match (&task.confirmation, task.status) {
        // A yes from a client that was not shown this confirmation (another chat on the same
        // conversation asked it) confirms nothing: the confirmation is shown here, with its
        // binding, and the next yes from this client counts.
        (Some(c), TaskStatus::AwaitingConfirmation)
            if c.binding.is_empty() || turn.seen_confirmation.as_deref() != Some(&c.binding) =>
        {
            show_confirmation_again(turn);
        }
        (Some(c), TaskStatus::AwaitingConfirmation) => {
            // The objects the summary named must still be as they were shown.
            let changed = crate::act::changed_since(turn, &c.objects).await;
            if !changed.is_empty() {
                crate::act::set_aside(turn, changed).await;
                advance(turn).await;
                return;
            }
            let Some(c) = turn.conv.top().and_then(|t| t.confirmation.as_ref()) else {
                return;
            };
            let bound = crate::act::pending_binding(turn, &c.fingerprint)
                .unwrap_or_else(|| format!("{}\u{0}{}", c.summary, c.fingerprint));
            let id = task.id.clone();
            if let Some(task) = turn.conv.top_mut() {
                task.confirmed = Some(bound);
            }
            turn.events.push(Event::Confirmed { task_id: id });
            advance(turn).await;
        }
        _ if task.status == TaskStatus::Interrupted => {
            if resume_below(turn, false) {
                advance(turn).await;
            }
        }
        // "Continue" to a task that came back waiting for its confirmation: show it now, in
        // a message of its own. (A yes confirms only a summary already shown.)
        _ if task.status == TaskStatus::Collecting => advance(turn).await,
        _ => {
            turn.say(msg(turn.lang, "dialogue-nothing-to-confirm", &[]));
            reprompt(turn);
        }
    }
}

async fn deny(turn: &mut Turn<'_>) {
    if let Some(Pending::CancelParent { .. }) = turn.conv.pending.take() {
        if resume_below(turn, false) {
            advance(turn).await;
        }
        return;
    }
    let Some(task) = turn.conv.top() else { return };
    if task.offer.is_some() {
        finish(turn, TaskStatus::Cancelled, None);
        turn.say(msg(turn.lang, "dialogue-offer-declined", &[]));
        return;
    }
    // "No" to a confirmation ends the task. Kept open, it would come back later with the
    // values the user just refused, and a "yes" meant for something else would carry them
    // out. A correction ("不对，我说的是 btc-pro") is read as one before it gets here.
    turn.events.push(Event::Denied {
        task_id: task.id.clone(),
    });
    let resumed = finish(turn, TaskStatus::Cancelled, None);
    turn.say(msg(turn.lang, "dialogue-denied", &[]));
    if resumed {
        advance(turn).await;
    }
}

async fn cancel(turn: &mut Turn<'_>, scope: CancelScope) {
    turn.conv.pending = None;
    if turn.conv.stack.is_empty() && already_done(turn) {
        return;
    }
    if turn.conv.stack.is_empty() {
        turn.say(msg(turn.lang, "dialogue-nothing-in-progress", &[]));
        return;
    }
    if scope == CancelScope::All {
        while let Some(mut t) = turn.conv.stack.pop() {
            t.status = TaskStatus::Cancelled;
            turn.engine.secrets.forget_task(&turn.conv.id, &t.id.0);
            turn.events.push(Event::TaskCancelled { task_id: t.id });
        }
        turn.say(msg(turn.lang, "dialogue-all-cancelled", &[]));
        return;
    }
    if let Some(mut t) = turn.conv.stack.pop() {
        t.status = TaskStatus::Cancelled;
        turn.engine.secrets.forget_task(&turn.conv.id, &t.id.0);
        turn.events.push(Event::TaskCancelled { task_id: t.id });
    }
    turn.say(msg(turn.lang, "dialogue-cancelled", &[]));
    if let Some(parent) = turn.conv.top() {
        let label = texts::task_label(
            &turn.engine.library,
            &parent.skill,
            &parent.action,
            turn.lang,
        );
        turn.conv.pending = Some(Pending::CancelParent {
            task_id: parent.id.clone(),
        });
        turn.say(msg(
            turn.lang,
            "dialogue-cancel-parent-too",
            &[("label", &label)],
        ));
    }
}

fn answer(turn: &mut Turn<'_>, kind: AnswerKind, topic: &str) {
    let lang = turn.lang;
    let wanted = match kind {
        AnswerKind::ErrorExplanation => nofxi_skills::SkillKind::Diagnosis,
        _ => nofxi_skills::SkillKind::Guidance,
    };
    let library = turn.engine.library.clone();
    let Some(k) = library.knowledge(wanted, topic) else {
        turn.say(texts::cannot_handle(lang));
        return;
    };
    let interrupted = kind == AnswerKind::ErrorExplanation && turn.conv.top().is_some();
    if interrupted && let Some(id) = turn.conv.top().map(|t| t.id.clone()) {
        turn.events.push(Event::TaskInterrupted { task_id: id });
    }
    let mut parts = Vec::new();
    if let Some(a) = &k.answer {
        parts.push(a.get(lang).to_string());
    }
    let [what, why, fix] = [&k.what, &k.why, &k.fix].map(|t| t.as_ref().map(|t| t.get(lang)));
    if let Some(explained) = texts::what_why_fix(lang, what, why, fix) {
        parts.push(explained);
    }
    turn.events.push(Event::Answered { kind });
    turn.say(parts.join("\n"));
    if interrupted && let Some(id) = turn.conv.top().map(|t| t.id.clone()) {
        turn.events.push(Event::TaskResumed { task_id: id });
    }
    reprompt(turn);
}

/// After a side answer, remind the user where the active task stands.
pub fn reprompt(turn: &mut Turn<'_>) {
    drop_waiting_reads(turn);
    let lang = turn.lang;
    let Some(task) = turn.conv.top() else { return };
    if let Some(Pending::Choose {
        task_id, options, ..
    }) = &turn.conv.pending
        && *task_id == task.id
    {
        let shown: Vec<String> = options.iter().map(|(name, _)| name.clone()).collect();
        turn.say(texts::which_one(lang, &shown));
        return;
    }
    let text = if let Some(c) = task
        .confirmation
        .as_ref()
        .filter(|_| task.status == TaskStatus::AwaitingConfirmation)
    {
        c.summary.clone()
    } else if let Some(offer) = &task.offer {
        let (skill, action) = offer.task.split_once('.').unwrap_or((&offer.task, ""));
        let label = texts::task_label(&turn.engine.library, skill, action, lang);
        msg(lang, "dialogue-offer-waiting", &[("label", &label)])
    } else if !task.asked.is_empty() {
        let action = turn.engine.library.action(&task.skill, &task.action);
        let labels: Vec<String> = task
            .asked
            .iter()
            .map(|n| match action.and_then(|a| a.slot(n)) {
                Some(slot) => slot.label().get(lang).to_string(),
                None => n.clone(),
            })
            .collect();
        let labels = labels.join(&msg(lang, "list-separator", &[]));
        msg(lang, "dialogue-still-need", &[("slots", &labels)])
    } else {
        return;
    };
    turn.say(text);
}

/// A look-up still waiting for which one ("show eth" → "did you mean eth-bot?") is dropped
/// once the user moves on: reading is cheap to ask again, and a reminder of it after every
/// later answer, or a "continue listing traders?" later, is noise that hides the real tasks.
fn drop_waiting_reads(turn: &mut Turn<'_>) {
    while let Some(top) = turn.conv.top()
        && !top.status.is_finished()
        && turn
            .engine
            .library
            .action(&top.skill, &top.action)
            .is_some_and(|a| a.risk == nofxi_skills::Risk::Query)
    {
        let Some(mut t) = turn.conv.stack.pop() else {
            return;
        };
        if matches!(&turn.conv.pending, Some(Pending::Choose { task_id, .. }) if *task_id == t.id) {
            turn.conv.pending = None;
        }
        t.status = TaskStatus::Cancelled;
        turn.engine.secrets.forget_task(&turn.conv.id, &t.id.0);
        turn.events.push(Event::TaskCancelled { task_id: t.id });
    }
}

/// A cancel right after a turn that changed something: the change is done and is said so,
/// with the request that undoes it (`undo-<skill>-<action>` in the catalogs), instead of an
/// "OK" that reads as if nothing happened. False when the last turn changed nothing.
fn already_done(turn: &mut Turn<'_>) -> bool {
    let done: Vec<crate::conversation::Done> = turn.conv.done_last_turn().cloned().collect();
    if done.is_empty() {
        return false;
    }
    // One change to take back: offered, a yes runs its inverse. Several, or none known: how.
    let single = match done.as_slice() {
        [only] => only.inverse.clone(),
        _ => None,
    };
    for d in done {
        let label = texts::task_label(&turn.engine.library, &d.skill, &d.action, turn.lang);
        let name = d.name.unwrap_or_default();
        let undo_id = format!("undo-{}-{}", d.skill, d.action);
        let undo = match (&single, nofxi_skills::Catalog::builtin().has(&undo_id)) {
            (Some(inverse), _) => inverse.offer(turn.lang).to_string(),
            (None, true) => msg(turn.lang, &undo_id, &[("name", &name)]),
            (None, false) => msg(turn.lang, "undo-by-hand", &[]),
        };
        turn.say(msg(
            turn.lang,
            "already-done",
            &[("label", &label), ("name", &name), ("undo", &undo)],
        ));
    }
    if let Some(inverse) = single {
        turn.conv.pending = Some(Pending::Undo { inverse });
    }
    true
}
