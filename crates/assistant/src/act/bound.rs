//! A confirmation is bound to the objects its summary names, as they were when it was shown.
//!
//! "delete trader t2" is asked; t2 is renamed t2old and a new t2 is created, or t2's balance is
//! edited; then "yes". Acting on the remembered id would delete t2old while saying "t2", and
//! acting on the edited object would do what nobody confirmed. So when the summary is shown,
//! each object it names is kept with its id and version (`Store::resource_version`, the same
//! binding the HTTP API and MCP use); a yes first reads them again, and if any changed, nothing
//! is done: the reply says what changed and the confirmation is asked again for the objects as
//! they are now.

use nofxi_protocol::TaskStatus;
use nofxi_skills::Action;
use nofxi_store::ResourceVersion;

use crate::conversation::BoundObject;
use crate::msg;
use crate::turn::Turn;

/// The objects the active task's summary names (its resolved ref slots), read now.
pub(crate) async fn bind_objects(turn: &Turn<'_>, action: &Action) -> Vec<BoundObject> {
    let Some(task) = turn.conv.top() else {
        return Vec::new();
    };
    if super::restores(action) {
        // A restore's target is in the trash; the restore checks it itself.
        return Vec::new();
    }
    let mut out = Vec::new();
    for (slot, id) in &task.resolved {
        let Some(kind) = action.slot(slot).and_then(|s| s.ref_kind) else {
            continue;
        };
        if let Ok(now) = turn
            .engine
            .store
            .resource_version(turn.user, kind.into(), id)
            .await
        {
            out.push(BoundObject {
                slot: slot.clone(),
                kind,
                id: now.id,
                name: now.name,
                version: now.version,
            });
        }
    }
    out
}

/// One bound object that is no longer as it was shown: `now` is `None` when it is gone.
pub(crate) struct Changed {
    bound: BoundObject,
    now: Option<ResourceVersion>,
}

/// The bound objects that changed since the summary was shown.
pub(crate) async fn changed_since(turn: &Turn<'_>, bound: &[BoundObject]) -> Vec<Changed> {
    let mut out = Vec::new();
    for object in bound {
        let now = turn
            .engine
            .store
            .resource_version(turn.user, object.kind.into(), &object.id)
            .await
            .ok();
        if now.as_ref().is_none_or(|v| v.version != object.version) {
            out.push(Changed {
                bound: object.clone(),
                now,
            });
        }
    }
    out
}

/// Says what changed, and takes the active task back to before its confirmation: a renamed
/// or vanished object is looked up again by the name the user said (an explicit name beats a
/// remembered id), an edited one is shown again as it is now.
pub(crate) async fn set_aside(turn: &mut Turn<'_>, changed: Vec<Changed>) {
    let lang = turn.lang;
    for c in &changed {
        let text = match &c.now {
            None => msg(lang, "dialogue-object-gone", &[("name", &c.bound.name)]),
            Some(now) if now.name != c.bound.name => msg(
                lang,
                "dialogue-object-renamed",
                &[("old", &c.bound.name), ("new", &now.name)],
            ),
            Some(_) => msg(lang, "dialogue-object-changed", &[("name", &c.bound.name)]),
        };
        turn.say(text);
    }
    if let Some(task) = turn.conv.top_mut() {
        for c in &changed {
            let renamed_or_gone = c.now.as_ref().is_none_or(|now| now.name != c.bound.name);
            if renamed_or_gone {
                task.resolved.remove(&c.bound.slot);
            }
        }
        task.confirmed = None;
        task.confirmation = None;
        task.status = TaskStatus::Collecting;
    }
    turn.refresh_names().await;
}
