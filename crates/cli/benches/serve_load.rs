//! `nofxi serve` under many concurrent chat conversations over SSE, against a scripted model on
//! loopback: the server's overhead per turn (p50 / p99) and its memory per idle event stream
//! (the targets: p99 overhead under 20 ms, under 64 KB per idle connection).
//!
//!     cargo bench -p nofxi-cli --bench serve_load
//!     NOFXI_LOAD_USERS=500 cargo bench -p nofxi-cli --bench serve_load
//!
//! The release `nofxi serve --no-engine` runs as a child process on a fresh home (SQLite). Each
//! conversation is one client, as a tab of the web app is: it posts a turn, follows the
//! conversation's event stream until that turn's `turn` event, and posts its next turn while
//! keeping the stream open. A third of the turns are open questions the rules hand to the
//! assistant model (a `MockLlm` answering at once, streamed in 8-character chunks a millisecond
//! apart, each chunk a `delta` event); the rest are lists the rules answer alone.
//!
//! A turn's latency is the client's: from sending the POST to receiving the `turn` event. The
//! model's share is what the turn's trace records for its model calls (`llm_calls[].latency_ms`,
//! read from `/api/traces/{id}` afterwards), so overhead = latency − model time. The trace's
//! `timings_ms.total` (the assistant's turn, model included, from when it got the user's turn
//! lock) splits the overhead into the assistant's own work and everything outside it: waiting
//! for the lock, persisting, waking the stream, HTTP.
//!
//! Phases: conversations one at a time (uncontended figures); all conversations at a person's
//! pace (each starts at a spread-out moment and thinks between turns); all at once with no
//! pause (capacity). Then memory, on a restarted server: VmRSS before and after opening one idle
//! event stream per conversation (after its last event, so nothing is replayed).
//!
//! Settings: NOFXI_LOAD_CONVERSATIONS (500), NOFXI_LOAD_TURNS per conversation (3),
//! NOFXI_LOAD_THINK_MS, the pause between turns in the paced phase (10000), NOFXI_LOAD_SOLO
//! conversations run one at a time (30), NOFXI_LOAD_USERS (0: local mode, every conversation
//! the single user `local`'s; N: multi-user mode, conversations dealt out among N users, each
//! with an API token).
//!
//! The figures, and what keeps them from the targets: docs/serve-load.md.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a benchmark, not shipped code

use std::path::Path;
use std::pin::Pin;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use eventsource_stream::{Event, EventStreamError, Eventsource};
use futures::{Stream, StreamExt};
use nofxi_testkit::llm::{MockLlm, Reply};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, BufReader};

/// Rules-only turns: the rules read them, a tool lists, no model.
const RULES: &[&str] = &[
    "list my traders",
    "show strategies",
    "list models",
    "list exchanges",
];
/// Open questions: answered by the assistant model over composed facts, streamed.
const OPEN: &[&str] = &[
    "Is my portfolio too risky right now?",
    "what do you think about my setup?",
];
/// The mock model's answer to every question (11 streamed chunks).
const ANSWER: &str =
    "Facts: no trader is running. Judgement: nothing is at risk. Next: add a strategy.";
const PASSWORD: &str = "bench-password-0123456789";
/// One turn may wait this long before the run is called broken.
const TURN_TIMEOUT: Duration = Duration::from_secs(300);

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

// ---------------------------------------------------------------------------------------------
// The server process

struct Server {
    child: tokio::process::Child,
    pid: u32,
    base: String,
}

impl Server {
    async fn start(home: &Path) -> Server {
        let log = home.join("serve.log");
        let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_nofxi"))
            .args(["serve", "--addr", "127.0.0.1:0", "--no-engine"])
            .env("NOFXI_HOME", home)
            .env_remove("NOFXI_DATABASE_URL")
            .env("RUST_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&log).unwrap())
            .kill_on_drop(true)
            .spawn()
            .unwrap();
        let pid = child.id().unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let mut base = None;
        while let Some(line) = lines.next_line().await.unwrap() {
            // "nofxi is serving on http://127.0.0.1:PORT/ — …"
            if let Some(rest) = line.split("http://").nth(1) {
                base = rest.split('/').next().map(|addr| format!("http://{addr}"));
                break;
            }
        }
        let Some(base) = base else {
            panic!(
                "nofxi serve did not start: {}",
                std::fs::read_to_string(&log).unwrap_or_default()
            );
        };
        // Keep reading what it prints, so a full pipe never blocks it.
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
        Server { child, pid, base }
    }

    async fn stop(mut self) {
        self.child.kill().await.unwrap();
    }

    fn proc(&self, file: &str) -> String {
        std::fs::read_to_string(format!("/proc/{}/{file}", self.pid)).unwrap()
    }

    fn status_kb(&self, field: &str) -> u64 {
        self.proc("status")
            .lines()
            .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
            .and_then(|v| v.split_whitespace().next()?.parse().ok())
            .unwrap()
    }

    /// VmRSS once it stops moving: the allocator returns freed pages a little after the fact.
    async fn settled_rss_kb(&self) -> u64 {
        let mut last = self.status_kb("VmRSS");
        for _ in 0..40 {
            tokio::time::sleep(Duration::from_millis(500)).await;
            let now = self.status_kb("VmRSS");
            if now.abs_diff(last) < 64 {
                return now;
            }
            last = now;
        }
        last
    }

    fn fds(&self) -> usize {
        std::fs::read_dir(format!("/proc/{}/fd", self.pid))
            .unwrap()
            .count()
    }

    /// CPU seconds used so far (user + system).
    fn cpu_seconds(&self) -> f64 {
        let stat = self.proc("stat");
        // The fields after the command name, which is in parentheses and may hold spaces;
        // utime and stime (fields 14 and 15) are the 12th and 13th of them, in clock ticks,
        // 100 a second on Linux.
        let fields: Vec<&str> = stat[stat.rfind(')').unwrap() + 2..]
            .split_whitespace()
            .collect();
        let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
        ticks as f64 / 100.0
    }
}

/// Many connections need more descriptors than the usual soft limit of 1024: raise it to the
/// hard limit (the server inherits it).
fn raise_fd_limit() -> u64 {
    use nix::sys::resource::{Resource, getrlimit, setrlimit};
    let (soft, hard) = getrlimit(Resource::RLIMIT_NOFILE).unwrap();
    if soft < hard {
        setrlimit(Resource::RLIMIT_NOFILE, hard, hard).unwrap();
    }
    getrlimit(Resource::RLIMIT_NOFILE).unwrap().0
}

// ---------------------------------------------------------------------------------------------
// Set-up through the CLI, as a user would

fn nofxi(home: &Path, user: &str, args: &[&str], stdin: Option<&str>) -> String {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_nofxi"))
        .args(["--user", user])
        .args(args)
        .env("NOFXI_HOME", home)
        .env_remove("NOFXI_DATABASE_URL")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    if let Some(text) = stdin {
        writeln!(pipe, "{text}").unwrap();
    }
    drop(pipe);
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "nofxi {args:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// A model config `bench` at the mock, set as `user`'s assistant model.
fn give_model(home: &Path, user: &str, mock_url: &str) {
    let add = [
        "model",
        "add",
        "--name",
        "bench",
        "--provider",
        "deepseek",
        "--base-url",
        mock_url,
        "--api-key",
        "sk-benchkey0123456789abcdef",
    ];
    nofxi(home, user, &add, None);
    nofxi(
        home,
        user,
        &["config", "set", "assistant.model", "bench"],
        None,
    );
}

/// How a user's requests are let in.
#[derive(Clone)]
enum Auth {
    /// Local mode: the process's CSRF token on every change.
    Csrf(String),
    /// Multi-user mode: an API token (chat needs the `trade` scope: it can stop traders).
    Bearer(String),
}

impl Auth {
    fn apply(&self, request: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        match self {
            Auth::Csrf(token) => request.header("x-csrf-token", token),
            Auth::Bearer(token) => request.bearer_auth(token),
        }
    }
}

/// Local mode: this server process's CSRF token.
async fn local_auth(base: &str) -> Auth {
    let session: Value = Client::new(base, Vec::new())
        .http
        .get(format!("{base}/api/session"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    Auth::Csrf(session["csrf_token"].as_str().unwrap().to_string())
}

/// Multi-user mode: `users` users, each with the mock as assistant model and a token.
fn add_users(home: &Path, users: usize, mock_url: &str) -> Vec<Auth> {
    let names: Vec<String> = (0..users).map(|u| format!("u{u:04}")).collect();
    let mut tokens = vec![String::new(); users];
    let half = users.div_ceil(2);
    // Two at a time, one a core.
    std::thread::scope(|scope| {
        for (names, tokens) in names.chunks(half).zip(tokens.chunks_mut(half)) {
            scope.spawn(move || {
                for (name, token) in names.iter().zip(tokens.iter_mut()) {
                    nofxi(home, "local", &["user", "add", name], Some(PASSWORD));
                    give_model(home, name, mock_url);
                    let create = ["token", "create", "--scopes", "read,write,trade"];
                    *token = nofxi(home, name, &create, None).trim().to_string();
                }
            });
        }
    });
    tokens.into_iter().map(Auth::Bearer).collect()
}

// ---------------------------------------------------------------------------------------------
// Conversations

type Events = Pin<Box<dyn Stream<Item = Result<Event, EventStreamError<reqwest::Error>>> + Send>>;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Rules,
    Model,
}

/// One turn as the client saw it.
struct Sample {
    kind: Kind,
    latency_ms: f64,
    trace_id: String,
    auth: usize,
    /// From the trace: the model calls' time, and the assistant's whole turn.
    model_ms: f64,
    assistant_ms: f64,
}

/// A conversation's end, where the idle phase reopens its stream.
struct Finished {
    conversation_id: String,
    last_event_id: String,
    auth: usize,
}

#[derive(Clone)]
struct Client {
    http: reqwest::Client,
    base: String,
    auths: Arc<Vec<Auth>>,
}

impl Client {
    /// Its own connection pool: a stream holds its connection, so N open streams are N
    /// connections, and posts take pooled ones beside them.
    fn new(base: &str, auths: Vec<Auth>) -> Client {
        let http = reqwest::Client::builder()
            .no_proxy()
            .tcp_nodelay(true)
            .build()
            .unwrap();
        Client {
            http,
            base: base.to_string(),
            auths: Arc::new(auths),
        }
    }

    async fn post_turn(&self, auth: usize, conversation: Option<&str>, message: &str) -> Value {
        let request = self
            .http
            .post(format!("{}/api/chat/turns", self.base))
            .json(&json!({"conversation_id": conversation, "message": message}));
        let response = self.auths[auth].apply(request).send().await.unwrap();
        let status = response.status();
        let body: Value = response.json().await.unwrap();
        assert_eq!(status, 202, "{body}");
        body
    }

    async fn events(&self, auth: usize, conversation: &str, after: &str) -> reqwest::Response {
        let url = format!("{}/api/chat/conversations/{conversation}/events", self.base);
        let mut request = self.http.get(url);
        if !after.is_empty() {
            request = request.header("last-event-id", after);
        }
        let response = self.auths[auth].apply(request).send().await.unwrap();
        assert_eq!(response.status(), 200, "events of {conversation}");
        response
    }

    /// Conversation `index`: `turns` turns on one event stream, `think` apart.
    async fn converse(
        &self,
        index: usize,
        turns: usize,
        think: Duration,
    ) -> (Vec<Sample>, Finished) {
        let auth = index % self.auths.len();
        let mut conversation: Option<String> = None;
        let mut stream: Option<Events> = None;
        let mut last_event_id = String::new();
        let mut samples = Vec::with_capacity(turns);
        for k in 0..turns {
            if k > 0 {
                tokio::time::sleep(think).await;
            }
            let open = (index + k) % 3 == 2;
            let message = if open {
                OPEN[(index + k) % OPEN.len()]
            } else {
                RULES[(index + k) % RULES.len()]
            };
            let sent = Instant::now();
            let accepted = self.post_turn(auth, conversation.as_deref(), message).await;
            let turn_id = accepted["turn_id"].as_str().unwrap().to_string();
            let id = accepted["conversation_id"].as_str().unwrap().to_string();
            let events = match &mut stream {
                Some(s) => s,
                None => {
                    let response = self.events(auth, &id, "").await;
                    stream.insert(Box::pin(response.bytes_stream().eventsource()))
                }
            };
            conversation = Some(id);
            let wait_for_turn = async {
                while let Some(event) = events.next().await {
                    let event = event.unwrap();
                    if !event.id.is_empty() {
                        last_event_id = event.id.clone();
                    }
                    if event.event != "turn" && event.event != "error" {
                        continue;
                    }
                    let data: Value = serde_json::from_str(&event.data).unwrap();
                    if data["turn_id"] == turn_id.as_str() {
                        assert_eq!(event.event, "turn", "the turn failed: {data}");
                        return data["response"].clone();
                    }
                }
                panic!("the event stream ended before turn {turn_id}");
            };
            let response = tokio::time::timeout(TURN_TIMEOUT, wait_for_turn)
                .await
                .expect("a turn took longer than the timeout");
            let latency_ms = sent.elapsed().as_secs_f64() * 1000.0;
            let asked_model = response["llm"]["calls"].as_u64().unwrap() > 0;
            assert_eq!(asked_model, open, "{message:?} → {response}");
            if open {
                let reply = response["reply"].as_str().unwrap();
                assert!(
                    reply.contains("Judgement"),
                    "not the mock's answer: {reply}"
                );
            }
            samples.push(Sample {
                kind: if open { Kind::Model } else { Kind::Rules },
                latency_ms,
                trace_id: response["trace_id"].as_str().unwrap().to_string(),
                auth,
                model_ms: 0.0,
                assistant_ms: 0.0,
            });
        }
        let finished = Finished {
            conversation_id: conversation.unwrap(),
            last_event_id,
            auth,
        };
        (samples, finished)
    }

    /// Fills each sample's model and assistant time from its trace.
    async fn read_traces(&self, samples: &mut [Sample]) {
        let figures: Vec<(f64, f64)> = futures::stream::iter(samples.iter())
            .map(|s| async move {
                let request = self
                    .http
                    .get(format!("{}/api/traces/{}", self.base, s.trace_id));
                let trace: Value = self.auths[s.auth]
                    .apply(request)
                    .send()
                    .await
                    .unwrap()
                    .json()
                    .await
                    .unwrap();
                let record = &trace["record"];
                let model: u64 = record["llm_calls"]
                    .as_array()
                    .map(|calls| calls.iter().filter_map(|c| c["latency_ms"].as_u64()).sum())
                    .unwrap_or(0);
                (
                    model as f64,
                    record["timings_ms"]["total"].as_f64().unwrap(),
                )
            })
            .buffered(8)
            .collect()
            .await;
        for (s, (model, total)) in samples.iter_mut().zip(figures) {
            s.model_ms = model;
            s.assistant_ms = total;
        }
    }
}

/// What one phase measured.
struct Phase {
    label: String,
    samples: Vec<Sample>,
    finished: Vec<Finished>,
    wall_s: f64,
    cpu_s: f64,
}

/// How a phase's conversations run.
#[derive(Clone, Copy)]
enum Pace {
    /// One after another.
    OneAtATime,
    /// All at once, each starting at its own moment within the first pause (arrivals spread
    /// out), this pause between turns: a person reading the answer and typing the next line.
    Paced(Duration),
    /// All at once, no pause: what the server can do.
    NoPause,
}

async fn run_phase(
    label: String,
    client: &Client,
    server: &Server,
    indices: std::ops::Range<usize>,
    turns: usize,
    pace: Pace,
) -> Phase {
    let cpu = server.cpu_seconds();
    let started = Instant::now();
    let mut results = Vec::with_capacity(indices.len());
    let think = match pace {
        Pace::Paced(think) => think,
        Pace::OneAtATime | Pace::NoPause => Duration::ZERO,
    };
    if let Pace::OneAtATime = pace {
        for i in indices {
            results.push(client.converse(i, turns, think).await);
        }
    } else {
        let count = indices.len() as f64;
        let tasks: Vec<_> = indices
            .enumerate()
            .map(|(n, i)| {
                let client = client.clone();
                let delay = think.mul_f64(n as f64 / count);
                tokio::spawn(async move {
                    tokio::time::sleep(delay).await;
                    client.converse(i, turns, think).await
                })
            })
            .collect();
        for task in tasks {
            results.push(task.await.unwrap());
        }
    }
    let wall_s = started.elapsed().as_secs_f64();
    let cpu_s = server.cpu_seconds() - cpu;
    let (samples, finished): (Vec<Vec<Sample>>, Vec<Finished>) = results.into_iter().unzip();
    let mut samples: Vec<Sample> = samples.into_iter().flatten().collect();
    client.read_traces(&mut samples).await;
    Phase {
        label,
        samples,
        finished,
        wall_s,
        cpu_s,
    }
}

// ---------------------------------------------------------------------------------------------
// Figures

/// Nearest-rank percentile of sorted values.
fn pct(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn sorted(values: impl Iterator<Item = f64>) -> Vec<f64> {
    let mut v: Vec<f64> = values.collect();
    v.sort_by(f64::total_cmp);
    v
}

fn print_table(phases: &[Phase]) {
    println!(
        "per turn, ms: latency = POST sent → `turn` event received; model = the trace's model calls;"
    );
    println!(
        "overhead = latency − model = in assistant (trace total − model) + outside it (latency − trace total)"
    );
    println!(
        "{:<24} {:>5} | {:>15} | {:>5} | {:>23} | {:>15} | {:>15}",
        "", "", "latency", "model", "overhead", "in assistant", "outside it"
    );
    let p = [
        "p50", "p99", "p50", "p50", "p99", "max", "p50", "p99", "p50", "p99",
    ];
    println!(
        "{:<24} {:>5} | {:>7} {:>7} | {:>5} | {:>7} {:>7} {:>7} | {:>7} {:>7} | {:>7} {:>7}",
        "phase, turns", "turns", p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9]
    );
    for phase in phases {
        for (kind, name) in [(Kind::Rules, "rules"), (Kind::Model, "model")] {
            let of: Vec<&Sample> = phase.samples.iter().filter(|s| s.kind == kind).collect();
            let latency = sorted(of.iter().map(|s| s.latency_ms));
            let model = sorted(of.iter().map(|s| s.model_ms));
            let overhead = sorted(of.iter().map(|s| s.latency_ms - s.model_ms));
            let inside = sorted(of.iter().map(|s| s.assistant_ms - s.model_ms));
            let outside = sorted(of.iter().map(|s| s.latency_ms - s.assistant_ms));
            println!(
                "{:<24} {:>5} | {:>7.1} {:>7.1} | {:>5.0} | {:>7.1} {:>7.1} {:>7.1} | {:>7.1} {:>7.1} | {:>7.1} {:>7.1}",
                format!("{}, {name}", phase.label),
                of.len(),
                pct(&latency, 50.0),
                pct(&latency, 99.0),
                pct(&model, 50.0),
                pct(&overhead, 50.0),
                pct(&overhead, 99.0),
                pct(&overhead, 100.0),
                pct(&inside, 50.0),
                pct(&inside, 99.0),
                pct(&outside, 50.0),
                pct(&outside, 99.0),
            );
        }
    }
    println!();
    for phase in phases {
        let n = phase.samples.len() as f64;
        println!(
            "{:<24} {:>5} turns in {:>6.2} s = {:>5.0} turns/s; server CPU {:>5.2} ms a turn, {:.2} cores",
            phase.label,
            phase.samples.len(),
            phase.wall_s,
            n / phase.wall_s,
            phase.cpu_s * 1000.0 / n,
            phase.cpu_s / phase.wall_s,
        );
    }
}

/// An idle event stream for each conversation, fifty opening at a time.
async fn open_streams(client: &Client, finished: &[Finished]) -> Vec<reqwest::Response> {
    futures::stream::iter(finished)
        .map(|f| client.events(f.auth, &f.conversation_id, &f.last_event_id))
        .buffer_unordered(50)
        .collect()
        .await
}

/// Opens an idle event stream per conversation on a fresh server, a fifth at a time, and
/// prints VmRSS after each fifth; the cost per stream is the slope through those points.
async fn idle_streams(server: &Server, auths: Vec<Auth>, finished: &[Finished]) {
    let client = Client::new(&server.base, auths);
    // The first streams' one-off costs (database connections, caches) are not per stream;
    // they stay open, part of the baseline.
    let warm = (finished.len() / 10).min(20);
    let mut streams = open_streams(&client, &finished[..warm]).await;
    let fds_before = server.fds();
    let mut points = vec![(0.0, server.settled_rss_kb().await as f64)];
    let step = (finished.len() - warm).div_ceil(5).max(1);
    for batch in finished[warm..].chunks(step) {
        streams.extend(open_streams(&client, batch).await);
        let rss = server.settled_rss_kb().await as f64;
        points.push(((streams.len() - warm) as f64, rss));
    }
    let fds_after = server.fds();
    // An idle stream still looks at the database every 15 s (a missed wake-up costs at most
    // that): what all of them cost over one such period.
    let cpu = server.cpu_seconds();
    tokio::time::sleep(Duration::from_secs(16)).await;
    let idle_cores = (server.cpu_seconds() - cpu) / 16.0;
    // Least squares: KB of VmRSS per open stream.
    let n = points.len() as f64;
    let (sx, sy) = points
        .iter()
        .fold((0.0, 0.0), |(sx, sy), (x, y)| (sx + x, sy + y));
    let (mx, my) = (sx / n, sy / n);
    let (sxy, sxx) = points.iter().fold((0.0, 0.0), |(sxy, sxx), (x, y)| {
        (sxy + (x - mx) * (y - my), sxx + (x - mx) * (x - mx))
    });
    let slope = if sxx > 0.0 { sxy / sxx } else { f64::NAN };
    let (opened, first, last) = (
        points[points.len() - 1].0,
        points[0].1,
        points[points.len() - 1].1,
    );
    println!(
        "idle event streams on a restarted server ({warm} open before the baseline), VmRSS KB by streams opened: {}",
        points
            .iter()
            .map(|(x, y)| format!("{x:.0}: {y:.0}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    println!(
        "  {slope:.1} KB per idle stream (slope); {:.1} KB (last − first) / {opened:.0}; server descriptors {fds_before} → {fds_after}; server CPU while they idle: {:.3} cores",
        (last - first) / opened.max(1.0),
        idle_cores,
    );
}

// ---------------------------------------------------------------------------------------------

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let conversations = env("NOFXI_LOAD_CONVERSATIONS", 500) as usize;
    let turns = env("NOFXI_LOAD_TURNS", 3).max(1) as usize;
    let think = Duration::from_millis(env("NOFXI_LOAD_THINK_MS", 10_000));
    let solo = env("NOFXI_LOAD_SOLO", 30) as usize;
    let users = env("NOFXI_LOAD_USERS", 0) as usize;
    let fd_limit = raise_fd_limit();
    assert!(
        fd_limit as usize > 3 * conversations + 100,
        "{fd_limit} open files allowed: too few for {conversations} conversations (raise `ulimit -n`)"
    );
    let bench_started = Instant::now();

    let mock = MockLlm::start().await;
    mock.set_default(Reply::Text(ANSWER.into()));
    let home = tempfile::tempdir().unwrap();
    let setup = Instant::now();
    let mut auths = if users == 0 {
        give_model(home.path(), "local", &mock.base_url());
        Vec::new()
    } else {
        add_users(home.path(), users, &mock.base_url())
    };
    let setup_s = setup.elapsed().as_secs_f64();
    let server = Server::start(home.path()).await;
    if users == 0 {
        auths.push(local_auth(&server.base).await);
    }
    let mode = match users {
        0 => "local mode (every conversation user `local`'s)".to_string(),
        n => format!("multi-user mode ({n} users with API tokens)"),
    };
    println!(
        "serve_load: {conversations} conversations × {turns} turns, a third of them open questions for the mock model; {mode}; SQLite; {} cores; open-file limit {fd_limit}; server pid {}; CLI set-up {setup_s:.1} s",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        server.pid,
    );

    let client = Client::new(&server.base, auths.clone());
    // Warm-up: the first turns load skills, names and the model config.
    client.converse(0, 3, Duration::ZERO).await;
    let plan = [
        ("one at a time".to_string(), solo, Pace::OneAtATime),
        (
            format!("{conversations}, {} s apart", think.as_secs_f64()),
            conversations,
            Pace::Paced(think),
        ),
        (
            format!("{conversations}, no pause"),
            conversations,
            Pace::NoPause,
        ),
    ];
    let mut phases = Vec::new();
    let mut first = 1;
    for (label, count, pace) in plan {
        let indices = first..first + count;
        phases.push(run_phase(label, &client, &server, indices, turns, pace).await);
        first += count;
    }
    println!();
    print_table(&phases);
    println!(
        "{} model calls answered by the mock; server peak VmRSS {} MB",
        mock.requests().len(),
        server.status_kb("VmHWM") / 1024
    );

    // Memory on a fresh process, so what the load phases freed but kept does not blur it.
    drop(client);
    server.stop().await;
    let server = Server::start(home.path()).await;
    // A new process, a new CSRF token; API tokens stay valid.
    let auths = match &auths[..] {
        [Auth::Csrf(_)] => vec![local_auth(&server.base).await],
        _ => auths,
    };
    println!();
    let last = phases.pop().unwrap();
    idle_streams(&server, auths, &last.finished).await;
    server.stop().await;
    println!(
        "bench took {:.0} s; reproduce: cargo bench -p nofxi-cli --bench serve_load",
        bench_started.elapsed().as_secs_f64()
    );
}
