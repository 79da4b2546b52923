//! `nofxi model …`: LLM model configs. The API key is taken from `--api-key`, standard input
//! (`--api-key -`), or on `add` for a provider that needs one the `NOFXI_API_KEY` environment
//! variable (said on stderr), and never printed.
//!
//! `nofxi model test NAME` makes one tiny real call to the configured endpoint. A failure is
//! explained from the error-diagnosis skill's entries (the same texts the assistant answers
//! with), picked by the llm crate's typed error kind, never by matching message text.

use anyhow::{Result, bail};
use clap::{Args, Subcommand};
use nofxi_assistant::model_probe::{ProbeFailure, ProbeReport, probe_model};
use nofxi_domain::redact::redact;
use nofxi_domain::{Model, ModelPatch, ModelSpec, PROVIDERS, ResourceKind, Secret, WireFormat};
use nofxi_skills::Lang;
use nofxi_store::Store;

use super::common::{
    ListArgs, RefArg, StdinSecrets, actor, block_on, open_store, print_json, print_table, remove,
    time, yes_no,
};
use super::env_credentials::{self, Verb};
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
            let api_key = api_key_on_add(fields.provider.as_deref(), fields.api_key)?;
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
            let asked =
                env_credentials::admit("api-key", fields.api_key, Verb::Update, true, String::new);
            let api_key = StdinSecrets::default().resolve("api-key", asked)?;
            let patch = ModelPatch {
                name: fields.name,
                provider: fields.provider,
                enabled: fields.enabled,
                base_url: fields.base_url,
                model_name: fields.model_name,
            };
            if patch == ModelPatch::default() && api_key.is_none() {
                return Err(super::common::nothing_to_change(
                    KIND.as_str(),
                    "--name, --provider, --enabled, --base-url, --model-name, --api-key",
                ));
            }
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

/// The key for a new model: a typed `--api-key` always, `NOFXI_API_KEY` only for a provider
/// that needs a key (a local or custom endpoint gets the exported key only when asked).
fn api_key_on_add(provider: Option<&str>, value: Option<String>) -> Result<Option<Secret>> {
    let spec = provider.and_then(nofxi_domain::provider::provider);
    let used = spec.is_some_and(|p| p.needs_api_key);
    let why = || match spec {
        Some(p) if p.takes_api_key() => format!(
            "{} models need no api_key and the exported one is not sent there unasked \
             (give `--api-key` to send one)",
            p.id
        ),
        Some(p) => format!("{} models use no api_key", p.id),
        None => "the provider is not one nofxi knows".to_string(),
    };
    let value = env_credentials::admit("api-key", value, Verb::Add, used, why);
    StdinSecrets::default().resolve("api-key", value)
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
                match (p.default_base_url, p.wire) {
                    (Some(url), _) => url.to_string(),
                    // The offline rules call nothing: there is no URL to give.
                    (None, WireFormat::Builtin) => "(none: offline)".to_string(),
                    (None, _) => "(your URL)".to_string(),
                },
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

async fn test(global: &GlobalArgs, store: &Store, reference: &str) -> Result<()> {
    let report = probe_model(store, &global.user, reference, Lang::En).await?;
    // The report quotes the endpoint (its answer, the model it names, its error), and an
    // endpoint or a proxy in front of it may echo the request's Authorization header.
    let key = store.model_api_key(&global.user, reference).await?;
    let report = redacted(report, key.as_ref());
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

/// `report` with the key (also cased, reversed, spread out) and anything key-shaped taken out
/// of every text, by the redactor the model clients apply to their errors. Every field is
/// named, so a text added to the report cannot skip it.
fn redacted(report: ProbeReport, key: Option<&Secret>) -> ProbeReport {
    let text = |s: String| redact(&s, key);
    let texts = |s: Option<String>| s.map(text);
    let ProbeReport {
        ok,
        model,
        provider,
        base_url,
        model_name,
        answered_by,
        latency_ms,
        reply,
        note,
        error,
    } = report;
    let error = error.map(|f| {
        let ProbeFailure {
            kind,
            status,
            diagnosis,
            what,
            why,
            fix,
            provider_message,
        } = f;
        ProbeFailure {
            kind: text(kind),
            status,
            diagnosis: texts(diagnosis),
            what: text(what),
            why: text(why),
            fix: text(fix),
            provider_message: text(provider_message),
        }
    });
    ProbeReport {
        ok,
        model: text(model),
        provider: text(provider),
        base_url: texts(base_url),
        model_name: texts(model_name),
        answered_by: texts(answered_by),
        latency_ms,
        reply: texts(reply),
        note: texts(note),
        error,
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
