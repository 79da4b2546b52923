//! Pending ids: the second step of a risky tool call.
//!
//! A first call that the assistant asks to confirm leaves its conversation waiting on that
//! confirmation and returns a pending id: the conversation's id and a confirmation token (the
//! HTTP API's own, [`Confirmer`]) over the user, the tool, and a version that digests the
//! exact arguments, the summary the person is shown (the confirmation's binding) and the
//! current version of every object the arguments name. A second call acts only if its
//! arguments, the summary and the objects are still those: anything else is stale; after five
//! minutes it is expired. Nothing is stored beside the conversation.

use nofxi_assistant::confirm_token::{Confirmer, Subject, Verdict};
use nofxi_skills::ResourceKind;
use nofxi_store::Store;
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

/// What a pending id is bound to.
pub struct Binding<'a> {
    pub user: &'a str,
    pub tool: &'a str,
    pub conversation_id: &'a str,
    /// The confirmation's binding (its summary and slots), as the assistant keeps it.
    pub confirmation: &'a str,
    pub args: &'a Map<String, Value>,
    /// `kind:id:version` of each object the arguments name.
    pub objects: &'a [String],
}

impl Binding<'_> {
    fn version(&self) -> String {
        let mut digest = Sha256::new();
        // serde_json's maps are ordered, so the same arguments always digest the same.
        let args = serde_json::to_string(self.args).unwrap_or_default();
        for part in [self.confirmation, args.as_str()]
            .into_iter()
            .chain(self.objects.iter().map(String::as_str))
        {
            digest.update((part.len() as u64).to_be_bytes());
            digest.update(part.as_bytes());
        }
        hex::encode(digest.finalize())
    }

    fn subject(&self) -> Subject<'_> {
        Subject {
            user: self.user,
            action: self.tool,
            id: self.conversation_id,
            version: self.version(),
        }
    }
}

/// A pending id for `binding`, issued at `now_ms`.
pub fn issue(confirmer: &Confirmer, binding: &Binding<'_>, now_ms: i64) -> String {
    format!(
        "{}:{}",
        binding.conversation_id,
        confirmer.issue(&binding.subject(), now_ms)
    )
}

/// The conversation a pending id names, if it is shaped like one.
pub fn conversation_of(pending_id: &str) -> Option<&str> {
    pending_id
        .split_once(':')
        .map(|(conversation, _)| conversation)
        .filter(|c| !c.is_empty())
}

/// Whether `pending_id` confirms `binding` at `now_ms`.
pub fn check(
    confirmer: &Confirmer,
    pending_id: &str,
    binding: &Binding<'_>,
    now_ms: i64,
) -> Verdict {
    match pending_id.split_once(':') {
        Some((conversation, token)) if conversation == binding.conversation_id => {
            confirmer.check(token, &binding.subject(), now_ms)
        }
        _ => Verdict::Stale,
    }
}

/// `kind:id:version` of every object `refs` name in `args` (a name or an id); one that is not
/// found is named as missing, so its appearing later also changes the binding.
pub async fn object_versions(
    store: &Store,
    user: &str,
    refs: &[(String, ResourceKind)],
    args: &Map<String, Value>,
) -> Vec<String> {
    let mut out = Vec::new();
    for (slot, kind) in refs {
        let Some(reference) = args.get(slot).and_then(Value::as_str) else {
            continue;
        };
        let version = store
            .resource_version(user, (*kind).into(), reference)
            .await
            .map(|v| format!("{}:{}", v.id, v.version));
        out.push(format!(
            "{slot}={}",
            version.unwrap_or_else(|_| format!("missing:{reference}"))
        ));
    }
    out
}
