//! A conversation's memory: the task stack, the current reference per resource kind, the last
//! listed resources ("the first one"), a pending yes/no question, and the recent turns.
//!
//! It is serialized whole into the store after every turn. Secret slot values never enter it:
//! a secret slot holds its mask here, and the clear value waits in the engine's memory only
//! (see `secrets.rs`) until the tool that stores it in the vault runs.

use std::collections::{BTreeMap, BTreeSet};

use nofxi_protocol::{TaskId, TaskStatus, TaskView};
use nofxi_skills::{Lang, ResourceKind};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::secrets::SecretCache;

/// A fix sub-task offered after a known failure, waiting for the user's yes or no.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Offer {
    /// `<skill_id>.<action>` of the sub-task.
    pub task: String,
    pub slots: Map<String, Value>,
    pub resume_on_success: bool,
}

/// A confirmation the user was shown: bound to its task and the exact summary text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingConfirmation {
    pub summary: String,
    /// The slot values the summary was rendered from; any change invalidates it.
    pub fingerprint: String,
    /// Names this showing: a yes counts only from a client that sends it back, the one that
    /// was shown the summary (empty in conversations stored before bindings; such a yes
    /// shows the confirmation again, with a binding).
    #[serde(default)]
    pub binding: String,
    /// The objects the summary named, as they were when it was shown: a yes acts only if
    /// each still is (see `act::bound`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub objects: Vec<BoundObject>,
    /// Asked for a tool client's call (MCP): only that call's second step, with its pending
    /// id, confirms it — not a "yes" typed in any chat on the conversation.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub by_tool_call: bool,
}

/// One object a confirmation is bound to: its id and its version when the summary was shown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoundObject {
    pub slot: String,
    pub kind: ResourceKind,
    pub id: String,
    pub name: String,
    pub version: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Task {
    pub id: TaskId,
    pub skill: String,
    pub action: String,
    pub status: TaskStatus,
    /// Values as shown to the user (ref slots hold the resolved resource's name; secret slots
    /// hold their mask).
    #[serde(default)]
    pub slots: Map<String, Value>,
    /// Ref slot → resolved resource id.
    #[serde(default)]
    pub resolved: BTreeMap<String, String>,
    /// Slots whose value is a secret held in memory only.
    #[serde(default)]
    pub secret_slots: BTreeSet<String>,
    /// Slots the user gave (not defaults); a later value for one of them is a correction.
    #[serde(default)]
    pub given: BTreeSet<String>,
    /// The slots asked in the last reply, so a bare answer can fill them.
    #[serde(default)]
    pub asked: Vec<String>,
    #[serde(default)]
    pub confirmation: Option<PendingConfirmation>,
    /// Set once the user confirmed this exact summary; consumed by execution.
    #[serde(default)]
    pub confirmed: Option<String>,
    #[serde(default)]
    pub offer: Option<Offer>,
    /// When this task completes, the task below resumes (a fix sub-task).
    #[serde(default)]
    pub resume_parent: bool,
    /// Asked in the same message as the task above it ("stop t1 and delete t2") and waiting
    /// its turn, rather than interrupted.
    #[serde(default)]
    pub queued: bool,
    /// What the fields an update changes hold now, read when its target is known: list edits
    /// apply to these, and the summary shows them ("leverage → 5 (was 3)").
    #[serde(default)]
    pub before: Map<String, Value>,
    /// The list edits applied to `before` (slot → `ListEdit` value): another target makes the
    /// lists they gave stale, so the edits are applied again to that target's lists.
    #[serde(default)]
    pub edits: Map<String, Value>,
    /// Started or filled from the assistant model's reading of a message the rules were
    /// unsure of: whatever the action's own rule, its change is confirmed before it runs
    /// (DESIGN: a reading of an uncertain message never acts on its own).
    #[serde(default)]
    pub read_by_model: bool,
}

impl Task {
    pub fn new(skill: &str, action: &str) -> Task {
        Task {
            id: TaskId(uuid::Uuid::now_v7().to_string()),
            skill: skill.to_string(),
            action: action.to_string(),
            status: TaskStatus::Identified,
            slots: Map::new(),
            resolved: BTreeMap::new(),
            secret_slots: BTreeSet::new(),
            given: BTreeSet::new(),
            asked: Vec::new(),
            confirmation: None,
            confirmed: None,
            offer: None,
            resume_parent: false,
            queued: false,
            before: Map::new(),
            edits: Map::new(),
            read_by_model: false,
        }
    }

    pub fn view(&self, missing: Vec<String>) -> TaskView {
        TaskView {
            task_id: self.id.clone(),
            skill: self.skill.clone(),
            action: self.action.clone(),
            status: self.status,
            slots: self.slots.clone().into_iter().collect(),
            missing,
        }
    }
}

/// A yes/no question of the engine itself (not of a task).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Pending {
    /// The active task was cancelled; should the waiting parent go too?
    CancelParent { task_id: TaskId },
    /// Several resources matched; the options are (display, id), for this task's slot.
    Choose {
        task_id: TaskId,
        slot: String,
        options: Vec<(String, String)>,
    },
    /// "Nothing is called alpah. Did you mean alpha?": a yes asks this again, the name put
    /// right. Any other answer drops it.
    Retry { message: String },
    /// "More than one trader fits: btc-bot, alpha. Which one?": each option a whole request
    /// ("stop btc-bot"); an answer naming one of them (a name only it says, an ordinal) runs
    /// it. Any other answer drops it.
    Pick { options: Vec<String> },
    /// "算了，还是启用吧" right after a change: a yes runs its inverse (with its own
    /// confirmation rule); any other answer drops it.
    Undo { inverse: Inverse },
}

/// The task that takes a completed change back: re-enable, restore, start again, the old
/// value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Inverse {
    /// `<skill_id>.<action>`.
    pub task: String,
    pub slots: Map<String, Value>,
    /// The question that offers it, in each language.
    pub offer_zh: String,
    pub offer_en: String,
}

impl Inverse {
    pub fn offer(&self, lang: Lang) -> &str {
        match lang {
            Lang::Zh => &self.offer_zh,
            Lang::En => &self.offer_en,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Listed {
    pub kind: ResourceKind,
    pub id: String,
    pub name: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RecentTurn {
    /// Masked.
    pub user: String,
    pub reply: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Conversation {
    pub id: String,
    /// Bottom first; the active task is last.
    #[serde(default)]
    pub stack: Vec<Task>,
    /// What "它" / "that one" means, per kind: resource id.
    #[serde(default)]
    pub current: BTreeMap<ResourceKind, String>,
    /// The kind of the resource talked about last: what a bare "it" refers to.
    #[serde(default)]
    pub last_kind: Option<ResourceKind>,
    #[serde(default)]
    pub last_listed: Vec<Listed>,
    #[serde(default)]
    pub pending: Option<Pending>,
    #[serde(default)]
    pub recent: Vec<RecentTurn>,
    #[serde(default)]
    pub lang: Option<Lang>,
    /// How many turns this conversation has had.
    #[serde(default)]
    pub turns: u64,
    /// The changes the last turn completed: what a retraction right after it ("actually no",
    /// "算了不停了") is about, since the change can no longer be cancelled, only undone.
    #[serde(default)]
    pub just_done: Vec<Done>,
    /// The last read completed (a journal, stats): what a name alone right after it reads.
    #[serde(default)]
    pub last_read: Option<Done>,
    /// The security the last completed task was about ("成都银行的成本是多少"): what "它" and
    /// "it" stand for next. Any other completed task clears it.
    #[serde(default)]
    pub focus: Option<String>,
    /// The last request the conversation completed: what a fragment re-runs ("eth?" after a
    /// BTC quote, "and alpha too" after "stop btc-bot"; see `nlu::follow_up`).
    #[serde(default)]
    pub last_request: Option<Frame>,
}

/// A completed request kept as a frame, with the turn it was completed in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Frame {
    pub request: FrameRequest,
    pub turn: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FrameRequest {
    /// A task of a skill, with the values it ran with (secrets left out).
    Task {
        skill: String,
        action: String,
        slots: Map<String, Value>,
    },
    /// A quote of a symbol ("btc price").
    Quote { symbol: String },
    /// A skill function's call ("eth order book"), or one waiting for its symbol ("show me
    /// the order book" asked which): a coin said next is called with the same arguments.
    Function {
        function: String,
        args: Map<String, Value>,
    },
}

/// A change a turn completed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Done {
    pub skill: String,
    pub action: String,
    /// The resource it was done to, by name.
    pub name: Option<String>,
    /// The value of [`Conversation::turns`] during the turn that did it.
    pub turn: u64,
    /// What takes it back, when something does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inverse: Option<Inverse>,
}

/// How many turns a conversation keeps for context.
pub const RECENT_TURNS: usize = 10;

impl Conversation {
    pub fn new() -> Conversation {
        Conversation {
            id: uuid::Uuid::now_v7().to_string(),
            stack: Vec::new(),
            current: BTreeMap::new(),
            last_kind: None,
            last_listed: Vec::new(),
            last_request: None,
            pending: None,
            recent: Vec::new(),
            lang: None,
            turns: 0,
            just_done: Vec::new(),
            last_read: None,
            focus: None,
        }
    }

    pub fn top(&self) -> Option<&Task> {
        self.stack.last()
    }

    pub fn top_mut(&mut self) -> Option<&mut Task> {
        self.stack.last_mut()
    }

    /// Makes `id` what "it" means for its kind, and that kind the one "it" means.
    pub fn point_at(&mut self, kind: ResourceKind, id: String) {
        self.current.insert(kind, id);
        self.last_kind = Some(kind);
    }

    /// The conversation as it may be stored: every value a user typed or a reply showed goes
    /// through the redactor; what the engine wrote itself (ids, statuses, skill, action and
    /// slot names, kinds) stays as it is. Redacting those too once turned a short secret
    /// ("wait") into "a••••ing_confirmation", and the conversation no longer loaded.
    pub fn redacted(&self, secrets: &SecretCache) -> Conversation {
        let map = |m: &Map<String, Value>| -> Map<String, Value> {
            m.iter()
                .map(|(k, v)| (k.clone(), secrets.redact_json(v)))
                .collect()
        };
        let mut out = self.clone();
        for task in &mut out.stack {
            task.slots = map(&task.slots);
            task.before = map(&task.before);
            task.edits = map(&task.edits);
            if let Some(offer) = &mut task.offer {
                offer.slots = map(&offer.slots);
            }
            if let Some(c) = &mut task.confirmation {
                c.summary = secrets.redact(&c.summary);
            }
            task.confirmed = task.confirmed.as_deref().map(|c| secrets.redact(c));
        }
        match &mut out.pending {
            Some(Pending::Retry { message }) => *message = secrets.redact(message),
            Some(Pending::Pick { options }) => {
                for option in options {
                    *option = secrets.redact(option);
                }
            }
            Some(Pending::Choose { options, .. }) => {
                for (display, _) in options {
                    *display = secrets.redact(display);
                }
            }
            Some(Pending::Undo { inverse }) => inverse.slots = map(&inverse.slots),
            Some(Pending::CancelParent { .. }) | None => {}
        }
        for listed in &mut out.last_listed {
            listed.name = secrets.redact(&listed.name);
        }
        if let Some(Frame {
            request: FrameRequest::Task { slots, .. },
            ..
        }) = &mut out.last_request
        {
            *slots = map(slots);
        }
        for turn in &mut out.recent {
            turn.user = secrets.redact(&turn.user);
            turn.reply = secrets.redact(&turn.reply);
        }
        out
    }

    /// The request completed within the last `turns` turns, if any.
    pub fn recent_request(&self, turns: u64) -> Option<&FrameRequest> {
        self.last_request
            .as_ref()
            .filter(|f| f.turn + turns >= self.turns)
            .map(|f| &f.request)
    }

    /// The read the turn just before this one completed, if any.
    pub fn read_last_turn(&self) -> Option<&Done> {
        self.last_read.as_ref().filter(|d| d.turn + 1 == self.turns)
    }

    /// The changes completed by the turn just before this one.
    pub fn done_last_turn(&self) -> impl Iterator<Item = &Done> {
        self.just_done.iter().filter(|d| d.turn + 1 == self.turns)
    }

    pub fn remember(&mut self, user: String, reply: String) {
        self.turns += 1;
        let turns = self.turns;
        self.just_done.retain(|d| d.turn + 1 >= turns);
        self.recent.push(RecentTurn { user, reply });
        if self.recent.len() > RECENT_TURNS {
            let extra = self.recent.len() - RECENT_TURNS;
            self.recent.drain(..extra);
        }
    }
}

impl Default for Conversation {
    fn default() -> Self {
        Conversation::new()
    }
}
