//! Fresh homes and the `setup` of a case, applied through the store's own API (the same calls
//! the CLI makes), so a case starts from resources exactly as a user would have them.

use std::path::PathBuf;
use std::sync::Arc;

use nofxi_domain::{
    Actor, Channel, CredentialField, Credentials, ExchangeSpec, ModelSpec, ResourceKind, Secret,
    StrategyConfig, StrategySpec, TraderSpec,
};
use nofxi_portfolio::csv_io::preview;
use nofxi_portfolio::domain::{Account, Currency, Portfolio};
use nofxi_store::{CycleRow, Database, KeySpec, Store, StoreConfig};
use nofxi_trader::cycle::{CyclePhase, CycleRecord};
use nofxi_trader::runtime::status::{STATUS_SCOPE, TraderStatus};
use zeroize::Zeroizing;

use crate::case::{
    ExchangeSetup, JournalSetup, ModelSetup, PortfolioSetup, SetupItem, StrategySetup, TraderSetup,
};
use crate::error::EvalError;

/// The engine process a case's journal says ran its traders.
const ENGINE: &str = "eval-engine";

/// The user every case talks as.
pub const EVAL_USER: &str = "eval";

/// A temporary home with its own store and a key nobody else has; removed on drop.
pub struct FreshHome {
    pub store: Arc<Store>,
    pub home: PathBuf,
    pub database_file: PathBuf,
    _dir: tempfile::TempDir,
}

impl FreshHome {
    pub async fn create() -> Result<FreshHome, EvalError> {
        let dir = tempfile::tempdir().map_err(|e| EvalError::Store(e.to_string()))?;
        let database_file = dir.path().join(nofxi_store::SQLITE_FILE_NAME);
        // A fresh random key per case: no case can read another's vault, even by accident.
        let key = Zeroizing::new(hex::encode(rand::random::<[u8; 32]>()));
        let config = StoreConfig {
            database: Database::SqliteFile(database_file.clone()),
            key: KeySpec::Text(key),
        };
        let store = Store::open_with(config)
            .await
            .map_err(|e| EvalError::Store(e.to_string()))?;
        Ok(FreshHome {
            store: Arc::new(store),
            home: dir.path().to_path_buf(),
            database_file,
            _dir: dir,
        })
    }
}

fn actor() -> Actor {
    Actor::new(EVAL_USER, Channel::Cli, true)
}

/// Creates every item in order; later items may name earlier ones.
pub async fn apply(store: &Store, items: &[SetupItem]) -> Result<(), EvalError> {
    for item in items {
        match item {
            SetupItem::Exchange(e) => exchange(store, e).await?,
            SetupItem::Model(m) => model(store, m).await?,
            SetupItem::Strategy(s) => strategy(store, s).await?,
            SetupItem::Trader(t) => trader(store, t).await?,
            SetupItem::Portfolio(p) => portfolio(store, p).await?,
            SetupItem::Journal(j) => journal(store, j).await?,
        }
    }
    Ok(())
}

/// Creates the portfolio and imports its CSV; a row the import refuses fails the setup.
async fn portfolio(store: &Store, p: &PortfolioSetup) -> Result<(), EvalError> {
    let fail = |e: &dyn std::fmt::Display| failed("portfolio", &p.name, e);
    let base: Currency = p.base.parse().map_err(|e| fail(&e))?;
    let mut portfolio = Portfolio::new(&p.name, base.clone());
    portfolio.cost_method = p.method.parse().map_err(|e| fail(&e))?;
    // `NAME` in the base currency, or `NAME:CURRENCY`, as `nofxi portfolio add --account`.
    for spec in &p.accounts {
        let (name, currency) = match spec.split_once(':') {
            Some((name, ccy)) => (name, ccy.parse().map_err(|e| fail(&e))?),
            None => (spec.as_str(), base.clone()),
        };
        portfolio.accounts.push(Account {
            name: name.to_string(),
            broker: String::new(),
            currency,
        });
    }
    store
        .create_portfolio(&actor(), &portfolio)
        .await
        .map_err(|e| fail(&e))?;
    if p.csv.trim().is_empty() {
        return Ok(());
    }
    let plan = preview(&portfolio, &[], &p.csv);
    if !plan.errors.is_empty() {
        return Err(fail(&plan.error_report()));
    }
    store
        .import_transactions(&actor(), &portfolio.name, &plan)
        .await
        .map_err(|e| fail(&e))?;
    Ok(())
}

fn failed(what: &str, name: &str, e: impl std::fmt::Display) -> EvalError {
    EvalError::Setup(format!("{what} {name:?}: {e}"))
}

async fn exchange(store: &Store, e: &ExchangeSetup) -> Result<(), EvalError> {
    let mut credentials = Credentials::new();
    let fields = [
        ("api_key", &e.api_key),
        ("secret_key", &e.secret_key),
        ("passphrase", &e.passphrase),
        ("wallet_addr", &e.wallet_addr),
        ("user", &e.user),
        ("signer", &e.signer),
        ("private_key", &e.private_key),
        ("api_key_private_key", &e.api_key_private_key),
        ("api_key_index", &e.api_key_index),
    ];
    for (name, value) in fields {
        if let Some(value) = value {
            let field: CredentialField =
                name.parse().map_err(|m| failed("exchange", &e.name, m))?;
            credentials.set(field, Secret::new(value.clone()));
        }
    }
    let spec = ExchangeSpec {
        exchange_type: e.exchange_type.clone(),
        account_name: e.name.clone(),
        enabled: e.enabled,
        testnet: e.testnet,
    };
    store
        .create_exchange(&actor(), spec, credentials)
        .await
        .map_err(|err| failed("exchange", &e.name, err))?;
    trash_if(store, e.deleted, ResourceKind::Exchange, &e.name).await
}

async fn model(store: &Store, m: &ModelSetup) -> Result<(), EvalError> {
    let spec = ModelSpec {
        name: m.name.clone(),
        provider: m.provider.clone(),
        enabled: m.enabled,
        base_url: m.base_url.clone(),
        model_name: m.model_name.clone(),
    };
    let key = m.api_key.clone().map(Secret::new);
    store
        .create_model(&actor(), spec, key)
        .await
        .map_err(|err| failed("model", &m.name, err))?;
    trash_if(store, m.deleted, ResourceKind::Model, &m.name).await
}

async fn strategy(store: &Store, s: &StrategySetup) -> Result<(), EvalError> {
    let config = match &s.config {
        None => StrategyConfig::default(),
        Some(overrides) => {
            let mut base = serde_json::to_value(StrategyConfig::default())
                .map_err(|err| failed("strategy", &s.name, err))?;
            merge(&mut base, overrides);
            serde_json::from_value(base).map_err(|err| failed("strategy", &s.name, err))?
        }
    };
    let mut spec = StrategySpec::new(s.name.clone());
    spec.description = s.description.clone();
    spec.is_active = s.active;
    spec.config = config;
    store
        .create_strategy(&actor(), spec)
        .await
        .map_err(|err| failed("strategy", &s.name, err))?;
    trash_if(store, s.deleted, ResourceKind::Strategy, &s.name).await
}

async fn trader(store: &Store, t: &TraderSetup) -> Result<(), EvalError> {
    let mut spec = TraderSpec::new(
        t.name.clone(),
        t.model.clone(),
        t.exchange.clone(),
        t.strategy.clone(),
        t.initial_balance,
    );
    spec.scan_interval_minutes = t.scan_interval_minutes;
    spec.is_cross_margin = t.is_cross_margin;
    store
        .create_trader(&actor(), spec)
        .await
        .map_err(|err| failed("trader", &t.name, err))?;
    if t.running {
        store
            .set_trader_running(&actor(), &t.name, true)
            .await
            .map_err(|err| failed("trader", &t.name, err))?;
    }
    trash_if(store, t.deleted, ResourceKind::Trader, &t.name).await
}

/// Saves the cycles of `j` through the engine's own record type and the store's journal call,
/// so a malformed override fails the setup instead of being skipped by the reader.
async fn journal(store: &Store, j: &JournalSetup) -> Result<(), EvalError> {
    let fail = |e: &dyn std::fmt::Display| failed("journal", &j.trader, e);
    let trader = store
        .get_trader(EVAL_USER, &j.trader)
        .await
        .map_err(|e| fail(&e))?;
    let model = store
        .get_model(EVAL_USER, &trader.spec.ai_model_id)
        .await
        .map_err(|e| fail(&e))?;
    let every_ms = trader.spec.scan_interval_minutes * 60_000;
    let now = store.now_ms();
    for number in 1..=j.cycles {
        let back = i64::try_from(j.cycles - number).map_err(|e| fail(&e))?;
        let started = now - back * every_ms;
        let decider = format!("llm:{}", model.spec.name);
        let mut record = CycleRecord::new(&trader.id, number, started, decider);
        record.phase = CyclePhase::Done;
        record.finished_ms = Some(started + 1_000);
        let mut value = serde_json::to_value(&record).map_err(|e| fail(&e))?;
        for overrides in j.cycle.iter().chain(j.at.get(&number)) {
            merge(&mut value, overrides);
        }
        let record: CycleRecord = serde_json::from_value(value).map_err(|e| fail(&e))?;
        let row = CycleRow {
            trader_id: trader.id.clone(),
            cycle_number: number,
            phase: "done".into(),
            started_at: started,
            equity: record.equity(),
            record: serde_json::to_value(&record).map_err(|e| fail(&e))?,
        };
        store
            .save_cycle(EVAL_USER, &row)
            .await
            .map_err(|e| fail(&e))?;
    }
    if let Some(stop) = &j.stop {
        let status = TraderStatus::running(ENGINE, now - every_ms).stopped(
            stop.reason,
            stop.detail.clone(),
            now,
        );
        let value = serde_json::to_value(&status).map_err(|e| fail(&e))?;
        store
            .put_state(EVAL_USER, STATUS_SCOPE, &trader.id, &value)
            .await
            .map_err(|e| fail(&e))?;
    }
    if j.engine {
        store.engine_beat(ENGINE).await.map_err(|e| fail(&e))?;
    }
    Ok(())
}

async fn trash_if(
    store: &Store,
    deleted: bool,
    kind: ResourceKind,
    name: &str,
) -> Result<(), EvalError> {
    if deleted {
        store
            .delete(&actor(), kind, name)
            .await
            .map_err(|err| failed(kind.as_str(), name, err))?;
    }
    Ok(())
}

/// Deep-merges `overrides` into `base`: objects key by key, anything else replaced.
fn merge(base: &mut serde_json::Value, overrides: &serde_json::Value) {
    match (base, overrides) {
        (serde_json::Value::Object(b), serde_json::Value::Object(o)) => {
            for (k, v) in o {
                merge(b.entry(k.clone()).or_insert(serde_json::Value::Null), v);
            }
        }
        (b, o) => *b = o.clone(),
    }
}
