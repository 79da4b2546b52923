//! What a turn can fail with. User input never produces these: a message the engine cannot
//! handle is answered in the reply. These are infrastructure failures (the database).

#[derive(Debug, thiserror::Error)]
pub enum AssistantError {
    #[error(transparent)]
    Store(#[from] nofxi_store::StoreError),
    #[error(
        "conversation {id:?} belongs to no conversation of this user: start a new one with --new"
    )]
    UnknownConversation { id: String },
    #[error("the stored conversation {id:?} cannot be read ({detail}): start a new one with --new")]
    CorruptConversation { id: String, detail: String },
    #[error("the skill library has no management skills: check the skills directory")]
    NoSkills,
}
