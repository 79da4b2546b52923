//! Actions: one user task of a management skill (create a trader, delete a strategy), with its
//! risk, when it must be confirmed, its slots, the tool calls it makes and what it says after.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{Condition, ResourceKind, Slot};
use crate::ir::keyed;
use crate::text::Text;

/// What an action does to the world; the dialogue policy derives confirmation defaults and the
/// exporters derive MCP annotations from it. We use the verb classes of DESIGN "Dialogue
/// policy" rather than low/medium/high: they say *why* something is risky, and a policy can
/// map them to levels, not the other way round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Risk {
    /// Reads only. Never confirms; MCP `readOnlyHint`.
    Query,
    Create,
    Update,
    /// Removes something. Always confirms; MCP `destructiveHint`.
    Delete,
    /// Starts a trader (may place real orders).
    Start,
    /// Stops a running trader (open positions stay as they are).
    Stop,
}

impl Risk {
    pub fn is_read_only(self) -> bool {
        self == Risk::Query
    }

    pub fn is_destructive(self) -> bool {
        self == Risk::Delete
    }
}

/// When the dialogue engine must ask for an explicit confirmation before running the steps.
/// Written `never`, `always`, or `when: [conditions]` (any one holding is enough).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ConfirmRule {
    Never,
    Always,
    /// Confirm when any condition holds.
    When(Vec<ConfirmCondition>),
}

/// Written as a one-key map: `live: target`, `running: target`, `changed_any: [a, b]`,
/// `slot: {slot, equals}`, `all: [conditions]`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ConfirmCondition {
    /// The resource this `ref` slot names trades real money: an exchange whose type is not
    /// `paper`, a trader bound to such an exchange, or a model a running one decides with.
    /// The engine resolves the reference.
    Live(String),
    /// The trader this `ref` slot names is running (seed 000: stopping a running agent is
    /// always confirmed, paper included), or the exchange, model or strategy it names is used
    /// by a running trader. The engine resolves the reference.
    Running(String),
    /// The task sets any of these slots (order-affecting parameters, credentials).
    ChangedAny(Vec<String>),
    /// A slot condition on the task's values.
    Slot(Condition),
    /// Every one of these holds.
    All(Vec<ConfirmCondition>),
}

/// What the engine knows of the resource a `ref` slot resolved to, that a confirmation rule
/// may ask about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefFact {
    /// It trades real money (see [`ConfirmCondition::Live`]).
    Live,
    /// It is a trader that is running, or a resource a running trader uses.
    Running,
}

impl ConfirmCondition {
    fn holds(
        &self,
        slots: &serde_json::Map<String, serde_json::Value>,
        facts: &dyn Fn(&str, RefFact) -> bool,
    ) -> bool {
        let set = |slot: &str| slots.get(slot).is_some_and(|v| !v.is_null());
        match self {
            ConfirmCondition::Live(slot) => set(slot) && facts(slot, RefFact::Live),
            ConfirmCondition::Running(slot) => set(slot) && facts(slot, RefFact::Running),
            ConfirmCondition::ChangedAny(names) => names
                .iter()
                .any(|n| slots.get(n).is_some_and(|v| !v.is_null())),
            ConfirmCondition::Slot(cond) => cond.holds(slots),
            ConfirmCondition::All(all) => all.iter().all(|c| c.holds(slots, facts)),
        }
    }
}

/// A tool name, `<resource>.<verb>` (`trader.create`, `trash.list`). Only its shape is checked
/// here: which tools exist is the assistant's registry's to say (`nofxi skills lint` and the
/// assistant's skills test check every step against it), so a tool is declared in one place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolName {
    /// `trader`, `exchange`, `model`, `strategy`, or another family (`trash`).
    pub resource: String,
    pub verb: String,
}

impl ToolName {
    pub fn parse(s: &str) -> Result<ToolName, String> {
        let Some((resource, verb)) = s.split_once('.') else {
            return Err(format!("`{s}` is not `<resource>.<verb>`"));
        };
        let word = |w: &str| {
            !w.is_empty()
                && w.starts_with(|c: char| c.is_ascii_lowercase())
                && w.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        };
        if !word(resource) || !word(verb) {
            return Err(format!(
                "`{s}` is not `<resource>.<verb>` in lowercase letters, digits and `_`"
            ));
        }
        Ok(ToolName {
            resource: resource.to_string(),
            verb: verb.to_string(),
        })
    }

    /// The resource kind its results are about, when it is one of the four.
    pub fn resource_kind(&self) -> Option<ResourceKind> {
        ResourceKind::parse(&self.resource)
    }
}

impl fmt::Display for ToolName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.resource, self.verb)
    }
}

impl Serialize for ToolName {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for ToolName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        ToolName::parse(&s).map_err(serde::de::Error::custom)
    }
}

/// One tool call of an action, run in order.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    pub tool: ToolName,
    /// Slots passed as arguments under their own names (unset optional slots are left out).
    #[serde(default)]
    pub with: Vec<String>,
    /// Further arguments: constants (`enabled: true`) or `{slot}` templates rendered from the
    /// task (`target: "{name}"` passes the new trader's name to `trader.start`).
    #[serde(default)]
    pub set: BTreeMap<String, serde_json::Value>,
    /// Run only when this holds.
    #[serde(default)]
    pub when: Option<Condition>,
    /// Said after the action's success message when this step ran: what an optional step
    /// did ("it is running"), which the success message cannot know.
    #[serde(default)]
    pub say: Option<Text>,
}

/// A fix sub-task the assistant offers when a step fails for a known reason. When it
/// completes and `resume_on_success` is set, the failed task resumes with its slots intact.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Recovery {
    /// The offer shown to the user ("要我先启用它吗？").
    pub offer: Text,
    /// `<skill_id>.<action>` of the sub-task, e.g. `exchange_management.update`.
    pub task: String,
    /// Its initial slots; string values may hold `{slot}` placeholders of the failed task.
    #[serde(default)]
    pub slots: BTreeMap<String, serde_json::Value>,
    #[serde(default)]
    pub resume_on_success: bool,
}

impl Recovery {
    /// (`skill_id`, `action`) of the sub-task.
    pub fn task_parts(&self) -> Option<(&str, &str)> {
        self.task.split_once('.')
    }
}

/// A known failure of an action: the error code a tool reports (`exchange_disabled`,
/// `not_found`, `name_taken`…), what to tell the user, and an optional fix.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Failure {
    pub code: String,
    pub message: Text,
    #[serde(default)]
    pub recovery: Option<Recovery>,
    /// A slot whose value gets past the failure (a strategy to use when none is active):
    /// the task stays open and asks for it, listing the names that exist.
    #[serde(default)]
    pub ask: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Action {
    pub name: String,
    pub description: Text,
    /// Words that ask for this action (创建, 新建, create, add).
    #[serde(default)]
    pub verbs: Vec<String>,
    /// Parts of what this read shows that are no request on their own ("持仓", "positions" of
    /// a trader): said alone right after a read of the same skill ("btc-bot 怎么样" … "持仓呢"),
    /// they ask this read of the same object again. Never read as a request anywhere else.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub facets: Vec<String>,
    pub risk: Risk,
    pub confirm: ConfirmRule,
    /// The confirmation message: exactly what will happen, with `{slot}` placeholders.
    #[serde(default)]
    pub summary: Option<Text>,
    /// What doing it would do, beyond the summary (what happens to positions, the trash, the
    /// traders that use it): the answer to "what happens if I …" / "如果我…会怎样", given
    /// without doing anything. `{slot}` and runtime placeholders (`{traders_using}`).
    #[serde(default)]
    pub effects: Option<Text>,
    /// The task that takes it back once done ("算了，还是启用吧", "oops, bring it back"): offered
    /// with `offer`, its slots rendered from this task's (`{target}`). An update needs none:
    /// its inverse is itself with the values it replaced.
    #[serde(default)]
    pub undo: Option<Recovery>,
    /// The action this one does for several objects at once (`stop_all` of `stop`): several
    /// tasks of that action asked in one message ("stop btc-bot and alpha") become this one
    /// task with their objects as its `targets`, so one confirmation names them all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bulk_of: Option<String>,
    #[serde(default)]
    pub slots: Vec<Slot>,
    #[serde(default)]
    pub steps: Vec<Step>,
    pub success: Text,
    /// Success texts for particular outcomes, tried in order before `success`
    /// ([`Action::success_text`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub success_cases: Vec<super::SuccessCase>,
    /// The generic failure message (`{error}` is the tool's explanation).
    pub failure: Text,
    #[serde(default)]
    pub failures: Vec<Failure>,
}

impl Action {
    pub fn slot(&self, name: &str) -> Option<&Slot> {
        self.slots.iter().find(|s| s.name == name)
    }

    /// The slot naming the existing resource the action works on (`target`), if any.
    pub fn target(&self) -> Option<&Slot> {
        self.slot("target")
    }

    /// What to say when the steps succeeded: the first of `success_cases` that holds for the
    /// task's slots and the fields the steps reported (`data`), else `success`.
    pub fn success_text(
        &self,
        slots: &serde_json::Map<String, serde_json::Value>,
        data: &serde_json::Map<String, serde_json::Value>,
    ) -> &Text {
        super::success_text(&self.success, &self.success_cases, slots, data)
    }

    pub fn failure(&self, code: &str) -> Option<&Failure> {
        self.failures.iter().find(|f| f.code == code)
    }

    /// Whether this task needs a confirmation before its steps run. `facts(slot, fact)`
    /// answers what the engine knows of the resource that `ref` slot resolved to (whether it
    /// trades real money, whether it runs); the skill only says which slot to ask about.
    pub fn needs_confirmation(
        &self,
        slots: &serde_json::Map<String, serde_json::Value>,
        facts: &dyn Fn(&str, RefFact) -> bool,
    ) -> bool {
        match &self.confirm {
            ConfirmRule::Never => false,
            ConfirmRule::Always => true,
            ConfirmRule::When(conditions) => conditions.iter().any(|c| c.holds(slots, facts)),
        }
    }
}

/// Placeholders every message may use besides slot names, filled by the engine: `id` of the
/// resource a step created, `error` the tool's explanation, `list` a rendered query result,
/// `count` its size, `status` a trader's state, `summary` the changes a task will make (for
/// confirmation texts: "scan interval 5 → 10, margin cross → isolated").
///
/// `resource` is the name of the resource a failure is about (the disabled exchange), as the
/// failing tool reports it. `account` says what a confirmation's exchange account trades
/// with: "a live account (real money)" or "a testnet account (test funds, not real money)".
pub const RUNTIME_PLACEHOLDERS: &[&str] = &[
    "id",
    "error",
    "list",
    "count",
    "status",
    "summary",
    "resource",
    "account",
    "traders_using",
];

// yaml_serde reads externally tagged enums only from YAML tags (`!when`); skill authors write
// one-key maps, so these two enums deserialize by hand through `keyed`.
impl<'de> Deserialize<'de> for ConfirmRule {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        keyed::deserialize(
            d,
            "`never`, `always` or `when: [...]`",
            |word| match word {
                "never" => Some(ConfirmRule::Never),
                "always" => Some(ConfirmRule::Always),
                _ => None,
            },
            &["when"],
            |key, v| Ok(ConfirmRule::When(keyed::convert(key, v)?)),
        )
    }
}

impl<'de> Deserialize<'de> for ConfirmCondition {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        keyed::deserialize(
            d,
            "a one-key map `live`, `running`, `changed_any`, `slot` or `all`",
            |_| None,
            &["live", "running", "changed_any", "slot", "all"],
            |key, v| {
                Ok(match key {
                    "live" => ConfirmCondition::Live(keyed::convert(key, v)?),
                    "running" => ConfirmCondition::Running(keyed::convert(key, v)?),
                    "changed_any" => ConfirmCondition::ChangedAny(keyed::convert(key, v)?),
                    "slot" => ConfirmCondition::Slot(keyed::convert(key, v)?),
                    _ => ConfirmCondition::All(keyed::convert(key, v)?),
                })
            },
        )
    }
}
