//! Running cases: each on a fresh home, setup applied, steps sent through an engine, every
//! assertion checked; and the report (per case, then totals, then `N passed, N failed`).
//!
//! The runner knows the engine only through [`EngineFactory`] and [`Conversation`], so it does
//! not care whether turns go to the in-process `Assistant`, a CLI subprocess or a test double.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use async_trait::async_trait;
use nofxi_protocol::{Channel, TurnRequest, TurnResponse};
use nofxi_skills::Library;
use nofxi_store::Store;

use crate::case::{Case, SuiteFile, collect_files, load_file};
use crate::error::EvalError;
use crate::expect::{Failure, TaskIndex, check_turn};
use crate::setup::{EVAL_USER, FreshHome, apply};
use crate::state::check_state;

/// One conversation with the dialogue engine.
#[async_trait]
pub trait Conversation: Send + Sync {
    async fn turn(&self, request: TurnRequest) -> Result<TurnResponse, String>;
}

/// Opens an engine over a store; called once per case, and again on a `restart` step.
#[async_trait]
pub trait EngineFactory: Send + Sync {
    async fn open(
        &self,
        store: Arc<Store>,
        library: Arc<Library>,
        home: &Path,
    ) -> Result<Box<dyn Conversation>, String>;
}

/// The outcome of one case.
#[derive(Debug, Clone)]
pub struct CaseResult {
    pub file: PathBuf,
    pub name: String,
    /// `None` when every step passed.
    pub failure: Option<StepFailure>,
    pub turns: u32,
    pub llm_calls: u32,
    pub elapsed: Duration,
}

impl CaseResult {
    pub fn passed(&self) -> bool {
        self.failure.is_none()
    }
}

/// The first step of a case that failed, with everything needed to see why.
#[derive(Debug, Clone)]
pub struct StepFailure {
    /// 1-based; 0 when the case failed before its first step (setup, engine).
    pub step: usize,
    pub user: String,
    pub failures: Vec<Failure>,
    pub reply: String,
}

/// Runs one case on a fresh home. Stops at the first failing step: later steps depend on it.
pub async fn run_case(
    factory: &dyn EngineFactory,
    library: Arc<Library>,
    file: &SuiteFile,
    case: &Case,
) -> CaseResult {
    let started = Instant::now();
    let mut result = CaseResult {
        file: file.path.clone(),
        name: case.name.clone(),
        failure: None,
        turns: 0,
        llm_calls: 0,
        elapsed: Duration::ZERO,
    };
    let early = |message: String| StepFailure {
        step: 0,
        user: String::new(),
        failures: vec![Failure::new("setup", message)],
        reply: String::new(),
    };
    let home = match FreshHome::create().await {
        Ok(h) => h,
        Err(e) => {
            result.failure = Some(early(e.to_string()));
            return result;
        }
    };
    let setup = [file.setup.as_slice(), case.setup.as_slice()].concat();
    if let Err(e) = apply(&home.store, &setup).await {
        result.failure = Some(early(e.to_string()));
        return result;
    }
    let open = || factory.open(home.store.clone(), library.clone(), &home.home);
    let mut engine = match open().await {
        Ok(e) => e,
        Err(e) => {
            result.failure = Some(early(EvalError::Engine(e).to_string()));
            return result;
        }
    };
    let mut conversation_id: Option<String> = None;
    // The runner is one client: its yes carries the confirmation it was shown last.
    let mut seen_confirmation: Option<String> = None;
    let mut tasks = TaskIndex::default();
    for (i, step) in case.steps.iter().enumerate() {
        let fail = |failures: Vec<Failure>, reply: String| StepFailure {
            step: i + 1,
            user: step.user.clone(),
            failures,
            reply,
        };
        if step.restart {
            engine = match open().await {
                Ok(e) => e,
                Err(e) => {
                    result.failure = Some(fail(vec![Failure::new("restart", e)], String::new()));
                    break;
                }
            };
        }
        let request = TurnRequest {
            conversation_id: conversation_id.clone(),
            user: EVAL_USER.to_string(),
            message: step.user.clone(),
            channel: Channel::Chat,
            seen_confirmation: seen_confirmation.clone(),
            received_bytes: None,
        };
        let response = match engine.turn(request).await {
            Ok(r) => r,
            Err(e) => {
                result.failure = Some(fail(vec![Failure::new("turn", e)], String::new()));
                break;
            }
        };
        result.turns += 1;
        result.llm_calls += response.llm.calls;
        conversation_id = Some(response.conversation_id.clone());
        if let Some(binding) = response.confirmation_binding() {
            seen_confirmation = Some(binding.to_string());
        }
        tasks.learn(&response);
        let mut failures = check_turn(&step.expect, &response, &tasks);
        if let Some(checks) = &step.expect.state {
            failures.extend(check_state(&home.store, checks).await);
        }
        if !failures.is_empty() {
            result.failure = Some(fail(failures, response.reply.clone()));
            break;
        }
    }
    result.elapsed = started.elapsed();
    result
}

/// Every case of every file the paths name (files, or directories of `.yaml` files).
pub fn load_suite(paths: &[PathBuf]) -> Result<Vec<SuiteFile>, EvalError> {
    let mut files = Vec::new();
    for path in paths {
        for file in collect_files(path)? {
            files.push(load_file(&file)?);
        }
    }
    Ok(files)
}

/// Runs every case in order and returns the results (reporting is separate).
pub async fn run_suite(
    factory: &dyn EngineFactory,
    library: Arc<Library>,
    files: &[SuiteFile],
    mut on_result: impl FnMut(&CaseResult),
) -> Vec<CaseResult> {
    let mut results = Vec::new();
    for file in files {
        for case in &file.cases {
            let result = run_case(factory, library.clone(), file, case).await;
            on_result(&result);
            results.push(result);
        }
    }
    results
}

/// One case as printed: `ok` or `FAIL`, and for a failure the step, each failed assertion and
/// the reply the engine gave.
pub fn render_case(result: &CaseResult) -> String {
    let file = result
        .file
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut out = String::new();
    match &result.failure {
        None => {
            let _ = writeln!(out, "ok   {file}: {}", result.name);
        }
        Some(f) => {
            let _ = writeln!(out, "FAIL {file}: {}", result.name);
            if f.step > 0 {
                let _ = writeln!(out, "     step {}: user: {}", f.step, f.user);
            }
            for failure in &f.failures {
                let _ = writeln!(out, "     {}: {}", failure.assertion, failure.message);
            }
            if !f.reply.is_empty() {
                let _ = writeln!(
                    out,
                    "     reply: {}",
                    f.reply.replace('\n', "\n            ")
                );
            }
        }
    }
    out
}

/// Totals; the last line is exactly `N passed, N failed`.
pub fn render_totals(results: &[CaseResult], elapsed: Duration) -> String {
    let passed = results.iter().filter(|r| r.passed()).count();
    let failed = results.len() - passed;
    let turns: u32 = results.iter().map(|r| r.turns).sum();
    let calls: u32 = results.iter().map(|r| r.llm_calls).sum();
    let rate = if results.is_empty() {
        0.0
    } else {
        100.0 * passed as f64 / results.len() as f64
    };
    let per_turn = if turns == 0 {
        0.0
    } else {
        f64::from(calls) / f64::from(turns)
    };
    format!(
        "\n{} cases, pass rate {rate:.1}%, {turns} turns, {calls} LLM calls ({per_turn:.2} per turn), {:.2}s\n{passed} passed, {failed} failed\n",
        results.len(),
        elapsed.as_secs_f64()
    )
}
