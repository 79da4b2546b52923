//! One turn's working state, and the engine that owns what lives across turns.

use std::collections::HashMap;
use std::sync::Arc;

use nofxi_domain::validation::name_key;
use nofxi_protocol::Event;
use nofxi_skills::{Lang, Library, ResourceKind};
use nofxi_store::Store;
use serde_json::{Map, Value, json};
use tokio::sync::Mutex;

use crate::conversation::Conversation;
use crate::nlu::lexicon::Lexicon;
use crate::nlu::names::{NameEntry, Names};
use crate::nlu::typos::Vocabulary;
use crate::secrets::SecretCache;
use crate::tools::{ToolError, ToolOutput, ToolRunner};

pub struct Engine {
    pub store: Arc<Store>,
    pub library: Arc<Library>,
    pub lexicon: Lexicon,
    /// The known words a slip of the keyboard is corrected to.
    pub vocabulary: Vocabulary,
    pub tools: ToolRunner,
    pub secrets: SecretCache,
    /// Per-user name index, with the store's mark of the user's resources it was read at
    /// ([`nofxi_store::Store::resources_mark`]): read again when the mark moved, whoever
    /// changed them (the CLI, the web page, another process).
    pub names: Mutex<HashMap<String, (String, Arc<Names>)>>,
}

impl Engine {
    /// Every credential the user has stored is masked wherever it shows up, from a pasted
    /// message to the model's prompt; read with the names, so again after each change. The
    /// redactor only knows values typed in this chat otherwise, and a passphrase like
    /// `Pass1234word` has no secret shape to catch.
    async fn mask_stored_credentials(&self, user: &str) {
        match self.store.credentials_to_mask(user).await {
            Ok(stored) => {
                // Only values no reply would say otherwise: "ollama" (Ollama's usual dummy
                // key) or a passphrase "Default" must not mask the words of every reply.
                let secret_shaped = |v: &str| {
                    v.len() >= 16 || (v.len() >= 8 && v.chars().any(|c| !c.is_ascii_alphabetic()))
                };
                for (secret, mask) in stored {
                    if secret_shaped(secret.expose()) {
                        self.secrets.know(secret.expose(), &mask);
                    }
                }
            }
            Err(e) => {
                tracing::warn!(error = %e, "stored credentials could not be read for masking")
            }
        }
    }

    pub async fn load_names(&self, user: &str) -> Result<Arc<Names>, nofxi_store::StoreError> {
        let st = &self.store;
        // Read before the names: a change made while they are read moves the mark past it,
        // so the next turn reads them again rather than keep a half-old index.
        let mark = st.resources_mark(user).await?;
        let mut entries = Vec::new();
        let mut exchanges = st.list_exchanges(user, false).await?;
        exchanges.extend(st.list_exchanges(user, true).await?);
        for e in &exchanges {
            entries.push(NameEntry {
                kind: ResourceKind::Exchange,
                id: e.id.clone(),
                name: e.spec.account_name.clone(),
                lower: name_key(&e.spec.account_name),
                class: Some(e.spec.exchange_type.clone()),
                enabled: e.spec.enabled,
                live: e.spec.exchange_type != "paper",
                testnet: e.spec.exchange_type != "paper" && e.spec.testnet,
                running: false,
                deleted: e.deleted_at.is_some(),
                uses: Vec::new(),
            });
        }
        let mut traders = st.list_traders(user, false).await?;
        traders.extend(st.list_traders(user, true).await?);
        let on_live = |exchange_id: &str| {
            exchanges
                .iter()
                .any(|e| e.id == exchange_id && e.spec.exchange_type != "paper")
        };
        // A model a running trader decides with on a live account: disabling it stops real
        // trading, so it is confirmed like a stop.
        let live_model = |id: &str| {
            traders.iter().any(|t| {
                t.is_running
                    && t.deleted_at.is_none()
                    && t.spec.ai_model_id == id
                    && on_live(&t.spec.exchange_id)
            })
        };
        let mut models = st.list_models(user, false).await?;
        models.extend(st.list_models(user, true).await?);
        for m in models {
            let live = live_model(&m.id);
            entries.push(NameEntry {
                kind: ResourceKind::Model,
                lower: name_key(&m.spec.name),
                id: m.id,
                name: m.spec.name,
                class: Some(m.spec.provider),
                enabled: m.spec.enabled,
                live,
                testnet: false,
                running: false,
                deleted: m.deleted_at.is_some(),
                uses: Vec::new(),
            });
        }
        let mut strategies = st.list_strategies(user, false).await?;
        let active = strategies
            .iter()
            .find(|x| x.spec.is_active)
            .map(|x| x.spec.name.clone());
        strategies.extend(st.list_strategies(user, true).await?);
        for x in strategies {
            entries.push(NameEntry {
                kind: ResourceKind::Strategy,
                lower: name_key(&x.spec.name),
                id: x.id,
                name: x.spec.name,
                class: None,
                enabled: true,
                live: false,
                testnet: false,
                running: false,
                deleted: x.deleted_at.is_some(),
                uses: Vec::new(),
            });
        }
        for t in traders {
            let live = on_live(&t.spec.exchange_id);
            let testnet = exchanges
                .iter()
                .any(|e| e.id == t.spec.exchange_id && e.spec.testnet);
            entries.push(NameEntry {
                kind: ResourceKind::Trader,
                lower: name_key(&t.spec.name),
                id: t.id,
                name: t.spec.name,
                class: None,
                enabled: true,
                live,
                testnet: live && testnet,
                running: t.is_running,
                deleted: t.deleted_at.is_some(),
                uses: vec![
                    t.spec.exchange_id.clone(),
                    t.spec.ai_model_id.clone(),
                    t.spec.strategy_id.clone(),
                ],
            });
        }
        self.mask_stored_credentials(user).await;
        let possessives = self.lexicon.words(nofxi_skills::WordClass::Possessive);
        let names = Arc::new(
            Names::new(entries)
                .with_active_strategy(active)
                .with_possessives(possessives),
        );
        self.names
            .lock()
            .await
            .insert(user.to_string(), (mark, names.clone()));
        Ok(names)
    }

    /// The user's names as they are in the store now: the cached index while nothing changed
    /// since it was read, else read again. A name renamed or replaced by another process must
    /// never resolve to the object it used to name.
    pub async fn names_for(&self, user: &str) -> Result<Arc<Names>, nofxi_store::StoreError> {
        let mark = self.store.resources_mark(user).await?;
        if let Some((at, n)) = self.names.lock().await.get(user)
            && *at == mark
        {
            return Ok(n.clone());
        }
        self.load_names(user).await
    }
}

pub struct Turn<'a> {
    pub engine: &'a Engine,
    pub user: &'a str,
    /// Where the turn came from, as the audit trail records its changes.
    pub channel: nofxi_domain::Channel,
    pub lang: Lang,
    pub conv: Conversation,
    pub names: Arc<Names>,
    pub events: Vec<Event>,
    pub reply: Vec<String>,
    pub tool_trace: Vec<Value>,
    /// Model calls made this turn (gateway, answers), for usage figures and the trace.
    pub llm_calls: Vec<crate::llm_call::LlmCallRecord>,
    /// The assistant model, once looked up this turn (`Some(None)`: none usable), so a turn
    /// that both asks the gateway and answers reads the setting and the key once.
    pub model: Option<Option<std::sync::Arc<dyn nofxi_llm::Provider>>>,
    /// The confirmation binding the client says it was shown last (see
    /// [`crate::policy`]'s confirm): a yes confirms only that one.
    pub seen_confirmation: Option<String>,
    /// The turn's commands came from a tool client's call (MCP), not from a message.
    pub tool_call: bool,
    /// The words of the message the rules' reading left unexplained (the trace keeps them).
    pub unclaimed: Vec<String>,
    /// The recogniser whose reading the rules gave (see [`crate::nlu::recognisers`]); empty
    /// when no rule read the message (a tool client's call).
    pub recogniser: &'static str,
    /// The commands came from the assistant model, asked because the rules were unsure of
    /// the message: the tasks they start or fill are confirmed before they change anything.
    pub read_by_model: bool,
    /// The gateway model's answer to a question in the message, said instead of a second
    /// call (redacted).
    pub model_answer: Option<String>,
}

impl<'a> Turn<'a> {
    /// This turn's model usage, summed over its calls.
    pub fn llm_usage(&self) -> nofxi_protocol::LlmUsage {
        let mut usage = nofxi_protocol::LlmUsage::default();
        for c in &self.llm_calls {
            usage.calls += 1;
            usage.prompt_tokens += c.prompt_tokens;
            usage.completion_tokens += c.completion_tokens;
        }
        usage
    }

    pub fn say(&mut self, text: String) {
        if !text.trim().is_empty() {
            self.reply.push(text);
        }
    }

    pub async fn refresh_names(&mut self) {
        if let Ok(n) = self.engine.load_names(self.user).await {
            self.names = n;
        }
    }

    /// Records a tool call for the trace, redacted.
    pub fn trace_tool(
        &mut self,
        tool: &str,
        args: &Map<String, Value>,
        result: &Result<ToolOutput, ToolError>,
        ms: f64,
    ) {
        let result = match result {
            Ok(out) => {
                json!({"ok": true, "resource_id": out.resource_id, "resource_name": out.resource_name, "text": out.text, "adjustments": out.adjustments})
            }
            Err(e) => {
                json!({"ok": false, "code": e.code, "error": e.message, "resource": e.resource})
            }
        };
        let mut masked = Map::new();
        for (k, v) in args {
            let secret = nofxi_domain::CredentialField::ALL
                .iter()
                .any(|f| f.as_str() == k);
            masked.insert(
                k.clone(),
                if secret {
                    Value::String("••••".into())
                } else {
                    v.clone()
                },
            );
        }
        let entry = json!({"tool": tool, "arguments": masked, "result": result, "ms": ms});
        self.tool_trace
            .push(self.engine.secrets.redact_json(&entry));
    }
}
