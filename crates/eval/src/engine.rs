//! The real dialogue engine behind the runner's [`EngineFactory`]: one `Assistant` per case,
//! opened on the case's fresh store with default options (no assistant model, so every turn is
//! the rules path and counts zero LLM calls).

use std::path::Path;
use std::sync::Arc;

use async_trait::async_trait;
use nofxi_assistant::{Assistant, AssistantOptions};
use nofxi_protocol::{TurnRequest, TurnResponse};
use nofxi_skills::Library;
use nofxi_store::Store;

use crate::runner::{Conversation, EngineFactory};

pub struct AssistantFactory;

struct AssistantConversation(Assistant);

#[async_trait]
impl Conversation for AssistantConversation {
    async fn turn(&self, request: TurnRequest) -> Result<TurnResponse, String> {
        self.0.turn(request).await.map_err(|e| e.to_string())
    }
}

#[async_trait]
impl EngineFactory for AssistantFactory {
    async fn open(
        &self,
        store: Arc<Store>,
        library: Arc<Library>,
        _home: &Path,
    ) -> Result<Box<dyn Conversation>, String> {
        let assistant = Assistant::open(store, library, AssistantOptions::default())
            .await
            .map_err(|e| e.to_string())?;
        Ok(Box::new(AssistantConversation(assistant)))
    }
}
