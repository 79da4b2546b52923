//! `nofxi model …`: LLM model configs. The API key is taken from `--api-key`, the
//! `NOFXI_API_KEY` environment variable, or standard input (`--api-key -`), and never printed.
//!
//! `nofxi model test NAME` makes one tiny real call to the configured endpoint. A failure is
//! explained from the error-diagnosis skill's entries (the same texts the assistant answers
//! with), picked by the llm crate's typed error kind, never by matching message text.

use std::time::Duration;

use anyhow::{Result, bail};
use clap::{Args, Subcommand};
use nofxi_assistant::model_errors;
use nofxi_domain::{Model, ModelPatch, ModelSpec, PROVIDERS, ResourceKind};
use nofxi_llm::{ChatRequest, Endpoint, LlmError, Message, RetryPolicy};
use nofxi_skills::{Lang, Library};
use nofxi_store::Store;
use nofxi_trader::decider::provider_client::{ProviderClient, kind_name};
use nofxi_trader::runtime::preflight::is_builtin;
use serde::Serialize;

use super::common::{
    ListArgs, RefArg, StdinSecrets, actor, block_on, open_store, print_json, print_table, remove,
    time, yes_no,
};
use crate::home::GlobalArgs;

const KIND: ResourceKind = ResourceKind::Model;

#[derive(Debug, Subcommand)]
pub enum ModelCommand {
    /// List model configs.
    List(ListArgs),
    /// Show one model config.
    Show(RefArg),
    /// Add a model config.
    Add(ModelFields),
    /// Change a model config; only the flags given change.
    Update {
        #[command(flatten)]
        target: RefArg,
        #[command(flatten)]
        fields: ModelFields,
    },
    /// Move a model config to the trash (restorable for 30 days).
    Delete(RefArg),
    /// Bring a model config back from the trash.
    Restore(RefArg),
    /// List the providers nofxi knows, with their default URL and model.
    Providers,
    /// Call the model once (a few tokens) and say whether it answers, or why not.
    Test(RefArg),
}

#[derive(Debug, Args)]
pub struct ModelFields {
    /// Display name, unique among your models (case-insensitive).
    #[arg(long)]
    pub name: Option<String>,
    /// Provider id: see `nofxi model providers`.
    #[arg(long)]
    pub provider: Option<String>,
    /// Custom base URL (https, or http to localhost only). Empty string clears it.
    #[arg(long)]
    pub base_url: Option<String>,
    /// Model name; defaults to the provider's default where it has one. Empty string clears it.
    #[arg(long)]
    pub model_name: Option<String>,
    /// Whether traders may use it (default true).
    #[arg(long, value_name = "true|false")]
    pub enabled: Option<bool>,
    /// The API key, or `-` to read it from standard input.
    #[arg(
        long,
        env = "NOFXI_API_KEY",
        hide_env_values = true,
        value_name = "KEY|-"
    )]
    pub api_key: Option<String>,
}

pub fn run(global: &GlobalArgs, command: ModelCommand) -> Result<()> {
    match command {
        ModelCommand::Providers => providers(global),
        other => block_on(run_async(global, other))?,
    }
}

async fn run_async(global: &GlobalArgs, command: ModelCommand) -> Result<()> {
    let store = open_store(global).await?;
    let user = &global.user;
    match command {
        ModelCommand::List(args) => {
            let models = store.list_models(user, args.deleted).await?;
            if global.json {
                return print_json(&models);
            }
            let rows = models
                .iter()
                .map(|m| {
                    vec![
                        m.spec.name.clone(),
                        m.spec.provider.clone(),
                        m.effective_model_name.clone().unwrap_or_default(),
                        yes_no(m.spec.enabled),
                        m.api_key_masked.clone().unwrap_or_else(|| "-".into()),
                        m.id.clone(),
                    ]
                })
                .collect::<Vec<_>>();
            print_table(
                &["NAME", "PROVIDER", "MODEL", "ENABLED", "API KEY", "ID"],
                &rows,
            );
            Ok(())
        }
        ModelCommand::Show(r) => {
            let model = store.get_model(user, &r.reference).await?;
            if global.json {
                return print_json(&model);
            }
            show(&model);
            Ok(())
        }
        ModelCommand::Add(fields) => {
            let mut stdin = StdinSecrets::default();
            let api_key = stdin.resolve("api-key", fields.api_key)?;
            let spec = ModelSpec {
                name: fields.name.unwrap_or_default(),
                provider: fields.provider.unwrap_or_default(),
                enabled: fields.enabled.unwrap_or(true),
                base_url: fields.base_url,
                model_name: fields.model_name,
            };
            let model = store.create_model(&actor(global), spec, api_key).await?;
            done(global, "created", &model)
        }
        ModelCommand::Update { target, fields } => {
            let mut stdin = StdinSecrets::default();
            let api_key = stdin.resolve("api-key", fields.api_key)?;
            let patch = ModelPatch {
                name: fields.name,
                provider: fields.provider,
                enabled: fields.enabled,
                base_url: fields.base_url,
                model_name: fields.model_name,
            };
            let model = store
                .update_model(&actor(global), &target.reference, patch, api_key)
                .await?;
            done(global, "updated", &model)
        }
        ModelCommand::Delete(r) => remove(global, &store, KIND, &r.reference, false).await,
        ModelCommand::Restore(r) => remove(global, &store, KIND, &r.reference, true).await,
        ModelCommand::Test(r) => test(global, &store, &r.reference).await,
        // Answered above without opening the store.
        ModelCommand::Providers => providers(global),
    }
}

fn done(global: &GlobalArgs, verb: &str, model: &Model) -> Result<()> {
    if global.json {
        return print_json(model);
    }
    println!("{verb} model {:?} (id {})", model.spec.name, model.id);
    Ok(())
}

fn show(m: &Model) {
    println!("name        {}", m.spec.name);
    println!("id          {}", m.id);
    println!("provider    {}", m.spec.provider);
    println!(
        "base_url    {}",
        m.effective_base_url.as_deref().unwrap_or("-")
    );
    println!(
        "model_name  {}",
        m.effective_model_name.as_deref().unwrap_or("-")
    );
    println!("enabled     {}", yes_no(m.spec.enabled));
    println!(
        "api_key     {}",
        m.api_key_masked.as_deref().unwrap_or("not set")
    );
    println!("created     {}", time(m.created_at));
    println!("updated     {}", time(m.updated_at));
}

fn providers(global: &GlobalArgs) -> Result<()> {
    if global.json {
        return print_json(&PROVIDERS);
    }
    let rows = PROVIDERS
        .iter()
        .map(|p| {
            vec![
                p.id.to_string(),
                p.default_base_url.unwrap_or("(your URL)").to_string(),
                p.default_model.unwrap_or("(your choice)").to_string(),
                yes_no(p.needs_api_key),
            ]
        })
        .collect::<Vec<_>>();
    print_table(
        &["PROVIDER", "BASE URL", "DEFAULT MODEL", "NEEDS KEY"],
        &rows,
    );
    Ok(())
}

/// The probe's budget: enough for a slow endpoint to answer a few tokens, short enough that a
/// user waiting at the terminal is told about a dead one soon.
const PROBE_TIMEOUT: Duration = Duration::from_secs(30);

/// What `nofxi model test` found; `--json` prints it as is.
#[derive(Debug, Serialize)]
struct ProbeReport {
    ok: bool,
    model: String,
    provider: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    base_url: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    model_name: Option<String>,
    /// The model that answered, as the provider reported it.
    #[serde(skip_serializing_if = "Option::is_none")]
    answered_by: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    latency_ms: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reply: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<ProbeFailure>,
}

/// A failed probe as REFERENCE §3 wants it told: what happened, why, what to do now.
#[derive(Debug, Serialize)]
struct ProbeFailure {
    /// The llm crate's kind (`bad_key`, `model_not_found`), or `config` before any call.
    kind: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    status: Option<u16>,
    /// The error-diagnosis entry the explanation comes from.
    #[serde(skip_serializing_if = "Option::is_none")]
    diagnosis: Option<String>,
    what: String,
    why: String,
    fix: String,
    /// The provider's own words, keys removed.
    #[serde(skip_serializing_if = "String::is_empty")]
    provider_message: String,
}

async fn test(global: &GlobalArgs, store: &Store, reference: &str) -> Result<()> {
    let model = store.get_model(&global.user, reference).await?;
    let mut report = ProbeReport {
        ok: false,
        model: model.spec.name.clone(),
        provider: model.spec.provider.clone(),
        base_url: model.effective_base_url.clone(),
        model_name: model.effective_model_name.clone(),
        answered_by: None,
        latency_ms: None,
        reply: None,
        note: None,
        error: None,
    };
    if is_builtin(&model) {
        report.ok = true;
        report.note = Some("builtin needs no endpoint: OK".into());
    } else {
        let key = store.model_api_key(&global.user, &model.id).await?;
        match probe(&model, key).await {
            Ok(done) => {
                report.ok = true;
                report.answered_by = Some(done.model);
                report.latency_ms = Some(done.latency_ms);
                report.reply = Some(done.text.trim().to_string());
            }
            Err(failure) => report.error = Some(failure),
        }
    }
    if global.json {
        print_json(&report)?;
    } else {
        print_probe(&report);
    }
    match &report.error {
        None => Ok(()),
        Some(f) => bail!(
            "model {:?} failed its test ({}): {}",
            report.model,
            f.kind,
            f.fix
        ),
    }
}

/// One tiny completion: no retries (the user is waiting, and asks again if they want).
async fn probe(
    model: &Model,
    key: Option<nofxi_domain::Secret>,
) -> Result<nofxi_llm::Completion, ProbeFailure> {
    let endpoint = Endpoint::from_model(&model.spec, key.clone())
        .map_err(|e| config_failure(e.to_string()))?
        .with_retry(RetryPolicy::no_retry())
        .with_timeout(PROBE_TIMEOUT);
    let provider = nofxi_llm::connect(endpoint).map_err(|e| config_failure(e.to_string()))?;
    let client = ProviderClient::new(provider, key);
    let request = ChatRequest {
        messages: vec![Message::user("Reply with the single word OK.")],
        max_tokens: Some(5),
        temperature: Some(0.0),
        ..ChatRequest::default()
    };
    client.chat(&request).await.map_err(|e| explain(&e))
}

/// The model config cannot be called at all (no key, a bad URL): nothing was sent.
fn config_failure(message: String) -> ProbeFailure {
    ProbeFailure {
        kind: "config".into(),
        status: None,
        diagnosis: None,
        what: "The model config cannot be called as it is; nothing was sent.".into(),
        why: message.clone(),
        fix: message,
        provider_message: String::new(),
    }
}

/// The failure in the error-diagnosis skill's words (the same explainer the assistant uses).
fn explain(error: &LlmError) -> ProbeFailure {
    let explanation = Library::builtin()
        .ok()
        .map(|library| model_errors::explain(error, &library, Lang::En));
    let said = error.message.trim().to_string();
    ProbeFailure {
        kind: kind_name(error),
        status: error.status,
        diagnosis: explanation.as_ref().and_then(|e| e.diagnosis.clone()),
        what: explanation
            .as_ref()
            .map(|e| e.what.clone())
            .unwrap_or_else(|| format!("The model call failed ({}).", kind_name(error))),
        why: explanation
            .as_ref()
            .map(|e| e.why.clone())
            .unwrap_or_else(|| said.clone()),
        fix: explanation
            .map(|e| e.fix)
            .unwrap_or_else(|| error.kind.advice().to_string()),
        provider_message: said,
    }
}

fn print_probe(r: &ProbeReport) {
    let target = match (&r.base_url, &r.model_name) {
        (Some(url), Some(name)) => format!(" · {name} at {url}"),
        _ => String::new(),
    };
    println!("model {} ({}){target}", r.model, r.provider);
    if let Some(note) = &r.note {
        println!("{note}");
        return;
    }
    if r.ok {
        println!(
            "OK              answered in {} ms by {}",
            r.latency_ms.unwrap_or_default(),
            r.answered_by.as_deref().unwrap_or("?")
        );
        return;
    }
    let Some(f) = &r.error else { return };
    let status = f.status.map(|s| format!("HTTP {s}, ")).unwrap_or_default();
    println!("FAILED          {status}{}", f.kind);
    println!("what happened   {}", f.what);
    println!("why             {}", f.why);
    println!("what to do now  {}", f.fix);
    if !f.provider_message.is_empty() && f.provider_message != f.why {
        println!("details         {}", f.provider_message);
    }
}
