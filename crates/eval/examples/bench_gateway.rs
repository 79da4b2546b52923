#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Model use over the whole conversation suite, with an assistant model configured.
//!
//! `cargo run --release -p nofxi-eval --example bench_gateway [PATHS…]` (default
//! `tests/conversations`)
//!
//! Every case runs as in CI, except that its user also has an assistant model: a DeepSeek-shaped
//! config pointing at the testkit's loopback mock, which answers every call with a
//! `cannot_handle` command. The figures that matter are how often the rules needed the model
//! (calls per turn, the most in one turn) and how big each prompt was. Pass/fail is printed
//! too; the extra model changes a few cases' setup (the user has one more model), so it is
//! not the CI figure.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use async_trait::async_trait;
use nofxi_assistant::assistant_model::set_assistant_model;
use nofxi_assistant::{Assistant, AssistantOptions};
use nofxi_domain::{Actor, Channel, ModelSpec, Secret};
use nofxi_eval::runner::{Conversation, EngineFactory, load_suite, run_suite};
use nofxi_eval::setup::EVAL_USER;
use nofxi_llm::tokens::estimate_tokens;
use nofxi_protocol::{TurnRequest, TurnResponse};
use nofxi_skills::Library;
use nofxi_store::Store;
use nofxi_testkit::{MockLlm, Reply};

const MODEL: &str = "bench-assistant-llm";

struct ScriptedFactory {
    base_url: String,
    per_turn: Arc<Mutex<Vec<u32>>>,
}

struct Counting {
    assistant: Assistant,
    per_turn: Arc<Mutex<Vec<u32>>>,
}

#[async_trait]
impl Conversation for Counting {
    async fn turn(&self, request: TurnRequest) -> Result<TurnResponse, String> {
        let r = self
            .assistant
            .turn(request)
            .await
            .map_err(|e| e.to_string())?;
        self.per_turn.lock().unwrap().push(r.llm.calls);
        Ok(r)
    }
}

#[async_trait]
impl EngineFactory for ScriptedFactory {
    async fn open(
        &self,
        store: Arc<Store>,
        library: Arc<Library>,
        _home: &Path,
    ) -> Result<Box<dyn Conversation>, String> {
        // A `restart` step opens the engine again on the same store: the model already exists.
        if store.get_model(EVAL_USER, MODEL).await.is_err() {
            let actor = Actor::new(EVAL_USER, Channel::Cli, true);
            let spec = ModelSpec {
                name: MODEL.into(),
                provider: "deepseek".into(),
                enabled: true,
                base_url: Some(self.base_url.clone()),
                model_name: None,
            };
            store
                .create_model(&actor, spec, Some(Secret::new("sk-benchkey000000000000")))
                .await
                .map_err(|e| e.to_string())?;
        }
        set_assistant_model(
            &store,
            &Actor::new(EVAL_USER, Channel::Cli, true),
            Some(MODEL),
        )
        .await
        .map_err(|e| e.to_string())?;
        let assistant = Assistant::open(store, library, AssistantOptions::default())
            .await
            .map_err(|e| e.to_string())?;
        Ok(Box::new(Counting {
            assistant,
            per_turn: self.per_turn.clone(),
        }))
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let mut paths: Vec<PathBuf> = std::env::args().skip(1).map(PathBuf::from).collect();
    if paths.is_empty() {
        paths.push(PathBuf::from("tests/conversations"));
    }
    let mock = MockLlm::start().await;
    mock.set_default(Reply::Text(
        r#"{"commands":[{"command":"cannot_handle","reason":"scripted"}],"confidence":0.9}"#.into(),
    ));
    let files = load_suite(&paths).unwrap();
    let library = Arc::new(Library::builtin().unwrap());
    let factory = ScriptedFactory {
        base_url: mock.base_url(),
        per_turn: Arc::new(Mutex::new(Vec::new())),
    };
    let started = Instant::now();
    let results = run_suite(&factory, library, &files, |_| {}).await;
    let elapsed = started.elapsed();

    let per_turn = factory.per_turn.lock().unwrap().clone();
    let turns = per_turn.len();
    let calls: u32 = per_turn.iter().sum();
    let passed = results.iter().filter(|r| r.passed()).count();
    let requests = mock.requests();
    let mut prompt_tokens: Vec<u64> = requests
        .iter()
        .map(|r| {
            let text: String = r.body["messages"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|m| m["content"].as_str())
                .collect();
            estimate_tokens(&text)
        })
        .collect();
    let understand = requests
        .iter()
        .filter(|r| r.body.get("response_format").is_some())
        .count();
    prompt_tokens.sort_unstable();
    let mean = if prompt_tokens.is_empty() {
        0.0
    } else {
        prompt_tokens.iter().sum::<u64>() as f64 / prompt_tokens.len() as f64
    };
    println!(
        "{} cases ({passed} pass with a model set), {turns} turns in {:.1} s",
        results.len(),
        elapsed.as_secs_f64()
    );
    println!(
        "LLM calls: {calls} ({understand} gateway, {} answers) = {:.3} per turn; most in one turn: {}",
        calls as usize - understand,
        f64::from(calls) / turns.max(1) as f64,
        per_turn.iter().max().copied().unwrap_or(0)
    );
    println!(
        "prompt tokens per call (nofxi estimate, system prompt included): mean {mean:.0}, median {}, max {}",
        prompt_tokens
            .get(prompt_tokens.len() / 2)
            .copied()
            .unwrap_or(0),
        prompt_tokens.last().copied().unwrap_or(0)
    );
}
