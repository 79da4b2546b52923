//! Prometheus metrics at `/metrics`: chat turns (rules or model), model calls and tokens, HTTP
//! latency by route, and the engine's traders (running, cycles, age of the last cycle).
//!
//! Counters are updated as things happen; the trader gauges are read from the store when
//! scraped, so they are right whichever process ran the cycles.

use std::sync::Mutex;
use std::time::Duration;

use axum::extract::{MatchedPath, Request, State};
use axum::middleware::Next;
use axum::response::Response;
use nofxi_assistant::AssistantError;
use nofxi_protocol::TurnResponse;
use nofxi_store::Store;
use prometheus_client::encoding::text::encode;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;

use crate::state::AppState;

type Labels = Vec<(String, String)>;

pub struct Metrics {
    registry: Mutex<Registry>,
    turns: Family<Labels, Counter>,
    turn_seconds: Histogram,
    model_calls: Counter,
    prompt_tokens: Counter,
    completion_tokens: Counter,
    http: Family<Labels, Histogram>,
    traders_running: Gauge,
    trader_cycles: Family<Labels, Gauge>,
    trader_cycle_age: Family<Labels, Gauge<f64, std::sync::atomic::AtomicU64>>,
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Metrics")
    }
}

fn latency_buckets() -> impl Iterator<Item = f64> {
    [
        0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
    ]
    .into_iter()
}

impl Default for Metrics {
    fn default() -> Self {
        let mut registry = Registry::with_prefix("nofxi");
        let turns = Family::<Labels, Counter>::default();
        let turn_seconds = Histogram::new(latency_buckets());
        let model_calls = Counter::default();
        let prompt_tokens = Counter::default();
        let completion_tokens = Counter::default();
        let http = Family::<Labels, Histogram>::new_with_constructor(
            (|| Histogram::new(latency_buckets())) as fn() -> Histogram,
        );
        let traders_running = Gauge::default();
        let trader_cycles = Family::<Labels, Gauge>::default();
        let trader_cycle_age = Family::default();
        registry.register(
            "chat_turns",
            "Chat turns by how they were understood (rules, model) and outcome",
            turns.clone(),
        );
        registry.register(
            "chat_turn_seconds",
            "Time of a chat turn on the server, model calls included",
            turn_seconds.clone(),
        );
        registry.register(
            "model_calls",
            "Model calls made by chat turns",
            model_calls.clone(),
        );
        registry.register(
            "model_prompt_tokens",
            "Prompt tokens of chat turns' model calls",
            prompt_tokens.clone(),
        );
        registry.register(
            "model_completion_tokens",
            "Completion tokens of chat turns' model calls",
            completion_tokens.clone(),
        );
        registry.register(
            "http_request_seconds",
            "HTTP request latency by route and status",
            http.clone(),
        );
        registry.register(
            "traders_running",
            "Traders marked running, all users",
            traders_running.clone(),
        );
        registry.register(
            "trader_cycles",
            "The newest journaled cycle number of each running trader",
            trader_cycles.clone(),
        );
        registry.register(
            "trader_last_cycle_age_seconds",
            "Wall-clock seconds since each running trader's last cycle (lag when above its scan interval)",
            trader_cycle_age.clone(),
        );
        Metrics {
            registry: Mutex::new(registry),
            turns,
            turn_seconds,
            model_calls,
            prompt_tokens,
            completion_tokens,
            http,
            traders_running,
            trader_cycles,
            trader_cycle_age,
        }
    }
}

impl Metrics {
    pub fn observe_turn(&self, outcome: &Result<TurnResponse, AssistantError>, took: Duration) {
        self.turn_seconds.observe(took.as_secs_f64());
        let (path, result) = match outcome {
            Ok(r) if r.llm.calls > 0 => ("model", "ok"),
            Ok(_) => ("rules", "ok"),
            Err(_) => ("none", "error"),
        };
        self.turns
            .get_or_create(&vec![
                ("path".into(), path.into()),
                ("outcome".into(), result.into()),
            ])
            .inc();
        if let Ok(r) = outcome {
            self.model_calls.inc_by(u64::from(r.llm.calls));
            self.prompt_tokens.inc_by(r.llm.prompt_tokens);
            self.completion_tokens.inc_by(r.llm.completion_tokens);
        }
    }

    fn observe_http(&self, route: &str, status: u16, took: Duration) {
        self.http
            .get_or_create(&vec![
                ("route".into(), route.into()),
                ("status".into(), status.to_string()),
            ])
            .observe(took.as_secs_f64());
    }

    /// The text exposition, trader gauges read fresh from the store.
    pub async fn render(&self, store: &Store) -> String {
        if let Ok(running) = store.running_traders().await {
            self.traders_running
                .set(i64::try_from(running.len()).unwrap_or(i64::MAX));
            self.trader_cycles.clear();
            self.trader_cycle_age.clear();
            let now = store.now_ms();
            for r in running {
                let Ok(rows) = store.cycles(&r.user_id, &r.trader_id, 1, None).await else {
                    continue;
                };
                let Some(last) = rows.first() else { continue };
                let labels = vec![("trader".to_string(), r.trader_id.clone())];
                self.trader_cycles
                    .get_or_create(&labels)
                    .set(i64::try_from(last.cycle_number).unwrap_or(i64::MAX));
                // A simulated timeline's times are not comparable with the wall clock.
                let simulated = last.record.get("simulated").and_then(|v| v.as_bool());
                if simulated != Some(true) {
                    let age = (now - last.started_at).max(0) as f64 / 1000.0;
                    self.trader_cycle_age.get_or_create(&labels).set(age);
                }
            }
        }
        let mut out = String::new();
        let registry = match self.registry.lock() {
            Ok(r) => r,
            Err(poisoned) => poisoned.into_inner(),
        };
        if encode(&mut out, &registry).is_err() {
            out.clear();
        }
        out
    }
}

/// Middleware: each request's latency under its route template (`/api/traders/{id}`), so
/// ids do not make a label per object.
pub async fn track(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map(|p| p.as_str().to_string())
        .unwrap_or_else(|| "unmatched".into());
    let started = std::time::Instant::now();
    let response = next.run(request).await;
    // A stream's latency is its time to the first byte, which is what this measures.
    state
        .metrics
        .observe_http(&route, response.status().as_u16(), started.elapsed());
    response
}
