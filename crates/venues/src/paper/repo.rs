//! Where a paper account's state lives between runs.
//!
//! The venues crate does not know the store: the application passes an adapter (the store's
//! `put_state`/`get_state` under scope `paper`) implementing [`PaperStateRepo`]. The state is
//! plain JSON with decimals as strings, so no precision is lost and a person can read it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use serde_json::Value;

use crate::VenueError;

#[async_trait]
pub trait PaperStateRepo: Send + Sync {
    async fn load(&self, account: &str) -> Result<Option<Value>, VenueError>;
    async fn save(&self, account: &str, state: &Value) -> Result<(), VenueError>;

    /// False for an account nobody will reload (a backtest): the exchange then skips
    /// serializing its state after every change, which over a long replay is most of the work.
    fn keeps_state(&self) -> bool {
        true
    }
}

/// No persistence at all: a throw-away account that starts fresh and is never reloaded.
#[derive(Debug, Clone, Copy, Default)]
pub struct EphemeralPaperRepo;

#[async_trait]
impl PaperStateRepo for EphemeralPaperRepo {
    async fn load(&self, _account: &str) -> Result<Option<Value>, VenueError> {
        Ok(None)
    }

    async fn save(&self, _account: &str, _state: &Value) -> Result<(), VenueError> {
        Ok(())
    }

    fn keeps_state(&self) -> bool {
        false
    }
}

/// Keeps state in memory: for tests of persistence without a database.
#[derive(Debug, Clone, Default)]
pub struct MemoryPaperRepo {
    states: Arc<Mutex<HashMap<String, Value>>>,
}

#[async_trait]
impl PaperStateRepo for MemoryPaperRepo {
    async fn load(&self, account: &str) -> Result<Option<Value>, VenueError> {
        let states = self
            .states
            .lock()
            .map_err(|_| VenueError::Storage("memory repo poisoned".into()))?;
        Ok(states.get(account).cloned())
    }

    async fn save(&self, account: &str, state: &Value) -> Result<(), VenueError> {
        let mut states = self
            .states
            .lock()
            .map_err(|_| VenueError::Storage("memory repo poisoned".into()))?;
        states.insert(account.to_string(), state.clone());
        Ok(())
    }
}
