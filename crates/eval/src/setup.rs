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
use nofxi_store::{Database, KeySpec, Store, StoreConfig};
use zeroize::Zeroizing;

use crate::case::{
    ExchangeSetup, ModelSetup, PortfolioSetup, SetupItem, StrategySetup, TraderSetup,
};
use crate::error::EvalError;

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
